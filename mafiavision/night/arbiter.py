"""The night arbiter: shots, number windows and the game situation → verdicts for the moderator.

Pure logic, no I/O. It reads the contract types of the other stages by their attributes only
(:class:`ShotLike` is ``mafiavision.vision.shots.ShotEvent``, :class:`WindowLike` is
``mafiavision.audio.callout.NumberWindow``, :class:`NumberLike` is
``mafiavision.vision.numbers.NumberEvent``), so it never imports vision or audio.

Every verdict carries its evidence and a confidence in [0, 1]. Whatever the arbiter is not sure
of becomes a **question** for the moderator (``verdict.questions``); the screen never confirms a
verdict with open questions by itself. Nothing uncertain turns silently into a hit or a miss.

How a member's shots become an observation (``Config`` holds every threshold):

* no shot, and the hand seen in at least ``min_seen`` of the hunt's frames → ``no_shot``
  (confidence = the share of frames the hand was seen, since an unseen squeeze cannot be ruled
  out); seen less → ``not_seen`` (always a question);
* two or more shots → ``multiple``; shots below ``sure`` confidence beside one or more
  sure ones are left out (the likelier reading) and asked about, unless one lies in the number
  window of a sure one: two squeezes on one number are a double, the rules' miss (session 59:
  in the analyses of the seen sets 79–82 the one weak shot on a sure one's number was a double's
  lighter squeeze, set 79's ``romanian_double_en`` seat 7, 59 % beside 91 %; the weak ones left
  out, set 79's seat 10 at 61 % and 66 %, lay on later numbers and were false);
* one shot at time *t*: the number window containing *t* gives the seat (the windows' contract:
  ``[onset_k + lead, onset_{k+1} + lead)``); it is ``between`` instead when *t* lies within
  ``between_gap`` of a boundary between two consecutive windows but before the next number's
  word began (the audio module's rule: a squeeze that peaks while a number is being said counts
  for that number, so the gap only reaches back into the pause), or — where the speech shows
  when number *k*'s word ended — when *t* falls in the pause after it, past ``pause_share`` of
  the way from the word's end to the next number's onset (a shot "on the number" peaks while the
  number is said or just after; a count's pace sets how long "just after" is, so the rule is a
  share of the pause, not fixed seconds); *t* outside every window → ``between`` with a question
  (before the first or after the last number). The confidence is the least of the shot's, the
  window's and a margin factor that falls from 1 to 0.5 as *t* comes within ``doubt_band`` of
  one of those decision thresholds.

The group hits seat *k* when every living member's observation is a shot on *k*
(the rules engine's ``resolve_hunt``); a miss that only missing shots, members' second
squeezes beside a shot on *k*, or squeezes between numbers in the pause beside *k* make while the
others agree on *k* is asked about (an undetected squeeze, or a false second one, would turn it
into a hit; a squeeze late after *k*'s word or early before it is "on *k*" or "between" by the
moderator's judgement, as the rule's evidence strip shows). Otherwise
it is a miss, and each member gets a reason: ``no shot``, ``another number`` (a shot on a
number other than the one most members agreed on; all of them when no number has a strict
majority), ``between numbers``, ``two shots``, ``hand not seen``.
"""

from __future__ import annotations

import bisect
import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from mafiavision.rules import MemberShot, ShotKind, resolve_hunt


class ShotLike(Protocol):
    seat: int
    t: float
    duration: float
    depth: float
    confidence: float


class WindowLike(Protocol):
    seat: int
    start: float
    end: float
    onset: float
    confidence: float


class OrdersLike(Protocol):
    """``mafiavision.vision.orders.Orders``: the passes of the Don's orders and their proposal."""

    passes: tuple[tuple[int, ...], ...]
    proposal: tuple[int, ...]
    agree: bool
    confidence: float


class NumberLike(Protocol):
    seat: int
    start: float
    end: float
    value: int
    confidence: float


REASONS: dict[ShotKind, str] = {
    ShotKind.NO_SHOT: "no shot",
    ShotKind.BETWEEN: "between numbers",
    ShotKind.MULTIPLE: "two shots",
    ShotKind.NOT_SEEN: "hand not seen",
}
ANOTHER_NUMBER = "another number"


