"""The seat stages' gun reading for the hunt finder (mafiavision.analysis.seats.checks_gun)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from mafiavision.analysis.seats import checks_gun
from mafiavision.vision.gestures import classify_hand
from mafiavision.vision.shots import ShotConfig
from tests.vision.gesture_data import mediapipe_image, mediapipe_world

RECORDED = Path(__file__).parents[1] / "vision" / "data" / "recorded_lite_seats.npz"
FLOOR = ShotConfig().open_floor


@dataclass(frozen=True)
class _Hand:
    seat: int
    world: np.ndarray
    landmarks: np.ndarray | None
    held: bool = False
    track: int = 0
    score: float = 1.0
    networks: int = 1
    second: None = None
    patch: None = None


@pytest.mark.parametrize(
    ("name", "gun"),
    [("victory", True), ("fist", False), ("pointing_up", False), ("thumb_up", False)],
)
def test_the_gun_check_on_mediapipes_real_test_hands(handdata: Path, name: str, gun: bool) -> None:
    """MediaPipe's expected landmarks of its real test photos: only the V passes."""
    hand = _Hand(1, mediapipe_world(handdata, name), mediapipe_image(handdata, name))
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
    check = np.array([checks_gun(_Hand(1, w, lm), FLOOR) for w, lm in hands])
    assert not np.any(pose & ~check)
    assert check.sum() >= pose.sum() > 0


@pytest.mark.parametrize("cut", [0, 1, 2, 3])
def test_the_gun_check_reuses_the_poses_reading(cut: int,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Given the pose already read from the same hand (one network), the check takes its finger
    probabilities instead of reading them again, and says the same every frame."""
    import mafiavision.analysis.seats as seats

    with np.load(RECORDED) as f:
        hands = [_Hand(1, w.astype(np.float64), lm.astype(np.float64))
                 for w, lm in zip(f[f"{cut}_world"], f[f"{cut}_landmarks"], strict=True)]
    poses = [classify_hand(h.world, h.landmarks) for h in hands]
    again = [checks_gun(h, FLOOR) for h in hands]
    calls = []
    read = seats.finger_probabilities
    monkeypatch.setattr(seats, "finger_probabilities", lambda *a: calls.append(1) or read(*a))
    reused = [checks_gun(h, FLOOR, pose) for h, pose in zip(hands, poses, strict=True)]
    assert reused == again and any(again)
    assert calls == []
