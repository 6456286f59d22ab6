#!/usr/bin/env python
"""What the joints' curl does through the true shots of rendered sets, found against missed.

Replays each clip's recorded landmarks (``eval_sample_gestures.py --cache``) seat by seat as the
replay does (``continuing_hand`` on the detector's track, ``shot_reading``), and reads per fresh
frame (not held, not upside down) the index+middle curl the joints threshold: the mean of both
networks' world landmarks, averaged over ``ShotConfig.smooth``. For each true shot: its median
over the second before the squeeze (to 0.1 s before it) against its highest and lowest during
it, sorted as

- **lost**: under 3 fresh frames in the squeeze or 5 in the second before;
- **rise**: a rise of at least 25°;
- **fall**: else a fall of at least 20°;
- **flat**: neither.

Found or missed is the detector's own events (a shot within ``eval_sample_gestures.MATCH`` of
the truth's peak). As a control, the same is read over windows of the squeeze's length tiling
the 3 to 1 s before it, where the truth has the seat's gun raised and nothing else (no bend, no
other gesture): how often a raised gun's curl rises or falls as much while not squeezing.
Also counted: squeezes where one network's own curl rises ≥ 25° while the other's falls ≥ 20°
(unsmoothed, each against its own median before).

    python scripts/survey_curls.py --set /work/scratch/clips84 /work/scratch/cache84 \\
        --set /work/scratch/clips83 /work/scratch/cache83

(the clips rendered by ``render_samples.py``, the caches recorded by ``eval_sample_gestures.py
--cache``). Session 61 ran it on sets 81-84 (docs/accuracy.md, "Session 61").
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path[:0] = [str(Path(__file__).resolve().parent), str(Path(__file__).resolve().parents[1])]

import eval_sample_gestures as replay  # noqa: E402

from mafiavision.vision.fingers import curl  # noqa: E402
from mafiavision.vision.shots import (  # noqa: E402
    ShotConfig,
    ShotDetector,
    continuing_hand,
    shot_reading,
    upside_down,
)

RISE, FALL = 25.0, 20.0
MIN_FRESH, MIN_BEFORE = 3, 5


@dataclass(frozen=True)
class Frame:
    t: float
    curl: float  # smoothed index+middle (degrees)
    networks: np.ndarray | None  # each network's own index+middle, unsmoothed


@dataclass(frozen=True)
class Window:
    view: str
    seconds: float
    found: bool | None  # None: a control window
    kind: str
    rise: float
    fall: float
    split: bool


def seat_frames(data: dict[str, np.ndarray], seat: int
                ) -> tuple[list[Frame], list[float]]:
    """The seat's fresh frames and the detector's shot times, replayed as the replay does."""
    detector = ShotDetector(seat, ShotConfig())
    smooth = detector.config.smooth
    by_time = replay._by_time(data)
    frames: list[Frame] = []
    shots: list[float] = []
    recent: list[tuple[float, float]] = []
    for t in map(float, data["times"]):
        pick = continuing_hand(replay.seen_at(data, by_time, seat, t), detector.track)
        reading = shot_reading(pick)
        shots += [e.t for e in detector.update(pick, t)]
        if reading is None or reading.held or (
                reading.landmarks is not None and upside_down(reading.landmarks)):
            continue
        recent = [(u, v) for u, v in recent if u > t - smooth] + [
            (t, float(curl(reading.world)[1:3].sum()))]
        networks = None if reading.networks_curl is None else np.asarray(reading.networks_curl)
        frames.append(Frame(t, float(np.mean([v for _, v in recent])), networks))
    return frames, shots


def window(frames: list[Frame], start: float, end: float, view: str, found: bool | None
           ) -> Window:
    before = [f for f in frames if start - 1.0 <= f.t <= start - 0.1]
    during = [f for f in frames if start <= f.t <= end]
    if len(during) < MIN_FRESH or len(before) < MIN_BEFORE:
        return Window(view, end - start, found, "lost", 0.0, 0.0, False)
    base = float(np.median([f.curl for f in before]))
    rise = max(f.curl for f in during) - base
    fall = base - min(f.curl for f in during)
    kind = "rise" if rise >= RISE else "fall" if fall >= FALL else "flat"
    split = False
    nets_before = [f.networks for f in before if f.networks is not None]
    nets_during = [f.networks for f in during if f.networks is not None]
    if len(nets_before) >= 2 and nets_during:
        own = np.median(nets_before, axis=0)
        ups = np.max(nets_during, axis=0) - own
        downs = own - np.min(nets_during, axis=0)
        split = bool((ups[0] >= RISE and downs[1] >= FALL) or (ups[1] >= RISE and downs[0] >= FALL))
    return Window(view, end - start, found, kind, rise, fall, split)


def quiet(truth: dict, seat: int, a: float, b: float) -> bool:
    """The seat's gun raised over ``a``..``b`` with no bend and no other gesture."""
    gestures = truth["gestures"]
    raised = any(g["kind"] == "raise" and g["seat"] == seat and g["start"] <= a and b <= g["end"]
                 for g in gestures)
    other = any(g["seat"] == seat and g["kind"] != "raise" and g["start"] < b and a < g["end"]
                for g in gestures)
    bent = any(
        bend["seat"] == seat
        and any(d != 0 for u, d in zip(bend["times"], bend["degrees"], strict=True)
                if a - 0.1 <= u <= b + 0.1)
        for bend in truth.get("bends", []))
    return raised and not other and not bent