@dataclass(frozen=True)
class Config:
    """Thresholds of the arbiter. Below ``sure`` a confidence turns into a question."""

    sure: float = 0.7
    min_seen: float = 0.5
    #: A shot in the pause after number k's word counts for k until this share of the way
    #: from the word's end to the next number's onset; later it is "between numbers". Set in
    #: session 10 to 0.37 on the seen rendered nights of then (samples and validation sets
    #: 1-10: shots on a number reached at most 0.33 of the pause, squeezes between numbers at
    #: least 0.41). Session 51 re-measured it on the analyses of the seen sets 56-66 (their
    #: first-number hunts and shots delayed up to 0.45 s after the word's onset came later):
    #: of 388 found shots on a number, 28 peaked past 0.37 of the pause (up to 0.63) and were
    #: read between numbers, while the 10 squeezes between numbers peaked at 0.496-0.585. 0.45
    #: keeps a 0.05 margin under the earliest of those and reads 13 of the 28 on their number
    #: (re-judging every hunt of those analyses: 6 verdicts more equal to the truth, none
    #: fewer; fitted on sets 56-61 alone it is the same, and on 62-66 it reads 10 of 15). Word
    #: ends come from the voice detector (~0.08 s late), shot times from the detector's smoothed
    #: peak (~0.05 s late): both are in the shares.
    pause_share: float = 0.45
    #: A shot closer than this (s) to a decision threshold gets a question.
    doubt_band: float = 0.1


@dataclass(frozen=True)
class ShotEvidence:
    seat: int
    t: float
    duration: float
    depth: float
    confidence: float
    frame: int | None
    window_seat: int | None


@dataclass(frozen=True)
class MemberFinding:
    seat: int
    observation: ShotKind
    target: int | None
    reason: str
    confidence: float
    shots: tuple[ShotEvidence, ...]
    seen: float
    doubts: tuple[str, ...] = ()

    @property
    def member_shot(self) -> MemberShot:
        return MemberShot(seat=self.seat, kind=self.observation, target=self.target)


@dataclass(frozen=True)
class WindowEvidence:
    seat: int
    start: float
    end: float
    onset: float
    confidence: float


@dataclass(frozen=True)
class HuntVerdict:
    group: str
    members: tuple[int, ...]
    hit: int | None
    findings: tuple[MemberFinding, ...]
    windows: tuple[WindowEvidence, ...]
    between_gap: float
    confidence: float
    questions: tuple[str, ...]
    miss_reason: str | None = None  # the rules engine's MissReason value

    @property
    def needs_moderator(self) -> bool:
        return bool(self.questions)

    @property
    def shots(self) -> tuple[MemberShot, ...]:
        """The proposal as the rules engine's observations (one per member)."""
        return tuple(f.member_shot for f in self.findings)

    @property
    def summary(self) -> str:
        if self.hit is not None:
            return f"{self.group}: hit on seat {self.hit}"
        reasons = ", ".join(f"seat {f.seat}: {f.reason}" for f in self.findings)
        return f"{self.group}: miss ({reasons})"


@dataclass(frozen=True)
class HuntInput:
    """One hunt: the living members of the hunting group and what was recorded meanwhile."""

    group: str
    members: tuple[int, ...]
    shots: Sequence[ShotLike]
    windows: Sequence[WindowLike]
    between_gap: float
    seen: Mapping[int, float]
    #: Seats already out of the game (a unanimous shot on one is a miss).
    out: frozenset[int] = frozenset()
    #: When each called number's word ended (seat → seconds), where the speech shows it.
    word_ends: Mapping[int, float] = field(default_factory=dict)
    frame_times: Sequence[float] = field(default_factory=tuple)
    #: The source's frame index of each entry of ``frame_times`` (default: the position).
    frame_numbers: Sequence[int] = field(default_factory=tuple)


def frame_index(frame_times: Sequence[float], t: float) -> int | None:
    """Index of the frame nearest to ``t`` in a sorted list of frame times (None when empty)."""
    if not frame_times:
        return None
    i = bisect.bisect_left(frame_times, t)
    if i == 0:
        return 0
    if i == len(frame_times):
        return len(frame_times) - 1
    return i if frame_times[i] - t < t - frame_times[i - 1] else i - 1


