"""Frame sources: video files (PyAV), folders of images, webcams and network streams.

Every source is an iterable of :class:`Frame` and a context manager. Times are seconds on the
input's clock: a file's presentation timestamps (so variable frame rate is exact), a live source's
monotonic clock since it was opened (a camera has no other clock that survives a reconnect).

Errors a user can cause (missing, unreadable, unsupported, truncated input) are
:class:`~mafiavision.errors.InputError` subclasses with one-line messages. A truncated or damaged
file yields every frame that decodes and then raises :class:`TruncatedInputError` naming where it
stopped. A live source that drops out is reopened with exponential back-off; each drop-out is
reported through ``report`` (default: a logging warning), never raised, until ``max_retries``
consecutive failures end the stream with :class:`SourceLostError`.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from mafiavision.errors import InputError, MissingInputError

log = logging.getLogger(__name__)

VIDEO_SUFFIXES = frozenset({".mp4", ".mkv", ".avi", ".webm", ".mov", ".m4v"})
IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp"})
URL_RE = re.compile(r"^(rtsp|rtsps|rtmp|http|https|udp|tcp|srt)://", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Frame:
    """One decoded frame: ``t`` seconds on the input's clock, ``image`` RGB uint8 HxWx3."""

    t: float
    index: int
    image: np.ndarray


#: How many skipped frames :meth:`VideoFileSource.skipped` can give back (a second of 60 fps).
SKIPPED_KEPT = 60


class UnsupportedInputError(InputError):
    """The input is not a kind of source MafiaVision reads."""


class TruncatedInputError(InputError):
    """A file stopped decoding before its end; raised after its good frames were yielded."""


class SourceLostError(InputError):
    """A live source could not be (re)opened within the allowed retries."""


def _scaled_size(width: int, height: int, max_width: int | None) -> tuple[int, int]:
    if max_width is None or width <= max_width:
        return width, height
    scale = max_width / width
    # even sizes keep every pixel format and encoder happy
    return max_width - max_width % 2, max(2, round(height * scale) // 2 * 2)


def _resize(image: np.ndarray, max_width: int | None) -> np.ndarray:
    h, w = image.shape[:2]
    new_w, new_h = _scaled_size(w, h, max_width)
    if (new_w, new_h) == (w, h):
        return image
    import cv2

    return cv2.resize(image, (new_w, new_h), interpolation=cv2.INTER_AREA)


class FrameSource:
    """Base class: iterate for frames; ``close()`` (or ``with``) releases the input."""

    name: str = "source"

    def __iter__(self) -> Iterator[Frame]:
        raise NotImplementedError

    def close(self) -> None:
        """Release the input (idempotent)."""

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Prefetch:
    """An iterator run in a thread, up to ``depth`` items ahead of its reader (PyAV releases the
    GIL while it demuxes and decodes, so the file is decoded while the reader works on the
    frames before). Its exception, if any, is raised to the reader after the items before it."""

    _END = object()

    def __init__(self, items: Iterator[Any], depth: int) -> None:
        self._queue: queue.Queue[tuple[Any, BaseException | None]] = queue.Queue(depth)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(items,), name="decoder",
                                        daemon=True)
        self._thread.start()

    def _put(self, item: tuple[Any, BaseException | None]) -> bool:
        while not self._stop.is_set():
            with contextlib.suppress(queue.Full):
                self._queue.put(item, timeout=0.1)
                return True
        return False

    def _run(self, items: Iterator[Any]) -> None:
        try:
            for item in items:
                if not self._put((item, None)):
                    return
        except BaseException as exc:  # handed to the reader
            self._put((self._END, exc))
            return
        self._put((self._END, None))

    def __iter__(self) -> Iterator[Any]:
        try:
            while True:
                item, exc = self._queue.get()
                if item is self._END:
                    if exc is not None:
                        raise exc
                    return
                yield item
        finally:
            self.stop()

    def stop(self) -> None:
        """Stop the thread and wait for it (idempotent)."""
        self._stop.set()
        self._thread.join()


