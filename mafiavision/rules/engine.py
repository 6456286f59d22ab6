"""The engine: :func:`apply` (state + action -> next state) and :class:`Game` (push/pop, undo).

The flow of every rule set: deal -> night zero (meetings, leaders) -> first day (Kharkiv: a
greeting round) -> night (hunts in team order, then the bandit leaders' checks, then the town
leader's check) -> dawn (hits take effect) -> last words -> day (speeches with nominations ->
vote -> shoot-out -> 'all leave?') -> last words -> night ... until an :class:`Outcome`.
:meth:`Game.next_step` says at every moment which action is expected and who acts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from mafiavision.rules import day as dayrules
from mafiavision.rules.actions import (
    Action,
    AllLeaveVote,
    Annul,
    Check,
    Deal,
    Disqualify,
    Hunt,
    LastWord,
    LeaderShown,
    Meet,
    Speech,
    Vote,
)
from mafiavision.rules.errors import (
    GameOver,
    IllegalAction,
    NotAllowed,
    NotYourTurn,
    PlayerOut,
    WrongPhase,
)
from mafiavision.rules.hunt import check_observations, resolve_hunt
from mafiavision.rules.outcome import standing_outcome
from mafiavision.rules.rulesets import RuleSet
from mafiavision.rules.state import (
    Cause,
    CheckResult,
    GameState,
    NightStep,
    Outcome,
    Phase,
    Removal,
    RoundKind,
    Termination,
)

# --------------------------------------------------------------------------- helpers


def leader_seat(rules: RuleSet, state: GameState, team: str) -> int | None:
    """The seat holding ``team``'s leader card (alive or not), or None without a leader."""
    title = rules.team(team).leader
    if title is None or not state.roles:
        return None
    return state.roles.index(title) + 1


def check_answer(rules: RuleSet, state: GameState, seat: int, target: int) -> bool:
    """The true answer to the check of leader ``seat`` on ``target`` (nod = True)."""
    return state.role_of(target) in rules.team_of(state.role_of(seat)).leader_finds


def called_seats(rules: RuleSet, state: GameState) -> tuple[int, ...]:
    """The seat numbers the moderator calls during a hunt, in order."""
    if rules.calls_dead_seats:
        return tuple(range(1, state.seats + 1))
    return state.alive()


def _check_seat(state: GameState, seat: int, what: str) -> None:
    if not 1 <= seat <= state.seats:
        raise NotAllowed(f"{what}: seat {seat} does not exist (seats are 1..{state.seats})")
    if not state.is_alive(seat):
        raise PlayerOut(f"{what}: seat {seat} is out of the game")


def _remove(state: GameState, seats: list[int], cause: Cause) -> GameState:
    day = None if state.phase in (Phase.NIGHT, Phase.NIGHT_ZERO) else state.day
    removals = tuple(Removal(s, cause, day, state.night) for s in seats)
    return replace(state, removed=state.removed + removals)


def _lose_life(state: GameState, seat: int) -> tuple[GameState, bool]:
    """Take one life from ``seat``; True when that was his last one."""
    lives = list(state.lives)
    lives[seat - 1] -= 1
    return replace(state, lives=tuple(lives)), lives[seat - 1] == 0


def _wrong(state: GameState, rules: RuleSet, action: Action) -> WrongPhase:
    step = next_step(rules, state)
    return WrongPhase(f"{action.kind} is not possible now: expected {step.text}")


# --------------------------------------------------------------------------- night zero


def _deal(rules: RuleSet, s: GameState, a: Deal) -> GameState:
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
    return _settle_night_zero(rules, s)


def _step_actors(rules: RuleSet, s: GameState, step: NightStep) -> tuple[int, ...]:
    """Who acts in a night step (empty: the step is skipped)."""
    if step.kind in ("meet", "hunt"):
        return s.members(step.team, s.acting if step.kind == "hunt" else None)
    seat = leader_seat(rules, s, step.team)
    pool = s.acting if step.kind == "check" else frozenset(s.alive())
    return (seat,) if seat is not None and seat in pool else ()


