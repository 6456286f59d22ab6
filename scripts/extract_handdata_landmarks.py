"""Run the real MediaPipe HandLandmarker over the real photos in ../shared/handdata; cache results.

Photos: EPSRC finger counting (classes 1–5 and the two empty backgrounds) and the sign-language
digits 0–9 (100×100, upscaled ×3 by :class:`PhotoHandDetector`, whose ``min_side`` is 300).
IMAGE mode, the *full* landmark model, one hand per photo (with the detector's padded pass). The
cache (``cache/handdata_landmarks.npz``, outside git: derived data, regenerate it) holds, per
photo: its path relative to handdata, source, label, the fixed fit/eval part, whether a hand was
detected, the normalised and world landmarks (NaN when not detected) and the detection score, and
the hand's landmarks on every test-time-augmentation view of
:data:`mafiavision.vision.photo_hands.CANDIDATE_VIEWS` (``view_landmarks``, ``view_world``: NaN
where the view found no hand; ``views``: mirror, turn, scale per view), read by the same
:meth:`PhotoHandDetector.views` call as ``mafiavision gestures IMAGE``.

The fixed split (thresholds are fitted on "fit" and reported on "eval"):
* EPSRC: Set1 → fit, Set2 → eval (two sessions of one person).
* Sign language: each student photographed the ten digits in a row (IMG numbers consecutive); a
  student is identified by the IMG number of their "0" photo (the last "0" number not above the
  file's number). Students in sorted order alternate: even index → fit, odd → eval.

Usage::

    python scripts/extract_handdata_landmarks.py [--handdata ../shared/handdata] [--out cache/...]
"""

from __future__ import annotations

import argparse
import bisect
import csv
import re
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mafiavision.vision.models import HandVariant  # noqa: E402
from mafiavision.vision.photo_hands import (  # noqa: E402
    CANDIDATE_VIEWS,
    PhotoHand,
    PhotoHandDetector,
    View,
    landmark_bbox,
    load_rgb,
)

DEFAULT_HANDDATA = ROOT.parent / "shared" / "handdata"
DEFAULT_CACHE = ROOT / "cache" / "handdata_landmarks.npz"
DEFAULT_LITE_CACHE = ROOT / "cache" / "handdata_landmarks_lite.npz"
EPSRC = "epsrc_finger_counting_human"
SIGN = "sign_language_digits_ardamavi"


def _img_number(name: str) -> int:
    match = re.search(r"(\d+)", name)
    if match is None:
        raise ValueError(f"{name}: no IMG number")
    return int(match.group(1))


def list_photos(handdata: Path) -> list[tuple[str, str, str, str]]:
    """(relative path, source, label, part) of every photo, in a fixed order."""
    rows: list[tuple[str, str, str, str]] = []
    with (handdata / EPSRC / "labels.csv").open() as fh:
        for rec in csv.DictReader(fh):
            label = "none" if rec["label_dir"] == "no_hand_background" else rec["label_dir"]
            part = "fit" if rec["set"] == "Set1" else "eval"
            rows.append((f"{EPSRC}/{rec['label_dir']}/{rec['file']}", "epsrc", label, part))
    sign = handdata / SIGN
    anchors = sorted(_img_number(p.name) for p in (sign / "0").glob("IMG_*"))
    for digit in range(10):
        for path in sorted((sign / str(digit)).glob("IMG_*")):
            student = max(0, bisect.bisect_right(anchors, _img_number(path.name)) - 1)
            part = "fit" if student % 2 == 0 else "eval"
            rows.append((f"{SIGN}/{digit}/{path.name}", "sign", str(digit), part))
    return rows


def read_views(
    detector: PhotoHandDetector, rgb: np.ndarray, hand: PhotoHand, landmarks: np.ndarray,
    world: np.ndarray,
) -> None:
    """Store the hand's readings on every view of :data:`CANDIDATE_VIEWS` into ``landmarks``
    and ``world`` (views, 21, 3): the same :meth:`PhotoHandDetector.views` call as the CLI; a
    view that shows no hand is left NaN."""
    for v, seen in enumerate(detector.views(rgb, hand, CANDIDATE_VIEWS)):
        if seen is not None:
            landmarks[v], world[v] = seen


def progress(i: int, n: int, start: float) -> None:
    if (i + 1) % 250 == 0:
        print(f"{i + 1}/{n} photos, {time.perf_counter() - start:.0f} s", flush=True)


