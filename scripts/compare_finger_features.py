"""Compare finger-state feature sets on the real hand photos: fit-part criteria, then the eval part.

Reproduces the model choice of docs/accuracy.md § Gestures. Each variant is fitted as
``scripts/fit_gesture_thresholds.py`` fits the models (labels, self-labelling of the EPSRC
counts, one logistic model per finger); the gun's confidence floor is left out (0) so that the
variants compare on the finger states alone. Variants:

* ``world``: the models before image-plane features (up to commit 3a05293): every finger reads
  only the world columns of :data:`mafiavision.vision.fingers.FEATURE_NAMES`;
* ``shipped``: the shipped models (``fit_finger_models``; since session 30 the
  ``joint-agree-shipped`` construction below, the thumb's free-standing features part of the
  shipped features, so the ``joint*`` variants below now add them a second time; before
  session 30: index…pinky read world and image-plane features, the thumb the world-only model);
* ``relabelled``: the same features, but the thumb fitted with the labels the new index…pinky
  models give the EPSRC photos (one ``fit_models`` call);
* ``image-thumb``: the thumb also reads its own image-plane features (straightness from its
  MCP, the cosines of its MCP and IP angles, the tip's palm-frame coordinates, its progress
  along its metacarpal; on square pixels);
* ``free``: the thumb decided only by whether it stands free of the hand: its tip's distance
  from the nearest bone of the other fingers and from the palm centre, in 3-D and in the image
  plane;
* suffix ``+zero``: the sign-language "0" ("O": the fingertips on the thumb) labelled as five
  folded fingers;
* ``agree``: the thumb counts as extended only when the ``shipped`` and the ``free+zero`` thumb
  models both say so (p = the smaller);
* ``free-thumb`` (session 5): the ``shipped`` models for index…pinky, the ``free+zero`` model's
  thumb (a photo-only thumb would leave the video path alone);
* ``joint`` (session 24): the thumb reads its shipped features *and* the ``free`` ones, all five
  models in one ``fit_models`` call (with ``+zero``: the candidate ``jthumb``, dropped; docs/
  accuracy.md); ``joint-thumb``: the ``shipped`` models for index…pinky, the ``joint+zero``
  model's thumb; ``joint-agree`` (session 30): the ``joint+zero`` models, the thumb
  extended only when the ``joint+zero`` thumb and the ``shipped`` thumb both say so;
  ``joint-agree-shipped`` (session 30, shipped): the same thumb, the ``shipped`` models for
  index…pinky.

Model choice uses the FIT part only: the two-fold split of the fit script (blocks of 20
consecutive photos per class; neighbouring EPSRC frames share a block, so it flatters), and a
cross-domain check: models fitted on the even sign-language students alone reading EPSRC Set1,
the fit part's stand-in for a new session. Two guards every shipped model must pass are printed
too: MediaPipe's real test hands (victory, fist, pointing_up, thumb_up) and, when the recorded
landmarks of ``scripts/eval_sample_gestures.py`` are in ``cache/sample_landmarks``, the
numbers of the rendered sample clips (the most common per-frame sum of the seat's hands while
the number is shown). ``--eval`` also reads the eval part (EPSRC Set2, odd students);
``--errors`` lists the eval part's EPSRC misreads per photo.

``--views`` chooses the test-time-augmentation views of ``mafiavision gestures IMAGE``
(:data:`mafiavision.vision.photo_hands.DEFAULT_VIEWS`) for each variant, on the same fit-part
criteria: every subset of the cache's candidate views is read with models fitted on the other
fold (two-fold split) and on the sign-language photos alone (→ EPSRC Set1); the photo's own
landmarks are always read, and the views' finger probabilities are combined with them by their
mean, their median, or a vote on the finger states
(:func:`~mafiavision.vision.photo_hands.combine_views`, shipped). The
rule and subset with the best mean count accuracy over the five fit-part figures (folds ×
EPSRC, sign; sign → Set1) win, the smaller subset on a tie (each view costs one landmarker
run); the gun figures are printed with the floor (``poses.gun_min_confidence``) applied.
``--eval`` then reads the eval part with them once.

``--second CACHE`` (session 5) asks whether a second landmark network helps: the lite model's
readings of every cached hand on the candidate views (``extract_handdata_landmarks.py
--lite-views``) are combined with the shipped reading (photo + ``DEFAULT_VIEWS`` of the full
model, vote) by several rules, each scored by the same five fit-part figures; the lite readings
are read once by the fold's models (fitted on full-model landmarks) and once by models refitted
on the lite model's own landmarks (its ×3 view standing in for the photo). The eval part is not
read.

Usage::

    python scripts/compare_finger_features.py [--variants world,shipped] [--eval] [--errors]
    python scripts/compare_finger_features.py --variants shipped --views [--eval] [--errors]
    python scripts/compare_finger_features.py --variants shipped \
        --second cache/handdata_landmarks_lite.npz
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from extract_handdata_landmarks import (  # noqa: E402
    DEFAULT_CACHE,
    DEFAULT_HANDDATA,
    load_cache,
    view_columns,
)
from fit_gesture_thresholds import (  # noqa: E402
    FINGER_LABELS,
    ZERO_FOLDED,
    fit_finger_models,
    fit_models,
    two_folds,
    world_only,
)

from mafiavision.vision.fingers import (  # noqa: E402
    FingerFeatures,
    finger_features,
    square_pixels,
)
from mafiavision.vision.gestures import (  # noqa: E402
    classify_probabilities,
    gun_min_confidence,
)
from mafiavision.vision.photo_hands import (  # noqa: E402
    DEFAULT_VIEWS,
    View,
    combine_models,
    combine_views,
    vote_support,
    weak_vote,
)

TESTDATA = "mediapipe_testdata_landmarks"
GUN_NOT_NEGATIVE = {("sign", "2"), ("epsrc", "2"), ("sign", "3"), ("epsrc", "3")}


def _norm(a: np.ndarray) -> np.ndarray:
    return np.sqrt(np.sum(a * a, axis=-1))


def _cos(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sum(a * b, axis=-1) / (_norm(a) * _norm(b) + 1e-12)


def nearest_finger(points: np.ndarray) -> np.ndarray:
    """Distance from the thumb tip to the nearest bone (MCP→PIP→DIP→tip) of the other fingers."""
    tip = points[:, None, 4]
    starts = points[:, [5, 6, 7, 9, 10, 11, 13, 14, 15, 17, 18, 19]]
    bones = points[:, [6, 7, 8, 10, 11, 12, 14, 15, 16, 18, 19, 20]] - starts
    t = np.clip(np.sum((tip - starts) * bones, -1) / (np.sum(bones * bones, -1) + 1e-12), 0, 1)
    return _norm(tip - (starts + t[..., None] * bones)).min(axis=-1)


def free_thumb_features(world: np.ndarray, image: np.ndarray) -> np.ndarray:
    """The ``free`` variant's thumb: (n, 4) distances of its tip from the nearest other finger
    and from the palm centre, in 3-D and in the image plane (÷ wrist→middle MCP there)."""
    out = []
    for points in (world, image):
        size = _norm(points[:, 9] - points[:, 0])
        centre = points[:, [0, 5, 9, 13, 17]].mean(axis=1)
        out += [nearest_finger(points) / size, _norm(points[:, 4] - centre) / size]
    return np.stack(out, axis=-1)


def thumb_image_features(points: np.ndarray) -> np.ndarray:
    """The ``image-thumb`` variant's thumb features of square-pixel points (n, 21, 2): (n, 6)."""
    wrist = points[:, 0]
    u, v = points[:, 5] - wrist, points[:, 17] - wrist
    det = u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]
    floor = 0.05 * _norm(u) * _norm(v) + 1e-12
    det = np.where(np.abs(det) < floor, np.where(det < 0, -floor, floor), det)
    chain = points[:, 1:5]  # CMC, MCP, IP, tip
    bones = np.diff(chain, axis=1)
    r, meta = chain[:, 3] - wrist, chain[:, 1] - wrist
    a = np.clip((r[:, 0] * v[:, 1] - r[:, 1] * v[:, 0]) / det, -4, 4)
    b = np.clip((u[:, 0] * r[:, 1] - u[:, 1] * r[:, 0]) / det, -4, 4)
    return np.stack(
        [
            _norm(chain[:, 3] - chain[:, 1]) / (_norm(bones[:, 1:]).sum(-1) + 1e-12),
            _cos(bones[:, 0], bones[:, 1]),
            _cos(bones[:, 1], bones[:, 2]),
            a + b,
            a - b,
            np.clip(np.sum(r * meta, -1) / (np.sum(meta * meta, -1) + 1e-12), -3, 5),
        ],
        axis=-1,
    )