def _settle_night_zero(rules: RuleSet, s: GameState) -> GameState:
    steps = s.steps
    while steps and not _step_actors(rules, s, steps[0]):
        steps = steps[1:]
    s = replace(s, steps=steps)
    return s if steps else _start_day(rules, s)


def _meet(rules: RuleSet, s: GameState, a: Meet) -> GameState:
    if s.phase != Phase.NIGHT_ZERO or s.steps[0] != NightStep("meet", a.team):
        raise _wrong(s, rules, a)
    spec = next(z for z in rules.night_zero if z.kind == "meet" and z.team == a.team)
    if len(a.orders) > spec.orders:
        raise NotAllowed(f"{a.team} shows at most {spec.orders} orders, got {len(a.orders)}")
    for target in a.orders:
        if not 1 <= target <= s.seats:
            raise NotAllowed(f"orders of {a.team}: seat {target} does not exist")
    s = replace(s, orders=(*s.orders, (a.team, a.orders)), steps=s.steps[1:])
    return _settle_night_zero(rules, s)


def _leader_shown(rules: RuleSet, s: GameState, a: LeaderShown) -> GameState:
    if s.phase != Phase.NIGHT_ZERO or s.steps[0].kind != "leader":
        raise _wrong(s, rules, a)
    _check_seat(s, a.seat, "leader")
    team = rules.team(s.steps[0].team)
    if s.role_of(a.seat) != team.leader:
        raise NotYourTurn(f"seat {a.seat} is not the {team.leader}: the {team.leader} wakes now")
    return _settle_night_zero(rules, replace(s, steps=s.steps[1:]))


# --------------------------------------------------------------------------- nights


def _start_night(rules: RuleSet, s: GameState) -> GameState:
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
    return _settle_night(rules, s)


def _settle_night(rules: RuleSet, s: GameState) -> GameState:
    steps = s.steps
    while steps and not _step_actors(rules, s, steps[0]):
        steps = steps[1:]
    s = replace(s, steps=steps)
    return s if steps else _dawn(rules, s)


def _apply_hit(rules: RuleSet, s: GameState, target: int, earlier: list[int]) -> GameState:
    """One hit on ``target``; ``earlier`` are this night's earlier targets (for lives)."""
    if not s.is_alive(target):
        return s
    if rules.lives_lost_per_night == "one" and target in earlier:
        return s
    s, dead = _lose_life(s, target)
    if not dead:
        return s
    s = _remove(s, [target], Cause.KILLED)
    return replace(s, last_words=(*s.last_words, target), acting=s.acting - {target})


def _dawn(rules: RuleSet, s: GameState) -> GameState:
    if rules.night_deaths_at_morning:
        earlier: list[int] = []
        for _, target in s.hits:
            s = _apply_hit(rules, s, target, earlier)
            earlier.append(target)
    s = replace(s, steps=(), acting=frozenset())
    if s.last_words:
        return replace(s, phase=Phase.LAST_WORDS, then="start_day")
    return _start_day(rules, s)


def _hunt(rules: RuleSet, s: GameState, a: Hunt) -> GameState:
    if a.team not in {t.name for t in rules.bandit_teams()}:
        raise NotAllowed(f"team {a.team!r} does not hunt")
    if s.phase != Phase.NIGHT or s.steps[0] != NightStep("hunt", a.team):
        raise _wrong(s, rules, a)
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
            s = _apply_hit(rules, s, verdict.target, earlier)
    else:
        misses = dict(s.misses)
        misses[a.team] += 1
        s = replace(s, misses=tuple(misses.items()))
        limit = rules.miss_limit
        if limit is not None and misses[a.team] >= limit.misses:
            return replace(s, outcome=Outcome(Termination.MISSES, limit.winner))
    return _settle_night(rules, s)


def _check(rules: RuleSet, s: GameState, a: Check) -> GameState:
    if s.phase != Phase.NIGHT:
        raise _wrong(s, rules, a)
    _check_seat(s, a.seat, "check")
    team = rules.team_of(s.role_of(a.seat))
    if s.role_of(a.seat) != team.leader or not team.leader_finds:
        raise NotAllowed(f"seat {a.seat} is not a leader who checks")
    if any(c.seat == a.seat for c in s.checks):
        raise NotAllowed(f"seat {a.seat} has already checked this night (one check per night)")
    if s.steps[0] != NightStep("check", team.name):
        raise NotYourTurn(f"the {team.leader} does not check now: expected {_describe(rules, s)}")
    if a.target is not None:
        _check_seat(s, a.target, "check target")
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
    return _settle_night(rules, s)


