"""The vote's arithmetic: counts, the most voted, and the 'all leave?' rules."""

from __future__ import annotations

from mafiavision.rules.rulesets import RuleSet


def count_votes(
    votes: tuple[tuple[int, frozenset[int]], ...], alive: tuple[int, ...], abstention: str
) -> dict[int, int]:
    """Votes per candidate, in ballot order. With ``abstention == "last_candidate"`` every living
    player who voted for nobody counts for the last candidate (RULES.md §3)."""
    counts = {candidate: len(voters) for candidate, voters in votes}
    if abstention == "last_candidate" and votes:
        voted = frozenset().union(*(voters for _, voters in votes))
        last = votes[-1][0]
        counts[last] += sum(1 for s in alive if s not in voted)
    return counts


def most_voted(counts: dict[int, int]) -> tuple[int, ...]:
    """Candidates with the most votes, in ballot order; none when nobody voted at all."""
    top = max(counts.values(), default=0)
    if top == 0:
        return ()
    return tuple(c for c, n in counts.items() if n == top)


def all_leave_allowed(rules: RuleSet, tied: int, at_table: int) -> bool:
    """May ``tied`` players leave together with ``at_table`` players alive (RULES.md §1 I.10)?"""
    if rules.all_leave_max is not None and tied > rules.all_leave_max:
        return False
    if rules.all_leave_fewer_than_half:
        return 2 * tied < at_table or (tied == 2 and at_table == 4)
    return tied < at_table


def all_leave_passes(rules: RuleSet, yes: int, no: int, at_table: int) -> bool:
    """Does the 'all leave?' vote pass? An even split keeps them (RULES.md §2)."""
    if rules.all_leave_majority == "table":
        return 2 * yes > at_table
    return 2 * yes > yes + no
