"""Table tests of the night arbiter: every hunt outcome, every doubt, checks, orders, hands."""

from __future__ import annotations

import pytest

from mafiavision.audio.callout import NumberWindow
from mafiavision.night.arbiter import (
    HuntInput,
    frame_index,
    judge_hunt,
    locate,
    read_check,
    read_orders,
    read_raised_hand,
)
from mafiavision.vision.orders import Orders
from mafiavision.vision.shots import ShotEvent
from tests.night.helpers import number, shot, window


def count(n: int = 10, step: float = 1.0, t0: float = 10.0,
          low: int | None = None) -> list[NumberWindow]:
    """Windows for numbers 1..n, one per ``step`` seconds; ``low``: that window is uncertain."""
    return [
        window(k, t0 + (k - 1) * step, t0 + k * step, t0 + (k - 1) * step + 0.05,
               0.4 if k == low else 0.95)
        for k in range(1, n + 1)
    ]


def hunt(shots: list[ShotEvent], members=(2, 5, 9), seen=None, windows=None, gap=0.12,
         word_ends=None) -> HuntInput:
    return HuntInput(
        group="mafia", members=tuple(members), shots=shots,
        windows=count() if windows is None else windows, between_gap=gap,
        seen={m: 1.0 for m in members} if seen is None else seen,
        word_ends=word_ends or {},
        frame_times=[i / 25 for i in range(25 * 30)],
    )


WORD_ENDS = {k: 10 + k - 0.6 for k in range(1, 11)}
#: A slow count (a number every 2 s): number k's word is said from its onset 10 + 2(k - 1) + 0.05
#: for 0.4 s, then a 1.6 s pause; the pause rule's point is 0.45 × 1.6 = 0.72 s after the word.
SLOW_ENDS = {k: 10 + 2 * (k - 1) + 0.45 for k in range(1, 11)}


# Number k's window is [10 + k - 1, 10 + k): its middle is 9.5 + k.
def mid(k: int) -> float:
    return 9.5 + k