# --------------------------------------------------------------------------- days


def _start_day(rules: RuleSet, s: GameState) -> GameState:
    alive = s.alive()
    number = (0 if rules.greeting_day else 1) if s.day is None else s.day + 1
    first = dayrules.first_speaker(alive, s.first_speaker)
    return replace(
        s,
        phase=Phase.SPEECHES,
        day=number,
        round=RoundKind.GREETING if number == 0 else RoundKind.DISCUSSION,
        first_speaker=first,
        speakers=dayrules.speaking_order(alive, first),
        candidates=(),
        ballot=(),
        votes=(),
        revote=False,
        tied=(),
        eliminated_today=False,
        extra_round=False,
    )


def _speech(rules: RuleSet, s: GameState, a: Speech) -> GameState:
    if s.phase != Phase.SPEECHES:
        raise _wrong(s, rules, a)
    _check_seat(s, a.seat, "speech")
    if a.seat != s.speakers[0]:
        raise NotYourTurn(f"seat {s.speakers[0]} speaks now, not seat {a.seat}")
    if a.nominee is not None:
        if s.round != RoundKind.DISCUSSION:
            raise NotAllowed(f"no nominations in a {s.round} round")
        _check_seat(s, a.nominee, "nomination")
        if a.nominee in s.candidates:
            raise NotAllowed(f"seat {a.nominee} is already nominated")
        s = replace(s, candidates=(*s.candidates, a.nominee))
    s = replace(s, speakers=s.speakers[1:])
    return s if s.speakers else _end_round(rules, s)


def _start_vote(s: GameState, ballot: tuple[int, ...], revote: bool) -> GameState:
    return replace(s, phase=Phase.VOTING, ballot=ballot, votes=(), revote=revote)


def _end_round(rules: RuleSet, s: GameState) -> GameState:
    if s.round == RoundKind.GREETING:
        return _end_day(rules, s)
    if s.round == RoundKind.DEFENCE:
        order = tuple(reversed(s.tied)) if rules.revote_order == "reverse" else s.tied
        return _start_vote(s, order, revote=True)
    if not s.candidates:
        return _end_day(rules, s)
    if len(s.candidates) == 1:
        first_day = s.day == 1 and not s.extra_round
        rule = rules.single_candidate_first_day if first_day else rules.single_candidate_later
        if rule == "no_vote":
            return _end_day(rules, s)
        if rule == "leaves":
            return _eliminate(rules, s, list(s.candidates))
    return _start_vote(s, s.candidates, revote=False)


def _vote(rules: RuleSet, s: GameState, a: Vote) -> GameState:
    if s.phase != Phase.VOTING:
        raise WrongPhase(f"a vote outside a vote: expected {_describe(rules, s)}")
    if a.candidate != s.ballot[0]:
        raise NotYourTurn(f"the vote now is for seat {s.ballot[0]}, not seat {a.candidate}")
    voted = frozenset().union(*(v for _, v in s.votes))
    for voter in sorted(a.voters):
        _check_seat(s, voter, "vote")
        if voter in voted:
            raise NotAllowed(f"seat {voter} has already voted in this vote")
    s = replace(s, votes=(*s.votes, (a.candidate, a.voters)), ballot=s.ballot[1:])
    return s if s.ballot else _tally(rules, s)


