"""The engine: :func:`apply` (state + action -> next state) and :class:`Game` (push/pop, undo).

The flow of every rule set: deal -> night zero (meetings, leaders) -> first day (Kharkiv: a
greeting round) -> night (hunts in team order, then the bandit leaders' checks, then the town
leader's check) -> dawn (hits take effect) -> last words -> day (speeches with nominations ->
vote -> shoot-out -> 'all leave?') -> last words -> night ... until an :class:`Outcome`.
:meth:`Game.next_step` says at every moment which action is expected and who acts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from mafiavision.rules import day, night
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
from mafiavision.rules.errors import GameOver, IllegalAction, NotAllowed, WrongPhase
from mafiavision.rules.outcome import standing_outcome
from mafiavision.rules.rulesets import RuleSet
from mafiavision.rules.seats import called_seats, check_answer, check_seat, leader_seat, remove
from mafiavision.rules.state import Cause, GameState, Outcome, Phase, RoundKind, Termination
from mafiavision.rules.steps import Step, next_step


def _disqualify(rules: RuleSet, s: GameState, a: Disqualify) -> GameState:
    """A removal for unsporting behaviour, at any time: it decides the game (``disqualification:
    loses``) or the player leaves every queue he stands in and the phase carries on."""
    if s.phase == Phase.DEAL:
        raise WrongPhase("disqualify: the cards are not dealt yet")
    check_seat(s, a.seat, "disqualify")
    s = remove(s, [a.seat], Cause.DISQUALIFIED)
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
        return night.settle_night_zero(rules, s)
    if s.phase == Phase.NIGHT:
        return night.settle_night(rules, s)
    shootout = s.round == RoundKind.DEFENCE or s.revote or s.phase == Phase.ALL_LEAVE_VOTE
    if shootout and len(s.tied) < 2:
        return day.end_day(rules, s)  # the shoot-out lost its point: nobody leaves today
    if s.phase == Phase.SPEECHES and not s.speakers:
        return day.end_round(rules, s)
    if s.phase == Phase.VOTING and not s.ballot:
        return day.tally(rules, s) if s.votes else day.end_day(rules, s)
    return s


def _annul(rules: RuleSet, s: GameState, a: Annul) -> GameState:
    return replace(s, outcome=Outcome(Termination.ANNULLED, None))


_HANDLERS: dict[type[Action], Callable[[RuleSet, GameState, Any], GameState]] = {
    Deal: night.deal,
    Meet: night.meet,
    LeaderShown: night.leader_shown,
    Hunt: night.hunt,
    Check: night.check,
    LastWord: day.last_word,
    Speech: day.speech,
    Vote: day.vote,
    AllLeaveVote: day.all_leave_vote,
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
