"""Shots (and numbers) on the rendered sample clips: the real pipeline against exact ground truth.

For each ``sample_videos/<name>.mp4``: PyAV decode → :class:`SeatTracker` (MediaPipe VIDEO mode
per seat crop, ``--model``, two hands per seat as the CLI does) → per-seat :class:`ShotDetector`
and :class:`NumberReader`. The tracker's observations are recorded once per clip and network
under ``cache/sample_landmarks/`` (``--fresh`` re-records), so detector changes are re-measured
in seconds. ``--model lite+full`` records the product's
:class:`~mafiavision.vision.pairing.PairedTracker` (lite's hands with the full network's reading
of each).

Shots: a true shot (truth gesture ``kind == "shot"``) is found when an event of its seat lies
within ±0.3 s of its deepest point; every other event is a false shot. Found shots are also
counted by the truth's view of the hand (palm side or back of the hand). "Non-shooting hand
motion" is the time hands are on screen (truth ``hands``: appear..gone, per seat) outside
±1 s around true shots. Numbers: truth gestures ``number``/``order`` against NumberEvents of the
seat overlapping them.

Usage::

    python scripts/eval_sample_gestures.py [names...] [--model lite|full|lite+full] [--fresh]
        [--samples DIR] [--cache DIR] [--set NAME=VALUE ...] [--no-look] [--no-fold]
        [--fold-model JSON] [--fold-threshold SCORE] [--lost-after D [D ...]]

``--lost-after D [D ...]`` measures instead what a hand lowered right after its shot costs: every
true shot is replayed alone, its seat's hand seen from 4 s before the squeeze's deepest point and
gone ``D`` s after the truth's release (a bandit who shot the last number may drop the hand at
once; the renderer keeps every hand up after the count), and the shots found are counted per
``D``. A shot needs its hand seen ``ShotConfig.max_gap`` after the release, so a ``D`` under it
finds almost none with any detector.

The recordings keep each fresh hand's finger patch (:mod:`mafiavision.vision.appearance`), so
``--no-look`` measures the joints alone on the same frames (recordings made before the patch
existed replay without it).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from eval_shots import add_config_option, shot_config  # noqa: E402

from mafiavision.vision.appearance import COLS, ROWS  # noqa: E402
from mafiavision.vision.fold import FoldConfig  # noqa: E402
from mafiavision.vision.gestures import classify_seats  # noqa: E402
from mafiavision.vision.numbers import NumberEvent, NumberReader  # noqa: E402
from mafiavision.vision.pairing import TRACKER_MODELS  # noqa: E402
from mafiavision.vision.shots import (  # noqa: E402
    ShotConfig,
    ShotDetector,
    ShotEvent,
    continuing_hand,
)

SAMPLES = ROOT / "sample_videos"
CACHE = ROOT / "cache" / "sample_landmarks"
#: An event of a true shot's seat within this many seconds of its deepest point finds it.
MATCH = 0.3


@dataclass(frozen=True)
class _Seen:
    """A recorded hand fed to the shot detector (the fields of ``HandObservation`` it reads)."""

    seat: int
    t: float
    world: np.ndarray
    landmarks: np.ndarray
    track: int
    score: float
    held: bool = False
    networks: int = 1
    second: _Seen | None = None
    patch: np.ndarray | None = None


def record(clip: Path, model: str, out: Path) -> None:
    """Run the seat tracker (``lite+full``: the paired tracker) over the clip; save every
    observation (seat, t, world, landmarks, score, held, track; paired: whether the second
    network read the hand fresh, and its world and image landmarks) and the frame times."""
    from mafiavision.vision.pairing import make_tracker
    from mafiavision.vision.sources import open_source
    from mafiavision.vision.table import Table

    table = Table.load(clip.with_suffix(".table.json"))
    fields = ("seat", "t", "world", "landmarks", "score", "held", "track", "patch")
    rows: dict[str, list] = {k: [] for k in fields}
    if model == "lite+full":
        rows.update(second=[], second_world=[], second_landmarks=[])
    times = []
    start = time.perf_counter()
    with make_tracker(table, model, hands_per_seat=2) as tracker:  # type: ignore[arg-type]
        for frame in open_source(clip):
            times.append(frame.t)
            for seat, hands in tracker.update(frame).items():
                for h in hands[:2]:
                    rows["seat"].append(seat)
                    rows["t"].append(frame.t)
                    rows["world"].append(h.world)
                    rows["landmarks"].append(h.landmarks)
                    rows["score"].append(h.score)
                    rows["held"].append(h.held)
                    rows["track"].append(h.track)
                    rows["patch"].append(np.full((ROWS, COLS), np.nan, np.float32)
                                         if h.patch is None else h.patch)
                    if "second" in rows:
                        other = h.second or h  # (h's own arrays stand in where there is none)
                        rows["second"].append(h.second is not None)
                        rows["second_world"].append(other.world)
                        rows["second_landmarks"].append(other.landmarks)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, times=np.array(times), **{k: np.array(v) for k, v in rows.items()})
    print(
        f"  recorded {clip.name}: {len(times)} frames, {len(rows['t'])} observations, "
        f"{time.perf_counter() - start:.0f} s"
    )


def _seen(data: dict[str, np.ndarray], rows: list[int], seat: int, t: float) -> list[_Seen]:
    """The recorded hands of ``rows`` (paired recordings: with the second network's reading)."""
    paired = "second" in data
    return [
        _Seen(seat, t, data["world"][i].astype(np.float64),
              data["landmarks"][i].astype(np.float64), int(data["track"][i]),
              float(data["score"][i]), bool(data["held"][i]), 2 if paired else 1,
              _Seen(seat, t, data["second_world"][i].astype(np.float64),
                    data["second_landmarks"][i].astype(np.float64), int(data["track"][i]),
                    float(data["score"][i]))
              if paired and data["second"][i] else None,
              _patch(data, i))
        for i in rows
    ]


def _patch(data: dict[str, np.ndarray], i: int) -> np.ndarray | None:
    """The recorded finger patch of row ``i`` (None: held, or a recording made without)."""
    if "patch" not in data or np.isnan(data["patch"][i]).any():
        return None
    return data["patch"][i]


def seen_at(data: dict[str, np.ndarray], by_time: dict[float, list[int]], seat: int, t: float
            ) -> list[_Seen]:
    """The hands recorded at ``seat`` at time ``t`` (``by_time``: :func:`_by_time` of ``data``)."""
    return _seen(data, [i for i in by_time.get(t, []) if data["seat"][i] == seat], seat, t)


def _by_time(data: dict[str, np.ndarray]) -> dict[float, list[int]]:
    by_time: dict[float, list[int]] = {}
    for i, t in enumerate(data["t"]):
        by_time.setdefault(float(t), []).append(i)
    return by_time


def replay(data: dict[str, np.ndarray], seats: list[int], config: ShotConfig) -> tuple[dict, dict]:
    """Feed the recorded observations to fresh detectors; events per seat."""
    shots = {s: ShotDetector(s, config) for s in seats}
    readers = {s: NumberReader(s) for s in seats}
    shot_events: dict[int, list[ShotEvent]] = {s: [] for s in seats}
    number_events: dict[int, list] = {s: [] for s in seats}
    by_time = _by_time(data)
    for t in data["times"]:
        seen = {seat: seen_at(data, by_time, seat, float(t)) for seat in seats}
        poses = classify_seats(seen)
        for seat, hands in seen.items():
            # the hand continuing the detector's track, as the CLI and the night pipeline feed it
            pick = continuing_hand(hands, shots[seat].track)
            shot_events[seat] += shots[seat].update(pick, float(t))
            number_events[seat] += readers[seat].update(poses[seat], float(t))
    for seat in seats:
        number_events[seat] += readers[seat].flush()
    return shot_events, number_events


def load_recording(samples: Path, cache_dir: Path, name: str, model: str, fresh: bool
                   ) -> dict[str, np.ndarray]:
    """The recorded observations of clip ``name``, recorded first if missing (or ``fresh``)."""
    cache = cache_dir / f"{name}.{model}.npz"
    if fresh or not cache.exists():
        record(samples / f"{name}.mp4", model, cache)
    with np.load(cache) as f:
        return {k: f[k] for k in f.files}


def evaluate(
    samples: Path, cache_dir: Path, names: list[str], model: str, fresh: bool, config: ShotConfig
) -> None:
    totals = {"shots": 0, "found": 0, "false": 0, "motion_s": 0.0}
    views: dict[str, list[int]] = {}  # the truth's view of the hand → [found, shots]
    print("| clip | true shots | found | false shots | hand motion (s) | numbers shown | read |")
    print("|---|---|---|---|---|---|---|")
    details = []
    for name in names:
        clip = samples / f"{name}.mp4"
        truth = json.loads(clip.with_suffix(".truth.json").read_text())
        seats = list(range(1, truth["seats"] + 1))
        shot_events, number_events = replay(
            load_recording(samples, cache_dir, name, model, fresh), seats, config)
        true_shots = [g for g in truth["gestures"] if g["kind"] == "shot"]
        found = 0
        used: set[tuple[int, float]] = set()
        for g in true_shots:
            # the nearest event not taken by another true shot (a double squeeze's two
            # squeezes can be less than 0.3 s apart)
            hit = sorted(
                (abs(e.t - g["peak"]), e.t) for e in shot_events[g["seat"]]
                if abs(e.t - g["peak"]) <= MATCH and (g["seat"], e.t) not in used
            )
            by_view = views.setdefault(g["view"], [0, 0])
            by_view[1] += 1
            if hit:
                found += 1
                by_view[0] += 1
                used.add((g["seat"], hit[0][1]))
            else:
                details.append(
                    f"{name}: missed shot seat {g['seat']} at {g['peak']:.2f} "
                    f"({g['view']}, truth depth {g['depth_deg']})"
                )
        false = [(s, e) for s in seats for e in shot_events[s] if (s, e.t) not in used]
        for s, e in false:
            details.append(
                f"{name}: false shot seat {s} at {e.t:.2f} ({e.source}, depth {e.depth:.0f}°)")
        motion = 0.0
        for h in truth["hands"]:
            span = max(0.0, h["gone"] - h["appear"])
            for g in true_shots:
                if g["seat"] == h["seat"]:
                    span -= max(
                        0.0, min(h["gone"], g["peak"] + 1) - max(h["appear"], g["peak"] - 1)
                    )
            motion += max(0.0, span)
        shown = [g for g in truth["gestures"] if g["kind"] in ("number", "order")]
        read = sum(
            any(
                isinstance(e, NumberEvent)
                and e.value == g["value"]
                and e.start < g["end"]
                and e.end > g["start"]
                for e in number_events[g["seat"]]
            )
            for g in shown
        )
        print(
            f"| {name} | {len(true_shots)} | {found} | {len(false)} | {motion:.1f} | "
            f"{len(shown)} | {read} |"
        )
        totals["shots"] += len(true_shots)
        totals["found"] += found
        totals["false"] += len(false)
        totals["motion_s"] += motion
    rate = totals["false"] / totals["motion_s"] * 600 if totals["motion_s"] else float("nan")
    print(
        f"\nshot recall {totals['found']}/{totals['shots']}; false shots {totals['false']} in "
        f"{totals['motion_s'] / 60:.2f} min of non-shooting hand motion = {rate:.1f} per 10 min"
    )
    print("found by the view of the hand: " + ", ".join(
        f"{view} {found}/{shots}" for view, (found, shots) in sorted(views.items())))
    for line in details:
        print("  " + line)


#: Seconds of the seat's recording replayed before a shot's deepest point (``--lost-after``).
LEAD = 4.0


def replay_until(data: dict[str, np.ndarray], by_time: dict[float, list[int]], seat: int,
                 start: float, cut: float, config: ShotConfig) -> list[ShotEvent]:
    """The shots of one seat's recorded hand seen from ``start`` to ``cut`` and gone after it
    (one frame past ``max_gap`` later: the hand was away too long)."""
    detector = ShotDetector(seat, config)
    events: list[ShotEvent] = []
    for t in (float(t) for t in data["times"]):
        if start <= t <= cut:
            hands = seen_at(data, by_time, seat, t)
            events += detector.update(continuing_hand(hands, detector.track), t)
    return events + detector.update(None, cut + config.max_gap + 1e-3)


def lost_after(samples: Path, cache_dir: Path, names: list[str], model: str,
               config: ShotConfig, delays: list[float]) -> None:
    """Shots found with the hand gone ``D`` s after each true shot's release (``--lost-after``)."""
    print("| clip | true shots | "
          + " | ".join(f"found, lost {d:g} s after" for d in delays) + " |")
    print("|---|---|" + "---|" * len(delays))
    found = {d: 0 for d in delays}
    total = 0
    for name in names:
        truth = json.loads((samples / f"{name}.truth.json").read_text())
        data = load_recording(samples, cache_dir, name, model, False)
        by_time = _by_time(data)
        shots = [g for g in truth["gestures"] if g["kind"] == "shot"]
        counts = {d: 0 for d in delays}
        for g in shots:
            for d in delays:
                events = replay_until(data, by_time, g["seat"], g["peak"] - LEAD, g["end"] + d,
                                      config)
                counts[d] += any(abs(e.t - g["peak"]) <= MATCH for e in events)
        total += len(shots)
        for d in delays:
            found[d] += counts[d]
        print(f"| {name} | {len(shots)} | " + " | ".join(str(counts[d]) for d in delays) + " |")
    print("\nhand lost D s after each true shot's release: " + ", ".join(
        f"D {d:g} s {found[d]}/{total}" for d in delays))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*")
    parser.add_argument(
        "--model", choices=TRACKER_MODELS, default="lite",
        help="tracker network(s); lite+full: lite tracks, shots read the mean of both networks "
        "and numbers the fingers both read extended",
    )
    parser.add_argument("--fresh", action="store_true")
    parser.add_argument("--samples", type=Path, default=SAMPLES, help="folder of the clips")
    parser.add_argument("--cache", type=Path, default=CACHE, help="folder of recorded landmarks")
    parser.add_argument(
        "--no-look", action="store_true",
        help="the joints alone: no shots from the fingers' look (ShotConfig.look = None)",
    )
    parser.add_argument(
        "--no-fold", action="store_true",
        help="no shots from the fingers' fold (ShotConfig.finger_fold = None)",
    )
    parser.add_argument(
        "--fold-model", type=Path, metavar="JSON",
        help="read the fold with this model (scripts/train_fold.py --out) instead of the "
        "packaged one",
    )
    parser.add_argument(
        "--fold-threshold", type=float, metavar="SCORE", help="the fold's FoldConfig.threshold",
    )
    parser.add_argument(
        "--lost-after", type=float, nargs="+", metavar="D",
        help="instead: replay each true shot alone with its hand gone D s after its release",
    )
    add_config_option(parser)
    args = parser.parse_args()
    config = shot_config(parser, args)
    if args.no_look:
        config = dataclasses.replace(config, look=None)
    if args.no_fold:
        config = dataclasses.replace(config, finger_fold=None)
    elif args.fold_model or args.fold_threshold is not None:
        fold = FoldConfig()
        if args.fold_model:
            if not args.fold_model.is_file():
                parser.error(f"--fold-model {args.fold_model}: file not found")
            fold = dataclasses.replace(fold, model=args.fold_model)
        if args.fold_threshold is not None:
            fold = dataclasses.replace(fold, threshold=args.fold_threshold)
        config = dataclasses.replace(config, finger_fold=fold)
        print(f"fold: {fold}")
    if not args.samples.is_dir():
        parser.error(f"--samples {args.samples}: folder not found")
    names = args.names or sorted(p.stem for p in args.samples.glob("*.mp4"))
    print(f"clips: {args.samples} ({len(names)}), tracker model {args.model}")
    if args.lost_after:
        if min(args.lost_after) < 0:
            parser.error("--lost-after: seconds after the release, not negative")
        lost_after(args.samples, args.cache, names, args.model, config, args.lost_after)
        return
    evaluate(args.samples, args.cache, names, args.model, args.fresh, config)


if __name__ == "__main__":
    main()