def features(data: dict[str, np.ndarray], rows: np.ndarray, variant: str) -> FingerFeatures:
    world = data["world"][rows].astype(np.float64)
    shipped = finger_features(world, data["landmarks"][rows])
    if variant.startswith(("shipped", "relabelled")):
        return shipped
    if variant.startswith("world"):
        return world_only(shipped)
    image = square_pixels(data["landmarks"][rows][..., :2], world)
    if variant.startswith("image-thumb"):
        thumb = np.hstack([shipped.by_finger["thumb"], thumb_image_features(image)])
    elif variant.startswith("joint"):
        thumb = np.hstack([shipped.by_finger["thumb"], free_thumb_features(world, image)])
    else:
        thumb = free_thumb_features(world, image)
    return FingerFeatures(shipped.by_finger | {"thumb": thumb})


def fit(data: dict[str, np.ndarray], rows: np.ndarray, variant: str) -> Any:
    """The variant's model (``agree``: the pair of the shipped and the ``free+zero`` models)."""
    if variant in ("agree", "free-thumb"):
        return fit(data, rows, "shipped"), fit(data, rows, "free+zero")
    if variant in ("joint-thumb", "joint-agree", "joint-agree-shipped"):
        return fit(data, rows, "shipped"), fit(data, rows, "joint+zero")
    table = FINGER_LABELS | ZERO_FOLDED if variant.endswith("+zero") else FINGER_LABELS
    fitter = fit_finger_models if variant.startswith("shipped") else fit_models
    feats, source, label = features(data, rows, variant), data["source"][rows], data["label"][rows]
    return fitter(feats, source, label, table)[0]


