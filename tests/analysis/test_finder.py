import numpy as np
import pytest

from mafiavision.analysis.events import NumberRecord
from mafiavision.analysis.finder import (
    FinderConfig,
    HuntSpan,
    find_checks,
    find_hunts,
    find_orders,
    first_orders,
    given_checks,
    given_hunts,
    parse_spans,
    split_night_zero,
)
from mafiavision.analysis.timeline import TimelineBuilder
from mafiavision.errors import InputError

FPS = 10.0


def series(poses: dict[int, list[tuple[float, float, str]]], end: float = 60.0):
    """Per seat, (start, end, pose) stretches sampled at FPS; no hand elsewhere."""
    builder = TimelineBuilder(sorted(poses))
    for seat, stretches in poses.items():
        for t in np.arange(0.0, end, 1 / FPS):
            pose = next((p for a, b, p in stretches if a <= t < b), None)
            builder.add(seat, float(t), pose, 2 if pose == "gun" else 0, 30.0 if pose else None)
    return builder.build()


def words(start: float, n: int, step: float = 0.8) -> list[tuple[float, float]]:
    return [(start + k * step, start + k * step + 0.4) for k in range(n)]


@pytest.mark.parametrize(
    ("poses", "speech", "expected"),
    [
        # two bandits hold the gun during a count: one hunt of seats 3 and 7
        ({3: [(10, 20, "gun")], 7: [(10.5, 20.2, "gun")], 5: []}, words(11, 10),
         [(10.0, 20.1, (3, 7))]),
        # a shot breaks the pose for 0.4 s: still one hold
        ({3: [(10, 14, "gun"), (14, 14.4, "fist"), (14.4, 20, "gun")], 7: [(10, 20, "gun")]},
         words(11, 10), [(10.0, 19.9, (3, 7))]),
        # no count spoken: not a hunt
        ({3: [(10, 20, "gun")], 7: [(10, 20, "gun")]}, [], []),
        # a gun held for 1 s: too short
        ({3: [(10, 11, "gun")]}, words(10, 10), []),
        # two groups one after the other (Triad): two hunts
        ({1: [(10, 20, "gun")], 2: [(10, 20, "gun")], 8: [(21, 31, "gun")],
          9: [(21.3, 31, "gun")]},
         words(11, 10) + words(22, 10), [(10.0, 19.9, (1, 2)), (21.0, 30.9, (8, 9))]),
        # tracking loses seat 8 for 1.5 s: its early hold still belongs to the hunt
        ({2: [(6, 13, "gun")], 8: [(3.5, 6, "gun"), (7.5, 13, "gun")]}, words(4, 10),
         [(3.5, 12.9, (2, 8))]),
        # a non-bandit raising an open hand meanwhile is not a member
        ({3: [(10, 20, "gun")], 4: [(12, 15, "open")], 7: [(10, 20, "gun")]}, words(11, 10),
         [(10.0, 19.9, (3, 7))]),
        # the Don (3) raises his hand again for his check after both guns were lowered, and his
        # 2 reads as the gun: the hunt ends with the guns, not with his check
        ({3: [(10, 20, "gun"), (22, 26, "gun")], 7: [(10, 20, "gun")]}, words(11, 10),
         [(10.0, 19.9, (3, 7))]),
        # tracking loses seat 8 for 1 s while seat 2 still holds the gun: one hunt to the end
        ({2: [(3, 16, "gun")], 8: [(3, 10, "gun"), (11, 15, "gun")]}, words(4, 10),
         [(3.0, 15.9, (2, 8))]),
        # a lone bandit: a second hold cannot be told from a lost hand, so it stays in the hunt
        ({3: [(10, 20, "gun"), (22, 26, "gun")]}, words(11, 10), [(10.0, 25.9, (3,))]),
    ],
)
def test_find_hunts(poses, speech, expected) -> None:
    found = find_hunts(series(poses), speech, n_seats=10)
    got = [(round(h.start, 1), round(h.end, 1), h.members) for h in found]
    assert got == expected


def test_vision_only_hunts_have_half_confidence() -> None:
    found = find_hunts(series({3: [(10, 20, "gun")]}), None, n_seats=10)
    assert [(h.members, h.confidence) for h in found] == [((3,), 0.5)]


