"""Hysteresis for the hands of one seat, after norfair's hit counters.

Each track has a hit counter: +1 (up to ``hit_max``) when a detection matches it, −1 when it is
missed. A new track is only reported once its counter exceeds ``init_delay`` (a one-frame false
detection never shows); a reported track that misses is still reported, marked ``held`` with its
last landmarks, until its counter falls below zero (a one-frame miss does not make a hand vanish).
Detections match tracks greedily by palm-centre distance, within ``match_factor`` hand widths.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

_track_ids = itertools.count(1)


@dataclass(slots=True)
class Detection:
    """One hand found in one frame, in frame pixels / normalised frame coordinates."""

    landmarks: np.ndarray  # (21, 3) normalised to the full frame
    world: np.ndarray  # (21, 3) metres
    score: float
    center: np.ndarray  # (2,) palm centre, pixels
    width: float  # hand bbox diagonal-ish size, pixels
    bbox: tuple[float, float, float, float]  # pixels


@dataclass(slots=True)
class Track:
    id: int
    detection: Detection
    t: float
    hits: int = 1
    confirmed: bool = False
    held: bool = False


@dataclass(slots=True)
class SeatTracks:
    init_delay: int = 1
    hit_max: int = 4
    match_factor: float = 1.0
    tracks: list[Track] = field(default_factory=list)

    def update(self, detections: list[Detection], t: float) -> list[Track]:
        """Feed one examined frame's detections; return the tracks to report now."""
        unmatched = list(range(len(detections)))
        pairs = sorted(
            (float(np.linalg.norm(tr.detection.center - d.center)), ti, di)
            for ti, tr in enumerate(self.tracks)
            for di, d in enumerate(detections)
        )
        used: set[int] = set()
        for dist, ti, di in pairs:
            tr = self.tracks[ti]
            if ti in used or di not in unmatched:
                continue
            if dist > self.match_factor * max(tr.detection.width, detections[di].width):
                continue
            used.add(ti)
            unmatched.remove(di)
            tr.detection, tr.t, tr.held = detections[di], t, False
            tr.hits = min(self.hit_max, tr.hits + 1)
        for ti, tr in enumerate(self.tracks):
            if ti not in used:
                tr.hits -= 1
                tr.held = True
        self.tracks = [tr for tr in self.tracks if tr.hits >= 0 and (tr.confirmed or not tr.held)]
        for di in unmatched:
            self.tracks.append(Track(id=next(_track_ids), detection=detections[di], t=t))
        for tr in self.tracks:
            tr.confirmed = tr.confirmed or tr.hits > self.init_delay
        return self.reported()

    def reported(self) -> list[Track]:
        """The confirmed tracks (fresh or held), without changing any counter."""
        return [tr for tr in self.tracks if tr.confirmed]

    def reset(self) -> None:
        self.tracks.clear()
