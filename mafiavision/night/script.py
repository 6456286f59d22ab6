"""What the moderator does now: the rules engine's next step, with what the camera must watch.

The rules engine says which action comes next (``Game.next_step()``: the phase, the action kind,
who acts, a text). For the night steps this adds what the live session needs: the seats the
tracker must follow, the leader whose fingers are read, how many orders the Don shows, the seat
numbers the moderator calls during a hunt, and what a check looks for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: Step kinds the camera records (the others are entered on the screen).
CAMERA_STEPS = frozenset({"meet", "leader_shown", "hunt", "check"})


@dataclass(frozen=True)
class Step:
    kind: str  # the rules action expected next (deal, meet, hunt, speech, ...); "over" at the end
    label: str
    team: str | None = None
    seats: tuple[int, ...] = ()  # the seats the camera watches
    leader: int | None = None  # whose fingers are read / who speaks / who is voted on
    orders: int = 0  # meet: how many nights of orders the leader shows
    called: tuple[int, ...] = ()  # hunt: the seat numbers the moderator calls, in order
    looking_for: str = ""  # check: what the leader looks for ("the Sheriff")

    @property
    def camera(self) -> bool:
        return self.kind in CAMERA_STEPS and bool(self.seats)


def looking_for(finds: tuple[str, ...]) -> str:
    names = [r.replace("_", " ").title() for r in finds]
    return f"the {names[0]}" if len(names) == 1 else " or ".join(names)


def current_step(game: Any) -> Step:
    nxt = game.next_step()
    kind = nxt.action or "over"
    label = nxt.text[:1].upper() + nxt.text[1:]
    rules = game.rules
    if kind == "meet":
        orders = next((z.orders for z in rules.night_zero
                       if z.kind == "meet" and z.team == nxt.team), 0)
        leader = game.leader_seat(nxt.team)
        if orders:
            label += f" — the leader (seat {leader}) shows {orders} orders, twice"
        return Step(kind, label, nxt.team, (leader,) if orders and leader else (), leader, orders)
    if kind == "leader_shown":
        leader = game.leader_seat(nxt.team)
        return Step(kind, label, nxt.team, (leader,) if leader else (), leader)
    if kind == "hunt":
        return Step(kind, label, nxt.team, tuple(nxt.seats), called=game.called_seats())
    if kind == "check":
        leader = nxt.seats[0]
        finds = tuple(rules.team(nxt.team).leader_finds)
        return Step(kind, label, nxt.team, (leader,), leader, looking_for=looking_for(finds))
    if kind == "vote":
        return Step(kind, label, leader=nxt.candidate)
    if kind in ("speech", "last_word"):
        return Step(kind, label, leader=nxt.seats[0])
    return Step(kind, label)
