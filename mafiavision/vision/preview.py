"""Pictures to check by eye: the table's seat regions, tracked hands, and a preview video."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np

from mafiavision.errors import InputError
from mafiavision.vision.hands import HandObservation
from mafiavision.vision.table import Table

#: MediaPipe's 21-point hand skeleton.
HAND_CONNECTIONS = (
    (0, 1), (1, 2), (2, 3), (3, 4), (0, 5), (5, 6), (6, 7), (7, 8), (5, 9), (9, 10), (10, 11),
    (11, 12), (9, 13), (13, 14), (14, 15), (15, 16), (13, 17), (0, 17), (17, 18), (18, 19),
    (19, 20),
)
SEAT_COLOUR = (40, 220, 255)
ACTIVE_COLOUR = (255, 80, 40)
HAND_COLOUR = (60, 255, 60)
HELD_COLOUR = (200, 200, 60)
MILLISECOND = Fraction(1, 1000)


def draw_table(table: Table, image: np.ndarray, active: set[int] | None = None) -> np.ndarray:
    """A copy of RGB ``image`` with each seat's region, number and ``toward`` arrow."""
    import cv2

    out = image.copy()
    h, w = out.shape[:2]
    for r in table.regions:
        colour = ACTIVE_COLOUR if active and r.seat in active else SEAT_COLOUR
        pts = r.pixel_polygon(w, h).round().astype(np.int32)
        cv2.polylines(out, [pts.reshape(-1, 1, 2)], True, colour, 2, cv2.LINE_AA)
        cx, cy = pts.mean(axis=0)
        length = 0.25 * min(np.ptp(pts[:, 0]), np.ptp(pts[:, 1]))
        tip = (int(cx + r.toward[0] * length), int(cy + r.toward[1] * length))
        cv2.arrowedLine(out, (int(cx), int(cy)), tip, colour, 2, cv2.LINE_AA, tipLength=0.3)
        x0, y0 = pts.min(axis=0)
        cv2.putText(out, str(r.seat), (int(x0) + 6, int(y0) + 28), cv2.FONT_HERSHEY_SIMPLEX,
                    0.9, colour, 2, cv2.LINE_AA)
    return out


def draw_hands(image: np.ndarray, hands: dict[int, list[HandObservation]]) -> np.ndarray:
    """Draw every hand's skeleton (in place) and its seat and track id; returns ``image``."""
    import cv2

    h, w = image.shape[:2]
    for seat, observations in hands.items():
        for obs in observations:
            colour = HELD_COLOUR if obs.held else HAND_COLOUR
            pts = (obs.landmarks[:, :2] * (w, h)).round().astype(int)
            for a, b in HAND_CONNECTIONS:
                cv2.line(image, tuple(pts[a]), tuple(pts[b]), colour, 2, cv2.LINE_AA)
            for p in pts:
                cv2.circle(image, tuple(p), 3, (255, 255, 255), -1, cv2.LINE_AA)
            x0, y0 = int(obs.bbox[0]), int(obs.bbox[1])
            cv2.putText(image, f"{seat}#{obs.track}", (x0, max(12, y0 - 6)),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 2, cv2.LINE_AA)
    return image


def save_png(image: np.ndarray, path: str | Path) -> None:
    import cv2

    if not cv2.imwrite(str(path), cv2.cvtColor(image, cv2.COLOR_RGB2BGR)):
        raise InputError(f"{path}: cannot write the preview image (expected a .png/.jpg path)")


class Mp4Writer:
    """An H.264 mp4 whose frames keep their given times (variable frame rate is kept)."""

    def __init__(self, path: str | Path, width: int, height: int, *, faststart: bool = False,
                 ) -> None:
        import av

        self.path = Path(path)
        try:
            options = {"movflags": "+faststart"} if faststart else {}
            self._container = av.open(str(self.path), "w", options=options)
        except (av.error.FFmpegError, ValueError) as exc:
            raise InputError(f"{self.path}: cannot write a video ({exc})") from None
        self._stream = self._container.add_stream("libx264", rate=30)
        self._stream.width, self._stream.height = width - width % 2, height - height % 2
        self._stream.pix_fmt = "yuv420p"
        self._stream.codec_context.time_base = MILLISECOND
        self._stream.time_base = MILLISECOND
        self._last_pts = -1

    def __enter__(self) -> Mp4Writer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def write(self, image: np.ndarray, t: float) -> None:
        import av

        image = image[: self._stream.height, : self._stream.width]
        frame = av.VideoFrame.from_ndarray(np.ascontiguousarray(image), format="rgb24")
        frame.pts = self._last_pts = max(self._last_pts + 1, round(t * 1000))
        frame.time_base = MILLISECOND
        for packet in self._stream.encode(frame):
            self._container.mux(packet)

    def close(self) -> None:
        for packet in self._stream.encode():
            self._container.mux(packet)
        self._container.close()