HUNTS = [
    # (name, shots, extra kwargs, expected hit, expected per-member (observation, reason), asks)
    ("all on 7", [shot(2, mid(7)), shot(5, mid(7) + 0.1), shot(9, mid(7) - 0.1)], {}, 7,
     [("shot", "shot on 7")] * 3, False),
    ("one on another number", [shot(2, mid(7)), shot(5, mid(7)), shot(9, mid(4))], {}, None,
     [("shot", "shot on 7"), ("shot", "shot on 7"), ("shot", "another number (4)")], False),
    ("no majority: all another number", [shot(2, mid(1)), shot(5, mid(3)), shot(9, mid(4))],
     {}, None, [("shot", "another number (1)"), ("shot", "another number (3)"),
                ("shot", "another number (4)")], False),
    ("one between numbers beside the others' number asks: on 7 or between is a judgement",
     [shot(2, mid(7)), shot(5, mid(7)), shot(9, 16.95)], {}, None,
     [("shot", "shot on 7"), ("shot", "shot on 7"), ("between", "between numbers")],
     True),
    ("one between numbers early before the others' number asks",
     [shot(2, mid(8)), shot(5, mid(8)), shot(9, 16.95)], {}, None,
     [("shot", "shot on 8"), ("shot", "shot on 8"), ("between", "between numbers")],
     True),
    ("one between numbers far from the others' number is a plain miss",
     [shot(2, mid(7)), shot(5, mid(7)), shot(9, 13.95)], {}, None,
     [("shot", "shot on 7"), ("shot", "shot on 7"), ("between", "between numbers")],
     False),
    ("one no shot asks: a hit if it was missed", [shot(2, mid(7)), shot(5, mid(7))], {}, None,
     [("shot", "shot on 7"), ("shot", "shot on 7"), ("no_shot", "no shot")], True),
    ("no shot beside disagreeing shots", [shot(2, mid(7)), shot(5, mid(4))], {}, None,
     [("shot", "another number (7)"), ("shot", "another number (4)"), ("no_shot", "no shot")],
     False),
    ("nobody shot", [], {}, None, [("no_shot", "no shot")] * 3, False),
    ("two shots, one on the agreed number, asks: a hit if one was false",
     [shot(2, mid(7)), shot(5, mid(7)), shot(9, mid(7)), shot(9, mid(8))], {},
     None, [("shot", "shot on 7"), ("shot", "shot on 7"), ("multiple", "two shots")], True),
    ("two shots, neither on the agreed number",
     [shot(2, mid(7)), shot(5, mid(7)), shot(9, mid(3)), shot(9, mid(8))], {},
     None, [("shot", "shot on 7"), ("shot", "shot on 7"), ("multiple", "two shots")], False),
    ("two shots beside disagreeing shots",
     [shot(2, mid(7)), shot(5, mid(4)), shot(9, mid(7)), shot(9, mid(8))], {}, None,
     [("shot", "another number (7)"), ("shot", "another number (4)"),
      ("multiple", "two shots")], False),
    ("hand not seen asks", [shot(2, mid(7)), shot(5, mid(7))],
     {"seen": {2: 1.0, 5: 1.0, 9: 0.1}}, None,
     [("shot", "shot on 7"), ("shot", "shot on 7"), ("not_seen", "hand not seen")], True),
    ("no shot but hand seen little asks", [], {"seen": {2: 1.0, 5: 0.6, 9: 1.0}}, None,
     [("no_shot", "no shot")] * 3, True),
    ("weak shot asks", [shot(2, mid(7)), shot(5, mid(7), confidence=0.5), shot(9, mid(7))], {},
     7, [("shot", "shot on 7")] * 3, True),
    ("uncertain window asks", [shot(2, mid(7)), shot(5, mid(7)), shot(9, mid(7))],
     {"windows": count(low=7)}, 7, [("shot", "shot on 7")] * 3, True),
    ("near a boundary asks", [shot(2, mid(7)), shot(5, 16.85), shot(9, mid(7))], {}, 7,
     [("shot", "shot on 7")] * 3, True),
    # Number 8's window starts at 17.0, its word at 17.05: a squeeze peaking as "eight" is
    # being said is on 8, one just before the word is between (both close to it: asked).
    ("squeeze as the next number begins counts for it",
     [shot(2, 17.07), shot(5, mid(8)), shot(9, mid(8))], {}, 8,
     [("shot", "shot on 8")] * 3, True),
    ("squeeze after the boundary but before the word is between",
     [shot(2, 17.03), shot(5, mid(8)), shot(9, mid(8))], {}, None,
     [("between", "between numbers"), ("shot", "shot on 8"), ("shot", "shot on 8")], True),
    ("before the count asks", [shot(2, 5.0), shot(5, mid(7)), shot(9, mid(7))], {}, None,
     [("between", "between numbers"), ("shot", "shot on 7"), ("shot", "shot on 7")],
     True),
    ("no windows asks", [shot(2, mid(7))], {"members": (2,), "windows": []}, None,
     [("between", "between numbers")], True),
    ("no windows and no shots asks", [], {"members": (2,), "windows": []}, None,
     [("no_shot", "no shot")], True),
    ("non-member shot ignored", [shot(2, mid(3)), shot(5, mid(3)), shot(9, mid(3)),
                                 shot(4, mid(6))], {}, 3, [("shot", "shot on 3")] * 3, False),
    # Number k's word is said from 10 + k - 1 to 10 + k - 0.6 (0.4 s), then a 0.6 s pause.
    # The pause rule's point: 0.45 of the 0.65 s from the word's end to the next onset, 16.69.
    ("shot just after the word counts", [shot(2, 16.45), shot(5, 16.5), shot(9, 16.42)],
     {"word_ends": WORD_ENDS}, 7, [("shot", "shot on 7")] * 3, False),
    ("shot late in the pause is between, and asked",
     [shot(2, 16.55), shot(5, 16.6), shot(9, 16.78)], {"word_ends": WORD_ENDS}, None,
     [("shot", "shot on 7"), ("shot", "shot on 7"), ("between", "between numbers")],
     True),
    ("shot at the pause threshold asks", [shot(2, 16.5), shot(5, 16.5), shot(9, 16.68)],
     {"word_ends": WORD_ENDS}, 7, [("shot", "shot on 7")] * 3, True),
    ("slow count: late in the word's own share of a long pause counts",
     [shot(2, 22.5), shot(5, 22.6), shot(9, 22.9)],
     {"windows": count(step=2.0), "word_ends": SLOW_ENDS}, 7, [("shot", "shot on 7")] * 3, False),
    ("slow count: past the pause's share is between, and asked",
     [shot(2, 22.5), shot(5, 22.6), shot(9, 23.3)],
     {"windows": count(step=2.0), "word_ends": SLOW_ENDS}, None,
     [("shot", "shot on 7"), ("shot", "shot on 7"), ("between", "between numbers")], True),
    ("pause rule never applies to the last number", [shot(2, 19.9), shot(5, 19.9),
                                                     shot(9, 19.9)],
     {"word_ends": WORD_ENDS}, 10, [("shot", "shot on 10")] * 3, False),
    ("weak extra squeeze is left out but asked", [shot(2, mid(7)), shot(5, mid(7)),
                                                  shot(9, mid(3), confidence=0.5),
                                                  shot(9, mid(7))], {}, 7,
     [("shot", "shot on 7")] * 3, True),
    ("a weak squeeze on a sure one's number is a double, and asked",
     [shot(2, mid(7)), shot(5, mid(7)), shot(9, mid(7) - 0.3, confidence=0.59),
      shot(9, mid(7) + 0.15)], {}, None,
     [("shot", "shot on 7"), ("shot", "shot on 7"), ("multiple", "two shots")], True),
    ("a weak squeeze before the count is left out, and asked",
     [shot(2, mid(7)), shot(5, mid(7)), shot(9, 9.5, confidence=0.5), shot(9, mid(7))], {}, 7,
     [("shot", "shot on 7")] * 3, True),
    ("two weak squeezes stay two shots", [shot(2, mid(7)), shot(5, mid(7)),
                                          shot(9, mid(3), confidence=0.5),
                                          shot(9, mid(7), confidence=0.6)], {}, None,
     [("shot", "shot on 7"), ("shot", "shot on 7"), ("multiple", "two shots")],
     True),
    ("lone survivor hits", [shot(5, mid(10))], {"members": (5,)}, 10,
     [("shot", "shot on 10")], False),
]


