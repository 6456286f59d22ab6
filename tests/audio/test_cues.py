from __future__ import annotations

import numpy as np
import pytest

from mafiavision.audio.cues import (
    NUMBER_WORDS,
    SNAP_AFTER,
    SNAP_BEFORE,
    SpeechSynthesisError,
    number_word,
    snap_taps,
    speak_count,
    synthesize,
    voice_span,
)
from mafiavision.audio.sources import SAMPLE_RATE, AudioClip
from mafiavision.audio.vad import Segment, SileroVAD, chunks_of, detect_segments
from mafiavision.errors import InputError


@pytest.mark.parametrize("voice", sorted(NUMBER_WORDS))
def test_synthesised_word_has_its_voice_inside(audio_dir, voice: str) -> None:
    w = synthesize(number_word(7, voice), voice, 175)
    assert 0.0 <= w.onset < w.offset <= len(w.samples) / SAMPLE_RATE
    assert 0.1 < w.offset - w.onset < 1.0


def test_app_spoken_count_has_exact_known_onsets(audio_dir) -> None:
    count = speak_count([1, 2, 3, 4, 5], "uk", 200, interval=0.8)
    assert np.diff(count.onsets) == pytest.approx([0.8] * 4)
    # the voice really starts where the app says it does: silero finds the same onsets
    segs = detect_segments(chunks_of(AudioClip(count.samples, 0.0)), SileroVAD())
    assert len(segs) == 5
    assert np.abs(np.array([s.start for s in segs]) - count.onsets).max() < 0.08


def test_voice_span_of_a_burst() -> None:
    x = np.zeros(SAMPLE_RATE, dtype=np.float32)
    x[4000:8000] = 0.5
    assert voice_span(x) == pytest.approx((0.25, 0.5), abs=0.006)


@pytest.mark.parametrize(("call", "error"), [
    (lambda: number_word(3, "de"), InputError),
    (lambda: number_word(13, "ru"), InputError),
    (lambda: number_word(0, "en"), InputError),
    (lambda: synthesize("один", "no-such-voice", 175), SpeechSynthesisError),
    (lambda: speak_count([1, 2], "ru", 175, interval=0), InputError),
])
def test_cue_errors(audio_dir, call, error: type) -> None:
    with pytest.raises(error):
        call()


ONSETS = [Segment(1.0, 1.3), Segment(2.0, 2.3), Segment(3.0, 3.3)]


@pytest.mark.parametrize(("taps", "expected"), [
    ([1.2, 2.1, 3.3], [(1.0, True), (2.0, True), (3.0, True)]),      # taps after the voice
    ([0.8, 1.9], [(1.0, True), (2.0, True)]),                        # taps a little early
    ([1.0 + SNAP_BEFORE + 0.05], [(1.0 + SNAP_BEFORE + 0.05, False)]),  # too late to snap
    ([1.0 - SNAP_AFTER - 0.05], [(1.0 - SNAP_AFTER - 0.05, False)]),    # too early to snap
    ([1.1, 1.2], [(1.0, True), (1.2, False)]),                        # one onset, used once
    ([2.5], [(2.5, False)]),
])
def test_snap_taps(taps: list[float], expected: list[tuple[float, bool]]) -> None:
    got = [(round(s.onset, 3), s.snapped) for s in snap_taps(taps, ONSETS)]
    assert got == [(round(t, 3), ok) for t, ok in expected]
