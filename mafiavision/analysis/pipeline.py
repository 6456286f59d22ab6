"""``mafiavision analyze``: one recording → ``events.json``, ``record.jsonl``, ``report.html``.

1. probe the recording and check that the table fits it (a clear error otherwise);
2. the vision pass (:mod:`~mafiavision.analysis.scan`): hands, poses, bend signal, shots,
   numbers, with the cheap day gate;
3. meanwhile, in a thread, the audio track's voice segments (none → a vision-only analysis,
   said in the report);
4. the hunts and checks, found (:mod:`~mafiavision.analysis.finder`) or given by hand;
5. per hunt the number windows of the count and the verdict of the night arbiter
   (``night.arbiter.judge_hunt``, the same one the live night uses); per check the number read
   (``night.arbiter.read_check``);
6. the comparison with a live record; the game record when the deal is known (``--deal`` or
   ``--record``); thumbnails, the report; ``events.json`` last (atomically), so its presence
   means the game is finished (the batch relies on it).
"""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from mafiavision import __version__
from mafiavision.analysis.deal import GameDeal, load_deal
from mafiavision.analysis.events import (
    CheckRecord,
    Events,
    HuntRecord,
    MemberRecord,
    NumberRecord,
    OrdersRecord,
    ShotRecord,
    SourceInfo,
    VerdictRecord,
    WindowRecord,
)
from mafiavision.analysis.finder import (
    CheckSpan,
    FinderConfig,
    HuntSpan,
    OrdersSpan,
    find_checks,
    find_hunts,
    find_orders,
    first_orders,
    given_checks,
    given_hunts,
    split_night_zero,
)
from mafiavision.analysis.game import (
    answer_checks,
    called_seats,
    compare,
    load_ruleset,
    read_live,
    record_from_deal,
    write_record,
)
from mafiavision.analysis.media import MediaInfo, probe, thumbnails
from mafiavision.analysis.report import thumb_key, write_report
from mafiavision.analysis.scan import ScanConfig, ScanResult, scan
from mafiavision.analysis.speech import count_windows, speech_segments
from mafiavision.analysis.timeline import SeatSeries
from mafiavision.errors import InputError

#: Seconds around a hunt in which its shots and words are looked for.
HUNT_PAD = 1.0
#: Seconds before and after a shot shown as thumbnails.
STRIP = (-0.3, 0.0, 0.3)
#: Said in the report and on stdout when the deal is unknown.
NO_RECORD = ("no game record (record.jsonl) written: the recording does not show the deal; give "
             "it with --deal DEAL.yaml (the moderator's sheet: role: seats) or --record LIVE.jsonl")


@dataclass(frozen=True)
class Options:
    hunts: list[tuple[float, float]] | None = None
    checks: list[tuple[float, float]] | None = None
    record: Path | None = None
    deal: Path | None = None
    progress: bool = True
    scan: ScanConfig = field(default_factory=ScanConfig)
    finder: FinderConfig = field(default_factory=FinderConfig)


@dataclass
class AnalysisResult:
    events: Events
    series: dict[int, SeatSeries]
    events_path: Path
    report: Path
    record: Path | None


def load_table(path: Path, info: MediaInfo):
    """The table, checked against the video: same aspect ratio, every region inside."""
    from mafiavision.vision.table import Table

    table = Table.load(path)
    try:
        table.check_frame_size(info.width, info.height)
    except InputError as exc:
        raise InputError(f"{path}: does not fit {info.path.name}: {exc}") from None
    return table


def seats_box(table, seats: list[int], margin: float = 0.1) -> tuple[float, float, float, float]:
    """The normalised box around the regions of ``seats`` (the whole frame without seats)."""
    points = [p for s in seats for p in table.region(s).polygon]
    if not points:
        return (0.0, 0.0, 1.0, 1.0)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    mx, my = margin * (max(xs) - min(xs)), margin * (max(ys) - min(ys))
    return (max(0.0, min(xs) - mx), max(0.0, min(ys) - my), min(1.0, max(xs) + mx),
            min(1.0, max(ys) + my))