class VideoFileSource(FrameSource):
    """A video file decoded with PyAV: pts-based times, rotation honoured, optional downscale.

    With ``prefetch`` > 0 a thread decodes up to that many frames ahead of the reader (the
    frames are the same; converting them to RGB stays with the reader, who knows which it
    wants)."""

    def __init__(self, path: Path, *, max_width: int | None = None, prefetch: int = 0) -> None:
        import av

        self.path = path
        self.name = str(path)
        self.max_width = max_width
        self.prefetch = prefetch
        self._prefetch: _Prefetch | None = None
        try:
            self._container = av.open(str(path))
        except av.error.FFmpegError as exc:
            raise InputError(f"{path}: not a readable video file ({_av_reason(exc)})") from None
        if not self._container.streams.video:
            self._container.close()
            raise InputError(f"{path}: has no video stream")
        self._stream = self._container.streams.video[0]
        if self._stream.codec_context is None:
            self._container.close()
            raise InputError(
                f"{path}: not a readable video file (no decodable video stream: damaged, "
                "truncated or an unknown codec)"
            )
        self._stream.thread_type = "AUTO"
        # times are the frames' pts seconds, the clock the audio track is read on too
        # (mafiavision.audio.sources): a video stream starting later than the audio keeps its
        # offset; ``end`` is where the video should stop on that clock
        duration, end = None, None
        if self._stream.duration is not None and self._stream.time_base is not None:
            duration = float(self._stream.duration * self._stream.time_base)
            end = float(((self._stream.start_time or 0) + self._stream.duration)
                        * self._stream.time_base)
        elif self._container.duration is not None:
            duration = self._container.duration / 1_000_000
            end = ((self._container.start_time or 0) + self._container.duration) / 1_000_000
        self.duration: float | None = duration
        self._end = end
        rate = self._stream.average_rate or self._stream.guessed_rate
        self.fps: float | None = float(rate) if rate else None
        self.decoded, self.last_t = 0, 0.0
        #: The frames ``frames`` skipped just before the one it gave last (time, index, PyAV
        #: frame), at most :data:`SKIPPED_KEPT`; :meth:`skipped` converts them.
        self._before: list[tuple[float, int, Any]] = []

    def _decoded(self) -> Iterator[Any]:
        """PyAV frames. On a read or decode error ``self.error`` is set and the frames still in
        the decoder are recovered: frame threading loses them, so the file is decoded again
        without it, past the frames already given."""
        import av

        given = 0
        for vf in _demux_decode(self._container, self._stream, self):
            given += 1
            yield vf
        if self.error is None:
            return
        self._container.close()
        self._container = av.open(str(self.path))
        self._stream = self._container.streams.video[0]
        self._stream.thread_type = "SLICE"
        for k, vf in enumerate(_demux_decode(self._container, self._stream, self)):
            if k >= given:
                yield vf

    def __iter__(self) -> Iterator[Frame]:
        return self.frames()

    def frames(self, wanted: Callable[[float], bool] | None = None) -> Iterator[Frame]:
        """The frames in order; with ``wanted``, only those whose time it accepts: the others are
        decoded (the codec needs them) but never converted to RGB, the costly part of a skipped
        frame. ``decoded`` and ``last_t`` count every decoded frame, ``Frame.index`` too."""
        index = 0
        last_t = 0.0
        time_base = self._stream.time_base
        self.error: str | None = None
        self.decoded, self.last_t = 0, 0.0
        decoded: Iterator[Any] = self._decoded()
        if self._prefetch is not None:  # an earlier pass's thread
            self._prefetch.stop()
            self._prefetch = None
        if self.prefetch > 0:
            self._prefetch = _Prefetch(decoded, self.prefetch)
            decoded = iter(self._prefetch)
        skipped: deque[tuple[float, int, Any]] = deque(maxlen=SKIPPED_KEPT)
        for vf in decoded:
            if vf.pts is None:
                t = last_t + 1 / (self.fps or 30) if index else 0.0
            else:
                t = float(vf.pts * time_base)
            last_t = t
            index += 1
            self.decoded, self.last_t = index, t
            if wanted is not None and not wanted(t):
                skipped.append((t, index - 1, vf))
                continue
            self._before = list(skipped)
            skipped.clear()
            yield self._frame(vf, t, index - 1)
        if self.error is not None:
            raise TruncatedInputError(
                f"{self.path}: decoding stopped at {self._where(last_t, index)}: "
                f"{self.error} (the file is damaged or truncated)"
            )
        if index == 0:
            raise TruncatedInputError(f"{self.path}: no frame could be decoded (damaged file?)")
        frame_step = 1 / self.fps if self.fps else 0.1
        if self._end is not None and last_t + 3 * frame_step < self._end:
            raise TruncatedInputError(
                f"{self.path}: decoding stopped at {self._where(last_t, index)} of "
                f"{self._end:.2f} s (the file is truncated)"
            )

    def _frame(self, vf: Any, t: float, index: int) -> Frame:
        width, height = _scaled_size(vf.width, vf.height, self.max_width)
        image = vf.to_ndarray(format="rgb24", width=width, height=height)
        if vf.rotation:
            image = np.ascontiguousarray(np.rot90(image, k=round(vf.rotation / 90) % 4))
        return Frame(t=t, index=index, image=image)

    def skipped(self) -> list[Frame]:
        """The frames ``frames(wanted)`` decoded but skipped just before the frame it gave last
        (the last :data:`SKIPPED_KEPT` of them), converted now, in order; once only. An offline
        pass that learns from a frame that it should have looked closer takes them back."""
        before, self._before = self._before, []
        return [self._frame(vf, t, index) for t, index, vf in before]

    @staticmethod
    def _where(last_t: float, count: int) -> str:
        if count == 0:
            return "the first frame"
        return f"t={last_t:.3f} s after {count} frames"

    def close(self) -> None:
        if self._prefetch is not None:
            self._prefetch.stop()
        self._container.close()