def _tally(rules: RuleSet, s: GameState) -> GameState:
    alive = s.alive()
    leaders = dayrules.most_voted(dayrules.tally(s.votes, alive, rules.abstention))
    if not leaders:
        return _end_day(rules, s)
    if len(leaders) == 1:
        return _eliminate(rules, s, list(leaders))
    if s.revote:
        s = replace(s, tied=leaders)
        if dayrules.all_leave_allowed(rules, len(leaders), len(alive)):
            return replace(s, phase=Phase.ALL_LEAVE_VOTE)
        return _end_day(rules, s)
    if rules.tie_at_four == "all_stay" and len(alive) == 4:
        return _end_day(rules, s)
    start = s.first_speaker if s.first_speaker in alive else alive[0]
    assert start is not None
    order = dayrules.speaking_order(alive, start)
    return replace(
        s,
        phase=Phase.SPEECHES,
        round=RoundKind.DEFENCE,
        tied=leaders,
        speakers=tuple(seat for seat in order if seat in leaders),
    )


def _all_leave_vote(rules: RuleSet, s: GameState, a: AllLeaveVote) -> GameState:
    if s.phase != Phase.ALL_LEAVE_VOTE:
        raise WrongPhase(f"no 'all leave?' vote now: expected {_describe(rules, s)}")
    both = a.yes & a.no
    if both:
        raise NotAllowed(f"seat {min(both)} voted both yes and no")
    for voter in sorted(a.yes | a.no):
        _check_seat(s, voter, "all-leave vote")
    if dayrules.all_leave_passes(rules, len(a.yes), len(a.no), len(s.alive())):
        return _eliminate(rules, s, list(s.tied))
    return _end_day(rules, s)


def _eliminate(rules: RuleSet, s: GameState, seats: list[int]) -> GameState:
    leaving = []
    for seat in seats:
        if rules.lives_against_vote and s.lives[seat - 1] > 1:
            s, _ = _lose_life(s, seat)
        else:
            leaving.append(seat)
    if not leaving:
        return _end_day(rules, s)
    s = _remove(s, leaving, Cause.VOTED)
    return replace(
        s,
        eliminated_today=True,
        phase=Phase.LAST_WORDS,
        last_words=tuple(leaving),
        then="end_day",
    )


def _end_day(rules: RuleSet, s: GameState) -> GameState:
    rule = rules.no_elimination
    if s.day == 0 or rule is None:
        return _start_night(rules, s)
    if s.eliminated_today:
        return _start_night(rules, replace(s, dry_days=0 if rule.consecutive else s.dry_days))
    if s.extra_round:
        return replace(s, outcome=Outcome(Termination.NO_ELIMINATION_DAYS, rule.winner))
    if s.dry_days + 1 < rule.days:
        return _start_night(rules, replace(s, dry_days=s.dry_days + 1))
    if not rule.extra_round:
        s = replace(s, dry_days=s.dry_days + 1)
        return replace(s, outcome=Outcome(Termination.NO_ELIMINATION_DAYS, rule.winner))
    alive = s.alive()
    first = s.first_speaker if s.first_speaker in alive else alive[0]
    assert first is not None
    return replace(
        s,
        phase=Phase.SPEECHES,
        round=RoundKind.DISCUSSION,
        extra_round=True,
        speakers=dayrules.speaking_order(alive, first),
        candidates=(),
        ballot=(),
        votes=(),
        revote=False,
        tied=(),
    )


def _last_word(rules: RuleSet, s: GameState, a: LastWord) -> GameState:
    if s.phase != Phase.LAST_WORDS:
        raise _wrong(s, rules, a)
    if a.seat != s.last_words[0]:
        raise NotYourTurn(f"seat {s.last_words[0]} has the last word now, not seat {a.seat}")
    s = replace(s, last_words=s.last_words[1:])
    if s.last_words:
        return s
    return _start_day(rules, s) if s.then == "start_day" else _end_day(rules, s)


# --------------------------------------------------------------------------- any time


