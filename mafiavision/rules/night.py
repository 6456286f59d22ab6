"""The night flow: the deal, night zero, hunts and checks, dawn.

RULES.md: night zero has no shooting; every later night each bandit group hunts (in team order),
then the bandit leaders check, then the town leader checks; the night's hits take effect at dawn
(``night_deaths_at_morning``), then the killed have their last word.
"""

from __future__ import annotations

from dataclasses import replace

from mafiavision.rules import day, steps
from mafiavision.rules.actions import Check, Deal, Hunt, LeaderShown, Meet
from mafiavision.rules.errors import NotAllowed, NotYourTurn, WrongPhase
from mafiavision.rules.hunt import check_observations, resolve_hunt
from mafiavision.rules.rulesets import RuleSet
from mafiavision.rules.seats import (
    check_answer,
    check_seat,
    lose_life,
    remove,
    step_actors,
)
from mafiavision.rules.state import (
    Cause,
    CheckResult,
    GameState,
    NightStep,
    Outcome,
    Phase,
    Termination,
)


def deal(rules: RuleSet, s: GameState, a: Deal) -> GameState:
    if s.phase != Phase.DEAL:
        raise WrongPhase("the cards are already dealt")
    if len(a.roles) != rules.players:
        raise NotAllowed(f"deal: {len(a.roles)} roles for {rules.players} seats")
    counts: dict[str, int] = {}
    for role in a.roles:
        counts[role] = counts.get(role, 0) + 1
    if counts != rules.role_counts():
        raise NotAllowed(f"deal: expected the cards {rules.role_counts()}, got {counts}")
    teams = tuple(rules.team_of(r).name for r in a.roles)
    lives = tuple(
        rules.team_of(r).leader_lives if r == rules.team_of(r).leader else 1 for r in a.roles
    )
    s = replace(
        s,
        roles=a.roles,
        teams=teams,
        lives=lives,
        misses=tuple((t.name, 0) for t in rules.bandit_teams()),
        phase=Phase.NIGHT_ZERO,
        steps=tuple(NightStep(step.kind, step.team) for step in rules.night_zero),
    )
    return settle_night_zero(rules, s)


def settle_night_zero(rules: RuleSet, s: GameState) -> GameState:
    remaining = s.steps
    while remaining and not step_actors(rules, s, remaining[0]):
        remaining = remaining[1:]
    s = replace(s, steps=remaining)
    return s if remaining else day.start_day(rules, s)


def meet(rules: RuleSet, s: GameState, a: Meet) -> GameState:
    if s.phase != Phase.NIGHT_ZERO or s.steps[0] != NightStep("meet", a.team):
        raise steps.wrong(s, rules, a)
    spec = next(z for z in rules.night_zero if z.kind == "meet" and z.team == a.team)
    if len(a.orders) > spec.orders:
        raise NotAllowed(f"{a.team} shows at most {spec.orders} orders, got {len(a.orders)}")
    for target in a.orders:
        if not 1 <= target <= s.seats:
            raise NotAllowed(f"orders of {a.team}: seat {target} does not exist")
    s = replace(s, orders=(*s.orders, (a.team, a.orders)), steps=s.steps[1:])
    return settle_night_zero(rules, s)


def leader_shown(rules: RuleSet, s: GameState, a: LeaderShown) -> GameState:
    if s.phase != Phase.NIGHT_ZERO or s.steps[0].kind != "leader":
        raise steps.wrong(s, rules, a)
    check_seat(s, a.seat, "leader")
    team = rules.team(s.steps[0].team)
    if s.role_of(a.seat) != team.leader:
        raise NotYourTurn(f"seat {a.seat} is not the {team.leader}: the {team.leader} wakes now")
    return settle_night_zero(rules, replace(s, steps=s.steps[1:]))


def start_night(rules: RuleSet, s: GameState) -> GameState:
    bandits = rules.bandit_teams()
    checkers = [t for t in bandits if t.leader_finds] + [
        t for t in rules.teams if not t.bandit and t.leader_finds
    ]
    s = replace(
        s,
        phase=Phase.NIGHT,
        night=s.night + 1,
        acting=frozenset(s.alive()),
        steps=tuple(NightStep("hunt", t.name) for t in bandits)
        + tuple(NightStep("check", t.name) for t in checkers),
        hits=(),
        verdicts=(),
        checks=(),
        round=None,
        speakers=(),
        candidates=(),
        ballot=(),
        votes=(),
        revote=False,
        tied=(),
        extra_round=False,
    )
    return settle_night(rules, s)


