from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from mafiavision.audio import vad
from mafiavision.audio.sources import SAMPLE_RATE, AudioClip, load_audio
from mafiavision.audio.vad import (
    CHUNK_SECONDS,
    EnergyVAD,
    Segment,
    Segmenter,
    SileroVAD,
    VadModelError,
    chunks_of,
    detect_segments,
    make_detector,
    silero_model_path,
)
from mafiavision.errors import MissingInputError

from .conftest import Recording

C = CHUNK_SECONDS


@pytest.mark.parametrize("detector", [SileroVAD, EnergyVAD])
def test_each_spoken_number_is_one_segment_near_its_onset(
    en_living: Recording, detector: type
) -> None:
    segs = detect_segments(chunks_of(load_audio(en_living.path)), detector())
    assert len(segs) == len(en_living.onsets)
    for seg, onset, offset in zip(segs, en_living.onsets, en_living.offsets, strict=True):
        assert abs(seg.start - onset) < 0.1
        assert seg.end > offset - 0.1


@pytest.mark.parametrize("detector", [SileroVAD, EnergyVAD])
@pytest.mark.parametrize("level", [0.0, 0.003])
def test_silence_and_steady_hiss_are_not_speech(detector: type, level: float) -> None:
    rng = np.random.default_rng(1)
    x = (level * rng.standard_normal(3 * SAMPLE_RATE)).astype(np.float32)
    assert detect_segments(chunks_of(AudioClip(x, 0.0)), detector()) == []


def test_silero_state_resets_between_streams(en_living: Recording) -> None:
    clip = load_audio(en_living.path)
    det = SileroVAD()
    first = [det.score(c.samples) for c in chunks_of(clip)]
    det.reset()
    second = [det.score(c.samples) for c in chunks_of(clip)]
    assert first == second
    assert max(first) > 0.9 and min(first) < 0.1


def test_model_is_checked_and_auto_falls_back_to_energy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert silero_model_path().name == "silero_vad.onnx"
    with pytest.raises(MissingInputError, match="extract_silero"):
        silero_model_path(tmp_path)
    shutil.copy(silero_model_path(), tmp_path / "silero_vad.onnx")
    (tmp_path / "SHA256SUMS").write_text("0" * 64 + "  silero_vad.onnx\n")
    with pytest.raises(VadModelError, match="does not match"):
        silero_model_path(tmp_path)
    monkeypatch.setattr(vad, "MODELS_DIR", tmp_path / "nowhere")
    assert make_detector("auto").name == "energy"
    with pytest.raises(MissingInputError):
        make_detector("silero")


def _run(scores: list[float], seg: Segmenter | None = None) -> list[tuple[float, float]]:
    s = seg or Segmenter()
    out = [s.push(i * C, x) for i, x in enumerate(scores)]
    out.append(s.flush())
    return [(round(o.start / C), round(o.end / C)) for o in out if o is not None]


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        ([0, 0, 0], []),
        ([0, 1, 1, 1, 0, 0, 0, 0], [(1, 4)]),
        # a dip to 0.4 stays inside the segment (hysteresis: off only below 0.35)
        ([0, 1, 1, 0.4, 1, 1, 0, 0, 0, 0], [(1, 6)]),
        # two chunks of silence (64 ms < 96 ms) bridge; four split
        ([1, 1, 0, 0, 1, 1, 0, 0, 0, 0], [(0, 6)]),
        ([1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0], [(0, 2), (6, 8)]),
        # a single chunk (32 ms) is shorter than min_speech
        ([0, 1, 0, 0, 0, 0], []),
        # speech running to the end is closed by flush
        ([0, 0, 1, 1, 1], [(2, 5)]),
    ],
)
def test_segmenter_hysteresis(scores: list[float], expected: list[tuple[int, int]]) -> None:
    assert _run(scores) == expected


def test_tentative_reports_a_pause_once_with_the_final_onset() -> None:
    s = Segmenter()
    reports = []
    for i, x in enumerate([0, 1, 1, 1, 0.6, 0.6, 0.2, 1, 1, 0.3, 0, 0, 0, 0]):
        s.push(i * C, x)
        t = s.tentative((i + 1) * C)
        if t is not None:
            reports.append((i, round(t.start / C), round(t.end / C)))
    # first drop below pause_level at chunk 4; the word resumes at 7 and pauses again at 9
    assert reports == [(4, 1, 4), (9, 1, 9)]


@pytest.mark.parametrize(
    ("scores", "rises"),
    [
        # a dip under 0.7 for three chunks, down to 0.4, inside one segment: speech resumes at 6
        ([0, 1, 1, 0.6, 0.4, 0.45, 1, 1, 0, 0, 0, 0], [6]),
        # two dips: two rises
        ([1, 1, 0.4, 0.4, 0.6, 1, 1, 0.45, 0.4, 0.4, 0.9, 1, 0, 0, 0, 0], [5, 10]),
        # too short (two chunks) or never under the segment threshold (0.5): no rise
        ([1, 1, 0.4, 0.4, 1, 1, 0, 0, 0, 0], []),
        ([1, 1, 0.6, 0.6, 0.6, 0.6, 1, 1, 0, 0, 0, 0], []),
        # a real pause closes the segment: a new segment, not a rise
        ([1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0], []),
    ],
)
def test_rises_mark_speech_resuming_after_a_dip(scores: list[float], rises: list[int]) -> None:
    s = Segmenter()
    segs = [x for i, v in enumerate(scores) if (x := s.push(i * C, v)) is not None]
    last = s.flush()
    segs += [last] if last is not None else []
    assert [round(r / C) for seg in segs for r in seg.rises] == rises


def test_segment_duration() -> None:
    assert Segment(1.0, 1.5).duration == pytest.approx(0.5)
