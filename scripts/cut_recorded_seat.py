"""Add one seat's stretch of a recorded landmark cache to a test fixture of recorded cuts.

Reads a cache written by ``scripts/eval_sample_gestures.py --cache DIR`` (``<clip>.<model>.npz``:
real landmarks and, recorded with the look, the tracker's finger patches) and stores the seat's
hands between two times as cut ``K`` of ``--out`` (keys ``K_times``, ``K_t``, ``K_world``,
``K_landmarks``, ``K_held``, ``K_track``, ``K_score``, ``K_patch`` rounded to 8 bits, ``K_fresh``,
``K_peaks``; a cache of two networks (``--model lite+full``) adds ``K_second``, whether the second
network read the hand fresh, and its ``K_second_world`` and ``K_second_landmarks``), the layout
``tests/vision/test_shots.py`` replays; the other cuts are kept.

    python scripts/cut_recorded_seat.py CACHE.npz --seat 9 --start 3.0 --end 15.2 \
        --peaks 9.7086 --cut 2 --out tests/vision/data/recorded_look_seats.npz
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np


def cut(data: dict[str, np.ndarray], seat: int, start: float, end: float,
        peaks: list[float]) -> dict[str, np.ndarray]:
    """The seat's rows between ``start`` and ``end`` (seconds), in the fixture's layout."""
    times = data["times"][(data["times"] >= start) & (data["times"] <= end)]
    rows = np.flatnonzero((data["seat"] == seat) & (data["t"] >= start) & (data["t"] <= end))
    patch = data["patch"][rows]
    fresh = ~np.isnan(patch).any(axis=(1, 2))
    return {
        "times": times,
        "t": data["t"][rows],
        "world": data["world"][rows].astype(np.float32),
        "landmarks": data["landmarks"][rows].astype(np.float32),
        "held": data["held"][rows],
        "track": data["track"][rows],
        "score": data["score"][rows].astype(np.float32),
        "patch": np.where(fresh[:, None, None], np.clip(np.round(patch), 0, 255), 0).astype(
            np.uint8
        ),
        "fresh": fresh,
        "peaks": np.asarray(peaks, np.float64),
        **(
            {
                "second": data["second"][rows],
                "second_world": data["second_world"][rows].astype(np.float32),
                "second_landmarks": data["second_landmarks"][rows].astype(np.float32),
            }
            if "second" in data
            else {}
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cache", type=Path)
    parser.add_argument("--seat", type=int, required=True)
    parser.add_argument("--start", type=float, required=True)
    parser.add_argument("--end", type=float, required=True)
    parser.add_argument("--peaks", type=float, nargs="*", default=[])
    parser.add_argument("--cut", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    with np.load(args.cache) as f:
        data = {k: f[k] for k in f.files}
    kept: dict[str, np.ndarray] = {}
    if args.out.exists():
        with np.load(args.out) as f:
            kept = {k: f[k] for k in f.files if not k.startswith(f"{args.cut}_")}
    new = cut(data, args.seat, args.start, args.end, args.peaks)
    kept.update({f"{args.cut}_{k}": v for k, v in new.items()})
    np.savez_compressed(args.out, **kept)
    print(f"{args.out}: cut {args.cut} = {args.cache.name} seat {args.seat} "
          f"{args.start}-{args.end} s, {len(new['t'])} hand-frames, {int(new['fresh'].sum())} "
          f"with a patch, peaks {args.peaks}")


if __name__ == "__main__":
    main()
