"""The game state: an immutable value, replaced (never changed) by every action.

Because every :class:`GameState` is frozen and holds only tuples, frozensets and immutable
values, undo is exact: :class:`~mafiavision.rules.engine.Game` keeps the previous states on a
stack, and two states compare equal exactly when the games are in the same position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from mafiavision.rules.actions import ShotKind


class Phase(StrEnum):
    DEAL = "deal"  # waiting for the cards
    NIGHT_ZERO = "night_zero"  # meetings and leaders, no shooting
    NIGHT = "night"  # hunts, then checks
    LAST_WORDS = "last_words"  # removed players speak (after dawn or after a vote)
    SPEECHES = "speeches"  # a day round: greeting, discussion, defence or extra round
    VOTING = "voting"  # votes over the ballot, one candidate at a time
    ALL_LEAVE_VOTE = "all_leave_vote"  # 'all tied players leave?'
    OVER = "over"


class RoundKind(StrEnum):
    GREETING = "greeting"  # day zero (kharkiv): speeches only
    DISCUSSION = "discussion"  # a normal day: speeches with nominations, then the vote
    DEFENCE = "defence"  # the shoot-out: the tied players speak again, then the re-vote


class Termination(StrEnum):
    ELIMINATION = "elimination"  # every opposing player is out
    PARITY = "parity"  # the team is at least as numerous as the opponents
    EQUAL_GROUPS = "equal_groups"  # triad: 1-1-1 or 2-2-2
    LAST_TEAM = "last_team"  # only one team has players left
    MISSES = "misses"  # a bandit group missed too often
    NO_ELIMINATION_DAYS = "no_elimination_days"  # days without a vote elimination
    DISQUALIFICATION = "disqualification"  # a removal for unsporting behaviour decided the game
    NO_PLAYERS = "no_players"  # nobody is left (no winner)
    ANNULLED = "annulled"  # the moderator declared the game void (no winner)


@dataclass(frozen=True)
class Outcome:
    """How the game ended: ``winner`` is a team name, or None (no players left, annulled)."""

    termination: Termination
    winner: str | None


class Cause(StrEnum):
    KILLED = "killed"
    VOTED = "voted"
    DISQUALIFIED = "disqualified"


@dataclass(frozen=True)
class Removal:
    seat: int
    cause: Cause
    day: int | None  # the day it happened on (None: during a night)
    night: int


class MissReason(StrEnum):
    NO_SHOT = "no_shot"  # a member did not shoot
    BETWEEN = "between"  # a member shot between two numbers
    MULTIPLE = "multiple"  # a member shot more than once
    NOT_SEEN = "not_seen"  # a member's hand was not seen
    DIFFERENT_TARGETS = "different_targets"  # members shot different numbers
    TARGET_OUT = "target_out"  # all shot the same number, but that seat is already out


_REASON_OF_KIND = {
    ShotKind.NO_SHOT: MissReason.NO_SHOT,
    ShotKind.BETWEEN: MissReason.BETWEEN,
    ShotKind.MULTIPLE: MissReason.MULTIPLE,
    ShotKind.NOT_SEEN: MissReason.NOT_SEEN,
}


def reason_of_kind(kind: ShotKind) -> MissReason:
    """The miss reason an observation other than a shot causes."""
    return _REASON_OF_KIND[kind]


@dataclass(frozen=True)
class HuntVerdict:
    """A hunt's result: ``target`` hit, or a miss with its ``reason`` and the ``seats`` at fault."""

    team: str
    target: int | None
    reason: MissReason | None = None
    seats: tuple[int, ...] = ()

    @property
    def hit(self) -> bool:
        return self.target is not None

    def describe(self) -> str:
        if self.target is not None:
            return f"{self.team}: hit on seat {self.target}"
        assert self.reason is not None
        seats = ", ".join(str(s) for s in self.seats)
        return f"{self.team}: miss ({self.reason.value}{': seat ' + seats if seats else ''})"


@dataclass(frozen=True)
class CheckResult:
    seat: int
    team: str
    target: int | None  # None: the leader showed no number
    answer: bool | None


@dataclass(frozen=True)
class NightStep:
    """One step of a night: a group's ``hunt`` or a leader's ``check`` (Night zero: ``meet`` and
    ``leader``)."""

    kind: str
    team: str


@dataclass(frozen=True)
class GameState:
    """Where the game stands. Seats are numbered from 1; ``roles[seat - 1]`` is the role title."""

    seats: int
    phase: Phase = Phase.DEAL
    roles: tuple[str, ...] = ()
    teams: tuple[str, ...] = ()  # team of each seat, parallel to roles
    removed: tuple[Removal, ...] = ()  # in the order players left
    lives: tuple[int, ...] = ()  # per seat
    night: int = 0  # the current or last night (0 = night zero)
    day: int | None = None  # the current or last day (None before the first day)
    misses: tuple[tuple[str, int], ...] = ()  # (bandit team, misses in the game)
    orders: tuple[tuple[str, tuple[int, ...]], ...] = ()  # night-zero kill orders per group
    # the night
    steps: tuple[NightStep, ...] = ()  # steps still to come this night
    acting: frozenset[int] = frozenset()  # who acts tonight (alive at nightfall)
    hits: tuple[tuple[str, int], ...] = ()  # (group, target) this night, applied at dawn
    verdicts: tuple[HuntVerdict, ...] = ()  # this night's (or last night's) hunts
    checks: tuple[CheckResult, ...] = ()  # this night's (or last night's) checks
    # removed players still to say their last word, and what comes afterwards
    last_words: tuple[int, ...] = ()
    then: Literal["start_day", "end_day"] = "start_day"
    # the day
    round: RoundKind | None = None
    first_speaker: int | None = None
    speakers: tuple[int, ...] = ()  # still to speak in this round
    candidates: tuple[int, ...] = ()  # nominated today, in nomination order
    ballot: tuple[int, ...] = ()  # candidates still to be voted in this vote
    votes: tuple[tuple[int, frozenset[int]], ...] = ()  # (candidate, voters) in this vote
    revote: bool = False  # this vote is the shoot-out re-vote
    tied: tuple[int, ...] = ()  # candidates of the shoot-out / of the 'all leave?' vote
    eliminated_today: bool = False
    extra_round: bool = False  # the day's extra round (too many days without a vote elimination)
    dry_days: int = 0  # days counted without a vote elimination
    outcome: Outcome | None = field(default=None)

    def removed_seats(self) -> frozenset[int]:
        return frozenset(r.seat for r in self.removed)

    def alive(self) -> tuple[int, ...]:
        """Seats still at the table, in seat order."""
        out = self.removed_seats()
        return tuple(s for s in range(1, self.seats + 1) if s not in out)

    def is_alive(self, seat: int) -> bool:
        return 1 <= seat <= self.seats and seat not in self.removed_seats()

    def team_of(self, seat: int) -> str:
        return self.teams[seat - 1]

    def role_of(self, seat: int) -> str:
        return self.roles[seat - 1]

    def members(
        self, team: str, among: frozenset[int] | tuple[int, ...] | None = None
    ) -> tuple[int, ...]:
        """Seats of ``team`` among ``among`` (default: those alive), in seat order."""
        pool = set(self.alive() if among is None else among)
        return tuple(s for s in sorted(pool) if self.teams[s - 1] == team)

    def alive_counts(self) -> dict[str, int]:
        counts = dict.fromkeys(dict.fromkeys(self.teams), 0)
        for seat in self.alive():
            counts[self.teams[seat - 1]] += 1
        return counts

    def misses_of(self, team: str) -> int:
        return dict(self.misses).get(team, 0)