def _frame_number(hunt: HuntInput, t: float) -> int | None:
    i = frame_index(hunt.frame_times, t)
    if i is None or not hunt.frame_numbers:
        return i
    return hunt.frame_numbers[i]


@dataclass(frozen=True)
class _Located:
    seat: int | None
    between: bool
    margin: float
    window_confidence: float
    doubt: str | None


def locate(
    t: float,
    windows: Sequence[WindowLike],
    between_gap: float,
    word_ends: Mapping[int, float] | None = None,
    config: Config | None = None,
) -> _Located:
    """Which number a shot at ``t`` counts for (see the module docstring for the rule)."""
    config = config or Config()
    ordered = sorted(windows, key=lambda w: w.start)
    if not ordered:
        return _Located(None, True, 0.0, 0.0, f"no number windows: a shot at {t:.2f} s")
    i = _inside(t, ordered)
    if i is None:
        return _Located(
            None, True, 0.0, 0.0, f"a shot at {t:.2f} s lies outside the count "
            f"({ordered[0].start:.2f}–{ordered[-1].end:.2f} s)"
        )
    w = ordered[i]
    # Decision thresholds near t: the edges of the between-gap around each boundary between two
    # consecutive windows (it ends where the next number's word begins, if that comes first),
    # and the pause rule's point after this number's word.
    pairs = list(itertools.pairwise(ordered))
    thresholds = [x for a, b in pairs
                  for x in (a.end - between_gap, min(a.end + between_gap, b.onset))]
    between = any(abs(t - a.end) <= between_gap and t < b.onset for a, b in pairs)
    end = (word_ends or {}).get(w.seat)
    if end is not None and i + 1 < len(ordered):
        pause = end + config.pause_share * max(0.0, ordered[i + 1].onset - end)
        thresholds.append(pause)
        between = between or pause < t
    distance = min((abs(t - x) for x in thresholds), default=float("inf"))
    band = config.doubt_band
    margin = 1.0 if band <= 0 else 0.5 + 0.5 * min(1.0, distance / band)
    return _Located(None if between else w.seat, between, margin, w.confidence, None)


def _inside(t: float, ordered: Sequence[WindowLike]) -> int | None:
    """The index of the window (of ``ordered``, sorted by start) that holds ``t`` (None: none)."""
    return next((i for i, w in enumerate(ordered) if w.start <= t < w.end), None)


def _beside(t: float, k: int, windows: Sequence[WindowLike]) -> bool:
    """Whether time ``t`` lies in the pause beside number ``k``: in ``k``'s window (after its
    word began) or in the window before it."""
    ordered = sorted(windows, key=lambda w: w.start)
    i = _inside(t, ordered)
    return i is not None and k in {w.seat for w in ordered[i: i + 2]}


