#!/usr/bin/env python
"""Accuracy of ``mafiavision analyze`` on every sample clip against its ground truth.

Runs the analysis of every ``sample_videos/*.mp4`` that has a ``.truth.json`` (through
``analyze-batch`` on a local Dask cluster) and prints, per clip and in total: hunts found with
the right members, hunt verdicts equal to the truth (outcome, target and every member's
observation), checks equal to the truth (leader and number), the Don's orders equal to the truth,
shot recall and precision (same seat, deepest point within ±0.25 s) and the onset error of the
number windows (against the nearest spoken word of the same number). Each clip goes with a
``<name>.deal.yaml`` written from its truth (as a club's moderator writes it, :func:`write_deal`),
so each game record is checked too: it replays, and its hunts, checks and orders (the actions
whose evidence points into the recording) equal the truth. With ``--keep`` a second run reuses
the analyses already there (the batch skips finished games).

    python scripts/eval_analyze.py [--clips 'sample_videos/*.mp4'] [--workers 2] [--keep DIR]
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SHOT_TOLERANCE = 0.25


def write_deal(truth: dict, path: Path) -> Path:
    """The deal of a clip as a club's moderator writes it (each role with its seats, the most
    frequent card left out, and the night the clip begins on), from the clip's truth."""
    seats: dict[str, list[int]] = {}
    for seat, role in sorted(truth["roles"].items(), key=lambda kv: int(kv[0])):
        seats.setdefault(role, []).append(int(seat))
    plain = max(seats, key=lambda role: len(seats[role]))
    lines = ["roles:"] + [f"  {role}: {s[0] if len(s) == 1 else s}"
                          for role, s in seats.items() if role != plain]
    lines.append(f"night: {truth['night']}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def compare_record(path: Path, truth: dict) -> dict[str, float]:
    """The game record against the truth: replays (1/0), its observed hunts equal to the truth's
    (every member's observation), its checks and its orders equal to the truth's."""
    from mafiavision.analysis.game import read_live
    from mafiavision.rules import Check, Hunt, Meet
    from mafiavision.rules.record import RecordError, replay

    if not path.exists():
        return {"records": 0, "record_hunts": 0, "record_checks": 0, "record_orders": 0}
    try:
        replay(path)
    except RecordError:
        return {"records": 0, "record_hunts": 0, "record_checks": 0, "record_orders": 0}
    seen = [e.action for e in read_live(path)[1]
            if e.evidence is not None and e.evidence.video_time is not None]
    hunts = [{s.seat: (str(s.kind), s.target) for s in a.shots} for a in seen
             if isinstance(a, Hunt)]
    want = [{o["seat"]: (o["kind"], o["number"] if o["kind"] == "shot" else None)
             for o in w["observations"]} for w in truth["hunts"]]
    checks = [(a.seat, a.target) for a in seen if isinstance(a, Check)]
    orders = [list(a.orders) for a in seen if isinstance(a, Meet)]
    return {
        "records": 1,
        "record_hunts": sum(w in hunts for w in want),
        "record_checks": sum((w["by"], w["shown"]) in checks for w in truth["checks"]),
        "record_orders": sum(w["values"] in orders for w in truth["orders"]),
    }


def compare(events, truth: dict) -> dict[str, float]:
    """Counts of one clip: found/expected hunts, verdicts, checks, shots and window errors."""
    want_hunts = truth["hunts"]
    members = sum(
        any(sorted(h.members) == sorted(w["members"]) for h in events.hunts) for w in want_hunts
    )
    verdicts = 0
    for w in want_hunts:
        expected = (w["verdict"], w["target"], {
            o["seat"]: (o["kind"], o["number"] if o["kind"] == "shot" else None)
            for o in w["observations"]})
        verdicts += any(
            (h.verdict.outcome, h.verdict.target,
             {m.seat: (m.kind, m.target) for m in h.verdict.members}) == expected
            for h in events.hunts)
    checks = sum(any((c.seat, c.value) == (w["by"], w["shown"]) for c in events.checks)
                 for w in truth["checks"])
    orders = sum(any((o.seat, o.orders) == (w["by"], w["values"]) for o in events.orders)
                 for w in truth["orders"])
    real = [(g["seat"], g["peak"]) for g in truth["gestures"] if g["kind"] == "shot"]
    found = [(s.seat, s.t) for h in events.hunts for s in h.shots]
    hit = sum(any(s == seat and abs(t - peak) <= SHOT_TOLERANCE for s, t in found)
              for seat, peak in real)
    true_found = sum(any(s == seat and abs(t - peak) <= SHOT_TOLERANCE for seat, peak in real)
                     for s, t in found)
    onsets = [(w["number"], w["onset"]) for w in truth["words"] if w["kind"] == "number"]
    errors = [min(abs(w.onset - t) for n, t in onsets if n == w.seat)
              for h in events.hunts for w in h.windows if any(n == w.seat for n, _ in onsets)]
    return {
        "hunts": len(want_hunts), "hunts_found": members, "extra_hunts":
        max(0, len(events.hunts) - len(want_hunts)), "verdicts": verdicts,
        "checks": len(truth["checks"]), "checks_right": checks, "extra_checks":
        max(0, len(events.checks) - len(truth["checks"])), "orders": len(truth["orders"]),
        "orders_right": orders, "extra_orders": max(0, len(events.orders) - len(truth["orders"])),
        "shots": len(real),
        "shots_found": hit, "found": len(found), "true_found": true_found,
        "window_errors": errors,
    }


def main() -> int:
    from mafiavision.analysis.batch import plan, run_batch
    from mafiavision.analysis.events import Events

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clips", default=str(ROOT / "sample_videos" / "*.mp4"))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="write the analyses here (else a temp dir)")
    args = parser.parse_args()
    clips = [Path(p) for p in sorted(glob.glob(args.clips))
             if Path(p).with_name(Path(p).stem + ".truth.json").exists()]
    if not clips:
        print(f"no clip with a truth file matches {args.clips}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        out = args.keep or Path(tmp) / "out"
        archive = Path(tmp) / "archive"  # the clips, their tables and the deals of their truth
        archive.mkdir()
        for clip in clips:
            for suffix in (".mp4", ".table.json"):
                (archive / (clip.stem + suffix)).symlink_to(
                    clip.resolve().with_name(clip.stem + suffix))
            write_deal(json.loads(clip.with_name(clip.stem + ".truth.json").read_text()),
                       archive / f"{clip.stem}.deal.yaml")
        rows = {}
        for rules in sorted({json.loads(c.with_name(c.stem + ".truth.json").read_text())["rules"]
                             for c in clips}):
            mine = [archive / c.name for c in clips
                    if json.loads(c.with_name(c.stem + ".truth.json").read_text())["rules"]
                    == rules]
            rows.update({r.game: r for r in run_batch(plan(mine, out, rules, None), out,
                                                      workers=args.workers, progress=False)})
        totals: dict[str, float] = {}
        errors: list[float] = []
        print(f"{'clip':32} hunts  verdicts checks orders shots(recall) shots(precision) "
              "record(hunts checks orders)")
        for clip in clips:
            row = rows[clip.stem]
            if row.status == "failed":
                print(f"{clip.stem:32} FAILED: {row.error}")
                continue
            truth = json.loads(clip.with_name(clip.stem + ".truth.json").read_text())
            c = compare(Events.load(out / clip.stem / "events.json"), truth)
            c.update(compare_record(out / clip.stem / "record.jsonl", truth))
            errors += c.pop("window_errors")
            for k, v in c.items():
                totals[k] = totals.get(k, 0) + v
            print(f"{clip.stem:32} {c['hunts_found']}/{c['hunts']}+{c['extra_hunts']}  "
                  f"{c['verdicts']}/{c['hunts']}      {c['checks_right']}/{c['checks']}"
                  f"+{c['extra_checks']}  {c['orders_right']}/{c['orders']}+{c['extra_orders']}"
                  f"  {c['shots_found']}/{c['shots']}           {c['true_found']}/{c['found']}"
                  f"              {'replays' if c['records'] else 'NONE':8} "
                  f"{c['record_hunts']}/{c['hunts']} {c['record_checks']}/{c['checks']} "
                  f"{c['record_orders']}/{c['orders']}")
    t = totals
    print(f"total: hunts found {t['hunts_found']:.0f}/{t['hunts']:.0f} (+{t['extra_hunts']:.0f} "
          f"extra), verdicts equal to the truth {t['verdicts']:.0f}/{t['hunts']:.0f}, checks "
          f"{t['checks_right']:.0f}/{t['checks']:.0f} (+{t['extra_checks']:.0f} extra), orders "
          f"{t['orders_right']:.0f}/{t['orders']:.0f} (+{t['extra_orders']:.0f} extra), shot "
          f"recall {t['shots_found']:.0f}/{t['shots']:.0f}, precision "
          f"{t['true_found']:.0f}/{t['found']:.0f}")
    print(f"game records (deal from the truth): {t['records']:.0f}/{len(clips)} written and "
          f"replayed; in them, hunts equal to the truth {t['record_hunts']:.0f}/{t['hunts']:.0f}, "
          f"checks {t['record_checks']:.0f}/{t['checks']:.0f}, orders "
          f"{t['record_orders']:.0f}/{t['orders']:.0f}")
    if errors:
        print(f"number windows: onset error median {1000 * np.median(errors):.0f} ms, "
              f"p90 {1000 * np.percentile(errors, 90):.0f} ms over {len(errors)} windows")
    print(f"data: {len(clips)} clips matching {args.clips}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
