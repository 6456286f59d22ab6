"""The live pipeline on real frames of a sample clip: a source that stops delivering frames
raises a visible warning and pauses detection; when frames come back the warning clears and the
step's recording has lost nothing; late camera frames are skipped, a video's are kept."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import closing
from itertools import islice
from pathlib import Path

import pytest

from mafiavision.night.capture import Capture
from mafiavision.night.live import build_pipeline
from mafiavision.night.pipeline import MAX_LAG, STALL_SECONDS
from mafiavision.vision.sources import open_source

ROOT = Path(__file__).resolve().parents[2]
NAME = "kharkiv_hit_ru"

pytestmark = pytest.mark.slow


def first_frames(video: Path, n: int) -> list:  # type: ignore[type-arg]
    with closing(open_source(video)) as source:
        return list(islice(source, n))


@pytest.fixture(scope="module")
def clip() -> tuple[Path, Path, list[int]]:
    video = ROOT / "sample_videos" / f"{NAME}.mp4"
    if not video.is_file():
        pytest.skip(f"sample clip {video} not found")
    truth = json.loads(video.with_name(f"{NAME}.truth.json").read_text())
    return video, video.with_name(f"{NAME}.table.json"), truth["hunts"][0]["members"]


def test_a_source_that_stalls_warns_and_loses_nothing(clip) -> None:
    video, table, seats = clip
    frames = first_frames(video, 105)[75:]  # 1.2 s while the hands go up
    seen_warning: list[str | None] = []

    def stalling() -> Iterator[object]:
        for i, frame in enumerate(frames):
            if i == 10:  # the camera stops delivering for a while
                deadline = time.monotonic() + STALL_SECONDS + 1.0
                while time.monotonic() < deadline:
                    time.sleep(0.1)
                seen_warning.append(pipeline.status.warning)
            yield frame

    pipeline = build_pipeline(table, video, realtime=False, model="lite", reopen=False)
    pipeline._open_frames = stalling
    pipeline.set_active(seats)
    capture = Capture(seats=tuple(seats))
    pipeline.attach(capture)
    pipeline.start()
    try:
        deadline = time.monotonic() + 60
        while not pipeline.status.ended and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        pipeline.stop()
    assert seen_warning and "no frame" in (seen_warning[0] or "")
    assert "detection paused" in (seen_warning[0] or "")
    # Every frame of the step is in its recording, in order, and the hands were tracked.
    assert capture.frame_indices == [f.index for f in frames]
    assert max(capture.seen().values()) > 0.5
    assert pipeline.status.warning == "video ended — detection stopped"


@pytest.mark.parametrize(("drop_late", "kept"), [(True, False), (False, True)])
def test_late_frames_skipped_for_a_camera_kept_for_a_video(clip, drop_late, kept) -> None:
    video, table, seats = clip
    frames = first_frames(video, 2)
    pipeline = build_pipeline(table, video, realtime=True, model="lite", reopen=drop_late)
    pipeline.set_active(seats)
    capture = Capture(seats=tuple(seats))
    pipeline.attach(capture)
    pipeline._step(frames[0])
    time.sleep(MAX_LAG + 0.3)  # the next frame arrives late
    pipeline._step(frames[1])
    pipeline._tracker.close()
    assert (frames[1].index in capture.frame_indices) is kept
    assert pipeline.status.dropped == (0 if kept else 1)
    assert pipeline.status.t == frames[1].t