def _finding(
    seat: int, shots: list[ShotLike], hunt: HuntInput, config: Config
) -> MemberFinding:
    seen = float(hunt.seen.get(seat, 0.0))
    evidence = tuple(
        ShotEvidence(
            seat=s.seat, t=s.t, duration=s.duration, depth=s.depth, confidence=s.confidence,
            frame=_frame_number(hunt, s.t),
            window_seat=locate(s.t, hunt.windows, hunt.between_gap, hunt.word_ends, config).seat,
        )
        for s in sorted(shots, key=lambda s: s.t)
    )
    doubts: list[str] = []
    # Weak shots beside strong ones are not counted (the likelier reading) but are asked about,
    # except in the number window of a strong one: two squeezes on one number (a double).
    strong = [s for s in shots if s.confidence >= config.sure]
    # The chance that a left-out squeeze was a real shot caps the finding's confidence.
    cap = 1.0
    if strong and len(strong) < len(shots):
        ordered = sorted(hunt.windows, key=lambda w: w.start)
        doubled = {_inside(s.t, ordered) for s in strong} - {None}
        kept = [s for s in shots
                if s.confidence >= config.sure or _inside(s.t, ordered) in doubled]
        for weak in shots:
            if weak not in kept:
                doubts.append(f"seat {seat}: a weak squeeze at {weak.t:.2f} s "
                              f"({weak.confidence:.0%}) was not counted as a shot")
                cap = min(cap, 1.0 - weak.confidence)
        shots = kept
    if not shots:
        if seen < config.min_seen:
            return MemberFinding(
                seat, ShotKind.NOT_SEEN, None, REASONS[ShotKind.NOT_SEEN],
                0.0, (), seen,
                (f"seat {seat}'s hand was seen in only {seen:.0%} of the hunt",),
            )
        if seen < config.sure:
            doubts.append(f"seat {seat}'s hand was seen in only {seen:.0%} of the hunt: "
                          "a shot may have been missed")
        return MemberFinding(seat, ShotKind.NO_SHOT, None, REASONS[ShotKind.NO_SHOT],
                             seen, (), seen, tuple(doubts))
    if len(shots) > 1:
        weakest = min(s.confidence for s in shots)
        if weakest < config.sure:
            doubts.append(f"seat {seat}: {len(shots)} shots, the weakest at "
                          f"{weakest:.0%} confidence")
        return MemberFinding(
            seat, ShotKind.MULTIPLE, None, REASONS[ShotKind.MULTIPLE],
            min(weakest, cap), evidence, seen, tuple(doubts),
        )
    shot = shots[0]
    where = locate(shot.t, hunt.windows, hunt.between_gap, hunt.word_ends, config)
    confidence = min(shot.confidence, where.window_confidence, where.margin, cap)
    if where.doubt and hunt.windows:  # without any window one question covers every shot
        doubts.append(where.doubt)
    if shot.confidence < config.sure:
        doubts.append(f"seat {seat}'s shot at {shot.t:.2f} s is weak "
                      f"({shot.confidence:.0%} confidence)")
    if where.window_confidence < config.sure and where.doubt is None:
        doubts.append(f"the timing of the numbers around {shot.t:.2f} s is uncertain "
                      f"({where.window_confidence:.0%})")
    if where.margin < config.sure and where.doubt is None:
        doubts.append(f"seat {seat}'s shot at {shot.t:.2f} s is close to the boundary "
                      "between two numbers")
    if where.between:
        return MemberFinding(
            seat, ShotKind.BETWEEN, None, REASONS[ShotKind.BETWEEN],
            confidence, evidence, seen, tuple(doubts),
        )
    return MemberFinding(seat, ShotKind.SHOT, where.seat, f"shot on {where.seat}",
                         confidence, evidence, seen, tuple(doubts))


def judge_hunt(hunt: HuntInput, config: Config | None = None) -> HuntVerdict:
    """The verdict of one hunt: hit on a seat or a miss with a reason per member."""
    config = config or Config()
    if not hunt.members:
        raise ValueError(f"hunt of {hunt.group!r}: the group has no living member")
    member_set = set(hunt.members)
    per_seat: dict[int, list[ShotLike]] = {m: [] for m in hunt.members}
    for shot in hunt.shots:
        if shot.seat in member_set:
            per_seat[shot.seat].append(shot)
    findings = [_finding(m, per_seat[m], hunt, config) for m in hunt.members]

    # Hit or miss is the rules engine's decision (a shot on a seat already out is a miss too).
    ruling = resolve_hunt(hunt.group, [f.member_shot for f in findings], frozenset(hunt.out))
    hit = ruling.target
    if hit is None:
        targets = Counter(f.target for f in findings if f.observation is ShotKind.SHOT)
        top = targets.most_common(2)
        agreed = top[0][0] if top and (len(top) == 1 or top[0][1] > top[1][1]) else None
        findings = [
            f if f.observation is not ShotKind.SHOT or f.target == agreed
            else MemberFinding(f.seat, f.observation, f.target,
                               f"{ANOTHER_NUMBER} ({f.target})", f.confidence, f.shots, f.seen,
                               f.doubts)
            for f in findings
        ]
    questions = tuple(d for f in findings for d in f.doubts)
    # A miss that only a member's missing shot, or a second squeeze beside his shot on the
    # number the others agree on, makes turns into a hit if the squeeze was there but not
    # detected, or the second one was not a squeeze (the detector reports some, confidently):
    # the moderator looks.
    # So does a squeeze between numbers in the pause beside that number (late after its word, or
    # early before it): "on the number" or "between" is the moderator's judgement there.
    shooters = {f.target for f in findings if f.observation is ShotKind.SHOT}
    if hit is None and len(shooters) == 1:
        (k,) = shooters
        silent = [f.seat for f in findings if f.observation is ShotKind.NO_SHOT]
        doubled = [f.seat for f in findings if f.observation is ShotKind.MULTIPLE
                   and any(s.window_seat == k for s in f.shots)]
        off = [f.seat for f in findings if f.observation is ShotKind.BETWEEN
               and all(_beside(s.t, k, hunt.windows) for s in f.shots)]
        seen = ([f"no shot was seen from seat {', '.join(map(str, silent))}"] if silent else []
                ) + ([f"seat {', '.join(map(str, doubled))} squeezed more than once"]
                     if doubled else []
                ) + ([f"seat {', '.join(map(str, off))} squeezed between numbers beside {k}"]
                     if off else [])
        if seen:
            questions += (f"the others shot on {k}; {'; '.join(seen)}: check the strip "
                          f"(a hit if each squeezed once on {k})",)
    if not hunt.windows:
        questions = ("the count of numbers was not heard: no timing for the shots",
                     *questions)
    return HuntVerdict(
        group=hunt.group,
        members=tuple(hunt.members),
        hit=hit,
        findings=tuple(findings),
        windows=tuple(
            WindowEvidence(w.seat, w.start, w.end, w.onset, w.confidence)
            for w in sorted(hunt.windows, key=lambda w: w.start)
        ),
        between_gap=hunt.between_gap,
        confidence=min(f.confidence for f in findings) if hunt.windows else 0.0,
        questions=questions,
        miss_reason=ruling.reason.value if ruling.reason is not None else None,
    )


