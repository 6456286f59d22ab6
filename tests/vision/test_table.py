from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from mafiavision.errors import InputError, MissingInputError
from mafiavision.vision.table import MIN_HAND_PX, SeatRegion, Table, ellipse_layout, from_boxes

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("seats", [1, 6, 10, 12])
def test_ellipse_layout_round_trip(tmp_path: Path, seats: int) -> None:
    table = ellipse_layout(seats, (1280, 720))
    table.save(tmp_path / "table.json")
    loaded = Table.load(tmp_path / "table.json")
    assert loaded == table
    assert loaded.version == 1 and loaded.seat_numbers() == list(range(1, seats + 1))
    for r in loaded.regions:
        assert math.hypot(*r.toward) == pytest.approx(1.0)


def test_ellipse_seats_go_round_in_order() -> None:
    table = ellipse_layout(4, (1000, 1000), axes=(0.3, 0.3), region=(0.1, 0.1))
    centres = [np.mean(r.polygon, axis=0) for r in table.regions]
    # seat 1 at the bottom (90°), then clockwise on screen: left, top, right
    assert centres[0] == pytest.approx((0.5, 0.8))
    assert centres[1] == pytest.approx((0.2, 0.5))
    assert centres[2] == pytest.approx((0.5, 0.2))
    assert centres[3] == pytest.approx((0.8, 0.5))
    assert table.regions[0].toward == pytest.approx((0.0, 1.0))  # outward from the table


def test_boxes_and_containment() -> None:
    table = from_boxes([(0.0, 0.0, 0.5, 0.5), (0.5, 0.0, 1.0, 0.5)], (200, 100))
    assert table.region(2).pixel_box(200, 100) == (100, 0, 200, 50)
    assert table.region(1).contains(50, 25, 200, 100)
    assert not table.region(1).contains(150, 25, 200, 100)
    assert table.region(1).contains(103, 25, 200, 100, margin=5)
    with pytest.raises(InputError, match="seat 3 is not in the table"):
        table.region(3)


def test_bad_box() -> None:
    with pytest.raises(InputError, match=r"seat 1: box .* must have x1 > x0"):
        from_boxes([(0.5, 0.0, 0.2, 0.5)], (200, 100))


GOOD = {
    "version": 1,
    "seats": 2,
    "image_size": [1280, 720],
    "regions": [
        {"seat": 1, "polygon": [[0, 0], [0.5, 0], [0.5, 0.5]], "toward": [0, 1]},
        {"seat": 2, "polygon": [[0.5, 0], [1, 0], [1, 0.5]], "toward": [0, 2]},
    ],
}


def _bad(**changes: object) -> dict:
    data = json.loads(json.dumps(GOOD))
    for dotted, value in changes.items():
        *path, last = dotted.split("__")
        node = data
        for key in path:
            node = node[int(key)] if key.isdigit() else node[key]
        node[int(last) if last.isdigit() else last] = value
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (_bad(version=2), r"field version: Input should be 1"),
        (_bad(seats=0), r"field seats: Input should be greater than or equal to 1"),
        (_bad(image_size=[8, 8]), r"field image_size: .*at least 16 pixels"),
        (_bad(regions__1__seat=1), r"seat numbers repeat"),
        (_bad(regions__1__seat=5), r"seat numbers must be 1..2"),
        (
            _bad(regions__0__polygon=[[0, 0], [2, 0], [0, 1]]),
            r"regions.0.polygon: .*outside the image",
        ),
        (_bad(regions__0__polygon=[[0, 0], [1, 0]]), r"regions.0.polygon: .*at least 3"),
        (_bad(regions__0__toward=[0, 0]), r"regions.0.toward: .*non-zero direction"),
        (_bad(regions__0__colour="red"), r"regions.0.colour: Extra inputs are not permitted"),
    ],
)
def test_bad_table_files_are_one_line_errors(tmp_path: Path, data: dict, message: str) -> None:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(data))
    with pytest.raises(InputError, match=message) as err:
        Table.load(path)
    assert str(err.value).startswith(str(path)) and "\n" not in str(err.value)


