from __future__ import annotations

import numpy as np
import pytest

from mafiavision.vision.stats import mean, median


@pytest.mark.parametrize("count", [1, 2, 3, 5, 12, 39, 40])
@pytest.mark.parametrize(
    ("shape", "dtype"),
    [((), np.float64), ((2,), np.float64), ((6, 8), np.float32), ((6, 8), np.float64)],
)
def test_median_and_mean_are_numpys(count: int, shape: tuple[int, ...], dtype: type) -> None:
    rng = np.random.default_rng(count)
    values = rng.normal(40.0, 25.0, (count, *shape)).astype(dtype)
    assert np.array_equal(median(values), np.median(values, axis=0))
    assert median(values).dtype == dtype
    assert np.array_equal(mean(values), np.mean(values, axis=0))
    assert np.array_equal(mean(list(values)), np.mean(list(values), axis=0))


@pytest.mark.parametrize(
    ("values", "expected"),
    [([3.0], 3.0), ([3.0, 1.0], 2.0), ([5.0, 1.0, 3.0], 3.0), ([4.0, 1.0, 3.0, 2.0], 2.5)],
)
def test_median_of_a_list(values: list[float], expected: float) -> None:
    assert float(median(values)) == expected
