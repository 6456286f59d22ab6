"""Cost of the fingers' look per hand and frame: cutting the patch and updating the look.

Runs on the real recorded cut of ``tests/vision/data/recorded_look_seats.npz`` (lite landmarks
of a rendered 854×480 clip; the frame is rebuilt as a grey 854×480 image from nothing, so only
the sampling cost is measured, not what it shows):

    python scripts/bench_look.py [--repeat 5]

Prints the mean and p95 milliseconds per hand-frame of :class:`PatchCutter.cut` and of
:class:`FingerLook.update` (on the recorded patches).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mafiavision.vision.appearance import FingerLook, PatchCutter  # noqa: E402

DATA = ROOT / "tests" / "vision" / "data" / "recorded_look_seats.npz"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with np.load(DATA) as f:
        fresh = f["0_fresh"]
        landmarks = f["0_landmarks"][fresh].astype(np.float64)
        patches = f["0_patch"][fresh].astype(np.float32)
        times = f["0_t"][fresh]
    image = np.full((480, 854, 3), 90, np.uint8)
    cut_ms: list[float] = []
    look_ms: list[float] = []
    for _ in range(args.repeat):
        cutter, look = PatchCutter(), FingerLook()
        for lm, patch, t in zip(landmarks, patches, times, strict=True):
            start = time.perf_counter()
            cutter.cut((1, 1), image, lm)
            mid = time.perf_counter()
            look.update(float(t), patch)
            cut_ms.append((mid - start) * 1e3)
            look_ms.append((time.perf_counter() - mid) * 1e3)
    print(f"data: {DATA.relative_to(ROOT)} cut 0 ({len(times)} fresh hand-frames) x {args.repeat}")
    for name, values in (("cut the patch", cut_ms), ("update the look", look_ms)):
        print(f"{name}: mean {np.mean(values):.3f} ms, p95 {np.percentile(values, 95):.3f} ms "
              "per hand-frame")
    print(f"together: mean {np.mean(cut_ms) + np.mean(look_ms):.3f} ms per hand-frame")


if __name__ == "__main__":
    main()