def _demux_decode(container: Any, stream: Any, owner: Any) -> Iterator[Any]:
    """Decode ``stream``, skipping packets that fail to decode; a read or decode error is stored
    in ``owner.error`` (the first one kept)."""
    import av

    packets = container.demux(stream)
    while True:
        try:
            packet = next(packets)
        except StopIteration:
            return
        except av.error.FFmpegError as exc:  # the container breaks off
            owner.error = owner.error or _av_reason(exc)
            with contextlib.suppress(av.error.FFmpegError):
                yield from stream.codec_context.decode(None)
            return
        try:
            yield from packet.decode()  # the final empty packet flushes the decoder
        except av.error.FFmpegError as exc:  # a cut or damaged packet: skip it
            owner.error = owner.error or _av_reason(exc)


def _av_reason(exc: Exception) -> str:
    text = getattr(exc, "strerror", None) or str(exc)
    return str(text).strip().rstrip(".")


class ImageFolderSource(FrameSource):
    """The images of a folder in name order, timed at ``fps`` (an image has no clock)."""

    def __init__(self, folder: Path, *, fps: float = 30.0, max_width: int | None = None) -> None:
        self.folder = folder
        self.name = str(folder)
        self.fps = fps
        self.max_width = max_width
        self.files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise InputError(
                f"{folder}: no images ({', '.join(sorted(IMAGE_SUFFIXES))}) in this folder"
            )

    def __iter__(self) -> Iterator[Frame]:
        import cv2

        for index, path in enumerate(self.files):
            bgr = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if bgr is None:
                raise InputError(f"{path}: not a readable image")
            image = _resize(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB), self.max_width)
            yield Frame(t=index / self.fps, index=index, image=image)


class LiveReader(Protocol):
    """One connection to a live source: ``read()`` → RGB image, or ``None`` when it drops."""

    def read(self) -> np.ndarray | None: ...

    def close(self) -> None: ...


class _CameraReader:
    def __init__(self, index: int) -> None:
        import cv2

        self._cap = cv2.VideoCapture(index)
        if not self._cap.isOpened():
            self._cap.release()
            raise OSError(f"camera {index} cannot be opened")

    def read(self) -> np.ndarray | None:
        import cv2

        ok, bgr = self._cap.read()
        return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB) if ok else None

    def close(self) -> None:
        self._cap.release()


class _StreamReader:
    def __init__(self, url: str, timeout: float) -> None:
        import av

        options = {"rtsp_transport": "tcp"} if url.lower().startswith("rtsp") else {}
        try:
            self._container = av.open(url, options=options, timeout=timeout)
        except av.error.FFmpegError as exc:
            raise OSError(_av_reason(exc)) from None
        if not self._container.streams.video:
            self._container.close()
            raise OSError("no video stream")
        stream = self._container.streams.video[0]
        stream.thread_type = "AUTO"
        self._frames = self._container.decode(stream)

    def read(self) -> np.ndarray | None:
        import av

        try:
            vf = next(self._frames)
        except (StopIteration, av.error.FFmpegError):
            return None
        image = vf.to_ndarray(format="rgb24")
        if vf.rotation:
            image = np.ascontiguousarray(np.rot90(image, k=round(vf.rotation / 90) % 4))
        return image

    def close(self) -> None:
        self._container.close()


