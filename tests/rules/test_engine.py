"""Engine tests: disqualification and annulment, illegal actions, undo, what comes next."""

from collections.abc import Callable

import pytest

from mafiavision.rules import (
    Annul,
    Check,
    Deal,
    Disqualify,
    Game,
    Hunt,
    MemberShot,
    Outcome,
    Phase,
    ShotKind,
    Speech,
    Termination,
    Vote,
)
from mafiavision.rules.errors import GameOver, NotAllowed, NotYourTurn, PlayerOut, WrongPhase
from mafiavision.rules.script import Script
from mafiavision.rules.state import Cause, RoundKind
from tests.rules.helpers import DEALS, play, rules, to_discussion

# ------------------------------------------------------------------ any time


@pytest.mark.parametrize(
    ("name", "seat", "outcome"),
    [
        ("kharkiv", 4, Outcome(Termination.DISQUALIFICATION, "town")),  # a Mafia player
        ("kharkiv", 1, Outcome(Termination.DISQUALIFICATION, "mafia")),  # a Town player
        ("romanian", 4, None),  # he simply leaves
    ],
)
def test_disqualification(name: str, seat: int, outcome: Outcome | None) -> None:
    p = play(name)
    p.game.push(Disqualify(seat=seat))
    assert p.game.outcome() == outcome
    assert (seat, Cause.DISQUALIFIED) in [(r.seat, r.cause) for r in p.game.state.removed]


def test_disqualified_hunter_and_speaker_leave_their_steps() -> None:
    p = play("romanian")
    to_discussion(p)
    p.game.push(Disqualify(seat=1))  # the current speaker
    assert p.game.next_step().seats == (2,)
    p.until(lambda s: s.action == "hunt")
    p.game.push(Disqualify(seat=9))
    assert p.game.next_step().seats == (4, 6)


def test_annul() -> None:
    p = play("triad")
    p.game.push(Annul())
    assert p.game.outcome() == Outcome(Termination.ANNULLED, None)


# ------------------------------------------------------------------ illegal actions


def _at_hunt(p: Script) -> None:
    p.until(lambda s: s.action == "hunt")


def _at_check(p: Script) -> None:
    p.hunt("black", None)


def _after_sheriff_check(p: Script) -> None:
    p.hunt("black", None)
    p.check(6, 1)


def _speech1(p: Script) -> None:
    p.until(lambda s: s.action == "speech")


def _after_kill(p: Script) -> None:
    p.hunt("black", 1)
    p.until(lambda s: s.action == "speech")


def _over(p: Script) -> None:
    p.game.push(Annul())