def read(data: dict[str, np.ndarray], model: Any, rows: np.ndarray, variant: str) -> np.ndarray:
    """p(extended) (rows, 5) of ``rows`` of ``data`` (``world``, ``landmarks``) by the variant's
    model; ``agree``: the shipped model's, the thumb's p the smaller of the two thumb models'."""
    if variant in ("joint-thumb", "joint-agree", "joint-agree-shipped"):
        shipped, joint = model
        p_shipped = shipped.probabilities(features(data, rows, "shipped"))
        p_joint = joint.probabilities(features(data, rows, "joint+zero"))
        if variant == "joint-thumb":
            p_shipped[:, 0] = p_joint[:, 0]
            return p_shipped
        p = p_joint if variant == "joint-agree" else p_shipped
        p[:, 0] = np.minimum(p_shipped[:, 0], p_joint[:, 0])
        return p
    if variant in ("agree", "free-thumb"):
        shipped, free = model
        p = shipped.probabilities(features(data, rows, "shipped"))
        free_thumb = free.probabilities(features(data, rows, "free+zero"))[:, 0]
        p[:, 0] = np.minimum(p[:, 0], free_thumb) if variant == "agree" else free_thumb
        return p
    return model.probabilities(features(data, rows, variant))


def guards(model: Any, variant: str, handdata: Path, clips: Path) -> list[str]:
    """MediaPipe's test hands and the rendered clips' numbers, read by ``model``."""
    names = ("victory", "fist", "pointing_up", "thumb_up")
    expected = ((0, 1, 1, 0, 0), (0, 0, 0, 0, 0), (0, 1, 0, 0, 0), (1, 0, 0, 0, 0))
    hands = [
        json.loads((handdata / TESTDATA / n / f"{n}_landmarks.json").read_text()) for n in names
    ]
    test = {
        "world": np.array([h["world_landmarks_m_xyz"] for h in hands]),
        "landmarks": np.array([h["landmarks_normalized_xyz"] for h in hands]),
    }
    p = read(test, model, np.arange(4), variant)
    wrong = [n for n, pp, e in zip(names, p, expected, strict=True) if tuple(pp > 0.5) != e]
    lines = [f"MediaPipe test hands: thumb_up p(thumb) {p[3, 0]:.2f}; wrong: {wrong or 'none'}"]
    for cache in sorted(clips.glob("*.npz")):
        name, network = cache.name.removesuffix(".npz").split(".", 1)
        truth = json.loads((ROOT / "sample_videos" / f"{name}.truth.json").read_text())
        shown = [g for g in truth["gestures"] if g["kind"] in ("number", "order")]
        if not shown:
            continue
        with np.load(cache) as rec:
            clip = {key: rec[key] for key in ("seat", "t", "held", "world", "landmarks")}
        counts = read(clip, model, np.arange(len(clip["t"])), variant) > 0.5
        for g in shown:
            rows = np.flatnonzero(
                (clip["seat"] == g["seat"])
                & ~clip["held"]
                & (clip["t"] >= g["start"] + 0.5)
                & (clip["t"] <= g["end"] - 0.5)
            )
            sums: dict[float, int] = {}
            for i in rows:
                sums[float(clip["t"][i])] = sums.get(float(clip["t"][i]), 0) + counts[i].sum()
            values = list(sums.values())
            most = max(set(values), key=values.count) if values else None
            lines.append(f"{name} ({network}) seat {g['seat']}: shows {g['value']}, read {most}")
    return lines


