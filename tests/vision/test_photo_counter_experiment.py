"""The photo-count CNN experiment (``scripts/train_photo_counter.py``, a negative result kept
reproducible): its canonical crop on real photos and its fusion rule, whose figures
docs/accuracy.md reports."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from mafiavision.vision.photo_hands import PhotoHandDetector, load_rgb

_SPEC = importlib.util.spec_from_file_location(
    "train_photo_counter",
    Path(__file__).resolve().parents[2] / "scripts" / "train_photo_counter.py",
)
assert _SPEC is not None and _SPEC.loader is not None
experiment = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(experiment)
CROP_SIDE, FLIPPED_MARGIN = experiment.CROP_SIDE, experiment.FLIPPED_MARGIN
best_patterns, crop_transform, fuse = (
    experiment.best_patterns,
    experiment.crop_transform,
    experiment.fuse,
)
hand_crop, to_grey = experiment.hand_crop, experiment.to_grey

EPSRC = "epsrc_finger_counting_human"
SIGN = "sign_language_digits_ardamavi"
PHOTOS = (  # eval-part photos: EPSRC Set2, two odd-indexed sign-language students
    f"{EPSRC}/1/Set2_one_1.jpg",
    f"{EPSRC}/3/Set2_three_10.jpg",
    f"{EPSRC}/5/Set2_five_10.jpg",
    f"{SIGN}/2/IMG_1130.JPG",
    f"{SIGN}/4/IMG_1132.JPG",
)


@pytest.fixture(scope="module")
def found(handdata: Path) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """photo → (RGB, landmarks of its hand found by the real HandLandmarker)."""
    out = {}
    with PhotoHandDetector("full", max_hands=1) as detector:
        for rel in PHOTOS:
            rgb = load_rgb(handdata / rel)
            (hand,) = detector.detect(rgb)
            out[rel] = (rgb, hand.landmarks)
    return out


def _flip(rgb: np.ndarray, lm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    out = lm.copy()
    out[:, 0] = 1.0 - lm[:, 0]
    return rgb[:, ::-1], out


def _rot90(rgb: np.ndarray, lm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The photo turned 90° counter-clockwise, its landmarks with it."""
    out = lm.copy()
    out[:, 0], out[:, 1] = lm[:, 1], 1.0 - lm[:, 0]
    return np.rot90(rgb), out


TRANSFORMS: dict[str, Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]] = {
    "as is": lambda rgb, lm: (rgb, lm),
    "mirrored": _flip,
    "turned 90°": _rot90,
    "turned and mirrored": lambda rgb, lm: _flip(*_rot90(rgb, lm)),
}


@pytest.mark.parametrize("photo", PHOTOS)
@pytest.mark.parametrize("transform", TRANSFORMS)
def test_crop_is_canonical(
    found: dict[str, tuple[np.ndarray, np.ndarray]], photo: str, transform: str
) -> None:
    """Wrist below the middle MCP, thumb side left, whole hand inside; the same crop whichever
    way the photo was turned or mirrored."""
    rgb, lm = TRANSFORMS[transform](*found[photo])
    height, width = rgb.shape[:2]
    m = crop_transform(lm, width, height)
    pts = (lm[:, :2] * (width, height) - 0.5) @ m[:, :2].T + m[:, 2]
    up = pts[9] - pts[0]
    assert up[1] < 0 and abs(up[0]) < 1e-6 * CROP_SIDE  # wrist → middle MCP points straight up
    assert pts[5, 0] < pts[17, 0]  # index MCP left of the pinky MCP: the thumb side is left
    assert (pts >= 0).all() and (pts <= CROP_SIDE).all()
    crop = hand_crop(to_grey(np.ascontiguousarray(rgb)), lm)
    reference = hand_crop(to_grey(found[photo][0]), found[photo][1])
    assert crop.shape == (CROP_SIDE, CROP_SIDE) and crop.dtype == np.uint8
    diff = np.abs(crop.astype(float) - reference).mean()
    others = [
        np.abs(hand_crop(to_grey(r), l_).astype(float) - reference).mean()
        for p, (r, l_) in found.items()
        if p != photo
    ]
    assert diff < 1.0  # grey levels: the same pixels (measured ≤ 0.001)
    assert min(others) > 8.0  # another hand's crop (measured ≥ 14)