def _seen_share(series: SeatSeries, start: float, end: float) -> float:
    part = series.between(start, end)
    return float(part.seen.mean()) if part.t.size else 0.0


def _judge(index: int, span: HuntSpan, result: ScanResult, speech: list | None,
           called: list[int], smallest_group: int) -> HuntRecord:
    """The verdict of one hunt. Its members are the seats holding the gun pose and the seats that
    fired inside it (a back-of-hand gun can be missed by the pose reader while its squeeze is
    found); fewer members than the smallest bandit group is a question, never a silent hit."""
    from mafiavision.night.arbiter import HuntInput, judge_hunt

    start, end = span.start - HUNT_PAD, span.end + HUNT_PAD
    shots = [s for s in result.shots if start <= s.t <= end]
    members = tuple(sorted(set(span.members)
                           | {s.seat for s in shots if span.start <= s.t <= span.end}))
    windows, between_gap, ends = count_windows(speech, start, end, called)
    verdict = judge_hunt(HuntInput(
        group=f"seats {', '.join(map(str, members))}",
        members=members,
        shots=shots,
        windows=windows,
        between_gap=between_gap,
        seen={m: _seen_share(result.series[m], span.start, span.end) for m in members},
        word_ends=ends,
        frame_times=[t for t in result.frame_times if start <= t <= end],
    ))
    firsts = [f.shots[0].t for f in verdict.findings if f.shots]
    spread = 1000 * (max(firsts) - min(firsts)) if len(firsts) >= 2 else None
    evidence = sorted({round(t + dt, 3) for t in firsts for dt in STRIP})
    if not evidence:
        evidence = [round((span.start + span.end) / 2, 3)]
    return HuntRecord(
        index=index, start=span.start, end=span.end, origin=span.origin, members=list(members),
        confidence=span.confidence,
        windows=[WindowRecord(seat=w.seat, start=w.start, end=w.end, onset=w.onset,
                              confidence=w.confidence) for w in windows],
        shots=[_shot(s) for s in shots],
        verdict=VerdictRecord(
            outcome="hit" if verdict.hit is not None else "miss",
            target=verdict.hit,
            members=[MemberRecord(
                seat=f.seat, kind=f.observation.value, target=f.target,
                reason=f.reason, confidence=f.confidence, seen=min(1.0, f.seen),
                shot_times=[s.t for s in f.shots]) for f in verdict.findings],
            questions=list(verdict.questions) + (
                [f"only {len(members)} hunters found (seats {', '.join(map(str, members))}), "
                 f"the smallest bandit group has {smallest_group}: is a hunter missing?"]
                if len(members) < smallest_group else []),
            confidence=verdict.confidence,
            spread_ms=round(spread, 1) if spread is not None else None,
            evidence_times=evidence,
        ),
    )


def deal_of(path: Path, ruleset, live) -> GameDeal:
    """The deal of ``--deal``; with a live record too, both must deal the same cards."""
    from mafiavision.rules import Deal

    deal = load_deal(path, ruleset)
    if live is not None:
        dealt = next((e.action for e in live[1] if isinstance(e.action, Deal)), None)
        if dealt is not None and dealt.roles != deal.roles:
            raise InputError(f"{path}: not the deal of the live record (--record): "
                             f"{'; '.join(deal.differences(dealt.roles)[:3])} (deal file / "
                             "record)")
    return deal


def _spans(segments: list | None) -> list[tuple[float, float]] | None:
    return None if segments is None else [(s.start, s.end) for s in segments]


def _shot(s) -> ShotRecord:
    return ShotRecord(seat=s.seat, t=s.t, duration=s.duration, depth=s.depth,
                      confidence=min(1.0, max(0.0, s.confidence)))


