"""Evaluate the shot detector on landmark sequences built from real frames (and measure jitter).

No real footage of a shot exists. Sequences are built by ``mafiavision.vision.landmark_sequences``
from REAL MediaPipe frames: gun poses (index+middle extended) of the EVAL part of the handdata
cache — sign-language "2" (palm to camera) and EPSRC "2" (mostly the back of the hand) photos the
classifier reads as a gun — squeezed toward the real MediaPipe test-data fist. The detector's
design values were set while developing on the MediaPipe test-data "victory" frame with other
seeds; none of these frames were used then.

``--jitter`` first measures real landmark jitter: the full model on real photos perturbed by a
small shift/rotation/scale and sensor noise (independent IMAGE-mode runs, so an upper bound for
video), and prints the per-frame spread of the index+middle curl next to what i.i.d. Gaussian
noise of a given size on every world landmark gives (the sequences use 0.5–1.5 mm).

Prints recall per shot kind (a shot is found when an event lies within ±0.3 s of its deepest
point), false shots per 10 minutes of no-shot motion per kind, the per-frame cost of ``update``.

``--held H ...`` measures held squeezes instead: per hold time H (seconds), ``--clips-per-kind``
raised guns each squeezed once — the fingers close in 0.1–0.2 s to 0.5–1 of the fist, stay
closed H s and open again — and counts the clips with exactly one shot, within 0.3 s + H/2 of
the hold's middle. It tells what ``ShotConfig.max_duration`` (the longest squeeze that is a
shot) costs a player who holds the squeeze (``--set max_duration=0.8``). The rendered clips hold
no squeeze longer than 0.5 s, so this is the measure of it.

Usage::

    python scripts/eval_shots.py [--clips-per-kind 60] [--seed 2] [--jitter]
    python scripts/eval_shots.py --held 0.3 0.5 0.8 1.0 [--set max_duration=0.8]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from extract_handdata_landmarks import DEFAULT_CACHE, DEFAULT_HANDDATA, load_cache  # noqa: E402

from mafiavision.machine import describe_machine  # noqa: E402
from mafiavision.vision.fingers import curl  # noqa: E402
from mafiavision.vision.gestures import classify_hand  # noqa: E402
from mafiavision.vision.landmark_sequences import (  # noqa: E402
    NEGATIVE_KINDS,
    SHOT_KINDS,
    SequenceSpec,
    build,
    scenario,
)
from mafiavision.vision.shots import ShotConfig, ShotDetector  # noqa: E402

TESTDATA = "mediapipe_testdata_landmarks"


def testdata_world(handdata: Path, name: str) -> np.ndarray:
    data = json.loads((handdata / TESTDATA / name / f"{name}_landmarks.json").read_text())
    return np.asarray(data["world_landmarks_m_xyz"], dtype=np.float64)


def gun_frames(cache: dict[str, np.ndarray]) -> list[np.ndarray]:
    """Eval-part photos of label 2 that read as the gun (real gun-pose world landmarks)."""
    out = []
    for i in np.flatnonzero(
        cache["detected"] & (cache["part"] == "eval") & (cache["label"] == "2")
    ):
        if classify_hand(cache["world"][i], cache["landmarks"][i]).pose == "gun":
            out.append(cache["world"][i].astype(np.float64))
    return out


def measure_jitter(cache: dict[str, np.ndarray], handdata: Path, rng: np.random.Generator) -> None:
    import cv2

    from mafiavision.vision.photo_hands import PhotoHandDetector, load_rgb

    spreads = []
    picks = [i for i in np.flatnonzero(cache["detected"] & (cache["label"] == "2"))]
    with PhotoHandDetector("full", max_hands=1) as detector:
        for i in rng.choice(picks, 12, replace=False):
            image = load_rgb(handdata / str(cache["path"][i]))
            h, w = image.shape[:2]
            curls = []
            for _ in range(15):
                m = cv2.getRotationMatrix2D(
                    (w / 2, h / 2), rng.normal(0, 2), 1 + rng.normal(0, 0.02)
                )
                m[:, 2] += rng.normal(0, 3, 2)
                moved = cv2.warpAffine(image, m, (w, h), borderMode=cv2.BORDER_REPLICATE)
                noisy = np.clip(moved + rng.normal(0, 4, moved.shape), 0, 255).astype(np.uint8)
                hands = detector.detect(noisy)
                if hands:
                    curls.append(curl(hands[0].world))
            c = np.array(curls)
            spreads.append(float((c[:, 1] + c[:, 2]).std()))
    print(
        f"real jitter, index+middle curl sd per photo (deg): {np.round(sorted(spreads), 1)}; "
        f"median {np.median(spreads):.1f}"
    )
    gun = testdata_world(handdata, "victory")
    for sigma in (0.0005, 0.001, 0.0015):
        c = curl(gun + rng.normal(0, sigma, (2000, 21, 3)))
        print(
            f"i.i.d. {sigma * 1000:.1f} mm per landmark → curl sd {(c[:, 1] + c[:, 2]).std():.1f}°"
        )


def evaluate(
    guns: list[np.ndarray], fist: np.ndarray, per_kind: int, seed: int, config: ShotConfig
) -> None:
    rng = np.random.default_rng(seed)
    frames_total, cost = 0, 0.0
    print(f"{len(guns)} real gun frames, {per_kind} clips per kind, seed {seed}")
    print("\n| kind | clips | seconds | shots | found | recall | false shots | per 10 min |")
    print("|---|---|---|---|---|---|---|---|")
    totals = {"shots": 0, "found": 0, "false_neg": 0, "neg_s": 0.0, "false_pos": 0}
    for kind in SHOT_KINDS + NEGATIVE_KINDS:
        shots = found = false = 0
        seconds = 0.0
        for _ in range(per_kind):
            gun = guns[int(rng.integers(len(guns)))]
            spec, truth = scenario(kind, gun, fist, rng)
            frames = build(spec, gun, fist, rng)
            detector = ShotDetector(1, config)
            events = []
            start = time.perf_counter()
            for t, obs in frames:
                events += detector.update(obs, t)
            cost += time.perf_counter() - start
            frames_total += len(frames)
            matched = [any(abs(e.t - s) <= 0.3 for e in events) for s in truth]
            shots += len(truth)
            found += sum(matched)
            false += sum(not any(abs(e.t - s) <= 0.3 for s in truth) for e in events)
            seconds += spec.duration
        per10 = false / seconds * 600
        recall = f"{100 * found / shots:.1f} %" if shots else "–"
        print(
            f"| {kind} | {per_kind} | {seconds:.0f} | {shots} | {found} | {recall} | {false} "
            f"| {per10:.2f} |"
        )
        totals["shots"] += shots
        totals["found"] += found
        if kind in NEGATIVE_KINDS:
            totals["neg_s"] += seconds
            totals["false_neg"] += false
        else:
            totals["false_pos"] += false
    print(
        f"\nrecall {100 * totals['found'] / totals['shots']:.2f} % "
        f"({totals['found']}/{totals['shots']}); false shots in no-shot clips "
        f"{totals['false_neg']} in {totals['neg_s'] / 60:.1f} min = "
        f"{totals['false_neg'] / totals['neg_s'] * 600:.2f} per 10 min; "
        f"extra events in shot clips {totals['false_pos']}"
    )
    print(
        f"cost: {cost / frames_total * 1000:.3f} ms per update ({frames_total} frames); "
        f"{describe_machine()}"
    )


def held_closure(start: float, ramp: float, hold: float, amount: float
                 ) -> Callable[[np.ndarray], np.ndarray]:
    """The fingers' fraction of the fist: 0, closing over ``ramp`` from ``start``, ``amount``
    for ``hold`` seconds, opening over ``ramp`` (raised-cosine ramps)."""

    def fraction(t: np.ndarray) -> np.ndarray:
        x = np.clip(np.minimum((t - start) / ramp, (start + 2 * ramp + hold - t) / ramp), 0, 1)
        return amount * 0.5 * (1 - np.cos(np.pi * x))

    return fraction


def evaluate_held(guns: list[np.ndarray], fist: np.ndarray, holds: list[float], per_hold: int,
                  seed: int, config: ShotConfig) -> None:
    """Recall of squeezes held ``holds`` seconds (``--held``)."""
    print(f"{len(guns)} real gun frames, {per_hold} clips per hold, seed {seed}")
    print("\n| held (s) | clips | one shot at the squeeze | none | more than one or elsewhere |")
    print("|---|---|---|---|---|")
    start = settle = 2.0  # the gun held before the squeeze, and after it
    for hold in holds:
        rng = np.random.default_rng(seed)
        one = none = 0
        for _ in range(per_hold):
            gun = guns[int(rng.integers(len(guns)))]
            ramp = float(rng.uniform(0.1, 0.2))
            index = held_closure(start, ramp, hold, float(rng.uniform(0.5, 1.0)))
            middle = held_closure(start, ramp, hold, float(rng.uniform(0.5, 1.0)))
            spec = SequenceSpec(start + 2 * ramp + hold + settle, index=index, middle=middle)
            detector = ShotDetector(1, config)
            events = []
            for t, obs in build(spec, gun, fist, rng):
                events += detector.update(obs, t)
            held_middle = start + ramp + hold / 2
            near = [e for e in events if abs(e.t - held_middle) <= 0.3 + hold / 2]
            one += len(events) == 1 and len(near) == 1
            none += not events
        print(f"| {hold:g} | {per_hold} | {one} | {none} | {per_hold - one - none} |")


def add_config_option(parser: argparse.ArgumentParser) -> None:
    """``--set NAME=VALUE`` (repeatable): override a numeric :class:`ShotConfig` field."""
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a numeric ShotConfig field, e.g. --set min_depth=12",
    )


def shot_config(parser: argparse.ArgumentParser, args: argparse.Namespace) -> ShotConfig:
    """The ShotConfig with the ``--set`` overrides applied (printed, for the record)."""
    overrides = {}
    for item in args.set:
        name, _, value = item.partition("=")
        try:
            overrides[name] = float(value)
        except ValueError:
            parser.error(f"--set {item}: expected NAME=VALUE with a number")
        field = ShotConfig.__dataclass_fields__.get(name)
        if field is None or field.type != "float":
            parser.error(f"--set {item}: {name!r} is not a numeric ShotConfig field")
    config = ShotConfig(**overrides)
    print(f"config: {config}")
    return config


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--handdata", type=Path, default=DEFAULT_HANDDATA)
    parser.add_argument("--clips-per-kind", type=int, default=60)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--jitter", action="store_true", help="also measure real jitter first")
    parser.add_argument("--held", type=float, nargs="+", metavar="SECONDS",
                        help="measure squeezes held this long instead of the kinds")
    add_config_option(parser)
    args = parser.parse_args()
    if args.held and min(args.held) <= 0:
        parser.error(f"--held {' '.join(map(str, args.held))}: every hold must be > 0 s")
    config = shot_config(parser, args)
    cache = load_cache(args.cache)
    print(f"data: {args.cache} (eval part) and {args.handdata / TESTDATA}/fist")
    if args.jitter:
        measure_jitter(cache, args.handdata, np.random.default_rng(args.seed))
    guns, fist = gun_frames(cache), testdata_world(args.handdata, "fist")
    if args.held:
        evaluate_held(guns, fist, args.held, args.clips_per_kind, args.seed, config)
    else:
        evaluate(guns, fist, args.clips_per_kind, args.seed, config)


if __name__ == "__main__":
    main()
