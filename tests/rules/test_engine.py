"""Table tests of the engine, one or more per rule of RULES.md."""

from collections.abc import Callable

import pytest

from mafiavision.rules import (
    Annul,
    Check,
    Deal,
    Disqualify,
    Game,
    Hunt,
    LeaderShown,
    Meet,
    MemberShot,
    Outcome,
    Phase,
    ShotKind,
    Speech,
    Termination,
    Vote,
)
from mafiavision.rules.errors import GameOver, NotAllowed, NotYourTurn, PlayerOut, WrongPhase
from mafiavision.rules.rulesets import rules_from_mapping
from mafiavision.rules.script import Script
from mafiavision.rules.state import Cause, MissReason, RoundKind
from tests.rules.helpers import DEALS, alive, play, rules

# ------------------------------------------------------------------ night zero


@pytest.mark.parametrize(
    ("name", "steps"),
    [
        # RULES.md §1: Mafia meets (the Don shows 3 orders), the Sheriff raises a hand
        ("kharkiv", [("meet", "mafia", (4, 6, 9)), ("leader_shown", "town", (2,))]),
        # RULES.md §2: the black players meet
        ("romanian", [("meet", "black", (4, 6, 9))]),
        # RULES.md §3: Mafia meets and gets orders; the Don shows himself; the Sheriff likewise
        ("ukrainian", [("meet", "black", (4, 6, 9)), ("leader_shown", "black", (6,)),
                       ("leader_shown", "red", (2,))]),
        # RULES.md §4: Clan, Boss, Yakuza, Kambu, Commissar
        ("triad", [("meet", "black", (2, 7, 11)), ("leader_shown", "black", (7,)),
                   ("meet", "yellow", (4, 9)), ("leader_shown", "yellow", (9,)),
                   ("leader_shown", "red", (6,))]),
    ],
)  # fmt: skip
def test_night_zero_steps(name: str, steps: list[tuple[str, str, tuple[int, ...]]]) -> None:
    game = Game(rules(name))
    game.push(Deal(roles=tuple(DEALS[name])))
    for kind, team, seats in steps:
        step = game.next_step()
        assert (step.action, step.team, step.seats) == (kind, team, seats)
        game.push(Meet(team=team) if kind == "meet" else LeaderShown(seat=seats[0]))
    assert game.state.phase == Phase.SPEECHES
    assert game.state.day == (0 if name == "kharkiv" else 1)


def test_kharkiv_dons_orders() -> None:
    game = Game(rules("kharkiv"))
    game.push(Deal(roles=tuple(DEALS["kharkiv"])))
    with pytest.raises(NotAllowed, match="at most 3 orders"):
        game.push(Meet(team="mafia", orders=(1, 2, 3, 5)))
    game.push(Meet(team="mafia", orders=(1, 3, 5)))
    assert game.state.orders == (("mafia", (1, 3, 5)),)
    with pytest.raises(NotYourTurn, match="seat 3 is not the sheriff"):
        game.push(LeaderShown(seat=3))


def test_random_deal_is_reproducible_and_complete() -> None:
    ruleset = rules("triad")
    deal = Deal.random(ruleset, seed=7)
    assert deal == Deal.random(ruleset, seed=7)
    assert sorted(deal.roles) == sorted(
        r for r, n in ruleset.role_counts().items() for _ in range(n)
    )
    Game(ruleset).push(deal)


# ------------------------------------------------------------------ hunts and checks


@pytest.mark.parametrize(("at_morning", "next_seats"), [(True, (2,)), (False, None)])
def test_night_deaths_take_effect_in_the_morning(
    at_morning: bool, next_seats: tuple[int, ...] | None
) -> None:
    p = play("kharkiv", night_deaths_at_morning=at_morning)
    p.hunt("mafia", 2)  # the Sheriff is hit
    assert p.game.state.is_alive(2) is at_morning
    p.check(6, 3)
    step = p.game.next_step()
    if at_morning:  # the Sheriff still checks that night
        assert (step.action, step.seats) == ("check", next_seats)
        p.check(2, 4)
    assert p.game.next_step().action == "last_word" and p.game.state.last_words == (2,)
    assert not p.game.state.is_alive(2)


@pytest.mark.parametrize(("at_morning", "hunters"), [(True, (4, 9)), (False, (9,))])
def test_triad_bandit_hit_by_the_other_group_still_shoots(
    at_morning: bool, hunters: tuple[int, ...]
) -> None:
    p = play("triad", night_deaths_at_morning=at_morning)
    p.hunt("black", 4)
    step = p.game.next_step()
    assert (step.action, step.team, step.seats) == ("hunt", "yellow", hunters)


