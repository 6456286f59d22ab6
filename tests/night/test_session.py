"""The live session with the real rules engine and game record (no camera: captures are fed the
events the pipeline would deliver, on a controlled clock)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mafiavision.night.session import LiveSession
from mafiavision.rules.record import replay
from tests.night.helpers import ROLES, command, feed, new_session, number, shot, to_night_one


@pytest.fixture
def session(tmp_path: Path) -> LiveSession:
    return new_session(tmp_path / "game.jsonl")


def test_a_night_through_the_screen_and_the_record(session: LiveSession, tmp_path: Path) -> None:
    to_night_one(session)
    view = session.view()
    assert view["step"]["seats"] == [3, 5, 7]
    # No speech and no taps: the card cannot place the shots, so it asks.
    clock = session.clock  # type: ignore[attr-defined]
    t = clock.t
    feed(session, clock, 4, shots=[shot(3, t + 2.5), shot(5, t + 2.6), shot(7, t + 2.55)])
    command(session, kind="finish")
    card = session.view()["card"]
    assert card["kind"] == "hunt" and card["questions"]
    with pytest.raises(ValueError, match="open questions"):
        command(session, kind="confirm", card=card["id"])
    command(session, kind="correct_hunt", card=card["id"],
            shots=[{"seat": s, "kind": "shot", "target": 6} for s in (3, 5, 7)])
    # The Don checks: he shows 9, the card asks "Is seat 9 the Sheriff?".
    assert session.view()["step"]["kind"] == "check"
    feed(session, clock, 2, numbers=[number(5, clock.t + 0.5, clock.t + 1.2, 9)])
    session._finish()
    card = session.view()["card"]
    assert (card["kind"], card["summary"], card["questions"]) == (
        "check", "Is seat 9 the Sheriff?", [])
    command(session, kind="confirm", card=card["id"])
    assert session.game.state.checks[-1].answer is True
    # The record replays to exactly the session's game.
    assert replay(tmp_path / "game.jsonl").state == session.game.state
    # Undo the check, then the hunt: the record keeps both undos and still replays exactly.
    command(session, kind="undo")
    assert session.view()["step"]["kind"] == "check"
    command(session, kind="undo")
    assert session.view()["step"]["kind"] == "hunt"
    assert replay(tmp_path / "game.jsonl").state == session.game.state
    lines = (tmp_path / "game.jsonl").read_text().splitlines()
    assert sum('"type":"undo"' in line for line in lines) == 2


@pytest.mark.parametrize(
    ("fields", "error", "match"),
    [
        ({"kind": "confirm", "card": "c99"}, LookupError, "not the open card"),
        ({"kind": "undo"}, ValueError, "nothing to undo"),
        ({"kind": "tap"}, ValueError, "only during a hunt"),
        ({"kind": "speech", "seat": 1}, ValueError, "deal"),
        ({"kind": "finish"}, ValueError, "nothing is being recorded"),
    ],
)
def test_refused_commands_change_nothing(session: LiveSession, fields, error, match) -> None:
    before = session.game.state
    with pytest.raises(error, match=match):
        command(session, **fields)
    assert session.game.state == before


def test_hunt_correction_needs_every_member(session: LiveSession) -> None:
    to_night_one(session)
    feed(session, session.clock, 1)  # type: ignore[attr-defined]
    command(session, kind="finish")
    card = session.view()["card"]
    with pytest.raises(ValueError, match="each member"):
        command(session, kind="correct_hunt", card=card["id"],
                shots=[{"seat": 3, "kind": "no_shot"}])
    with pytest.raises(ValueError, match="target"):
        command(session, kind="correct_hunt", card=card["id"],
                shots=[{"seat": s, "kind": "no_shot", "target": 2} for s in (3, 5, 7)])


def test_tap_mode_without_a_microphone(session: LiveSession) -> None:
    """The moderator taps each number as he says it; the hunt's card comes one interval after
    the last tap, and the shots are placed by the taps."""
    to_night_one(session)
    clock = session.clock  # type: ignore[attr-defined]
    t0 = clock.t
    called = session.view()["step"]["called"]
    shots = [shot(s, t0 + 1 + 5 * 0.8 + 0.35) for s in (3, 5, 7)]  # on the 6th number
    for k in range(len(called)):
        feed(session, clock, 0.8 if k else 1.0, shots=shots)
        command(session, kind="tap")
    assert session.view()["step"]["taps"] == len(called)
    assert not session._step_over()
    feed(session, clock, 0.9, shots=shots)
    assert session._step_over()
    session._finish()
    card = session.view()["card"]
    assert (card["hit"], card["questions"]) == (6, [])
    assert [round(w["start"], 2) for w in card["windows"]][:2] == [round(t0 + 1.0, 2),
                                                                   round(t0 + 1.8, 2)]
    command(session, kind="confirm", card=card["id"])
    assert session.game.state.verdicts[-1].target == 6


def test_night_morning_and_a_day_through_the_commands(session: LiveSession) -> None:
    """After the night: the last word, the day's speeches with a nomination, the vote; the
    speaking order moves one seat and the voted player leaves."""
    to_night_one(session)
    feed(session, session.clock, 1)  # type: ignore[attr-defined]
    command(session, kind="finish")
    card = session.view()["card"]
    command(session, kind="correct_hunt", card=card["id"],
            shots=[{"seat": s, "kind": "shot", "target": 6} for s in (3, 5, 7)])
    for _ in range(2):  # both leaders showed no number
        command(session, kind="finish")
        card = session.view()["card"]
        command(session, kind="answer_check", card=card["id"], target=None, answer=None)
    assert session.view()["checks"] == ["seat 5: no number shown", "seat 9: no number shown"]
    step = session.view()["step"]
    assert (step["kind"], step["leader"]) == ("last_word", 6)
    command(session, kind="last_word", seat=6)
    view = session.view()
    assert view["speaking_order"] == [2, 3, 4, 5, 7, 8, 9, 10, 1]  # day 0 began at seat 1
    for seat in view["speaking_order"]:
        command(session, kind="speech", seat=seat, nominee=3 if seat == 2 else None)
    step = session.view()["step"]
    assert (step["kind"], step["leader"]) == ("vote", 3)
    command(session, kind="vote", candidate=3, voters=[1, 2, 4, 8, 9, 10])
    state = session.game.state
    assert 3 not in state.alive() and 6 not in state.alive()
    seats = {s["seat"]: s["alive"] for s in session.view()["seats"]}
    assert (seats[3], seats[6], seats[1]) == (False, False, True)


@pytest.mark.parametrize(
    ("shown", "seconds", "over"),
    [
        # both passes alike: over as soon as the sixth number is in
        ([4, 7, 2, 4, 7, 2], 6.8, True),
        # a brief extra reading: six numbers, but the passes differ — wait for more
        ([4, 8, 7, 2, 4, 7], 6.8, False),
        # ... and give up 3 s after the last number: the card asks
        ([4, 8, 7, 2, 4, 7], 10.0, True),
        # fewer numbers than two passes: never over by itself
        ([4, 7, 2, 4, 7], 20.0, False),
    ],
)
def test_the_orders_step_waits_for_passes_that_agree(tmp_path: Path, shown: list[int],
                                                     seconds: float, over: bool) -> None:
    session = new_session(tmp_path / "game.jsonl")
    command(session, kind="deal", roles=ROLES)
    assert session.view()["step"]["kind"] == "meet"
    numbers = [number(5, 1 + i, 1.5 + i, v) for i, v in enumerate(shown)]
    feed(session, session.clock, seconds, numbers=numbers)  # type: ignore[attr-defined]
    assert session._step_over() is over
