"""An experiment: a small CNN reading the hand's pixels, fused with the landmark finger models.

NEGATIVE RESULT (docs/accuracy.md § Gestures): on the fit-part criteria below no variant of the
fusion beat the shipped reading (photo + 4 views), so nothing of this is in the product — no
model file, ``mafiavision gestures IMAGE`` unchanged. The script keeps the experiment
reproducible. It needs torch==2.13.0 (CPU; a development tool, torch is not a dependency of
the product) and the landmark cache of ``scripts/extract_handdata_landmarks.py``; run it with
such an interpreter from the repository root, e.g. ``python
scripts/train_photo_counter.py``.

Crop (:func:`hand_crop`): from the photo's landmarks, a square grey 64×64 crop turned so that
wrist → middle MCP points up and mirrored so that the thumb side is on the left (the same crop
for either hand, palm or back), its side 1.4 × the turned landmarks' longer extent and at
least 2.8 palm lengths (a hand whose landmarks collapsed still fits); each crop standardised.

Data: the fixed fit part only (EPSRC Set1 + even-indexed sign-language students), photos whose
label is a count 1–5 (EPSRC folders; sign-language 1–5), with ``--threes`` also the
sign-language 6–9 as 3 (three fingers up, the thumb on the fourth). Augmentation, redrawn every
epoch: the crop turned ±15°, zoomed ×0.87–1.15, shifted ±6 % (through :func:`hand_crop`),
brightness/contrast ±25 %, gamma, a blur on a third of the crops, sensor noise (``--strong``:
lighting gradients, more blur and gamma). No mirror: the crop is already canonical.

Model: 4 conv blocks (16-32-64-64 channels, 3×3, batch norm, ReLU, 2×2 max-pool after the first
three), global average pool, dropout 0.3, a 5-way linear layer (~60 k weights); AdamW, one-cycle
learning rate, label smoothing 0.05, seed 0. ``--tta``: the CNN reads the mean over five crops
(:data:`CROP_VIEWS`); ``--highpass``: it reads the crop minus its blur.

Fusion (:func:`fuse`): the landmark models' p(extended) per finger (photo + the shipped views)
and the CNN's p(count = 1…5). The CNN never saw a fist (no photo of 0 in the fit data), so a
hand the landmarks read as 0 stays 0; otherwise each count c = 1…5 scores
``log L(c) + weight · log Q(c)``, L(c) the probability of the most probable finger pattern with
c fingers (weight 0 gives the landmark reading back), Q the CNN's; the most probable pattern with
the best count is read, and a finger it flips gets p = 0.5 ± 0.01, so no gun rests on it.

Criteria (fit part only; nothing of the eval part is read): (a) the cross-session stand-in —
CNN and landmark models trained on the fit part's sign-language photos only, reading EPSRC Set1;
(b) a two-fold split of the fit part — EPSRC Set1 in contiguous file-number blocks per class (a
quarter of each class per block, blocks alternate: neighbouring frames of the stream are
near-duplicates), the students by student. Printed per reading: the landmarks (weight 0), the
CNN alone, the fusion at several weights, and the mean of the five figures (fold 0 EPSRC /
sign, fold 1 EPSRC / sign, sign → Set1). Usage::

    python scripts/train_photo_counter.py [--threes] [--tta] [--epochs 60]
    python scripts/train_photo_counter.py --grid cache/crops.png
"""

from __future__ import annotations

import argparse
import bisect
import re
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from compare_finger_features import count_hits, fit, view_probabilities  # noqa: E402
from extract_handdata_landmarks import (  # noqa: E402
    DEFAULT_CACHE,
    DEFAULT_HANDDATA,
    load_cache,
    view_columns,
)

from mafiavision.vision.gestures import gun_min_confidence  # noqa: E402
from mafiavision.vision.photo_hands import DEFAULT_VIEWS, combine_views, load_rgb  # noqa: E402

