"""The Don's orders: passes found by how well they agree, not by the count of numbers read."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mafiavision.vision.orders import MAX_THREE_PASSES, read_orders


@dataclass(frozen=True)
class Show:
    start: float
    end: float
    value: int
    confidence: float


def shows(*spec: tuple[int, float, float] | str, gap: float = 1.0, pause: float = 2.5
          ) -> list[Show]:
    """``(value, seconds held, confidence)`` per show, one ``gap`` apart; ``"|"`` marks the
    Don's pause between passes."""
    out: list[Show] = []
    t = 0.0
    for item in spec:
        if item == "|":
            t += pause - gap
            continue
        value, held, confidence = item  # type: ignore[misc]
        out.append(Show(t, t + held, value, confidence))
        t += held + gap
    return out


def sure(value: int) -> tuple[int, float, float]:
    return (value, 1.4, 0.85)


def brief(value: int) -> tuple[int, float, float]:
    """A reading held for a moment as the fingers change (a show too many)."""
    return (value, 0.6, 0.55)


CASES = [
    ("shown twice alike", shows(sure(4), sure(7), sure(1), "|", sure(4), sure(7), sure(1)), 3,
     ((4, 7, 1), (4, 7, 1)), (4, 7, 1), True),
    ("no pause between the passes", shows(sure(4), sure(7), sure(1), sure(4), sure(7), sure(1)),
     3, ((4, 7, 1), (4, 7, 1)), (4, 7, 1), True),
    ("a value repeated among the orders",
     shows(sure(4), sure(7), sure(4), "|", sure(4), sure(7), sure(4)), 3,
     ((4, 7, 4), (4, 7, 4)), (4, 7, 4), True),
    ("one seat every night", shows(sure(6), sure(6), sure(6), "|", sure(6), sure(6), sure(6)),
     3, ((6, 6, 6), (6, 6, 6)), (6, 6, 6), True),
    ("a brief misreading beside a show is left out",
     shows(sure(7), brief(8), sure(2), sure(10), "|", sure(7), sure(2), sure(10)), 3,
     ((7, 8, 2, 10), (7, 2, 10)), (7, 2, 10), False),
    ("a show missed in one pass is taken from the other",
     shows(sure(3), sure(9), "|", sure(3), sure(5), sure(9)), 3,
     ((3, 9), (3, 5, 9)), (3, 5, 9), False),
    ("two readings of one show: the surer one", shows(sure(8), (5, 1.4, 0.85), sure(9), "|",
                                                      sure(8), (6, 1.4, 0.3), sure(9)), 3,
     ((8, 5, 9), (8, 6, 9)), (8, 5, 9), False),
    ("four orders shown twice", shows(sure(10), sure(5), sure(7), sure(2), "|",
                                      sure(10), sure(5), sure(7), sure(2)), 3,
     ((10, 5, 7, 2), (10, 5, 7, 2)), (10, 5, 7, 2), True),
    ("two orders shown three times", shows(sure(8), sure(2), "|", sure(8), sure(2), "|",
                                           sure(8), sure(2)), 3,
     ((8, 2), (8, 2), (8, 2)), (8, 2), True),
    ("three passes outvote a misreading", shows(sure(8), sure(2), "|", (7, 1.4, 0.6), sure(2),
                                                "|", sure(8), sure(2)), 3,
     ((8, 2), (7, 2), (8, 2)), (8, 2), False),
    ("second pass incomplete", shows(sure(4), sure(7), sure(1), "|", sure(4), sure(7)), 3,
     ((4, 7, 1), (4, 7)), (4, 7, 1), False),
    ("rules without orders: only what the passes share",
     shows(sure(8), sure(5), brief(6), sure(9), "|", sure(8), sure(5), sure(9)), 0,
     ((8, 5, 6, 9), (8, 5, 9)), (8, 5, 9), False),
    ("nothing shared: one pass", shows(sure(4), sure(7)), 3, ((4, 7),), (4, 7), False),
    ("one show", shows(sure(4)), 3, ((4,),), (4,), False),
    ("none", [], 3, (), (), False),
]


@pytest.mark.parametrize(("name", "shown", "count", "passes", "proposal", "agree"), CASES,
                         ids=[c[0] for c in CASES])
def test_read_orders(name: str, shown: list[Show], count: int, passes: tuple, proposal: tuple,
                     agree: bool) -> None:
    read = read_orders(shown, count)
    assert (read.passes, read.proposal, read.agree) == (passes, proposal, agree)


def test_confidence_is_the_weakest_chosen_show() -> None:
    read = read_orders(shows(sure(4), (7, 1.4, 0.6), sure(1), "|", sure(4), (7, 1.4, 0.7),
                             sure(1)))
    assert read.agree and read.confidence == pytest.approx(0.7)


@given(orders=st.lists(st.integers(1, 12), min_size=1, max_size=4),
       repeat=st.integers(2, 3), pause=st.floats(0.0, 4.0))
def test_clean_passes_are_read_back(orders: list[int], repeat: int, pause: float) -> None:
    """Whatever the orders, however long the pause: passes shown alike are read alike."""
    spec: list[tuple[int, float, float] | str] = []
    for k in range(repeat):
        spec += (["|"] if k else []) + [sure(v) for v in orders]
    read = read_orders(shows(*spec, pause=1.0 + pause), len(orders))
    assert read.agree and read.proposal == tuple(orders)
    assert all(p == tuple(orders) for p in read.passes)


def test_a_show_in_one_of_three_passes_is_outvoted() -> None:
    """Two orders shown three times: a brief extra reading in one pass does not become a third
    order, though the rules' count is three."""
    read = read_orders(shows(brief(9), sure(8), sure(2), "|", sure(8), sure(2), "|", sure(8),
                             sure(2)), 3)
    assert read.passes == ((9, 8, 2), (8, 2), (8, 2)) and read.proposal == (8, 2)


def test_a_long_run_is_cut_in_two_passes_only() -> None:
    """Past MAX_THREE_PASSES shows (a leader's hand flickering between readings, not orders)
    the cuts into three passes are not tried: the reading stays quick."""
    read = read_orders(shows(*[sure(v % 3 + 1) for v in range(MAX_THREE_PASSES + 3)]), 3)
    assert len(read.passes) == 2
    read = read_orders(shows(*[sure(v % 3 + 1) for v in range(9)]), 3)
    assert read.passes == ((1, 2, 3),) * 3
