"""Helpers for the night tests: the events the other stages deliver (their real types), a
kharkiv game brought to night 1 through the session's own commands, and captures fed with
those events."""

from __future__ import annotations

from pathlib import Path

from mafiavision.audio.callout import NumberWindow
from mafiavision.night.session import LiveSession
from mafiavision.rules import load_rules
from mafiavision.rules.record import start_game
from mafiavision.ui.commands import COMMAND
from mafiavision.vision.numbers import NumberEvent
from mafiavision.vision.shots import ShotEvent

ROLES = ["civilian", "civilian", "mafia", "civilian", "don", "civilian", "mafia", "civilian",
         "sheriff", "civilian"]


def shot(seat: int, t: float, confidence: float = 0.95) -> ShotEvent:
    """A shot as the shot detector reports it: a 0.3 s squeeze, 120° deep, peaking at ``t``."""
    return ShotEvent(seat, t, duration=0.3, depth=120.0, confidence=confidence)


def number(seat: int, start: float, end: float, value: int,
           confidence: float = 0.95) -> NumberEvent:
    """A finger number as the number reader reports it."""
    return NumberEvent(seat, start, end, value, confidence)


def window(seat: int, start: float, end: float, onset: float,
           confidence: float = 0.95) -> NumberWindow:
    """A called number's window as the spoken-number stage reports it."""
    return NumberWindow(seat, start, end, onset, confidence)


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def command(session: LiveSession, **fields):  # type: ignore[no-untyped-def]
    return session.apply(COMMAND.validate_python(fields))


def feed(session: LiveSession, clock: Clock, seconds: float, shots=(), numbers=(),
         seen=None) -> None:  # type: ignore[no-untyped-def]
    """25 frames a second of the current step, with ``shots``/``numbers`` at their times."""
    capture = session._capture
    assert capture is not None
    seats = set(capture.seats) if seen is None else set(seen)
    for _ in range(round(seconds / 0.04)):
        t0, clock.t = clock.t, round(clock.t + 0.04, 6)
        now_shots = [s for s in shots if t0 <= s.t < clock.t]
        now_numbers = [n for n in numbers if t0 <= n.end < clock.t]
        capture.add_frame(clock.t, round(clock.t * 25), seats, {}, now_shots, now_numbers)


def new_session(record: Path) -> LiveSession:
    """A session on a new kharkiv record, on a controlled clock (``session.clock``)."""
    clock = Clock()
    game = start_game(record, load_rules("kharkiv"))
    s = LiveSession(game, clock=clock)
    s._enter_step()
    s.clock = clock  # type: ignore[attr-defined]
    return s


def to_night_one(session: LiveSession) -> None:
    clock = session.clock  # type: ignore[attr-defined]
    command(session, kind="deal", roles=ROLES)
    assert session.view()["step"]["kind"] == "meet"
    # The Don (seat 5) shows 4, 7, 2 twice: the card proposes those orders.
    numbers = [number(5, 1 + i, 1.5 + i, v) for i, v in enumerate([4, 7, 2, 4, 7, 2])]
    feed(session, clock, 7, numbers=numbers)
    session._finish()
    card = session.view()["card"]
    assert (card["kind"], card["orders"], card["questions"]) == ("orders", [4, 7, 2], [])
    command(session, kind="confirm", card=card["id"])
    # The Sheriff raises a hand.
    feed(session, clock, 3)
    session._finish()
    card = session.view()["card"]
    assert (card["kind"], card["raised"]) == ("hand", True)
    command(session, kind="confirm", card=card["id"])
    for seat in range(1, 11):  # day zero: the greeting round
        command(session, kind="speech", seat=seat)
    assert session.view()["step"]["kind"] == "hunt"
