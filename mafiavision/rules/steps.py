"""What the game expects next (:class:`Step`), for the confirmation screen and error messages."""

from __future__ import annotations

from dataclasses import dataclass

from mafiavision.rules.actions import (
    Action,
    AllLeaveVote,
    Check,
    Deal,
    Hunt,
    LastWord,
    LeaderShown,
    Meet,
    Speech,
    Vote,
)
from mafiavision.rules.errors import WrongPhase
from mafiavision.rules.rulesets import RuleSet
from mafiavision.rules.seats import step_actors
from mafiavision.rules.state import GameState, Phase, RoundKind


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
    seconds: int | None = None  # the rule set's speaking time for this step, if any


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
        seats = step_actors(rules, s, step)
        team = rules.team(step.team)
        kinds = {"meet": Meet.kind, "leader": LeaderShown.kind, "hunt": Hunt.kind}
        texts = {
            "meet": f"night zero: {team.name} wakes and meets (seats {_list(seats)})",
            "leader": f"night zero: the {team.leader} wakes and shows himself",
            "hunt": f"night {s.night}: {team.name} goes hunting (seats {_list(seats)})",
            "check": f"night {s.night}: the {team.leader} (seat {_list(seats)}) checks",
        }
        return Step(
            s.phase,
            kinds.get(step.kind, Check.kind),
            seats,
            team.name,
            text=texts[step.kind],
            seconds=rules.timers.meeting if step.kind == "meet" else None,
        )
    if s.phase == Phase.LAST_WORDS:
        seat = s.last_words[0]
        when = f"morning after night {s.night}" if s.then == "start_day" else f"day {s.day}"
        cause = s.removed[[r.seat for r in s.removed].index(seat)].cause.value
        return Step(
            s.phase,
            LastWord.kind,
            (seat,),
            text=f"{when}: seat {seat} {cause}, last word",
            seconds=rules.timers.last_word,
        )
    if s.phase == Phase.SPEECHES:
        seat = s.speakers[0]
        label = "extra round" if s.extra_round else str(s.round)
        may = " (may nominate)" if s.round == RoundKind.DISCUSSION else ""
        assert s.round is not None
        return Step(
            s.phase,
            Speech.kind,
            (seat,),
            text=f"day {s.day}, {label}: seat {seat} speaks{may}",
            seconds=getattr(rules.timers, s.round.value),
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


def describe(rules: RuleSet, s: GameState) -> str:
    return next_step(rules, s).text


def _list(seats: tuple[int, ...]) -> str:
    return ", ".join(str(x) for x in seats)


def wrong(state: GameState, rules: RuleSet, action: Action) -> WrongPhase:
    step = next_step(rules, state)
    return WrongPhase(f"{action.kind} is not possible now: expected {step.text}")