@pytest.mark.parametrize(("name", "shots", "kwargs", "hit", "members", "asks"), HUNTS,
                         ids=[h[0] for h in HUNTS])
def test_judge_hunt(name, shots, kwargs, hit, members, asks) -> None:
    verdict = judge_hunt(hunt(shots, **kwargs))
    assert verdict.hit == hit
    got = [(f.observation.value, f.reason) for f in verdict.findings]
    assert got == members
    assert verdict.needs_moderator is asks
    if asks:
        assert verdict.confidence < 0.7 or verdict.hit is None
    else:
        assert verdict.confidence >= 0.7


def test_hunt_evidence_has_times_frames_and_windows() -> None:
    verdict = judge_hunt(hunt([shot(2, 16.5), shot(5, 16.52), shot(9, 16.48)]))
    first = verdict.findings[0].shots[0]
    assert (first.t, first.frame, first.window_seat) == (16.5, round(16.5 * 25), 7)
    assert [w.seat for w in verdict.windows] == list(range(1, 11))
    assert verdict.summary == "mafia: hit on seat 7"


def test_hunt_without_members_is_refused() -> None:
    with pytest.raises(ValueError, match="no living member"):
        judge_hunt(hunt([], members=()))


@pytest.mark.parametrize(
    ("t", "seat", "between"),
    [(10.5, 1, False), (10.95, None, True), (11.03, None, True), (11.05, 2, False),
     (11.08, 2, False), (11.2, 2, False), (10.01, 1, False), (19.99, 10, False),
     (20.5, None, True), (9.0, None, True)],
)
def test_locate(t: float, seat: int | None, between: bool) -> None:
    # count(): number k's window starts at 10 + k - 1, its word 0.05 s later.
    where = locate(t, count(), 0.1)
    assert (where.seat, where.between) == (seat, between)


#: Windows that start at their word's onset (lead 0, as the analysis and the live night make
#: them): the between-gap of 0.15 s reaches back into the pause only.
ONSET_WINDOWS = [window(k, 10.0 + k - 1, 10.0 + k, 10.0 + k - 1) for k in range(1, 6)]