CROP_SIDE = 64  # pixels of the CNN's square grey input
CROP_MARGIN = 1.4  # crop side ÷ the turned landmarks' longer extent
CROP_MIN_PALMS = 2.8  # crop side ≥ this × the palm length (wrist → middle MCP)
COUNTS = (1, 2, 3, 4, 5)  # the CNN's classes
#: ``--tta``: the crops the CNN reads per hand, (turn in degrees, zoom) of the canonical one.
CROP_VIEWS: tuple[tuple[float, float], ...] = (
    (0.0, 1.0),
    (-10.0, 1.0),
    (10.0, 1.0),
    (0.0, 0.9),
    (0.0, 1.1),
)
FLIPPED_MARGIN = 0.02  # |2p − 1| of a finger whose state the CNN's count flipped
SEED = 0
EPOCHS = 40
BATCH = 64
HIGHPASS = False  # --highpass
STRONG = False  # --strong: the stronger photometric augmentation
WEIGHTS = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0)  # fusion weights read by the criteria


def crop_transform(
    landmarks: np.ndarray,
    width: int,
    height: int,
    side: int = CROP_SIDE,
    *,
    turn: float = 0.0,
    zoom: float = 1.0,
    shift: tuple[float, float] = (0.0, 0.0),
) -> np.ndarray:
    """The 2×3 affine map from photo pixels to the canonical crop of a hand.

    ``landmarks``: (21, ≥2) normalised to the photo (``width`` × ``height`` pixels; OpenCV's
    pixel centres are at integers, so a normalised x maps to ``x · width − 0.5``). ``turn``
    (degrees), ``zoom`` (> 1: the hand larger) and ``shift`` (fractions of the side) perturb
    the canonical crop (training augmentation; the product uses none)."""
    pts = np.asarray(landmarks, dtype=np.float64)[:, :2] * (width, height) - 0.5  # pixel centres
    up = pts[9] - pts[0]
    palm = float(np.hypot(*up))
    if not np.isfinite(palm) or palm < 1e-6:
        raise ValueError("hand landmarks without a palm (wrist and middle MCP coincide)")
    ux, uy = up / palm
    rot = np.array([[-uy, ux], [-ux, -uy]])  # wrist → middle MCP becomes (0, -1): up
    q = pts @ rot.T
    if q[5, 0] > q[17, 0]:  # index MCP right of the pinky MCP: mirror, thumb side to the left
        rot = np.diag([-1.0, 1.0]) @ rot
        q = pts @ rot.T
    lo, hi = q.min(axis=0), q.max(axis=0)
    centre = (lo + hi) / 2
    extent = max(CROP_MARGIN * float((hi - lo).max()), CROP_MIN_PALMS * palm)
    scale = side * zoom / extent
    a = np.radians(turn)
    spin = np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
    linear = scale * spin @ rot
    offset = np.array([side / 2, side / 2]) + np.asarray(shift) * side - scale * spin @ centre
    return np.column_stack([linear, offset])


