"""Table tests of the day flow (speeches, nominations, votes, shoot-out, 'all leave?', days
without a vote elimination), one or more per rule of RULES.md."""

import pytest

from mafiavision.rules import (
    Outcome,
    Phase,
    Speech,
    Termination,
    Vote,
)
from mafiavision.rules.day import first_speaker, speaking_order
from mafiavision.rules.errors import NotAllowed, NotYourTurn
from mafiavision.rules.script import Script
from mafiavision.rules.state import Cause, RoundKind
from tests.rules.helpers import alive, play, to_discussion


@pytest.mark.parametrize(
    ("alive", "previous", "expected"),
    [
        ((1, 2, 3, 4, 5, 6, 7), None, 1),  # the first day starts with seat 1
        ((2, 3, 4, 5, 6, 7), None, 2),  # ... or the first living seat
        ((1, 2, 3, 4, 5, 6, 7), 1, 2),  # then one seat after the previous first speaker
        ((1, 2, 4, 5, 6, 7), 2, 4),  # skipping the dead
        ((1, 2, 4, 5, 6, 7), 3, 4),  # the previous first speaker may be dead himself
        ((1, 2, 4, 5, 6), 7, 1),  # round the table
    ],
)
def test_first_speaker(alive: tuple[int, ...], previous: int | None, expected: int) -> None:
    assert first_speaker(alive, previous) == expected


def test_speaking_order_goes_round_the_table() -> None:
    assert speaking_order((1, 3, 4, 8, 10), 8) == (8, 10, 1, 3, 4)


# ------------------------------------------------------------------ days


def test_speaking_order_moves_one_seat_each_day() -> None:
    p = play("kharkiv", no_elimination=None)
    p.until(lambda s: s.action == "speech")
    assert p.game.state.first_speaker == 1 and p.game.state.round == RoundKind.GREETING
    p.hunt("mafia", 3)
    p.until(lambda s: s.phase == Phase.SPEECHES)
    assert p.game.state.first_speaker == 2
    assert p.game.state.speakers == (2, 4, 5, 6, 7, 8, 9, 10, 1)
    p.hunt("mafia", None)
    p.until(lambda s: s.phase == Phase.SPEECHES)
    assert (p.game.state.day, p.game.state.first_speaker) == (2, 4)  # seat 3 is dead


def test_kharkiv_greeting_day_has_no_nominations_and_no_vote() -> None:
    p = play("kharkiv")
    p.until(lambda s: s.action == "speech")
    with pytest.raises(NotAllowed, match="no nominations in a greeting round"):
        p.game.push(Speech(seat=1, nominee=5))
    p.end_speeches()
    assert p.game.next_step().action == "hunt" and p.game.state.dry_days == 0


@pytest.mark.parametrize(
    ("name", "day", "next_action", "removed"),
    [
        ("romanian", 1, "hunt", ()),  # day 1, one candidate: no vote
        ("ukrainian", 1, "hunt", ()),
        ("triad", 1, "hunt", ()),
        ("kharkiv", 1, "vote", ()),  # the text is silent: he is voted
        ("romanian", 2, "vote", ()),  # later days: voted
        ("ukrainian", 2, "last_word", (7,)),  # later days: leaves without a vote
    ],
)
def test_single_candidate(name: str, day: int, next_action: str, removed: tuple[int, ...]) -> None:
    p = play(name)
    if day == 2:
        p.nominate(1, 3)
        p.nominate(3, 5)
        p.vote({3: {1, 2}})
    p.until(lambda s: s.action == "speech" and p.game.state.day == day)
    p.nominate(p.game.state.first_speaker or 1, 7)
    p.end_speeches()
    assert p.game.next_step().action == next_action
    assert tuple(r.seat for r in p.game.state.removed if r.day == day) == removed


def test_votes_go_in_nomination_order() -> None:
    p = play("romanian")
    p.nominate(3, 9)
    p.nominate(5, 4)
    p.end_speeches()
    assert p.game.next_step().candidate == 9
    with pytest.raises(NotYourTurn, match="the vote now is for seat 9"):
        p.game.push(Vote(candidate=4, voters=frozenset({1})))


@pytest.mark.parametrize(("name", "leaves"), [("ukrainian", 9), ("romanian", 4)])
def test_abstentions(name: str, leaves: int) -> None:
    p = play(name)
    p.nominate(1, 4)
    p.nominate(3, 9)
    p.vote({4: {1, 2, 3}})  # seven do not vote: in ukrainian they count for seat 9
    assert [r.seat for r in p.game.state.removed] == [leaves]


@pytest.mark.parametrize(("name", "revote_first"), [("kharkiv", 9), ("romanian", 4)])
def test_shootout_defence_then_revote_order(name: str, revote_first: int) -> None:
    p = play(name)
    to_discussion(p)
    p.nominate(3, 4)
    p.nominate(5, 9)
    p.vote({4: {1, 2, 3, 5, 7}, 9: {4, 6, 8, 9, 10}})
    assert p.game.state.round == RoundKind.DEFENCE
    assert p.game.state.speakers == (4, 9)
    with pytest.raises(NotAllowed, match="no nominations in a defence round"):
        p.game.push(Speech(seat=4, nominee=1))
    p.end_speeches()
    step = p.game.next_step()
    assert (step.action, step.candidate) == ("vote", revote_first)
    p.vote({4: {1, 2, 3, 5, 7, 8}, 9: {4, 6, 9}})
    assert [r.seat for r in p.game.state.removed] == [4]


