"""The live ear: audio chunks → speech segments, and the called numbers' windows on demand.

One code path for a microphone and for a file's audio track paced at real time. The thread scores
each chunk with the voice-activity detector and keeps the closed speech segments; the session
asks :meth:`Listener.count` during a hunt, which aligns the segments heard since the hunt began
to the called seats (``mafiavision.audio.callout.align``) and says whether the count is over.

Times are put on the video's clock: a file's audio track already is; a microphone's chunk times
are shifted by ``offset``, set at the first chunk heard after the camera's first frame.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

#: Seconds without a chunk before the microphone counts as dropped out.
STALL_SECONDS = 1.0


@dataclass(frozen=True)
class CountState:
    """The windows of the numbers heard so far, and whether the count is over."""

    callout: Any  # mafiavision.audio.callout.Callout
    word_ends: dict[int, float]  # seat → when its number's word ended, where the speech shows it
    complete: bool
    closed_at: float | None  # when the count was known to be over (video clock)


def word_ends(seats: Sequence[int], segment_of: Sequence[int | None],
              segments: Sequence[Any]) -> dict[int, float]:
    """The end of each number's word: its speech segment's end, unless the word is interpolated
    or shares its segment with the next word (then the end is unknown)."""
    out = {}
    for k, seat in enumerate(seats):
        idx = segment_of[k] if k < len(segment_of) else None
        nxt = segment_of[k + 1] if k + 1 < len(segment_of) else None
        if idx is not None and idx != nxt:
            out[seat] = float(segments[idx].end)
    return out


class Listener:
    def __init__(
        self,
        open_chunks: Callable[[], Iterable[Any]],
        *,
        reopen: bool,
        lead: float = 0.0,
        between_gap: float = 0.15,
        detector: str = "auto",
        video_clock: Callable[[], float | None] | None = None,
    ) -> None:
        from mafiavision.audio.vad import Segmenter, make_detector

        self._open_chunks = open_chunks
        self._reopen = reopen
        self._detector = make_detector(detector)  # type: ignore[arg-type]
        self._segmenter = Segmenter()
        self.lead = lead
        self.between_gap = between_gap
        self._video_clock = video_clock
        self.offset: float | None = None if video_clock is not None else 0.0
        self.segments: list[Any] = []
        self.t: float | None = None
        self.warning: str | None = None
        self.ended = False  # a file's audio track is over
        self._aligned: tuple[Any, ...] | None = None
        self._last_wall = time.monotonic()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="listener", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def stalled(self) -> bool:
        """No sound for a while from a source that has not ended."""
        return not self.ended and time.monotonic() - self._last_wall > STALL_SECONDS

    def segments_since(self, since: float) -> list[Any]:
        with self._lock:
            return [s for s in self.segments if s.end > since]

    def count(self, since: float, seats: Sequence[int]) -> CountState | None:
        """Align the speech since ``since`` to ``seats``; None while nothing was heard.

        The count is over once every number was heard as its own speech segment, no speech goes
        on and the last window has closed. With one word missing (interpolated by the aligner:
        maybe the last number is still to come) it is over only after a silence of twice the
        count's interval; with more missing it is not over (the moderator can end it). The
        alignment is recomputed only when a segment closed (it costs tens of milliseconds); in
        between only the clock moves.
        """
        from mafiavision.audio.callout import align, make_windows

        segments = self.segments_since(since)
        if not segments or not seats:
            return None
        key = (since, tuple(seats), len(segments))
        if self._aligned is None or self._aligned[0] != key:
            alignment = align(segments, len(seats))
            callout = make_windows(seats, alignment, lead=self.lead,
                                   between_gap=self.between_gap)
            ends = word_ends(seats, alignment.segments, segments)
            missing = sum(alignment.interpolated)
            self._aligned = (key, callout, ends, missing, alignment.interval)
        _, callout, ends, missing, interval = self._aligned
        now = self.t
        if now is None or self._segmenter.open_onset is not None:
            return CountState(callout, ends, False, None)
        if missing > 1:
            return CountState(callout, ends, False, None)
        over_at = (callout.windows[-1].end if missing == 0
                   else segments[-1].end + 2 * interval)
        complete = now >= over_at
        return CountState(callout, ends, complete, over_at if complete else None)

    def _run(self) -> None:
        delay = 0.5
        while not self._stop.is_set():
            try:
                for chunk in self._open_chunks():
                    if self._stop.is_set():
                        return
                    self._push(chunk)
                    delay = 0.5
            except Exception as exc:  # a microphone that fails is reported and reopened
                self.warning = f"microphone: {exc} — listening paused, retrying"
            if not self._reopen:
                closed = self._segmenter.flush()
                if closed is not None:
                    with self._lock:
                        self.segments.append(closed)
                self.ended = True
                return
            self._stop.wait(delay)
            delay = min(delay * 2, 8.0)

    def _push(self, chunk: Any) -> None:
        self._last_wall = time.monotonic()
        self.warning = None
        if self.offset is None:
            # A microphone's own clock: put it on the camera's once the camera has a frame.
            assert self._video_clock is not None
            now = self._video_clock()
            if now is None:
                return
            self.offset = now - (chunk.t + len(chunk.samples) / 16_000)
        t = chunk.t + self.offset
        closed = self._segmenter.push(t, self._detector.score(chunk.samples))
        if closed is not None:
            with self._lock:
                self.segments.append(closed)
        self.t = t + len(chunk.samples) / 16_000


def windows_from_taps(taps: Sequence[float], seats: Sequence[int], segments: Sequence[Any],
                      *, lead: float = 0.0, between_gap: float = 0.15) -> tuple[Any, dict]:
    """Tap mode: one tap per called number, snapped to the nearest voice onset when there is
    one in reach (``mafiavision.audio.cues.snap_taps``); a tap left unsnapped while there is
    speech is less sure.
    Returns the callout and the word ends known from the snapped segments."""
    from mafiavision.audio.callout import Alignment, make_windows
    from mafiavision.audio.cues import snap_taps

    snapped = snap_taps(taps, segments)[: len(seats)]
    onsets = [s.onset for s in snapped]
    steps = sorted(b - a for a, b in itertools.pairwise(onsets))
    interval = steps[len(steps) // 2] if steps else 1.0
    # Without any speech to snap to (no microphone) the taps are the only timing there is.
    unsnapped = 0.6 if segments else 0.8
    alignment = Alignment(onsets=onsets,
                          confidences=[1.0 if s.snapped else unsnapped for s in snapped],
                          interpolated=[False] * len(onsets), interval=interval, cost=0.0)
    starts = [seg.start for seg in segments]
    segment_of = [starts.index(s.onset) if s.snapped and s.onset in starts else None
                  for s in snapped]
    called = seats[: len(onsets)]
    return (make_windows(called, alignment, lead=lead, between_gap=between_gap),
            word_ends(called, segment_of, segments))