@pytest.mark.parametrize(
    ("t", "seat", "between"),
    [(10.5, 1, False), (10.84, 1, False), (10.86, None, True), (10.99, None, True),
     (11.0, 2, False), (11.09, 2, False), (11.14, 2, False), (13.9, None, True)],
)
def test_locate_gap_ends_at_the_next_word(t: float, seat: int | None, between: bool) -> None:
    where = locate(t, ONSET_WINDOWS, 0.15)
    assert (where.seat, where.between) == (seat, between)


#: A count of the living seats 1, 3, 4 (windows from their word's onset; the last one shorter).
LIVING_WINDOWS = [window(1, 1.0, 2.0, 1.0), window(3, 2.0, 3.0, 2.0), window(4, 3.0, 3.8, 3.0)]


@pytest.mark.parametrize(
    ("t", "seat", "between"),
    [
        (0.5, None, True),  # before the count
        (1.0, 1, False),
        (1.5, 1, False),
        (1.9, None, True),
        (1.95, None, True),
        (2.0, 3, False),  # once the later number's word began, a shot counts for it
        (2.1, 3, False),
        (2.2, 3, False),
        (2.9, None, True),
        (3.7, 4, False),  # the last window's end is not a boundary between two numbers
        (3.9, None, True),  # after the count
    ],
)
def test_locate_in_a_count_of_living_seats(t: float, seat: int | None, between: bool) -> None:
    where = locate(t, LIVING_WINDOWS, 0.15)
    assert (where.seat, where.between) == (seat, between)


@pytest.mark.parametrize(("times", "t", "index"),
                         [([], 1.0, None), ([0.0, 0.04, 0.08], 0.05, 1), ([0.0, 0.04], 9.0, 1),
                          ([0.5, 0.6], 0.0, 0)])
def test_frame_index(times: list[float], t: float, index: int | None) -> None:
    assert frame_index(times, t) == index


CHECKS = [
    ("clear", [number(3, 1, 2, 7)], 7, "Is seat 7 the Sheriff?", False),
    ("same number twice", [number(3, 1, 2, 7), number(3, 3, 4, 7)], 7,
     "Is seat 7 the Sheriff?", False),
    ("weak reading asks", [number(3, 1, 2, 7, 0.4)], 7, "Is seat 7 the Sheriff?", True),
    ("nothing read asks", [], None, "Which seat did seat 3 show, looking for the Sheriff?", True),
    ("two numbers ask", [number(3, 1, 2, 7), number(3, 3, 4, 8)], None,
     "Which seat did seat 3 show, looking for the Sheriff?", True),
    ("own seat is not a target", [number(3, 1, 2, 3)], None,
     "Which seat did seat 3 show, looking for the Sheriff?", True),
    ("other seats ignored", [number(4, 1, 2, 9), number(3, 1, 2, 6)], 6,
     "Is seat 6 the Sheriff?", False),
    ("the open hand rose first", [number(3, 1, 2, 5), number(3, 2, 4, 7)], 7,
     "Is seat 7 the Sheriff?", True),
    ("the other hand stayed up", [number(3, 1, 3, 8), number(3, 3, 4, 3)], 8,
     "Is seat 8 the Sheriff?", True),
    ("a hand lost for a while", [number(3, 1, 2, 10), number(3, 2, 3, 5), number(3, 3, 4, 10)],
     10, "Is seat 10 the Sheriff?", True),
    ("not a hand of the two", [number(3, 1, 2, 4), number(3, 2, 4, 7)], None,
     "Which seat did seat 3 show, looking for the Sheriff?", True),
    ("a second hand passed by", [number(3, 1, 2, 4), number(3, 2, 3, 9), number(3, 3, 4, 4)],
     None, "Which seat did seat 3 show, looking for the Sheriff?", True),
    ("two two-hand numbers", [number(3, 1, 2, 5), number(3, 2, 3, 6), number(3, 3, 4, 9)],
     None, "Which seat did seat 3 show, looking for the Sheriff?", True),
]