def _disqualify(rules: RuleSet, s: GameState, a: Disqualify) -> GameState:
    if s.phase == Phase.DEAL:
        raise WrongPhase("disqualify: the cards are not dealt yet")
    _check_seat(s, a.seat, "disqualify")
    s = _remove(s, [a.seat], Cause.DISQUALIFIED)
    if rules.disqualification == "loses":
        other = next(t.name for t in rules.teams if t.name != s.team_of(a.seat))
        return replace(s, outcome=Outcome(Termination.DISQUALIFICATION, other))
    seat = a.seat
    s = replace(
        s,
        acting=s.acting - {seat},
        speakers=tuple(x for x in s.speakers if x != seat),
        candidates=tuple(x for x in s.candidates if x != seat),
        ballot=tuple(x for x in s.ballot if x != seat),
        votes=tuple((c, v - {seat}) for c, v in s.votes if c != seat),
        tied=tuple(x for x in s.tied if x != seat),
    )
    if s.phase == Phase.NIGHT_ZERO:
        return _settle_night_zero(rules, s)
    if s.phase == Phase.NIGHT:
        return _settle_night(rules, s)
    shootout = s.round == RoundKind.DEFENCE or s.revote or s.phase == Phase.ALL_LEAVE_VOTE
    if shootout and len(s.tied) < 2:
        return _end_day(rules, s)  # the shoot-out lost its point: nobody leaves today
    if s.phase == Phase.SPEECHES and not s.speakers:
        return _end_round(rules, s)
    if s.phase == Phase.VOTING and not s.ballot:
        return _tally(rules, s) if s.votes else _end_day(rules, s)
    return s


def _annul(rules: RuleSet, s: GameState, a: Annul) -> GameState:
    return replace(s, outcome=Outcome(Termination.ANNULLED, None))


_HANDLERS: dict[type[Action], Callable[[RuleSet, GameState, Any], GameState]] = {
    Deal: _deal,
    Meet: _meet,
    LeaderShown: _leader_shown,
    Hunt: _hunt,
    Check: _check,
    LastWord: _last_word,
    Speech: _speech,
    Vote: _vote,
    AllLeaveVote: _all_leave_vote,
    Disqualify: _disqualify,
    Annul: _annul,
}


def apply(rules: RuleSet, state: GameState, action: Action) -> GameState:
    """The state after ``action``; raises an :class:`~mafiavision.rules.errors.IllegalAction`."""
    if state.phase == Phase.OVER:
        assert state.outcome is not None
        raise GameOver(
            f"the game is over ({state.outcome.termination.value}, "
            f"winner {state.outcome.winner}): no more actions"
        )
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise NotAllowed(f"unknown action {action!r}")
    new = handler(rules, state, action)
    if new.outcome is None and new.roles:
        new = replace(new, outcome=standing_outcome(rules, new))
    if new.outcome is not None:
        new = replace(new, phase=Phase.OVER, steps=(), speakers=(), ballot=(), last_words=())
    return new


# --------------------------------------------------------------------------- what next


@dataclass(frozen=True)
class Step:
    """What the game expects next: the action kind (None when over), who acts, and a text for
    the moderator's confirmation screen. For a vote, ``candidate`` is the seat being voted on
    and ``seats`` are the players who may vote."""

    phase: Phase
    action: str | None
    seats: tuple[int, ...] = ()
    team: str | None = None
    candidate: int | None = None
    text: str = ""


def next_step(rules: RuleSet, s: GameState) -> Step:
    """The expected next action in state ``s`` (a Disqualify or Annul is possible any time)."""
    if s.phase == Phase.OVER:
        assert s.outcome is not None
        winner = s.outcome.winner or "nobody"
        return Step(s.phase, None, text=f"game over: {winner} ({s.outcome.termination.value})")
    if s.phase == Phase.DEAL:
        return Step(s.phase, Deal.kind, text=f"deal the {rules.players} cards")
    if s.phase in (Phase.NIGHT_ZERO, Phase.NIGHT):
        step = s.steps[0]
        seats = _step_actors(rules, s, step)
        team = rules.team(step.team)
        kinds = {"meet": Meet.kind, "leader": LeaderShown.kind, "hunt": Hunt.kind}
        texts = {
            "meet": f"night zero: {team.name} wakes and meets (seats {_list(seats)})",
            "leader": f"night zero: the {team.leader} wakes and shows himself",
            "hunt": f"night {s.night}: {team.name} goes hunting (seats {_list(seats)})",
            "check": f"night {s.night}: the {team.leader} (seat {_list(seats)}) checks",
        }
        return Step(
            s.phase, kinds.get(step.kind, Check.kind), seats, team.name, text=texts[step.kind]
        )
    if s.phase == Phase.LAST_WORDS:
        seat = s.last_words[0]
        when = f"morning after night {s.night}" if s.then == "start_day" else f"day {s.day}"
        cause = s.removed[[r.seat for r in s.removed].index(seat)].cause.value
        return Step(s.phase, LastWord.kind, (seat,), text=f"{when}: seat {seat} {cause}, last word")
    if s.phase == Phase.SPEECHES:
        seat = s.speakers[0]
        label = "extra round" if s.extra_round else str(s.round)
        may = " (may nominate)" if s.round == RoundKind.DISCUSSION else ""
        return Step(
            s.phase, Speech.kind, (seat,), text=f"day {s.day}, {label}: seat {seat} speaks{may}"
        )
    if s.phase == Phase.VOTING:
        candidate = s.ballot[0]
        again = "re-vote" if s.revote else "vote"
        return Step(
            s.phase,
            Vote.kind,
            s.alive(),
            candidate=candidate,
            text=f"day {s.day}, {again}: who votes for seat {candidate}?",
        )
    return Step(
        s.phase,
        AllLeaveVote.kind,
        s.alive(),
        text=f"day {s.day}: do seats {_list(s.tied)} all leave?",
    )