def settle_night(rules: RuleSet, s: GameState) -> GameState:
    remaining = s.steps
    while remaining and not step_actors(rules, s, remaining[0]):
        remaining = remaining[1:]
    s = replace(s, steps=remaining)
    return s if remaining else dawn(rules, s)


def apply_hit(rules: RuleSet, s: GameState, target: int, earlier: list[int]) -> GameState:
    """One hit on ``target``; ``earlier`` are this night's earlier targets (for lives)."""
    if not s.is_alive(target):
        return s
    if rules.lives_lost_per_night == "one" and target in earlier:
        return s
    s, dead = lose_life(s, target)
    if not dead:
        return s
    s = remove(s, [target], Cause.KILLED)
    return replace(s, last_words=(*s.last_words, target), acting=s.acting - {target})


def dawn(rules: RuleSet, s: GameState) -> GameState:
    if rules.night_deaths_at_morning:
        earlier: list[int] = []
        for _, target in s.hits:
            s = apply_hit(rules, s, target, earlier)
            earlier.append(target)
    s = replace(s, steps=(), acting=frozenset())
    if s.last_words:
        return replace(s, phase=Phase.LAST_WORDS, then="start_day")
    return day.start_day(rules, s)


def hunt(rules: RuleSet, s: GameState, a: Hunt) -> GameState:
    if a.team not in {t.name for t in rules.bandit_teams()}:
        raise NotAllowed(f"team {a.team!r} does not hunt")
    if s.phase != Phase.NIGHT or s.steps[0] != NightStep("hunt", a.team):
        raise steps.wrong(s, rules, a)
    check_observations(
        a.team,
        s.members(a.team, s.acting),
        a.shots,
        seats=s.seats,
        out=s.removed_seats(),
        calls_dead_seats=rules.calls_dead_seats,
    )
    verdict = resolve_hunt(a.team, a.shots, s.removed_seats())
    s = replace(s, verdicts=(*s.verdicts, verdict), steps=s.steps[1:])
    if verdict.target is not None:
        earlier = [t for _, t in s.hits]
        s = replace(s, hits=(*s.hits, (a.team, verdict.target)))
        if not rules.night_deaths_at_morning:
            s = apply_hit(rules, s, verdict.target, earlier)
    else:
        misses = dict(s.misses)
        misses[a.team] += 1
        s = replace(s, misses=tuple(misses.items()))
        limit = rules.miss_limit
        if limit is not None and misses[a.team] >= limit.misses:
            return replace(s, outcome=Outcome(Termination.MISSES, limit.winner))
    return settle_night(rules, s)


def check(rules: RuleSet, s: GameState, a: Check) -> GameState:
    if s.phase != Phase.NIGHT:
        raise steps.wrong(s, rules, a)
    check_seat(s, a.seat, "check")
    team = rules.team_of(s.role_of(a.seat))
    if not rules.checks(s.role_of(a.seat)):
        raise NotAllowed(f"seat {a.seat} is not a leader who checks")
    if any(c.seat == a.seat for c in s.checks):
        raise NotAllowed(f"seat {a.seat} has already checked this night (one check per night)")
    if s.steps[0] != NightStep("check", team.name):
        raise NotYourTurn(
            f"the {team.leader} does not check now: expected {steps.describe(rules, s)}"
        )
    if a.target is not None:
        check_seat(s, a.target, "check target")
    truth = None if a.target is None else check_answer(rules, s, a.seat, a.target)
    if a.answer != truth:
        raise NotAllowed(
            f"check by seat {a.seat} on seat {a.target}: the moderator's answer must be "
            f"{'yes (nod)' if truth else 'no (shake)'}"
        )
    s = replace(
        s,
        checks=(*s.checks, CheckResult(a.seat, team.name, a.target, a.answer)),
        steps=s.steps[1:],
    )
    return settle_night(rules, s)
