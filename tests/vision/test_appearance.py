"""The fingers' look: patches in the hand's frame, their change, and squeezes of the change.

Drawn hands (a palm and two fingers on a textured background) with their wrist and knuckle
landmarks: the patch must follow the hand when it moves, turns or scales, ignore the light's
level and a few pixels of landmark jitter, and change when the two fingers fold.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from mafiavision.vision.appearance import (
    COLS,
    HAND_ROWS,
    ROWS,
    FingerLook,
    LookConfig,
    PatchCutter,
    finger_patch,
    patch_change,
)

SIZE = (480, 640)  # frame rows, columns


def background(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    noise = rng.uniform(40, 90, (SIZE[0] // 16, SIZE[1] // 16)).astype(np.float32)
    return cv2.resize(noise, SIZE[::-1], interpolation=cv2.INTER_CUBIC)


def draw_hand(
    center: tuple[float, float] = (320, 300),
    angle: float = 0.0,
    scale: float = 1.0,
    fold: float = 0.0,
    gain: float = 1.0,
) -> tuple[np.ndarray, np.ndarray]:
    """An RGB frame with a hand (palm 60 × scale px long, index and middle 55 px, folded to
    ``1 - fold`` of their length) and its landmarks normalised to the frame (wrist, knuckles)."""
    image = background()
    a = np.deg2rad(angle)
    up = np.array([np.sin(a), -np.cos(a)])  # wrist → knuckles
    across = np.array([-up[1], up[0]])
    wrist = np.array(center, dtype=np.float64)
    palm = 60.0 * scale
    knuckles = wrist + palm * up
    corners = [wrist - 0.45 * palm * across, wrist + 0.45 * palm * across,
               knuckles + 0.45 * palm * across, knuckles - 0.45 * palm * across]
    cv2.fillPoly(image, [np.round(np.array(corners)).astype(np.int32)], 170.0)
    landmarks = np.zeros((21, 3))
    landmarks[0, :2] = wrist
    for k, side in ((5, -0.12), (9, 0.12)):
        mcp = knuckles + side * palm * across
        landmarks[k, :2] = mcp
        tip = mcp + (1.0 - fold) * 0.9 * palm * up
        cv2.line(image, tuple(np.round(mcp).astype(int)), tuple(np.round(tip).astype(int)),
                 200.0, max(1, round(0.16 * palm)))
    landmarks[:, 0] /= SIZE[1]
    landmarks[:, 1] /= SIZE[0]
    rgb = np.repeat((gain * image)[:, :, None], 3, axis=2).clip(0, 255).astype(np.uint8)
    return rgb, landmarks


def test_the_patch_has_its_size_and_reads_grey_or_rgb() -> None:
    rgb, lm = draw_hand()
    patch = finger_patch(rgb, lm)
    assert patch.shape == (ROWS, COLS) and patch.dtype == np.float32
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    assert np.abs(finger_patch(grey, lm) - patch).max() < 1.0


@pytest.mark.parametrize(
    ("moved", "most"),
    [
        ({"center": (200, 350)}, 0.05),  # moved across the frame
        ({"angle": 25.0}, 0.05),  # turned in the image
        ({"scale": 1.5}, 0.05),  # nearer the camera
        ({"gain": 0.5}, 0.02),  # the light dims
    ],
)
def test_the_patch_follows_the_hand_and_ignores_the_light(moved: dict, most: float) -> None:
    base = finger_patch(*draw_hand())
    assert patch_change(finger_patch(*draw_hand(**moved)), base) < most


@pytest.mark.parametrize("jitter_px", [1.0, 2.0])
def test_landmark_jitter_of_a_few_pixels_is_not_a_change(jitter_px: float) -> None:
    rgb, lm = draw_hand()
    base = finger_patch(rgb, lm)
    shifted = lm.copy()
    shifted[[0, 5, 9], 0] += jitter_px / SIZE[1]
    shifted[[0, 5, 9], 1] -= jitter_px / SIZE[0]
    assert patch_change(finger_patch(rgb, shifted), base) < 0.05


@pytest.mark.parametrize(("fold", "least"), [(0.4, 0.1), (0.7, 0.3)])
def test_folding_fingers_change_the_patch(fold: float, least: float) -> None:
    base = finger_patch(*draw_hand())
    assert patch_change(finger_patch(*draw_hand(fold=fold)), base) > least


def test_a_flat_patch_is_no_change() -> None:
    flat = np.full((ROWS, COLS), 80.0, np.float32)
    assert patch_change(flat, flat) == 0.0


def test_a_flat_hand_below_the_knuckles_registers_at_no_shift() -> None:
    """A hand with no texture below the knuckles (nothing to register on) compares the fingers
    where they are: the same patch is no change."""
    patch = cv2.GaussianBlur(np.random.default_rng(3).uniform(0, 255, (ROWS, COLS))
                             .astype(np.float32), (0, 0), 1.5)
    patch[HAND_ROWS[0]:] = 80.0
    assert patch_change(patch, patch) == pytest.approx(0.0, abs=1e-5)


def look_run(folds: list[float], fps: float = 25.0, seed: int = 0) -> list:
    """Feed one patch per frame (the hand folded by ``folds[i]``, sensor noise added)."""
    rng = np.random.default_rng(seed)
    look = FingerLook(LookConfig())
    out = []
    cache: dict[float, tuple[np.ndarray, np.ndarray]] = {}
    for i, fold in enumerate(folds):
        rgb, lm = cache.setdefault(fold, draw_hand(fold=fold))
        noisy = (rgb + rng.normal(0, 3.0, rgb.shape)).clip(0, 255).astype(np.uint8)
        ended = look.update(i / fps, finger_patch(noisy, lm))
        if ended is not None:
            out.append(ended)
    return out


def bump(frames: int, depth: float) -> list[float]:
    """A squeeze over ``frames`` frames, ``depth`` deep at its middle."""
    return [depth * np.sin(np.pi * (k + 1) / (frames + 1)) for k in range(frames)]


@pytest.mark.parametrize(
    ("name", "folds", "peaks"),
    [
        ("a still hand", [0.0] * 75, []),
        ("one squeeze", [0.0] * 40 + bump(10, 0.6) + [0.0] * 25, [1.8]),
        ("two squeezes", [0.0] * 40 + bump(8, 0.6) + [0.0] * 8 + bump(8, 0.6) + [0.0] * 25,
         [1.74, 2.38]),
        ("a flicker of one frame", [0.0] * 40 + [0.6] + [0.0] * 34, []),
        ("a new look held for good", [0.0] * 40 + [0.6] * 60, []),
        ("a squeeze before any baseline", bump(10, 0.6) + [0.0] * 40, []),
    ],
)
def test_finger_look_squeezes(name: str, folds: list[float], peaks: list[float]) -> None:
    found = look_run(folds)
    assert [s.peak_t for s in found] == pytest.approx(peaks, abs=0.13), name
    for s in found:
        assert s.start < s.peak_t <= s.end and s.peak >= s.on


def test_the_cutter_steadies_a_grid_turned_and_scaled_by_wrist_jitter() -> None:
    """One still hand whose wrist landmark jitters by 10 % of the palm: each frame's own grid
    turns and scales with it (the fingertips move by several grid steps); the cutter's grid
    keeps the median length and mean direction of the track's last readings."""
    rgb, lm = draw_hand()
    rng = np.random.default_rng(0)
    cutter = PatchCutter()
    steady, own = [], []
    base = finger_patch(rgb, lm)
    for _ in range(40):
        jittered = lm.copy()
        jittered[0, :2] += rng.normal(0, 6.0, 2) / np.array([SIZE[1], SIZE[0]])
        steady.append(patch_change(cutter.cut((1, 7), rgb, jittered), base))
        own.append(patch_change(finger_patch(rgb, jittered), base))
    assert max(steady[15:]) < 0.5 * max(own[15:])
    assert np.median(steady[15:]) < 0.05


def test_the_cutter_forgets_ended_tracks() -> None:
    rgb, lm = draw_hand()
    cutter = PatchCutter(readings=3)
    cutter.cut((1, 1), rgb, lm)
    cutter.cut((2, 5), rgb, lm)
    cutter.keep({(2, 5)})
    assert set(cutter._shapes) == {(2, 5)}
    cutter.reset()
    assert not cutter._shapes