@dataclass(frozen=True)
class CheckReading:
    """A leader's check: the number read, put to the moderator as a yes/no question."""

    leader: int
    target: int | None
    question: str
    confidence: float
    numbers: tuple[int, ...]
    doubts: tuple[str, ...]

    @property
    def needs_moderator(self) -> bool:
        return bool(self.doubts)


#: The one-hand value of the open hand beside which a two-hand number is shown (6 is 5 and 1).
OPEN_HAND = 5


def _hands_of_two(mine: list[NumberLike], seat: int) -> tuple[list[NumberLike], list[str]]:
    """``mine`` (one seat's numbers in time order) without the readings of one hand of the
    two-hand number shown: a leader shows 6–10 as an open hand (5) and the rest, and the
    hands rise and fall one at a time, or the tracker loses one of them for a while, so a 7
    is read beside a 5 or a 2. Left as they are when more than one two-hand number was read,
    or when the two-hand number lies between two readings of its part (3, 8, 3 is a 3 a
    second hand passed by). The dropped readings stay in the doubts."""
    two = {n.value for n in mine if OPEN_HAND < n.value <= 2 * OPEN_HAND}
    if len(two) != 1:
        return mine, []
    (number,) = two
    parts = {OPEN_HAND, number - OPEN_HAND}
    where = [i for i, n in enumerate(mine) if n.value == number]
    around = [i for i, n in enumerate(mine) if n.value in parts]
    if not around or (around[0] < where[0] and around[-1] > where[-1]):
        return mine, []
    dropped = sorted({mine[i].value for i in around})
    return [n for n in mine if n.value not in parts], [
        f"seat {seat} also showed {' and '.join(map(str, dropped))}, read as one hand of "
        f"the two-hand {number}"]


def _confident_values(
    numbers: Sequence[NumberLike], seat: int, valid: set[int], config: Config
) -> tuple[list[int], list[str], float]:
    mine = sorted((n for n in numbers if n.seat == seat), key=lambda n: n.start)
    mine, doubts = _hands_of_two(mine, seat)
    values: list[int] = []
    confidence = 1.0
    for n in mine:
        if n.value not in valid:
            doubts.append(f"seat {seat} showed {n.value}, which is not a seat that can be named")
            continue
        if n.confidence < config.sure:
            doubts.append(f"seat {seat}'s number {n.value} was read with only "
                          f"{n.confidence:.0%} confidence")
        confidence = min(confidence, n.confidence)
        values.append(n.value)
    return values, doubts, confidence


