"""Numbers over time per seat: held numbers, numbers above ten, the Don's orders, a raised hand.

:class:`NumberReader` is fed, every frame, the poses of the seat's hands (zero, one or two). The
value the hands show (:meth:`ClubConvention.hands_value`: one hand, or the sum of two) counts as a
number once it has been **held** for ``hold`` seconds; short flickers (a frame or a few, up to
``flicker`` seconds, of another reading or of no hand) do not break it. The event is emitted when
the hand changes to something else or goes down (or at :meth:`NumberReader.flush`), with its start
and end times. A hand seen (any pose) for ``raise_hold`` seconds gives one
:class:`RaisedHandEvent` (the Sheriff showing himself on night zero).

Sequences: :func:`read_number` joins two numbers shown one after the other into one above ten,
per the club convention (a check of seat 12 on a 12-seat table); the Don's night-zero orders
are read from the number events by :mod:`mafiavision.vision.orders`.
"""

from __future__ import annotations

from dataclasses import dataclass

from mafiavision.vision.gestures import DEFAULT_CONVENTION, ClubConvention, PoseResult


@dataclass(frozen=True)
class NumberEvent:
    """A number held steady by one seat from ``start`` to ``end`` (seconds)."""

    seat: int
    start: float
    end: float
    value: int
    confidence: float


@dataclass(frozen=True)
class RaisedHandEvent:
    """A hand held up (any pose) by one seat from ``start``; ``end`` when it went down."""

    seat: int
    start: float
    end: float
    confidence: float


@dataclass(frozen=True)
class NumberConfig:
    hold: float = 0.6
    flicker: float = 0.25
    raise_hold: float = 1.0


@dataclass
class _Run:
    value: int | None  # None: a hand is up but shows no number
    start: float
    last: float  # last time this reading was seen
    frames: int = 0
    agree: int = 0
    confidence: float = 0.0


class NumberReader:
    """Stateful reader of one seat's numbers; ``update`` every frame, ``flush`` at the end."""

    def __init__(
        self,
        seat: int,
        convention: ClubConvention = DEFAULT_CONVENTION,
        config: NumberConfig | None = None,
    ) -> None:
        self.seat = seat
        self.convention = convention
        self.config = config or NumberConfig()
        self.reset()

    def reset(self) -> None:
        self._run: _Run | None = None
        self._pending: tuple[int | None, float] | None = None  # a differing reading: since when
        self._raised: _Run | None = None

    def update(self, hands: list[PoseResult], t: float) -> list[NumberEvent | RaisedHandEvent]:
        """Feed the poses of this seat's hands at time ``t``; returns events that completed."""
        out: list[NumberEvent | RaisedHandEvent] = []
        out += self._update_raised(bool(hands), hands, t)
        value = self.convention.hands_value(hands) if hands else None
        run = self._run
        if run is not None:
            run.frames += 1
            if value == run.value and hands:
                run.last = t
                run.agree += 1
                run.confidence += min(h.confidence for h in hands)
                self._pending = None
                return out
            if self._pending is None or self._pending[0] != value:
                self._pending = (value, t)
            if t - run.last <= self.config.flicker:
                return out
            out += self._close(run)
            self._run = None
        if hands:
            pending = self._pending
            start = pending[1] if pending is not None and pending[0] == value else t
            self._run = _Run(value, start, t, 1, 1, min(h.confidence for h in hands))
        self._pending = None
        return out

    def _update_raised(
        self, seen: bool, hands: list[PoseResult], t: float
    ) -> list[NumberEvent | RaisedHandEvent]:
        raised = self._raised
        if seen:
            if raised is None:
                self._raised = _Run(None, t, t, 1, 1)
            else:
                raised.last = t
                raised.frames += 1
                raised.agree += 1
            return []
        if raised is None:
            return []
        raised.frames += 1
        if t - raised.last <= self.config.flicker:
            return []
        self._raised = None
        return self._close_raised(raised)

    def _close_raised(self, raised: _Run) -> list[NumberEvent | RaisedHandEvent]:
        if raised.last - raised.start < self.config.raise_hold:
            return []
        confidence = raised.agree / raised.frames  # share of frames the hand was seen
        return [RaisedHandEvent(self.seat, raised.start, raised.last, confidence)]

    def _close(self, run: _Run) -> list[NumberEvent | RaisedHandEvent]:
        if run.value is None or run.last - run.start < self.config.hold:
            return []
        # mean pose confidence of the agreeing frames × share of frames that agreed
        confidence = run.confidence / run.frames
        return [NumberEvent(self.seat, run.start, run.last, run.value, confidence)]

    def flush(self) -> list[NumberEvent | RaisedHandEvent]:
        """Close what is still open (end of the clip or of the phase)."""
        out: list[NumberEvent | RaisedHandEvent] = []
        if self._run is not None:
            out += self._close(self._run)
        if self._raised is not None:
            out += self._close_raised(self._raised)
        self.reset()
        return out


def read_number(
    events: list[NumberEvent],
    convention: ClubConvention = DEFAULT_CONVENTION,
    max_pause: float = 2.0,
) -> int | None:
    """The one number shown by ``events`` (in time order): a single number, or two shown one
    after the other within ``max_pause`` that the convention joins (e.g. 1 then 2 = 12)."""
    if len(events) == 1:
        return events[0].value
    if len(events) == 2 and events[1].start - events[0].end <= max_pause:
        return convention.combine(events[0].value, events[1].value)
    return None
