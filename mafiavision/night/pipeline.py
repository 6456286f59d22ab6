"""The live vision pipeline: frames → per-seat hands → shots and numbers, in a background thread.

One code path for a camera and for a video file paced at real time (``open_source(...,
realtime=True)``). The session says which seats matter (``set_active``, forwarded to the
tracker's scheduler) and attaches a :class:`~mafiavision.night.capture.Capture` while a night step
is open. A source that stops delivering frames raises a visible warning and pauses detection;
a camera that fails is reopened with back-off; nothing recorded so far is lost.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from mafiavision.night.capture import Capture
from mafiavision.vision.shots import continuing_hand

#: Seconds without a frame before the source counts as dropped out.
STALL_SECONDS = 1.0
#: Side in pixels of the evidence tiles kept per active seat and frame (the screen knows it).
TILE = 96
#: A camera frame more than this many seconds behind real time is skipped (a live camera's
#: frames would be lost the same way): the screen and the verdicts stay live on a busy machine.
MAX_LAG = 0.2
#: Seconds a seat shows "shot" on the screen after a shot.
SHOT_SHOWN = 1.0


@dataclass
class SeatBox:
    seat: int
    x0: int
    y0: int
    x1: int
    y1: int
    polygon: np.ndarray  # int32 (n, 2) pixels


def seat_boxes(table: Any, width: int, height: int) -> list[SeatBox]:
    """Pixel boxes of the table's seat regions for a frame of ``width`` × ``height``."""
    boxes = []
    for region in table.regions:
        poly = np.asarray(region.polygon, dtype=np.float64) * (width, height)
        x0, y0 = np.floor(poly.min(axis=0)).astype(int)
        x1, y1 = np.ceil(poly.max(axis=0)).astype(int)
        boxes.append(SeatBox(region.seat, max(x0, 0), max(y0, 0), min(x1, width),
                             min(y1, height), poly.round().astype(np.int32)))
    return boxes


def crop(image: np.ndarray, box: SeatBox) -> np.ndarray:
    """The seat's region fitted into a ``TILE`` × ``TILE`` tile (aspect kept, black padding)."""
    tile = np.zeros((TILE, TILE, 3), np.uint8)
    part = image[box.y0:box.y1, box.x0:box.x1]
    if part.size == 0:
        return tile
    scale = TILE / max(part.shape[:2])
    h, w = max(1, round(part.shape[0] * scale)), max(1, round(part.shape[1] * scale))
    small = cv2.resize(part, (w, h), interpolation=cv2.INTER_AREA)
    y, x = (TILE - h) // 2, (TILE - w) // 2
    tile[y:y + h, x:x + w] = small
    return tile


@dataclass
class LiveStatus:
    frames: int = 0  # frames processed
    dropped: int = 0  # frames skipped to stay at real time
    lag: float = 0.0  # seconds the processed frames are behind real time (kept frames)
    t: float | None = None  # the latest frame's time (processed or skipped)
    fps: float = 0.0  # processed frames per second
    warning: str | None = None
    ended: bool = False


@dataclass
class _Latest:
    image: np.ndarray | None = None
    seen: set[int] = field(default_factory=set)
    last_shot: dict[int, float] = field(default_factory=dict)


