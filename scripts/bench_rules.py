"""Benchmark of the rules engine and the game record on the bundled sample games.

    /work/venv/bin/python scripts/bench_rules.py [--repeat 200]

Prints, per measurement, the median over repeats: engine push (no record), full replay of a
record file (read + validate + push), and recording (write + fsync per action) on the repository's
disk and on /dev/shm. Figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mafiavision.machine import describe_machine
from mafiavision.rules import Game
from mafiavision.rules.record import RecordWriter, replay

SAMPLES = Path(__file__).resolve().parents[1] / "sample_games"


def _median_seconds(run: Callable[[], None], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    games = {path.stem: replay(path) for path in sorted(SAMPLES.glob("*.jsonl"))}
    actions = sum(len(g.actions) for g in games.values())
    print(f"machine: {describe_machine()}")
    print(f"data: {len(games)} sample games, {actions} actions; median of {args.repeat} runs")

    def push_all() -> None:
        for game in games.values():
            fresh = Game(game.rules)
            for action in game.actions:
                fresh.push(action)

    def replay_all() -> None:
        for path in SAMPLES.glob("*.jsonl"):
            replay(path)

    t = _median_seconds(push_all, args.repeat)
    print(f"engine push:   {t / actions * 1e6:7.1f} µs per action")
    t = _median_seconds(replay_all, args.repeat)
    print(f"replay a file: {t / actions * 1e6:7.1f} µs per action (read, validate, push)")
    game = max(games.values(), key=lambda g: len(g.actions))
    for label, where in (("disk", Path(__file__).resolve().parents[1]), ("/dev/shm", None)):
        if where is None and not Path("/dev/shm").is_dir():
            continue
        with tempfile.TemporaryDirectory(dir=where or "/dev/shm") as tmp:
            counter = iter(range(1_000_000))

            def record(tmp: str = tmp, counter: object = counter) -> None:
                path = Path(tmp) / f"g{next(counter)}.jsonl"  # type: ignore[call-overload]
                with RecordWriter.create(path, game.rules) as writer:
                    recorded = Game(game.rules, journal=writer)
                    for action in game.actions:
                        recorded.push(action)

            t = _median_seconds(record, max(5, args.repeat // 20))
        print(f"record ({label}): {t / len(game.actions) * 1e3:7.3f} ms per action (fsync each)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