def test_kharkiv_three_misses_town_wins() -> None:
    p = play("kharkiv", no_elimination=None)
    p.hunt("mafia", None)
    p.hunt("mafia", {4: MemberShot.shot(4, 1), 6: MemberShot.shot(6, 1)})  # seat 9: no shot
    assert p.game.state.verdicts[0].reason == MissReason.NO_SHOT
    assert p.game.outcome() is None
    p.hunt("mafia", {4: MemberShot.shot(4, 1), 6: MemberShot.shot(6, 2), 9: MemberShot.shot(9, 1)})
    assert p.game.outcome() == Outcome(Termination.MISSES, "town")
    assert p.game.state.misses == (("mafia", 3),)


def test_romanian_misses_never_end_the_game() -> None:
    p = play("romanian")
    for _ in range(5):
        p.hunt("black", None)
    assert p.game.outcome() is None and p.game.state.misses == (("black", 5),)


@pytest.mark.parametrize(("calls_dead", "error"), [(True, None), (False, NotAllowed)])
def test_shot_on_a_dead_seat(calls_dead: bool, error: type[Exception] | None) -> None:
    p = play("kharkiv", calls_dead_seats=calls_dead)
    p.hunt("mafia", 1)
    if error is None:
        p.hunt("mafia", 1)  # everyone shot on the number of a dead seat: a miss
        assert p.game.state.verdicts[0].reason == MissReason.TARGET_OUT
    else:
        with pytest.raises(error, match="does not call it"):
            p.hunt("mafia", 1)


@pytest.mark.parametrize(
    ("name", "seat", "target", "answer"),
    [
        ("kharkiv", 6, 2, True),  # the Don finds the Sheriff
        ("kharkiv", 6, 4, False),
        ("kharkiv", 2, 6, True),  # the Sheriff finds Mafia or Don
        ("kharkiv", 2, 9, True),
        ("kharkiv", 2, 3, False),
        ("romanian", 6, 2, True),  # the Don searches the Commissar
        ("romanian", 2, 4, True),  # the Commissar searches black players
        ("ukrainian", 2, 5, False),
        ("triad", 7, 6, True),  # the Boss looks for the Commissar
        ("triad", 9, 6, True),  # the Kambu looks for the Commissar (AMBIGUOUS default)
        ("triad", 9, 7, False),
        ("triad", 6, 4, True),  # the Commissar looks for Black or Yellow
        ("triad", 6, 11, True),
        ("triad", 6, 3, False),
    ],
)
def test_check_answers(name: str, seat: int, target: int, answer: bool) -> None:
    p = play(name)
    assert p.check(seat, target) is answer
    assert p.game.state.checks[-1].answer is answer


def test_kambu_looking_for_the_boss_option() -> None:
    data = rules("triad").model_dump(mode="json")
    data["teams"][2]["leader_finds"] = ["boss"]
    p = Script(Game(rules_from_mapping(data, "variant")))
    p.deal(DEALS["triad"])
    assert p.check(9, 7) is True


def test_wrong_moderator_answer_is_refused() -> None:
    p = play("kharkiv")
    p.until(lambda s: s.action == "check")
    with pytest.raises(NotAllowed, match="must be yes"):
        p.game.push(Check(seat=6, target=2, answer=False))


@pytest.mark.parametrize(("per_night", "alive_after"), [("per_hit", False), ("one", True)])
def test_commissar_hit_by_both_groups_in_one_night(per_night: str, alive_after: bool) -> None:
    p = play("triad", lives_lost_per_night=per_night)
    p.hunt("black", 6)
    p.hunt("yellow", 6)
    p.until(lambda s: s.phase != Phase.NIGHT)
    assert p.game.state.is_alive(6) is alive_after


def test_commissar_two_lives_over_two_nights() -> None:
    p = play("triad")
    p.hunt("black", 6)
    p.until(lambda s: s.phase == Phase.SPEECHES)
    assert p.game.state.is_alive(6) and p.game.state.lives[5] == 1
    p.hunt("yellow", 6)
    p.until(lambda s: s.phase != Phase.NIGHT)
    assert not p.game.state.is_alive(6)


@pytest.mark.parametrize(("against_vote", "stays"), [(False, False), (True, True)])
def test_commissar_voted_out(against_vote: bool, stays: bool) -> None:
    p = play("triad", lives_against_vote=against_vote)
    p.nominate(1, 6)
    p.nominate(2, 8)
    p.vote({6: {1, 2, 3, 4, 5, 7}})
    assert p.game.state.is_alive(6) is stays
    assert p.game.state.lives[5] == (1 if stays else 2)


# ------------------------------------------------------------------ days


def _day_one(p: Script) -> None:
    """Quietly on to the next discussion round (Kharkiv: past the greeting day)."""
    p.until(lambda s: s.action == "speech" and p.game.state.round == RoundKind.DISCUSSION)


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
    _day_one(p)
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
        _day_one(p)
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
    _day_one(p)
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
    _day_one(p)
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