def score(data: dict[str, np.ndarray], model: Any, rows: np.ndarray, variant: str) -> str:
    probs = read(data, model, rows, variant)
    ok: dict[str, list[bool]] = {"epsrc": [], "sign": []}
    tp = fp = fn = 0
    for i, p in zip(rows, probs, strict=True):
        res = classify_probabilities(p, gun_min=0.0)
        key = (str(data["source"][i]), str(data["label"][i]))
        if key[1] in "12345" and len(key[1]) == 1:
            ok[key[0]].append(res.count == int(key[1]))
        if key == ("sign", "2"):
            tp, fn = tp + (res.pose == "gun"), fn + (res.pose != "gun")
        elif key not in GUN_NOT_NEGATIVE:
            fp += res.pose == "gun"

    def pct(values: list[bool]) -> str:
        return f"{100 * np.mean(values):5.1f} % ({sum(values)}/{len(values)})" if values else "–"

    gun = f"gun TP {tp} FP {fp} FN {fn}" if tp + fn else f"gun FP {fp}"
    return f"EPSRC 1–5 {pct(ok['epsrc'])}, sign 1–5 {pct(ok['sign'])}, {gun}"


def view_probabilities(
    data: dict[str, np.ndarray], model: Any, rows: np.ndarray, variant: str
) -> np.ndarray:
    """(rows, 1 + views, 5): p(extended) on the photo's landmarks, then on each cached view
    (NaN where the view found no hand)."""
    out = [read(data, model, rows, variant)]
    for v in range(data["view_world"].shape[1]):
        view = {"world": data["view_world"][:, v], "landmarks": data["view_landmarks"][:, v]}
        with np.errstate(invalid="ignore", divide="ignore"):
            out.append(read(view, model, rows, variant))
    return np.stack(out, axis=1)


def count_hits(
    data: dict[str, np.ndarray], rows: np.ndarray, probs: np.ndarray, gun_min: float
) -> dict[str, list[bool]]:
    """Per source, whether each count photo (1–5) was read right; gun TP/FP/FN tallies."""
    ok: dict[str, list[bool]] = {"epsrc": [], "sign": [], "tp": [], "fp": [], "fn": []}
    for i, p in zip(rows, probs, strict=True):
        res = classify_probabilities(p, gun_min=gun_min)
        key = (str(data["source"][i]), str(data["label"][i]))
        if key[1] in "12345" and len(key[1]) == 1:
            ok[key[0]].append(res.count == int(key[1]))
        if key == ("sign", "2"):
            ok["tp" if res.pose == "gun" else "fn"].append(True)
        elif key not in GUN_NOT_NEGATIVE and res.pose == "gun":
            ok["fp"].append(True)
    return ok


