"""Multi-seat table frames composed from real hand photos (benchmarks, evaluation, tests).

There is no real footage of a table of players raising hands, so the benchmark, the detection
evaluation and the tests put real photos (``../shared/handdata``) into the cells of a grid, one
cell per seat, and calibrate a :class:`~mafiavision.vision.table.Table` on those cells.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from mafiavision.vision.table import Table, from_boxes


def grid_boxes(seats: int, cols: int, rows: int) -> list[tuple[float, float, float, float]]:
    """Normalised boxes of the first ``seats`` cells of a cols×rows grid, row by row."""
    if seats > cols * rows:
        raise ValueError(f"{seats} seats do not fit a {cols}x{rows} grid")
    return [
        (c / cols, r / rows, (c + 1) / cols, (r + 1) / rows)
        for r in range(rows)
        for c in range(cols)
    ][:seats]


def grid_table(seats: int, size: tuple[int, int], cols: int = 4, rows: int = 3) -> Table:
    """The table of a grid composition: seat k is cell k, the player below it."""
    return from_boxes(grid_boxes(seats, cols, rows), size)


def load_rgb(path: Path) -> np.ndarray:
    import cv2

    bgr = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if bgr is None:
        raise ValueError(f"{path}: not a readable image")
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)


def compose(
    cells: Sequence[np.ndarray | None],
    size: tuple[int, int],
    cols: int = 4,
    rows: int = 3,
    background: np.ndarray | None = None,
) -> np.ndarray:
    """An RGB frame of ``size`` (w, h): cell k shows ``cells[k]`` resized to the cell (``None``:
    ``background`` resized, or mid grey)."""
    import cv2

    w, h = size
    frame = np.full((h, w, 3), 128, np.uint8)
    for k, (x0, y0, x1, y1) in enumerate(grid_boxes(len(cells), cols, rows)):
        px0, py0, px1, py1 = round(x0 * w), round(y0 * h), round(x1 * w), round(y1 * h)
        image = cells[k] if cells[k] is not None else background
        if image is None:
            continue
        frame[py0:py1, px0:px1] = cv2.resize(
            image, (px1 - px0, py1 - py0), interpolation=cv2.INTER_AREA
        )
    return frame


def photo_sequences(folder: Path, count: int, length: int) -> list[list[Path]]:
    """``count`` runs of ``length`` consecutive photos (a moving hand) from an EPSRC-style folder
    whose files are every 3rd frame of a stream, sorted by frame number."""
    def frame_number(p: Path) -> tuple[str, int]:
        stem, _, num = p.stem.rpartition("_")
        return stem, int(num) if num.isdigit() else 0

    files = sorted((p for p in folder.glob("*.jpg")), key=frame_number)
    if len(files) < length:
        raise ValueError(f"{folder}: needs {length} photos, has {len(files)}")
    step = max(1, (len(files) - length) // max(1, count))
    return [files[k * step : k * step + length] for k in range(count)]
