"""Medians and means for the per-frame loops, as numpy gives them but with less overhead.

``np.median`` and ``np.mean`` spend tens of microseconds checking and dispatching before
touching a few dozen numbers; the shot detector takes several per hand and frame. These give the
same floats (the median sorts along the first axis and averages the two middle values as
``np.median`` does; the mean is numpy's own sum divided by the count) for finite float input.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def median(values: np.ndarray | Sequence[float] | Sequence[np.ndarray]) -> np.ndarray:
    """The median along the first axis (a 0-d array for a 1-D input), as ``np.median(values,
    axis=0)`` for finite values."""
    ordered = np.sort(np.asarray(values), axis=0)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2


def mean(values: np.ndarray | Sequence[float] | Sequence[np.ndarray]) -> np.ndarray:
    """The mean along the first axis, as ``np.mean(values, axis=0)`` for float values."""
    stacked = np.asarray(values)
    return np.add.reduce(stacked, axis=0) / len(stacked)
