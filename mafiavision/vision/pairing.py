"""Two landmark networks reading the same hands: ``lite+full``.

The lite network tracks every seat (its tracks, boxes, poses and numbers are the product's); the
full network runs beside it as a second :class:`SeatTracker` on the same frames, examining only
the seats where lite saw a hand in that frame (a raised hand: the cost follows the hands, not
the table). :func:`pair` gives each lite hand the full
network's fresh reading of the same hand (``HandObservation.second``) and marks it read by two
networks; the shot detector then reads the mean of both readings, and a frame only one network
saw fresh counts as a frame without the hand (:func:`mafiavision.vision.shots.shot_reading`).

Why: the two networks misread a still raised gun at different moments, so a misread that bends
one network's curls for a moment is halved in the mean and rarely passes the evidence rules,
while a real squeeze moves both. Measured with ``scripts/eval_sample_gestures.py --model
lite+full`` (docs/accuracy.md, "Two networks"): on validation sets 3–4 the pair found 108 of 114
shots with 2 false shots in 31.4 min of hand motion (lite 99 with 12, full 102 with 11; the
mean of landmarks was chosen there), on the unseen set 5 66 of 72 with 10 false in 22.2 min
(lite 65 with 13, full 66 with 11) — 9 of them on one hand both networks read as garbage, where
their mistakes are not independent.

When the two networks keep reading one hand with wrists too far apart to pair (:func:`disagree`,
:data:`DISAGREE_FRAMES` frames in a row), one of them has misplaced its landmarks and, since a
VIDEO-mode landmarker looks for the hand where its last reading put it, keeps them misplaced
(session 35: lite drew seat 11's wrist up into the palm for 3 s of a hunt in
``v35_triad_hits_en``; no frame paired, and the shot was lost). That seat's landmarkers are
then restarted one at a time (:meth:`SeatTracker.restart`: the palm detector finds the hand
afresh), lite's first: restarting both lost that hand for 2.5 s, the full network's palm
detector not finding the back of the hand it had been tracking right.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal, Protocol, TypeVar, get_args

import numpy as np

from mafiavision.vision.hands import WRIST, HandObservation, SeatTracker
from mafiavision.vision.models import HandVariant
from mafiavision.vision.shots import box_side
from mafiavision.vision.sources import Frame

TrackerModel = Literal["lite", "full", "lite+full"]
TRACKER_MODELS: tuple[str, ...] = get_args(TrackerModel)
#: The second network's reading is of the same hand when its wrist lies within this share of the
#: first reading's size (the longest side of its image landmarks' box).
SAME_HAND = 0.5
#: Frames in a row in which the two networks read one hand (boxes centred within ``SAME_HAND``
#: of the larger) with wrists too far apart to pair before one of them (in turn, lite first)
#: finds that seat's hands afresh.
DISAGREE_FRAMES = 3


class Reading(Protocol):
    """What pairing reads of a hand (``HandObservation`` has these)."""

    landmarks: np.ndarray
    held: bool


R = TypeVar("R", bound=Reading)


def networks(model: TrackerModel) -> tuple[HandVariant, HandVariant | None]:
    """The tracking network and the second one (None: one network)."""
    if model == "lite+full":
        return "lite", "full"
    return model, None


def _box_centre(landmarks: np.ndarray) -> np.ndarray:
    """The centre of the box around a hand's image landmarks (its size: :func:`box_side`)."""
    xy = landmarks[:, :2]
    return (xy.min(axis=0) + xy.max(axis=0)) / 2


def disagree(first: list[Any], second: list[Reading]) -> bool:
    """Whether a fresh hand of ``first`` left unpaired (:func:`pair`'s output) lies where a fresh
    hand of ``second`` does (box centres within ``SAME_HAND`` of the larger box): the same hand,
    one network's landmarks misplaced (a wrist drawn up into the palm, say)."""
    for hand in first:
        if hand.held or hand.second is not None:
            continue
        centre, size = _box_centre(hand.landmarks), box_side(hand.landmarks)
        for other in second:
            if other.held:
                continue
            apart = float(np.linalg.norm(centre - _box_centre(other.landmarks)))
            if apart <= SAME_HAND * max(size, box_side(other.landmarks)):
                return True
    return False


def pair(first: list[R], second: list[Reading]) -> list[R]:
    """``first``'s hands, each with the nearest fresh hand of ``second`` (within
    :data:`SAME_HAND` of its size, else None) as its ``second`` and ``networks`` = 2."""
    fresh = [s for s in second if not s.held]
    out = []
    for hand in first:
        size = box_side(hand.landmarks)
        near = [
            (float(np.linalg.norm(s.landmarks[WRIST, :2] - hand.landmarks[WRIST, :2])), i)
            for i, s in enumerate(fresh)
        ]
        best = min(near, default=None)
        match = fresh[best[1]] if best is not None and best[0] <= SAME_HAND * size else None
        out.append(dataclasses.replace(hand, networks=2, second=match))  # type: ignore[type-var]
    return out


class PairedTracker:
    """Two :class:`SeatTracker` s (lite and full) on the same frames: the second examines only
    the seats where the first saw a hand fresh in this frame (never sweeping the others), so
    its cost follows the raised hands; ``update`` returns the first one's hands paired with the
    second's (:func:`pair`)."""

    def __init__(self, first: SeatTracker, second: SeatTracker) -> None:
        self.first, self.second = first, second
        self._disagree: dict[int, int] = {}

    @property
    def stats(self) -> dict[str, int]:
        return self.first.stats

    def set_active(self, seats: Any) -> None:
        self.first.set_active(seats)

    def update(self, frame: Frame) -> dict[int, list[HandObservation]]:
        hands = self.first.update(frame)
        seen = [seat for seat, found in hands.items() if any(not h.held for h in found)]
        self.second.set_active(seen)
        others = self.second.update(frame)
        # the seats it did not examine come back held, and pair() takes only fresh hands
        out = {seat: pair(found, others.get(seat, [])) for seat, found in hands.items()}
        for seat, found in out.items():
            if not disagree(found, others.get(seat, [])):
                self._disagree.pop(seat, None)
                continue
            self._disagree[seat] = self._disagree.get(seat, 0) + 1
            if self._disagree[seat] % DISAGREE_FRAMES == 0:
                # a landmarker follows its own last reading: a misplaced one persists (seen for
                # 3 s on a one-hand tracker), and no frame of it pairs. The palm detector re-reads
                # the hand: the lite network's first (the weaker), then each in turn.
                turn = self._disagree[seat] // DISAGREE_FRAMES
                (self.first if turn % 2 == 1 else self.second).restart(seat)
        for seat in set(self._disagree) - set(out):
            del self._disagree[seat]
        return out

    def reset(self) -> None:
        self.first.reset()
        self.second.reset()
        self._disagree.clear()

    def close(self) -> None:
        self.first.close()
        self.second.close()

    def __enter__(self) -> PairedTracker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def make_tracker(
    table: Any, model: TrackerModel, kind: type[SeatTracker] = SeatTracker, **kwargs: Any
) -> SeatTracker | PairedTracker:
    """A tracker of ``kind`` for ``model`` (``lite+full``: a :class:`PairedTracker` of two)."""
    first, second = networks(model)
    tracker = kind(table, model=first, **kwargs)
    if second is None:
        return tracker
    # the second reads where the first saw a hand
    kwargs.update(sweep_every=0, gate=False, wake=False)
    return PairedTracker(tracker, kind(table, model=second, **kwargs))
