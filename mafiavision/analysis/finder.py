"""Finding the night in a recording: where the hunts and the checks are.

A **hunt** is a stretch where one group of seats holds the finger gun raised while the moderator
counts the seat numbers. Per seat, gun-pose samples closer than ``gap`` seconds are joined into
holds (a shot briefly breaks the pose) and holds shorter than ``min_hold`` are dropped; holds of
different seats that overlap for at least half of the shorter one belong to one hunt (so Triad's
Clan and Yakuza hunts, one after the other, stay two hunts); two holds of one seat less than
``rejoin`` seconds apart belong to one hunt (tracking lost the hand for a moment), except a hold
raised after every other member of the hunt had lowered the gun: that is a leader raising his hand
again for his check (the Don's 2 or 7 reads as the gun), not the hunt. With audio, a
hunt also needs speech inside it: at least ``min_words`` voice segments (the count); its
confidence grows with the share of the hunt's seats the segments cover.

A **check** is a leader showing a seat number: the numbers read at one seat, outside any hunt,
closer than ``gap`` seconds to each other, form one check; its value is the number held longest.
The Don's night-zero **orders** (rule sets whose group shows ``orders`` numbers at its meeting)
are one seat showing numbers one after the other, twice: a show is one value held (readings
shorter than ``flicker`` dropped, readings of one value less than ``gap`` apart joined); at least
``orders`` shows of one seat, each less than ``orders_gap`` seconds after the previous one (or
``orders_pause`` when the Don starts his second pass), are orders, not checks; the passes are
found and compared by :mod:`mafiavision.vision.orders`.

Hunts and checks can also be given by hand (:func:`parse_spans`); their members or leader are
then read from the same samples.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from mafiavision.analysis.events import NumberRecord, Origin
from mafiavision.analysis.timeline import POSE_CODE, SeatSeries
from mafiavision.errors import InputError
from mafiavision.vision.orders import read_orders


@dataclass(frozen=True)
class FinderConfig:
    gap: float = 1.0
    min_hold: float = 2.0
    rejoin: float = 5.0
    member_share: float = 0.5
    min_words: int = 3
    orders_gap: float = 4.0
    orders_pause: float = 10.0
    flicker: float = 0.5


@dataclass(frozen=True)
class HuntSpan:
    start: float
    end: float
    members: tuple[int, ...]
    confidence: float
    origin: Origin


@dataclass(frozen=True)
class CheckSpan:
    start: float
    end: float
    seat: int
    value: int | None
    confidence: float
    origin: Origin


@dataclass(frozen=True)
class OrdersSpan:
    start: float
    end: float
    seat: int
    shown: tuple[NumberRecord, ...]  # one per number shown, in order (its value held longest)
    origin: Origin


def parse_spans(text: str, option: str) -> list[tuple[float, float]]:
    """``"12.0-30.5,40-55"`` → ``[(12.0, 30.5), (40.0, 55.0)]``; a bad span is an InputError."""
    spans: list[tuple[float, float]] = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        try:
            start_text, end_text = part.split("-")
            start, end = float(start_text), float(end_text)
        except ValueError:
            raise InputError(
                f"{option}: {part!r} is not a span START-END in seconds (e.g. 12.0-30.5)"
            ) from None
        if not 0 <= start < end:
            raise InputError(f"{option}: span {part!r} must have 0 <= START < END")
        spans.append((start, end))
    return sorted(spans)


def _runs(times: np.ndarray, gap: float) -> list[tuple[float, float]]:
    """Join sorted sample times closer than ``gap`` into (first, last) runs."""
    if times.size == 0:
        return []
    breaks = np.flatnonzero(np.diff(times) > gap)
    starts = np.concatenate(([0], breaks + 1))
    ends = np.concatenate((breaks, [times.size - 1]))
    return [(float(times[a]), float(times[b])) for a, b in zip(starts, ends, strict=True)]


def gun_holds(series: SeatSeries, cfg: FinderConfig) -> list[tuple[float, float]]:
    gun_t = series.t[series.pose == POSE_CODE["gun"]]
    return [(a, b) for a, b in _runs(gun_t, cfg.gap) if b - a >= cfg.min_hold]


def _overlap(a: tuple[float, float], b: tuple[float, float]) -> float:
    return max(0.0, min(a[1], b[1]) - max(a[0], b[0]))


def _speech_in(speech: Sequence[tuple[float, float]], start: float, end: float) -> int:
    return sum(1 for s, e in speech if s < end and e > start)


def _without_trailing(group: list[tuple[int, tuple[float, float]]]
                      ) -> list[tuple[int, tuple[float, float]]]:
    """A hunt's holds without those a seat raised after every other seat's last hold ended."""
    if len({seat for seat, _ in group}) < 2:
        return group
    return [(seat, span) for seat, span in group
            if span[0] <= max(s[1] for other, s in group if other != seat)]


def find_hunts(
    series: Mapping[int, SeatSeries],
    speech: Sequence[tuple[float, float]] | None,
    n_seats: int,
    cfg: FinderConfig = FinderConfig(),
) -> list[HuntSpan]:
    """Hunts found from the gun-pose holds (and, with audio, the count spoken inside them)."""
    holds = [(seat, span) for seat, s in series.items() for span in gun_holds(s, cfg)]
    parent = list(range(len(holds)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, (seat_a, a) in enumerate(holds):
        for j in range(i + 1, len(holds)):
            seat_b, b = holds[j]
            shorter = min(a[1] - a[0], b[1] - b[0])
            together = _overlap(a, b) >= 0.5 * shorter
            same_seat = seat_a == seat_b and max(a[0], b[0]) - min(a[1], b[1]) <= cfg.rejoin
            if together or same_seat:
                parent[root(j)] = root(i)
    groups: dict[int, list[tuple[int, tuple[float, float]]]] = {}
    for i, hold in enumerate(holds):
        groups.setdefault(root(i), []).append(hold)
    hunts: list[HuntSpan] = []
    for group in groups.values():
        members = _without_trailing(group)
        start = min(span[0] for _, span in members)
        end = max(span[1] for _, span in members)
        seats = tuple(sorted({seat for seat, _ in members}))
        if speech is None:
            confidence = 0.5
        else:
            words = _speech_in(speech, start, end)
            if words < cfg.min_words:
                continue
            confidence = min(1.0, words / max(1, n_seats))
        hunts.append(HuntSpan(start, end, seats, round(confidence, 3), "found"))
    return sorted(hunts, key=lambda h: h.start)


def members_in(series: Mapping[int, SeatSeries], start: float, end: float,
               cfg: FinderConfig = FinderConfig()) -> tuple[int, ...]:
    """Seats holding the gun for at least ``member_share`` of their samples in [start, end]."""
    return tuple(
        seat for seat, s in sorted(series.items()) if s.share("gun", start, end) >= cfg.member_share
    )


def given_hunts(series: Mapping[int, SeatSeries], spans: Iterable[tuple[float, float]],
                cfg: FinderConfig = FinderConfig()) -> list[HuntSpan]:
    return [HuntSpan(a, b, members_in(series, a, b, cfg), 1.0, "given") for a, b in spans]


def _merge_numbers(numbers: Sequence[NumberRecord], gap: float) -> list[list[NumberRecord]]:
    runs: list[list[NumberRecord]] = []
    for number in sorted(numbers, key=lambda n: (n.seat, n.start)):
        last = runs[-1][-1] if runs else None
        if last is not None and last.seat == number.seat and number.start - last.end <= gap:
            runs[-1].append(number)
        else:
            runs.append([number])
    return runs


def _check_from(run: Sequence[NumberRecord], origin: Origin) -> CheckSpan:
    held: dict[int, float] = {}
    for n in run:
        held[n.value] = held.get(n.value, 0.0) + (n.end - n.start) * n.confidence
    value = max(held, key=lambda v: held[v])
    confidence = max(n.confidence for n in run if n.value == value)
    return CheckSpan(run[0].start, max(n.end for n in run), run[0].seat, value,
                     round(confidence, 3), origin)


def _outside(numbers: Sequence[NumberRecord], hunts: Sequence[HuntSpan]) -> list[NumberRecord]:
    return [n for n in numbers if not any(n.start < h.end and n.end > h.start for h in hunts)]


def _shows(numbers: Sequence[NumberRecord], gap: float, flicker: float
           ) -> list[NumberRecord]:
    """One seat's numbers as shows: readings shorter than ``flicker`` are dropped (a hand
    changing shape), then readings of one value less than ``gap`` apart are one show."""
    out: list[NumberRecord] = []
    for n in sorted(numbers, key=lambda n: n.start):
        if n.end - n.start < flicker:
            continue
        last = out[-1] if out else None
        if last is not None and last.value == n.value and n.start - last.end <= gap:
            out[-1] = last.model_copy(update={"end": max(last.end, n.end),
                                              "confidence": max(last.confidence, n.confidence)})
        else:
            out.append(n)
    return out


def find_orders(numbers: Sequence[NumberRecord], hunts: Sequence[HuntSpan], orders: int,
                cfg: FinderConfig = FinderConfig()) -> list[OrdersSpan]:
    """The Don's orders: one seat's shows in a row, each less than ``orders_gap`` after the
    previous one, or less than ``orders_pause`` when it shows again the first value of the run
    (the second pass after the Don's pause). A run of at least ``orders`` shows is orders; with
    rule sets that show no orders (``orders`` 0), a run of four or more whose passes repeat at
    least two numbers (clubs that show them anyway: better one orders card than a string of
    checks on night zero)."""
    outside = _outside(numbers, hunts)
    spans: list[OrdersSpan] = []
    for seat in sorted({n.seat for n in outside}):
        run: list[NumberRecord] = []
        for show in [*_shows([n for n in outside if n.seat == seat], cfg.gap, cfg.flicker), None]:
            if show is not None and (
                    not run or show.start - run[-1].end <= cfg.orders_gap
                    or (show.start - run[-1].end <= cfg.orders_pause
                        and show.value == run[0].value and len(run) >= max(orders, 2))):
                run.append(show)
                continue
            if _are_orders(run, orders):
                spans.append(OrdersSpan(run[0].start, run[-1].end, seat, tuple(run), "found"))
            run = [show] if show is not None else []
    return sorted(spans, key=lambda o: o.start)


def _are_orders(run: Sequence[NumberRecord], orders: int) -> bool:
    if orders > 0:
        return len(run) >= orders
    if len(run) < 4:
        return False
    read = read_orders(run, 0)
    return len(read.passes) >= 2 and len(read.proposal) >= 2


def find_checks(numbers: Sequence[NumberRecord], hunts: Sequence[HuntSpan],
                cfg: FinderConfig = FinderConfig(),
                orders: Sequence[OrdersSpan] = ()) -> list[CheckSpan]:
    """Checks: numbers shown at one seat outside the hunts and the orders, joined when close in
    time."""
    outside = [n for n in _outside(numbers, hunts)
               if not any(o.seat == n.seat and n.start < o.end and n.end > o.start
                          for o in orders)]
    checks = [_check_from(run, "found") for run in _merge_numbers(outside, cfg.gap)]
    return sorted(checks, key=lambda c: c.start)


def first_orders(orders: Sequence[OrdersSpan], hunts: Sequence[HuntSpan], meets: int
                 ) -> list[OrdersSpan]:
    """Orders are shown on night zero only, which has no hunt, and one orders card per meeting:
    only the first ``meets`` (at least one) orders spans before the first hunt stand. A later
    sequence before it is a leader showing himself (a raised hand read as 5, 4, 5); one after it
    is a leader checking, called again and showing his number again (set 27: 8, 9 / 8, 8 after
    the night's hunt). :func:`find_checks` and :func:`split_night_zero` then take their shows."""
    first_hunt = min((h.start for h in hunts), default=float("inf"))
    before = [o for o in orders if o.start < first_hunt]
    return before[:max(meets, 1)]


def split_night_zero(checks: Sequence[CheckSpan], orders: Sequence[OrdersSpan],
                     hunts: Sequence[HuntSpan], from_start: bool = False
                     ) -> tuple[list[CheckSpan], list[CheckSpan]]:
    """(checks, leaders shown): night zero has no check, so a number shown before the first
    hunt — after the first orders, or from the recording's start when it is known to begin on
    night zero (``from_start``: the deal says ``night: 0``) — is a leader showing himself (a
    raised open hand reads as 5), not a check. In every rule set a night's hunts come before its
    checks. Without orders and without that knowledge nothing marks night zero: a recording may
    begin on any night (a clip of one night's checks), so its numbers stay checks."""
    if not orders and not from_start:
        return list(checks), []
    start = float("-inf") if from_start else min(o.start for o in orders)
    end = min((h.start for h in hunts if h.start > start), default=float("inf"))
    zero = [c for c in checks if start < c.start < end]
    return [c for c in checks if c not in zero], zero


def given_checks(numbers: Sequence[NumberRecord], spans: Iterable[tuple[float, float]],
                 series: Mapping[int, SeatSeries]) -> list[CheckSpan]:
    """Checks at given times: the seat whose numbers fill the span, else the seat that shows a
    count most (value unreadable)."""
    out: list[CheckSpan] = []
    for a, b in spans:
        inside = [n for n in numbers if n.start < b and n.end > a]
        if inside:
            by_seat: dict[int, float] = {}
            for n in inside:
                by_seat[n.seat] = by_seat.get(n.seat, 0.0) + n.end - n.start
            seat = max(by_seat, key=lambda k: by_seat[k])
            found = _check_from([n for n in inside if n.seat == seat], "given")
            out.append(CheckSpan(a, b, seat, found.value, found.confidence, "given"))
            continue
        shares = {seat: s.share("count", a, b) for seat, s in series.items()}
        seat = max(shares, key=lambda k: shares[k]) if shares else 1
        out.append(CheckSpan(a, b, seat, None, 0.0, "given"))
    return out
