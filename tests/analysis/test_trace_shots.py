"""The maintainer's shot tracer (scripts/trace_shots.py) on a real sample clip: it reports the
hands the analysis fed a seat's shot detector, the squeeze it judged and the shot, at the truth's
time, and leaves the detector as it found it."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

from mafiavision.errors import InputError
from mafiavision.vision.shots import ShotDetector

ROOT = Path(__file__).resolve().parents[2]
CLIP = ROOT / "sample_videos" / "kharkiv_hit_ru.mp4"
TABLE = CLIP.with_name("kharkiv_hit_ru.table.json")

_spec = importlib.util.spec_from_file_location("trace_shots", ROOT / "scripts" / "trace_shots.py")
assert _spec is not None and _spec.loader is not None
tracer = importlib.util.module_from_spec(_spec)
sys.modules["trace_shots"] = tracer
_spec.loader.exec_module(tracer)


def _truth_shots() -> dict[int, float]:
    truth = json.loads(CLIP.with_name("kharkiv_hit_ru.truth.json").read_text())
    return {g["seat"]: g["peak"] for g in truth["gestures"] if g["kind"] == "shot"}


@pytest.fixture(scope="module")
def traced() -> tuple[int, float, list[str]]:
    seat, peak = min(_truth_shots().items())
    lines: list[str] = []
    tracer.trace(CLIP, TABLE, {seat}, peak - 0.5, peak + 0.7, lines.append)
    return seat, peak, lines


def _times(lines: list[str], pattern: str) -> list[re.Match[str]]:
    return [m for line in lines if (m := re.search(pattern, line))]


def test_it_prints_the_fed_hands_of_the_seat_only(traced: tuple[int, float, list[str]]) -> None:
    seat, peak, lines = traced
    frames = _times(lines, r"^\s*([\d.]+)\s+seat\s+(\d+)\s+\*track \d+ fresh")
    assert len(frames) >= 15  # every frame of the 1.2 s span (the clip runs at 25 fps)
    assert {int(m.group(2)) for m in frames} == {seat}
    assert all(peak - 0.5 - 1e-6 <= float(m.group(1)) <= peak + 0.7 + 1e-6 for m in frames)


def test_it_shows_the_judged_squeeze_and_the_shot_at_the_truth(
    traced: tuple[int, float, list[str]],
) -> None:
    _, peak, lines = traced
    judged = _times(lines, r"joints: squeeze ([\d.]+)-([\d.]+) a shot: peak \d+ at ([\d.]+)")
    assert any(float(m.group(1)) <= peak <= float(m.group(2)) for m in judged)
    shots = _times(lines, r"SHOT at ([\d.]+) \(joints")
    assert [abs(float(m.group(1)) - peak) <= 0.25 for m in shots] == [True]


def test_it_prints_the_folds_score_of_the_seats_frames(
    traced: tuple[int, float, list[str]],
) -> None:
    seat, _, lines = traced
    folds = _times(lines, r"^\s*([\d.]+)\s+seat\s+(\d+)\s+fold (-?[\d.]+) \(shot from ([\d.]+)\)")
    assert len(folds) >= 10  # the hand is seen fresh and scored through most of the span
    assert {int(m.group(2)) for m in folds} == {seat}
    assert len({m.group(3) for m in folds}) > 1  # a score per frame, not one figure repeated


def test_it_restores_the_detector() -> None:
    before = (ShotDetector.update, ShotDetector._judge, ShotDetector._looks)
    tracer.trace(CLIP, TABLE, {1}, 0.0, 0.3, lambda _: None)
    assert (ShotDetector.update, ShotDetector._judge, ShotDetector._looks) == before


@pytest.mark.parametrize("seats", [{13}, {0, 1}])
def test_a_seat_not_in_the_table_is_an_input_error_naming_the_option(seats: set[int]) -> None:
    with pytest.raises(InputError, match=r"--seats: \[.*\] not in .*kharkiv_hit_ru.table.json"):
        tracer.trace(CLIP, TABLE, seats, 0.0, 1.0, lambda _: None)


@pytest.mark.parametrize(("argv", "message"), [
    (["--seats", "7,x", "--to", "1"], "--seats: expected seat numbers separated by commas"),
    (["--seats", "13", "--to", "1"], "--seats: [13] not in"),
])
def test_the_command_line_reports_one_line(argv: list[str], message: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert tracer.main([str(CLIP), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1
