"""The Don's night-zero orders, read from the numbers he showed.

The Don shows his orders one after the other (a seat for each night), pauses, and shows them
again. The count of numbers read is not trusted: a reading may turn to another value for a moment
as the fingers move (one show too many), a show may be missed (one too few), and clubs differ in
how many orders and passes they show. So :func:`read_orders` tries every way of cutting the shows
into two or three passes (a pass is a run of consecutive shows) and keeps the cut whose passes
agree best: the weighted edit distance between the passes, where leaving a show out costs its
weight (confidence × seconds held) and reading one value where the other pass shows another costs
the lighter show's weight. Ties go to passes as long as the rules' count of orders, then to two
passes (what the rules describe), then to the cut at the longest pauses.

The passes are aligned to the one closest to the others; a position shown in at least half of
the passes (both, of two) is **confirmed** and shows the value with the most weight there. The
proposal is the confirmed positions, topped up while it is shorter than the rules' count with the
heaviest of the positions shown in half of the passes (one of two: a show missed once), in time
order. ``agree`` means every pass shows exactly the proposal.
Shows that no two passes share are read as one pass.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


class Shown(Protocol):
    """A number held by one seat (``mafiavision.vision.numbers.NumberEvent``)."""

    start: float
    end: float
    value: int
    confidence: float


@dataclass(frozen=True)
class Orders:
    """The Don's orders: each pass as read, the proposal, whether every pass shows it."""

    passes: tuple[tuple[int, ...], ...]
    proposal: tuple[int, ...]
    agree: bool
    confidence: float


#: Up to this many shows, three passes are tried too (the cuts grow with the square of the shows;
#: a Don shows at most 4-5 orders three times).
MAX_THREE_PASSES = 18


@dataclass
class _Slot:
    """One position of the aligned passes: the passes that show it and their shows."""

    votes: list[Shown]
    passes: set[int]


def _weight(s: Shown) -> float:
    return max(s.confidence, 0.01) * max(s.end - s.start, 0.05)


def _align(a: Sequence[Shown], b: Sequence[Shown]) -> tuple[float, list[tuple[int | None,
                                                                             int | None]]]:
    """Weighted edit distance between two passes and the alignment (pairs of indices, None for
    a show the other pass lacks)."""
    n, m = len(a), len(b)
    cost = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        cost[i][0] = cost[i - 1][0] + _weight(a[i - 1])
    for j in range(1, m + 1):
        cost[0][j] = cost[0][j - 1] + _weight(b[j - 1])
    for i, j in itertools.product(range(1, n + 1), range(1, m + 1)):
        x, y = a[i - 1], b[j - 1]
        pair = 0.0 if x.value == y.value else min(_weight(x), _weight(y))
        cost[i][j] = min(cost[i - 1][j - 1] + pair, cost[i - 1][j] + _weight(x),
                         cost[i][j - 1] + _weight(y))
    path: list[tuple[int | None, int | None]] = []
    i, j = n, m
    while i or j:
        if i and j:
            x, y = a[i - 1], b[j - 1]
            pair = 0.0 if x.value == y.value else min(_weight(x), _weight(y))
            if abs(cost[i][j] - (cost[i - 1][j - 1] + pair)) < 1e-9:
                path.append((i - 1, j - 1))
                i, j = i - 1, j - 1
                continue
        if i and abs(cost[i][j] - (cost[i - 1][j] + _weight(a[i - 1]))) < 1e-9:
            path.append((i - 1, None))
            i -= 1
        else:
            path.append((None, j - 1))
            j -= 1
    return cost[n][m], path[::-1]


def _slots(passes: list[list[Shown]], center: int) -> list[_Slot]:
    """Every pass aligned to ``passes[center]``: the positions in time order."""
    slots = [_Slot([s], {center}) for s in passes[center]]
    inserted: dict[tuple[int, int], _Slot] = {}  # (center position before it, value)
    for k, other in enumerate(passes):
        if k == center:
            continue
        _, path = _align(passes[center], other)
        last = -1
        for i, j in path:
            if i is not None:
                last = i
                if j is not None:
                    slots[i].votes.append(other[j])
                    slots[i].passes.add(k)
            elif j is not None:
                slot = inserted.setdefault((last, other[j].value), _Slot([], set()))
                slot.votes.append(other[j])
                slot.passes.add(k)
    ordered: list[_Slot] = []
    for i in range(-1, len(slots)):
        if i >= 0:
            ordered.append(slots[i])
        ordered.extend(s for (at, _), s in inserted.items() if at == i)
    return ordered


def _value(slot: _Slot) -> tuple[int, float]:
    """The value with the most weight at this position, and its surest show's confidence."""
    weight: dict[int, float] = {}
    for s in slot.votes:
        weight[s.value] = weight.get(s.value, 0.0) + _weight(s)
    value = max(weight, key=lambda v: weight[v])
    return value, max(s.confidence for s in slot.votes if s.value == value)


def _cuts(shows: Sequence[Shown], count: int
          ) -> list[tuple[float, int, int, float, list[list[Shown]], int]]:
    """Every cut into two or three passes: (cost, how far the longest pass is from ``count``,
    passes other than two, -pause, passes, the pass closest to the others)."""
    out: list[tuple[float, int, int, float, list[list[Shown]], int]] = []
    n = len(shows)
    for r in (2, 3) if n <= MAX_THREE_PASSES else (2,):
        for at in itertools.combinations(range(1, n), r - 1):
            bounds = (0, *at, n)
            passes = [list(shows[a:b]) for a, b in itertools.pairwise(bounds)]
            cost, center = min((sum(_align(passes[c], p)[0] for p in passes), c)
                               for c in range(r))
            pause = sum(shows[k].start - shows[k - 1].end for k in at)
            off = abs(max(map(len, passes)) - count) if count else 0
            out.append((cost, off, int(r != 2), -pause, passes, center))
    return out


def read_orders(shows: Sequence[Shown], count: int = 3) -> Orders:
    """The orders in ``shows`` (one seat's numbers in time order); ``count`` is how many orders
    the rules have the Don show (0 when they show none: the proposal is then the confirmed
    positions only)."""
    shows = sorted(shows, key=lambda s: s.start)
    if len(shows) < 2:
        values = tuple(s.value for s in shows)
        return Orders((values,) if values else (), values,
                      False, min((s.confidence for s in shows), default=0.0))
    *_, passes, center = min(_cuts(shows, count), key=lambda c: c[:4])
    slots = _slots(passes, center)
    # at least half of two or three passes: two of them
    confirmed = [i for i, s in enumerate(slots) if len(s.passes) >= 2]
    as_read = tuple(tuple(s.value for s in p) for p in passes)
    shared = any(len(slot.votes) - len({v.value for v in slot.votes}) for slot in slots)
    if not confirmed or not shared:
        values = tuple(s.value for s in shows)
        return Orders((values,), values, False, min(s.confidence for s in shows))
    chosen = set(confirmed)
    spare = sorted((i for i in range(len(slots))
                    if i not in chosen and 2 * len(slots[i].passes) >= len(passes)),
                   key=lambda i: -sum(_weight(s) for s in slots[i].votes))
    while len(chosen) < count and spare:
        chosen.add(spare.pop(0))
    read = [_value(slots[i]) for i in sorted(chosen)]
    proposal = tuple(v for v, _ in read)
    return Orders(as_read, proposal, all(p == proposal for p in as_read),
                  min(c for _, c in read))