class LiveSource(FrameSource):
    """A camera or stream: reopened with exponential back-off when it drops out.

    ``opener`` makes a new :class:`LiveReader` (raising ``OSError`` when it cannot); a reader
    whose ``read()`` returns ``None`` has dropped out. Each failure is reported; after
    ``max_retries`` consecutive failed attempts (``None``: never give up) the stream ends with
    :class:`SourceLostError`.
    """

    def __init__(
        self,
        name: str,
        opener: Callable[[], LiveReader],
        *,
        max_width: int | None = None,
        backoff: float = 0.5,
        max_backoff: float = 8.0,
        max_retries: int | None = 8,
        report: Callable[[str], None] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.name = name
        self.opener = opener
        self.max_width = max_width
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.max_retries = max_retries
        self.report = report or log.warning
        self.sleep = sleep
        self.clock = clock
        self.dropouts = 0
        self._reader: LiveReader | None = None

    def __iter__(self) -> Iterator[Frame]:
        start = self.clock()
        index = 0
        failures = 0
        while True:
            if self._reader is None:
                try:
                    self._reader = self.opener()
                except OSError as exc:
                    failures += 1
                    self._wait(failures, f"cannot open ({exc})")
                    continue
            image = self._reader.read()
            if image is None:
                self._reader.close()
                self._reader = None
                self.dropouts += 1
                failures += 1
                self._wait(failures, "no frames (dropped out)")
                continue
            failures = 0
            yield Frame(t=self.clock() - start, index=index, image=_resize(image, self.max_width))
            index += 1

    def _wait(self, failures: int, what: str) -> None:
        if self.max_retries is not None and failures > self.max_retries:
            raise SourceLostError(f"{self.name}: {what}; gave up after {failures - 1} retries")
        delay = min(self.max_backoff, self.backoff * 2 ** (failures - 1))
        self.report(f"{self.name}: {what}; retry {failures} in {delay:.1f} s")
        self.sleep(delay)

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None


class RealtimeSource(FrameSource):
    """Paces another source's frames at real time (a file standing in for a live camera)."""

    def __init__(
        self,
        inner: FrameSource,
        *,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.inner = inner
        self.name = inner.name
        self.sleep = sleep
        self.clock = clock

    def __iter__(self) -> Iterator[Frame]:
        wall0: float | None = None
        t0 = 0.0
        for frame in self.inner:
            if wall0 is None:
                wall0, t0 = self.clock(), frame.t
            ahead = (frame.t - t0) - (self.clock() - wall0)
            if ahead > 0:
                self.sleep(ahead)
            yield frame

    def close(self) -> None:
        self.inner.close()


def open_source(
    spec: str | int | Path,
    *,
    realtime: bool = False,
    max_width: int | None = None,
    fps: float = 30.0,
    max_retries: int | None = 8,
    report: Callable[[str], None] | None = None,
) -> FrameSource:
    """Open a webcam index, a stream URL, a video file or a folder of images.

    ``realtime`` paces a file or folder at its own clock; ``max_width`` downscales wider frames
    (keeping the aspect); ``fps`` times a folder of images; ``max_retries``/``report`` apply to
    live sources.
    """
    if max_width is not None and max_width < 16:
        raise InputError(f"max width must be at least 16 pixels, not {max_width}")
    text = str(spec)
    if isinstance(spec, int) or (isinstance(spec, str) and text.isdigit()):
        index = int(text)
        return LiveSource(
            f"camera {index}",
            lambda: _CameraReader(index),
            max_width=max_width,
            max_retries=max_retries,
            report=report,
        )
    if URL_RE.match(text):
        return LiveSource(
            text,
            lambda: _StreamReader(text, timeout=5.0),
            max_width=max_width,
            max_retries=max_retries,
            report=report,
        )
    path = Path(spec)
    if not path.exists():
        raise MissingInputError(f"{path}: no such file or folder")
    source: FrameSource
    if path.is_dir():
        source = ImageFolderSource(path, fps=fps, max_width=max_width)
    elif path.suffix.lower() in VIDEO_SUFFIXES:
        source = VideoFileSource(path, max_width=max_width)
    else:
        raise UnsupportedInputError(
            f"{path}: unsupported input (expected a video {', '.join(sorted(VIDEO_SUFFIXES))}, "
            "a folder of images, a camera index or a stream URL)"
        )
    return RealtimeSource(source) if realtime else source
