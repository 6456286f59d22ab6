"""Fit the fold model (``mafiavision/vision/fold_model.json``) on recorded rendered clips.

Each ``--data NAME SAMPLES CACHE`` names a folder of rendered clips (``*.mp4`` with their
``*.truth.json``) and the folder of their recorded landmarks and finger patches
(``scripts/eval_sample_gestures.py --samples SAMPLES --cache CACHE --model lite+full``). Every
clip is replayed through the product's :class:`~mafiavision.vision.shots.ShotDetector` twice —
as ``lite+full`` reads it and as lite alone (the recording without the second network) — and
the detector traces the fold features of each fresh frame of each seat's hand
(:func:`mafiavision.vision.fold.fold_features`), so the model is fitted on exactly what it will
read. Labels come from the truth's bend of each seat frame by frame (``bends``): a frame is
positive when index and middle are bent at least ``--positive`` degrees, negative when they are
not bent at all and no true shot of the seat lies within 0.3 s; the frames between are left
out. The fit: a logistic model, L2 penalty ``--l2``, the positive frames weighted up to the
negatives' total, by Newton's method.

``--hold NAME`` leaves a set out of the fit (read it then with ``eval_sample_gestures.py
--fold-model OUT``): the figures of docs/accuracy.md, "Session 28", are each set read by a model
fitted without it. ``--features FILE`` keeps the traced features, so that fits with other
settings or held-out sets skip the replay (about 2 min per set of 16 clips).

``--blend MODEL`` writes a model whose score is the mean of the log-odds of MODEL's fits and this
one. The packaged model holds three fits: session 28's (the samples and sets 26–28), session 41's
(the samples and sets 38–47) and session 49's (the samples and sets 53–62); the last fit's
``command`` remakes the model from the two before it (session 41's ``command`` was run on a model
of one fit: it kept that model's first fit only). ``--hold NAME --blend MODEL --out OUT`` gives a
blend whose refit has not seen NAME: docs/accuracy.md, "Session 41" and "Session 49", read each
seen set with such a blend, its refit fitted on the samples and the other seen sets.

Usage::

    python scripts/train_fold.py --data samples sample_videos CACHE_S \\
        --data v26 DIR26 CACHE26 ... [--hold v26] [--blend MODEL] [--out PATH] [--features FILE]
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from eval_sample_gestures import _by_time, seen_at  # noqa: E402

from mafiavision.vision.fold import (  # noqa: E402
    MODEL_PATH,
    FoldConfig,
    FoldFit,
    FoldModel,
    feature_count,
    load_model,
)
from mafiavision.vision.shots import ShotConfig, ShotDetector, continuing_hand  # noqa: E402

#: Frames this close (seconds) to a true shot's squeeze are neither positive nor negative
#: unless bent at least ``--positive``.
MARGIN = 0.3
THRESHOLD = FoldConfig().threshold


def trace_clip(data: dict[str, np.ndarray], truth: dict, pool: int, positive: float
               ) -> tuple[np.ndarray, np.ndarray]:
    """The fold features of every fresh frame of every seat's hand, and their labels (1
    positive, 0 negative, -1 left out)."""
    config = ShotConfig(finger_fold=FoldConfig(trace_pool=pool))
    seats = range(1, truth["seats"] + 1)
    detectors = {s: ShotDetector(s, config) for s in seats}
    for d in detectors.values():
        d.fold_trace = []
    by_time = _by_time(data)
    for t in data["times"]:
        for seat, det in detectors.items():
            hands = seen_at(data, by_time, seat, float(t))
            det.update(continuing_hand(hands, det.track), float(t))
    bends = {b["seat"]: b for b in truth["bends"]}
    features, labels = [], []
    for seat, det in detectors.items():
        assert det.fold_trace is not None
        if not det.fold_trace:
            continue
        times = np.array([t for t, _ in det.fold_trace])
        bend = np.zeros(len(times))
        if seat in bends:
            bend = np.interp(times, bends[seat]["times"], bends[seat]["degrees"], left=0, right=0)
        near = np.zeros(len(times), bool)
        for g in truth["gestures"]:
            if g["kind"] == "shot" and g["seat"] == seat:
                near |= (times >= g["start"] - MARGIN) & (times <= g["end"] + MARGIN)
        label = np.full(len(times), -1)
        label[(bend == 0) & ~near] = 0
        label[bend >= positive] = 1
        features.append(np.stack([f for _, f in det.fold_trace]))
        labels.append(label)
    if not features:
        return np.zeros((0, feature_count(pool))), np.zeros(0, int)
    return np.concatenate(features), np.concatenate(labels)


def trace_sets(data: list[tuple[str, Path, Path]], pool: int, positive: float
               ) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    out = {}
    for name, samples, cache in data:
        xs, ys = [], []
        for truth_file in sorted(samples.glob("*.truth.json")):
            clip = truth_file.name.removesuffix(".truth.json")
            recording = cache / f"{clip}.lite+full.npz"
            if not recording.exists():
                sys.exit(f"{recording}: no lite+full recording of {clip} (record it with "
                         f"scripts/eval_sample_gestures.py --model lite+full)")
            truth = json.loads(truth_file.read_text())
            with np.load(recording) as f:
                pair = {k: f[k] for k in f.files}
            lite = {k: v for k, v in pair.items() if not k.startswith("second")}
            for reading in (pair, lite):
                x, y = trace_clip(reading, truth, pool, positive)
                xs.append(x)
                ys.append(y)
        out[name] = (np.concatenate(xs), np.concatenate(ys))
        print(f"  {name}: {len(out[name][1])} frames traced, "
              f"{int((out[name][1] == 1).sum())} positive", flush=True)
    return out


def fit(x: np.ndarray, y: np.ndarray, l2: float, iterations: int = 100
        ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Logistic regression on standardised features (class-balanced; no penalty on the bias):
    mean, scale, weights, bias."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-6
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    weight = np.where(y == 1, (y == 0).sum() / max(1, (y == 1).sum()), 1.0)
    weight /= weight.mean()
    penalty = np.full(z.shape[1], l2)
    penalty[-1] = 0.0
    w = np.zeros(z.shape[1])
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-np.clip(z @ w, -30, 30)))
        gradient = z.T @ (weight * (p - y)) + penalty * w
        hessian = (z * (weight * p * (1 - p))[:, None]).T @ z + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hessian, gradient)
        step *= min(1.0, 2.0 / max(float(np.abs(step).max()), 1e-12))
        w -= step
        if float(np.abs(step).max()) < 1e-7:
            break
    return mean, scale, w[:-1], float(w[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", nargs=3, action="append", required=True,
                        metavar=("NAME", "SAMPLES", "CACHE"),
                        help="a set: its name, its clips' folder, its recordings' folder")
    parser.add_argument("--hold", action="append", default=[], metavar="NAME",
                        help="leave this set out of the fit")
    parser.add_argument("--pool", type=int, default=2)
    parser.add_argument("--l2", type=float, default=1.0)
    parser.add_argument("--positive", type=float, default=100.0)
    parser.add_argument("--features", type=Path, help="traced features, kept between runs")
    parser.add_argument("--blend", type=Path, metavar="MODEL",
                        help="write the mean of MODEL's fits and this one")
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    args = parser.parse_args()
    data = [(n, Path(s), Path(c)) for n, s, c in args.data]
    for name, samples, cache in data:
        if not samples.is_dir() or not cache.is_dir():
            parser.error(f"--data {name}: {samples} and {cache} must be folders")
    try:
        blend = list(load_model(args.blend).fits) if args.blend else []
    except (OSError, ValueError) as e:
        parser.error(f"--blend: {e}")
    if blend and blend[0].pool != args.pool:
        parser.error(f"--blend {args.blend}: its fits read pool {blend[0].pool}, "
                     f"not --pool {args.pool}")
    unknown = set(args.hold) - {n for n, _, _ in data}
    if unknown:
        parser.error(f"--hold {', '.join(sorted(unknown))}: not a --data set")
    key = f"{args.pool}:{args.positive}"
    traced: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    if args.features and args.features.exists():
        with np.load(args.features) as f:
            if str(f["key"]) == key:
                traced = {n: (f[f"x_{n}"], f[f"y_{n}"]) for n, _, _ in data if f"x_{n}" in f}
    missing = [d for d in data if d[0] not in traced]
    if missing:
        traced.update(trace_sets(missing, args.pool, args.positive))
        if args.features:
            np.savez(args.features, key=key, **{f"x_{n}": x for n, (x, _) in traced.items()},
                     **{f"y_{n}": y for n, (_, y) in traced.items()})
    used = [n for n, _, _ in data if n not in args.hold]
    x = np.concatenate([traced[n][0] for n in used])
    y = np.concatenate([traced[n][1] for n in used])
    keep = y >= 0
    mean, scale, w, b = fit(x[keep], y[keep].astype(float), args.l2)
    new = FoldFit(
        pool=args.pool, positive=args.positive, l2=args.l2, mean=mean.tolist(),
        scale=scale.tolist(), weights=w.tolist(), bias=b, trained_on=used,
        frames={"positive": int((y == 1).sum()), "negative": int((y == 0).sum())},
        command="python scripts/train_fold.py " + shlex.join(sys.argv[1:]),
    )
    model = FoldModel(fits=[*blend, new])
    args.out.write_text(model.model_dump_json(indent=None) + "\n")
    score = model.scorer()
    for n in used:
        xs, ys = traced[n]
        high = xs @ score.w + score.b >= THRESHOLD
        print(f"  {n} (fitted on): frames scoring ≥ {THRESHOLD:g}: positives "
              f"{high[ys == 1].mean():.1%}, negatives {high[ys == 0].mean():.3%}")
    print(f"wrote {args.out}: fitted on {', '.join(used)}; {new.frames}"
          + "".join(f"; the mean with the fit on {', '.join(b.trained_on)}" for b in blend))


if __name__ == "__main__":
    main()
