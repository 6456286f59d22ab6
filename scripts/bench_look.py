"""Cost of the gestures per hand and frame, on top of tracking: the shot detector (the joints
alone, with the fingers' look, and with the look and the fold: the product's), cutting the finger
patch, and reading the hand's pose.

Runs on the real recorded cuts of ``tests/vision/data/recorded_look_seats.npz``: cuts 0 and 1
(lite landmarks and finger patches of a rendered 854×480 clip: one network, as the live night
runs) and cuts 5 and 6 (lite+full: each hand with the full network's reading too, as ``gestures
VIDEO`` and ``analyze`` run by default; the detector then reads both networks and the pose counts
the fingers both read extended). For cutting the patch the frame is rebuilt as a grey 854×480
image, so only the sampling cost is measured, not what it shows:

    python scripts/bench_look.py [--repeat 5]

Prints the mean and p95 CPU milliseconds per fresh hand-frame of each stage and their sum (what a
hand costs per frame on top of tracking: ``SeatTracker`` cuts the patch, the night and the
analysis feed the shot detector and read the pose for the numbers). The poses of a frame's hands
are read in one batch (:func:`mafiavision.vision.gestures.classify_seats`), so a hand's pose
costs less when more hands are up: it is timed for 1, 2, 4 and 12 hands a frame (the recorded
hand-frames taken n at a time), and the sum is given for each — and without the pose, which the
live night reads only while it reads numbers (a check), not during a hunt.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mafiavision.vision.appearance import PatchCutter  # noqa: E402
from mafiavision.vision.gestures import classify_hands  # noqa: E402
from mafiavision.vision.hands import HandObservation  # noqa: E402
from mafiavision.vision.shots import ShotConfig, ShotDetector  # noqa: E402
from tests.vision.gesture_data import recorded_cut, recorded_observations  # noqa: E402

DATA = ROOT / "tests" / "vision" / "data" / "recorded_look_seats.npz"


def observations(cut: int) -> list[HandObservation]:
    """The cut's fresh hand-frames as the tracker gives them (with their recorded patch; a cut
    of two networks with the second network's fresh reading, as the pair gives it)."""
    return [h for h in recorded_observations(recorded_cut(DATA, cut)) if h.patch is not None]


def timed(frames: list[HandObservation], step: Callable[[HandObservation], object]) -> list[float]:
    """CPU milliseconds of ``step`` on each frame (the thread's CPU time: other processes
    sharing the cores do not count, as a wall clock would count them)."""
    out = []
    for obs in frames:
        start = time.thread_time()
        step(obs)
        out.append((time.thread_time() - start) * 1e3)
    return out


def timed_batches(frames: list[HandObservation], n: int) -> list[float]:
    """CPU milliseconds per hand of reading the poses of ``n`` hands at once, batch by batch."""
    out = []
    for k in range(0, len(frames) - n + 1, n):
        batch = frames[k: k + n]
        start = time.thread_time()
        classify_hands(batch)
        out += [(time.thread_time() - start) * 1e3 / n] * n
    return out


TABLE = (1, 2, 4, 12)  # hands up in one frame
#: what each group of cuts stands for, and its cuts
GROUPS = {"one network (lite, the live night)": (0, 1),
          "two networks (lite+full, gestures VIDEO and analyze)": (5, 6)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}")
    for name, numbers in GROUPS.items():
        bench(name, numbers, args.repeat)


def bench(name: str, numbers: tuple[int, ...], repeat: int) -> None:
    """Time every stage on the cuts ``numbers``; print the figures."""
    cuts = [observations(k) for k in numbers]
    image = np.full((480, 854, 3), 90, np.uint8)
    stages: dict[str, list[float]] = {
        "shot detector, joints alone": [], "shot detector, joints + look": [],
        "shot detector, joints + look + fold": [],
        "cut the finger patch": [],
        **{f"read the pose, {n} hand(s) a frame": [] for n in TABLE},
    }
    for _ in range(repeat):
        for frames in cuts:
            joints = ShotDetector(1, ShotConfig(look=None, finger_fold=None)).update
            both = ShotDetector(1, ShotConfig(finger_fold=None)).update
            product = ShotDetector(1, ShotConfig()).update
            cut = PatchCutter().cut
            stages["shot detector, joints alone"] += timed(frames, lambda o, f=joints: f(o, o.t))
            stages["shot detector, joints + look"] += timed(frames, lambda o, f=both: f(o, o.t))
            stages["shot detector, joints + look + fold"] += timed(
                frames, lambda o, f=product: f(o, o.t))
            stages["cut the finger patch"] += timed(
                frames, lambda o, f=cut: f((1, o.track), image, o.landmarks))
            for n in TABLE:
                stages[f"read the pose, {n} hand(s) a frame"] += timed_batches(frames, n)
    frames = sum(len(c) for c in cuts)
    print(f"\n{name}: {DATA.relative_to(ROOT)} cuts {', '.join(map(str, numbers))} "
          f"({frames} fresh hand-frames) x {repeat}")
    for stage, values in stages.items():
        print(f"{stage}: mean {np.mean(values):.3f} ms, p95 {np.percentile(values, 95):.3f} ms "
              "per hand-frame")
    rest = sum(np.mean(stages[k]) for k in ("shot detector, joints + look + fold",
                                            "cut the finger patch"))
    print(f"on top of tracking during a hunt (the live night reads no pose then: the detector "
          f"+ cut): mean {rest:.3f} ms per hand-frame")
    for n in TABLE:
        total = rest + np.mean(stages[f"read the pose, {n} hand(s) a frame"])
        print(f"on top of tracking (the detector + cut + pose), {n} hand(s) a frame: "
              f"mean {total:.3f} ms per hand-frame")


if __name__ == "__main__":
    main()
