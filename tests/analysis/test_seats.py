"""The seat stages' gun reading for the hunt finder (mafiavision.analysis.seats.checks_gun)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mafiavision.analysis.seats import checks_gun
from mafiavision.vision.gestures import classify_hand
from mafiavision.vision.hands import HandObservation
from mafiavision.vision.shots import ShotConfig
from tests.vision.gesture_data import (
    mediapipe_image,
    mediapipe_world,
    recorded_cut,
    recorded_observations,
)

RECORDED = Path(__file__).parents[1] / "vision" / "data" / "recorded_lite_seats.npz"
#: two networks' recorded cuts (tests/vision/test_shots.py, ``LOOK_CUTS``)
LOOKED = Path(__file__).parents[1] / "vision" / "data" / "recorded_look_seats.npz"
FLOOR = ShotConfig().open_floor


def _hand(world: np.ndarray, landmarks: np.ndarray) -> HandObservation:
    """A fresh one-network hand at seat 1, as the trackers give it."""
    return HandObservation(1, 0.0, landmarks, world, 1.0, 0, (0.0, 0.0, 1.0, 1.0))


@pytest.mark.parametrize(
    ("name", "gun"),
    [("victory", True), ("fist", False), ("pointing_up", False), ("thumb_up", False)],
)
def test_the_gun_check_on_mediapipes_real_test_hands(handdata: Path, name: str, gun: bool) -> None:
    """MediaPipe's expected landmarks of its real test photos: only the V passes."""
    hand = _hand(mediapipe_world(handdata, name), mediapipe_image(handdata, name))
    assert checks_gun(hand, FLOOR) == gun


@pytest.mark.parametrize("cut", [0, 1, 2, 3])
def test_the_gun_check_holds_every_frame_the_pose_reads_the_gun(cut: int) -> None:
    """Real recorded lite landmarks of raised guns (tests/vision/data, palm side and back): the
    check reads as the gun every frame the pose does, and more of them — the pose wants ring and
    pinky surely folded, which the backs of hands do not read."""
    with np.load(RECORDED) as f:
        hands = list(zip(f[f"{cut}_world"].astype(np.float64),
                         f[f"{cut}_landmarks"].astype(np.float64), strict=True))
    pose = np.array([classify_hand(w, lm).pose == "gun" for w, lm in hands])
    check = np.array([checks_gun(_hand(w, lm), FLOOR) for w, lm in hands])
    assert not np.any(pose & ~check)
    assert check.sum() >= pose.sum() > 0


@pytest.mark.parametrize("cut", [0, 1, 2, 3])
def test_the_gun_check_reuses_the_poses_reading(cut: int,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Given the pose already read from the same hand (one network), the check takes its finger
    probabilities instead of reading them again, and says the same every frame."""
    import mafiavision.analysis.seats as seats

    with np.load(RECORDED) as f:
        hands = [_hand(w.astype(np.float64), lm.astype(np.float64))
                 for w, lm in zip(f[f"{cut}_world"], f[f"{cut}_landmarks"], strict=True)]
    poses = [classify_hand(h.world, h.landmarks) for h in hands]
    again = [checks_gun(h, FLOOR) for h in hands]
    calls = []
    read = seats.combined_probabilities
    monkeypatch.setattr(seats, "combined_probabilities", lambda *a: calls.append(1) or read(*a))
    reused = [checks_gun(h, FLOOR, pose) for h, pose in zip(hands, poses, strict=True)]
    assert reused == again and any(again)
    assert calls == []


@pytest.mark.parametrize(("cut", "start", "end"), [(5, 3.5, 7.8), (6, 5.0, 9.6)])
def test_the_gun_check_reads_each_networks_own_fingers(cut: int, start: float, end: float
                                                      ) -> None:
    """Real recorded raised guns read by two networks, before their squeezes (``LOOK_CUTS`` 5:
    the back of the hand, 6: the palm side in a dim room): the check reads them as the shot
    detector's own check does — each network's fingers, combined — and finds the gun in at
    least 95 % of the fresh frames. The fingers of the two networks' averaged landmarks read
    cut 5's gun as an open hand in over half of them (51 of 110: lite's half-bent pinky and
    full's folded one average to an extended one), cut 6's in 16 of 93."""
    hands = [h for h in recorded_observations(recorded_cut(LOOKED, cut))
             if not h.held and h.second is not None and start <= h.t <= end]
    guns = [checks_gun(h, FLOOR) for h in hands]
    assert len(hands) > 50
    assert sum(guns) >= 0.95 * len(hands), (sum(guns), len(hands))
