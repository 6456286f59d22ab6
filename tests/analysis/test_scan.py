"""The vision pass's day gate on a still table (the first frame of a sample clip, no hand raised,
with sensor noise): frames are tracked at ``day_fps``, the others only decoded, and each seat's
landmarker runs once per gate refresh (2 s), not on every tracked frame."""

from pathlib import Path

import pytest

from mafiavision.analysis.media import probe
from mafiavision.analysis.scan import ScanConfig, scan
from mafiavision.vision.gate import SeatGate
from mafiavision.vision.hands import Landmarker
from mafiavision.vision.table import Table
from tests.analysis.media_files import still_day

SECONDS, FPS = 8.0, 30


@pytest.fixture(scope="module")
def day(sample_clip: Path, tmp_path_factory) -> tuple[Path, Table]:
    clip = still_day(sample_clip, tmp_path_factory.mktemp("day") / "day.mp4", SECONDS, FPS)
    return clip, Table.load(sample_clip.with_name(sample_clip.stem + ".table.json"))


@pytest.mark.parametrize("day_fps", [2.0, 4.0])
def test_a_still_day_is_sampled_and_gated(day: tuple[Path, Table], day_fps: float,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    clip, table = day
    runs = []
    detect = Landmarker.detect
    monkeypatch.setattr(Landmarker, "detect",
                        lambda self, *a: runs.append(a[3]) or detect(self, *a))
    result = scan(probe(clip), table, ScanConfig(day_fps=day_fps))
    assert result.decoded == SECONDS * FPS
    assert len(result.frame_times) == pytest.approx(SECONDS * day_fps, abs=1)
    assert not result.shots and not result.numbers
    assert not any(s.seen.any() for s in result.series.values())
    # every seat on the first frame, then once per refresh: a quarter of the tracked seat-frames
    # at 2 fps (one per seat and frame without the gate)
    per_seat = 1 + SECONDS / SeatGate().refresh
    assert len(runs) <= table.seats * per_seat
