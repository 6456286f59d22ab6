"""Finger features and states from world landmarks: real MediaPipe landmarks, invariances."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mafiavision.vision.fingers import (
    FEATURE_NAMES,
    FINGERS,
    curl,
    default_model,
    finger_features,
    finger_probabilities,
    fitted_thresholds,
)
from mafiavision.vision.landmark_sequences import rotation
from tests.vision.gesture_data import mediapipe_world

T, F = True, False


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
    handdata: Path, name: str, expected: tuple[bool, ...]
) -> None:
    p = finger_probabilities(mediapipe_world(handdata, name))
    assert tuple(bool(x) for x in p > 0.5) == expected


def test_fist_curls_far_more_than_victory_fingers(handdata: Path) -> None:
    victory, fist = (
        curl(mediapipe_world(handdata, "victory")),
        curl(mediapipe_world(handdata, "fist")),
    )
    assert fist[1] - victory[1] > 90 and fist[2] - victory[2] > 90  # index, middle fold
    assert abs(fist[3] - victory[3]) < 90  # the ring is folded in both


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("name", ["victory", "thumb_up", "pointing_up"])
def test_features_do_not_change_with_rotation_mirror_or_scale(
    handdata: Path, name: str, seed: int
) -> None:
    world = mediapipe_world(handdata, name)
    rng = np.random.default_rng(seed)
    moved = world @ rotation(rng.normal(size=3), rng.uniform(0, np.pi)).T * rng.uniform(0.7, 1.4)
    if seed % 2:
        moved[:, 0] *= -1  # a left hand seen as a right one
    a, b = finger_features(world), finger_features(moved)
    for name_f in FINGERS:
        np.testing.assert_allclose(a.by_finger[name_f], b.by_finger[name_f], rtol=1e-6, atol=1e-6)


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
    model = default_model()
    for name in FINGERS:
        assert len(model.weights[name]) == len(FEATURE_NAMES[name])
