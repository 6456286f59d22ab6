"""A cheap per-seat image gate: is it worth running the hand landmarker on this crop?

Two signals on a 64×48 thumbnail (≈0.1 ms): *motion* (mean absolute grey-level change since the
crop was last examined by the landmarker) and *skin* (fraction of pixels in the classic YCrCb skin
box, Cr 133–173, Cb 77–127). A seat with no hand is skipped while its crop stays unchanged or holds
no skin-coloured pixels; a periodic refresh re-checks it anyway (every ``refresh`` seconds, or
``active_refresh`` for a seat the caller is watching at full rate), so a gate error — or a hand
the landmarker missed once while it did not move — costs latency, never a permanently missed hand.

Thresholds: on the real EPSRC photos (785 with a hand) the skin fraction is ≥ 1.5 % (median
6–11 %) and 0 % on the empty backgrounds; ``min_skin`` = 0.5 % sits between them and was checked
on the Sign-Language-Digits photos (1,032 photos of 218 other people, all ≥ 13.9 %).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

THUMB_SIZE = (64, 48)


def thumbnail(crop: np.ndarray) -> np.ndarray:
    """The small RGB thumbnail both signals are computed on."""
    import cv2

    return cv2.resize(crop, THUMB_SIZE, interpolation=cv2.INTER_AREA)


def skin_fraction(thumb: np.ndarray) -> float:
    """Fraction of pixels of an RGB thumbnail inside the YCrCb skin box."""
    import cv2

    ycc = cv2.cvtColor(thumb, cv2.COLOR_RGB2YCrCb)
    cr, cb = ycc[..., 1], ycc[..., 2]
    return float(np.mean((cr >= 133) & (cr <= 173) & (cb >= 77) & (cb <= 127)))


def motion(thumb: np.ndarray, previous: np.ndarray) -> float:
    """Mean absolute difference in grey levels (0–255) between two RGB thumbnails."""
    return float(np.mean(np.abs(thumb.astype(np.int16) - previous.astype(np.int16))))


@dataclass(slots=True)
class SeatGate:
    """Remembers the thumbnail the landmarker last saw for one seat and decides the next run."""

    min_motion: float = 4.0
    min_skin: float = 0.005
    refresh: float = 2.0
    active_refresh: float = 0.2
    _thumb: np.ndarray | None = None
    _t: float = float("-inf")

    def should_run(self, crop: np.ndarray, t: float, has_hand: bool, active: bool = False
                   ) -> bool:
        """Whether to run the landmarker now; when it says yes, it records this crop as seen."""
        thumb = thumbnail(crop)
        run = (
            has_hand
            or self._thumb is None
            or t - self._t >= (self.active_refresh if active else self.refresh)
            or (motion(thumb, self._thumb) >= self.min_motion
                and skin_fraction(thumb) >= self.min_skin)
        )
        if run:
            self._thumb, self._t = thumb, t
        return run

    def looked(self, crop: np.ndarray, t: float) -> None:
        """Remember ``crop`` as seen by the landmarker at ``t`` (examined without asking)."""
        self._thumb, self._t = thumbnail(crop), t

    def reset(self) -> None:
        self._thumb, self._t = None, float("-inf")
