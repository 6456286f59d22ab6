"""Per-seat time series gathered while a recording is analysed: was a hand seen, its pose, the
number it shows and the summed index+middle bend (the signal a shot is read from).

Samples are appended in the hot loop as plain Python values and turned into numpy arrays once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

#: Pose names in the order of their integer codes (``vision.gestures.PoseResult.pose``).
POSES: tuple[str, ...] = ("none", "gun", "open", "fist", "count", "other")
POSE_CODE: dict[str, int] = {name: code for code, name in enumerate(POSES)}


@dataclass(frozen=True)
class SeatSeries:
    """One seat's samples: times, whether a hand was seen, pose code, count, bend (deg, NaN when
    no hand was seen)."""

    seat: int
    t: np.ndarray
    seen: np.ndarray
    pose: np.ndarray
    count: np.ndarray
    bend: np.ndarray

    def between(self, start: float, end: float) -> SeatSeries:
        keep = (self.t >= start) & (self.t <= end)
        return SeatSeries(
            self.seat, self.t[keep], self.seen[keep], self.pose[keep], self.count[keep],
            self.bend[keep],
        )

    def share(self, pose: str, start: float, end: float) -> float:
        """Share of the samples in [start, end] where the seat's hand held ``pose``."""
        part = self.between(start, end)
        if part.t.size == 0:
            return 0.0
        return float(np.mean(part.pose == POSE_CODE[pose]))


@dataclass
class TimelineBuilder:
    """Collects samples per seat; :meth:`build` freezes them into :class:`SeatSeries`."""

    seats: list[int]
    _rows: dict[int, list[tuple[float, bool, int, int, float]]] = field(default_factory=dict)

    def add(self, seat: int, t: float, pose: str | None, count: int, bend: float | None) -> None:
        seen = pose is not None
        row = (t, seen, POSE_CODE[pose] if seen else 0, count, bend if bend is not None else np.nan)
        self._rows.setdefault(seat, []).append(row)

    def build(self) -> dict[int, SeatSeries]:
        out: dict[int, SeatSeries] = {}
        for seat in self.seats:
            rows = self._rows.get(seat, [])
            cols = list(zip(*rows, strict=True)) if rows else [(), (), (), (), ()]
            out[seat] = SeatSeries(
                seat=seat,
                t=np.asarray(cols[0], dtype=float),
                seen=np.asarray(cols[1], dtype=bool),
                pose=np.asarray(cols[2], dtype=np.int8),
                count=np.asarray(cols[3], dtype=np.int16),
                bend=np.asarray(cols[4], dtype=float),
            )
        return out