P_TWO = (0.6, 0.97, 0.96, 0.03, 0.02)  # thumb unsure: reads 3 (thumb, index, middle)
Q_ONE, Q_TWO = (0.80, 0.10, 0.05, 0.03, 0.02), (0.03, 0.90, 0.03, 0.02, 0.02)  # p(count 1…5)


@pytest.mark.parametrize(
    ("p", "q", "weight", "states"),
    [
        # the landmarks read 0: the CNN (no 0 among its classes) cannot change it
        ((0.1, 0.2, 0.1, 0.05, 0.4), (0.9, 0.05, 0.03, 0.01, 0.01), 4.0, (0, 0, 0, 0, 0)),
        # weight 0: the landmark reading as it was
        (P_TWO, (0.02, 0.9, 0.04, 0.02, 0.02), 0.0, (1, 1, 1, 0, 0)),
        # the CNN agrees with the landmarks' count: nothing changes
        (P_TWO, (0.02, 0.02, 0.9, 0.04, 0.02), 1.0, (1, 1, 1, 0, 0)),
        # the CNN says 2: the least sure extended finger (the thumb) folds
        (P_TWO, (0.03, 0.9, 0.03, 0.02, 0.02), 1.0, (0, 1, 1, 0, 0)),
        # a weak CNN does not outvote sure landmarks
        ((0.02, 0.98, 0.98, 0.02, 0.02), (0.1, 0.3, 0.4, 0.1, 0.1), 1.0, (0, 1, 1, 0, 0)),
        # the CNN says 4: the most probable folded finger (the pinky, 0.45) rises
        ((0.2, 0.9, 0.9, 0.9, 0.45), (0.02, 0.03, 0.1, 0.8, 0.05), 1.0, (0, 1, 1, 1, 1)),
        # one finger chain laid on another: the landmarks read 1, the pixels clearly 2
        ((0.05, 0.99, 0.2, 0.03, 0.02), Q_TWO, 1.0, (0, 1, 1, 0, 0)),
        ((0.05, 0.99, 0.2, 0.03, 0.02), Q_ONE, 1.0, (0, 1, 0, 0, 0)),
    ],
)
def test_fuse_picks_counts(
    p: tuple[float, ...], q: tuple[float, ...], weight: float, states: tuple[int, ...]
) -> None:
    fused = fuse(np.array(p), np.array(q), weight)
    assert tuple((fused > 0.5).astype(int)) == states
    changed = (fused > 0.5) != (np.array(p) > 0.5)
    assert np.allclose(np.abs(2 * fused[changed] - 1), FLIPPED_MARGIN)  # flipped: never sure
    assert np.array_equal(fused[~changed], np.array(p)[~changed])


@pytest.mark.parametrize(
    ("p", "count", "pattern"),
    [
        ((0.9, 0.8, 0.1, 0.2, 0.3), 0, (0, 0, 0, 0, 0)),
        ((0.9, 0.8, 0.1, 0.2, 0.3), 1, (1, 0, 0, 0, 0)),
        ((0.9, 0.8, 0.1, 0.2, 0.3), 3, (1, 1, 0, 0, 1)),
        ((0.9, 0.8, 0.1, 0.2, 0.3), 5, (1, 1, 1, 1, 1)),
    ],
)
def test_best_patterns(p: tuple[float, ...], count: int, pattern: tuple[int, ...]) -> None:
    patterns, logp = best_patterns(np.array(p))
    assert tuple(patterns[count].astype(int)) == pattern
    assert int(np.argmax(logp)) == 2  # the thresholded pattern (two p > 0.5) is the most probable
