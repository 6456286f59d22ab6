#!/usr/bin/env python
"""Does brightening a dark picture help the hand-landmark network? Real EPSRC photos, darkened.

Session 7 asked whether a per-crop brightness gain before MediaPipe would steady the landmarks of
hands in dim rooms (the rendered dim clips' garbage readings; docs/accuracy.md, "Session 7").
Each EPSRC hand photo (all 785, both sessions) is darkened as a dim room would show it (pixels
× ``--dim``, Gaussian sensor noise ``--noise``, JPEG quality 40), then read by the HandLandmarker
in IMAGE mode (one hand) as it is and after the gain (scale so the 99th percentile of its
luminance reaches ``--target``, at most 3×, skipped under 1.05×). Printed: hands found and
counts read right (:func:`classify_hand`'s count equal to the label) for both. ``--dim 1``
reads the photos untouched.

    python scripts/eval_dim_photos.py [--model lite|full] [--dim 0.3] [--noise 4] [--target 230]
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mafiavision.machine import describe_machine  # noqa: E402
from mafiavision.vision.gestures import classify_hand  # noqa: E402
from mafiavision.vision.photo_hands import PhotoHandDetector, load_rgb  # noqa: E402

EPSRC = ROOT.parent / "shared" / "handdata" / "epsrc_finger_counting_human"


def darken(image: np.ndarray, dim: float, noise: float, rng: np.random.Generator) -> np.ndarray:
    """A dim room's picture of ``image``: scaled, sensor noise, JPEG-compressed (quality 40)."""
    import cv2

    if dim >= 1:
        return image
    dark = np.clip(image.astype(np.float32) * dim + rng.normal(0, noise, image.shape), 0, 255)
    _, encoded = cv2.imencode(".jpg", dark.astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 40])
    return cv2.imdecode(encoded, cv2.IMREAD_UNCHANGED)


def brighten(image: np.ndarray, target: float) -> np.ndarray:
    """Scale so the 99th percentile of the luminance reaches ``target`` (at most 3×)."""
    gain = min(3.0, target / max(float(np.percentile(image.mean(axis=2), 99)), 1.0))
    if gain <= 1.05:
        return image
    return np.clip(image.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", choices=("lite", "full"), default="lite")
    parser.add_argument("--dim", type=float, default=0.3)
    parser.add_argument("--noise", type=float, default=4.0)
    parser.add_argument("--target", type=float, default=230.0)
    args = parser.parse_args()
    if not EPSRC.is_dir():
        parser.error(f"{EPSRC}: the EPSRC photos are not there (../shared/handdata)")
    detector = PhotoHandDetector(args.model, max_hands=1)
    with (EPSRC / "labels.csv").open() as fh:
        rows = [r for r in csv.DictReader(fh) if r["label_dir"] != "no_hand_background"]
    rng = np.random.default_rng(0)
    tally = {"as it is": [0, 0], "brightened": [0, 0]}
    for row in rows:
        image = darken(load_rgb(EPSRC / row["label_dir"] / row["file"]), args.dim, args.noise, rng)
        for name, pixels in (("as it is", image), ("brightened", brighten(image, args.target))):
            found = detector.read(pixels)
            if not found:
                continue
            image_lm, world, _, _ = found[0]
            tally[name][0] += 1
            tally[name][1] += int(classify_hand(world, image_lm).count == int(row["label_dir"]))
    n = len(rows)
    print(f"machine: {describe_machine()}")
    print(f"data: {n} EPSRC hand photos ({EPSRC}); model {args.model}; dim {args.dim}, noise "
          f"{args.noise}, JPEG 40; gain to p99 {args.target}")
    for name, (hands, right) in tally.items():
        print(f"  {name:10s}: hand found {hands}/{n} ({hands / n:.1%}), count right "
              f"{right}/{n} ({right / n:.1%})")


if __name__ == "__main__":
    main()