def hand_crop(
    grey: np.ndarray,
    landmarks: np.ndarray,
    side: int = CROP_SIDE,
    *,
    turn: float = 0.0,
    zoom: float = 1.0,
    shift: tuple[float, float] = (0.0, 0.0),
) -> np.ndarray:
    """The canonical (side, side) uint8 crop of a hand on a grey uint8 photo (H×W) from its
    landmarks normalised to that photo (see :func:`crop_transform`). A large photo is first
    shrunk by area averaging, so the crop does not alias."""
    import cv2

    height, width = grey.shape[:2]
    m = crop_transform(landmarks, width, height, side, turn=turn, zoom=zoom, shift=shift)
    shrink = float(np.sqrt(abs(np.linalg.det(m[:, :2]))))
    image = grey
    if shrink < 0.5:
        small = (max(1, round(width * shrink * 2)), max(1, round(height * shrink * 2)))
        image = cv2.resize(grey, small, interpolation=cv2.INTER_AREA)
        f = np.array([width / small[0], height / small[1]])  # small pixel → photo pixel
        m = np.column_stack([m[:, :2] * f, m[:, :2] @ (0.5 * f - 0.5) + m[:, 2]])
    return cv2.warpAffine(
        image, m, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


def hand_crops(grey: np.ndarray, landmarks: np.ndarray) -> np.ndarray:
    """The (len(CROP_VIEWS), side, side) crops of a hand the CNN reads (:data:`CROP_VIEWS`)."""
    return np.stack([hand_crop(grey, landmarks, turn=turn, zoom=zoom) for turn, zoom in CROP_VIEWS])


def to_grey(rgb: np.ndarray) -> np.ndarray:
    import cv2

    return cv2.cvtColor(np.ascontiguousarray(rgb), cv2.COLOR_RGB2GRAY)


def model_input(crops: np.ndarray) -> np.ndarray:
    """(n, side, side) uint8 crops → (n, 1, side, side) float32, each crop standardised (its own
    mean and standard deviation: lighting and exposure differ between sessions)."""
    x = np.asarray(crops, dtype=np.float32)
    mean = x.mean(axis=(1, 2), keepdims=True)
    std = x.std(axis=(1, 2), keepdims=True) + 8.0
    return ((x - mean) / std)[:, None]


def best_patterns(probabilities: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each count c = 0…5, the most probable finger pattern with c extended fingers (the c
    most probable fingers) under independent p(extended): (6, 5) bool, and its log-probability
    (6,)."""
    p = np.clip(np.asarray(probabilities, dtype=np.float64), 1e-6, 1 - 1e-6)
    order = np.argsort(-p, kind="stable")
    patterns = np.zeros((6, len(p)), dtype=bool)
    for c in range(1, 6):
        patterns[c, order[:c]] = True
    logp = np.where(patterns, np.log(p), np.log1p(-p)).sum(axis=1)
    return patterns, logp


def fuse(probabilities: np.ndarray, counts: np.ndarray, weight: float) -> np.ndarray:
    """p(extended) per finger fused with the CNN's p(count = 1…5) (the script's docstring): the
    returned p's states (p > 0.5) are the most probable pattern with the fused count."""
    p = np.asarray(probabilities, dtype=np.float64)
    states = p > 0.5
    if not states.any():
        return p  # the landmarks read 0: the CNN knows no 0
    patterns, logp = best_patterns(p)
    q = np.clip(np.asarray(counts, dtype=np.float64), 1e-6, 1.0)
    count = 1 + int(np.argmax(logp[1:] + weight * np.log(q)))
    if count == states.sum():
        return p
    flipped = 0.5 + np.where(patterns[count], FLIPPED_MARGIN, -FLIPPED_MARGIN) / 2
    return np.where(patterns[count] == states, p, flipped)


def _number(path: str) -> int:
    return int(re.findall(r"(\d+)", Path(path).name)[-1])


def fit_folds(data: dict[str, np.ndarray]) -> np.ndarray:
    """Fold 0/1 of each fit-part photo (-1 elsewhere): EPSRC Set1 per class in four contiguous
    file-number blocks (alternating), sign-language students alternating by student."""
    fold = np.full(len(data["path"]), -1)
    fit_part = data["part"] == "fit"
    for label in "12345":
        rows = np.flatnonzero(fit_part & (data["source"] == "epsrc") & (data["label"] == label))
        rows = rows[np.argsort([_number(p) for p in data["path"][rows]])]
        fold[rows] = (np.arange(len(rows)) * 4 // len(rows)) % 2
    sign = data["source"] == "sign"
    anchors = sorted(
        _number(p)
        for p, lab in zip(data["path"][sign], data["label"][sign], strict=True)
        if lab == "0"
    )
    for i in np.flatnonzero(fit_part & sign):
        student = max(0, bisect.bisect_right(anchors, _number(data["path"][i])) - 1)
        fold[i] = (student // 2) % 2  # fit students are the even ones
    return fold


def load_greys(data: dict[str, np.ndarray], rows: np.ndarray, handdata: Path) -> dict[int, Any]:
    return {int(i): to_grey(load_rgb(handdata / str(data["path"][i]))) for i in rows}


def crops_of(
    data: dict[str, np.ndarray],
    greys: dict[int, np.ndarray],
    rows: np.ndarray,
    rng: np.random.Generator | None = None,
) -> np.ndarray:
    """(n, side, side) uint8 crops of ``rows``: canonical, or augmented when ``rng`` is given."""
    import cv2

    out = np.empty((len(rows), CROP_SIDE, CROP_SIDE), dtype=np.uint8)
    for k, i in enumerate(rows):
        lm = data["landmarks"][i]
        if rng is None:
            out[k] = hand_crop(greys[int(i)], lm)
            continue
        crop = hand_crop(
            greys[int(i)],
            lm,
            turn=float(rng.uniform(-15, 15)),
            zoom=float(np.exp(rng.uniform(-0.14, 0.14))),
            shift=(float(rng.uniform(-0.06, 0.06)), float(rng.uniform(-0.06, 0.06))),
        ).astype(np.float32)
        if STRONG:  # lighting across the crop (vignetting, a lamp on one side), more blur
            x, y = np.meshgrid(np.linspace(-1, 1, CROP_SIDE), np.linspace(-1, 1, CROP_SIDE))
            a, b, c = rng.uniform(-0.35, 0.35, 3)
            crop = crop * np.clip(1 + a * x + b * y + c * (x * x + y * y - 0.66), 0.3, 2.0)
        if rng.random() < (0.5 if STRONG else 0.33):
            sigma = float(rng.uniform(0.5, 2.0 if STRONG else 1.3))
            crop = cv2.GaussianBlur(crop.astype(np.float32), (0, 0), sigma)
        gamma = 0.6 if STRONG else 0.3
        crop = 255.0 * (np.clip(crop, 0, 255) / 255.0) ** float(np.exp(rng.uniform(-gamma, gamma)))
        crop = crop * rng.uniform(0.75, 1.25) + rng.uniform(-30, 30)
        crop += rng.normal(0, rng.uniform(0, 6), crop.shape)
        out[k] = np.clip(crop, 0, 255).astype(np.uint8)
    return out


def net_input(crops: np.ndarray) -> np.ndarray:
    """``model_input``, after a high-pass (``--highpass``: the crop minus its blur, σ 6 px)."""
    if HIGHPASS:
        import cv2

        crops = np.stack(
            [
                c.astype(np.float32) - cv2.GaussianBlur(c.astype(np.float32), (0, 0), 6.0)
                for c in crops
            ]
        )
    return model_input(crops)


def make_net() -> Any:
    import torch.nn as nn

    def block(cin: int, cout: int, pool: bool) -> list[Any]:
        layers = [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU()]
        return layers + [nn.MaxPool2d(2)] * pool

    return nn.Sequential(
        *block(1, 16, True),
        *block(16, 32, True),
        *block(32, 64, True),
        *block(64, 64, False),
        nn.AdaptiveAvgPool2d(1),
        nn.Flatten(),
        nn.Dropout(0.3),
        nn.Linear(64, len(COUNTS)),
    )


def count_labels(data: dict[str, np.ndarray], threes: bool) -> np.ndarray:
    """The count (1–5) each photo shows, 0 where it is not a training label. ``threes``: the
    sign-language 6–9 too, as 3 (three fingers up, the thumb on the fourth)."""
    label = data["label"]
    out = np.array([int(v) if v in ("1", "2", "3", "4", "5") else 0 for v in label])
    if threes:
        out[(data["source"] == "sign") & np.isin(label, ["6", "7", "8", "9"])] = 3
    return out


def train(
    data: dict[str, np.ndarray],
    greys: dict[int, np.ndarray],
    rows: np.ndarray,
    epochs: int,
    threes: bool,
) -> Any:
    """The CNN trained on those ``rows`` that have a count label (seeded)."""
    import torch

    torch.manual_seed(SEED)
    rng = np.random.default_rng(SEED)
    counts = count_labels(data, threes)
    rows = rows[counts[rows] > 0]
    y = torch.tensor(counts[rows] - 1)
    net = make_net()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-3)
    steps = epochs * int(np.ceil(len(rows) / BATCH))
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    loss_fn = torch.nn.CrossEntropyLoss(label_smoothing=0.05)
    start = time.perf_counter()
    for epoch in range(epochs):
        net.train()
        x = torch.from_numpy(net_input(crops_of(data, greys, rows, rng)))
        order = torch.from_numpy(rng.permutation(len(rows)))
        total = 0.0
        for b in range(0, len(rows), BATCH):
            idx = order[b : b + BATCH]
            opt.zero_grad()
            loss = loss_fn(net(x[idx]), y[idx])
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(idx)
        if (epoch + 1) % 10 == 0:
            print(
                f"    epoch {epoch + 1}/{epochs}: loss {total / len(rows):.3f} "
                f"({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
    net.eval()
    return net


def distribution(net: Any, crops: np.ndarray) -> np.ndarray:
    import torch

    with torch.no_grad():
        return torch.softmax(net(torch.from_numpy(net_input(crops))), dim=1).numpy()


def read_rows(
    net: Any, data: dict[str, np.ndarray], greys: dict[int, np.ndarray], rows: np.ndarray, tta: bool
) -> np.ndarray:
    """p(count 1…5) of ``rows``: the canonical crop, or (``tta``) the mean over
    :func:`hand_crops`."""
    if not tta:
        return distribution(net, crops_of(data, greys, rows))
    crops = np.stack([hand_crops(greys[int(i)], data["landmarks"][i]) for i in rows])
    q = distribution(net, crops.reshape(-1, CROP_SIDE, CROP_SIDE))
    return q.reshape(len(rows), -1, len(COUNTS)).mean(axis=1)


def landmark_probabilities(
    data: dict[str, np.ndarray], train_rows: np.ndarray, rows: np.ndarray
) -> np.ndarray:
    """p(extended) of ``rows`` as shipped (photo + DEFAULT_VIEWS, vote), models fitted on
    ``train_rows``."""
    model = fit(data, train_rows, "shipped")
    cols = [0, *(c + 1 for c in view_columns(data, DEFAULT_VIEWS))]
    return combine_views(view_probabilities(data, model, rows, "shipped")[:, cols])


def report(
    data: dict[str, np.ndarray], rows: np.ndarray, p: np.ndarray, q: np.ndarray, keys: tuple
) -> list[float]:
    """Print count accuracy / gun for landmarks, CNN alone, fusion per weight; return the
    fusion figures (per weight, per key) for the mean."""
    gun_min = gun_min_confidence()
    figures = []
    # the CNN alone: its count (unless the landmarks read 0), the landmarks' best pattern for it
    cnn = np.array([fuse(a, b, 1e6) for a, b in zip(p, q, strict=True)])
    readings = [("CNN alone (weight 1e6)", cnn)] + [
        (f"fused, weight {w:g}", np.array([fuse(a, b, w) for a, b in zip(p, q, strict=True)]))
        for w in WEIGHTS
    ]
    for name, probs in readings:
        hits = count_hits(data, rows, probs, gun_min)
        figs = [100 * float(np.mean(hits[key])) for key in keys]
        tp, fp, fn = len(hits["tp"]), len(hits["fp"]), len(hits["fn"])
        gun = f"gun TP {tp} FP {fp} FN {fn}" if tp + fn else f"gun FP {fp}"
        text = ", ".join(
            f"{key} {f:.1f} % ({sum(hits[key])}/{len(hits[key])})"
            for key, f in zip(keys, figs, strict=True)
        )
        print(f"    {name}: {text}, {gun}")
        if name.startswith("fused"):
            figures.append(figs)
    return figures


def criteria(
    data: dict[str, np.ndarray],
    handdata: Path,
    epochs: int,
    threes: bool,
    save: Path | None,
    tta: bool,
) -> None:
    det = data["detected"]
    fit_part = det & (data["part"] == "fit")
    fold = fit_folds(data)
    sign, epsrc = data["source"] == "sign", data["source"] == "epsrc"
    greys = load_greys(data, np.flatnonzero(fit_part), handdata)
    readings = []
    for k in (0, 1):
        train_rows = np.flatnonzero(fit_part & (fold != k))
        rows = np.flatnonzero(fit_part & (fold == k))
        readings.append(
            (f"fold {k} (trained on the other fold)", train_rows, rows, ("epsrc", "sign"))
        )
    readings.append(
        (
            "sign → Set1 (trained on the fit part's sign-language photos)",
            np.flatnonzero(fit_part & sign),
            np.flatnonzero(fit_part & epsrc),
            ("epsrc",),
        )
    )
    table, saved = [], {}
    for k, (name, train_rows, rows, keys) in enumerate(readings):
        print(f"  {name}: {len(train_rows)} training photos, {len(rows)} read", flush=True)
        net = train(data, greys, train_rows, epochs, threes)
        q = read_rows(net, data, greys, rows, tta)
        p = landmark_probabilities(data, train_rows, rows)
        table.append(report(data, rows, p, q, keys))
        saved |= {f"rows{k}": rows, f"p{k}": p, f"q{k}": q}
    if save:
        np.savez(save, **saved)
    print("\n  mean of the five fit-part figures (fold 0 E/S, fold 1 E/S, sign → Set1):")
    for w, figs in zip(WEIGHTS, zip(*table, strict=True), strict=True):
        flat = [f for part in figs for f in part]
        print(f"    weight {w:g}: {np.mean(flat):.2f} % ({' / '.join(f'{f:.1f}' for f in flat)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--handdata", type=Path, default=DEFAULT_HANDDATA)
    parser.add_argument("--epochs", type=int, default=EPOCHS)
    parser.add_argument("--grid", type=Path, help="save a PNG of canonical + augmented crops")
    parser.add_argument("--threes", action="store_true", help="also sign 6–9 as count 3")
    parser.add_argument("--tta", action="store_true", help="the CNN reads 5 crops per hand")
    parser.add_argument("--strong", action="store_true", help="stronger photometric augmentation")
    parser.add_argument("--highpass", action="store_true", help="high-pass the crops")
    parser.add_argument("--threads", type=int, default=2, help="torch threads")
    parser.add_argument("--save", type=Path, help="save rows, p, q per reading (.npz)")
    args = parser.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    global STRONG, HIGHPASS
    STRONG, HIGHPASS = args.strong, args.highpass
    data = load_cache(args.cache)
    fit_part = data["detected"] & (data["part"] == "fit")
    print(
        f"data: {args.cache} landmarks, photos of {args.handdata}; fit part only; "
        f"torch {torch.__version__}, seed {SEED}, {args.epochs} epochs, "
        f"sign 6–9 as 3: {args.threes}, strong augmentation: {args.strong}, "
        f"high-pass: {args.highpass}, CNN reads the mean of hand_crops: {args.tta}"
    )
    if args.grid:
        import cv2

        rng = np.random.default_rng(SEED)
        rows = np.concatenate(
            [
                rng.choice(
                    np.flatnonzero(fit_part & (data["source"] == s) & (data["label"] == c)), 6
                )
                for s in ("epsrc", "sign")
                for c in "12345"
            ]
        )
        greys = load_greys(data, rows, args.handdata)
        plain, aug = crops_of(data, greys, rows), crops_of(data, greys, rows, rng)
        grid = np.vstack(
            [
                np.hstack(np.concatenate([plain[k : k + 6], aug[k : k + 6]]))
                for k in range(0, len(rows), 6)
            ]
        )
        cv2.imwrite(str(args.grid), grid)
        print(f"wrote {args.grid}: rows = classes, 6 canonical crops then 6 augmented")
        return
    criteria(data, args.handdata, args.epochs, args.threes, args.save, args.tta)


if __name__ == "__main__":
    main()