def survey(clips: Path, cache: Path) -> tuple[list[Window], list[Window]]:
    """(the true shots' windows, the control windows seen) of one set."""
    shots: list[Window] = []
    controls: list[Window] = []
    truths = sorted(clips.glob("*.truth.json"))
    if not truths:
        raise SystemExit(f"{clips}: no *.truth.json (expected a folder written by "
                         "render_samples.py)")
    for path in truths:
        truth = json.loads(path.read_text())
        true = [g for g in truth["gestures"] if g["kind"] == "shot"]
        if not true:
            continue
        recording = cache / f"{path.name.removesuffix('.truth.json')}.lite+full.npz"
        if not recording.is_file():
            raise SystemExit(f"{recording}: no recording (record it with eval_sample_gestures.py "
                             "--cache)")
        with np.load(recording) as f:
            data = {k: f[k] for k in f.files}
        for seat in sorted({g["seat"] for g in true}):
            frames, found = seat_frames(data, seat)
            for g in (g for g in true if g["seat"] == seat):
                hit = any(abs(t - g["peak"]) <= replay.MATCH for t in found)
                shots.append(window(frames, g["start"], g["end"], g["view"], hit))
                length, w0 = g["end"] - g["start"], g["start"] - 3.0
                while w0 + length <= g["start"] - 1.0 + 1e-9:
                    if quiet(truth, seat, w0 - 1.0, w0 + length):
                        control = window(frames, w0, w0 + length, g["view"], None)
                        if control.kind != "lost":
                            controls.append(control)
                    w0 += length
    return shots, controls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", nargs=2, action="append", required=True, type=Path,
                        metavar=("CLIPS", "CACHE"),
                        help="a rendered set's folder and its recordings' folder")
    args = parser.parse_args()
    shots: list[Window] = []
    controls: list[Window] = []
    for clips, cache in args.set:
        s, c = survey(clips, cache)
        shots, controls = shots + s, controls + c
    kinds = ("rise", "fall", "flat", "lost")
    print(f"data: {', '.join(str(c) for c, _ in args.set)}: {len(shots)} true shots")
    print("| shots | n | " + " | ".join(kinds) + " | networks split | median rise / fall |")
    print("|---|---|" + "---|" * (len(kinds) + 2))
    for view in ("back", "palm"):
        for found in (False, True):
            group = [w for w in shots if w.view == view and w.found is found]
            count = Counter(w.kind for w in group)
            seen = [w for w in group if w.kind != "lost"]
            medians = (f"{np.median([w.rise for w in seen]):.0f} / "
                       f"{np.median([w.fall for w in seen]):.0f}" if seen else "-")
            print(f"| {view} {'found' if found else 'missed'} | {len(group)} | "
                  + " | ".join(str(count[k]) for k in kinds)
                  + f" | {sum(w.split for w in group)} | {medians} |")
    for view in ("back", "palm"):
        group = [w for w in controls if w.view == view]
        count = Counter(w.kind for w in group)
        print(f"control, {view}: {len(group)} windows of raised guns not squeezing "
              f"({sum(w.seconds for w in group):.1f} s); "
              f"fall {count['fall']} ({count['fall'] / max(len(group), 1):.1%}), "
              f"rise {count['rise']}, networks split {sum(w.split for w in group)}")


if __name__ == "__main__":
    main()