def _describe(rules: RuleSet, s: GameState) -> str:
    return next_step(rules, s).text


def _list(seats: tuple[int, ...]) -> str:
    return ", ".join(str(x) for x in seats)


# --------------------------------------------------------------------------- the game


class Journal(Protocol):
    """Where a :class:`Game` writes what it accepts (the game record); each call must have
    made the entry durable when it returns."""

    def record_action(self, action: Action, evidence: Any = None) -> None: ...

    def record_undo(self) -> None: ...


class Game:
    """A game under a rule set: push actions, pop them (exact undo), ask what comes next.

    With a ``journal`` (e.g. :class:`~mafiavision.rules.record.RecordWriter`), every accepted
    action (and every undo) is written, flushed and synced before ``push``/``pop`` returns; if
    writing fails, the action is not applied.
    """

    def __init__(self, rules: RuleSet, *, journal: Journal | None = None) -> None:
        self.rules = rules
        self.journal = journal
        self.state = GameState(seats=rules.players)
        self._stack: list[tuple[Action, GameState]] = []

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions applied so far, oldest first."""
        return tuple(action for action, _ in self._stack)

    def push(self, action: Action, evidence: Any = None) -> GameState:
        """Apply ``action`` (raises IllegalAction and changes nothing if it is illegal)."""
        new = apply(self.rules, self.state, action)
        if self.journal is not None:
            self.journal.record_action(action, evidence)
        self._stack.append((action, self.state))
        self.state = new
        return new

    def pop(self) -> Action:
        """Undo the last action exactly and return it (IndexError when there is none)."""
        if not self._stack:
            raise IndexError("pop from a game without actions")
        if self.journal is not None:
            self.journal.record_undo()
        action, previous = self._stack.pop()
        self.state = previous
        return action

    def preview(self, action: Action) -> GameState:
        """The state ``action`` would lead to, without pushing it (e.g. the verdict of a hunt:
        ``game.preview(hunt).verdicts[-1]``); raises IllegalAction like :meth:`push`."""
        return apply(self.rules, self.state, action)

    def is_legal(self, action: Action) -> bool:
        try:
            self.preview(action)
        except IllegalAction:
            return False
        return True

    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        return self.state.outcome

    def next_step(self) -> Step:
        """What the game expects next (phase, action kind, who acts, a text)."""
        return next_step(self.rules, self.state)

    def leader_seat(self, team: str) -> int | None:
        return leader_seat(self.rules, self.state, team)

    def check_answer(self, seat: int, target: int) -> bool:
        """The moderator's true answer to leader ``seat`` checking ``target``."""
        return check_answer(self.rules, self.state, seat, target)

    def called_seats(self) -> tuple[int, ...]:
        """The seat numbers the moderator calls during a hunt (for the arbiter's windows)."""
        return called_seats(self.rules, self.state)

    def hunters(self, team: str) -> tuple[int, ...]:
        """The seats whose observations a hunt of ``team`` needs tonight."""
        return self.state.members(team, self.state.acting)
