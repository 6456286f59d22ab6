"""The gesture stages of every seat, fed the tracker's hands frame by frame: the pose of the
seat's hand, the bend signal, the shot detector and the number reader (from ``vision``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from mafiavision.analysis.timeline import TimelineBuilder
from mafiavision.vision.fingers import curl
from mafiavision.vision.gestures import classify_hand
from mafiavision.vision.hands import HandObservation
from mafiavision.vision.numbers import NumberEvent, NumberReader
from mafiavision.vision.shots import ShotDetector, ShotEvent, continuing_hand


def bend(world: np.ndarray) -> float:
    """Summed bend (degrees) of index and middle: the signal a shot is read from."""
    c = curl(world)
    return float(c[1] + c[2])


class SeatStages:
    """One shot detector and one number reader per seat, and the timeline of every seat."""

    def __init__(self, seats: Sequence[int]) -> None:
        self.seats = list(seats)
        self.shot_detectors = {s: ShotDetector(s) for s in self.seats}
        self.number_readers = {s: NumberReader(s) for s in self.seats}
        self.shots: list[ShotEvent] = []
        self.numbers: list[NumberEvent] = []

    def update(self, t: float, hands: Mapping[int, list[HandObservation]],
               timeline: TimelineBuilder) -> list[int]:
        """Feed one tracked frame; returns the seats whose hand holds the finger gun."""
        guns = []
        for seat in self.seats:
            seen = sorted(hands.get(seat, []), key=lambda h: -h.score)
            best = continuing_hand(seen, self.shot_detectors[seat].track)
            self.shots.extend(self.shot_detectors[seat].update(best, t))
            poses = [classify_hand(h.world, h.landmarks) for h in seen[:2]]
            self._numbers(self.number_readers[seat].update(poses, t))
            if best is None or best.held:
                timeline.add(seat, t, None, 0, None)
                continue
            timeline.add(seat, t, poses[0].pose, poses[0].count, bend(best.world))
            if poses[0].pose == "gun":
                guns.append(seat)
        return guns

    def _numbers(self, events: list) -> None:
        self.numbers.extend(e for e in events if isinstance(e, NumberEvent))

    def finish(self, t: float) -> tuple[list[ShotEvent], list[NumberEvent]]:
        """Close what is still open at the end of the recording (a number being held)."""
        for seat in self.seats:
            self.shots.extend(self.shot_detectors[seat].update(None, t))
            self._numbers(self.number_readers[seat].flush())
        return (sorted(self.shots, key=lambda s: s.t),
                sorted(self.numbers, key=lambda n: n.start))
