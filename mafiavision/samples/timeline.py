"""Resolve a night script into exact times: every word, hand, squeeze and expected result."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from mafiavision.errors import InputError
from mafiavision.samples.hand import squeeze_degrees
from mafiavision.samples.script import (
    CheckPhase,
    HuntPhase,
    NightScript,
    OrdersPhase,
    WakePhase,
)
from mafiavision.samples.sprites import SHAPES, nearest_gun_level
from mafiavision.samples.truth import (
    CheckResult,
    Distraction,
    Gesture,
    HuntResult,
    OrdersResult,
    Word,
    hunt_result,
    looks_for,
)
from mafiavision.samples.voice import CALLS, NUMBERS, Voice, duration, sample_time

RISE = 0.45  # seconds for a hand to go up (and down)
SKIN_TONES: tuple[tuple[int, int, int], ...] = (
    (232, 184, 150), (214, 160, 122), (190, 135, 100), (150, 100, 70), (112, 74, 52),
    (240, 200, 172),
)
SHIRTS: tuple[tuple[int, int, int], ...] = (
    (40, 52, 110), (120, 30, 35), (35, 90, 60), (70, 70, 75), (150, 120, 60), (90, 50, 120),
    (25, 25, 30), (170, 170, 165), (60, 100, 140), (130, 80, 40),
)
HAIR: tuple[tuple[int, int, int], ...] = ((30, 22, 18), (70, 45, 25), (120, 90, 50), (15, 12, 10),
                                          (150, 140, 130))


@dataclass
class HandPlan:
    """One hand on screen and what it does over time."""

    seat: int
    hand: int
    appear: float
    up: float
    down: float
    gone: float
    pose: str  # "gun", "count" or "open"
    yaw: float
    view: str
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]
    shape: int
    offset: float = 0.0  # sideways offset (fraction of the region) for two-hand numbers
    counts: list[tuple[float, float, int]] = field(default_factory=list)
    squeezes: list[tuple[float, float, float]] = field(default_factory=list)  # start, end, depth
    sway: float = 1.0  # amplitude factor; a distractor "move" hand moves a lot
    phase: float = 0.0

    def lift(self, t: float) -> float:
        """0 (hidden) .. 1 (fully raised), eased."""
        if t <= self.appear or t >= self.gone:
            return 0.0
        if t < self.up:
            x = (t - self.appear) / (self.up - self.appear)
        elif t > self.down:
            x = (self.gone - t) / (self.gone - self.down)
        else:
            return 1.0
        return float(0.5 - 0.5 * np.cos(np.pi * x))

    def bend(self, t: float) -> float:
        """Gun bend at ``t`` quantised to the sprite grid (what is rendered)."""
        b = 0.0
        for s, e, depth in self.squeezes:
            if s <= t <= e:
                b = max(b, depth * float(np.sin(np.pi * (t - s) / (e - s)) ** 2))
        return nearest_gun_level(b)

    def count_at(self, t: float) -> int:
        for s, e, n in self.counts:
            if s <= t < e:
                return n
        return self.counts[0][2] if self.counts else 5


@dataclass
class Timeline:
    duration: float
    words: list[Word]
    hands: list[HandPlan]
    gestures: list[Gesture]
    hunts: list[HuntResult]
    checks: list[CheckResult]
    orders: list[OrdersResult]
    distractions: list[Distraction]


@dataclass
class Appearance:
    skin: dict[int, tuple[int, int, int]]
    shirt: dict[int, tuple[int, int, int]]
    hair: dict[int, tuple[int, int, int]]
    shape: dict[int, int]
    yaw: dict[int, float]


def appearance(script: NightScript, rng: np.random.Generator) -> Appearance:
    seats = range(1, script.seats + 1)
    back = set(script.back)
    return Appearance(
        skin={s: SKIN_TONES[int(rng.integers(len(SKIN_TONES)))] for s in seats},
        shirt={s: SHIRTS[int(rng.integers(len(SHIRTS)))] for s in seats},
        hair={s: HAIR[int(rng.integers(len(HAIR)))] for s in seats},
        shape={s: int(rng.integers(len(SHAPES))) for s in seats},
        yaw={s: float(rng.choice([-30.0, 0.0, 30.0])) + (180.0 if s in back else 0.0)
             for s in seats},
    )


def build(script: NightScript, look: Appearance, rng: np.random.Generator) -> Timeline:
    lang = script.voice.language
    voice = Voice(script.voice.variant or lang, script.voice.rate, script.voice.pitch)
    words: list[Word] = []
    hands: list[HandPlan] = []
    gestures: list[Gesture] = []
    hunts: list[HuntResult] = []
    checks: list[CheckResult] = []
    orders: list[OrdersResult] = []

    def say_call(key: str, t: float) -> float:
        for w in CALLS[key][lang].split():
            onset = sample_time(t)
            offset = sample_time(onset + duration(w, voice))
            words.append(Word(text=w, onset=onset, offset=offset, kind="call"))
            t = offset + script.voice.word_gap * (1 + rng.uniform(-0.3, 0.3))
        return t

    def plan(seat: int, appear: float, down: float, pose: str, **kw: object) -> HandPlan:
        h = HandPlan(seat=seat, hand=int(kw.pop("hand", 0)), appear=appear, up=appear + RISE,
                     down=down, gone=down + RISE, pose=pose, yaw=look.yaw[seat],
                     view="back" if seat in script.back else "palm", skin=look.skin[seat],
                     sleeve=look.shirt[seat], shape=look.shape[seat],
                     phase=float(rng.uniform(0, 2 * np.pi)), **kw)  # type: ignore[arg-type]
        hands.append(h)
        return h

    def show_number(seat: int, value: int, appear: float, hold: float, kind: str) -> float:
        """Raise one hand (1..5) or two (6..10) showing ``value``; returns when they are gone."""
        down = appear + RISE + hold
        parts = [value] if value <= 5 else [5, value - 5]
        for i, n in enumerate(parts):
            off = 0.0 if len(parts) == 1 else (-0.2 if i == 0 else 0.2)
            plan(seat, appear, down, "count", hand=i, offset=off,
                 counts=[(appear, down + RISE, n)])
        gestures.append(Gesture(seat=seat, kind=kind, start=appear + RISE, end=down,  # type: ignore[arg-type]
                                value=value, hands=len(parts), view=_view(script, seat)))
        return down + RISE

    t_end = 0.0
    for p in script.phases:
        if p.at < t_end:
            raise InputError(f"script {script.name}: phase at {p.at}s starts before the previous "
                             f"one ends ({t_end:.2f}s)")
        if isinstance(p, HuntPhase):
            t = say_call(f"hunt_{p.group}", p.at)
            members = script.members(p.group)
            appear = t + 0.2
            onsets: list[float] = []
            offsets: list[float] = []
            nxt = appear + RISE + 0.7
            for k in range(1, (p.numbers or script.seats) + 1):
                onset = sample_time(nxt)
                offset = sample_time(onset + duration(NUMBERS[lang][k - 1], voice))
                words.append(Word(text=NUMBERS[lang][k - 1], onset=onset, offset=offset,
                                  kind="number", number=k))
                onsets.append(onset)
                offsets.append(offset)
                pace = script.voice.pace * (1 + rng.uniform(-script.voice.jitter,
                                                            script.voice.jitter))
                nxt = max(onset + pace, offset + 0.15)
            down = offsets[-1] + 0.8
            shots_by_seat: dict[int, list[Gesture]] = {}
            for seat in members:
                h = plan(seat, appear, down, "gun")
                gestures.append(Gesture(seat=seat, kind="raise", start=h.up, end=h.down,
                                        view=_view(script, seat)))
                for spec in p.shots.get(seat, []):
                    if spec.at is not None:
                        k = spec.at
                        s = onsets[k - 1] + spec.delay
                        centre = s + spec.duration / 2
                        limit = onsets[k] if k < len(onsets) else down
                        if centre >= limit - 0.05 or centre < onsets[k - 1]:
                            raise InputError(f"script {script.name}: shot of seat {seat} at {k} "
                                             "does not fall inside that number's window")
                        g = Gesture(seat=seat, kind="shot", start=s, end=s + spec.duration,
                                    value=k)
                    else:
                        a, b = spec.between  # type: ignore[misc]
                        gap = onsets[b - 1] - offsets[a - 1]
                        if gap < 0.2:
                            raise InputError(f"script {script.name}: the pause between {a} and "
                                             f"{b} is {gap:.2f}s, too short for 'between'")
                        centre = (offsets[a - 1] + onsets[b - 1]) / 2
                        s = centre - spec.duration / 2
                        g = Gesture(seat=seat, kind="shot", start=s, end=s + spec.duration,
                                    between=(a, b))
                    h.squeezes.append((g.start, g.end, spec.depth))
                    g.peak = (g.start + g.end) / 2
                    g.depth_deg = squeeze_degrees(nearest_gun_level(spec.depth))
                    g.view = _view(script, seat)  # type: ignore[assignment]
                    gestures.append(g)
                    shots_by_seat.setdefault(seat, []).append(g)
            hunts.append(hunt_result(p.group, members, shots_by_seat))
            t_end = down + RISE
        elif isinstance(p, CheckPhase):
            role = script.role_of(p.by)
            finds = looks_for(script.rules, role)
            if not finds:
                raise InputError(f"script {script.name}: seat {p.by} ({role}) cannot check")
            t = say_call(f"check_{role}", p.at)
            t_end = show_number(p.by, p.show, t + 0.3, p.hold, "number")
            checks.append(CheckResult(by=p.by, role=role, shown=p.show,
                                      hands=1 if p.show <= 5 else 2,
                                      answer=script.role_of(p.show) in finds,
                                      looks_for=list(finds)))
        elif isinstance(p, OrdersPhase):
            t = say_call("wake_mafia", p.at) + 0.3
            for r in range(p.repeat):
                for v in p.values:
                    t = show_number(p.by, v, t, p.hold, "order") + 0.3
                if r + 1 < p.repeat:
                    t += p.pause
            orders.append(OrdersResult(by=p.by, values=list(p.values), repeats=p.repeat))
            t_end = t
        elif isinstance(p, WakePhase):
            t = say_call(p.call, p.at)
            h = plan(p.seat, t + 0.3, t + 0.3 + RISE + p.hold, "open",
                     counts=[(0.0, 1e9, 5)])
            gestures.append(Gesture(seat=p.seat, kind="raise", start=h.up, end=h.down,
                                    view=_view(script, p.seat)))
            t_end = h.gone
    distractions: list[Distraction] = []
    for d in script.distractors:
        distractions.append(Distraction(kind=d.kind, start=d.start, end=d.end, seat=d.seat,
                                        gain=d.gain if d.kind == "light" else None))
        if d.kind == "move":
            assert d.seat is not None
            h = plan(d.seat, d.start, d.end - RISE, "open", counts=[(0.0, 1e9, 5)], sway=6.0)
            gestures.append(Gesture(seat=d.seat, kind="move", start=h.up, end=h.down,
                                    view=_view(script, d.seat)))
        t_end = max(t_end, d.end)
    words.sort(key=lambda w: w.onset)
    gestures.sort(key=lambda g: (g.start, g.seat))
    return Timeline(t_end + script.tail, words, hands, gestures, hunts, checks, orders,
                    distractions)


def _view(script: NightScript, seat: int) -> str:
    return "back" if seat in script.back else "palm"
