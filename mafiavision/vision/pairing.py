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
        return {seat: pair(found, others.get(seat, [])) for seat, found in hands.items()}

    def reset(self) -> None:
        self.first.reset()
        self.second.reset()

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
    kwargs.update(sweep_every=0, gate=False)  # the second reads where the first saw a hand
    return PairedTracker(tracker, kind(table, model=second, **kwargs))