def _number(n) -> NumberRecord:
    return NumberRecord(seat=n.seat, start=n.start, end=n.end, value=n.value,
                        confidence=min(1.0, max(0.0, n.confidence)))


def _check(index: int, span: CheckSpan, numbers: list[NumberRecord], seats: list[int]
           ) -> CheckRecord:
    from mafiavision.night.arbiter import read_check

    inside = [n for n in numbers if n.seat == span.seat and n.start < span.end
              and n.end > span.start]
    reading = read_check(span.seat, "the player this leader looks for", inside, seats)
    return CheckRecord(
        index=index, start=span.start, end=span.end, origin=span.origin, seat=span.seat,
        value=reading.target, confidence=reading.confidence, question=reading.question,
        doubts=list(reading.doubts),
        evidence_times=[round((n.start + n.end) / 2, 3) for n in inside[:2]]
        or [round((span.start + span.end) / 2, 3)],
    )


def _orders(index: int, span: OrdersSpan, count: int, seats: list[int]) -> OrdersRecord:
    from mafiavision.night.arbiter import read_orders
    from mafiavision.vision.orders import read_orders as compare_passes

    reading = read_orders(span.seat, compare_passes(list(span.shown), count),
                          [s for s in seats if s != span.seat], count)
    return OrdersRecord(
        index=index, start=span.start, end=span.end, origin=span.origin, seat=span.seat,
        orders=list(reading.orders) if reading.orders is not None else None,
        passes=[list(p) for p in reading.passes], confidence=min(1.0, reading.confidence),
        doubts=list(reading.doubts),
        evidence_times=[round((n.start + n.end) / 2, 3) for n in span.shown[:count or None]],
    )