def read_check(
    leader: int,
    looking_for: str,
    numbers: Sequence[NumberLike],
    valid_targets: Sequence[int],
    config: Config | None = None,
    joined: int | None = None,
) -> CheckReading:
    """The seat a leader showed during a check (``looking_for`` e.g. "the Sheriff").

    ``joined``: the number the club convention makes of two numbers shown one after the other
    (``mafiavision.vision.numbers.read_number``: 1 then 2 is seat 12), when it applies."""
    config = config or Config()
    if joined is not None and joined in set(valid_targets):
        mine = [n for n in numbers if n.seat == leader]
        confidence = min((n.confidence for n in mine), default=0.0)
        doubts = ([f"seat {leader}'s numbers were read with only {confidence:.0%} confidence"]
                  if confidence < config.sure else [])
        return CheckReading(leader, joined, f"Is seat {joined} {looking_for}?", confidence,
                            tuple(n.value for n in mine), tuple(doubts))
    values, doubts, confidence = _confident_values(numbers, leader, set(valid_targets), config)
    distinct = list(dict.fromkeys(values))
    if len(distinct) == 1:
        target = distinct[0]
        question = f"Is seat {target} {looking_for}?"
    else:
        target = None
        confidence = 0.0
        question = f"Which seat did seat {leader} show, looking for {looking_for}?"
        doubts.append(
            f"no number read from seat {leader}" if not distinct
            else f"seat {leader} showed several numbers: {', '.join(map(str, distinct))}"
        )
    return CheckReading(leader, target, question, confidence, tuple(values), tuple(doubts))


@dataclass(frozen=True)
class OrdersReading:
    """The Don's night-zero orders: the seats to shoot on nights 1, 2, 3, shown twice."""

    leader: int
    orders: tuple[int, ...] | None
    passes: tuple[tuple[int, ...], ...]
    confidence: float
    doubts: tuple[str, ...]

    @property
    def needs_moderator(self) -> bool:
        return bool(self.doubts)


def read_orders(
    leader: int,
    read: OrdersLike,
    valid_targets: Sequence[int],
    count: int,
    config: Config | None = None,
) -> OrdersReading:
    """The card of the Don's orders from the passes the reader found
    (``mafiavision.vision.orders.read_orders``): the proposal whenever there is one, with a
    doubt when the passes differ, were read once, or hold another number of orders than the
    rules' ``count`` (0: the rules show none)."""
    config = config or Config()
    doubts: list[str] = []
    orders = tuple(read.proposal) or None
    confidence = read.confidence
    shown = " / ".join(", ".join(map(str, p)) for p in read.passes if p) or "nothing"
    if orders is None:
        doubts.append(f"no orders read from seat {leader}")
        confidence = 0.0
    elif len(read.passes) < 2:
        confidence = min(confidence, 0.5)
        doubts.append(f"seat {leader}'s orders were read once only: {shown}")
    elif not read.agree:
        confidence = min(confidence, 0.5)
        doubts.append(f"the passes of seat {leader}'s orders differ: {shown}")
    if orders is not None and len(orders) != count:
        doubts.append(f"seat {leader} showed {len(orders)} orders; the rules take "
                      f"{count or 'none'}")
    bad = [v for v in orders or () if v not in set(valid_targets)]
    if bad:
        doubts.append(f"seat {leader}'s orders name {', '.join(map(str, bad))}, which cannot be "
                      "ordered")
    if orders is not None and confidence < config.sure and not doubts:
        doubts.append(f"seat {leader}'s orders were read with only {confidence:.0%} confidence")
    return OrdersReading(leader, orders, tuple(read.passes), confidence, tuple(doubts))


@dataclass(frozen=True)
class RaisedHandReading:
    """A leader raising a hand to meet the moderator (the Sheriff on night zero)."""

    seat: int
    raised: bool
    seen: float
    doubts: tuple[str, ...]

    @property
    def needs_moderator(self) -> bool:
        return bool(self.doubts)


def read_raised_hand(seat: int, seen: float, config: Config | None = None) -> RaisedHandReading:
    """``seen``: the share of the step's frames in which a hand was found at ``seat``."""
    config = config or Config()
    raised = seen >= config.min_seen
    doubts: tuple[str, ...] = ()
    if 1 - config.sure < seen < config.sure:
        doubts = (f"seat {seat}'s hand was seen in {seen:.0%} of the frames: raised or not?",)
    return RaisedHandReading(seat, raised, seen, doubts)
