"""Table calibration: where each seat's raised hand appears in the camera image.

A :class:`Table` (``table.json``) holds, per seat, a polygon in normalised image coordinates
(x right, y down, 0..1) where that seat's raised hand appears, and ``toward``: the unit vector (in
pixel space) from the region toward the player's body, i.e. the direction the forearm comes from.
It is made by :func:`ellipse_layout`, from explicit rectangles (:func:`from_boxes`), or
automatically (:mod:`mafiavision.vision.autocalib`).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from mafiavision.errors import InputError, MissingInputError

TABLE_VERSION = 1
#: DESIGN.md "Where the camera goes": hands narrower than this are found unreliably.
MIN_HAND_PX = 80.0
#: Without a measured hand size, a region is assumed to be drawn so the hand fills this much of
#: its shorter side (a crop where the hand is ≥ 30 % of it is what the palm detector needs; in the
#: EPSRC grid cells and the rendered sample clips raised hands fill 50–80 %).
HAND_FRACTION_OF_REGION = 0.5


class SeatRegion(BaseModel):
    """One seat: its polygon (normalised), the direction toward the player, the hand width seen."""

    model_config = ConfigDict(extra="forbid")

    seat: int = Field(ge=1, le=99)
    polygon: list[tuple[float, float]] = Field(min_length=3)
    toward: tuple[float, float] = (0.0, 1.0)
    hand_width: float | None = Field(
        default=None, gt=0, le=1,
        description="measured hand size (longer side of its landmark box), fraction of image width",
    )

    @field_validator("polygon")
    @classmethod
    def _inside_image(cls, polygon: list[tuple[float, float]]) -> list[tuple[float, float]]:
        for x, y in polygon:
            if not (-0.01 <= x <= 1.01 and -0.01 <= y <= 1.01):
                raise ValueError(f"point ({x}, {y}) is outside the image (coordinates are 0..1)")
        return polygon

    @field_validator("toward")
    @classmethod
    def _unit(cls, toward: tuple[float, float]) -> tuple[float, float]:
        norm = math.hypot(*toward)
        if norm < 1e-6:
            raise ValueError("must be a non-zero direction (x, y)")
        return (toward[0] / norm, toward[1] / norm)

    def pixel_polygon(self, width: int, height: int) -> np.ndarray:
        """The polygon in pixels of an image of the given size, float (K, 2)."""
        return np.asarray(self.polygon, dtype=np.float64) * (width, height)

    def pixel_box(self, width: int, height: int) -> tuple[int, int, int, int]:
        """Bounding box (x0, y0, x1, y1) in pixels, clipped to the image."""
        pts = self.pixel_polygon(width, height)
        x0, y0 = np.floor(pts.min(axis=0)).astype(int)
        x1, y1 = np.ceil(pts.max(axis=0)).astype(int)
        return max(0, x0), max(0, y0), min(width, x1), min(height, y1)

    def contains(self, x: float, y: float, width: int, height: int, margin: float = 0.0) -> bool:
        """Whether pixel point (x, y) lies in the polygon (or within ``margin`` px of it)."""
        import cv2

        contour = self.pixel_polygon(width, height).astype(np.float32).reshape(-1, 1, 2)
        return cv2.pointPolygonTest(contour, (float(x), float(y)), True) >= -margin


class Table(BaseModel):
    """A calibrated table: the image size it was made for and one region per seat."""

    model_config = ConfigDict(extra="forbid")

    version: Literal[1] = TABLE_VERSION
    seats: int = Field(ge=1, le=99)
    image_size: tuple[int, int] = Field(description="(width, height) in pixels")
    regions: list[SeatRegion]

    @field_validator("image_size")
    @classmethod
    def _positive(cls, size: tuple[int, int]) -> tuple[int, int]:
        if size[0] < 16 or size[1] < 16:
            raise ValueError("must be (width, height) of at least 16 pixels each")
        return size

    @model_validator(mode="after")
    def _seats_match(self) -> Table:
        numbers = [r.seat for r in self.regions]
        if len(set(numbers)) != len(numbers):
            raise ValueError(f"regions: seat numbers repeat ({sorted(numbers)})")
        if any(n > self.seats for n in numbers):
            raise ValueError(
                f"regions: seat numbers must be 1..{self.seats}, got {sorted(numbers)}"
            )
        return self

    @classmethod
    def load(cls, path: str | Path) -> Table:
        path = Path(path)
        if not path.exists():
            raise MissingInputError(
                f"{path}: table file not found (make one: mafiavision calibrate)"
            )
        try:
            data = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InputError(f"{path}: not a JSON table file ({exc})") from None
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"]) or "(top level)"
            more = f" (+{len(exc.errors()) - 1} more)" if len(exc.errors()) > 1 else ""
            raise InputError(f"{path}: field {where}: {err['msg']}{more}") from None

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.model_dump_json(indent=2) + "\n")

    def region(self, seat: int) -> SeatRegion:
        for r in self.regions:
            if r.seat == seat:
                return r
        raise InputError(f"seat {seat} is not in the table (seats: {self.seat_numbers()})")

    def seat_numbers(self) -> list[int]:
        return sorted(r.seat for r in self.regions)

    def check_frame_size(self, width: int, height: int) -> None:
        """Raise if frames of this size do not have the aspect ratio the table was made for."""
        tw, th = self.image_size
        if abs(width / height - tw / th) > 0.02 * (tw / th):
            raise InputError(
                f"the table was made for {tw}x{th} images but the frames are {width}x{height} "
                "(a different aspect ratio): calibrate again for this camera"
            )

    def hand_width_px(self, seat: int, width: int, height: int) -> float:
        """Expected hand width in pixels at this frame size (measured, or from the region)."""
        r = self.region(seat)
        if r.hand_width is not None:
            return r.hand_width * width
        x0, y0, x1, y1 = r.pixel_box(width, height)
        return HAND_FRACTION_OF_REGION * min(x1 - x0, y1 - y0)

    def warnings(self, width: int | None = None, height: int | None = None) -> list[str]:
        """Problems a user should fix: seats whose hands will be too small to be found."""
        width, height = (width, height) if width and height else self.image_size
        out = []
        for seat in self.seat_numbers():
            px = self.hand_width_px(seat, width, height)
            if px < MIN_HAND_PX:
                out.append(
                    f"seat {seat}: a hand there is about {px:.0f} px across at {width}x{height}, "
                    f"below {MIN_HAND_PX:.0f} px: move the camera closer or use a higher resolution"
                )
        return out


def _rectangle(cx: float, cy: float, w: float, h: float) -> list[tuple[float, float]]:
    x0, x1 = max(0.0, cx - w / 2), min(1.0, cx + w / 2)
    y0, y1 = max(0.0, cy - h / 2), min(1.0, cy + h / 2)
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def from_boxes(
    boxes: list[tuple[float, float, float, float]],
    image_size: tuple[int, int],
    toward: tuple[float, float] = (0.0, 1.0),
) -> Table:
    """A table from one normalised box (x0, y0, x1, y1) per seat, seats numbered 1..N in order."""
    regions = []
    for seat, (x0, y0, x1, y1) in enumerate(boxes, start=1):
        if not (x1 > x0 and y1 > y0):
            raise InputError(f"seat {seat}: box {x0},{y0},{x1},{y1} must have x1 > x0 and y1 > y0")
        regions.append(
            SeatRegion(seat=seat, polygon=[(x0, y0), (x1, y0), (x1, y1), (x0, y1)], toward=toward)
        )
    return Table(seats=len(regions), image_size=image_size, regions=regions)


def ellipse_layout(
    seats: int,
    image_size: tuple[int, int],
    *,
    center: tuple[float, float] = (0.5, 0.5),
    axes: tuple[float, float] = (0.38, 0.34),
    region: tuple[float, float] | None = None,
    start_deg: float = 90.0,
    clockwise: bool = True,
    toward: Literal["outward", "down"] = "outward",
) -> Table:
    """N seats on an ellipse (normalised centre and semi-axes); seat 1 at ``start_deg``.

    Angles are in image terms: 0° is to the right, 90° straight down (the moderator's end when
    the camera looks down the table from behind the moderator). Each region is a rectangle of
    ``region`` (normalised width, height), by default as wide as the gap between seats.
    """
    if seats < 1:
        raise InputError(f"seats must be at least 1, not {seats}")
    w, h = image_size
    if region is None:
        perimeter = math.pi * (axes[0] * w + axes[1] * h)  # px, a fair approximation
        side = 0.9 * perimeter / seats
        region = (min(0.3, side / w), min(0.4, side * 1.2 / h))
    regions = []
    step = 360.0 / seats * (-1 if clockwise else 1)
    for i in range(seats):
        a = math.radians(start_deg - step * i)
        cx = center[0] + axes[0] * math.cos(a)
        cy = center[1] + axes[1] * math.sin(a)
        out = (math.cos(a), math.sin(a)) if toward == "outward" else (0.0, 1.0)
        regions.append(
            SeatRegion(seat=i + 1, polygon=_rectangle(cx, cy, *region), toward=out)
        )
    return Table(seats=seats, image_size=image_size, regions=regions)