def analyze(recording: Path, table_path: Path, rules: str, out: Path,
            options: Options | None = None) -> AnalysisResult:
    """Analyse one recording into ``out`` (see the module docstring)."""
    from tqdm import tqdm

    options = options or Options()
    info = probe(recording)
    table = load_table(table_path, info)
    ruleset = load_ruleset(rules)
    if table.seats != ruleset.players:
        raise InputError(f"{table_path}: {table.seats} seats, but {ruleset.name} is played by "
                         f"{ruleset.players}")
    live = read_live(options.record) if options.record is not None else None
    deal = deal_of(options.deal, ruleset, live) if options.deal is not None else None
    out.mkdir(parents=True, exist_ok=True)

    bar = tqdm(total=round(info.duration, 1), unit="s", desc=recording.name, file=sys.stderr,
               disable=not options.progress, bar_format="{l_bar}{bar}| {n:.0f}/{total:.0f} s "
               "[{elapsed}<{remaining}]")

    def advance(t: float) -> None:
        bar.update(max(0.0, round(t, 1) - bar.n))

    # the audio track is read meanwhile: its decoder and voice detector release the GIL
    with ThreadPoolExecutor(1, "speech") as audio:
        listened = audio.submit(speech_segments, info)
        result = scan(info, table, options.scan, progress=advance)
        bar.close()
        speech, audio_warning = listened.result()
    if options.progress and speech is None:
        print(f"{recording.name}: vision-only analysis: {audio_warning}", file=sys.stderr)
    numbers = [_number(n) for n in result.numbers]
    n_seats = table.seats
    called = list(range(1, n_seats + 1))
    hunt_spans = (given_hunts(result.series, options.hunts, options.finder)
                  if options.hunts is not None
                  else find_hunts(result.series, _spans(speech), n_seats, options.finder))
    n_orders = max((step.orders for step in ruleset.night_zero), default=0)
    meets = sum(step.kind == "meet" and step.orders > 0 for step in ruleset.night_zero)
    orders_spans = ([] if options.checks is not None
                    else first_orders(find_orders(numbers, hunt_spans, n_orders, options.finder),
                                      hunt_spans, meets))
    check_spans = (given_checks(numbers, options.checks, result.series)
                   if options.checks is not None
                   else find_checks(numbers, hunt_spans, options.finder, orders_spans))
    from_start = deal is not None and deal.night == 0
    check_spans, leaders = split_night_zero(check_spans, orders_spans, hunt_spans, from_start)
    warnings = [*result.warnings, *table.warnings(info.width, info.height)]
    since = "the recording's start (the deal: night 0)" if from_start else "the orders"
    warnings.extend(f"seat {c.seat} showed {c.value} at {c.start:.1f} s, after {since} and "
                    "before any hunt (night zero, no checks): read as a leader showing himself"
                    for c in leaders)
    if audio_warning:
        warnings.append(audio_warning)
    # the numbers the moderator called in each hunt: the live record knows who was alive
    called_in = (called_seats(live[0], live[1], [(h.start, h.end) for h in hunt_spans])
                 if live is not None else {})
    if live is None and not ruleset.calls_dead_seats and hunt_spans:
        warnings.append(f"{ruleset.name}: the moderator calls only the living seats; without a "
                        f"live record (--record) each count is aligned to all {n_seats} seats")
    smallest_group = min(t.size for t in ruleset.teams if t.bandit)
    hunts = []
    for k, span in enumerate(hunt_spans):
        if not span.members and not any(span.start <= s.t <= span.end for s in result.shots):
            warnings.append(f"hunt at {span.start:.1f}–{span.end:.1f} s: no gun pose and no "
                            "shot found there, so no verdict")
            continue
        hunts.append(_judge(len(hunts) + 1, span, result, speech, called_in.get(k, called),
                            smallest_group))
    checks = [_check(i, span, numbers, called) for i, span in enumerate(check_spans, 1)]
    orders = [_orders(i, span, n_orders, called) for i, span in enumerate(orders_spans, 1)]
    disagreements = None
    record: Path | None = out / "record.jsonl"
    if live is not None:
        header, entries = live
        disagreements = compare(entries, hunts, checks)
        checks, record_warnings, record_info = write_record(record, recording, header, entries,
                                                            hunts, checks)
    elif deal is not None:
        checks, strays = answer_checks(ruleset, deal, checks)
        warnings.extend(strays)
        record_warnings, record_info = record_from_deal(record, recording, ruleset, deal, hunts,
                                                        checks, orders, leaders)
    else:
        record.unlink(missing_ok=True)  # an earlier analysis's record would contradict this one
        record, record_info, record_warnings = None, None, [NO_RECORD]
    warnings.extend(record_warnings)

    events = Events(
        tool_version=__version__,
        source=SourceInfo(
            path=str(recording), width=info.width, height=info.height, fps=info.fps,
            duration=info.duration, has_audio=info.has_audio,
            decoded_until=result.decoded_until, stopped_early=result.stop_reason is not None,
            stop_reason=result.stop_reason,
        ),
        rules=ruleset.name,
        table=str(table_path),
        vision_only=speech is None,
        sampling={"day_fps": options.scan.day_fps, "night_fps": options.scan.night_fps,
                  "decode_width": float(result.decode_width),
                  "frames_decoded": float(result.decoded),
                  "frames_tracked": float(len(result.frame_times))},
        hunts=hunts,
        checks=checks,
        orders=orders,
        shots=[_shot(s) for s in result.shots],
        numbers=numbers,
        disagreements=disagreements,
        record=record_info,
        warnings=warnings,
    )
    thumbs: dict[str, bytes] = {}
    for times, seats in [(h.verdict.evidence_times, h.members) for h in hunts] + [
            (c.evidence_times, [c.seat]) for c in [*checks, *orders]]:
        shots = thumbnails(recording, times, seats_box(table, seats))
        thumbs.update({thumb_key(t): jpeg for t, jpeg in shots.items()})
    report = write_report(out / "report.html", events, result.series, thumbs)
    events_path = out / "events.json"
    tmp = out / "events.json.tmp"
    events.save(tmp)
    tmp.replace(events_path)
    return AnalysisResult(events, result.series, events_path, report, record)