class Pipeline:
    """Runs the tracker and the gesture stages over a frame source in a thread."""

    def __init__(
        self,
        open_frames: Callable[[], Iterable[Any]],
        table: Any,
        trackers: tuple[Any, Any],
        make_shot_detector: Callable[[int], Any],
        make_number_reader: Callable[[int], Any],
        classify: Callable[[dict[int, list[Any]]], dict[int, list[Any]]],
        *,
        reopen: bool,
        drop_late: bool,
        shot_settle: float,
    ) -> None:
        """``trackers``: a one-hand tracker (hunts: fast) and a two-hand one (numbers 6–10);
        ``classify``: each seat's hand observations → their poses, a frame's in one batch
        (for the number readers); ``reopen``: a source that fails or ends is opened again (a
        camera); ``drop_late``: frames more than ``MAX_LAG`` behind real time are skipped (a
        camera: stay live) — a video file keeps every frame and lets the view fall behind
        instead (shown as a warning);
        ``shot_settle``: how long after its release the shot detectors report a shot (the
        session judges a hunt only once the frames that far past its last window are in)."""
        self.shot_settle = shot_settle
        self._drop_late = drop_late
        self._open_frames = open_frames
        self._table = table
        self._trackers = trackers
        self._tracker = trackers[0]
        self._classify = classify
        self._make_shot = make_shot_detector
        self._make_number = make_number_reader
        self._reopen = reopen
        self._shots: dict[int, Any] = {}
        self._numbers: dict[int, Any] = {}
        self._active: tuple[int, ...] = ()
        self._capture: Capture | None = None
        self._boxes: list[SeatBox] | None = None
        self._latest = _Latest()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._last_frame_wall = time.monotonic()
        self._recent: deque[float] = deque()  # wall times of the frames processed lately
        self._origin: tuple[float, float] | None = None  # (wall, frame time) of the pace
        self.status = LiveStatus()
        self._thread = threading.Thread(target=self._run, name="pipeline", daemon=True)
        self._watchdog = threading.Thread(target=self._watch, name="pipeline-watch",
                                          daemon=True)

    # -- control, from the session -------------------------------------------------------
    def start(self) -> None:
        self._thread.start()
        self._watchdog.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        for tracker in self._trackers:
            tracker.close()

    def report(self, message: str) -> None:
        """A message from the source (a camera retrying): shown as the warning."""
        self.status.warning = f"camera: {message}"

    def set_active(self, seats: Iterable[int], *, two_hands: bool = False) -> None:
        """Track ``seats`` at full rate (one hand each, or two for numbers above five)."""
        with self._lock:
            self._tracker = self._trackers[1 if two_hands else 0]
            self._active = tuple(sorted(set(seats)))
            for seat in self._active:
                self._shots.setdefault(seat, self._make_shot(seat))
                self._numbers.setdefault(seat, self._make_number(seat))
            for seat in self._active:
                self._shots[seat].reset()
                self._numbers[seat].reset()
        self._tracker.set_active(self._active)

    def attach(self, capture: Capture | None) -> None:
        with self._lock:
            self._capture = capture

    def flush_numbers(self) -> None:
        """Numbers still held up when a step ends count too: close them into the capture."""
        with self._lock:
            capture = self._capture
            if capture is None or not capture.reads_numbers:
                return
            for seat in capture.seats:
                if seat in self._numbers:
                    held = [e for e in self._numbers[seat].flush() if hasattr(e, "value")]
                    capture.add_numbers(held)

    # -- the live view --------------------------------------------------------------------
    def seat_states(self) -> dict[int, str]:
        with self._lock:
            latest = self._latest
            now = self.status.t or 0.0
            states = {s: "raised" for s in latest.seen}
            for seat, t in latest.last_shot.items():
                if now - t <= SHOT_SHOWN:
                    states[seat] = "shot"
            return states

    def clock(self) -> float | None:
        """Now on the input's clock: the latest frame's time advanced by the wall clock."""
        if self.status.t is None:
            return None
        return self.status.t + time.monotonic() - self._last_frame_wall

    def overlay_jpeg(self, quality: int = 70) -> bytes | None:
        """The latest frame with seat regions (active ones highlighted) as a JPEG."""
        with self._lock:
            image = self._latest.image
            boxes = self._boxes
            active = set(self._active)
        if image is None or boxes is None:
            return None
        states = self.seat_states()
        canvas = cv2.cvtColor(image, cv2.COLOR_RGB2BGR)
        colours = {"shot": (60, 60, 230), "raised": (90, 200, 90)}
        for box in boxes:
            colour = colours.get(states.get(box.seat, ""), (200, 200, 200))
            thick = 3 if box.seat in active else 1
            cv2.polylines(canvas, [box.polygon], True, colour, thick)
            cv2.putText(canvas, str(box.seat), (box.x0 + 4, box.y0 + 22),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.7, colour, 2)
        ok, data = cv2.imencode(".jpg", canvas, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return data.tobytes() if ok else None

    # -- the thread -----------------------------------------------------------------------
    def _watch(self) -> None:
        while not self._stop.wait(0.25):
            idle = time.monotonic() - self._last_frame_wall
            if idle > STALL_SECONDS and not self.status.ended and self.status.warning is None:
                self.status.warning = (f"camera: no frame for {idle:.0f} s — detection paused")

    def _run(self) -> None:
        delay = 0.5
        while not self._stop.is_set():
            try:
                source = self._open_frames()
                try:
                    for frame in source:
                        if self._stop.is_set():
                            return
                        self._step(frame)
                        delay = 0.5
                finally:
                    close = getattr(source, "close", None)
                    if close is not None:
                        close()
            except Exception as exc:  # a camera that fails is reported and reopened
                self.status.warning = f"camera: {exc} — detection paused, retrying"
                if not self._reopen:
                    self.status.ended = True
                    return
                self._stop.wait(delay)
                delay = min(delay * 2, 8.0)
                continue
            if not self._reopen:
                self.status.ended = True
                self.status.warning = "video ended — detection stopped"
                return
            self.status.warning = "camera: stream ended — detection paused, retrying"
            self._stop.wait(delay)
            delay = min(delay * 2, 8.0)

    def _behind(self, frame: Any, now: float) -> bool:
        """Whether ``frame`` is more than ``MAX_LAG`` behind real time (then it is skipped)."""
        if self._origin is None or frame.t < self._origin[1]:
            self._origin = (now, frame.t)
            return False
        return (now - self._origin[0]) - (frame.t - self._origin[1]) > MAX_LAG

    def _step(self, frame: Any, *, paced: bool = True) -> None:
        now = time.monotonic()
        if paced and self._behind(frame, now):
            if self._drop_late:
                self.status.dropped += 1
                self.status.t = frame.t
                self._last_frame_wall = now
                return
            assert self._origin is not None
            self.status.lag = (now - self._origin[0]) - (frame.t - self._origin[1])
        else:
            self.status.lag = 0.0
        self._last_frame_wall = now
        if self.status.warning and not self.status.ended:
            self.status.warning = None
        if self._boxes is None:
            h, w = frame.image.shape[:2]
            self._boxes = seat_boxes(self._table, w, h)
        hands = self._tracker.update(frame)
        with self._lock:
            active = self._active
            capture = self._capture
        seen: set[int] = set()
        shots: list[Any] = []
        numbers: list[Any] = []
        reading = capture is not None and capture.reads_numbers
        poses = self._classify({s: hands.get(s) or [] for s in active}) if reading else {}
        for seat in active:
            found = hands.get(seat) or []
            best = continuing_hand(found, self._shots[seat].track)
            if best is not None:
                seen.add(seat)
            shots.extend(self._shots[seat].update(best, frame.t))
            if reading:
                numbers.extend(e for e in self._numbers[seat].update(poses[seat], frame.t)
                               if hasattr(e, "value"))
        crops: dict[int, np.ndarray] = {}
        if capture is not None:
            by_seat = {b.seat: b for b in self._boxes}
            crops = {s: crop(frame.image, by_seat[s]) for s in active if s in by_seat}
            capture.add_frame(frame.t, frame.index, seen, crops, shots, numbers)
        with self._lock:
            self._latest.image = frame.image
            self._latest.seen = seen | {s for s, obs in hands.items() if obs}
            for shot in shots:
                self._latest.last_shot[shot.seat] = shot.t
        self.status.frames += 1
        self.status.t = frame.t
        self._recent.append(now)
        while now - self._recent[0] > 1.0:
            self._recent.popleft()
        self.status.fps = float(len(self._recent))  # frames processed in the last second
