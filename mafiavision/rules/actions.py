"""Actions: small immutable value objects, one per thing the moderator confirms.

Each action is a frozen, keyword-only dataclass with a class-level ``kind`` (its name in the game
record). :meth:`mafiavision.rules.engine.Game.push` checks an action against the state and
applies it; an illegal one raises a subclass of :class:`~mafiavision.rules.errors.IllegalAction`.

The hunt is the camera's entry point: a :class:`Hunt` holds one :class:`MemberShot` per living
member of the bandit group, each one of the five observations of :class:`ShotKind`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from pydantic import ConfigDict

from mafiavision.rules.rulesets import RuleSet

_STRICT = ConfigDict(extra="forbid")


class ShotKind(StrEnum):
    """What the moderator (or the camera, confirmed by him) saw one bandit do during a hunt."""

    SHOT = "shot"  # one squeeze-and-release while seat `target` was called
    NO_SHOT = "no_shot"  # the hand was seen, no shot at all
    BETWEEN = "between"  # one shot, but between two called numbers
    MULTIPLE = "multiple"  # more than one shot during the call
    NOT_SEEN = "not_seen"  # the hand was not seen (not raised, hidden, out of view)


@dataclass(frozen=True, kw_only=True)
class MemberShot:
    """One bandit's observation in a hunt. ``target`` is set exactly when ``kind`` is SHOT."""

    __pydantic_config__ = _STRICT

    seat: int
    kind: ShotKind
    target: int | None = None

    def __post_init__(self) -> None:
        if (self.kind == ShotKind.SHOT) != (self.target is not None):
            raise ValueError(
                f"seat {self.seat}: a target is given exactly for kind 'shot' "
                f"(kind {self.kind.value!r}, target {self.target})"
            )

    @classmethod
    def shot(cls, seat: int, target: int) -> MemberShot:
        return cls(seat=seat, kind=ShotKind.SHOT, target=target)


@dataclass(frozen=True, kw_only=True)
class Action:
    """Base class of every action."""

    __pydantic_config__ = _STRICT
    kind: ClassVar[str] = ""


@dataclass(frozen=True, kw_only=True)
class Deal(Action):
    """The cards: ``roles[i]`` is the role title of seat ``i + 1``."""

    kind: ClassVar[str] = "deal"
    roles: tuple[str, ...]

    @classmethod
    def random(cls, rules: RuleSet, seed: int | None = None) -> Deal:
        """A shuffled deal of the rule set's cards (reproducible with ``seed``)."""
        cards = [role for role, n in rules.role_counts().items() for _ in range(n)]
        random.Random(seed).shuffle(cards)
        return cls(roles=tuple(cards))


@dataclass(frozen=True, kw_only=True)
class Meet(Action):
    """Night zero: a bandit group meets; ``orders`` are the kill orders shown (may be empty)."""

    kind: ClassVar[str] = "meet"
    team: str
    orders: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class LeaderShown(Action):
    """Night zero: a leader wakes and shows himself to the moderator (raises a hand)."""

    kind: ClassVar[str] = "leader_shown"
    seat: int


@dataclass(frozen=True, kw_only=True)
class Hunt(Action):
    """A night hunt of bandit group ``team``: one observation per living member."""

    kind: ClassVar[str] = "hunt"
    team: str
    shots: tuple[MemberShot, ...]


@dataclass(frozen=True, kw_only=True)
class Check(Action):
    """A leader's night check: he shows ``target``; the moderator nods (True) or shakes (False).

    ``target`` and ``answer`` are both None when the leader woke but showed no number."""

    kind: ClassVar[str] = "check"
    seat: int
    target: int | None
    answer: bool | None

    def __post_init__(self) -> None:
        if (self.target is None) != (self.answer is None):
            raise ValueError(f"check by seat {self.seat}: give both target and answer, or neither")


@dataclass(frozen=True, kw_only=True)
class LastWord(Action):
    """A removed player has said his last word."""

    kind: ClassVar[str] = "last_word"
    seat: int


@dataclass(frozen=True, kw_only=True)
class Speech(Action):
    """A day speech (or a shoot-out defence); ``nominee`` is the seat nominated in it, if any."""

    kind: ClassVar[str] = "speech"
    seat: int
    nominee: int | None = None


@dataclass(frozen=True, kw_only=True)
class Vote(Action):
    """The hands raised for ``candidate`` when the moderator calls him (in ballot order)."""

    kind: ClassVar[str] = "vote"
    candidate: int
    voters: frozenset[int] = frozenset()


@dataclass(frozen=True, kw_only=True)
class AllLeaveVote(Action):
    """The 'all tied players leave?' vote: who voted yes and who voted no (others abstain)."""

    kind: ClassVar[str] = "all_leave_vote"
    yes: frozenset[int] = frozenset()
    no: frozenset[int] = frozenset()


@dataclass(frozen=True, kw_only=True)
class Disqualify(Action):
    """The moderator removes a player for unsporting behaviour (any time)."""

    kind: ClassVar[str] = "disqualify"
    seat: int


@dataclass(frozen=True, kw_only=True)
class Annul(Action):
    """The moderator declares the game void (seed 001 II.5)."""

    kind: ClassVar[str] = "annul"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (
        Deal,
        Meet,
        LeaderShown,
        Hunt,
        Check,
        LastWord,
        Speech,
        Vote,
        AllLeaveVote,
        Disqualify,
        Annul,
    )
}
