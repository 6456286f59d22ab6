import numpy as np
import pytest

from mafiavision.samples.voice import NUMBERS, SAMPLE_RATE, Track, Voice, sample_time, synthesize


@pytest.mark.parametrize(
    ("word", "voice"),
    [
        (NUMBERS["ru"][0], Voice("ru", 150)),
        (NUMBERS["en"][11], Voice("en-us", 200, 30)),
    ],
)
def test_synthesize_trims_silence(word: str, voice: Voice) -> None:
    audio = synthesize(word, voice)
    assert 0.1 < len(audio) / SAMPLE_RATE < 1.5
    edge = int(0.02 * SAMPLE_RATE)
    assert np.abs(audio[:edge]).max() > 0.01 and np.abs(audio[-edge:]).max() > 0.01


def test_rate_changes_duration() -> None:
    slow = synthesize("восемь", Voice("ru", 100))
    fast = synthesize("восемь", Voice("ru", 250))
    assert len(slow) > 1.3 * len(fast)


def test_track_places_word_exactly() -> None:
    track = Track(2.0)
    onset = sample_time(0.7)
    offset = track.place("two", Voice("en"), onset)
    loud = np.flatnonzero(np.abs(track.samples) > 0.005)
    assert loud[0] / SAMPLE_RATE == pytest.approx(onset, abs=0.01)
    assert loud[-1] / SAMPLE_RATE == pytest.approx(offset, abs=0.01)


def test_track_rejects_word_past_end() -> None:
    with pytest.raises(ValueError, match="does not fit"):
        Track(0.5).place("seven", Voice("en"), 0.4)