MS = MemberShot
ILLEGAL: list[tuple[str, Callable[[Script], None], object, type, str]] = [
    ("dead player speaks", _after_kill, Speech(seat=1), PlayerOut, "seat 1 is out"),
    ("dead player votes", _after_kill, None, PlayerOut, "seat 1 is out"),
    ("nominate a removed player", _after_kill, Speech(seat=2, nominee=1), PlayerOut,
     "seat 1 is out"),
    ("second check in a night", _after_sheriff_check, Check(seat=6, target=3, answer=False),
     NotAllowed, "already checked this night"),
    ("check by a non-leader", _at_check, Check(seat=4, target=2, answer=True), NotAllowed,
     "not a leader"),
    ("shot by a non-bandit", _at_hunt, Hunt(team="black", shots=(MS.shot(4, 1), MS.shot(6, 1),
     MS.shot(9, 1), MS.shot(3, 1))), NotAllowed, "seat 3 is not a member of black"),
    ("hunt by the town", _at_hunt, Hunt(team="red", shots=()), NotAllowed, "does not hunt"),
    ("vote outside a vote", _speech1, Vote(candidate=3), WrongPhase, "a vote outside a vote"),
    ("hunt in the day", _speech1, Hunt(team="black", shots=()), WrongPhase, "not possible now"),
    ("speech at night", _at_hunt, Speech(seat=1), WrongPhase, "not possible now"),
    ("out of turn", _speech1, Speech(seat=5), NotYourTurn, "seat 1 speaks now"),
    ("second deal", _speech1, Deal(roles=tuple(DEALS["romanian"])), WrongPhase, "already dealt"),
    ("after the end", _over, Speech(seat=1), GameOver, "the game is over"),
    ("check no such seat", _at_check, Check(seat=6, target=11, answer=False), NotAllowed,
     "seat 11 does not exist"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("setup", "action", "error", "message"),
    [case[1:] for case in ILLEGAL],
    ids=[case[0] for case in ILLEGAL],
)
def test_illegal_actions_raise_specific_errors(
    setup: Callable[[Script], None], action: object, error: type, message: str
) -> None:
    p = play("romanian")
    setup(p)
    if action is None:  # a vote in which a dead player raises his hand
        p.nominate(2, 3)
        p.nominate(3, 4)
        p.end_speeches()
        action = Vote(candidate=3, voters=frozenset({1, 2}))
    before = p.game.state
    with pytest.raises(error, match=message) as exc:
        p.game.push(action)  # type: ignore[arg-type]
    assert isinstance(exc.value, ValueError)
    assert p.game.state == before  # nothing changed


@pytest.mark.parametrize(
    ("roles", "message"),
    [
        (DEALS["romanian"][:-1], "9 roles for 10 seats"),
        (["citizen"] * 10, "expected the cards"),
    ],
)
def test_wrong_deal(roles: list[str], message: str) -> None:
    with pytest.raises(NotAllowed, match=message):
        Game(rules("romanian")).push(Deal(roles=tuple(roles)))


def test_vote_twice_in_one_vote() -> None:
    p = play("romanian")
    p.nominate(1, 3)
    p.nominate(2, 4)
    p.end_speeches()
    p.game.push(Vote(candidate=3, voters=frozenset({1, 5})))
    with pytest.raises(NotAllowed, match="seat 5 has already voted"):
        p.game.push(Vote(candidate=4, voters=frozenset({5})))


# ------------------------------------------------------------------ undo and next step


def test_pop_restores_every_state_exactly() -> None:
    p = play("kharkiv")
    p.hunt("mafia", 1)
    p.check(6, 2)
    to_discussion(p)
    p.nominate(2, 4)
    p.nominate(3, 9)
    p.vote({4: {2, 3, 5}, 9: {6, 7, 8}})
    p.vote({4: {2, 3, 5, 7}})
    replayed = Game(p.game.rules)
    states = [replayed.state]
    for action in p.game.actions:
        replayed.push(action)
        states.append(replayed.state)
    assert replayed.state == p.game.state
    while p.game.actions:
        states.pop()
        p.game.pop()
        assert p.game.state == states[-1]
    with pytest.raises(IndexError):
        p.game.pop()


def test_next_step_tells_the_phase_and_who_acts() -> None:
    p = play("kharkiv")
    assert p.game.next_step().text == "night zero: mafia wakes and meets (seats 4, 6, 9)"
    p.until(lambda s: s.action == "hunt")
    step = p.game.next_step()
    assert (step.phase, step.seats, step.team) == (Phase.NIGHT, (4, 6, 9), "mafia")
    assert p.game.hunters("mafia") == (4, 6, 9)
    assert p.game.called_seats() == tuple(range(1, 11))
    assert p.game.leader_seat("town") == 2
    hunt = Hunt(team="mafia", shots=tuple(MemberShot.shot(s, 7) for s in (4, 6, 9)))
    assert p.game.preview(hunt).verdicts[-1].target == 7  # nothing pushed
    assert p.game.next_step().action == "hunt" and p.game.is_legal(hunt)
    p.game.push(hunt)
    assert p.game.next_step().text == "night 1: the don (seat 6) checks"
    p.until(lambda s: s.action == "last_word")
    assert p.game.next_step().text == "morning after night 1: seat 7 killed, last word"
    p.game.push(Annul())
    assert p.game.next_step().action is None


def test_shot_kinds_round_trip() -> None:
    assert {k.value for k in ShotKind} == {"shot", "no_shot", "between", "multiple", "not_seen"}


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("kharkiv", {"meet": 60, "greeting": 60, "discussion": 30, "defence": 30, "last": 30}),
        ("romanian", {"meet": None, "discussion": 60, "defence": 30, "last": 60}),
    ],
)
def test_next_step_gives_the_speaking_time(name: str, expected: dict[str, int | None]) -> None:
    p = play(name)
    seen = {"meet": p.game.next_step().seconds}
    p.until(lambda s: s.action == "speech")
    if p.game.state.round == RoundKind.GREETING:
        seen["greeting"] = p.game.next_step().seconds
    to_discussion(p)
    seen["discussion"] = p.game.next_step().seconds
    first, second = p.game.state.speakers[:2]
    p.nominate(first, 3)
    p.nominate(second, 5)
    p.vote({3: {1, 2}, 5: {8, 9}})
    seen["defence"] = p.game.next_step().seconds
    p.vote({3: {1, 2, 4}})
    assert p.game.next_step().action == "last_word"
    seen["last"] = p.game.next_step().seconds
    assert seen == expected
