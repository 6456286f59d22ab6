"""What one night step records: frames seen per seat, shots, numbers, taps and evidence crops.

The pipeline thread feeds it frame by frame (``add_frame``) while the session has a step open;
``close`` freezes it. Plain lists and numpy arrays (hot loop), guarded by a lock because the
pipeline writes while the web thread reads the live view.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

import numpy as np

#: Seconds of evidence kept on each side of a shot for the frame strip.
STRIP_SPAN = 0.6
#: Frames in a strip around a shot.
STRIP_FRAMES = 7
#: Frames in a strip over the whole count (a member without a shot).
COUNT_FRAMES = 16


@dataclass
class Capture:
    """The record of one step (a hunt, a check, the Don's orders, a raised hand)."""

    seats: tuple[int, ...]
    started: float | None = None
    #: Read finger numbers (checks, the Don's orders); a hunt only watches for shots.
    reads_numbers: bool = False
    frame_times: list[float] = field(default_factory=list)
    frame_indices: list[int] = field(default_factory=list)
    seen_log: list[frozenset[int]] = field(default_factory=list)
    shots: list[Any] = field(default_factory=list)
    numbers: list[Any] = field(default_factory=list)
    taps: list[float] = field(default_factory=list)
    crops: dict[int, list[tuple[float, np.ndarray]]] = field(default_factory=dict)
    closed: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add_frame(
        self,
        t: float,
        index: int,
        seen: set[int],
        crops: dict[int, np.ndarray],
        shots: list[Any],
        numbers: list[Any],
    ) -> None:
        with self._lock:
            if self.closed:
                return
            if self.started is None:
                self.started = t
            self.frame_times.append(t)
            self.frame_indices.append(index)
            self.seen_log.append(frozenset(seen))
            for seat, crop in crops.items():
                self.crops.setdefault(seat, []).append((t, crop))
            self.shots.extend(shots)
            self.numbers.extend(numbers)

    def add_numbers(self, numbers: list[Any]) -> None:
        with self._lock:
            self.numbers.extend(numbers)

    def tap(self, t: float) -> None:
        with self._lock:
            if not self.closed:
                self.taps.append(t)

    def close(self) -> None:
        with self._lock:
            self.closed = True

    def seen(self, start: float | None = None, end: float | None = None) -> dict[int, float]:
        """The share of the frames in [start, end] (default: all) in which each seat's hand was
        found (a hunt counts from its first number to its last: hands go up as it begins)."""
        with self._lock:
            sets = [s for t, s in zip(self.frame_times, self.seen_log, strict=True)
                    if (start is None or t >= start) and (end is None or t <= end)]
        n = len(sets)
        return {seat: (sum(seat in s for s in sets) / n if n else 0.0) for seat in self.seats}

    def strip(self, seat: int, start: float, end: float,
              frames: int = STRIP_FRAMES) -> list[np.ndarray]:
        """Up to ``frames`` crops of ``seat`` evenly spread over [start, end]."""
        with self._lock:
            near = [c for ft, c in self.crops.get(seat, []) if start <= ft <= end]
        if not near:
            return []
        picks = np.linspace(0, len(near) - 1, min(frames, len(near))).round().astype(int)
        return [near[i] for i in dict.fromkeys(picks.tolist())]