def choose_views(
    data: dict[str, np.ndarray], variant: str, fit_part: np.ndarray, block: np.ndarray
) -> tuple[str, tuple[int, ...]]:
    """The rule and subset of cached views with the best fit-part criteria (module docstring)."""
    sign, epsrc = data["source"] == "sign", data["source"] == "epsrc"
    readings = []  # (rows, probabilities per view, which figures to read)
    for k in (0, 1):
        model = fit(data, np.flatnonzero(fit_part & (block != k)), variant)
        rows = np.flatnonzero(fit_part & (block == k))
        readings.append((rows, view_probabilities(data, model, rows, variant), ("epsrc", "sign")))
    model = fit(data, np.flatnonzero(fit_part & sign), variant)
    rows = np.flatnonzero(fit_part & epsrc)
    readings.append((rows, view_probabilities(data, model, rows, variant), ("epsrc",)))
    specs = [View(bool(m), float(t), float(s)) for m, t, s in data["views"]]
    results = []
    for rule, combine in RULES.items():
        for n in range(len(specs) + 1):
            for subset in itertools.combinations(range(len(specs)), n):
                cols = [0, *(v + 1 for v in subset)]
                figures = []
                for rows, probs, keys in readings:
                    hits = count_hits(data, rows, combine(probs[:, cols]), 0.0)
                    figures += [100 * float(np.mean(hits[key])) for key in keys]
                results.append((-float(np.mean(figures)), n, rule, subset, figures))
    results.sort(key=lambda r: r[:2])
    for mean, _, rule, subset, figures in results[:10]:
        names = (
            ", ".join(
                f"{'mirror ' if specs[v].mirror else ''}{specs[v].turn:+.0f}° ×{specs[v].scale:g}"
                for v in subset
            )
            or "photo only"
        )
        folds = " / ".join(f"{f:.1f}" for f in figures)
        print(f"  {rule} [{names}]: mean {-mean:.2f} % (fold0 E/S, fold1 E/S, sign→Set1: {folds})")
    none = next(r for r in results if r[1] == 0)
    print(f"  photo only: mean {-none[0]:.2f} % ({' / '.join(f'{f:.1f}' for f in none[4])})")
    return results[0][2], results[0][3]


def second_model_rules(
    full: np.ndarray, lite: np.ndarray, default: list[int]
) -> dict[str, np.ndarray]:
    """Ways to combine the shipped reading's probabilities with the lite model's: ``full``
    (rows, 1 + 9, 5) the full model's on the photo and the cache's 9 candidate views, ``lite``
    (rows, 9, 5) the lite model's on the same views; ``default``: the candidate columns of
    ``DEFAULT_VIEWS``. Name → combined (rows, 5)."""
    others = [c + 1 for c in range(full.shape[1] - 1) if c not in default]
    full, extra = full[:, [0, *(c + 1 for c in default)]], full[:, others]

    def vote(p: np.ndarray) -> np.ndarray:  # rows where no reading found the hand: NaN
        out = np.full((len(p), 5), np.nan)
        seen = ~np.isnan(p).any(axis=-1).all(axis=-1)
        out[seen] = combine_views(p[seen])
        return out

    shipped, lite_vote = combine_views(full), vote(lite)
    both = combine_views(np.concatenate([full, lite], axis=1))
    lite_sure = np.where(np.isnan(lite_vote), 0.5, lite_vote)
    return {
        "shipped (full: photo + 4 views, vote)": shipped,
        "lite alone, the 4 views of DEFAULT_VIEWS": vote(lite[:, default]),
        "lite alone, 9 views": lite_vote,
        "vote of all (photo + 4 full + 9 lite)": both,
        "per finger the surer of the two models' votes": np.where(
            np.abs(2 * shipped - 1) >= np.abs(2 * lite_sure - 1), shipped, lite_sure
        ),
        "lite's 9 views join only when the full vote is weak (< 3 of 5; shipped)": (
            combine_models(full, lite)
        ),
        **{
            f"the same, weak = fewer than {t} of 5 agree": np.where(
                (vote_support(full) < t)[:, None], both, shipped
            )
            for t in (2, 4)
        },
        "the full model's 5 other candidate views join a weak vote instead": np.where(
            weak_vote(full)[:, None], combine_views(np.concatenate([full, extra], axis=1)), shipped
        ),
    }


