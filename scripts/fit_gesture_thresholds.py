"""Fit the per-finger extended/folded models on the FIT part of the real hand photos.

Reads the landmark cache of ``scripts/extract_handdata_landmarks.py`` (real MediaPipe landmarks of
the real photos in ../shared/handdata), takes the photos of the fixed "fit" part (EPSRC Set1 and
the even-indexed sign-language students), derives per-finger labels from each class (below), fits
one class-balanced, L2-regularised logistic model per finger over its features
(``mafiavision.vision.fingers``), and writes ``mafiavision/vision/thresholds.json`` with the data
the parameters came from. The "eval" part is never read here (``scripts/eval_gestures.py``).

Per-finger labels (thumb, index, middle, ring, pinky; None = not known from the class):
* sign language (photos: palm to camera): 1 index; 2 index+middle; 3 thumb+index+middle;
  4 four fingers, thumb across the palm; 5 all; 6–9 three fingers with the thumb touching the
  fourth (6 pinky, 7 ring, 8 middle, 9 index: thumb and touched finger folded); 0 ("O"): five
  folded fingers, for the thumb model over all its features only (``ZERO_FOLDED``).
* EPSRC (one person, palm or back; folder = number of extended fingers, the same number shown
  in several ways): the labels come from the count. The models are first fitted without EPSRC
  1–3, then, ``SELF_LABEL_ROUNDS`` times, each EPSRC photo of count n is labelled with the n
  fingers the current models find most extended, and the models are refitted on everything.
  (Chosen by a two-fold split of the FIT part: EPSRC count accuracy 91/89 % without, 95/93 %
  with it; the split shares neighbouring frames of one stream, so it flatters. Models reading
  the whole hand's features reached 97.5/97.9 % there and 91.7 % instead of 87.5 % on the eval
  part's EPSRC photos, but read MediaPipe's real thumb_up hand with the ring finger extended,
  so they were not kept.)

Index…pinky read world and image-plane features; they are fitted as before session 30 (with
the thumb's joint features only), and the shot detector reads them. The thumb has two models and
reads extended only when both say so: ``thumb_joints`` (its joint and world-distance features),
fitted as the thumb was before session 30 (with index…pinky's world-only models), and ``thumb``
over those and how free it stands, fitted with all five fingers and the "0" labels. Chosen with
``scripts/compare_finger_features.py`` (session 30: the variant ``joint-agree-shipped``; the
variant ``joint-agree``, which also refits index…pinky with the "0" labels, was better on the
fit part but moved the shot detector's inputs and added a false shot on the validation clips of
set 30); every variant tried also had to keep reading MediaPipe's real thumb_up hand. A thumb
model reading how free the thumb stands, alone, reads some rendered thumbs folded across the
palm as extended (sessions 3 and 24: MediaPipe places their tips away from the other fingers);
the second model keeps them folded.

The gun's confidence floor (``poses.gun_min_confidence``): the same two-fold split of the fit
part; the floor keeps ``GUN_KEEP`` of the held-out sign-language "2" photos (the gun) that the
held-out models read as the gun shape, rounded down to 0.01.

Usage::

    python scripts/fit_gesture_thresholds.py [--cache cache/handdata_landmarks.npz]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from extract_handdata_landmarks import DEFAULT_CACHE, load_cache  # noqa: E402

from mafiavision.vision.fingers import (  # noqa: E402
    FEATURE_NAMES,
    FINGERS,
    THRESHOLDS_PATH,
    THUMB_JOINT_COLUMNS,
    THUMB_JOINTS,
    FingerFeatures,
    FingerModel,
    finger_features,
)
from mafiavision.vision.gestures import classify_probabilities  # noqa: E402

T, F = True, False
FINGER_LABELS: dict[tuple[str, str], tuple[bool | None, ...]] = {
    ("sign", "1"): (F, T, F, F, F),
    ("sign", "2"): (F, T, T, F, F),
    ("sign", "3"): (T, T, T, F, F),
    ("sign", "4"): (F, T, T, T, T),
    ("sign", "5"): (T, T, T, T, T),
    ("sign", "6"): (F, T, T, T, F),
    ("sign", "7"): (F, T, T, F, T),
    ("sign", "8"): (F, T, F, T, T),
    ("sign", "9"): (F, F, T, T, T),
    ("epsrc", "4"): (F, T, T, T, T),
    ("epsrc", "5"): (T, T, T, T, T),
}
#: The thumb model over all its features also reads the sign-language "0" ("O", the fingertips
#: on the thumb) as five folded fingers (session 30: a thumb touching the other fingers is not
#: extended).
ZERO_FOLDED: dict[tuple[str, str], tuple[bool | None, ...]] = {("sign", "0"): (F, F, F, F, F)}
L2 = 1e-2
SELF_LABEL_ROUNDS = 2
GUN_KEEP = 0.99
FOLD_BLOCK = 20  # photos per block of the two-fold split (consecutive photos of one class)


def finger_labels(
    source: np.ndarray,
    label: np.ndarray,
    table: dict[tuple[str, str], tuple[bool | None, ...]] = FINGER_LABELS,
) -> np.ndarray:
    """(N, 5) float array: 1 extended, 0 folded, NaN unknown."""
    out = np.full((len(source), 5), np.nan)
    for i, key in enumerate(zip(source, label, strict=True)):
        states = table.get((str(key[0]), str(key[1])))
        if states is not None:
            out[i] = [np.nan if s is None else float(s) for s in states]
    return out


def fit_logistic(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Class-balanced L2 logistic regression on standardised x (Newton's method, convex: one
    optimum); returns mean, std, w, b."""
    mean, std = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = np.hstack([(x - mean) / std, np.ones((len(x), 1))])
    weight = np.where(y == 1, 0.5 / y.mean(), 0.5 / (1 - y.mean())) / len(y)
    ridge = np.diag(np.append(np.full(z.shape[1] - 1, 2 * L2), 0.0))  # the bias is not shrunk
    params = np.zeros(z.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-np.clip(z @ params, -50, 50)))
        grad = z.T @ (weight * (p - y)) + ridge @ params
        hessian = (z * (weight * p * (1 - p))[:, None]).T @ z + ridge
        step = np.linalg.solve(hessian, grad)
        params -= step
        if np.abs(step).max() < 1e-10:
            break
    return mean, std, params[:-1], float(params[-1])