def _tie_twice(p: Script, candidates: dict[int, int], votes: dict[int, set[int]]) -> None:
    for by, nominee in candidates.items():
        p.nominate(by, nominee)
    p.vote(votes)
    p.vote(votes)


@pytest.mark.parametrize(
    ("majority", "yes", "no", "leave"),
    [
        ("table", range(1, 7), (), True),  # 6 of 10 at the table
        ("table", range(1, 6), range(6, 11), False),  # an even split keeps them
        ("table", range(1, 4), (4, 5), False),
        ("cast", range(1, 4), (4, 5), True),  # 3 of 5 votes cast
    ],
)
def test_all_leave_vote(majority: str, yes: range, no: tuple[int, ...], leave: bool) -> None:
    p = play("romanian", all_leave_majority=majority)
    _tie_twice(p, {1: 4, 3: 9}, {4: {1, 2, 3, 5, 7}, 9: {4, 6, 8, 9, 10}})
    assert p.game.state.phase == Phase.ALL_LEAVE_VOTE and p.game.state.tied == (4, 9)
    p.all_leave(yes, no)
    assert {r.seat for r in p.game.state.removed} == ({4, 9} if leave else set())


@pytest.mark.parametrize(
    ("name", "next_action"), [("kharkiv", "hunt"), ("romanian", "all_leave_vote")]
)
def test_three_tied_again(name: str, next_action: str) -> None:
    p = play(name)
    p.until(lambda s: s.action == "speech" and p.game.state.day == 1)
    _tie_twice(p, {3: 4, 5: 9, 7: 1}, {4: {1, 2, 3}, 9: {4, 5, 6}, 1: {7, 8, 9}})
    assert p.game.next_step().action == next_action  # kharkiv: three can never be lifted


def _down_to_four(name: str) -> Script:
    """Red 2 8 10 + the Don 6 at the table, day 4 (seats 4 and 9 voted out early)."""
    p = play(name, **({"no_elimination": None} if name == "kharkiv" else {}))
    for kill, vote_out in ((1, 4), (3, 9), (7, 5)):
        to_discussion(p)
        first, second = p.game.state.speakers[:2]
        p.nominate(first, vote_out)
        p.nominate(second, 8)
        p.vote({vote_out: set(alive(p)) - {vote_out}})
        p.hunt("mafia" if name == "kharkiv" else "black", kill)
    p.until(lambda s: s.action == "speech")
    assert alive(p) == (2, 6, 8, 10)
    return p


@pytest.mark.parametrize(("name", "next_action"), [("romanian", "hunt"), ("kharkiv", "speech")])
def test_tie_with_four_at_the_table(name: str, next_action: str) -> None:
    p = _down_to_four(name)
    p.nominate(p.game.state.speakers[0], 2)
    p.nominate(p.game.state.speakers[0], 8)
    p.vote({2: {6, 8}, 8: {2, 10}})
    assert p.game.next_step().action == next_action  # romanian: all stay, night falls


def test_kharkiv_two_of_four_may_leave_together() -> None:
    p = _down_to_four("kharkiv")
    votes = {2: {6, 8}, 8: {2, 10}}
    _tie_twice(p, {p.game.state.speakers[0]: 2, p.game.state.speakers[1]: 8}, votes)
    p.all_leave({2, 6, 8})
    assert p.game.outcome() == Outcome(Termination.PARITY, "mafia")


# ------------------------------------------------------------------ two days without a vote


def test_kharkiv_two_days_without_elimination_extra_round_then_mafia_wins() -> None:
    p = play("kharkiv")
    p.hunt("mafia", 1)
    p.hunt("mafia", 3)  # day 1 passed without a vote elimination
    assert p.game.state.dry_days == 1
    p.until(lambda s: p.game.state.extra_round)  # day 2 without one: the extra round
    assert p.game.outcome() is None and p.game.state.day == 2
    p.end_speeches()
    assert p.game.outcome() == Outcome(Termination.NO_ELIMINATION_DAYS, "mafia")


def test_kharkiv_extra_round_that_removes_a_player_counts_as_a_vote() -> None:
    p = play("kharkiv")
    p.hunt("mafia", 1)
    p.hunt("mafia", 3)
    p.until(lambda s: p.game.state.extra_round)
    p.nominate(p.game.state.speakers[0], 9)
    p.vote({9: {2, 5, 7}})
    p.until(lambda s: s.action == "hunt")
    assert p.game.outcome() is None and p.game.state.dry_days == 0
    assert [(r.seat, r.cause) for r in p.game.state.removed][-1] == (9, Cause.VOTED)


@pytest.mark.parametrize(("consecutive", "extra_on_day"), [(True, None), (False, 3)])
def test_no_elimination_days_consecutive_option(
    consecutive: bool, extra_on_day: int | None
) -> None:
    p = play("kharkiv", no_elimination={"consecutive": consecutive})
    p.hunt("mafia", 1)  # day 1: nobody leaves by vote
    p.until(lambda s: p.game.state.day == 2)
    p.nominate(5, 9)
    p.vote({9: {2, 5}})  # day 2: seat 9 leaves
    p.hunt("mafia", 3)
    p.until(lambda s: s.action == "hunt" or p.game.state.extra_round)  # day 3: nobody
    assert (p.game.state.day if p.game.state.extra_round else None) == extra_on_day


def test_without_extra_round_mafia_wins_at_once() -> None:
    p = play("kharkiv", no_elimination={"extra_round": False})
    p.hunt("mafia", 1)
    p.hunt("mafia", 3)
    p.until(lambda s: s.action is None or s.action == "hunt")
    assert p.game.outcome() == Outcome(Termination.NO_ELIMINATION_DAYS, "mafia")
