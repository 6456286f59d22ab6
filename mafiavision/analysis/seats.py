"""The gesture stages of every seat, fed the tracker's hands frame by frame: the pose of the
seat's hand, the bend signal, the shot detector and the number reader (from ``vision``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from mafiavision.analysis.timeline import TimelineBuilder
from mafiavision.vision.fingers import curl
from mafiavision.vision.gestures import PoseResult, classify_seats
from mafiavision.vision.hands import HandObservation
from mafiavision.vision.numbers import NumberEvent, NumberReader
from mafiavision.vision.shots import (
    HasWorld,
    ShotDetector,
    ShotEvent,
    combined_probabilities,
    continuing_hand,
    shot_reading,
    shows_gun,
)


def bend(world: np.ndarray) -> float:
    """Summed bend (degrees) of index and middle: the signal a shot is read from."""
    c = curl(world)
    return float(c[1] + c[2])


def checks_gun(hand: HasWorld, open_floor: float, pose: PoseResult | None = None) -> bool:
    """Whether the shot detector's gun check passes on ``hand`` in this frame (:func:`shows_gun`
    on the fingers the detector reads: where two networks read the hand, each one's own,
    :func:`combined_probabilities` — not the fingers of their averaged landmarks; lite's own
    where the second network did not see the hand fresh). Seen from the back, a gun's ring and
    pinky read half bent, so the pose calls it a count of 3 or 4; the detector's check does not
    (scripts/eval_gun_reading.py: back-of-hand hunt members before their shots, sets 13–16 and
    the samples, lite+full, 40 % of frames the pose's gun, 89 % the check's; civilians' moving
    hands 0 % and 1 %). ``pose``: the pose already read from ``hand`` itself, whose finger
    probabilities are reused when the detector reads the hand as it is (one network)."""
    reading = shot_reading(hand)
    readings = (hand,) if reading is None else reading.readings
    if pose is not None and len(readings) == 1 and pose.probabilities:  # read as it is
        return shows_gun(np.asarray(pose.probabilities), open_floor)
    return shows_gun(combined_probabilities([readings])[0], open_floor)


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
        """Feed one tracked frame; returns the seats whose hand holds the finger gun (the
        pose's gun or the shot detector's gun check: :func:`checks_gun`)."""
        guns = []
        followed = {seat: self._hands(seat, hands) for seat in self.seats}
        poses = classify_seats({seat: seen[:2] for seat, (seen, _) in followed.items()})
        for seat, (seen, best) in followed.items():
            self.shots.extend(self.shot_detectors[seat].update(best, t))
            self._numbers(self.number_readers[seat].update(poses[seat], t))
            if best is None or best.held:
                timeline.add(seat, t, None, 0, None)
                continue
            pose = poses[seat][0]
            gun = self._holds_gun(seat, seen, best, pose)
            # the hunt finder holds what the shot detector waits for
            timeline.add(seat, t, "gun" if gun else pose.pose, pose.count, bend(best.world))
            if gun:
                guns.append(seat)
        return guns

    def gun_seats(self, hands: Mapping[int, list[HandObservation]]) -> list[int]:
        """The seats whose hand holds the finger gun, as :meth:`update` reads them, without
        feeding any stage (e.g. to choose the tracker for the frames about to be fed)."""
        followed = {seat: self._hands(seat, hands) for seat in self.seats}
        raised = {seat: (seen, best) for seat, (seen, best) in followed.items()
                  if best is not None and not best.held}
        poses = classify_seats({seat: seen[:1] for seat, (seen, _) in raised.items()})
        return [seat for seat, (seen, best) in raised.items()
                if self._holds_gun(seat, seen, best, poses[seat][0])]

    def _hands(self, seat: int, hands: Mapping[int, list[HandObservation]]
               ) -> tuple[list[HandObservation], HandObservation | None]:
        """The seat's hands, most confident first, and the one its shot detector follows."""
        seen = sorted(hands.get(seat, []), key=lambda h: -h.score)
        return seen, continuing_hand(seen, self.shot_detectors[seat].track)

    def _holds_gun(self, seat: int, seen: list[HandObservation], best: HandObservation,
                   pose: PoseResult) -> bool:
        """The pose (``pose``, of the seat's most confident hand ``seen[0]``) is the gun, or the
        shot detector's gun check passes on the hand it follows, ``best`` (:func:`checks_gun`)."""
        if pose.pose == "gun":
            return True
        return checks_gun(best, self.shot_detectors[seat].config.open_floor,
                          pose if best is seen[0] else None)

    def _numbers(self, events: list) -> None:
        self.numbers.extend(e for e in events if isinstance(e, NumberEvent))

    def finish(self, t: float) -> tuple[list[ShotEvent], list[NumberEvent]]:
        """Close what is still open at the end of the recording (a number being held)."""
        for seat in self.seats:
            self.shots.extend(self.shot_detectors[seat].update(None, t))
            self._numbers(self.number_readers[seat].flush())
        return (sorted(self.shots, key=lambda s: s.t),
                sorted(self.numbers, key=lambda n: n.start))