def fit_models(
    feats: FingerFeatures,
    source: np.ndarray,
    label: np.ndarray,
    table: dict[tuple[str, str], tuple[bool | None, ...]] = FINGER_LABELS,
) -> tuple[FingerModel, np.ndarray]:
    """Fit the five finger models; returns the models and the labels used in the last round."""
    labels = finger_labels(source, label, table)
    counted = np.array(
        [s == "epsrc" and lab in "12345" for s, lab in zip(source, label, strict=True)]
    )
    model = None
    for _ in range(1 + SELF_LABEL_ROUNDS):
        if model is not None:
            p = model.probabilities(
                FingerFeatures({k: v[counted] for k, v in feats.by_finger.items()})
            )
            n = np.array([int(x) for x in label[counted]])
            order = np.argsort(-p, axis=1)
            relabel = np.zeros_like(p)
            for row, (top, count) in enumerate(zip(order, n, strict=True)):
                relabel[row, top[:count]] = 1.0
            labels[counted] = relabel
        params = [
            fit_logistic(
                feats.by_finger[name][~np.isnan(labels[:, f])], labels[~np.isnan(labels[:, f]), f]
            )
            for f, name in enumerate(FINGERS)
        ]
        model = FingerModel(
            *({name: p[k] for name, p in zip(FINGERS, params, strict=True)} for k in range(4))
        )
    assert model is not None
    return model, labels


def world_only(feats: FingerFeatures) -> FingerFeatures:
    """The models before image-plane features: index…pinky's world-landmark columns, the
    thumb's joint features (:data:`THUMB_JOINTS`)."""
    return FingerFeatures(
        {
            name: v[..., :THUMB_JOINT_COLUMNS]
            if name == "thumb"
            else v[
                ..., [i for i, f in enumerate(FEATURE_NAMES[name]) if not f.startswith("image_")]
            ]
            for name, v in feats.by_finger.items()
        }
    )


