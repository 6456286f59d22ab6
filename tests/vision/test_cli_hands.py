from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import av
import numpy as np
import pytest

from mafiavision.vision.composite import grid_table
from tests.vision.conftest import SIZE, write_clip

ROOT = Path(__file__).resolve().parents[2]
FRAMES = 8


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory,
         table_frame: Callable[[dict[int, np.ndarray]], np.ndarray],
         photo: Callable[[str, int], np.ndarray]) -> tuple[Path, Path]:
    """A 1280x720 clip with moving real hands at seats 3 and 8 of a 10-seat table, + table.json."""
    folder = tmp_path_factory.mktemp("cli")
    frames = [table_frame({3: photo("3", 50 + k), 8: photo("5", 90 + k)}) for k in range(FRAMES)]
    grid_table(10, SIZE).save(folder / "table.json")
    return write_clip(folder / "hands.mp4", frames), folder / "table.json"


def _hands(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mafiavision", "hands", *args],
                          capture_output=True, text=True, cwd=ROOT, check=False)


def test_json_lines_one_object_per_frame(clip: tuple[Path, Path], tmp_path: Path) -> None:
    video, table = clip
    preview = tmp_path / "preview.mp4"
    proc = _hands(str(video), "--table", str(table), "--seats", "3,5", "--sweep-every", "2",
                  "--json", "--preview", str(preview))
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(lines) == FRAMES
    assert [round(o["t"], 3) for o in lines] == [round(i / 30, 3) for i in range(FRAMES)]
    assert all(set(o) == {"t", "seats"} for o in lines)
    assert {k for o in lines for k in o["seats"]} == {"3", "8"}
    assert all("3" in o["seats"] for o in lines[1:])  # active seat: every frame after the first
    assert "8" in lines[3]["seats"]  # swept seat (4 of the 8 others per frame): seen twice by now
    hand = lines[-1]["seats"]["3"][0]
    assert set(hand) == {"landmarks", "world", "score", "track", "held"}
    assert np.array(hand["landmarks"]).shape == (21, 3)
    assert np.array(hand["world"]).shape == (21, 3)
    assert 0 < hand["score"] <= 1 and isinstance(hand["track"], int)
    assert "frames with a hand per seat" in proc.stderr
    with av.open(str(preview)) as container:
        decoded = list(container.decode(video=0))
    assert len(decoded) == FRAMES and (decoded[0].width, decoded[0].height) == SIZE


def test_summary_without_json(clip: tuple[Path, Path]) -> None:
    video, table = clip
    proc = _hands(str(video), "--table", str(table), "--max-frames", "3", "--model", "full")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("3 frames in")
    assert "3: 67%" in proc.stdout and "1: 0%" in proc.stdout


def test_truncated_input_keeps_its_frames_then_fails(clip: tuple[Path, Path],
                                                     tmp_path: Path) -> None:
    video, table = clip
    cut = tmp_path / "cut.mp4"
    data = video.read_bytes()
    cut.write_bytes(data[: int(len(data) * 0.6)])
    proc = _hands(str(cut), "--table", str(table), "--json")
    assert proc.returncode == 2
    assert 0 < len(proc.stdout.splitlines()) < FRAMES
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith(f"mafiavision hands: error: {cut}: decoding stopped at t=")


@pytest.mark.parametrize(("args", "message"), [
    (["missing.mp4", "--table", "TABLE"], "missing.mp4: no such file or folder"),
    (["VIDEO", "--table", "missing.json"], "missing.json: table file not found"),
    (["VIDEO", "--table", "BADTABLE"], "field seats: Field required"),
    (["VIDEO", "--table", "TABLE", "--seats", "3,11"], "seats [11] are not in the table"),
    (["VIDEO", "--table", "TABLE", "--seats", "x"], "expected seat numbers like 3,5,9"),
    (["notes.txt", "--table", "TABLE"], "notes.txt: unsupported input"),
])
def test_bad_input_is_one_line(clip: tuple[Path, Path], tmp_path: Path, args: list[str],
                               message: str) -> None:
    video, table = clip
    (tmp_path / "bad.json").write_text(json.dumps({"version": 1, "image_size": [64, 64],
                                                   "regions": []}))
    (tmp_path / "notes.txt").write_text("hello")
    names = {"VIDEO": str(video), "TABLE": str(table), "BADTABLE": str(tmp_path / "bad.json")}
    proc = _hands(*[names.get(a, str(tmp_path / a) if "." in a else a) for a in args])
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert message in lines[-1]
    if not lines[-1].startswith("mafiavision hands: error: argument"):  # argparse adds its usage
        assert len(lines) == 1