def test_good_table_normalises_toward(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    path.write_text(json.dumps(GOOD))
    assert Table.load(path).region(2).toward == (0.0, 1.0)


@pytest.mark.parametrize(
    ("content", "error", "message"),
    [
        (None, MissingInputError, "table file not found"),
        ("{not json", InputError, "not a JSON table file"),
    ],
)
def test_unreadable_table_files(
    tmp_path: Path, content: str | None, error: type[Exception], message: str
) -> None:
    path = tmp_path / "table.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(error, match=message):
        Table.load(path)


@pytest.mark.parametrize(
    ("size", "hand_width", "warned"),
    [
        ((1280, 720), None, False),  # 320x240 cells: a hand ≈ 96 px
        ((640, 360), None, True),  # 160x120 cells: ≈ 48 px
        ((1280, 720), 0.05, True),  # measured 64 px
        ((1280, 720), 0.08, False),  # measured 102 px
    ],
)
def test_small_hand_warning(size: tuple[int, int], hand_width: float | None, warned: bool) -> None:
    boxes = [(c / 4, r / 3, (c + 1) / 4, (r + 1) / 3) for r in range(3) for c in range(4)]
    table = from_boxes(boxes, size)
    if hand_width is not None:
        table.regions[0] = table.regions[0].model_copy(update={"hand_width": hand_width})
    warnings = table.warnings()
    assert bool(warnings) == warned
    if warned:
        assert warnings[0].startswith("seat 1: a hand there is about")
        assert f"below {MIN_HAND_PX:.0f} px" in warnings[0]


def test_frame_size_must_match_aspect() -> None:
    table = ellipse_layout(10, (1280, 720))
    table.check_frame_size(1920, 1080)  # same aspect: regions are normalised
    with pytest.raises(InputError, match="made for 1280x720 images but the frames are 640x480"):
        table.check_frame_size(640, 480)


def test_region_polygon_in_pixels() -> None:
    r = SeatRegion(seat=1, polygon=[(0.1, 0.2), (0.3, 0.2), (0.2, 0.4)])
    assert np.allclose(r.pixel_polygon(100, 50), [[10, 10], [30, 10], [20, 20]])


def _calibrate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mafiavision", "calibrate", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_calibrate_ellipse_with_preview(tmp_path: Path) -> None:
    out, png = tmp_path / "t.json", tmp_path / "t.png"
    proc = _calibrate(
        "--size", "1280x720", "--seats", "10", "--out", str(out), "--preview", str(png)
    )
    assert proc.returncode == 0, proc.stderr
    table = Table.load(out)
    assert table.seats == 10 and table.image_size == (1280, 720)
    image = cv2.imread(str(png))
    assert image.shape == (720, 1280, 3)
    # the region outlines are drawn in the seat colour on the grey frame
    assert (np.abs(image.astype(int) - 60).sum(axis=2) > 100).mean() > 0.005


def test_calibrate_boxes_on_a_frame_of_a_video(tmp_path: Path) -> None:
    from tests.vision.conftest import write_clip

    clip = write_clip(tmp_path / "c.mp4", [np.full((360, 640, 3), 90, np.uint8)] * 3)
    boxes = tmp_path / "boxes.txt"
    boxes.write_text("0,0,0.3,0.3\n0.5,0,0.8,0.3\n0,0.5,0.3,0.8\n")
    proc = _calibrate(str(clip), "--boxes", str(boxes), "--out", str(tmp_path / "t.json"))
    assert proc.returncode == 0, proc.stderr
    table = Table.load(tmp_path / "t.json")
    assert table.image_size == (640, 360) and table.seats == 3
    assert "seat 1: a hand there is about 54 px" in proc.stderr  # 192x108 px: small hands warned


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--out", "t.json", "--seats", "4"], "give INPUT (a frame to calibrate on) or --size"),
        (["--out", "t.json", "--size", "1280x720"], "give --seats N"),
        (["--out", "t.json", "--size", "1280x720", "--boxes", "0,0,1"], "box 1 '0,0,1' is not"),
        (["--out", "t.json", "--auto", "--seats", "3"], "--auto needs INPUT"),
        (["missing.mp4", "--out", "t.json", "--seats", "3"], "missing.mp4: no such file"),
    ],
)
def test_calibrate_errors_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    proc = _calibrate(*[str(tmp_path / a) if a in ("t.json", "missing.mp4") else a for a in args])
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mafiavision calibrate: error:")
    assert message in lines[0]