def test_given_hunt_reads_members_from_the_poses() -> None:
    s = series({3: [(10, 20, "gun")], 4: [(10, 12, "gun")], 7: [(9, 21, "gun")]})
    assert given_hunts(s, [(10.0, 20.0)]) == [HuntSpan(10.0, 20.0, (3, 7), 1.0, "given")]


def n(seat, start, end, value, confidence=0.9):
    return NumberRecord(seat=seat, start=start, end=end, value=value, confidence=confidence)


@pytest.mark.parametrize(
    ("numbers", "expected"),
    [
        ([n(4, 30, 32, 7)], [(4, 7)]),
        # a flicker to another value inside one showing: the value held longest wins
        ([n(4, 30, 32, 7), n(4, 32.2, 32.5, 2), n(4, 32.6, 34, 7)], [(4, 7)]),
        # two leaders, one after the other: two checks
        ([n(4, 30, 32, 7), n(9, 40, 42, 3)], [(4, 7), (9, 3)]),
        # numbers inside a hunt are not checks
        ([n(4, 12, 14, 2)], []),
    ],
)
def test_find_checks(numbers, expected) -> None:
    hunts = [HuntSpan(10, 20, (3, 7), 1.0, "found")]
    assert [(c.seat, c.value) for c in find_checks(numbers, hunts)] == expected


def shows(seat, start, values, step=2.5, pause=2.7):
    """``values`` shown one after the other (1.3 s each, ``step`` apart), twice with ``pause``
    between the passes: the Don's orders."""
    out, t = [], start
    for k in range(2):
        for v in values:
            out.append(n(seat, t, t + 1.3, v))
            t += step
        t += pause - step + 1.3 if k == 0 else 0
    return out


@pytest.mark.parametrize(
    ("numbers", "count", "orders", "checks"),
    [
        # 3, 8, 10 shown twice: one order sequence, no check
        (shows(4, 2.7, [3, 8, 10]), 3, [(4, (3, 8, 10, 3, 8, 10))], []),
        # the same with a flicker inside one show: still six shows
        ([*shows(4, 2.7, [3, 8, 10])[:1], n(4, 3.2, 3.4, 5), *shows(4, 2.7, [3, 8, 10])[1:]], 3,
         [(4, (3, 8, 10, 3, 8, 10))], []),
        # shows only 0.3 s apart (closer than the numbers of one check): still six shows
        (shows(4, 2.7, [3, 8, 10], step=1.6), 3, [(4, (3, 8, 10, 3, 8, 10))], []),
        # a rule set without orders, a Don who shows them anyway: orders, not four checks
        (shows(4, 2.7, [3, 8]), 0, [(4, (3, 8, 3, 8))], []),
        # ... but numbers that do not repeat are checks there
        ([n(4, 2.7, 4.0, 3), n(4, 5.2, 6.5, 8), n(4, 7.7, 9.0, 5), n(4, 10.2, 11.5, 1)], 0, [],
         [(4, 3), (4, 8), (4, 5), (4, 1)]),
        # a long pause (6 s) before the second pass, which starts again with the first order
        (shows(4, 2.7, [3, 8, 10], pause=6.0), 3, [(4, (3, 8, 10, 3, 8, 10))], []),
        # one leader's check then another's: never orders
        ([n(4, 30, 32, 7), n(9, 33, 35, 3), n(4, 36, 38, 2)], 3, [],
         [(4, 7), (9, 3), (4, 2)]),
        # orders, then later a check by another leader
        ([*shows(8, 2.7, [2, 5, 9]), n(3, 30, 32, 6)], 3, [(8, (2, 5, 9, 2, 5, 9))], [(3, 6)]),
    ],
)
def test_find_orders(numbers, count, orders, checks) -> None:
    found = find_orders(numbers, [], count)
    assert [(o.seat, tuple(s.value for s in o.shown)) for o in found] == orders
    assert [(c.seat, c.value) for c in find_checks(numbers, [], orders=found)] == checks


