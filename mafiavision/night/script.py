"""What the moderator does now, read from the game state: the live session's script.

Pure: from the rules engine's :class:`~mafiavision.rules.state.GameState` and the
:class:`~mafiavision.rules.rulesets.RuleSet` to a :class:`Step` — which group hunts, which leader
checks, whose speech it is — and the seats the camera must watch for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: Step kinds the camera records (the others are entered on the screen).
CAMERA_STEPS = frozenset({"meet", "leader", "hunt", "check"})


@dataclass(frozen=True)
class Step:
    kind: str  # deal, meet, leader, hunt, check, last_word, speech, vote, all_leave, over
    label: str
    team: str | None = None
    seats: tuple[int, ...] = ()  # the seats the camera watches
    leader: int | None = None
    orders: int = 0  # meet: how many nights of orders the leader shows
    called: tuple[int, ...] = ()  # hunt: the seat numbers the moderator calls, in order
    looking_for: str = ""  # check: what the leader looks for ("the Sheriff")
    finds: tuple[str, ...] = ()  # check: roles for which the moderator nods

    @property
    def camera(self) -> bool:
        return self.kind in CAMERA_STEPS

    def key(self, state: Any) -> tuple[Any, ...]:
        """Identifies this step in this game position (a new key opens a new recording)."""
        return (self.kind, self.team, state.night, state.day, len(state.removed),
                len(state.steps), len(state.speakers), len(state.ballot))


def _title(role: str) -> str:
    return role.replace("_", " ").title()


def looking_for(finds: tuple[str, ...]) -> str:
    names = [_title(r) for r in finds]
    if len(names) == 1:
        return f"the {names[0]}"
    return " or ".join(names)


def _leader(state: Any, team_spec: Any, among: Any) -> int | None:
    if team_spec.leader is None:
        return None
    for seat in state.members(team_spec.name, among=among):
        if state.role_of(seat) == team_spec.leader:
            return seat
    return None


def current_step(state: Any, rules: Any) -> Step:
    phase = state.phase.value
    if state.outcome is not None or phase == "over":
        return Step("over", "The game is over")
    if phase == "deal":
        return Step("deal", "Enter the cards as drawn")
    if phase in ("night_zero", "night") and state.steps:
        step = state.steps[0]
        spec = rules.team(step.team)
        among = state.acting or None
        members = state.members(step.team, among=among)
        leader = _leader(state, spec, among)
        if step.kind == "meet":
            orders = next((z.orders for z in rules.night_zero
                           if z.kind == "meet" and z.team == step.team), 0)
            return Step("meet", f"Night zero: {step.team} meet"
                        + (f" — the leader shows {orders} orders twice" if orders else ""),
                        team=step.team, seats=(leader,) if orders and leader else (),
                        leader=leader, orders=orders)
        if step.kind == "leader":
            return Step("leader", f"Night zero: the {_title(spec.leader or '')} raises a hand",
                        team=step.team, seats=(leader,) if leader else (), leader=leader)
        if step.kind == "hunt":
            called = (tuple(range(1, state.seats + 1)) if rules.calls_dead_seats
                      else state.alive())
            return Step("hunt", f"Night {state.night}: {step.team} goes hunting",
                        team=step.team, seats=members, called=called)
        if step.kind == "check":
            finds = tuple(spec.leader_finds)
            return Step("check", f"Night {state.night}: the {_title(spec.leader or '')} checks",
                        team=step.team, seats=(leader,) if leader else (), leader=leader,
                        looking_for=looking_for(finds), finds=finds)
    if phase == "last_words" and state.last_words:
        seat = state.last_words[0]
        return Step("last_word", f"Seat {seat}: last word", seats=(seat,), leader=seat)
    if phase == "speeches" and state.speakers:
        seat = state.speakers[0]
        return Step("speech", f"Day {state.day}: seat {seat} speaks", leader=seat)
    if phase == "voting" and state.ballot:
        seat = state.ballot[0]
        return Step("vote", f"Day {state.day}: who votes for seat {seat}?", leader=seat)
    if phase == "all_leave_vote":
        tied = ", ".join(map(str, state.tied))
        return Step("all_leave", f"Day {state.day}: do seats {tied} all leave?")
    raise ValueError(f"no step for phase {phase!r}")