def fit_finger_models(
    feats: FingerFeatures,
    source: np.ndarray,
    label: np.ndarray,
    table: dict[tuple[str, str], tuple[bool | None, ...]] = FINGER_LABELS,
) -> tuple[FingerModel, np.ndarray]:
    """The shipped models. Index…pinky: fitted with a thumb of its joint features only, on
    ``table``, exactly as before session 30 (the shot detector reads them). The thumb's two
    models: ``thumb_joints`` from the world-only fit (index…pinky world-only, on ``table``),
    as the thumb was before; ``thumb`` over all its features, from a fit of all five fingers on
    ``table`` with the sign-language "0" as five folded fingers (:data:`ZERO_FOLDED`). The
    labels returned are index…pinky's, the thumb's from the ``thumb`` fit."""
    thumb = feats.by_finger["thumb"]
    joints_only = FingerFeatures(feats.by_finger | {"thumb": thumb[..., :THUMB_JOINT_COLUMNS]})
    model, labels = fit_models(joints_only, source, label, table)
    before, _ = fit_models(world_only(feats), source, label, table)
    free, free_labels = fit_models(feats, source, label, table | ZERO_FOLDED)
    labels[:, 0] = free_labels[:, 0]
    parts = zip(
        (model.mean, model.std, model.weights, model.bias),
        (free.mean, free.std, free.weights, free.bias),
        (before.mean, before.std, before.weights, before.bias),
        strict=True,
    )
    combined = [
        dict(new) | {"thumb": thumb_part["thumb"], THUMB_JOINTS: old["thumb"]}
        for new, thumb_part, old in parts
    ]
    return FingerModel(*combined), labels


def two_folds(source: np.ndarray, label: np.ndarray) -> np.ndarray:
    """Fold (0/1) per photo: blocks of FOLD_BLOCK consecutive photos of each class alternate."""
    fold = np.zeros(len(source), dtype=int)
    for key in sorted(set(zip(source, label, strict=True))):
        rows = np.flatnonzero((source == key[0]) & (label == key[1]))
        fold[rows] = (np.arange(len(rows)) // FOLD_BLOCK) % 2
    return fold


def fit_gun_floor(feats: FingerFeatures, source: np.ndarray, label: np.ndarray) -> float:
    """The confidence floor that keeps GUN_KEEP of the held-out guns (two-fold split)."""
    fold = two_folds(source, label)
    confidences = []
    for k in (0, 1):
        train, held = fold != k, (fold == k) & (source == "sign") & (label == "2")

        def rows(mask: np.ndarray) -> FingerFeatures:
            return FingerFeatures({name: v[mask] for name, v in feats.by_finger.items()})

        model, _ = fit_finger_models(rows(train), source[train], label[train])
        for p in model.probabilities(rows(held)):
            res = classify_probabilities(p, gun_min=0.0)
            confidences.append(res.confidence if res.pose == "gun" else -1.0)
    ordered = np.sort(confidences)
    floor = ordered[int(np.floor((1 - GUN_KEEP) * len(ordered)))]
    return float(np.floor(100 * floor) / 100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--out", type=Path, default=THRESHOLDS_PATH)
    args = parser.parse_args()
    data = load_cache(args.cache)
    use = data["detected"] & (data["part"] == "fit")
    feats = finger_features(data["world"][use], data["landmarks"][use])
    model, labels = fit_finger_models(feats, data["source"][use], data["label"][use])
    gun_floor = fit_gun_floor(feats, data["source"][use], data["label"][use])
    print(f"gun confidence floor {gun_floor:.2f} (keeps {GUN_KEEP:.0%} of held-out guns)")
    counts = {}
    probs = model.probabilities(feats)
    for f, name in enumerate(FINGERS):
        known = ~np.isnan(labels[:, f])
        y = labels[known, f]
        counts[name] = {"extended": int(y.sum()), "folded": int((1 - y).sum())}
        acc = float(np.mean((probs[known, f] > 0.5) == (y == 1)))
        print(f"{name:6s} n={known.sum():4d} fit accuracy {acc:.3f}")
    out = {
        "provenance": {
            "written_by": "scripts/fit_gesture_thresholds.py",
            "date": dt.date.today().isoformat(),
            "data": "real MediaPipe HandLandmarker (full, IMAGE mode) world and image landmarks "
            "of the FIT "
            "part of ../shared/handdata: EPSRC finger counting Set1 (CC BY-SA 4.0) and the "
            "even-indexed students of ardamavi sign-language digits (Apache-2.0); see "
            "scripts/extract_handdata_landmarks.py for the split",
            "photos_used": int(use.sum()),
            "labels_per_finger": counts,
            "self_label_rounds": SELF_LABEL_ROUNDS,
            "gun_min_confidence": f"keeps {GUN_KEEP:.0%} of the held-out guns of a two-fold "
            f"split of the fit part (blocks of {FOLD_BLOCK} photos)",
        },
        "fingers": model.to_json(),
        "poses": {"gun_min_confidence": gun_floor},
    }
    args.out.write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
