import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mafiavision.rules.actions import MemberShot, ShotKind
from mafiavision.rules.errors import NotAllowed, PlayerOut
from mafiavision.rules.hunt import check_observations, resolve_hunt
from mafiavision.rules.state import HuntVerdict, MissReason

S = MemberShot.shot


def miss(reason: MissReason, seats: tuple[int, ...]) -> HuntVerdict:
    return HuntVerdict("m", None, reason, seats)


def obs(seat: int, kind: str) -> MemberShot:
    return MemberShot(seat=seat, kind=ShotKind(kind))


# RULES.md shared mechanic: a hit needs every living member to shoot the same number once.
@pytest.mark.parametrize(
    ("shots", "out", "expected"),
    [
        ((S(3, 7), S(5, 7), S(9, 7)), set(), HuntVerdict("m", 7)),
        ((S(3, 7),), set(), HuntVerdict("m", 7)),  # a lone survivor hits alone
        ((S(3, 7), S(5, 8), S(9, 7)), set(), miss(MissReason.DIFFERENT_TARGETS, (3, 5, 9))),
        ((S(3, 7), obs(5, "no_shot"), S(9, 7)), set(), miss(MissReason.NO_SHOT, (5,))),
        ((S(3, 7), obs(5, "between"), S(9, 7)), set(), miss(MissReason.BETWEEN, (5,))),
        ((obs(3, "multiple"), S(5, 7)), set(), miss(MissReason.MULTIPLE, (3,))),
        ((S(3, 7), obs(5, "not_seen")), set(), miss(MissReason.NOT_SEEN, (5,))),
        ((obs(9, "between"), obs(3, "not_seen")), set(), miss(MissReason.NOT_SEEN, (3, 9))),
        ((S(3, 7), S(5, 7)), {7}, miss(MissReason.TARGET_OUT, (7,))),
        ((S(3, 3), S(5, 3)), set(), HuntVerdict("m", 3)),  # shooting a fellow member is a hit
    ],
)
def test_resolve_hunt(shots: tuple[MemberShot, ...], out: set[int], expected: HuntVerdict) -> None:
    assert resolve_hunt("m", shots, frozenset(out)) == expected


@pytest.mark.parametrize(
    ("shots", "out", "calls_dead", "error", "message"),
    [
        ((S(3, 7),), set(), True, NotAllowed, "no observation for seat 5"),
        ((S(3, 7), S(5, 7), S(4, 7)), set(), True, NotAllowed, "seat 4 is not a member of m"),
        ((S(3, 7), S(5, 7), S(6, 7)), {6}, True, PlayerOut, "seat 6 is out and cannot shoot"),
        ((S(3, 7), S(3, 7), S(5, 7)), set(), True, NotAllowed, "two observations for seat 3"),
        ((S(3, 11), S(5, 11)), set(), True, NotAllowed, "seats are 1..10"),
        ((S(3, 8), S(5, 8)), {8}, False, NotAllowed, "does not call it"),
    ],
)
def test_invalid_observations(
    shots: tuple[MemberShot, ...], out: set[int], calls_dead: bool, error: type, message: str
) -> None:
    with pytest.raises(error, match=message):
        check_observations(
            "m", (3, 5), shots, seats=10, out=frozenset(out), calls_dead_seats=calls_dead
        )


def test_a_target_is_given_exactly_for_a_shot() -> None:
    with pytest.raises(ValueError, match="exactly for kind 'shot'"):
        MemberShot(seat=3, kind=ShotKind.SHOT)
    with pytest.raises(ValueError, match="exactly for kind 'shot'"):
        MemberShot(seat=3, kind=ShotKind.BETWEEN, target=4)


def test_verdict_description() -> None:
    assert HuntVerdict("mafia", 7).describe() == "mafia: hit on seat 7"
    miss = HuntVerdict("mafia", None, MissReason.BETWEEN, (5,))
    assert miss.describe() == "mafia: miss (between: seat 5)"


observations = st.lists(
    st.tuples(st.sampled_from(list(ShotKind)), st.integers(1, 10)), min_size=1, max_size=4
)


@settings(max_examples=300, deadline=None)
@given(observed=observations, out=st.frozensets(st.integers(1, 10), max_size=4))
def test_hit_exactly_when_all_shoot_the_same_living_seat(
    observed: list[tuple[ShotKind, int]], out: frozenset[int]
) -> None:
    shots = [
        MemberShot(seat=20 + i, kind=kind, target=target if kind == ShotKind.SHOT else None)
        for i, (kind, target) in enumerate(observed)
    ]
    verdict = resolve_hunt("m", shots, out)
    targets = {s.target for s in shots}
    clean = all(s.kind == ShotKind.SHOT for s in shots)
    should_hit = clean and len(targets) == 1 and not targets & out
    assert verdict.hit is should_hit
    assert (verdict.reason is None) is should_hit
    if not should_hit:
        assert verdict.seats  # a miss always names who (or what) caused it
