"""Write a blind validation set of 16 whole-night scripts for the clip renderer, and check one.

    python scripts/make_validation_set.py --set 39 --seed 41000 \\
        --out validation_clips/scripts_v39 \\
        --avoid-voices-from validation_clips/scripts_v37 validation_clips/scripts_v38 \\
        --orders-twice ukrainian
    python scripts/make_validation_set.py --check validation_clips/scripts_v39 --set 39 \\
        --seed 41000 --avoid-voices-from ... --orders-twice ukrainian
    python scripts/make_validation_set.py --table validation_clips/scripts_v39

The design is set 38's (``validation_clips/README.md``, "# Set 38"); only the random draws are new.

Clips (table order, seeds ``seed+1 .. seed+16``): per rule set (Kharkiv, Romanian, Ukrainian) a
night zero and hunt nights 1-3; Triad nights 1, 2, 3 and one more drawn from 1-3. Per rule set 2
Russian and 2 English clips. 17 hunts (one Mafia hunt a night; Triad: a Clan hunt, then a Yakuza
hunt), so 47 gun hands: 5 misses in 5 different hunt nights - one gun held still, one double
squeeze on one number (delays -0.1 and +0.35 s, 0.3 s each: 0.45 s apart), one squeeze between
two numbers, two members shooting another number - which keeps 47 true shots. 3-5 hunts (drawn)
shoot on the first number, one per clip without a miss, seat 1 plain and hit there only; two
plain seats' open hands begin to rise 0.07-0.18 s before the guns of each and last through every
squeeze on it. Checks: one per leader and hunt night (30), values 1-10 three times each, every
value with both views, never the leader's own seat; each check's counting hands overlap a plain
seat's moving open hand. Night zero: Kharkiv and Ukrainian show the Don's orders (one of them
twice, ``--orders-twice``: ``repeat: 2`` with a 1.5 s pause; the other once), Kharkiv then wakes
the Sheriff, Ukrainian the Don and the Sheriff; Romanian shows no orders and wakes the Don (at
5.2 s, after a light change, a head lift and a move before any call).

Set-level draws (a generator seeded ``seed``): the extra Triad night, languages, the clips of
the misses and their kinds, the number and clips of first-number hunts, 5 dim rooms (hunt
nights) and 3 noisier rooms (the rest), voices (``ru``/``ru-lv`` and eight English espeak-ng
voices with ``+m1..m8``/``+f1..f5``, none of the avoided sets, none twice), then - after the roles
- the back-of-the-hand seats (each role seat with probability 1/2, redrawn until the shots split
24/23 and the checks 15/15), the check values (random deals, redealt until valid), depths dealt
per view from pools (each of 0.3..0.6 by 0.05 three times, plus distinct extra depths, the two
views' extras disjoint), delays (-0.15..+0.45 by 0.05, each three times plus distinct extras)
and durations (0.3..0.5 by 0.05, equally often) from shuffled pools until no -0.15 s delay falls
with a 0.3 s duration, and the optional distractors: every clip's mandatory ones (the first-number
moves, a move over each check, the Romanian night zero's three) plus optional ones, so that
the set's totals are 96 ``move``, 29 ``head_lift`` and 9 ``light``: each kind's optional ones are
split over the places where sets 37 and 38 put theirs, in the same proportions (``PLACE_WEIGHTS``:
through a true squeeze, over a check's counting hands, elsewhere in a hunt's count, during the
orders, while a hand is raised on a call), each dealt to a random anchor of its place (a hunt's
squeezes, a hunt's count, a check, the orders, a raised hand) and placed so that it counts as
that place (a squeeze outranks a check, a check a hunt's count; ``place_of``); redealt if a clip
cannot place its share. The checker counts
where the distractors fall (``--places`` prints it for any written set) and checks the moves
through squeezes: 2 per first-number hunt plus 52/112 of the optional moves, +-3.
Per-script draws (a generator seeded with the script's seed): roles, targets,
the odd member and its other number or pause, orders, voice settings, camera, room, holds and
gaps between phases (timed by resolving the script with the timeline, as the renderer will);
distractors are placed by a generator seeded ``seed + 500``. Ranges follow set 38's scripts:
rate 145-185 wpm, pitch 36-64, pace 0.95-1.25 s; 16:9 frames 672-1152 px wide (multiples of 32),
18-28 fps, elevation 41-59 deg, distance 3.9-5.5 m, hands x1.5-2.1; dim: brightness 0.52-0.58,
noise 4.7-5.1, crf 33-35; noisier: noise 1.9-2.0, crf 31; checks held 1.6-3.6 s, hands on a call
2.1-2.5 s, orders 1.9 s; the first phase at 0.5-0.8 s, 0.8-1.3 s between phases; distractors
3.0-4.4 s; light drops 0.56-0.6 and flares 1.34-1.4.

The checker (``--check``, also run after writing) verifies a written set against this design.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mafiavision.errors import InputError
from mafiavision.samples.script import NightScript, load_script
from mafiavision.samples.timeline import RISE, Timeline, appearance, build

RULESETS = ("kharkiv", "romanian", "ukrainian", "triad")
SEATS = {"kharkiv": 10, "romanian": 10, "ukrainian": 10, "triad": 12}
ROLES: dict[str, tuple[tuple[str, int], ...]] = {
    "kharkiv": (("mafia", 2), ("don", 1), ("sheriff", 1)),
    "romanian": (("mafia", 2), ("don", 1), ("commissar", 1)),
    "ukrainian": (("mafia", 2), ("don", 1), ("sheriff", 1)),
    "triad": (("clan", 2), ("boss", 1), ("yakuza", 1), ("kambu", 1), ("commissar", 1)),
}
GROUP_ROLES = {"mafia": ("mafia", "don"), "clan": ("clan", "boss"), "yakuza": ("yakuza", "kambu")}
HUNTS = {"kharkiv": ("mafia",), "romanian": ("mafia",), "ukrainian": ("mafia",),
         "triad": ("clan", "yakuza")}
LEADERS = {"kharkiv": ("don", "sheriff"), "romanian": ("don", "commissar"),
           "ukrainian": ("don", "sheriff"), "triad": ("boss", "kambu", "commissar")}
PLAIN = {"kharkiv": "civilian", "romanian": "citizen", "ukrainian": "civilian", "triad": "town"}
TITLE = {"mafia": "Mafia", "don": "the Don", "clan": "Clan", "boss": "the Boss",
         "yakuza": "Yakuza", "kambu": "the Kambu", "sheriff": "the Sheriff",
         "commissar": "the Commissar"}
MISS_KINDS = ("still", "double", "between", "other", "other")
DEPTHS = tuple(round(0.3 + 0.05 * i, 2) for i in range(7))
DELAYS = tuple(round(-0.15 + 0.05 * i, 2) for i in range(13))
DURATIONS = tuple(round(0.3 + 0.05 * i, 2) for i in range(5))
DOUBLE = ((-0.1, 0.3), (0.35, 0.3))  # the double squeeze's (delay, duration), set by hand
TOTALS = {"move": 96, "head_lift": 29, "light": 9}
N_HUNTS, N_SHOTS, N_BACK_SHOTS, N_CHECKS, N_BACK_CHECKS = 17, 47, 24, 30, 15
FIRST_RANGE = (3, 5)
N_DIM, N_NOISY = 5, 3
MOVE_LEAD = (0.07, 0.18)  # a first-number move begins this long before the guns
DUR = (3.0, 4.4)  # distractor lengths
# Where sets 37 and 38 put their optional distractors (both sets pooled, counted through the
# timeline with ``place_of``; ``--places`` prints them): the optional distractors of a kind are
# split over the places in these proportions, then dealt to the place's anchors at random.
PLACE_WEIGHTS = {"move": {"squeeze": 52, "check": 24, "count": 22, "orders": 9, "wake": 5},
                 "head_lift": {"squeeze": 22, "check": 18, "count": 13, "wake": 3},
                 "light": {"squeeze": 8, "check": 4, "count": 4}}
CAPS = {"squeeze": 4, "count": 6, "check": 6, "orders": 4, "wake": 2}  # optional ones per anchor
SQUEEZE_TOLERANCE = 3  # moves through squeezes: 2 per first-number hunt + the optional moves'
# squeeze share (52/112), +- this (the deal gives the share rounded; sets 37 and 38 are within it)
RU_BASES = ("ru", "ru-lv")
EN_BASES = ("en-gb", "en-us", "en-gb-scotland", "en-gb-x-gbclan", "en-gb-x-rp", "en-gb-x-gbcwmd",
            "en-029", "en-us-nyc")
VARIANTS = tuple(f"+m{i}" for i in range(1, 9)) + tuple(f"+f{i}" for i in range(1, 6))
ROMANIAN_WAKE = 5.2
MANDATORY = ("first", "check_hands", "before")


# ---------------------------------------------------------------------------------- the plan


@dataclass
class Hunt:
    group: str
    target: int = 0
    miss: str | None = None  # still, double, between, other
    odd: int | None = None  # the member who spoils the hunt
    other: int | None = None  # its other number
    between: tuple[int, int] | None = None
    first: bool = False
    shots: dict[int, list[dict[str, float | int | list[int]]]] = field(default_factory=dict)


@dataclass
class Clip:
    index: int
    rules: str
    night: int
    seed: int
    lang: str = "en"
    voice: str = ""
    miss: str | None = None
    first: bool = False
    room: str = "plain"
    roles: dict[str, list[int]] = field(default_factory=dict)
    back: list[int] = field(default_factory=list)
    hunts: list[Hunt] = field(default_factory=list)
    checks: list[dict[str, float | int]] = field(default_factory=list)
    orders: list[int] = field(default_factory=list)
    wakes: list[tuple[int, str, float]] = field(default_factory=list)
    settings: dict[str, dict[str, float | int | str]] = field(default_factory=dict)
    rng: np.random.Generator | None = None
    phases: list[dict[str, object]] = field(default_factory=list)
    distractors: list[dict[str, float | int | str]] = field(default_factory=list)
    name: str = ""

    def seat_of(self, role: str) -> int:
        return self.roles[role][0]

    def members(self, group: str) -> list[int]:
        return sorted(s for r in GROUP_ROLES[group] for s in self.roles.get(r, []))

    def role_seats(self) -> list[int]:
        return sorted(s for seats in self.roles.values() for s in seats)

    def plain(self) -> list[int]:
        taken = set(self.role_seats())
        return [s for s in range(1, SEATS[self.rules] + 1) if s not in taken]


def pick(rng: np.random.Generator, items: list, k: int | None = None) -> list:
    """``k`` distinct items in random order (all of them when ``k`` is None)."""
    idx = rng.permutation(len(items))[: len(items) if k is None else k]
    return [items[int(i)] for i in idx]


def step(rng: np.random.Generator, lo: float, hi: float, by: float) -> float:
    n = round((hi - lo) / by)
    return round(lo + by * int(rng.integers(n + 1)), 2)


def plan_clips(rng: np.random.Generator, seed: int) -> list[Clip]:
    extra = int(rng.integers(1, 4))
    nights = [(r, n) for r in RULESETS[:3] for n in range(4)]
    nights += [("triad", n) for n in sorted([1, 2, 3, extra])]
    clips = [Clip(i, r, n, seed + 1 + i) for i, (r, n) in enumerate(nights)]
    for c in clips:
        c.hunts = [Hunt(g) for g in HUNTS[c.rules]] if c.night else []
    return clips


def draw_set(rng: np.random.Generator, clips: list[Clip], avoid: set[str]) -> int:
    """Languages, misses, first-number hunts, rooms and voices; returns how many hunts shoot on
    the first number."""
    for r in RULESETS:
        mine = [c for c in clips if c.rules == r]
        for c, lang in zip(mine, pick(rng, ["ru", "ru", "en", "en"]), strict=True):
            c.lang = lang
    hunting = [c for c in clips if c.night]
    for c, kind in zip(pick(rng, hunting, len(MISS_KINDS)), pick(rng, list(MISS_KINDS)),
                       strict=True):
        c.miss = kind
    n_first = int(rng.integers(FIRST_RANGE[0], FIRST_RANGE[1] + 1))
    for c in pick(rng, [c for c in hunting if c.miss is None], n_first):
        c.first = True
    for c in pick(rng, hunting, N_DIM):
        c.room = "dim"
    for c in pick(rng, [c for c in clips if c.room == "plain"], N_NOISY):
        c.room = "noisy"
    pools = {"ru": [b + v for b in RU_BASES for v in VARIANTS if b + v not in avoid],
             "en": [b + v for b in EN_BASES for v in VARIANTS if b + v not in avoid]}
    for lang, pool in pools.items():
        mine = [c for c in clips if c.lang == lang]
        if len(pool) < len(mine):
            raise SystemExit(f"only {len(pool)} {lang} voices left for {len(mine)} clips")
        for c, v in zip(mine, pick(rng, pool, len(mine)), strict=True):
            c.voice = v
    return n_first


def draw_clip(c: Clip) -> None:
    """The per-script draws that the set-level deals need: roles, hunts, checks, orders."""
    rng = c.rng
    assert rng is not None
    n = SEATS[c.rules]
    seats = pick(rng, list(range(2 if c.first else 1, n + 1)))
    for role, k in ROLES[c.rules]:
        c.roles[role], seats = sorted(seats[:k]), seats[k:]
    if c.night == 0:
        black = set(c.members("mafia"))
        c.orders = pick(rng, [s for s in range(1, 11) if s not in black], 3)
        hold = [step(rng, 2.1, 2.5, 0.1) for _ in range(2)]
        sheriff = c.seat_of("sheriff") if "sheriff" in c.roles else 0
        c.wakes = {"kharkiv": [(sheriff, "wake_sheriff", hold[0])],
                   "ukrainian": [(c.seat_of("don"), "wake_don", hold[0]),
                                 (sheriff, "wake_sheriff", hold[1])],
                   "romanian": [(c.seat_of("don"), "wake_don", hold[0])]}[c.rules]
        return
    first_hunt = int(rng.integers(len(c.hunts))) if c.first else -1
    miss_hunt = int(rng.integers(len(c.hunts))) if c.miss else -1
    for i, h in enumerate(c.hunts):
        members = c.members(h.group)
        if i == first_hunt:
            h.first, h.target = True, 1
        else:
            h.target = int(pick(rng, [s for s in range(2, n + 1) if s not in members], 1)[0])
        if i == miss_hunt:
            h.miss = c.miss
            h.odd = int(pick(rng, members, 1)[0])
            if h.miss == "other":
                h.other = int(pick(rng, [s for s in range(2, n + 1)
                                         if s not in members and s != h.target], 1)[0])
            if h.miss == "between":
                h.between = pick_between(rng, h.target, n)
    for role in LEADERS[c.rules]:
        c.checks.append({"by": c.seat_of(role), "hold": step(rng, 1.6, 3.6, 0.1)})


def pick_between(rng: np.random.Generator, target: int, n: int) -> tuple[int, int]:
    options = [a for a in (target - 1, target) if a >= 2 and a + 1 <= n]
    a = int(pick(rng, options, 1)[0])
    return (a, a + 1)


def squeezes(c: Clip) -> list[tuple[Hunt, int, int]]:
    """Every squeeze of the clip: (hunt, seat, index of the squeeze)."""
    out = []
    for h in c.hunts:
        for seat in c.members(h.group):
            k = 0 if (h.miss == "still" and seat == h.odd) else (
                2 if h.miss == "double" and seat == h.odd else 1)
            out += [(h, seat, j) for j in range(k)]
    return out


def draw_backs(rng: np.random.Generator, clips: list[Clip]) -> int:
    """Back-of-the-hand seats until shots and checks split as designed; returns the draws."""
    for tries in range(1, 100_000):
        for c in clips:
            c.back = [s for s in c.role_seats() if rng.random() < 0.5]
        shots = sum(seat in c.back for c in clips for _, seat, _ in squeezes(c))
        checks = sum(int(k["by"]) in c.back for c in clips for k in c.checks)
        if shots == N_BACK_SHOTS and checks == N_BACK_CHECKS:
            return tries
    raise SystemExit("no back-seat draw fits the design")


def draw_values(rng: np.random.Generator, clips: list[Clip]) -> int:
    """Check values 1-10 three times each, every value with both views, never the leader's own
    seat; returns the number of deals."""
    checks = [(c, k) for c in clips for k in c.checks]
    pool = [v for v in range(1, 11) for _ in range(len(checks) // 10)]
    for tries in range(1, 100_000):
        values = pick(rng, pool)
        views: dict[int, set[bool]] = {}
        ok = True
        for (c, k), v in zip(checks, values, strict=True):
            ok &= v != k["by"]
            views.setdefault(v, set()).add(int(k["by"]) in c.back)
        if ok and all(len(s) == 2 for s in views.values()):
            for (_, k), v in zip(checks, values, strict=True):
                k["show"] = v
            return tries
    raise SystemExit("no check deal fits the design")


def level_pool(rng: np.random.Generator, values: tuple[float, ...], n: int,
               skip: list[float] | None = None) -> tuple[list[float], list[float]]:
    """``n`` values, each of ``values`` equally often, the remainder as distinct extras (not in
    ``skip`` while possible); returns (pool, extras)."""
    order = [v for v in pick(rng, list(values)) if v not in (skip or [])]
    order += [v for v in values if v not in order]
    extras = order[: n % len(values)]
    return [v for v in values for _ in range(n // len(values))] + extras, extras


def deal_shots(rng: np.random.Generator, clips: list[Clip]) -> tuple[int, dict[str, list]]:
    """Depths per view, delays and durations; fills every hunt's ``shots``; returns the number of
    delay/duration shuffles and the extras drawn."""
    all_sq = [(c, h, seat, j) for c in clips for h, seat, j in squeezes(c)]
    depth_of: dict[tuple[int, int, int, int], float] = {}
    extras: dict[str, list] = {}
    used: list[float] = []
    for view in ("back", "palm"):
        mine = [x for x in all_sq if (x[2] in x[0].back) == (view == "back")]
        pool, extra = level_pool(rng, DEPTHS, len(mine), used)
        used += extra
        extras[view] = extra
        for (c, h, seat, j), d in zip(mine, pick(rng, pool), strict=True):
            depth_of[(c.index, id(h), seat, j)] = d
    single = [x for x in all_sq if x[1].miss not in ("double", "between") or x[2] != x[1].odd]
    timed = [x for x in all_sq if x[1].miss != "double" or x[2] != x[1].odd]
    delays, extras["delay"] = level_pool(rng, DELAYS, len(single))
    durations, _ = level_pool(rng, DURATIONS, len(timed))
    shuffles = 0
    while True:
        shuffles += 1
        dl = dict(zip([id(x) for x in single], pick(rng, delays), strict=True))
        du = dict(zip([id(x) for x in timed], pick(rng, durations), strict=True))
        if not any(dl[id(x)] == -0.15 and du[id(x)] == 0.3 for x in single):
            break
    for x in all_sq:
        c, h, seat, j = x
        spec: dict[str, float | int | list[int]] = {}
        depth = depth_of[(c.index, id(h), seat, j)]
        if h.miss == "double" and seat == h.odd:
            spec = {"at": h.target, "delay": DOUBLE[j][0], "depth": depth,
                    "duration": DOUBLE[j][1]}
        elif h.miss == "between" and seat == h.odd:
            assert h.between is not None
            spec = {"between": list(h.between), "depth": depth, "duration": du[id(x)]}
        else:
            at = h.other if (h.miss == "other" and seat == h.odd) else h.target
            spec = {"at": at, "delay": dl[id(x)], "depth": depth, "duration": du[id(x)]}
        h.shots.setdefault(seat, []).append(spec)
    return shuffles, extras


# ------------------------------------------------------------------------------ one script


def draw_settings(c: Clip) -> None:
    rng = c.rng
    assert rng is not None
    c.settings["voice"] = {"language": c.lang, "variant": c.voice,
                           "rate": int(step(rng, 145, 185, 5)),
                           "pitch": int(rng.integers(36, 65)),
                           "pace": step(rng, 0.95, 1.25, 0.05)}
    width = 32 * int(rng.integers(21, 37))
    video: dict[str, float | int | str] = {
        "width": width, "height": width * 9 // 16, "fps": int(rng.integers(18, 29)),
        "elevation": int(rng.integers(41, 60)), "distance": step(rng, 3.9, 5.5, 0.1),
        "hand_scale": step(rng, 1.5, 2.1, 0.05)}
    if c.room == "dim":
        video |= {"noise": step(rng, 4.7, 5.1, 0.1), "crf": int(rng.integers(33, 36)),
                  "brightness": step(rng, 0.52, 0.58, 0.01)}
    elif c.room == "noisy":
        video |= {"noise": step(rng, 1.9, 2.0, 0.1), "crf": 31}
    c.settings["video"] = video


def script_dict(c: Clip, phases: list[dict[str, object]],
                distractors: list[dict[str, float | int | str]] | None = None) -> dict:
    return {"name": c.name or "draft", "description": "d", "seed": c.seed, "rules": c.rules,
            "night": c.night, "seats": SEATS[c.rules], "roles": c.roles,
            "voice": c.settings["voice"], "video": c.settings["video"], "back": c.back,
            "phases": phases, "distractors": distractors or []}


def resolve(data: dict) -> tuple[NightScript, Timeline]:
    """The script as the renderer resolves it (its seed's look and time generators)."""
    script = NightScript.model_validate(data)
    r_look, r_time = (np.random.default_rng(s)
                      for s in np.random.SeedSequence(script.seed).spawn(2))
    return script, build(script, appearance(script, r_look), r_time)


def phase_end(c: Clip, phases: list[dict[str, object]]) -> float:
    _, tl = resolve(script_dict(c, phases))
    return tl.duration - 1.0  # the default tail


def time_phases(c: Clip, orders_twice: str) -> None:
    """Draw the phases' start times: the first at 0.5-0.8 s, then 0.8-1.3 s after the previous
    one ends (as the timeline resolves it). A squeeze between two numbers whose pause is too short
    moves to another target."""
    rng = c.rng
    assert rng is not None
    todo: list[dict[str, object]] = []
    if c.night == 0:
        if c.rules != "romanian":
            twice = c.rules == orders_twice
            todo.append({"kind": "orders", "by": c.seat_of("don"), "values": c.orders,
                         "repeat": 2 if twice else 1, "hold": 1.9} | (
                             {"pause": 1.5} if twice else {}))
        todo += [{"kind": "wake", "seat": s, "call": call, "hold": hold}
                 for s, call, hold in c.wakes]
    else:
        todo += [{"kind": "hunt", "group": h.group, "shots": h.shots} for h in c.hunts]
        todo += [{"kind": "check", "by": k["by"], "show": k["show"], "hold": k["hold"]}
                 for k in c.checks]
    phases: list[dict[str, object]] = []
    at = ROMANIAN_WAKE if (c.rules == "romanian" and c.night == 0) else step(rng, 0.5, 0.8, 0.1)
    for p in todo:
        phases.append({"kind": p["kind"], "at": at} | {k: v for k, v in p.items()
                                                      if k != "kind"})
        while True:
            try:
                end = phase_end(c, phases)
                break
            except InputError:  # a 'between' pause too short: another pair of numbers
                h = next(h for h in c.hunts if h.miss == "between")
                h.target = int(pick(rng, [s for s in range(3, SEATS[c.rules]) if s not in
                                          c.members(h.group)], 1)[0])
                h.between = pick_between(rng, h.target, SEATS[c.rules])
                for specs in h.shots.values():
                    for spec in specs:
                        if "between" in spec:
                            spec["between"] = list(h.between)
                        else:
                            spec["at"] = h.target
        at = math.ceil((end + rng.uniform(0.8, 1.3)) * 10) / 10
    c.phases = phases


# ----------------------------------------------------------------------------- distractors


@dataclass
class Span:
    """One phase as resolved: the call at ``at``, hands from ``appear`` (up ``up``..``down``)."""

    kind: str
    at: float
    appear: float
    up: float
    down: float
    label: str = ""
    onsets: list[float] = field(default_factory=list)
    peaks: list[float] = field(default_factory=list)  # true squeezes' peaks
    first_end: float = 0.0  # last squeeze end on the first number (first-number hunts)
    first: bool = False


def spans(script: NightScript, tl: Timeline) -> list[Span]:
    out: list[Span] = []
    starts = [p.at for p in script.phases] + [math.inf]
    for i, p in enumerate(script.phases):
        lo, hi = starts[i], starts[i + 1]
        gs = [g for g in tl.gestures if lo <= g.start < hi and g.kind != "move"]
        if p.kind == "hunt":
            guns = [g for g in gs if g.kind == "raise"]
            shots = [g for g in gs if g.kind == "shot"]
            words = [w for w in tl.words if w.kind == "number" and lo <= w.onset < hi]
            s = Span("hunt", p.at, min(g.start for g in guns) - RISE, min(g.start for g in guns),
                     max(g.end for g in guns), label=TITLE[p.group].removeprefix("the "),
                     onsets=[w.onset for w in words], peaks=[g.peak or 0.0 for g in shots])
            ones = [g.end for g in shots if g.value == 1]
            if ones and len(ones) == len(shots):
                s.first, s.first_end = True, max(ones)
        elif p.kind == "check":
            g = next(g for g in gs if g.kind == "number")
            role = script.role_of(p.by)
            s = Span("check", p.at, g.start - RISE, g.start, g.end,
                     label=f"{TITLE[role]}'s {p.show}")
        elif p.kind == "orders":
            os = [g for g in gs if g.kind == "order"]
            s = Span("orders", p.at, os[0].start - RISE, os[0].start, os[-1].end)
        else:
            g = next(g for g in gs if g.kind == "raise")
            s = Span("wake", p.at, g.start - RISE, g.start, g.end)
        out.append(s)
    return out


def overlaps(a0: float, a1: float, b0: float, b1: float, margin: float = 0.0) -> bool:
    return a0 < b1 + margin and b0 < a1 + margin


PLACES = ("squeeze", "check", "count", "orders", "wake", "before", "between")


def place_of(sp: list[Span], kind: str, s0: float, s1: float) -> str:
    """Where a distractor falls, as the descriptions say it (the first that applies): through a
    true squeeze (a squeeze's peak inside its fully raised span - for a head lift or a light,
    0.4 s inside), over a check's counting hands, elsewhere in a hunt's count (guns up), during
    the orders, while a hand is raised on a call, before any call, or between the phases."""
    m = RISE if kind == "move" else 0.4
    hunts = [s for s in sp if s.kind == "hunt" and overlaps(s0, s1, s.appear, s.down + RISE)]
    if any(s0 + m <= p <= s1 - m for s in hunts for p in s.peaks):
        return "squeeze"
    if any(s.kind == "check" and overlaps(s0, s1, s.up, s.down) for s in sp):
        return "check"
    if hunts:
        return "count"
    for k in ("orders", "wake"):
        if any(s.kind == k and overlaps(s0, s1, s.appear, s.down + RISE) for s in sp):
            return k
    return "before" if s1 <= sp[0].at else "between"


def anchors(c: Clip, sp: list[Span]) -> list[tuple[str, int]]:
    """The optional distractors' anchors: a hunt's squeezes and the rest of its count, each
    check's counting hands, the orders, each hand raised on a call."""
    out: list[tuple[str, int]] = []
    for i, s in enumerate(sp):
        out += [("squeeze", i), ("count", i)] if s.kind == "hunt" else [(s.kind, i)]
    return out


def mandatory(c: Clip, sp: list[Span]) -> list[tuple[str, str, int]]:
    """(kind, anchor kind, span index) of the distractors every clip of its kind has."""
    out: list[tuple[str, str, int]] = []
    for i, s in enumerate(sp):
        if s.kind == "hunt" and s.first:
            out += [("move", "first", i), ("move", "first", i)]
        if s.kind == "check":
            out.append(("move", "check_hands", i))
    if c.rules == "romanian" and c.night == 0:
        out += [("light", "before", 0), ("head_lift", "before", 0), ("move", "before", 0)]
    return out


def place(c: Clip, sp: list[Span], items: list[tuple[str, str, int]],
          rng: np.random.Generator) -> list[dict[str, float | int | str]] | None:
    """Place the clip's distractors; None if one cannot be placed."""
    placed: list[dict[str, float | int | str]] = []
    plain = c.plain()
    for kind, anchor, i in items:
        s = sp[i]
        for _ in range(300):
            length = step(rng, *DUR, 0.1)
            if anchor == "first":
                start = math.floor((s.appear - rng.uniform(*MOVE_LEAD)) * 100) / 100
                end = round(max(start + length, s.first_end + RISE + 0.15), 1)
                lead = s.appear - start
                if not MOVE_LEAD[0] <= lead <= MOVE_LEAD[1]:
                    continue
            elif anchor == "before":
                start = step(rng, 1.0, 1.3, 0.1)
                end = round(min(start + length, s.at - 0.2), 1)
                if end - start < DUR[0]:
                    continue
            elif anchor == "squeeze":
                m = RISE if kind == "move" else 0.4
                peak = float(pick(rng, s.peaks, 1)[0])
                start = round(rng.uniform(max(peak - length + m, 0.2), max(peak - m, 0.2)), 1)
                end = round(start + length, 1)
                if any(x.kind == "hunt" and -0.1 <= x.appear - start <= 0.3 for x in sp):
                    continue  # only the first-number moves rise just before the guns
            else:
                lo, hi = {"count": (s.appear - 1.0, s.down - 1.0),
                          "check": (s.appear - 1.0, s.up + 0.3),
                          "check_hands": (s.appear - 1.0, s.up + 0.3),
                          "orders": (s.appear - 0.5, s.down - 1.5),
                          "wake": (s.appear - 1.0, s.up + 0.3)}[anchor]
                start = round(rng.uniform(max(lo, 0.2), max(hi, lo, 0.2)), 1)
                end = round(start + length, 1)
                if anchor == "check_hands" and min(end - RISE, s.down) - max(start + RISE,
                                                                                s.up) < 0.5:
                    continue
                if any(x.kind == "hunt" and -0.1 <= x.appear - start <= 0.3 for x in sp):
                    continue  # only the first-number moves rise just before the guns
            if anchor in CAPS and place_of(sp, kind, start, end) != anchor:
                continue  # an optional distractor falls where it was dealt, nowhere else
            d: dict[str, float | int | str] = {"kind": kind}
            if kind == "light":
                if any(p["kind"] == "light" and overlaps(start, end, float(p["start"]),
                                                         float(p["end"]), 0.5) for p in placed):
                    continue
                gain = (step(rng, 0.56, 0.6, 0.02) if rng.random() < 0.5
                        else step(rng, 1.34, 1.4, 0.02))
                placed.append(d | {"start": start, "end": end, "gain": gain})
                break
            free = [p for p in plain if not any(
                q.get("seat") == p and overlaps(start, end, float(q["start"]), float(q["end"]),
                                                0.2) for q in placed)]
            if not free:
                continue
            seat = int(pick(rng, free, 1)[0])
            placed.append(d | {"seat": seat, "start": start, "end": end})
            break
        else:
            return None
    return sorted(placed, key=lambda p: (float(p["start"]), str(p["kind"]), p.get("seat", 0)))


def shares(n: int, weights: dict[str, int]) -> dict[str, int]:
    """``n`` split in proportion to ``weights`` (largest remainders; ties to the heavier, then the
    earlier place)."""
    total = sum(weights.values())
    out = {a: n * w // total for a, w in weights.items()}
    order = sorted(weights, key=lambda a: (-(n * weights[a] % total), -weights[a],
                                           list(weights).index(a)))
    for a in order[: n - sum(out.values())]:
        out[a] += 1
    return out


def deal_distractors(rng: np.random.Generator, clips: list[Clip]) -> int:
    """Mandatory plus optional distractors, totals as designed; returns the number of deals.
    The optional ones of each kind are split over the places in sets 37-38's proportions
    (``PLACE_WEIGHTS``), each then dealt to a random anchor of its place with room left."""
    sps = {c.index: spans(*resolve(script_dict(c, c.phases))) for c in clips}
    must = {c.index: mandatory(c, sps[c.index]) for c in clips}
    counts = Counter(k for m in must.values() for k, _, _ in m)
    optional = [(k, a) for k, n in TOTALS.items()
                for a, q in shares(n - counts[k], PLACE_WEIGHTS[k]).items() for _ in range(q)]
    slots = [(c.index, a, i) for c in clips for a, i in anchors(c, sps[c.index])]
    for deals in range(1, 1000):
        got: dict[int, list[tuple[str, str, int]]] = {c.index: list(must[c.index])
                                                      for c in clips}
        load: Counter = Counter()
        lights: Counter = Counter()
        full = False
        for kind, a in pick(rng, optional):
            free = [j for j, slot in enumerate(slots) if slot[1] == a and load[j] < CAPS[a]
                    and not (kind == "light" and lights[j])]
            if not free:
                full = True
                break
            j = int(pick(rng, free, 1)[0])
            ci, _, i = slots[j]
            load[j] += 1
            lights[j] += kind == "light"
            got[ci].append((kind, a, i))
        if full:
            continue
        done = {}
        for c in clips:
            items = sorted(got[c.index], key=lambda x: (x[2], x[1] not in MANDATORY,
                                                         x[1] != "squeeze", x[1], x[0]))
            res = place(c, sps[c.index], items, np.random.default_rng(c.seed + 500))
            if res is None:
                break
            done[c.index] = res
        else:
            for c in clips:
                c.distractors = done[c.index]
            return deals
    raise SystemExit("no distractor deal could be placed")


# ----------------------------------------------------------------------------- description


def num(x: float) -> str:
    r = round(float(x), 2)
    return str(int(r)) if r == int(r) else f"{r:g}"


def signed(x: float) -> str:
    return "0" if x == 0 else f"{x:+g}"


def tstr(x: float) -> str:
    return f"{x:.2f}" if round(x, 1) != round(x, 2) else f"{x:.1f}"


def view(script: NightScript, seat: int) -> str:
    return "back of the hand" if seat in script.back else "palm"


def context(script: NightScript, tl: Timeline, sp: list[Span], d: dict) -> str:
    s0, s1 = float(d["start"]), float(d["end"])
    m = RISE if d["kind"] == "move" else 0.4
    parts: list[str] = []
    triad = script.rules == "triad"
    for s in sp:
        if s.kind == "hunt" and overlaps(s0, s1, s.appear, s.down + RISE):
            wins = [*s.onsets[1:], s.down]
            ks = [k + 1 for k, on in enumerate(s.onsets) if overlaps(s0, s1, on, wins[k])]
            if not ks:
                parts.append(f"while the {s.label}'s guns are up" if triad
                             else "while the guns are up")
                continue
            rng = f"{ks[0]}" if len(ks) == 1 else f"{ks[0]}-{ks[-1]}"
            who = f"the {s.label}'s count" if triad else "the count"
            part = f"during {who} ({rng})"
            if any(s0 + m <= p <= s1 - m for p in s.peaks):
                part += " through squeezes"
            parts.append(part)
        elif s.kind == "check" and overlaps(s0, s1, s.up, s.down):
            parts.append(f"during a check ({s.label})")
        elif s.kind == "orders" and overlaps(s0, s1, s.appear, s.down + RISE):
            parts.append("during the orders")
        elif s.kind == "wake" and overlaps(s0, s1, s.appear, s.down + RISE):
            parts.append("while a hand is raised on a call")
    if s1 <= sp[0].at:
        parts.append("before any call")
    return " and ".join(dict.fromkeys(parts)) or "between the phases"


def describe_distractor(script: NightScript, tl: Timeline, sp: list[Span], d: dict) -> str:
    where = context(script, tl, sp, d)
    span = f"{tstr(float(d['start']))}-{tstr(float(d['end']))} s"
    if d["kind"] == "light":
        g = float(d["gain"])
        return f"the light {'drops' if g < 1 else 'flares'} to {num(g)} {span} {where}"
    who = f"{PLAIN[script.rules]} {d['seat']}"
    if d["kind"] == "head_lift":
        return f"{who} lifts the head {span} {where}"
    lead = next((s for s in sp if s.kind == "hunt" and s.first
                 and MOVE_LEAD[0] <= s.appear - float(d["start"]) <= MOVE_LEAD[1]), None)
    rising = "" if lead is None else (
        f", rising {lead.appear - float(d['start']):.2f} s before the {lead.label}'s guns,")
    return f"{who} moves an open hand {span}{rising} {where}"


def describe_hunt(script: NightScript, tl: Timeline, p, result, first: bool) -> str:
    head = f"the {TITLE[p.group].removeprefix('the ')} hunt"
    if first:
        head += " (the guns begin to rise 1.15 s before the first number is said)"
    parts = []
    for seat in script.members(p.group):
        who = f"{TITLE[script.role_of(seat)]} {seat}"
        specs = p.shots.get(seat, [])
        v = view(script, seat)
        if not specs:
            parts.append(f"{who} ({v}) holds the gun up and never squeezes")
        elif len(specs) == 2:
            a, b = specs
            gap = round(b.delay - a.delay, 2)
            parts.append(f"{who} ({v}, depth {num(a.depth)}, delay {signed(a.delay)} s and "
                         f"depth {num(b.depth)}, delay {signed(b.delay)} s) squeezes twice on "
                         f"{a.at}, {num(gap)} s apart")
        elif specs[0].between is not None:
            x, y = specs[0].between
            parts.append(f"{who} ({v}, depth {num(specs[0].depth)}) squeezes between {x} and {y}")
        else:
            s = specs[0]
            tag = " (the first number)" if s.at == 1 else ""
            parts.append(f"{who} ({v}, depth {num(s.depth)}, delay {signed(s.delay)} s) shoots "
                         f"{s.at}{tag}")
    verdict = (f"a hit on {result.target} ({script.role_of(result.target)})"
               if result.verdict == "hit" else "a miss")
    return f"{head}: {', '.join(parts)} -> {verdict}"


def describe(script: NightScript, tl: Timeline) -> str:
    v, vid = script.voice, script.video
    lang = {"ru": "Russian", "en": "English"}[v.language]
    head = (f"{script.rules.capitalize()} night {script.night}, {lang} ({v.variant}, {v.rate} "
            f"wpm, pitch {v.pitch}), {vid.width}x{vid.height} at {vid.fps} fps, "
            f"{num(vid.elevation)} deg, {num(vid.distance)} m, hands x{num(vid.hand_scale)}")
    if vid.brightness < 1:
        head += (f", a dim room (brightness {num(vid.brightness)}, noise {num(vid.noise)}, "
                 f"crf {vid.crf})")
    elif vid.crf != 30:
        head += f", a noisier picture (noise {num(vid.noise)}, crf {vid.crf})"
    if script.night:
        head += f", a {num(v.pace)} s count"
    return f"{head}: {body(script, tl)}"


def body(script: NightScript, tl: Timeline) -> str:
    sp = spans(script, tl)
    events: list[str] = []
    hunts, checks = iter(tl.hunts), iter(tl.checks)
    for p, s in zip(script.phases, sp, strict=True):
        if p.kind == "hunt":
            events.append(describe_hunt(script, tl, p, next(hunts), s.first))
        elif p.kind == "check":
            k = next(checks)
            hands = "one hand" if k.hands == 1 else "two hands"
            events.append(f"{TITLE[k.role]} ({p.by}, {view(script, p.by)}) shows {p.show} with "
                          f"{hands}, held {num(p.hold)} s -> {'yes' if k.answer else 'no'}")
        elif p.kind == "orders":
            times = {1: "once", 2: "twice", 3: "three times"}[p.repeat]
            pause = f", a {num(p.pause)} s pause" if p.repeat > 1 else ""
            events.append(f"the Don ({p.by}, {view(script, p.by)}) shows the orders "
                          f"{', '.join(map(str, p.values))} {times} ({num(p.hold)} s holds"
                          f"{pause})")
        else:
            role = script.role_of(p.seat)
            events.append(f"{TITLE[role]} ({p.seat}, {view(script, p.seat)}) raises a hand on "
                          f"{TITLE[role]}'s call at {num(p.at)} s")
    text = "; ".join(events)
    if script.rules == "romanian" and script.night == 0:
        text += "; no orders are shown (the black players only meet)"
    ds = [describe_distractor(script, tl, sp, d.model_dump()) for d in script.distractors]
    if ds:
        text += ". Distractors: " + "; ".join(ds)
    return text + "."


# ----------------------------------------------------------------------------------- names


def tag(c: Clip, orders_twice: str) -> str:
    if c.night == 0:
        if c.rules == "romanian":
            return "zero_none"
        return "zero_orders_" + ("twice" if c.rules == orders_twice else "once")
    plural = "s" if c.rules == "triad" else ""
    if c.miss:  # a Triad night with a miss hits in its other hunt
        return f"{c.miss}_hit" if c.rules == "triad" else c.miss
    return f"first_hit{plural}" if c.first else f"hit{plural}"


def name_clips(clips: list[Clip], set_no: int, orders_twice: str) -> None:
    taken: set[str] = set()
    for c in clips:
        dim = "_dim" if c.room == "dim" else ""
        base = f"v{set_no}_{c.rules}_{tag(c, orders_twice)}{dim}"
        name = f"{base}_{c.lang}"
        if name in taken:
            name = f"{base}_n{c.night}_{c.lang}"
        k = 2
        while name in taken:
            name, k = f"{base}_n{c.night}_{k}_{c.lang}", k + 1
        taken.add(name)
        c.name = name


# ------------------------------------------------------------------------------------ yaml


def flow(value: object) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if isinstance(value, float):
        return num(value)
    return str(value)


def to_yaml(data: dict) -> str:
    lines = [f"name: {data['name']}", f"description: {json.dumps(data['description'])}"]
    lines += [f"{k}: {flow(data[k])}" for k in ("seed", "rules", "night", "seats", "roles",
                                                "voice", "video", "back")]
    lines.append("phases:")
    for p in data["phases"]:
        first = True
        for k, v in p.items():
            lead = "  - " if first else "    "
            first = False
            if k == "shots":
                lines.append(f"{lead}shots:")
                lines += [f"      {seat}: {flow(specs)}" for seat, specs in sorted(v.items())]
            else:
                lines.append(f"{lead}{k}: {flow(v)}")
    if data["distractors"]:
        lines.append("distractors:")
        lines += [f"  - {flow(d)}" for d in data["distractors"]]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------- checker


@dataclass
class Loaded:
    path: Path
    script: NightScript
    tl: Timeline
    sp: list[Span]


def load_set(folder: Path) -> tuple[list[Loaded], list[str]]:
    out: list[Loaded] = []
    errors: list[str] = []
    for f in sorted(folder.glob("*.yaml")):
        try:
            script = load_script(f)
            r_look, r_time = (np.random.default_rng(s)
                              for s in np.random.SeedSequence(script.seed).spawn(2))
            tl = build(script, appearance(script, r_look), r_time)
        except InputError as exc:
            errors.append(f"{f.name}: {exc}")
            continue
        out.append(Loaded(f, script, tl, spans(script, tl)))
    return sorted(out, key=lambda x: x.script.seed), errors


def expect(errors: list[str], ok: bool, what: str) -> None:
    if not ok:
        errors.append(what)


def check_clips(sets: list[Loaded], seed: int | None, set_no: int | None, avoid: set[str],
                errors: list[str]) -> None:
    expect(errors, len(sets) == 16, f"{len(sets)} scripts, not 16")
    seeds = [x.script.seed for x in sets]
    expect(errors, len(set(seeds)) == len(seeds), "a seed used twice")
    if seed is not None:
        expect(errors, seeds == list(range(seed + 1, seed + 17)), f"seeds {seeds}")
    for x in sets:
        s = x.script
        expect(errors, s.name == x.path.stem, f"{x.path.name}: name {s.name}")
        if set_no is not None:
            expect(errors, s.name.startswith(f"v{set_no}_"), f"{s.name}: not v{set_no}_")
        expect(errors, s.description == describe(s, x.tl), f"{s.name}: stale description")
        expect(errors, s.name.endswith(f"_{s.voice.language}"), f"{s.name}: language suffix")
        base = (s.voice.variant or "").split("+")[0]
        expect(errors, base in (RU_BASES if s.voice.language == "ru" else EN_BASES),
               f"{s.name}: voice {s.voice.variant}")
    for r in RULESETS:
        mine = [x.script for x in sets if x.script.rules == r]
        nights = sorted(s.night for s in mine)
        expect(errors, len(mine) == 4, f"{r}: {len(mine)} clips")
        expect(errors, nights == [0, 1, 2, 3] if r != "triad" else
               (set(nights) == {1, 2, 3} and len(nights) == 4), f"{r}: nights {nights}")
        langs = Counter(s.voice.language for s in mine)
        expect(errors, langs == Counter({"ru": 2, "en": 2}), f"{r}: languages {dict(langs)}")
    voices = [x.script.voice.variant for x in sets]
    expect(errors, len(set(voices)) == len(voices), "a voice used twice")
    expect(errors, not set(voices) & avoid, f"avoided voices used: {set(voices) & avoid}")
    rooms = Counter("dim" if x.script.video.brightness < 1 else
                    "noisy" if x.script.video.crf == 31 else "plain" for x in sets)
    expect(errors, rooms["dim"] == N_DIM and rooms["noisy"] == N_NOISY, f"rooms {dict(rooms)}")
    expect(errors, all(x.script.night for x in sets if x.script.video.brightness < 1),
           "a dim night zero")


def check_zero(sets: list[Loaded], orders_twice: str, errors: list[str]) -> None:
    once = {"kharkiv": "ukrainian", "ukrainian": "kharkiv"}[orders_twice]
    for x in sets:
        s = x.script
        orders = [p for p in s.phases if p.kind == "orders"]
        wakes = [(p.seat, p.call) for p in s.phases if p.kind == "wake"]
        if s.night or s.rules == "romanian":
            expect(errors, not orders, f"{s.name}: orders")
        else:
            want = 2 if s.rules == orders_twice else 1
            expect(errors, len(orders) == 1 and orders[0].repeat == want
                   and (want == 1 or orders[0].pause == 1.5)
                   and [o.repeats for o in x.tl.orders] == [want]
                   and orders[0].by in s.roles["don"], f"{s.name}: orders")
            expect(errors, s.rules in (orders_twice, once), s.name)
        if s.night == 0:
            want_w = {"kharkiv": ["wake_sheriff"], "ukrainian": ["wake_don", "wake_sheriff"],
                      "romanian": ["wake_don"]}[s.rules]
            expect(errors, [c for _, c in wakes] == want_w, f"{s.name}: wakes {wakes}")
            if s.rules == "romanian":
                before = Counter(d.kind for d in s.distractors if d.end <= s.phases[0].at)
                expect(errors, before["move"] and before["head_lift"] and before["light"],
                       f"{s.name}: before any call {dict(before)}")


def check_hunts(sets: list[Loaded], errors: list[str]) -> dict[str, object]:
    hunts = [(x, h) for x in sets for h in x.tl.hunts]
    shots = [g for x in sets for g in x.tl.gestures if g.kind == "shot"]
    expect(errors, len(hunts) == N_HUNTS, f"{len(hunts)} hunts")
    expect(errors, len(shots) == N_SHOTS, f"{len(shots)} shots")
    views = Counter(g.view for g in shots)
    expect(errors, views["back"] == N_BACK_SHOTS, f"shot views {dict(views)}")
    for x in sets:
        s = x.script
        groups = [p.group for p in s.phases if p.kind == "hunt"]
        expect(errors, groups == (list(HUNTS[s.rules]) if s.night else []), f"{s.name}: hunts")
    specs = [(x, p, seat, k) for x in sets for p in x.script.phases if p.kind == "hunt"
             for seat, ks in p.shots.items() for k in ks]
    depth: dict[str, Counter] = {"back": Counter(), "palm": Counter()}
    for x, _, seat, k in specs:
        depth[view(x.script, seat).split()[0]][k.depth] += 1
    for v, cnt in depth.items():
        expect(errors, set(cnt) <= set(DEPTHS), f"{v} depths {dict(cnt)}")
        n = sum(cnt.values())
        expect(errors, all(n // 7 <= cnt[d] <= -(-n // 7) for d in DEPTHS),
               f"{v} depths {dict(cnt)}")
    single = [k for x, p, seat, k in specs if k.at is not None and len(p.shots[seat]) == 1]
    dl = Counter(k.delay for k in single)
    du = Counter(k.duration for _, _, _, k in specs)
    expect(errors, set(dl) <= set(DELAYS) and all(len(single) // 13 <= dl[d] for d in DELAYS),
           f"delays {dict(dl)}")
    expect(errors, set(du) <= set(DURATIONS), f"durations {dict(du)}")
    expect(errors, not any(k.delay == -0.15 and k.duration == 0.3 for k in single),
           "a -0.15 s delay with a 0.3 s duration")
    verdicts = Counter(h.verdict for _, h in hunts)
    expect(errors, verdicts == Counter({"hit": 12, "miss": 5}), f"verdicts {dict(verdicts)}")
    miss_clips = [x.script.name for x, h in hunts if h.verdict == "miss"]
    expect(errors, len(set(miss_clips)) == len(miss_clips), "two misses in one clip")
    kinds = Counter(o.kind for _, h in hunts for o in h.observations)
    other = sum(any("different numbers" in r for r in h.reasons) for _, h in hunts)
    expect(errors, (kinds["no_shot"], kinds["multiple"], kinds["between"], other) == (1, 1, 1, 2),
           f"miss kinds {dict(kinds)}, other {other}")
    expect(errors, all(len(h.reasons) == 1 for _, h in hunts if h.verdict == "miss"),
           "a miss with more than one reason")
    return {"depths": depth, "delays": dl, "durations": du, "verdicts": verdicts}


def check_first(sets: list[Loaded], errors: list[str]) -> int:
    n = 0
    leads = 0
    for x in sets:
        s = x.script
        hunts = [sp for sp in x.sp if sp.kind == "hunt"]
        firsts = [sp for sp in hunts if sp.first]
        moves = [g for g in x.tl.gestures if g.kind == "move"]
        for sp in hunts:
            leads += sum(MOVE_LEAD[0] <= sp.appear - (g.start - RISE) <= MOVE_LEAD[1]
                         for g in moves)
        for sp in firsts:
            ok = [g for g in moves if MOVE_LEAD[0] <= sp.appear - (g.start - RISE)
                  <= MOVE_LEAD[1] and g.end >= sp.first_end and s.role_of(g.seat) ==
                  PLAIN[s.rules]]
            expect(errors, len(ok) >= 2, f"{s.name}: first-number moves {len(ok)}")
        expect(errors, len(firsts) <= 1, f"{s.name}: {len(firsts)} first-number hunts")
        if firsts:
            expect(errors, s.role_of(1) == PLAIN[s.rules], f"{s.name}: seat 1 not plain")
            expect(errors, all(h.verdict == "hit" for h in x.tl.hunts), f"{s.name}: a miss")
        targets = [h.target for h in x.tl.hunts]
        expect(errors, targets.count(1) == len(firsts), f"{s.name}: seat 1 hit")
        n += len(firsts)
    expect(errors, FIRST_RANGE[0] <= n <= FIRST_RANGE[1], f"{n} first-number hunts")
    expect(errors, leads == 2 * n, f"{leads} moves rise just before guns, not {2 * n}")
    return n


def check_checks(sets: list[Loaded], errors: list[str]) -> dict[str, object]:
    checks = [(x, p, c) for x in sets for p, c in
              zip([p for p in x.script.phases if p.kind == "check"], x.tl.checks, strict=True)]
    expect(errors, len(checks) == N_CHECKS, f"{len(checks)} checks")
    values: dict[int, Counter] = {}
    for x, p, c in checks:
        values.setdefault(c.shown, Counter())[view(x.script, p.by).split()[0]] += 1
        expect(errors, c.shown != p.by, f"{x.script.name}: the leader shows his own seat")
        moves = [g for g in x.tl.gestures if g.kind == "move"
                 and x.script.role_of(g.seat) == PLAIN[x.script.rules]]
        hands = next(g for g in x.tl.gestures if g.kind == "number" and g.start >= p.at)
        expect(errors, any(overlaps(g.start, g.end, hands.start, hands.end) for g in moves),
               f"{x.script.name}: no move over the {p.show} check")
    for x in sets:
        s = x.script
        bys = [s.role_of(p.by) for p in s.phases if p.kind == "check"]
        expect(errors, bys == (list(LEADERS[s.rules]) if s.night else []), f"{s.name}: checks")
    expect(errors, sorted(values) == list(range(1, 11))
           and all(sum(v.values()) == 3 and len(v) == 2 for v in values.values()),
           f"check values {values}")
    hands = Counter(c.hands for _, _, c in checks)
    backs = Counter(view(x.script, p.by) for x, p, _ in checks)
    expect(errors, hands[1] == hands[2] == 15, f"check hands {dict(hands)}")
    expect(errors, backs["palm"] == N_CHECKS - N_BACK_CHECKS, f"check views {dict(backs)}")
    answers = Counter(c.answer for _, _, c in checks)
    return {"check_values": values, "answers": answers}


def places(sets: list[Loaded]) -> dict[str, dict[str, Counter]]:
    """Per kind, where all distractors fall and where the optional ones do (the mandatory ones
    taken away: the first-number moves through squeezes, one move per check over its counting
    hands, and the Romanian night zero's three before any call)."""
    every: dict[str, Counter] = {k: Counter() for k in TOTALS}
    for x in sets:
        for d in x.script.distractors:
            every[d.kind][place_of(x.sp, d.kind, d.start, d.end)] += 1
    optional = {k: Counter(v) for k, v in every.items()}
    n_first = sum(s.first for x in sets for s in x.sp if s.kind == "hunt")
    n_checks = sum(s.kind == "check" for x in sets for s in x.sp)
    optional["move"]["squeeze"] -= 2 * n_first
    optional["move"]["check"] -= n_checks
    if any(x.script.rules == "romanian" and x.script.night == 0 for x in sets):
        for k in TOTALS:
            optional[k]["before"] -= 1
    return {"all": every, "optional": optional}


def check_distractors(sets: list[Loaded], errors: list[str]) -> Counter:
    kinds = Counter(d.kind for x in sets for d in x.script.distractors)
    expect(errors, kinds == Counter(TOTALS), f"distractors {dict(kinds)}")
    for x in sets:
        s = x.script
        ds = s.distractors
        for i, d in enumerate(ds):
            if d.kind == "light":
                expect(errors, not any(e.kind == "light" and overlaps(d.start, d.end, e.start,
                                                                      e.end) for e in ds[:i]),
                       f"{s.name}: lights overlap")
                continue
            expect(errors, s.role_of(d.seat) == PLAIN[s.rules], f"{s.name}: seat {d.seat}")
            expect(errors, not any(e.seat == d.seat and overlaps(d.start, d.end, e.start, e.end)
                                   for e in ds[:i]), f"{s.name}: seat {d.seat} twice at once")
    return kinds


def check_squeezes(sets: list[Loaded], n_first: int, errors: list[str]) -> dict[str, object]:
    """Moves through true squeezes: 2 per first-number hunt plus the optional moves' squeeze
    share of sets 37-38, within ``SQUEEZE_TOLERANCE``."""
    got = places(sets)
    n_optional = sum(got["optional"]["move"].values())
    w = PLACE_WEIGHTS["move"]
    expected = 2 * n_first + n_optional * w["squeeze"] / sum(w.values())
    through = got["all"]["move"]["squeeze"]
    expect(errors, abs(through - expected) <= SQUEEZE_TOLERANCE,
           f"{through} moves through squeezes, not {expected:.1f} +- {SQUEEZE_TOLERANCE}")
    return {"moves through squeezes": f"{through} (expected {expected:.1f} +- "
                                      f"{SQUEEZE_TOLERANCE})",
            **{f"{w} {k}": {p: v[p] for p in PLACES if v[p]} for w, kv in got.items()
               for k, v in kv.items()}}


def check(folder: Path, seed: int | None, avoid: set[str], orders_twice: str,
          set_no: int | None) -> tuple[list[str], str]:
    """Check a written set against the design; returns (failures, a summary)."""
    sets, errors = load_set(folder)
    check_clips(sets, seed, set_no, avoid, errors)
    check_zero(sets, orders_twice, errors)
    tally = check_hunts(sets, errors)
    n_first = check_first(sets, errors)
    tally |= check_checks(sets, errors)
    kinds = check_distractors(sets, errors)
    tally |= check_squeezes(sets, n_first, errors)
    lines = [f"{len(sets)} scripts, {sum(x.tl.duration for x in sets):.1f} s; "
             f"first-number hunts {n_first}; distractors {dict(kinds)}"]
    for k, v in tally.items():
        if isinstance(v, dict) and v and isinstance(next(iter(v.values())), Counter):
            v = {a: dict(sorted(b.items())) for a, b in sorted(v.items())}
        elif isinstance(v, Counter):
            v = dict(sorted(v.items()))
        lines.append(f"{k}: {v}")
    return errors, "\n".join(lines)


def table(folder: Path) -> str:
    """The README table rows: name | rules, night | camera | what happens."""
    rows = []
    for x in load_set(folder)[0]:
        s, v, vid = x.script, x.script.voice, x.script.video
        cam = (f"{vid.width}×{vid.height}@{vid.fps}, {num(vid.elevation)}°, "
               f"{num(vid.distance)} m, ×{num(vid.hand_scale)}")
        if vid.brightness < 1:
            cam += f", dim {num(vid.brightness)} / noise {num(vid.noise)} / crf {vid.crf}"
        elif vid.crf != 30:
            cam += f", noise {num(vid.noise)} / crf {vid.crf}"
        pace = f", {num(v.pace)} s count" if s.night else ""
        what = f"({v.variant}, {v.rate} wpm, pitch {v.pitch}{pace}) " + \
            s.description.split(": ", 1)[1]
        rows.append(f"| `{s.name}` | {s.rules}, night {s.night} | {cam} | {what} |")
    return "\n".join(rows)


# ------------------------------------------------------------------------------------ main


def voices_in(dirs: list[Path]) -> set[str]:
    out: set[str] = set()
    for d in dirs:
        for f in sorted(d.glob("*.yaml")):
            v = yaml.safe_load(f.read_text(encoding="utf-8"))["voice"]
            out.add(v.get("variant") or v["language"])
    return out


def make_set(set_no: int, seed: int, avoid: set[str], orders_twice: str
             ) -> tuple[dict[str, str], dict[str, object]]:
    """The set's scripts as {file name: YAML text}, and the draws' tallies."""
    rng = np.random.default_rng(seed)
    clips = plan_clips(rng, seed)
    n_first = draw_set(rng, clips, avoid)
    for c in clips:
        c.rng = np.random.default_rng(c.seed)
        draw_clip(c)
    info: dict[str, object] = {"first_number_hunts": n_first}
    info["back_draws"] = draw_backs(rng, clips)
    info["check_deals"] = draw_values(rng, clips)
    info["shuffles"], info["extras"] = deal_shots(rng, clips)
    for c in clips:
        draw_settings(c)
        time_phases(c, orders_twice)
    info["distractor_deals"] = deal_distractors(rng, clips)
    name_clips(clips, set_no, orders_twice)
    files: dict[str, str] = {}
    for c in clips:
        data = script_dict(c, c.phases, c.distractors)
        script, tl = resolve(data)
        data["description"] = describe(script, tl)
        files[f"{c.name}.yaml"] = to_yaml(data)
    return files, info


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--set", type=int, required=False, dest="set_no")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--avoid-voices-from", type=Path, nargs="*", default=[])
    ap.add_argument("--orders-twice", choices=("kharkiv", "ukrainian"), default="ukrainian")
    ap.add_argument("--check", type=Path, help="only check this written set")
    ap.add_argument("--table", type=Path, help="print the README table rows of a written set")
    ap.add_argument("--places", type=Path, nargs="+",
                    help="print where written sets' distractors fall (all and optional ones)")
    args = ap.parse_args(argv)
    if args.table:
        print(table(args.table))
        return 0
    if args.places:
        for folder in args.places:
            for w, kv in places(load_set(folder)[0]).items():
                for k, v in kv.items():
                    print(f"{folder.name} {w} {k}: {sum(v.values())} "
                          f"{ {p: v[p] for p in PLACES if v[p]} }")
        return 0
    avoid = voices_in(args.avoid_voices_from)
    if args.check is None:
        if args.out is None or args.set_no is None or args.seed is None:
            ap.error("--set, --seed and --out are needed to write a set")
        if args.out.exists() and any(args.out.glob("*.yaml")):
            ap.error(f"{args.out} already holds scripts; the generator writes a set once")
        files, info = make_set(args.set_no, args.seed, avoid, args.orders_twice)
        args.out.mkdir(parents=True, exist_ok=True)
        for fname, text in files.items():
            (args.out / fname).write_text(text, encoding="utf-8")
        print(json.dumps(info))
    folder = args.check or args.out
    errors, summary = check(folder, args.seed, avoid, args.orders_twice, args.set_no)
    print(summary)
    for e in errors:
        print("FAIL:", e)
    print("OK" if not errors else f"{len(errors)} failures")
    return 0 if not errors else 1


if __name__ == "__main__":
    raise SystemExit(main())
