"""Property tests: random play under every rule set.

Hypothesis draws a rule set, option variations and a seed; the seed drives a random but legal
player (plus random junk actions, which must either be legal or raise IllegalAction and change
nothing). Every game must end with exactly one outcome within a bound, never pass through an
impossible state, undo exactly after every action, and replay from its record to the same state.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mafiavision.rules import (
    AllLeaveVote,
    Annul,
    Check,
    Deal,
    Disqualify,
    Game,
    Hunt,
    IllegalAction,
    LastWord,
    LeaderShown,
    Meet,
    MemberShot,
    Phase,
    ShotKind,
    Speech,
    Vote,
)
from mafiavision.rules.actions import Action
from mafiavision.rules.outcome import standing_outcome
from mafiavision.rules.record import RecordWriter, replay
from mafiavision.rules.rulesets import BUILTIN_NAMES, RuleSet
from mafiavision.rules.state import Cause, GameState, RoundKind
from tests.rules.helpers import rules

MAX_ACTIONS = 3000
# The record is fsynced per action (5 ms on this machine's disk); a RAM disk keeps it quick.
FAST_TMP = "/dev/shm" if Path("/dev/shm").is_dir() else None

OPTION_VARIANTS: dict[str, list[Any]] = {
    "night_deaths_at_morning": [True, False],
    "calls_dead_seats": [True, False],
    "lives_lost_per_night": ["per_hit", "one"],
    "lives_against_vote": [False, True],
    "abstention": ["none", "last_candidate"],
    "revote_order": ["nomination", "reverse"],
    "tie_at_four": ["revote", "all_stay"],
    "all_leave_majority": ["table", "cast"],
    "single_candidate_first_day": ["no_vote", "vote"],
    "single_candidate_later": ["vote", "leaves"],
}


@st.composite
def rule_sets(draw: st.DrawFn) -> RuleSet:
    name = draw(st.sampled_from(BUILTIN_NAMES))
    overrides: dict[str, Any] = {
        option: draw(st.sampled_from(values))
        for option, values in OPTION_VARIANTS.items()
        if draw(st.booleans())
    }
    if draw(st.booleans()):  # a club table of another size: 7-12 players
        teams = [t.model_dump(mode="json") for t in rules(name).teams]
        players = draw(st.integers(7, 12))
        bandit_sizes = [draw(st.integers(1, 3)) for t in teams if t["bandit"]]
        for team, size in zip([t for t in teams if t["bandit"]], bandit_sizes, strict=True):
            team["size"] = size
        teams[0]["size"] = players - sum(bandit_sizes)
        overrides.update(players=players, teams=teams)
    return rules(name, **overrides)


def _subset(rng: random.Random, seats: list[int]) -> frozenset[int]:
    return frozenset(s for s in seats if rng.random() < 0.5)


def legal_move(game: Game, rng: random.Random) -> Action:
    """A random action for the expected step (legal by construction)."""
    state, step = game.state, game.next_step()
    alive = list(state.alive())
    if step.action == Deal.kind:
        return Deal.random(game.rules, rng.randrange(1 << 30))
    if step.action == Meet.kind:
        assert step.team is not None
        limit = next(z.orders for z in game.rules.night_zero if z.team == step.team)
        orders = [rng.randint(1, state.seats) for _ in range(rng.randint(0, limit))]
        return Meet(team=step.team, orders=tuple(orders))
    if step.action == LeaderShown.kind:
        return LeaderShown(seat=step.seats[0])
    if step.action == Hunt.kind:
        assert step.team is not None
        targets = list(game.called_seats())
        if rng.random() < 0.7:  # a unanimous shot, mostly on a living seat
            target = rng.choice(alive if rng.random() < 0.9 else targets)
            return Hunt(team=step.team, shots=tuple(MemberShot.shot(s, target) for s in step.seats))
        shots = []
        for seat in step.seats:
            kind = rng.choice(list(ShotKind))
            target = rng.choice(targets) if kind == ShotKind.SHOT else None
            shots.append(MemberShot(seat=seat, kind=kind, target=target))
        return Hunt(team=step.team, shots=tuple(shots))
    if step.action == Check.kind:
        seat = step.seats[0]
        if rng.random() < 0.1:
            return Check(seat=seat, target=None, answer=None)
        target = rng.choice(alive)
        return Check(seat=seat, target=target, answer=game.check_answer(seat, target))
    if step.action == LastWord.kind:
        return LastWord(seat=step.seats[0])
    if step.action == Speech.kind:
        free = [s for s in alive if s not in state.candidates]
        nominate = state.round == RoundKind.DISCUSSION and free and rng.random() < 0.35
        return Speech(seat=step.seats[0], nominee=rng.choice(free) if nominate else None)
    if step.action == Vote.kind:
        assert step.candidate is not None
        voted = frozenset().union(*(v for _, v in state.votes))
        return Vote(
            candidate=step.candidate, voters=_subset(rng, [s for s in alive if s not in voted])
        )
    assert step.action == AllLeaveVote.kind
    yes = _subset(rng, alive)
    return AllLeaveVote(yes=yes, no=_subset(rng, [s for s in alive if s not in yes]))


def junk_move(game: Game, rng: random.Random) -> Action:
    """A random action of any kind with random arguments (often illegal)."""
    n = game.state.seats
    seat, other = rng.randint(0, n + 1), rng.randint(1, n)
    team = rng.choice([t.name for t in game.rules.teams])
    return rng.choice(
        [
            Disqualify(seat=seat),
            Speech(seat=seat, nominee=other if rng.random() < 0.5 else None),
            Vote(candidate=seat, voters=frozenset({other})),
            Check(seat=seat, target=other, answer=rng.random() < 0.5),
            Hunt(team=team, shots=(MemberShot.shot(seat, other),)),
            LastWord(seat=seat),
            LeaderShown(seat=seat),
            Meet(team=team),
            AllLeaveVote(yes=frozenset({seat})),
            Deal(roles=("civilian",) * n),
        ]
    )


def assert_possible(game: Game) -> None:
    """Invariants every reachable state satisfies."""
    s: GameState = game.state
    ruleset = game.rules
    out = [r.seat for r in s.removed]
    assert len(out) == len(set(out)) and len(s.alive()) + len(out) == s.seats
    if s.roles:
        assert sorted(s.roles) == sorted(
            r for r, k in ruleset.role_counts().items() for _ in range(k)
        )
        for seat in range(1, s.seats + 1):
            team = ruleset.team_of(s.role_of(seat))
            limit = team.leader_lives if s.role_of(seat) == team.leader else 1
            assert 0 <= s.lives[seat - 1] <= limit
            if s.is_alive(seat):
                assert s.lives[seat - 1] >= 1
        for removal in s.removed:
            if removal.cause == Cause.KILLED:
                assert s.lives[removal.seat - 1] == 0
        for team, misses in s.misses:
            assert misses >= 0 and ruleset.team(team).bandit
            if ruleset.miss_limit is not None:
                assert misses <= ruleset.miss_limit.misses
    living = set(s.alive())
    assert set(s.speakers) <= living
    if s.phase in (Phase.VOTING, Phase.ALL_LEAVE_VOTE):
        assert set(s.ballot) <= living and set(s.tied) <= living
    assert set(s.last_words).isdisjoint(living)
    if s.outcome is None:
        assert s.phase != Phase.OVER and game.next_step().action is not None
        if s.roles:
            assert standing_outcome(ruleset, s) is None  # no unnoticed win
    else:
        assert s.phase == Phase.OVER and game.next_step().action is None


def play_randomly(ruleset: RuleSet, seed: int, path: Path) -> Game:
    rng = random.Random(seed)
    game = Game(ruleset, journal=RecordWriter.create(path, ruleset))
    for _ in range(MAX_ACTIONS):
        if game.outcome() is not None:
            break
        before = game.state
        if rng.random() < 0.03:
            action = junk_move(game, rng)
            if not game.is_legal(action):
                try:
                    game.push(action)
                except IllegalAction:
                    assert game.state == before
                    continue
                raise AssertionError(f"{action} was pushed although is_legal said no")
        elif rng.random() < 0.0005:
            action = Annul()
        else:
            action = legal_move(game, rng)
        after = game.push(action)
        assert_possible(game)
        assert game.pop() == action  # undo after every action restores the exact state
        assert game.state == before
        assert game.push(action) == after
    return game


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(ruleset=rule_sets(), seed=st.integers(0, 2**32 - 1))
def test_random_legal_play(ruleset: RuleSet, seed: int) -> None:
    with tempfile.TemporaryDirectory(dir=FAST_TMP) as tmp:
        path = Path(tmp) / "game.jsonl"
        game = play_randomly(ruleset, seed, path)
        outcome = game.outcome()
        assert outcome is not None, f"no outcome after {MAX_ACTIONS} actions"
        assert game.state.phase == Phase.OVER
        replayed = replay(path)
        assert replayed.state == game.state
        assert replayed.outcome() == outcome
