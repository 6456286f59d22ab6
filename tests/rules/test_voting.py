import pytest

from mafiavision.rules.voting import (
    all_leave_allowed,
    all_leave_passes,
    count_votes,
    most_voted,
)
from tests.rules.helpers import rules

V = frozenset


@pytest.mark.parametrize(
    ("votes", "abstention", "expected"),
    [
        (((3, V({1, 2})), (5, V({4}))), "none", {3: 2, 5: 1}),
        # RULES.md §3: who does not vote counts for the last candidate (seats 3, 5, 6 here)
        (((3, V({1, 2})), (5, V({4}))), "last_candidate", {3: 2, 5: 4}),
        (((3, V()), (5, V())), "last_candidate", {3: 0, 5: 6}),
    ],
)
def test_count_votes(votes: tuple, abstention: str, expected: dict[int, int]) -> None:
    assert count_votes(votes, (1, 2, 3, 4, 5, 6), abstention) == expected


@pytest.mark.parametrize(
    ("counts", "expected"),
    [({3: 2, 5: 1}, (3,)), ({3: 2, 5: 2, 7: 1}, (3, 5)), ({3: 0, 5: 0}, ()), ({}, ())],
)
def test_most_voted(counts: dict[int, int], expected: tuple[int, ...]) -> None:
    assert most_voted(counts) == expected


# RULES.md §1 (seed 001 I.10): three can never be lifted; fewer than half, except 2 of 4.
@pytest.mark.parametrize(
    ("name", "tied", "at_table", "allowed"),
    [
        ("kharkiv", 2, 10, True),
        ("kharkiv", 3, 10, False),
        ("kharkiv", 2, 5, True),
        ("kharkiv", 2, 4, True),
        ("kharkiv", 2, 3, False),
        ("romanian", 3, 10, True),
        ("romanian", 4, 6, True),
        ("romanian", 3, 3, False),
    ],
)
def test_all_leave_allowed(name: str, tied: int, at_table: int, allowed: bool) -> None:
    assert all_leave_allowed(rules(name), tied, at_table) is allowed


# "more than half the table" (default) or "more than half the votes cast"; an even split keeps.
@pytest.mark.parametrize(
    ("majority", "yes", "no", "at_table", "passes"),
    [
        ("table", 6, 4, 10, True),
        ("table", 5, 5, 10, False),
        ("table", 5, 0, 10, False),
        ("table", 4, 3, 7, True),
        ("cast", 5, 0, 10, True),
        ("cast", 3, 3, 10, False),
        ("cast", 3, 2, 10, True),
    ],
)
def test_all_leave_passes(majority: str, yes: int, no: int, at_table: int, passes: bool) -> None:
    ruleset = rules("romanian", all_leave_majority=majority)
    assert all_leave_passes(ruleset, yes, no, at_table) is passes
