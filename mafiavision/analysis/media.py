"""What the analysis needs from a recording file beyond the frame source: its properties, whether
it has an audio track, and JPEG thumbnails of chosen instants for the report."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import av
import cv2
import numpy as np

from mafiavision.errors import InputError, MissingInputError


@dataclass(frozen=True)
class MediaInfo:
    path: Path
    width: int
    height: int
    fps: float
    duration: float
    has_audio: bool


def probe(path: Path) -> MediaInfo:
    """Size, frame rate, duration and audio presence of a recording; InputError when it has no
    decodable video stream."""
    if not path.exists():
        raise MissingInputError(f"{path}: recording not found")
    try:
        with av.open(str(path)) as container:
            if not container.streams.video:
                raise InputError(f"{path}: no video stream (expected a recording of the table)")
            video = container.streams.video[0]
            width, height = video.codec_context.width, video.codec_context.height
            rate = video.average_rate or video.guessed_rate
            fps = float(rate) if rate else 0.0
            if video.duration is not None and video.time_base is not None:
                duration = float(video.duration * video.time_base)
            elif container.duration is not None:
                duration = container.duration / av.time_base
            else:
                duration = 0.0
            has_audio = bool(container.streams.audio)
    except av.error.FFmpegError as exc:
        raise InputError(f"{path}: not a readable video file ({exc})") from exc
    if width <= 0 or height <= 0 or fps <= 0:
        raise InputError(f"{path}: the video stream has no usable size or frame rate")
    return MediaInfo(path, width, height, fps, duration, has_audio)


Box = tuple[float, float, float, float]


def thumbnails(path: Path, times: Iterable[float], box: Box = (0.0, 0.0, 1.0, 1.0),
               width: int = 240) -> dict[float, bytes]:
    """JPEG thumbnails of ``box`` (x0, y0, x1, y1, normalised) in the frames nearest to ``times``
    (one pass, decoding forward from a seek to the first instant). Instants the file cannot
    decode are left out."""
    wanted = sorted(set(times))
    out: dict[float, bytes] = {}
    if not wanted:
        return out
    try:
        with av.open(str(path)) as container:
            stream = container.streams.video[0]
            stream.thread_type = "AUTO"
            seek_to = max(0.0, wanted[0] - 1.0)
            container.seek(int(seek_to / stream.time_base), stream=stream)
            i = 0
            previous = None
            for frame in container.decode(stream):
                t = float(frame.time)
                while i < len(wanted) and t >= wanted[i]:
                    best = frame
                    if previous is not None and wanted[i] - previous.time < t - wanted[i]:
                        best = previous
                    out[wanted[i]] = _jpeg(best, box, width)
                    i += 1
                if i == len(wanted):
                    break
                previous = frame
    except (av.error.FFmpegError, IndexError):
        pass
    return out


def _jpeg(frame: av.VideoFrame, box: Box, width: int) -> bytes:
    image = frame.to_ndarray(format="bgr24")
    h, w = image.shape[:2]
    x0, y0 = int(box[0] * w), int(box[1] * h)
    x1, y1 = max(x0 + 2, int(box[2] * w)), max(y0 + 2, int(box[3] * h))
    part = image[y0:y1, x0:x1]
    height = max(2, round(part.shape[0] * width / part.shape[1]))
    part = cv2.resize(part, (width, height), interpolation=cv2.INTER_AREA)
    ok, data = cv2.imencode(".jpg", np.ascontiguousarray(part), [cv2.IMWRITE_JPEG_QUALITY, 80])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return data.tobytes()