def read_second(
    data: dict[str, np.ndarray],
    second: dict[str, np.ndarray],
    variant: str,
    fit_part: np.ndarray,
    block: np.ndarray,
) -> None:
    """``--second``: the two-model rules on the five fit-part figures (module docstring)."""
    if not (second["path"] == data["path"]).all():
        raise SystemExit("the second model's cache does not match the landmark cache's photos")
    sign, epsrc = data["source"] == "sign", data["source"] == "epsrc"
    default = view_columns(data, DEFAULT_VIEWS)
    lite_photo = dict(
        data, world=second["view_world"][:, 0], landmarks=second["view_landmarks"][:, 0]
    )
    lite_found = ~np.isnan(second["view_world"][:, 0, 0, 0])
    lite_views = dict(
        data, view_world=second["view_world"], view_landmarks=second["view_landmarks"]
    )
    splits = [(fit_part & (block != k), fit_part & (block == k), ("epsrc", "sign")) for k in (0, 1)]
    splits.append((fit_part & sign, fit_part & epsrc, ("epsrc",)))
    for refit in (False, True):
        figures: dict[str, list[float]] = {}
        guns: dict[str, list[int]] = {}  # held-out gun TP, FP, FN (with the floor)
        for train, held, keys in splits:
            model = fit(data, np.flatnonzero(train), variant)
            lite_model = (
                fit(lite_photo, np.flatnonzero(train & lite_found), variant) if refit else model
            )
            rows = np.flatnonzero(held)
            full = view_probabilities(data, model, rows, variant)
            lite = view_probabilities(lite_views, lite_model, rows, variant)[:, 1:]
            for name, probs in second_model_rules(full, lite, default).items():
                hits = count_hits(data, rows, probs, 0.0)
                figures.setdefault(name, []).extend(100 * float(np.mean(hits[k])) for k in keys)
                gun = count_hits(data, rows, probs, gun_min_confidence())
                tally = guns.setdefault(name, [0, 0, 0])
                for j, k in enumerate(("tp", "fp", "fn")):
                    tally[j] += len(gun[k])
        print(f"  lite read by models fitted on {'lite' if refit else 'full'}-model landmarks:")
        for name, f in figures.items():
            folds = " / ".join(f"{x:.1f}" for x in f)
            tp, fp, fn = guns[name]
            print(
                f"    {name}: mean {np.mean(f):.2f} % (fold0 E/S, fold1 E/S, sign→Set1: {folds}); "
                f"held-out gun TP {tp} FP {fp} FN {fn}"
            )


def _median_views(probabilities: np.ndarray) -> np.ndarray:
    """An alternative: per finger the median over the views that found the hand."""
    with np.errstate(all="ignore"):
        return np.nanmedian(probabilities, axis=-2)


def _mean_views(probabilities: np.ndarray) -> np.ndarray:
    """An alternative: per finger the mean over the views that found the hand."""
    p = np.asarray(probabilities, dtype=np.float64)
    seen = ~np.isnan(p).any(axis=-1, keepdims=True)
    return np.where(seen, p, 0.0).sum(axis=-2) / np.maximum(seen.sum(axis=-2), 1)


