"""The committed sample clips: decode, have audio, match their ground truth and table."""

from pathlib import Path

import av
import numpy as np
import pytest

from mafiavision.samples.render import cases
from mafiavision.samples.script import load_script
from mafiavision.samples.timeline import appearance, build
from mafiavision.samples.truth import ClipTruth
from mafiavision.vision.table import Table

ROOT = Path(__file__).resolve().parents[2]
CLIPS = ROOT / "sample_videos"
TRUTHS = sorted(CLIPS.glob("*.truth.json"))
BUDGET_MB = 25.0


def _decode(path: Path) -> tuple[list[np.ndarray], np.ndarray, int, int]:
    """The first video frame, the number of frames, and the audio track as mono float32."""
    frames: list[np.ndarray] = []
    audio: list[np.ndarray] = []
    rate = 0
    n = 0
    with av.open(str(path)) as c:
        assert len(c.streams.video) == 1 and len(c.streams.audio) == 1
        for packet in c.demux():
            for frame in packet.decode():
                if isinstance(frame, av.VideoFrame):
                    if n == 0:
                        frames.append(frame.to_ndarray(format="rgb24"))
                    n += 1
                else:
                    rate = frame.sample_rate
                    audio.append(frame.to_ndarray().mean(axis=0))
    assert n > 0
    return frames, np.concatenate(audio), rate, n


def test_there_are_clips() -> None:
    assert TRUTHS, f"no *.truth.json in {CLIPS}"


def test_budget() -> None:
    total = sum(p.stat().st_size for p in CLIPS.glob("*.mp4")) / 1e6
    assert total <= BUDGET_MB


@pytest.mark.parametrize("truth_path", TRUTHS, ids=lambda p: p.name.removesuffix(".truth.json"))
def test_clip_matches_truth(truth_path: Path) -> None:
    truth = ClipTruth.load(truth_path)
    frames, audio, rate, n = _decode(CLIPS / f"{truth.name}.mp4")
    v = truth.video
    assert n == v.frames
    assert frames[0].shape == (v.height, v.width, 3)
    assert 640 <= v.width <= 1280 and 360 <= v.height <= 720 and 15 <= v.fps <= 30
    # audio: as long as the video, and louder inside the spoken words than between them
    assert len(audio) / rate == pytest.approx(v.duration, abs=0.15)
    inside = np.concatenate(
        [audio[int(w.onset * rate) : int(w.offset * rate)] for w in truth.words]
    )
    mask = np.ones(len(audio), bool)
    for w in truth.words:
        mask[max(int(w.onset * rate) - rate // 20, 0) : int(w.offset * rate) + rate // 20] = False
    assert np.sqrt(np.mean(inside**2)) > 5 * np.sqrt(np.mean(audio[mask] ** 2))
    # the table fits the video and every raised hand's seat has a region
    table = Table.load(CLIPS / f"{truth.name}.table.json")
    assert table == truth.table
    table.check_frame_size(v.width, v.height)
    assert table.image_size == (v.width, v.height)
    assert sorted(r.seat for r in table.regions) == list(range(1, truth.seats + 1))
    for r in table.regions:
        assert all(0 <= x <= 1 and 0 <= y <= 1 for x, y in r.polygon)
        assert np.hypot(*r.toward) == pytest.approx(1.0, abs=1e-3)
    # the truth is self-consistent
    assert all(0 <= w.onset < w.offset <= v.duration for w in truth.words)
    assert all(0 <= g.start < g.end <= v.duration for g in truth.gestures)
    for b in truth.bends:
        assert len(b.times) == len(b.degrees) and b.times == sorted(b.times)
    assert truth.cases, "a clip must cover at least one case"


#: The cases of issue 5 point 3, as :func:`mafiavision.samples.render.cases` names them.
REQUIRED_CASES = {
    "hunt_hit", "miss_other_number", "miss_between", "miss_no_shot", "double_squeeze",
    "two_hunts", "orders_twice", "check_one_hand", "check_two_hands",
    "sheriff_raise_night_zero", "non_bandit_moves_during_hunt", "back_of_hand",
}


def test_every_case_is_covered() -> None:
    covered = {c for p in TRUTHS for c in ClipTruth.load(p).cases}
    assert len(TRUTHS) >= 12
    assert covered >= REQUIRED_CASES, sorted(REQUIRED_CASES - covered)


@pytest.mark.parametrize("truth_path", TRUTHS, ids=lambda p: p.name.removesuffix(".truth.json"))
def test_truth_rebuilds_from_script_and_seed(truth_path: Path) -> None:
    """The committed truth is what its night script and seed give (no frames rendered)."""
    truth = ClipTruth.load(truth_path)
    script = load_script(CLIPS / "scripts" / f"{truth.name}.yaml")
    r_look, r_time, _, _ = (np.random.default_rng(s)
                            for s in np.random.SeedSequence(script.seed).spawn(4))
    tl = build(script, appearance(script, r_look), r_time)
    assert tl.words == truth.words
    assert tl.gestures == truth.gestures
    assert (tl.hunts, tl.checks, tl.orders) == (truth.hunts, truth.checks, truth.orders)
    assert cases(script, tl) == truth.cases
