"""The shared night mechanic: per-member observations of a hunt -> hit or miss, with the reason.

RULES.md (shared mechanic): every living member of the group raises a hand with a finger gun and
squeezes once while the moderator says the target's number. If every living member shoots the
same number, that seat is hit. If anyone shoots another number, between two numbers, more than
once, not at all, or his hand is not seen, it is a miss.
"""

from __future__ import annotations

from collections.abc import Iterable

from mafiavision.rules.actions import MemberShot, ShotKind
from mafiavision.rules.errors import NotAllowed, PlayerOut
from mafiavision.rules.state import HuntVerdict, MissReason, reason_of_kind


def check_observations(
    team: str,
    members: tuple[int, ...],
    shots: Iterable[MemberShot],
    *,
    seats: int,
    out: frozenset[int],
    calls_dead_seats: bool,
) -> None:
    """Raise unless ``shots`` holds exactly one valid observation per seat of ``members``."""
    seen: set[int] = set()
    for shot in shots:
        if shot.seat in seen:
            raise NotAllowed(f"hunt of {team}: two observations for seat {shot.seat}")
        seen.add(shot.seat)
        if shot.seat not in members:
            if shot.seat in out:
                raise PlayerOut(f"hunt of {team}: seat {shot.seat} is out and cannot shoot")
            raise NotAllowed(
                f"hunt of {team}: seat {shot.seat} is not a member of {team} "
                f"(the shooters are {_seats(members)})"
            )
        if shot.target is not None:
            if not 1 <= shot.target <= seats:
                raise NotAllowed(
                    f"hunt of {team}: seat {shot.seat} shot on {shot.target}, "
                    f"but seats are 1..{seats}"
                )
            if shot.target in out and not calls_dead_seats:
                raise NotAllowed(
                    f"hunt of {team}: seat {shot.target} is out and the moderator does not "
                    f"call it, so seat {shot.seat} cannot have shot on it"
                )
    missing = [s for s in members if s not in seen]
    if missing:
        raise NotAllowed(f"hunt of {team}: no observation for seat {_seats(tuple(missing))}")


def resolve_hunt(team: str, shots: Iterable[MemberShot], out: frozenset[int]) -> HuntVerdict:
    """The verdict of a hunt whose observations passed :func:`check_observations`.

    A miss names its reason and the seats at fault: the members who did not make a clean single
    shot (reason of the first of them in seat order), else all members when their targets differ.
    """
    ordered = sorted(shots, key=lambda s: s.seat)
    faulty = [s for s in ordered if s.kind != ShotKind.SHOT]
    if faulty:
        return HuntVerdict(
            team, None, reason_of_kind(faulty[0].kind), tuple(s.seat for s in faulty)
        )
    targets = {s.target for s in ordered}
    if len(targets) > 1:
        return HuntVerdict(team, None, MissReason.DIFFERENT_TARGETS, tuple(s.seat for s in ordered))
    (target,) = targets
    assert target is not None
    if target in out:
        return HuntVerdict(team, None, MissReason.TARGET_OUT, (target,))
    return HuntVerdict(team, target)


def _seats(seats: tuple[int, ...]) -> str:
    return ", ".join(str(s) for s in seats) or "none"
