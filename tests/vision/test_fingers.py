"""Finger features and states from world landmarks: real MediaPipe landmarks, invariances."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from mafiavision.vision.fingers import (
    FEATURE_NAMES,
    FINGERS,
    THUMB_JOINT_COLUMNS,
    THUMB_JOINTS,
    curl,
    default_model,
    finger_features,
    finger_probabilities,
    fitted_thresholds,
    joint_bends,
)
from mafiavision.vision.landmark_sequences import rotation
from tests.vision.gesture_data import mediapipe_image, mediapipe_world

T, F = True, False


@pytest.mark.parametrize("with_image", [True, False])  # False: world x, y stand in (shots)
@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("victory", (F, T, T, F, F)),
        ("fist", (F, F, F, F, F)),
        ("pointing_up", (F, T, F, F, F)),
        ("thumb_up", (T, F, F, F, F)),
    ],
)
def test_finger_states_of_mediapipe_test_hands(
    handdata: Path, name: str, expected: tuple[bool, ...], with_image: bool
) -> None:
    image = mediapipe_image(handdata, name) if with_image else None
    p = finger_probabilities(mediapipe_world(handdata, name), image)
    assert tuple(bool(x) for x in p > 0.5) == expected


def test_fist_curls_far_more_than_victory_fingers(handdata: Path) -> None:
    victory, fist = (
        curl(mediapipe_world(handdata, "victory")),
        curl(mediapipe_world(handdata, "fist")),
    )
    assert fist[1] - victory[1] > 90 and fist[2] - victory[2] > 90  # index, middle fold
    assert abs(fist[3] - victory[3]) < 90  # the ring is folded in both


def _world_columns(name: str) -> list[int]:
    return [i for i, f in enumerate(FEATURE_NAMES[name]) if not f.startswith("image_")]


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("name", ["victory", "thumb_up", "pointing_up"])
def test_world_features_do_not_change_with_rotation_mirror_or_scale(
    handdata: Path, name: str, seed: int
) -> None:
    world, image = mediapipe_world(handdata, name), mediapipe_image(handdata, name)
    rng = np.random.default_rng(seed)
    moved = world @ rotation(rng.normal(size=3), rng.uniform(0, np.pi)).T * rng.uniform(0.7, 1.4)
    if seed % 2:
        moved[:, 0] *= -1  # a left hand seen as a right one
    a, b = finger_features(world, image), finger_features(moved, image)
    for f in FINGERS:
        cols = _world_columns(f)
        np.testing.assert_allclose(
            a.by_finger[f][cols], b.by_finger[f][cols], rtol=1e-6, atol=1e-6
        )


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("name", ["victory", "thumb_up", "pointing_up", "fist"])
def test_all_features_ignore_the_frame_aspect_scale_shift_and_mirror(
    handdata: Path, name: str, seed: int
) -> None:
    """The same hand in a wider or taller frame (normalised x squeezed or stretched), nearer,
    elsewhere in it, or mirrored (image and world together): the same features."""
    world, image = mediapipe_world(handdata, name), mediapipe_image(handdata, name)
    rng = np.random.default_rng(seed)
    mirror = np.array([-1.0 if seed % 2 else 1.0, 1.0, 1.0])
    aspect = [16 / 9, 4 / 3, 0.75, 2.33][seed]
    image2 = image * mirror / [aspect, 1.0, 1.0] * rng.uniform(0.3, 1.5) + rng.uniform(-1, 1, 3)
    a, b = finger_features(world, image), finger_features(world * mirror, image2)
    for f in FINGERS:
        np.testing.assert_allclose(a.by_finger[f], b.by_finger[f], rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("degrees", [-60, -25, 30, 90])
@pytest.mark.parametrize("name", ["victory", "thumb_up", "pointing_up", "fist"])
def test_states_do_not_change_when_the_camera_rolls(
    handdata: Path, name: str, degrees: float
) -> None:
    """Image and world turned together about the camera axis: the same finger states (the
    features change a little: the frame's aspect is re-estimated from the turned hand)."""
    world, image = mediapipe_world(handdata, name), mediapipe_image(handdata, name)
    turn = rotation(np.array([0.0, 0.0, 1.0]), np.radians(degrees))
    rolled_world, rolled_image = world @ turn.T, (image - image.mean(axis=0)) @ turn.T
    before = finger_probabilities(world, image) > 0.5
    np.testing.assert_array_equal(finger_probabilities(rolled_world, rolled_image) > 0.5, before)


@pytest.mark.parametrize("name", ["victory", "thumb_up", "pointing_up", "fist"])
def test_joint_bends_are_the_angles_between_consecutive_bones(handdata: Path, name: str) -> None:
    world = mediapipe_world(handdata, name)
    expected = []
    for finger in range(5):
        chain = world[[0, *range(1 + 4 * finger, 5 + 4 * finger)]]
        bones = np.diff(chain, axis=0)
        expected.append([
            np.degrees(np.arctan2(np.linalg.norm(np.cross(a, b)), np.dot(a, b)))
            for a, b in itertools.pairwise(bones)
        ])
    np.testing.assert_allclose(joint_bends(world), expected, rtol=0, atol=1e-9)
    np.testing.assert_allclose(curl(world), np.sum(expected, axis=1), rtol=0, atol=1e-9)


def test_batched_equals_one_by_one(handdata: Path) -> None:
    hands = np.stack([mediapipe_world(handdata, n) for n in ("victory", "fist", "thumb_up")])
    batch = finger_probabilities(hands)
    single = np.stack([finger_probabilities(h) for h in hands])
    assert batch.shape == (3, 5)
    np.testing.assert_allclose(batch, single)


def test_thresholds_file_names_its_data_and_matches_the_features() -> None:
    data = fitted_thresholds()
    assert "FIT part" in data["provenance"]["data"]
    assert data["provenance"]["photos_used"] > 1000
    assert 0.0 < data["poses"]["gun_min_confidence"] < 1.0
    model = default_model()
    for name in (*FINGERS, THUMB_JOINTS):
        assert len(model.weights[name]) == len(FEATURE_NAMES[name])
    assert FEATURE_NAMES[THUMB_JOINTS] == FEATURE_NAMES["thumb"][:THUMB_JOINT_COLUMNS]


def _flat_hand() -> np.ndarray:
    """A flat right hand in the x-y plane (metres): wrist at the origin, four straight fingers
    along +y (x = -0.03, -0.01, 0.01, 0.03 for index…pinky; MCP, PIP, DIP, tip at y = 0.08,
    0.11, 0.13, 0.15), the thumb's chain along -x."""
    points = np.zeros((21, 3))
    points[1:5] = [[-0.03, 0.02, 0], [-0.05, 0.04, 0], [-0.06, 0.06, 0], [-0.07, 0.08, 0]]
    for f, x in enumerate((-0.03, -0.01, 0.01, 0.03)):
        points[5 + 4 * f: 9 + 4 * f] = [[x, y, 0] for y in (0.08, 0.11, 0.13, 0.15)]
    return points


@pytest.mark.parametrize(
    ("tip", "nearest", "image_nearest", "image_centre"),
    [
        ((-0.03, 0.10, 0.0), 0.0, 0.0, 0.046861),  # on the index's first bone
        ((-0.05, 0.12, 0.0), 0.02, 0.02, 0.075073),  # beside the index, level with its PIP
        ((-0.03, 0.10, 0.04), 0.04, 0.0, 0.046861),  # out of the palm plane: 3-D only
        ((-0.03, 0.19, 0.0), 0.04, 0.04, 0.129522),  # beyond the index's tip: to its end
        ((-0.08, 0.02, 0.0), 0.078102, 0.078102, 0.091302),  # aside, below the knuckles
    ],
)
def test_the_thumb_features_measure_how_free_its_tip_stands(
    tip: tuple[float, float, float], nearest: float, image_nearest: float, image_centre: float
) -> None:
    """Tip to the nearest bone of index…pinky (in 3-D, and in the image: the points without
    their depth) and to the palm centre (0, 0.064) in the image, each ÷ the palm size (wrist →
    middle MCP, 0.080623 m); distances worked out by hand."""
    world = _flat_hand()
    world[4] = tip
    image = world * [1.0, -1.0, 1.0] * 2.5 + 0.3  # image y points down; scaled, shifted
    thumb = finger_features(world, image).by_finger["thumb"]
    size = np.hypot(0.01, 0.08)
    names = FEATURE_NAMES["thumb"]
    for name, expected in (
        ("tip_nearest_finger", nearest),
        ("image_tip_nearest_finger", image_nearest),
        ("image_tip_palm_centre", image_centre),
    ):
        assert thumb[names.index(name)] == pytest.approx(expected / size, abs=1e-5), name


@pytest.mark.parametrize("with_image", [True, False])
def test_the_thumb_reads_extended_only_when_both_its_models_say_so(
    handdata: Path, with_image: bool
) -> None:
    model = default_model()
    for name in ("victory", "fist", "pointing_up", "thumb_up"):
        image = mediapipe_image(handdata, name) if with_image else None
        features = finger_features(mediapipe_world(handdata, name), image)
        thumb = features.by_finger["thumb"]
        alone = []
        for part, x in (("thumb", thumb), (THUMB_JOINTS, thumb[:THUMB_JOINT_COLUMNS])):
            z = (x - model.mean[part]) / model.std[part] @ model.weights[part] + model.bias[part]
            alone.append(1 / (1 + np.exp(-z)))
        assert model.probabilities(features)[0] == pytest.approx(min(alone), abs=1e-12)


@pytest.mark.parametrize("batch", [False, True])
def test_the_shot_detector_reading_skips_only_the_thumb(handdata: Path, batch: bool) -> None:
    names = ("victory", "fist", "pointing_up", "thumb_up")
    world = np.stack([mediapipe_world(handdata, n) for n in names])
    image = np.stack([mediapipe_image(handdata, n) for n in names])
    if not batch:
        world, image = world[0], image[0]
    full = finger_probabilities(world, image)
    lean = finger_probabilities(world, image, thumb=False)
    assert np.isnan(lean[..., 0]).all()
    np.testing.assert_array_equal(lean[..., 1:], full[..., 1:])