@pytest.mark.parametrize(("name", "numbers", "target", "question", "asks"), CHECKS,
                         ids=[c[0] for c in CHECKS])
def test_read_check(name, numbers, target, question, asks) -> None:
    valid = [s for s in range(1, 11) if s != 3]
    reading = read_check(3, "the Sheriff", numbers, valid)
    assert (reading.target, reading.question, reading.needs_moderator) == (target, question, asks)


def test_read_check_takes_the_joined_number_of_a_twelve_seat_table() -> None:
    numbers = [number(3, 1, 2, 1), number(3, 2.5, 3.5, 2)]
    reading = read_check(3, "the Commissar", numbers, [s for s in range(1, 13) if s != 3],
                         joined=12)
    assert (reading.target, reading.question, reading.needs_moderator) == (
        12, "Is seat 12 the Commissar?", False)
    reading = read_check(3, "the Commissar", numbers, [s for s in range(1, 13) if s != 3])
    assert (reading.target, reading.needs_moderator) == (None, True)


ORDERS = [
    ("shown twice alike", Orders(((4, 7, 2), (4, 7, 2)), (4, 7, 2), True, 0.95), (4, 7, 2),
     False),
    ("shown once asks", Orders(((4, 7, 2),), (4, 7, 2), False, 0.95), (4, 7, 2), True),
    ("passes differ: the proposal, asked", Orders(((4, 7, 2), (4, 8, 2)), (4, 7, 2), False, 0.9),
     (4, 7, 2), True),
    ("nothing read", Orders((), (), False, 0.0), None, True),
    ("too few asks", Orders(((4, 7), (4, 7)), (4, 7), True, 0.95), (4, 7), True),
    ("too many asks", Orders(((4, 7, 2, 9), (4, 7, 2, 9)), (4, 7, 2, 9), True, 0.95),
     (4, 7, 2, 9), True),
    ("weak asks", Orders(((4, 7, 2), (4, 7, 2)), (4, 7, 2), True, 0.5), (4, 7, 2), True),
    ("own seat asks", Orders(((1, 7, 2), (1, 7, 2)), (1, 7, 2), True, 0.95), (1, 7, 2), True),
]


@pytest.mark.parametrize(("name", "read", "expected", "asks"), ORDERS,
                         ids=[o[0] for o in ORDERS])
def test_read_orders(name, read, expected, asks) -> None:
    reading = read_orders(1, read, list(range(2, 11)), count=3)
    assert (reading.orders, reading.needs_moderator) == (expected, asks)
    assert reading.passes == read.passes


def test_orders_where_the_rules_show_none_are_asked() -> None:
    reading = read_orders(1, Orders(((4, 7), (4, 7)), (4, 7), True, 0.95), [2, 3, 4, 7], count=0)
    assert reading.orders == (4, 7)
    assert reading.doubts == ("seat 1 showed 2 orders; the rules take none",)


@pytest.mark.parametrize(("seen", "raised", "asks"),
                         [(0.95, True, False), (0.0, False, False), (0.5, True, True),
                          (0.4, False, True)])
def test_read_raised_hand(seen: float, raised: bool, asks: bool) -> None:
    reading = read_raised_hand(8, seen)
    assert (reading.raised, reading.needs_moderator) == (raised, asks)


def test_unanimous_shot_on_a_seat_already_out_is_a_miss() -> None:
    shots = [shot(2, mid(4)), shot(5, mid(4)), shot(9, mid(4))]
    verdict = judge_hunt(HuntInput("mafia", (2, 5, 9), shots, count(), 0.12,
                                   {2: 1.0, 5: 1.0, 9: 1.0}, out=frozenset({4})))
    assert (verdict.hit, verdict.miss_reason) == (None, "target_out")
    assert [s.target for s in verdict.shots] == [4, 4, 4]


def test_a_squeeze_beside_the_agreed_number_is_put_to_the_moderator() -> None:
    verdict = judge_hunt(hunt([shot(2, mid(7)), shot(5, 16.95), shot(9, mid(7))]))
    assert verdict.hit is None
    assert verdict.questions == (
        "the others shot on 7; seat 5 squeezed between numbers beside 7: check the strip "
        "(a hit if each squeezed once on 7)",
    )
