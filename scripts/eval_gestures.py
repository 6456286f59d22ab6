"""Evaluate finger counting and the finger-gun pose on the held-out real photos.

Uses the landmark cache of ``scripts/extract_handdata_landmarks.py`` (real MediaPipe landmarks of
../shared/handdata) and the fitted ``mafiavision/vision/thresholds.json``; reports on the "eval"
part by default (EPSRC Set2, odd-indexed sign-language students), never used for fitting.

Each hand is read as ``mafiavision gestures IMAGE`` reads it: its own landmarks and the
test-time-augmentation views of :data:`mafiavision.vision.photo_hands.DEFAULT_VIEWS` (cached
by the extraction script), combined by their vote; where that vote is weak, with the lite
model's readings on :data:`~mafiavision.vision.photo_hands.SECOND_VIEWS` (the second cache,
``extract_handdata_landmarks.py --lite-views``; ``photo_hands.combine_models``); ``--no-second``:
the full model alone (the reading before session 5); ``--no-views``: the photo's own landmarks
only.

Prints: detection rate per class; count accuracy per detected hand per class (EPSRC 1–5,
sign-language 1–5: sign "3" is thumb+index+middle = three fingers); the confusion matrix of
counts and poses; finger-gun precision and recall; the cost of classifying a hand.

Finger gun: positives are sign-language "2" (index+middle, thumb folded). With the default
convention (``gun_thumb="free"``) thumb+index+middle is the gun with its thumb up, so classes that
show that shape are not negatives: sign-language "3" and EPSRC "3" (shown as thumb+index+middle or
index+middle+ring). EPSRC "2" (shown in several ways, the V among them) is never a negative. The
club variant ``gun_thumb="folded"`` (only the V is a gun) is evaluated with sign "3" and EPSRC "3"
as negatives.

Usage::

    python scripts/eval_gestures.py [--part eval|fit|all] [--no-second] [--no-views]
        [--world-only] [--errors]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from extract_handdata_landmarks import (  # noqa: E402
    DEFAULT_CACHE,
    DEFAULT_HANDDATA,
    DEFAULT_LITE_CACHE,
    load_cache,
    view_columns,
)

from mafiavision.machine import describe_machine  # noqa: E402
from mafiavision.vision.fingers import FingerModel, default_model, finger_features  # noqa: E402
from mafiavision.vision.gestures import (  # noqa: E402
    ClubConvention,
    classify_hand,
    classify_probabilities,
)
from mafiavision.vision.photo_hands import (  # noqa: E402
    DEFAULT_VIEWS,
    SECOND_VIEWS,
    combine_models,
    combine_views,
)

COUNT_CLASSES = [("epsrc", str(n), n) for n in range(1, 6)] + [
    ("sign", str(n), n) for n in range(1, 6)
]
POSES = ("fist", "count", "gun", "open", "other")


def _pct(num: int, den: int) -> str:
    return f"{100 * num / den:5.1f} % ({num}/{den})" if den else "   n/a"


def read_views(
    model: FingerModel,
    data: dict[str, np.ndarray],
    rows: np.ndarray,
    cols: list[int],
    world_only: bool,
) -> list[np.ndarray]:
    """p(extended) (rows, 5) of each cached view column (NaN where the view found no hand)."""
    out = []
    for col in cols:
        world = data["view_world"][rows, col]
        image = None if world_only else data["view_landmarks"][rows, col]
        with np.errstate(invalid="ignore", divide="ignore"):
            out.append(model.probabilities(finger_features(world, image)))
    return out


def evaluate(
    data: dict[str, np.ndarray],
    part: str,
    world_only: bool,
    views: bool,
    second: dict[str, np.ndarray] | None,
    errors: bool = False,
) -> None:
    use = np.ones(len(data["path"]), dtype=bool) if part == "all" else data["part"] == part
    model = default_model()
    probs = np.full((len(use), 5), np.nan)
    det = data["detected"]
    image = None if world_only else data["landmarks"][det]
    per_view = [model.probabilities(finger_features(data["world"][det], image))]
    if views:
        per_view += read_views(model, data, det, view_columns(data, DEFAULT_VIEWS), world_only)
    if second is None:
        probs[det] = combine_views(np.stack(per_view, axis=1))
    else:
        lite = read_views(model, second, det, view_columns(second, SECOND_VIEWS), world_only)
        probs[det] = combine_models(np.stack(per_view, axis=1), np.stack(lite, axis=1))
    results = {i: classify_probabilities(probs[i]) for i in np.flatnonzero(det & use)}

    view = "world landmarks only (x, y stand in for the image)" if world_only else "world + image"
    tta = f"{len(per_view) - 1} views ({', '.join(map(str, DEFAULT_VIEWS))})" if views else "none"
    print(f"part: {part}; photos: {use.sum()}, detected: {(det & use).sum()}; landmarks: {view}")
    lite = f"; lite model's {len(SECOND_VIEWS)} views where the vote is weak" if second else ""
    print(f"test-time augmentation: photo + {tta}{lite}")
    print("\n| class | photos | detected | count accuracy (per detected hand) |")
    print("|---|---|---|---|")
    target_ok = target_n = 0
    by_source: dict[str, list[int]] = {}
    for source, label, n in COUNT_CLASSES:
        rows = np.flatnonzero(use & (data["source"] == source) & (data["label"] == label))
        found = [i for i in rows if det[i]]
        ok = sum(results[i].count == n for i in found)
        target_ok += ok
        target_n += len(found)
        tally = by_source.setdefault(source, [0, 0])
        tally[0] += ok
        tally[1] += len(found)
        print(
            f"| {source} {label} | {len(rows)} | {_pct(len(found), len(rows))} | "
            f"{_pct(ok, len(found))} |"
        )
    for source, (ok, n) in by_source.items():
        print(f"| **{source} 1–5** | | | **{_pct(ok, n)}** |")
    print(f"| **all counts above** | | | **{_pct(target_ok, target_n)}** |")
    empty = use & (data["label"] == "none")
    print(f"\nEPSRC empty backgrounds: {empty.sum()}, hands found on them: {(det & empty).sum()}")

    print("\nConfusion (rows: class; columns: count 0–5 | pose counts):")
    header = "| class | " + " | ".join(f"c{c}" for c in range(6)) + " | " + " | ".join(POSES)
    print(header + " |\n|" + "---|" * (1 + 6 + len(POSES)))
    for source in ("epsrc", "sign"):
        labels = sorted(set(data["label"][use & (data["source"] == source)]) - {"none"})
        for label in labels:
            found = [
                i
                for i in np.flatnonzero(use & (data["source"] == source) & (data["label"] == label))
                if det[i]
            ]
            counts = [sum(results[i].count == c for i in found) for c in range(6)]
            poses = [sum(results[i].pose == p for i in found) for p in POSES]
            print(f"| {source} {label} | " + " | ".join(map(str, counts + poses)) + " |")

    def gun_stats(
        negative_excluded: set[tuple[str, str]], convention: ClubConvention
    ) -> tuple[int, int, int]:
        tp = fp = fn = 0
        for i in results:
            res = classify_probabilities(probs[i], convention)
            key = (str(data["source"][i]), str(data["label"][i]))
            if key == ("sign", "2"):
                tp += res.pose == "gun"
                fn += res.pose != "gun"
            elif key not in negative_excluded:
                fp += res.pose == "gun"
        return tp, fp, fn

    tp, fp, fn = gun_stats({("epsrc", "2"), ("sign", "3"), ("epsrc", "3")}, ClubConvention())
    print(f"\nFinger gun (thumb free): precision {_pct(tp, tp + fp)}, recall {_pct(tp, tp + fn)}")
    tp, fp, fn = gun_stats({("epsrc", "2")}, ClubConvention(gun_thumb="folded"))
    print(
        f"Finger gun (thumb folded, sign 3 and EPSRC 3 negatives): precision "
        f"{_pct(tp, tp + fp)}, recall {_pct(tp, tp + fn)}"
    )
    fp_by_class: dict[str, int] = {}
    for i, res in results.items():
        key = f"{data['source'][i]} {data['label'][i]}"
        if res.pose == "gun" and key not in ("sign 2", "epsrc 2"):
            fp_by_class[key] = fp_by_class.get(key, 0) + 1
    print(f"gun poses outside sign 2 / EPSRC 2, by class: {fp_by_class}")

    if errors:
        print("\nEPSRC misreads (file, read count, p(extended) thumb…pinky):")
        for i in sorted(results, key=lambda i: str(data["path"][i])):
            label = str(data["label"][i])
            if data["source"][i] == "epsrc" and results[i].count != int(label):
                probs_i = " ".join(f"{x:.2f}" for x in probs[i])
                print(f"  {data['path'][i]}: read {results[i].count}; p {probs_i}")

    picked = np.flatnonzero(det & use)[:200]
    sample, sample_image = data["world"][picked], data["landmarks"][picked]
    for w, lm in zip(sample[:20], sample_image[:20], strict=True):
        classify_hand(w, lm)  # warm up
    one, batched = [], []
    for _ in range(5):  # best of 5: the machine is shared
        start = time.perf_counter()
        for w, lm in zip(sample, sample_image, strict=True):
            classify_hand(w, lm)
        one.append((time.perf_counter() - start) / len(sample) * 1000)
        start = time.perf_counter()
        model.probabilities(finger_features(sample, sample_image))
        batched.append((time.perf_counter() - start) / len(sample) * 1000)
    per_hand, batch = min(one), min(batched)
    print(
        f"\nCost: classify_hand {per_hand:.3f} ms per hand (one call per hand, best of 5), "
        f"{batch:.4f} ms per hand batched ({len(sample)} hands); {describe_machine()}"
    )


def evaluate_keypoints_2d(handdata: Path) -> None:
    """Kazuhito00's real MediaPipe keypoints are 2-D only (x, y relative to the wrist): run with
    z = 0 as a robustness check of the pose rules on another source (not a target)."""
    path = handdata / "kazuhito00_mediapipe_keypoints" / "keypoint_static" / "keypoint.csv"
    rows = np.loadtxt(path, delimiter=",")
    label = rows[:, 0].astype(int)
    xy = rows[:, 1:].reshape(-1, 21, 2)
    world = np.concatenate([xy, np.zeros((len(xy), 21, 1))], axis=-1)
    probs = default_model().probabilities(finger_features(world))
    print(f"\n{path.name} (2-D only, z = 0; {len(rows)} hands): pose counts per class")
    for cls, name in enumerate(("Open", "Close", "Pointer")):
        poses = [classify_probabilities(p).pose for p in probs[label == cls]]
        summary = ", ".join(f"{pose} {poses.count(pose)}" for pose in POSES if pose in poses)
        print(f"  {name} ({len(poses)}): {summary}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--handdata", type=Path, default=DEFAULT_HANDDATA)
    parser.add_argument("--part", choices=("eval", "fit", "all"), default="eval")
    parser.add_argument(
        "--world-only",
        action="store_true",
        help="read the world landmarks only, as the shot detector does (their x, y stand in "
        "for the image landmarks)",
    )
    parser.add_argument(
        "--no-views", action="store_true", help="read each photo's own landmarks only (no TTA)"
    )
    parser.add_argument("--second-cache", type=Path, default=DEFAULT_LITE_CACHE)
    parser.add_argument("--errors", action="store_true", help="list the EPSRC misreads")
    parser.add_argument(
        "--no-second", action="store_true", help="the full model alone (no lite-model views)"
    )
    args = parser.parse_args()
    print(f"data: {args.cache} (real MediaPipe full-model landmarks of ../shared/handdata)")
    data = load_cache(args.cache)
    second = None
    if not (args.no_second or args.no_views):
        print(f"second model: {args.second_cache} (lite-model readings of the same hands' views)")
        second = load_cache(args.second_cache)
        if not (second["path"] == data["path"]).all():
            raise SystemExit(f"{args.second_cache}: not the photos of {args.cache}: rerun it")
    evaluate(data, args.part, args.world_only, not args.no_views, second, args.errors)
    evaluate_keypoints_2d(args.handdata)


if __name__ == "__main__":
    main()
