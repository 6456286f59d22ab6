"""Automatic calibration from a recording in which the seats raise a hand one after another.

1. Sample the recording at ``rate`` Hz; the per-pixel median of small copies is the empty table.
2. In each sample, regions that differ from it (foreground blobs) are cropped from the full frame
   so the blob fills most of the crop, and a MediaPipe hand landmarker (IMAGE mode, full model)
   looks for a hand there — whole-frame detection would miss small hands.
3. Hands are grouped by place; groups seen in fewer than ``min_hits`` samples are noise. Ordered
   by the time each place was first seen, the groups are seats 1..N.
4. Each seat's region is a square of 1 / ``HAND_FRACTION_OF_REGION`` hand sizes around the hand,
   ``toward`` is the mean wrist←middle-knuckle direction (the forearm comes from the player), and
   the measured hand width is stored.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from mafiavision.errors import InputError
from mafiavision.vision.hands import MIDDLE_MCP, PALM, WRIST
from mafiavision.vision.models import hand_landmarker_path
from mafiavision.vision.sources import Frame, open_source
from mafiavision.vision.table import HAND_FRACTION_OF_REGION, SeatRegion, Table

SMALL_WIDTH = 320
DIFF_LEVEL = 30  # grey levels: a pixel differs from the empty table
MIN_BLOB = 0.002  # fraction of the small frame


@dataclass(slots=True)
class _Place:
    first_t: float
    centres: list[np.ndarray] = field(default_factory=list)
    widths: list[float] = field(default_factory=list)
    forearm: list[np.ndarray] = field(default_factory=list)

    def centre(self) -> np.ndarray:
        return np.median(np.array(self.centres), axis=0)


def _sampled(path: str | Path, rate: float) -> list[Frame]:
    out: list[Frame] = []
    next_t = -1.0
    with open_source(path) as source:
        for frame in source:
            if frame.t >= next_t:
                out.append(frame)
                next_t = frame.t + 1 / rate
    return out


def _blobs(small: np.ndarray, background: np.ndarray) -> list[tuple[int, int, int, int]]:
    import cv2

    diff = np.abs(small.astype(np.int16) - background.astype(np.int16)).max(axis=2)
    mask = (diff > DIFF_LEVEL).astype(np.uint8)
    kernel = np.ones((3, 3), np.uint8)
    mask = cv2.morphologyEx(cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel), cv2.MORPH_CLOSE,
                            kernel, iterations=2)
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    min_area = MIN_BLOB * mask.size
    return [
        (int(x), int(y), int(x + w), int(y + h))
        for x, y, w, h, area in stats[1:count]
        if area >= min_area
    ]


def calibrate_from_recording(
    path: str | Path,
    seats: int,
    *,
    rate: float = 5.0,
    min_hits: int = 2,
    report: Callable[[str], None] | None = None,
) -> Table:
    """A :class:`Table` from a recording where seats 1..``seats`` raise a hand in turn."""
    import cv2
    import mediapipe as mp
    from mediapipe.tasks.python import BaseOptions, vision

    frames = _sampled(path, rate)
    if len(frames) < 3:
        raise InputError(f"{path}: too short to calibrate from ({len(frames)} samples)")
    h, w = frames[0].image.shape[:2]
    scale = SMALL_WIDTH / w
    small_size = (SMALL_WIDTH, max(16, round(h * scale)))
    smalls = [cv2.resize(f.image, small_size, interpolation=cv2.INTER_AREA) for f in frames]
    background = np.median(np.stack(smalls), axis=0).astype(np.uint8)

    options = vision.HandLandmarkerOptions(
        base_options=BaseOptions(model_asset_path=str(hand_landmarker_path("full"))),
        running_mode=vision.RunningMode.IMAGE,
        num_hands=1,
    )
    places: list[_Place] = []
    with vision.HandLandmarker.create_from_options(options) as landmarker:
        for frame, small in zip(frames, smalls, strict=True):
            for bx0, by0, bx1, by1 in _blobs(small, background):
                cx, cy = (bx0 + bx1) / 2 / scale, (by0 + by1) / 2 / scale
                side = max(96.0, 1.3 * max(bx1 - bx0, by1 - by0) / scale)
                x0, y0 = int(max(0, cx - side / 2)), int(max(0, cy - side / 2))
                x1, y1 = int(min(w, cx + side / 2)), int(min(h, cy + side / 2))
                crop = np.ascontiguousarray(frame.image[y0:y1, x0:x1])
                result = landmarker.detect(mp.Image(image_format=mp.ImageFormat.SRGB, data=crop))
                for hand in result.hand_landmarks:
                    pts = np.array([(p.x * (x1 - x0) + x0, p.y * (y1 - y0) + y0) for p in hand])
                    _add(places, frame.t, pts)
    found = sorted((p for p in places if len(p.centres) >= min_hits), key=lambda p: p.first_t)
    if report:
        for p in found:
            c = p.centre()
            report(f"hand at ({c[0]:.0f}, {c[1]:.0f}) px first seen at {p.first_t:.2f} s, "
                   f"{len(p.centres)} samples")
    if len(found) != seats:
        raise InputError(
            f"{path}: found {len(found)} places where a hand was raised, expected {seats} "
            "(each seat should raise one hand in turn, in seat order, on a still camera)"
        )
    regions = []
    for seat, place in enumerate(found, start=1):
        c = place.centre()
        width = float(np.median(place.widths))
        half = width / HAND_FRACTION_OF_REGION / 2
        x0, x1 = max(0.0, (c[0] - half) / w), min(1.0, (c[0] + half) / w)
        y0, y1 = max(0.0, (c[1] - half) / h), min(1.0, (c[1] + half) / h)
        d = np.mean(place.forearm, axis=0)
        regions.append(
            SeatRegion(
                seat=seat,
                polygon=[(x0, y0), (x1, y0), (x1, y1), (x0, y1)],
                toward=(float(-d[0]), float(-d[1])),
                hand_width=min(1.0, width / w),
            )
        )
    return Table(seats=seats, image_size=(w, h), regions=regions)


def _add(places: list[_Place], t: float, pts: np.ndarray) -> None:
    centre = pts[list(PALM)].mean(axis=0)
    size = float(max(np.ptp(pts, axis=0)))  # the hand's size: its landmark box's longer side
    d = pts[MIDDLE_MCP] - pts[WRIST]
    d = d / (np.linalg.norm(d) or 1.0)
    for place in places:
        if np.linalg.norm(place.centre() - centre) < size:
            break
    else:
        place = _Place(first_t=t)
        places.append(place)
    place.centres.append(centre)
    place.widths.append(size)
    place.forearm.append(d)
