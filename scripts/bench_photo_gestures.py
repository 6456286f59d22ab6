"""Benchmark reading hands on photos: detection, then the test-time-augmentation views.

``mafiavision gestures IMAGE`` finds each hand (:meth:`PhotoHandDetector.detect`) and then reads
its fingers on its own landmarks and on the views of
:data:`mafiavision.vision.photo_hands.DEFAULT_VIEWS` (one HandLandmarker run each). Over the
first ``--photos`` photos of each class of the eval part of ../shared/handdata (EPSRC 640×480,
sign-language 100×100), prints per photo the median and p95 wall time of the detection and of
the views (``PhotoHandDetector.finger_probabilities``), with the machine and its load (shared
machine: the figures are noisy). The views are timed twice per photo, interleaved: the full
model alone (before session 5) and as the CLI reads them now (the lite model's views join a weak
vote: a few photos only, so the mean and the maximum show its cost). Example::

    python scripts/bench_photo_gestures.py --photos 10
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from extract_handdata_landmarks import DEFAULT_HANDDATA, list_photos  # noqa: E402

from mafiavision.machine import describe_machine  # noqa: E402
from mafiavision.vision.photo_hands import (  # noqa: E402
    DEFAULT_VIEWS,
    SECOND_MODEL,
    PhotoHandDetector,
    load_rgb,
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--handdata", type=Path, default=DEFAULT_HANDDATA)
    parser.add_argument("--photos", type=int, default=10, help="photos per class")
    args = parser.parse_args()
    picked: dict[tuple[str, str], list[str]] = {}
    for rel, source, label, part in list_photos(args.handdata):
        if (
            part == "eval"
            and label in "12345"
            and len(picked.setdefault((source, label), [])) < (args.photos)
        ):
            picked[(source, label)].append(rel)
    times: dict[str, dict[str, list[float]]] = {}
    with (
        PhotoHandDetector("full", max_hands=2) as alone,
        PhotoHandDetector("full", max_hands=2, second=SECOND_MODEL) as detector,
    ):
        warm = load_rgb(args.handdata / picked[("epsrc", "1")][0])
        for det in (alone, detector):
            det.detect(warm)  # warm up
        for (source, _), rels in sorted(picked.items()):
            for rel in rels:
                rgb = load_rgb(args.handdata / rel)
                start = time.perf_counter()
                hands = detector.detect(rgb)
                found = time.perf_counter()
                for hand in hands:
                    alone.finger_probabilities(rgb, hand)
                before = time.perf_counter()
                for hand in hands:
                    detector.finger_probabilities(rgb, hand)
                done = time.perf_counter()
                tally = times.setdefault(source, {"detect": [], "views": [], "views+lite": []})
                tally["detect"].append(1000 * (found - start))
                tally["views"].append(1000 * (before - found))
                tally["views+lite"].append(1000 * (done - before))
    print(f"views per hand: {len(DEFAULT_VIEWS)} ({', '.join(map(str, DEFAULT_VIEWS))})")
    for source, tally in times.items():
        print(f"{source} ({len(tally['detect'])} photos), per photo:")
        for kind, ms in tally.items():
            print(
                f"  {kind}: mean {np.mean(ms):.0f} ms, median {np.median(ms):.0f} ms, "
                f"p95 {np.percentile(ms, 95):.0f} ms, max {np.max(ms):.0f} ms"
            )
    print(describe_machine())


if __name__ == "__main__":
    main()
