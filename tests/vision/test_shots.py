"""The stateful shot detector on landmark sequences built from REAL MediaPipe frames + jitter.

Gun frames: MediaPipe's test "victory" hand, and a real back-of-hand V (an EPSRC "2" photo run
through the real HandLandmarker); the squeeze turns index and middle toward MediaPipe's real
test fist (see mafiavision.vision.landmark_sequences). Jitter is real-sized (0.5–1.5 mm per
landmark, measured by scripts/eval_shots.py --jitter).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mafiavision.vision.landmark_sequences import (
    NEGATIVE_KINDS,
    SequenceSpec,
    align,
    alpha_for_rise,
    build,
    bump,
    scenario,
)
from mafiavision.vision.shots import ShotDetector, ShotEvent
from tests.vision.gesture_data import mediapipe_world, real_photo_hands


def run(frames: list, detector: ShotDetector | None = None) -> list[ShotEvent]:
    detector = detector or ShotDetector(seat=4)
    events: list[ShotEvent] = []
    for t, obs in frames:
        events += detector.update(obs, t)
    return events


@pytest.fixture(scope="module")
def hands(handdata: Path) -> dict[str, np.ndarray]:
    back = next(
        h.world.astype(np.float64)
        for source, label, _, h in real_photo_hands(handdata)
        if (source, label) == ("epsrc", "2") and h is not None
    )
    return {
        "victory": mediapipe_world(handdata, "victory"),
        "back_of_hand_v": back,
        "fist": mediapipe_world(handdata, "fist"),
    }


@pytest.mark.parametrize("gun_name", ["victory", "back_of_hand_v"])
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kind", ["face", "double", "turning", *NEGATIVE_KINDS])
def test_scenarios(hands: dict[str, np.ndarray], kind: str, seed: int, gun_name: str) -> None:
    rng = np.random.default_rng(1000 + seed)
    gun, fist = hands[gun_name], hands["fist"]
    spec, truth = scenario(kind, gun, fist, rng)
    events = run(build(spec, gun, fist, rng))
    assert len(events) == len(truth), (kind, truth, events)
    for event, true_t in zip(events, truth, strict=True):
        assert abs(event.t - true_t) <= 0.3
        assert event.seat == 4
        assert 0.5 <= event.confidence <= 1.0
        assert 0.1 <= event.duration <= 1.2
        assert event.depth >= 12.0


@pytest.mark.parametrize("total", [35.0, 50.0])
def test_small_bend_seen_from_the_back_is_found(hands: dict[str, np.ndarray], total: float) -> None:
    gun, fist = hands["back_of_hand_v"], hands["fist"]
    fa = align(fist, gun)
    a_i = alpha_for_rise(gun, fa, "index", total / 2)
    a_m = alpha_for_rise(gun, fa, "middle", total / 2)
    spec = SequenceSpec(
        5.0, index=lambda t: a_i * bump(t, 2.5, 0.4), middle=lambda t: a_m * bump(t, 2.5, 0.4)
    )
    events = run(build(spec, gun, fist, np.random.default_rng(7)))
    assert len(events) == 1 and abs(events[0].t - 2.7) <= 0.2
    assert events[0].depth < total + 15  # the depth is the bend, not a fixed score


def test_two_squeezes_are_two_events_deeper_squeeze_more_confident(
    hands: dict[str, np.ndarray],
) -> None:
    gun, fist = hands["victory"], hands["fist"]
    fa = align(fist, gun)
    small = alpha_for_rise(gun, fa, "index", 25)
    spec = SequenceSpec(
        5.0,
        index=lambda t: small * bump(t, 1.5, 0.3) + 0.9 * bump(t, 2.4, 0.3),
        middle=lambda t: small * bump(t, 1.5, 0.3) + 0.9 * bump(t, 2.4, 0.3),
    )
    events = run(build(spec, gun, fist, np.random.default_rng(3)))
    assert [round(e.t, 1) for e in events] == pytest.approx([1.65, 2.55], abs=0.15)
    assert events[1].depth > events[0].depth and events[1].confidence > events[0].confidence


def test_reset_forgets_a_squeeze_in_progress(hands: dict[str, np.ndarray]) -> None:
    gun, fist = hands["victory"], hands["fist"]
    spec = SequenceSpec(
        4.0, index=lambda t: 0.9 * bump(t, 2.0, 0.4), middle=lambda t: 0.9 * bump(t, 2.0, 0.4)
    )
    frames = build(spec, gun, fist, np.random.default_rng(5))
    detector = ShotDetector(seat=1)
    assert run([f for f in frames if f[0] < 2.2], detector) == []
    detector.reset()
    assert run([f for f in frames if f[0] >= 2.2], detector) == []
    assert len(run(frames)) == 1  # the same frames without the reset: one shot


def test_a_shot_after_a_new_pose_is_measured_from_the_new_baseline(
    hands: dict[str, np.ndarray],
) -> None:
    gun, fist = hands["victory"], hands["fist"]
    half = lambda t: 0.3 * np.clip((t - 1.0) / 0.3, 0, 1)  # noqa: E731  fingers half bent, held
    spec = SequenceSpec(
        6.0,
        index=lambda t: half(t) + 0.6 * bump(t, 4.5, 0.35),
        middle=lambda t: half(t) + 0.6 * bump(t, 4.5, 0.35),
    )
    events = run(build(spec, gun, fist, np.random.default_rng(11)))
    assert len(events) == 1 and abs(events[0].t - 4.675) <= 0.2
