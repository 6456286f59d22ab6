"""Benchmark per-seat hand tracking end to end (decode + gate + landmarkers + tracks).

The clip: real photo sequences from ../shared/handdata/epsrc_finger_counting_human (every 3rd
frame of a stream, so the hands move) composed into a 4x3 grid of seats, empty seats showing the
same wall without a hand, plus camera-like noise (σ = 3 grey levels), encoded as H.264 mp4 in a
temporary folder at 720p and 1080p. Scenarios:

* hunt: 10-seat table, hands raised at 3 seats tracked at full rate, the other 7 swept;
* all12: 12 seats all at full rate, hands raised at 10 of them.

Prints ms/frame (median, p95) and fps over the frames after a warm-up (landmarker creation), for
1 and 2 landmarker processes, with the machine and clip; "cpu ms" is the median CPU time of the
main process per frame (all its threads; for 2 processes the worker's share is not in it), which
approximates the wall time on an idle core when the machine is shared. Example:

    python scripts/bench_tracking.py --frames 150
    python scripts/bench_tracking.py --scenarios "" --sizes "" --samples kharkiv_hit_ru
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mafiavision.machine import describe_machine  # noqa: E402
from mafiavision.samples.truth import ClipTruth  # noqa: E402
from mafiavision.vision.composite import (  # noqa: E402
    compose,
    grid_table,
    load_rgb,
    photo_sequences,
)
from mafiavision.vision.hands import SeatTracker  # noqa: E402
from mafiavision.vision.preview import Mp4Writer  # noqa: E402
from mafiavision.vision.sources import open_source  # noqa: E402
from mafiavision.vision.table import Table  # noqa: E402
from mafiavision.vision.workers import ParallelSeatTracker  # noqa: E402

EPSRC = ROOT.parent / "shared" / "handdata" / "epsrc_finger_counting_human"
SCENARIOS = {
    # name: (table seats, seats with a raised hand, active seats (None: all))
    "hunt": (10, [2, 5, 9], [2, 5, 9]),
    "all12": (12, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], None),
}


def make_clip(path: Path, size: tuple[int, int], hands: list[int], frames: int, hold: int
              ) -> None:
    rng = np.random.default_rng(0)
    background = load_rgb(EPSRC / "no_hand_background" / "Set1_imbk.jpg")
    folders = [EPSRC / str(1 + k % 5) for k in range(12)]
    seqs = {
        seat: [load_rgb(p) for p in photo_sequences(folders[seat - 1], 2, frames // hold // 2 + 1)
               [seat % 2]]
        for seat in hands
    }
    with Mp4Writer(path, *size) as writer:
        for i in range(frames):
            cells = [seqs[s][(i // hold) % len(seqs[s])] if s in seqs else None
                     for s in range(1, 13)]
            image = compose(cells, size, background=background).astype(np.int16)
            image += rng.normal(0, 3, image.shape).astype(np.int16)
            writer.write(np.clip(image, 0, 255).astype(np.uint8), i / 30)


def run(clip: Path, table: Table, active: list[int] | None, workers: int, model: str,
        warmup: int) -> dict[str, float]:
    cls = ParallelSeatTracker if workers == 2 else SeatTracker
    tracker = cls(table, model)
    tracker.set_active(active)
    times, cpu, found = [], [], []
    with open_source(clip) as source:
        it = iter(source)
        while True:
            t0, c0 = time.perf_counter(), time.process_time()
            frame = next(it, None)
            if frame is None:
                break
            hands = tracker.update(frame)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            found.append(sum(1 for obs in hands.values() for o in obs if not o.held))
    tracker.close()
    steady = times[warmup:]
    ms = sorted(t * 1000 for t in steady)
    return {
        "median": statistics.median(ms),
        "p95": ms[int(0.95 * (len(ms) - 1))],
        "fps": len(steady) / sum(steady),
        "frames": len(steady),
        "cpu": statistics.median(cpu[warmup:]) * 1000,
        "fresh_hands": statistics.mean(found[warmup:]),
    }


def row(size: str, scenario: str, workers: int, r: dict[str, float]) -> None:
    print(f"{size:>9} {scenario:>8} {workers:>7} {r['median']:>9.1f} {r['p95']:>7.1f} "
          f"{r['fps']:>6.1f} {r['cpu']:>6.1f} {r['fresh_hands']:>11.2f}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=150)
    parser.add_argument("--warmup", type=int, default=15)
    parser.add_argument("--sizes", default="1280x720,1920x1080")
    parser.add_argument("--scenarios", default="hunt,all12")
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--model", choices=("lite", "full"), default="lite")
    parser.add_argument("--samples", default="",
                        help="also time these sample clips (names in sample_videos/, e.g. "
                        "kharkiv_hit_ru): raised-hand seats active + swept, and all seats")
    parser.add_argument("--hold", type=int, default=3,
                        help="frames each photo is shown: 3 = the pace the photos were taken "
                        "(every 3rd frame of a stream); 1 = hands moving 3x faster")
    args = parser.parse_args()
    if not EPSRC.is_dir():
        print(f"needs the real photos at {EPSRC}", file=sys.stderr)
        return 2
    print(f"machine: {describe_machine()}")
    if args.sizes and args.scenarios:
        print(f"clip: {args.frames} frames at 30 fps, H.264 mp4, 4x3 grid of seats composed from "
              f"{EPSRC.relative_to(ROOT.parent)} photo sequences (each photo {args.hold} frames) "
              f"+ noise σ=3")
    print(f"model {args.model}; first {args.warmup} frames excluded (landmarker creation)")
    print(f"{'size':>9} {'scenario':>8} {'workers':>7} {'median ms':>9} {'p95 ms':>7} "
          f"{'fps':>6} {'cpu ms':>6} {'hands/frame':>11}")
    with tempfile.TemporaryDirectory() as tmp:
        for size_text in filter(None, args.sizes.split(",")):
            size = tuple(int(v) for v in size_text.split("x"))
            for scenario in filter(None, args.scenarios.split(",")):
                clip = Path(tmp) / f"{scenario}_{size_text}.mp4"
                make_clip(clip, size, SCENARIOS[scenario][1],  # type: ignore[arg-type]
                          args.frames, args.hold)
                seats, _, active = SCENARIOS[scenario]
                table = grid_table(seats, size)  # type: ignore[arg-type]
                for workers in (int(w) for w in args.workers.split(",")):
                    row(size_text, scenario, workers,
                        run(clip, table, active, workers, args.model, args.warmup))
        for name in args.samples.split(",") if args.samples else []:
            clip = ROOT / "sample_videos" / f"{name}.mp4"
            truth = ClipTruth.load(clip.with_suffix(".truth.json"))
            table = Table.load(clip.with_suffix(".table.json"))
            size_text = f"{truth.video.width}x{truth.video.height}"
            print(f"sample clip {clip.name}: {truth.video.frames} frames at {truth.video.fps} fps, "
                  f"{truth.seats} seats, hands raised at {sorted({h.seat for h in truth.hands})}")
            for scenario, active in (("hunt", sorted({h.seat for h in truth.hands})),
                                     ("all", None)):
                for workers in (int(w) for w in args.workers.split(",")):
                    row(size_text, scenario, workers,
                        run(clip, table, active, workers, args.model, args.warmup))
    print(f"load average after {os.getloadavg()[0]:.2f} (other jobs share this machine: "
          "wall-clock figures are noisy)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
