"""Scripted play: drive a :class:`~mafiavision.rules.engine.Game` by stating only what matters.

:func:`quiet_action` is the "nothing happens" action for the expected step (a speech without a
nomination, a vote nobody raises a hand for, a last word, a meeting without orders, a check
showing no number, 'no' to 'all leave?'). :class:`Script` pushes those until the step it is asked
for comes, then pushes the real action. Scripted games, the bundled sample records and the tests
are written with it::

    play = Script(Game(load_rules("kharkiv")))
    play.deal(roles)
    play.hunt("mafia", 7)           # night zero and day zero pass quietly, then the hunt
    play.check(don_seat, 4)         # the moderator's answer comes from the deal
    play.nominate(2, 9)             # speeches 1.. without nominations up to seat 2
    play.vote({9: {1, 2, 3}})       # the remaining speeches, then the ballot
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from mafiavision.rules.actions import (
    Action,
    AllLeaveVote,
    Check,
    Deal,
    Hunt,
    LastWord,
    LeaderShown,
    Meet,
    MemberShot,
    ShotKind,
    Speech,
    Vote,
)
from mafiavision.rules.engine import Game, Step
from mafiavision.rules.errors import WrongPhase
from mafiavision.rules.state import Outcome


def quiet_action(game: Game) -> Action:
    """The action in which nothing happens for the step ``game`` expects."""
    step = game.next_step()
    state = game.state
    if step.action == Meet.kind:
        assert step.team is not None
        return Meet(team=step.team)
    if step.action == LeaderShown.kind:
        return LeaderShown(seat=step.seats[0])
    if step.action == Check.kind:
        return Check(seat=step.seats[0], target=None, answer=None)
    if step.action == Hunt.kind:
        assert step.team is not None
        return Hunt(
            team=step.team,
            shots=tuple(MemberShot(seat=s, kind=ShotKind.NO_SHOT) for s in step.seats),
        )
    if step.action == LastWord.kind:
        return LastWord(seat=state.last_words[0])
    if step.action == Speech.kind:
        return Speech(seat=step.seats[0])
    if step.action == Vote.kind:
        assert step.candidate is not None
        return Vote(candidate=step.candidate)
    if step.action == AllLeaveVote.kind:
        return AllLeaveVote()
    raise WrongPhase(f"nothing to do quietly: expected {step.text}")


class Script:
    """Pushes quiet actions until the wanted step, then the given action (see module doc)."""

    def __init__(self, game: Game, evidence: Callable[[Action], Any] | None = None) -> None:
        self.game = game
        self.evidence = evidence or (lambda action: None)

    def push(self, action: Action) -> None:
        self.game.push(action, self.evidence(action))

    def until(self, wanted: Callable[[Step], bool]) -> Step:
        """Push quiet actions until ``wanted(next_step)``; WrongPhase if the game ends first."""
        step = self.game.next_step()
        while not wanted(step):
            if step.action is None:
                raise WrongPhase(f"the game ended before the wanted step ({step.text})")
            self.push(quiet_action(self.game))
            step = self.game.next_step()
        return step

    def finish(self, limit: int = 10_000) -> Outcome | None:
        """Push quiet actions until the game ends or ``limit`` actions were pushed."""
        for _ in range(limit):
            if self.game.outcome() is not None:
                break
            self.push(quiet_action(self.game))
        return self.game.outcome()

    # ------------------------------------------------------------------ night

    def deal(self, roles: Iterable[str]) -> None:
        self.push(Deal(roles=tuple(roles)))

    def meet(self, team: str, orders: Iterable[int]) -> None:
        self.until(lambda s: s.action == Meet.kind and s.team == team)
        self.push(Meet(team=team, orders=tuple(orders)))

    def hunt(self, team: str, target: int | Mapping[int, MemberShot | None] | None) -> None:
        """A hunt: every hunter shoots ``target`` (an int), nobody shoots (None), or per seat
        (a mapping seat -> MemberShot; seats missing from it shoot nothing)."""
        step = self.until(lambda s: s.action == Hunt.kind and s.team == team)
        shots = []
        for seat in step.seats:
            if isinstance(target, Mapping):
                shot = target.get(seat) or MemberShot(seat=seat, kind=ShotKind.NO_SHOT)
            elif target is None:
                shot = MemberShot(seat=seat, kind=ShotKind.NO_SHOT)
            else:
                shot = MemberShot.shot(seat, target)
            shots.append(shot)
        self.push(Hunt(team=team, shots=tuple(shots)))

    def check(self, seat: int, target: int) -> bool:
        """Leader ``seat`` checks ``target``; returns the moderator's answer."""
        self.until(lambda s: s.action == Check.kind and s.seats == (seat,))
        answer = self.game.check_answer(seat, target)
        self.push(Check(seat=seat, target=target, answer=answer))
        return answer

    # ------------------------------------------------------------------ day

    def nominate(self, seat: int, nominee: int) -> None:
        """Speeches pass until ``seat`` speaks, who nominates ``nominee``."""
        self.until(lambda s: s.action == Speech.kind and s.seats == (seat,))
        self.push(Speech(seat=seat, nominee=nominee))

    def end_speeches(self) -> None:
        """The remaining speeches of the round pass without nominations."""
        self.until(lambda s: s.action != Speech.kind)

    def vote(self, votes: Mapping[int, Iterable[int]]) -> None:
        """Speeches pass, then the ballot: ``votes[candidate]`` raise their hands for him."""
        self.until(lambda s: s.action == Vote.kind)
        while self.game.next_step().action == Vote.kind:
            candidate = self.game.next_step().candidate
            assert candidate is not None
            self.push(Vote(candidate=candidate, voters=frozenset(votes.get(candidate, ()))))

    def all_leave(self, yes: Iterable[int], no: Iterable[int] = ()) -> None:
        self.until(lambda s: s.action == AllLeaveVote.kind)
        self.push(AllLeaveVote(yes=frozenset(yes), no=frozenset(no)))
