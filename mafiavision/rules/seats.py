"""Helpers about seats shared by the night and day flows: who holds which card, who acts."""

from __future__ import annotations

from dataclasses import replace

from mafiavision.rules.errors import NotAllowed, PlayerOut
from mafiavision.rules.rulesets import RuleSet
from mafiavision.rules.state import Cause, GameState, NightStep, Phase, Removal


def leader_seat(rules: RuleSet, state: GameState, team: str) -> int | None:
    """The seat holding ``team``'s leader card (alive or not), or None without a leader."""
    title = rules.team(team).leader
    if title is None or not state.roles:
        return None
    return state.roles.index(title) + 1


def check_answer(rules: RuleSet, state: GameState, seat: int, target: int) -> bool:
    """The true answer to the check of leader ``seat`` on ``target`` (nod = True)."""
    return rules.finds(state.role_of(seat), state.role_of(target))


def called_seats(rules: RuleSet, state: GameState) -> tuple[int, ...]:
    """The seat numbers the moderator calls during a hunt, in order."""
    if rules.calls_dead_seats:
        return tuple(range(1, state.seats + 1))
    return state.alive()


def check_seat(state: GameState, seat: int, what: str) -> None:
    if not 1 <= seat <= state.seats:
        raise NotAllowed(f"{what}: seat {seat} does not exist (seats are 1..{state.seats})")
    if not state.is_alive(seat):
        raise PlayerOut(f"{what}: seat {seat} is out of the game")


def remove(state: GameState, seats: list[int], cause: Cause) -> GameState:
    day = None if state.phase in (Phase.NIGHT, Phase.NIGHT_ZERO) else state.day
    removals = tuple(Removal(s, cause, day, state.night) for s in seats)
    return replace(state, removed=state.removed + removals)


def lose_life(state: GameState, seat: int) -> tuple[GameState, bool]:
    """Take one life from ``seat``; True when that was his last one."""
    lives = list(state.lives)
    lives[seat - 1] -= 1
    return replace(state, lives=tuple(lives)), lives[seat - 1] == 0


def step_actors(rules: RuleSet, s: GameState, step: NightStep) -> tuple[int, ...]:
    """Who acts in a night step (empty: the step is skipped)."""
    if step.kind in ("meet", "hunt"):
        return s.members(step.team, s.acting if step.kind == "hunt" else None)
    seat = leader_seat(rules, s, step.team)
    pool = s.acting if step.kind == "check" else frozenset(s.alive())
    return (seat,) if seat is not None and seat in pool else ()
