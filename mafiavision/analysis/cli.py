"""``mafiavision analyze`` and ``mafiavision analyze-batch``."""

from __future__ import annotations

import argparse
from pathlib import Path

from mafiavision.vision.pairing import TRACKER_MODELS


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "analyze",
        help="analyse a recorded game: events.json, game record, report.html",
        description="Analyse a recording of a game: find the hunts and checks, judge them, and "
        "write OUT/events.json, OUT/report.html and, when the deal is known (--deal or "
        "--record), the game record OUT/record.jsonl.",
    )
    p.add_argument("recording", type=Path, help="video file of the table (with the moderator's "
                   "voice as its audio track)")
    p.add_argument("--table", type=Path, required=True, help="table.json of the camera view")
    p.add_argument("--rules", required=True, help="rule set name (kharkiv, romanian, ukrainian, "
                   "triad) or a rules file")
    p.add_argument("--out", type=Path, required=True, help="output folder")
    p.add_argument("--hunts", help="hunt times by hand, START-END in seconds, comma-separated "
                   "(e.g. 12.0-30.5,95-110); replaces the hunt finder")
    p.add_argument("--checks", help="check times by hand, START-END,...; replaces the check "
                   "finder")
    p.add_argument("--record", type=Path, help="live game record (JSONL) of this recording: "
                   "every disagreement with it is listed")
    p.add_argument("--deal", type=Path, help="the deal (YAML: role: seat or [seats], e.g. "
                   "'don: 5', 'mafia: [3, 7]', 'sheriff: 9'; optionally 'night: N', the night "
                   "the recording begins on): the game record is written from it and what the "
                   "recording shows")
    p.add_argument("--model", choices=TRACKER_MODELS,
                   help="hand landmark network(s): lite+full (default: shots read from both, "
                   "fewer false shots on unseen clips), lite (about 1.4x faster) or full; "
                   "docs/analysis.md")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)

    b = subparsers.add_parser(
        "analyze-batch",
        help="analyse an archive of recordings on Dask; summary.csv and stats.html",
        description="Analyse every recording of a folder or glob on Dask (a local cluster by "
        "default). Finished games are skipped; a failing file never stops the batch.",
    )
    b.add_argument("recordings", help="folder of recordings or a glob ('archive/**/*.mp4')")
    b.add_argument("--out", type=Path, required=True, help="output folder (one sub-folder a game)")
    b.add_argument("--rules", required=True, help="rule set of the games")
    b.add_argument("--table", type=Path, help="one table.json for every recording (default: "
                   "<name>.table.json beside each recording); the deal of a game, when known, "
                   "is <name>.deal.yaml beside its recording")
    b.add_argument("--scheduler", help="address of a running Dask scheduler (tcp://host:port); "
                   "default: a local cluster")
    b.add_argument("--workers", type=int, default=2, help="local cluster worker processes")
    b.add_argument("--no-progress", action="store_true", help="no progress bar")
    b.set_defaults(func=run_batch)


def run(args: argparse.Namespace) -> int:
    from mafiavision.analysis.finder import parse_spans
    from mafiavision.analysis.pipeline import Options, analyze
    from mafiavision.analysis.scan import ScanConfig

    options = Options(
        scan=ScanConfig(model=args.model) if args.model else ScanConfig(),
        hunts=parse_spans(args.hunts, "--hunts") if args.hunts else None,
        checks=parse_spans(args.checks, "--checks") if args.checks else None,
        record=args.record,
        deal=args.deal,
        progress=not args.no_progress,
    )
    from mafiavision.analysis.pipeline import NO_RECORD

    result = analyze(args.recording, args.table, args.rules, args.out, options)
    print(result.record if result.record is not None else NO_RECORD)
    print(result.report)
    return 0


def run_batch(args: argparse.Namespace) -> int:
    from mafiavision.analysis.batch import find_recordings, plan
    from mafiavision.analysis.batch import run_batch as run_jobs

    jobs = plan(find_recordings(args.recordings), args.out, args.rules, args.table)
    rows = run_jobs(jobs, args.out, scheduler=args.scheduler, workers=args.workers,
                    progress=not args.no_progress)
    for row in rows:
        line = f"{row.status:8} {row.game}"
        print(line + (f": {row.error}" if row.error else ""))
    print(args.out / "summary.csv")
    print(args.out / "stats.html")
    return 1 if any(r.status == "failed" for r in rows) else 0
