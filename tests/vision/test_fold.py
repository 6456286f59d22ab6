"""The fingers' fold: its features, its model file, and the packaged model on drawn hands.

The shots it gives on real recorded landmarks and patches are tested with the detector
(tests/vision/test_shots.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mafiavision.vision.appearance import COLS, ROWS, Baseline, finger_patch
from mafiavision.vision.fold import (
    MODEL_PATH,
    FoldModel,
    feature_count,
    fold_features,
    load_model,
    register,
)
from tests.vision.test_appearance import SIZE, draw_hand


def patch(**kwargs: float) -> np.ndarray:
    return finger_patch(*draw_hand(**kwargs))


def compared(p: np.ndarray, base: np.ndarray) -> Baseline:
    """The baseline of ``base`` after the look compared ``p`` with it (its registration)."""
    baseline = Baseline(base)
    baseline.change(p)
    return baseline


def jittered(px: float) -> np.ndarray:
    """The unmoved hand's patch cut from landmarks misplaced by ``px`` pixels."""
    rgb, lm = draw_hand()
    lm = lm.copy()
    lm[[0, 5, 9], 0] += px / SIZE[1]
    lm[[0, 5, 9], 1] += px / SIZE[0]
    return finger_patch(rgb, lm)


@pytest.mark.parametrize("pool", [1, 2, 4, 8])
def test_features_have_the_models_size(pool: int) -> None:
    base = patch()
    assert fold_features(base, compared(base, base), 0.0, 1.0, pool).shape == (
        feature_count(pool),)


@pytest.mark.parametrize("pool", [1, 2, 3, 4])
@pytest.mark.parametrize("shift", [(0, 0), (1, -2)])
def test_features_are_the_block_means_of_the_registered_difference(
        pool: int, shift: tuple[int, int]) -> None:
    """Each pooled feature is the mean of its pool × pool block of the registered patch minus the
    baseline (rows from the top, whole blocks only) ÷ (contrast + 5), then the same absolute."""
    rng = np.random.default_rng(pool)
    a, b = (rng.normal(100, 20, (ROWS, COLS)).astype(np.float32) for _ in range(2))
    baseline = Baseline(b)
    baseline.shift = shift
    rows, cols = 40 // pool, COLS // pool
    diff = (register(a, shift) - b)[: rows * pool, : cols * pool] / (baseline.contrast + 5)
    means = diff.reshape(rows, pool, cols, pool).mean(axis=(1, 3)).ravel()
    features = fold_features(a, baseline, 0.0, 1.0, pool)
    assert features[:-2] == pytest.approx(np.concatenate([means, np.abs(means)]), abs=1e-5)


def test_the_same_patch_is_no_change() -> None:
    base = patch()
    features = fold_features(base, compared(base, base), 12.5, 0.9, 2)
    assert np.all(features[:-2] == 0)
    assert features[-2:] == pytest.approx([12.5 / 50.0, -0.1])


@pytest.mark.parametrize("px", [3.0, 5.0])
def test_registration_takes_out_the_landmarks_jitter(px: float) -> None:
    """The grid moved by a few pixels (the landmarks misplaced): registered on the hand below the
    knuckles, the difference is a fraction of the unregistered one."""
    base, moved = patch(), jittered(px)
    raw = np.abs(moved - base)[:40].mean()
    registered = np.abs(register(moved, compared(moved, base).shift) - base)[:40].mean()
    assert registered < 0.5 * raw


@pytest.mark.parametrize("fold", [0.4, 0.7])
def test_folding_fingers_change_the_features_more_than_jitter(fold: float) -> None:
    base = patch()
    bent, moved = patch(fold=fold), jittered(3.0)
    folded = np.abs(fold_features(bent, compared(bent, base), 0.0, 1.0, 2)[:-2]).sum()
    jitter = np.abs(fold_features(moved, compared(moved, base), 0.0, 1.0, 2)[:-2]).sum()
    assert folded > 3 * jitter


@pytest.mark.parametrize(
    ("shapes", "message"),
    [(((ROWS, COLS), (ROWS - 1, COLS)), "patches must be"),
     (((ROWS, COLS + 1), (ROWS, COLS)), "patches must be")],
)
def test_bad_patch_shapes_are_named(shapes: tuple, message: str) -> None:
    a, b = (np.random.default_rng(0).random(s).astype(np.float32) for s in shapes)
    with pytest.raises(ValueError, match=message):
        fold_features(a, Baseline(b), 0.0, 1.0, 2)


def test_the_packaged_model_is_valid_and_says_what_each_fit_was_fitted_on() -> None:
    model = load_model()
    assert len(model.fits) == 3
    for fit in model.fits:
        assert fit.trained_on and fit.frames["positive"] > 0 and fit.frames["negative"] > 0
        assert fit.command.startswith("python scripts/train_fold.py")
    for k, fit in enumerate(model.fits):  # each fit on its own sets (all share the samples, "s")
        for other in model.fits[k + 1:]:
            assert not set(fit.trained_on) & set(other.trained_on) - {"s"}


def test_the_score_is_the_mean_of_the_fits_log_odds() -> None:
    model = load_model()
    base = patch()
    bent = patch(fold=0.5)
    x = fold_features(bent, compared(bent, base), 0.0, 1.0, model.pool)
    each = [float((x - np.asarray(f.mean)) / np.asarray(f.scale) @ np.asarray(f.weights)) + f.bias
            for f in model.fits]
    assert model.scorer().score(x) == pytest.approx(np.mean(each))
    assert len(set(np.round(each, 6))) == len(each)  # the fits differ: the mean is not one of them


@pytest.mark.parametrize(
    ("change", "message"),
    [({"weights": [0.0]}, "weights: expected"),
     ({"mean": []}, "mean: expected"),
     ({"pool": 0}, "pool"),
     ({"pool": 4}, "expected"),
     ({"extra": 1}, "extra")],
)
def test_a_bad_fit_is_named_with_its_field(tmp_path: Path, change: dict, message: str) -> None:
    data = json.loads(MODEL_PATH.read_text())
    data["fits"][-1].update(change)
    bad = tmp_path / "fold_model.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=message) as info:
        load_model(bad)
    assert str(bad) in str(info.value)


@pytest.mark.parametrize(
    ("data", "message"),
    [({"fits": []}, "fits"),
     ({}, "fits"),
     ({"pool": 2, "weights": []}, "fits")],
)
def test_a_file_without_fits_is_named(tmp_path: Path, data: dict, message: str) -> None:
    bad = tmp_path / "fold_model.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=message) as info:
        load_model(bad)
    assert str(bad) in str(info.value)


def test_every_fit_must_read_the_same_pool() -> None:
    data = json.loads(MODEL_PATH.read_text())
    fit = data["fits"][0]
    n = feature_count(4)
    data["fits"].append({**fit, "pool": 4, "mean": [0.0] * n, "scale": [1.0] * n,
                         "weights": [0.0] * n})
    with pytest.raises(ValueError, match="same pool"):
        FoldModel.model_validate(data)


def test_a_missing_model_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="cannot read the fold model"):
        load_model(tmp_path / "none.json")


def test_scales_must_be_positive() -> None:
    data = json.loads(MODEL_PATH.read_text())
    data["fits"][0]["scale"][3] = 0.0
    with pytest.raises(ValueError, match="scale"):
        FoldModel.model_validate(data)
