from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from mafiavision.errors import InputError
from mafiavision.vision.autocalib import calibrate_from_recording
from mafiavision.vision.composite import grid_boxes
from tests.vision.conftest import write_clip

# seats 1..4 sit at these cells of the 4x3 grid (not in cell order: the order must come from time)
CELLS = [7, 2, 12, 5]


@pytest.fixture(scope="module")
def recording(
    tmp_path_factory: pytest.TempPathFactory,
    table_frame: Callable[[dict[int, np.ndarray]], np.ndarray],
    photo: Callable[[str, int], np.ndarray],
) -> Path:
    """10 fps: an empty table, then each seat in turn raises a (moving, real) hand for 0.8 s."""
    empty = table_frame({})
    frames = [empty] * 4
    for seat, cell in enumerate(CELLS, start=1):
        frames += [table_frame({cell: photo(str(seat), 20 + k)}) for k in range(8)]
        frames += [empty] * 3
    return write_clip(tmp_path_factory.mktemp("autocal") / "raise.mp4", frames, fps=10)


def test_seats_found_in_raising_order(recording: Path) -> None:
    reports: list[str] = []
    table = calibrate_from_recording(recording, 4, report=reports.append)
    assert table.image_size == (1280, 720) and table.seat_numbers() == [1, 2, 3, 4]
    assert len(reports) == 4
    boxes = grid_boxes(12, 4, 3)
    for seat, cell in enumerate(CELLS, start=1):
        region = table.region(seat)
        cx, cy = np.mean(region.polygon, axis=0)
        x0, y0, x1, y1 = boxes[cell - 1]
        assert x0 <= cx <= x1 and y0 <= cy <= y1, (seat, cell, cx, cy)
        # the photos' forearms come from the bottom of the picture: the player is below
        assert region.toward[1] > 0.5
        assert region.hand_width is not None and 40 / 1280 < region.hand_width < 200 / 1280
    assert not table.warnings()


def test_wrong_seat_count_is_a_clear_error(recording: Path) -> None:
    with pytest.raises(InputError, match=r"found 4 places where a hand was raised, expected 5"):
        calibrate_from_recording(recording, 5)