@pytest.mark.parametrize(
    ("hunts", "checks", "leaders"),
    [
        # night zero only: the Don's orders, then the Sheriff's raised hand (read as 5); with no
        # hunt after them, a later number is night zero's too
        ([], [], [(7, 5), (9, 2)]),
        # orders, the raised hand, then a hunt and a real check after it
        ([HuntSpan(60, 75, (1, 4), 1.0, "found")], [(9, 2)], [(7, 5)]),
    ],
)
def test_night_zero_has_no_checks(hunts, checks, leaders) -> None:
    numbers = [*shows(4, 2.7, [3, 8, 10]), n(7, 22, 24, 5), n(9, 80, 82, 2)]
    orders = find_orders(numbers, hunts, 3)
    kept, shown = split_night_zero(find_checks(numbers, hunts, orders=orders), orders, hunts)
    assert [(c.seat, c.value) for c in kept] == checks
    assert [(c.seat, c.value) for c in shown] == leaders


def test_without_orders_every_check_is_kept() -> None:
    found = find_checks([n(7, 22, 24, 5)], [])
    assert split_night_zero(found, [], []) == (found, [])


@pytest.mark.parametrize(
    ("hunts", "checks", "leaders"),
    [
        # a recording the deal says begins on night zero, in a rule set without orders: the
        # leaders meeting the moderator before the first hunt are shown, the check after it kept
        ([HuntSpan(60, 75, (1, 4), 1.0, "found")], [(9, 2)], [(7, 5), (3, 5)]),
        # no hunt at all: the whole recording is night zero
        ([], [], [(7, 5), (3, 5), (9, 2)]),
    ],
)
def test_a_recording_from_night_zero_has_no_checks_before_the_first_hunt(hunts, checks,
                                                                          leaders) -> None:
    numbers = [n(7, 22, 24, 5), n(3, 30, 33, 5), n(9, 80, 82, 2)]
    kept, shown = split_night_zero(find_checks(numbers, hunts), [], hunts, from_start=True)
    assert [(c.seat, c.value) for c in kept] == checks
    assert [(c.seat, c.value) for c in shown] == leaders


@pytest.mark.parametrize(
    ("meets", "hunts", "kept"),
    [
        # one meeting with orders: the Don's orders stand, the Sheriff's flickering hand after
        # them (5, 4, 5) is not a second orders card
        (1, [], [4]),
        # a rule set showing none counts as one meeting
        (0, [], [4]),
        # orders come on night zero only: after a hunt, a sequence is a leader called again
        # showing his check again (both here, or the second alone)
        (1, [HuntSpan(1, 2, (1, 4), 1.0, "found")], []),
        (1, [HuntSpan(12, 20, (1, 4), 1.0, "found")], [4]),
        (2, [HuntSpan(12, 20, (1, 4), 1.0, "found")], [4]),
        (2, [HuntSpan(40, 50, (1, 4), 1.0, "found")], [4, 9]),
    ],
)
def test_night_zero_has_one_orders_card_per_meeting(meets, hunts, kept) -> None:
    numbers = [*shows(4, 2.7, [3, 8, 10]), *shows(9, 25.0, [5, 4], pause=1.2)]
    found = find_orders(numbers, [], 3)
    assert [o.seat for o in found] == [4, 9]
    assert [o.seat for o in first_orders(found, hunts, meets)] == kept


def test_given_check_without_a_number_is_unreadable() -> None:
    s = series({4: [(30, 33, "count")], 5: []})
    (check,) = given_checks([], [(29.0, 34.0)], s)
    assert (check.seat, check.value, check.confidence) == (4, None, 0.0)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("12.0-30.5", [(12.0, 30.5)]), ("40-55, 12-30.5", [(12.0, 30.5), (40.0, 55.0)]),
     ("", [])],
)
def test_parse_spans(text, expected) -> None:
    assert parse_spans(text, "--hunts") == expected


@pytest.mark.parametrize("text", ["12", "a-b", "30-12", "-3-4", "1-2-3"])
def test_parse_spans_rejects(text) -> None:
    with pytest.raises(InputError, match="--hunts"):
        parse_spans(text, "--hunts")


@pytest.mark.parametrize(
    ("gap", "rejoin", "hunts"), [(2.0, 0.0, 1), (1.0, 2.0, 1), (1.0, 1.0, 2)]
)
def test_config_joins_holds(gap, rejoin, hunts) -> None:
    s = series({3: [(10, 14, "gun"), (15.5, 20, "gun")]})
    assert len(find_hunts(s, None, 10, FinderConfig(gap=gap, rejoin=rejoin))) == hunts
