"""Two landmark networks on the same hands: pairing their readings, and what the shot detector
reads of a pair (synthetic landmarks for the geometry; real MediaPipe on a rendered clip)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from mafiavision.vision.fingers import curl
from mafiavision.vision.hands import HandObservation
from mafiavision.vision.landmark_sequences import Observation, build, scenario
from mafiavision.vision.pairing import DISAGREE_FRAMES, PairedTracker, disagree, networks, pair
from mafiavision.vision.shots import ShotDetector, shot_reading
from tests.vision.gesture_data import mediapipe_world

ROOT = Path(__file__).resolve().parents[2]


@dataclasses.dataclass(frozen=True)
class _Paired:
    """A landmark-sequence observation as the paired tracker gives it (``second``: the second
    network's reading)."""

    first: Observation
    second: Observation | None
    networks: int = 2

    def __getattr__(self, name: str):  # seat, world, landmarks, held, track: the first's
        return getattr(self.first, name)


def hand(x: float, y: float, size: float = 0.1, *, held: bool = False, seat: int = 1,
         track: int = 1) -> HandObservation:
    """A hand whose image landmarks span ``size`` (frame units) with the wrist at (x, y)."""
    landmarks = np.zeros((21, 3))
    landmarks[:, 0] = x + np.linspace(0, size, 21)
    landmarks[:, 1] = y - np.linspace(0, size / 2, 21)
    world = np.random.default_rng(track).normal(0, 0.03, (21, 3))
    return HandObservation(seat, 1.0, landmarks, world, 0.9, track, (0, 0, 1, 1), held)


@pytest.mark.parametrize(
    ("second", "want"),
    [
        ([hand(0.52, 0.5)], 0),  # the same hand, 0.2 of its size away
        ([hand(0.56, 0.5)], None),  # 0.6 of its size away: another hand
        ([hand(0.50, 0.5, held=True)], None),  # repeated, not read in this frame
        ([hand(0.90, 0.5), hand(0.51, 0.52)], 1),  # the nearer of two
        ([hand(0.53, 0.5), hand(0.51, 0.5, held=True)], 0),  # the nearer fresh one
        ([], None),
    ],
)
def test_pair_takes_the_nearest_fresh_reading_of_the_same_hand(
    second: list[HandObservation], want: int | None
) -> None:
    first = hand(0.5, 0.5)
    (paired,) = pair([first], second)
    assert paired.networks == 2
    assert paired.second is (None if want is None else second[want])
    assert paired.world is first.world and paired.track == first.track


def _wrist_in_palm(h: HandObservation, by: float = 0.06) -> HandObservation:
    """``h`` read by a network that drew the wrist up into the palm (``by`` frame units)."""
    landmarks = h.landmarks.copy()
    landmarks[0, 0] += by
    return dataclasses.replace(h, landmarks=landmarks)


@pytest.mark.parametrize(
    ("second", "want"),
    [
        ([_wrist_in_palm(hand(0.5, 0.5))], True),  # one hand, the wrists 0.6 of its size apart
        ([hand(0.52, 0.5)], False),  # paired
        ([_wrist_in_palm(hand(0.5, 0.5), 0.02)], False),  # paired: wrists 0.2 of a hand apart
        ([hand(0.75, 0.5)], False),  # another hand beside it
        ([_wrist_in_palm(hand(0.5, 0.5, held=True))], False),  # not read in this frame
        ([], False),
    ],
)
def test_disagree_finds_one_hand_the_networks_cannot_pair(
    second: list[HandObservation], want: bool
) -> None:
    assert disagree(pair([hand(0.5, 0.5)], second), second) is want


class _Scripted:
    """A seat tracker reading seat 1's hand as ``readings`` say, frame after frame, and
    logging the restarts asked of it."""

    def __init__(self, readings: list[list[HandObservation]], name: str, log: list) -> None:
        self.readings, self.name, self.log, self.frame = readings, name, log, 0
        self.stats: dict[str, int] = {}

    def update(self, frame: object) -> dict[int, list[HandObservation]]:
        found = self.readings[min(self.frame, len(self.readings) - 1)]
        self.frame += 1
        return {1: found} if found else {}

    def set_active(self, seats: object) -> None: ...

    def restart(self, seat: int) -> None:
        self.log.append((self.frame, self.name, seat))

    def reset(self) -> None: ...

    def close(self) -> None: ...


def test_two_networks_that_keep_disagreeing_restart_in_turn_lite_first() -> None:
    """A misplaced reading persists (a landmarker follows its own last landmarks): after
    ``DISAGREE_FRAMES`` frames in a row without a pair, one network of that seat finds the hand
    afresh, the lite one first (the weaker), then the full one; a frame that pairs starts the
    count again."""
    lite = hand(0.5, 0.5)
    misplaced, agreeing = _wrist_in_palm(hand(0.5, 0.5)), hand(0.51, 0.5)
    k = DISAGREE_FRAMES
    full = [[misplaced]] * (2 * k) + [[agreeing]] + [[misplaced]] * k + [[]] * k
    log: list = []
    tracker = PairedTracker(_Scripted([[lite]] * len(full), "lite", log),  # type: ignore[arg-type]
                            _Scripted(full, "full", log))  # type: ignore[arg-type]
    for _ in full:
        tracker.update(None)  # type: ignore[arg-type]
    assert log == [(k, "lite", 1), (2 * k, "full", 1), (3 * k + 1, "lite", 1)]


@pytest.mark.parametrize(
    ("model", "want"), [("lite", ("lite", None)), ("full", ("full", None)),
                        ("lite+full", ("lite", "full"))]
)
def test_networks(model: str, want: tuple) -> None:
    assert networks(model) == want  # type: ignore[arg-type]


def test_shot_reading_is_the_mean_of_both_fresh_readings() -> None:
    first, other = hand(0.5, 0.5, track=3), hand(0.52, 0.5, track=4)
    own = shot_reading(first)  # one network: its own reading
    assert own is not None and own.world is first.world and own.landmarks is first.landmarks
    assert len(own.readings) == 1 and own.readings[0] is first and own.networks_curl is None
    assert shot_reading(None) is None
    assert shot_reading(dataclasses.replace(first, networks=2)) is None  # second did not see it
    stale = dataclasses.replace(first, networks=2, second=dataclasses.replace(other, held=True))
    assert shot_reading(stale) is None
    paired = dataclasses.replace(first, networks=2, second=other)
    mean = shot_reading(paired)
    assert mean is not None and mean.track == 3 and not mean.held
    assert [r is h for r, h in zip(mean.readings, (paired, other), strict=True)] == [True, True]
    np.testing.assert_allclose(
        mean.networks_curl, [curl(h.world)[1:3].sum() for h in (first, other)])
    np.testing.assert_allclose(mean.world, (first.world + other.world) / 2)
    np.testing.assert_allclose(mean.landmarks, (first.landmarks + other.landmarks) / 2)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kind", ["face", "double"])
def test_a_pair_reading_alike_shoots_alike_and_one_network_alone_never_shoots(
    handdata: Path, kind: str, seed: int
) -> None:
    """Squeezes of real MediaPipe landmarks: two networks reading the same landmarks give the
    one network's shots; a hand only the first network read gives none."""
    gun, fist = mediapipe_world(handdata, "victory"), mediapipe_world(handdata, "fist")
    frames = build(scenario(kind, gun, fist, np.random.default_rng(seed))[0], gun, fist,
                   np.random.default_rng(seed))

    def shots(change) -> list[tuple[float, float]]:
        detector = ShotDetector(4)
        events = []
        for t, obs in frames:
            events += detector.update(None if obs is None else change(obs), t)
        return [(e.t, round(e.depth, 6)) for e in events]

    alone = shots(lambda o: o)
    assert alone  # the scenarios squeeze
    assert shots(lambda o: _Paired(o, o)) == alone
    assert shots(lambda o: _Paired(o, None)) == []


def test_the_second_network_reads_only_seats_with_a_hand_and_the_pair_finds_the_shots() -> None:
    """Real MediaPipe, both networks, on a rendered hunt: every fresh hand is paired, the full
    network examines only the seats where lite saw a hand, and the paired shot detectors find
    the hunt's three shots and nothing else (measured: 3 of 3, no other event)."""
    from mafiavision.vision.pairing import make_tracker
    from mafiavision.vision.shots import continuing_hand
    from mafiavision.vision.sources import open_source
    from mafiavision.vision.table import Table

    clip = ROOT / "sample_videos" / "kharkiv_hit_ru.mp4"
    if not clip.exists():
        pytest.skip(f"{clip} not found")
    truth = json.loads(clip.with_suffix(".truth.json").read_text())
    table = Table.load(clip.with_suffix(".table.json"))
    detectors = {s: ShotDetector(s) for s in table.seat_numbers()}
    events = []
    fresh = with_second = 0
    with make_tracker(table, "lite+full") as tracker:
        for frame in open_source(clip):
            hands = tracker.update(frame)
            seen = {s for s, found in hands.items() if any(not h.held for h in found)}
            assert tracker.second.stats.get("examined", 0) <= len(seen)
            for seat, detector in detectors.items():
                found = hands.get(seat, [])
                for h in found:
                    assert h.networks == 2
                    fresh += not h.held
                    with_second += not h.held and h.second is not None
                events += detector.update(continuing_hand(found, detector.track), frame.t)
    assert with_second >= 0.9 * fresh > 0
    true = [(g["seat"], g["peak"]) for g in truth["gestures"] if g["kind"] == "shot"]
    assert len(true) == 3
    for seat, peak in true:
        assert any(e.seat == seat and abs(e.t - peak) <= 0.3 for e in events), (seat, events)
    assert len(events) == len(true), events


def test_an_observation_of_one_network_is_read_as_it_is() -> None:
    obs = Observation(1, 0.0, np.zeros((21, 3)))  # landmark sequences: one network
    reading = shot_reading(obs)
    assert reading is not None and reading.world is obs.world and reading.readings[0] is obs


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("bent", ["first", "second"])
def test_a_squeeze_one_network_alone_reads_is_not_a_shot(handdata: Path, bent: str,
                                                         seed: int) -> None:
    """Real MediaPipe landmarks: one network reads the squeeze while the other reads the gun
    held still (a misread of one network): the mean bends, yet each network's own curl must rise
    for a shot; the same squeeze read by both is one."""
    gun, fist = mediapipe_world(handdata, "victory"), mediapipe_world(handdata, "fist")
    frames = build(scenario("face", gun, fist, np.random.default_rng(seed))[0], gun, fist,
                   np.random.default_rng(seed))
    still = next(obs for _, obs in frames if obs is not None)

    def shots(pairing) -> int:
        detector = ShotDetector(4)
        return sum(len(detector.update(None if obs is None else pairing(obs), t))
                   for t, obs in frames)

    held = lambda o: dataclasses.replace(o, world=still.world, landmarks=still.landmarks)  # noqa: E731
    assert shots(lambda o: _Paired(o, o)) == 1
    one = ((lambda o: _Paired(o, held(o))) if bent == "first"
           else (lambda o: _Paired(held(o), o)))
    assert shots(one) == 0