def extract(handdata: Path, out: Path) -> None:
    rows = list_photos(handdata)
    n = len(rows)
    landmarks = np.full((n, 21, 3), np.nan, dtype=np.float32)
    world = np.full((n, 21, 3), np.nan, dtype=np.float32)
    score = np.zeros(n, dtype=np.float32)
    detected = np.zeros(n, dtype=bool)
    nv = len(CANDIDATE_VIEWS)
    view_landmarks = np.full((n, nv, 21, 3), np.nan, dtype=np.float32)
    view_world = np.full((n, nv, 21, 3), np.nan, dtype=np.float32)
    start = time.perf_counter()
    with PhotoHandDetector("full", max_hands=1) as detector:
        for i, (rel, _source, _label, _part) in enumerate(rows):
            rgb = load_rgb(handdata / rel)
            hands = detector.detect(rgb)
            if hands:
                landmarks[i], world[i] = hands[0].landmarks, hands[0].world
                score[i], detected[i] = hands[0].score, True
                read_views(detector, rgb, hands[0], view_landmarks[i], view_world[i])
            progress(i, n, start)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        out,
        path=np.array([r[0] for r in rows]),
        source=np.array([r[1] for r in rows]),
        label=np.array([r[2] for r in rows]),
        part=np.array([r[3] for r in rows]),
        detected=detected,
        landmarks=landmarks,
        world=world,
        score=score,
        views=np.array([(v.mirror, v.turn, v.scale) for v in CANDIDATE_VIEWS], dtype=np.float32),
        view_landmarks=view_landmarks,
        view_world=view_world,
    )
    print(f"{n} photos, {detected.sum()} detected, {time.perf_counter() - start:.0f} s → {out}")


def extract_second(handdata: Path, cache: Path, out: Path, variant: HandVariant) -> None:
    """The second landmark model's reading of every hand of ``cache``: the hand that the full
    model found (its box, from its cached landmarks) read by ``variant`` on every view of
    :data:`CANDIDATE_VIEWS`, by the same :meth:`PhotoHandDetector.views` call as the CLI."""
    data = load_cache(cache)
    n, nv = len(data["path"]), len(CANDIDATE_VIEWS)
    view_landmarks = np.full((n, nv, 21, 3), np.nan, dtype=np.float32)
    view_world = np.full((n, nv, 21, 3), np.nan, dtype=np.float32)
    start = time.perf_counter()
    with PhotoHandDetector(variant, max_hands=1) as detector:
        for i in np.flatnonzero(data["detected"]):
            rgb = load_rgb(handdata / str(data["path"][i]))
            height, width = rgb.shape[:2]
            lm = data["landmarks"][i]
            hand = PhotoHand(
                lm, data["world"][i], float(data["score"][i]), "", landmark_bbox(lm, width, height)
            )
            read_views(detector, rgb, hand, view_landmarks[i], view_world[i])
            progress(i, n, start)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        out,
        path=data["path"],
        model=np.array(variant),
        views=data["views"],
        view_landmarks=view_landmarks,
        view_world=view_world,
    )
    print(f"{n} photos, {variant} views read, {time.perf_counter() - start:.0f} s → {out}")


def load_cache(path: Path = DEFAULT_CACHE) -> dict[str, np.ndarray]:
    """The cache as a dict of arrays; tells how to build it when it is missing."""
    if not path.exists():
        raise SystemExit(f"{path}: no landmark cache; run scripts/extract_handdata_landmarks.py")
    with np.load(path) as data:
        return {key: data[key] for key in data.files}


def view_columns(data: dict[str, np.ndarray], views: tuple[View, ...]) -> list[int]:
    """The cache's columns of ``views`` (``view_landmarks[:, column]``), or a clear exit."""
    cached = [View(bool(m), float(t), float(s)) for m, t, s in data.get("views", [])]
    missing = [v for v in views if v not in cached]
    if missing:
        raise SystemExit(f"the landmark cache lacks views {missing}: rerun this script")
    return [cached.index(v) for v in views]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--handdata", type=Path, default=DEFAULT_HANDDATA)
    parser.add_argument("--out", type=Path, default=DEFAULT_CACHE)
    parser.add_argument(
        "--lite-views",
        type=Path,
        metavar="OUT",
        help=f"instead: read the cached hands' views with the lite model → OUT "
        f"(e.g. {DEFAULT_LITE_CACHE.relative_to(ROOT)}); needs the full model's cache (--out)",
    )
    args = parser.parse_args()
    if not args.handdata.is_dir():
        raise SystemExit(f"{args.handdata}: hand data folder not found")
    if args.lite_views:
        extract_second(args.handdata, args.out, args.lite_views, "lite")
    else:
        extract(args.handdata, args.out)


if __name__ == "__main__":
    main()
