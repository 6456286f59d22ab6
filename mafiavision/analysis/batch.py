"""``mafiavision analyze-batch``: analyse a whole archive on Dask (``dask.distributed``).

Each recording is one task: ``OUT/<name>/`` receives its ``events.json``, report and — when
``<name>.deal.yaml`` (the deal, :mod:`~mafiavision.analysis.deal`) lies beside the recording —
its game record.
A game whose ``events.json`` exists is finished and skipped (``events.json`` is written last and
atomically, so an interrupted game is redone). A task that fails — a corrupt file, a missing
table, even a worker that dies — becomes a ``failed`` row; the other games go on. At the end
``OUT/summary.csv`` and ``OUT/stats.html`` cover every game of the batch.

Without ``--scheduler`` a ``LocalCluster`` of worker processes runs on this machine; with
``--scheduler tcp://host:port`` the tasks go to a running cluster, whose workers must have
mafiavision installed and see the recordings and OUT under the same paths.
"""

from __future__ import annotations

import glob
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from mafiavision.analysis.events import Events
from mafiavision.analysis.stats import GameRow, render_stats, write_summary
from mafiavision.errors import InputError, MissingInputError

VIDEO_SUFFIXES = (".mp4", ".mkv", ".avi", ".webm", ".mov")


@dataclass(frozen=True)
class BatchJob:
    """One recording of the batch and where its results go."""

    recording: Path
    table: Path
    rules: str
    out: Path
    deal: Path | None = None

    @property
    def game(self) -> str:
        return self.out.name


def find_recordings(spec: str) -> list[Path]:
    """A folder (its video files, not recursive) or a glob pattern."""
    path = Path(spec)
    if path.is_dir():
        found = [p for p in sorted(path.iterdir()) if p.suffix.lower() in VIDEO_SUFFIXES]
    else:
        found = [Path(p) for p in sorted(glob.glob(spec, recursive=True))]
        found = [p for p in found if p.is_file()]
    if not found:
        raise MissingInputError(f"{spec}: no recording found (a folder of videos or a glob)")
    return found


def table_for(recording: Path, shared: Path | None) -> Path:
    """``--table`` when given, else ``<name>.table.json`` beside the recording."""
    if shared is not None:
        return shared
    return recording.with_name(recording.stem + ".table.json")


def deal_for(recording: Path) -> Path | None:
    """``<name>.deal.yaml`` beside the recording, if the club wrote one."""
    path = recording.with_name(recording.stem + ".deal.yaml")
    return path if path.exists() else None


def plan(recordings: Sequence[Path], out: Path, rules: str, table: Path | None) -> list[BatchJob]:
    stems = [r.stem for r in recordings]
    clash = sorted({s for s in stems if stems.count(s) > 1})
    if clash:
        raise InputError(f"several recordings are named {clash[0]!r}: results would overwrite")
    return [BatchJob(r, table_for(r, table), rules, out / r.stem, deal_for(r))
            for r in recordings]


def run_job(job: BatchJob) -> GameRow:
    """Analyse one recording (runs on a worker); any error becomes a ``failed`` row."""
    from mafiavision.analysis.pipeline import Options, analyze

    try:
        result = analyze(job.recording, job.table, job.rules, job.out,
                         Options(deal=job.deal, progress=False))
    except Exception as exc:  # one bad file must never stop the batch
        return GameRow(job.game, "failed", error=f"{type(exc).__name__}: {exc}".splitlines()[0])
    return GameRow.from_events(job.game, "done", result.events)


def _on_dask(todo: Sequence[BatchJob], scheduler: str | None, workers: int,
             progress: bool) -> list[GameRow]:
    from dask.distributed import Client, LocalCluster, as_completed
    from tqdm import tqdm

    cluster = None
    if scheduler is None:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        try:
            client = Client(scheduler, timeout="5s")
        except OSError as exc:
            raise InputError(f"--scheduler {scheduler}: cannot reach it ({exc})") from exc
    rows: list[GameRow] = []
    try:
        futures = {client.submit(run_job, job, pure=False, key=f"analyze-{job.game}"): job
                   for job in todo}
        bar = tqdm(total=len(todo), unit="game", disable=not progress)
        for future in as_completed(futures):
            job = futures[future]
            try:
                rows.append(future.result())
            except Exception as exc:  # the worker itself died or the task could not run
                rows.append(GameRow(job.game, "failed", error=f"{type(exc).__name__}: {exc}"))
            bar.update(1)
        bar.close()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    return rows


def run_batch(jobs: Sequence[BatchJob], out: Path, scheduler: str | None = None,
              workers: int = 2, progress: bool = True) -> list[GameRow]:
    """Run the unfinished jobs on Dask; write ``summary.csv`` and ``stats.html`` over all."""
    out.mkdir(parents=True, exist_ok=True)
    rows = [
        GameRow.from_events(job.game, "skipped", Events.load(job.out / "events.json"))
        for job in jobs if (job.out / "events.json").exists()
    ]
    todo = [job for job in jobs if not (job.out / "events.json").exists()]
    if todo:
        rows += _on_dask(todo, scheduler, workers, progress)
    games = {
        r.game: Events.load(out / r.game / "events.json") for r in rows if r.status != "failed"
    }
    write_summary(out / "summary.csv", rows)
    (out / "stats.html").write_text(render_stats(games, rows), encoding="utf-8")
    return sorted(rows, key=lambda r: r.game)