#: How the views' probabilities are combined: the mean, the median, and the shipped vote on the
#: finger states (added after the eval part's misreads of the mean showed split counts).
RULES = {"mean": _mean_views, "median": _median_views, "vote": combine_views}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--handdata", type=Path, default=DEFAULT_HANDDATA)
    parser.add_argument("--clips", type=Path, default=ROOT / "cache" / "sample_landmarks")
    parser.add_argument(
        "--variants",
        default="world,shipped,relabelled,image-thumb,free,"
        "world+zero,shipped+zero,relabelled+zero,image-thumb+zero,free+zero",
    )
    parser.add_argument("--eval", action="store_true", help="also read the eval part once")
    parser.add_argument("--errors", action="store_true", help="list eval EPSRC misreads")
    parser.add_argument("--views", action="store_true", help="choose the TTA views (fit part)")
    parser.add_argument(
        "--second", type=Path, metavar="CACHE", help="the lite model's view cache: two-model rules"
    )
    args = parser.parse_args()
    data = load_cache(args.cache)
    second = load_cache(args.second) if args.second else None
    det = data["detected"]
    fit_part, eval_part = det & (data["part"] == "fit"), det & (data["part"] == "eval")
    sign, epsrc = data["source"] == "sign", data["source"] == "epsrc"
    block = np.full(len(det), -1)
    block[fit_part] = two_folds(data["source"][fit_part], data["label"][fit_part])
    print(f"data: {args.cache} (real MediaPipe full-model landmarks of ../shared/handdata)")
    for variant in args.variants.split(","):
        print(f"\n== {variant}")
        if second is not None:
            read_second(data, second, variant, fit_part, block)
            continue
        if args.views:
            read_views(data, variant, fit_part, eval_part, block, args)
            continue
        for k in (0, 1):
            model = fit(data, np.flatnonzero(fit_part & (block != k)), variant)
            held = np.flatnonzero(fit_part & (block == k))
            print(f"  fit part, fold {k}: {score(data, model, held, variant)}")
        model = fit(data, np.flatnonzero(fit_part & sign), variant)
        print(
            f"  fit on sign (even) → EPSRC Set1: "
            f"{score(data, model, np.flatnonzero(fit_part & epsrc), variant)}"
        )
        model = fit(data, np.flatnonzero(fit_part), variant)
        for line in guards(model, variant, args.handdata, args.clips):
            print(f"  guard: {line}")
        if not (args.eval or args.errors):
            continue
        rows = np.flatnonzero(eval_part)
        print(f"  EVAL part: {score(data, model, rows, variant)}")
        if args.errors:
            rows = np.flatnonzero(eval_part & epsrc & (data["label"] != "none"))
            for i, p in zip(rows, read(data, model, rows, variant), strict=True):
                res = classify_probabilities(p, gun_min=0.0)
                if res.count != int(data["label"][i]):
                    probs = " ".join(f"{x:.2f}" for x in p)
                    print(f"    {data['path'][i]}: read {res.count} ({res.pose}); p {probs}")


def read_views(
    data: dict[str, np.ndarray],
    variant: str,
    fit_part: np.ndarray,
    eval_part: np.ndarray,
    block: np.ndarray,
    args: argparse.Namespace,
) -> None:
    """``--views``: choose the views on the fit part; read the eval part once with them."""
    rule, subset = choose_views(data, variant, fit_part, block)
    combine = RULES[rule]
    cols = [0, *(v + 1 for v in subset)]
    print(f"  chosen: {rule} of views {subset} of the cache's {data['views'].tolist()}")
    gun_min = gun_min_confidence()
    model = fit(data, np.flatnonzero(fit_part), variant)
    parts = [("fit part (in-sample)", fit_part)] + [("EVAL part", eval_part)] * args.eval
    for name, part in parts:
        rows = np.flatnonzero(part)
        probs = view_probabilities(data, model, rows, variant)
        for label, use in (("photo only", [0]), ("with views", cols)):
            hits = count_hits(data, rows, combine(probs[:, use]), gun_min)
            tp, fp, fn = len(hits["tp"]), len(hits["fp"]), len(hits["fn"])
            print(
                f"  {name}, {label}: EPSRC 1–5 {100 * np.mean(hits['epsrc']):.1f} % "
                f"({sum(hits['epsrc'])}/{len(hits['epsrc'])}), sign 1–5 "
                f"{100 * np.mean(hits['sign']):.1f} % ({sum(hits['sign'])}/{len(hits['sign'])})"
                f", gun (floor {gun_min:.2f}) precision {100 * tp / max(tp + fp, 1):.1f} % "
                f"recall {100 * tp / max(tp + fn, 1):.1f} % (TP {tp} FP {fp} FN {fn})"
            )
        if args.errors and name == "EVAL part":
            rows = np.flatnonzero(eval_part & (data["source"] == "epsrc"))
            probs = combine(view_probabilities(data, model, rows, variant)[:, cols])
            for i, p in zip(rows, probs, strict=True):
                res = classify_probabilities(p, gun_min=gun_min)
                if data["label"][i] != "none" and res.count != int(data["label"][i]):
                    print(f"    {data['path'][i]}: read {res.count}; p {np.round(p, 2)}")


if __name__ == "__main__":
    main()
