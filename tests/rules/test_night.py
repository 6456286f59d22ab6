"""Table tests of the night flow (night zero, hunts, checks, dawn), one or more per rule of
RULES.md."""

import pytest

from mafiavision.rules import (
    Check,
    Deal,
    Game,
    LeaderShown,
    Meet,
    MemberShot,
    Outcome,
    Phase,
    Termination,
)
from mafiavision.rules.errors import NotAllowed, NotYourTurn
from mafiavision.rules.rulesets import rules_from_mapping
from mafiavision.rules.script import Script
from mafiavision.rules.state import MissReason
from tests.rules.helpers import DEALS, play, rules

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
