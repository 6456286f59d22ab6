from __future__ import annotations

from pathlib import Path

import av
import numpy as np
import pytest

from mafiavision.audio.sources import (
    CHUNK,
    SAMPLE_RATE,
    AudioInputError,
    NoMicrophoneError,
    Rechunker,
    load_audio,
    stream_file,
    stream_microphone,
)
from mafiavision.errors import InputError, MissingInputError, UserError

from .conftest import resample, write_audio

TONE = (0.3 * np.sin(2 * np.pi * 440 * np.arange(SAMPLE_RATE) / SAMPLE_RATE)).astype(np.float32)


@pytest.mark.parametrize(
    ("suffix", "rate", "channels"),
    [
        (".wav", 16000, 1),
        (".wav", 44100, 2),
        (".flac", 48000, 1),
        (".mp3", 44100, 2),
        (".ogg", 22050, 1),
    ],
)
def test_sound_files_decode_to_16k_mono(
    tmp_path: Path, suffix: str, rate: int, channels: int
) -> None:
    path = write_audio(tmp_path / f"tone{suffix}", resample(TONE, rate), rate, channels)
    clip = load_audio(path)
    assert clip.samples.dtype == np.float32 and clip.samples.ndim == 1
    assert clip.t0 < 0.05  # mp3/ogg start after their encoder delay, still on the file's clock
    assert clip.duration == pytest.approx(1.0, abs=0.06)
    # the tone survives: 440 Hz is the strongest frequency after resampling
    spec = np.abs(np.fft.rfft(clip.samples[: SAMPLE_RATE // 2]))
    assert np.argmax(spec) * 2 == pytest.approx(440, abs=4)


def _video_with_audio(path: Path, audio: np.ndarray | None, audio_start: float) -> Path:
    """An mp4 (H.264, 2 s at 10 fps) whose AAC track starts ``audio_start`` s into the video."""
    with av.open(str(path), "w") as out:
        v = out.add_stream("libx264", rate=10)
        v.width, v.height, v.pix_fmt = 64, 48, "yuv420p"
        a = out.add_stream("aac", rate=SAMPLE_RATE, layout="mono") if audio is not None else None
        for i in range(20):
            img = np.full((48, 64, 3), i * 10, dtype=np.uint8)
            frame = av.VideoFrame.from_ndarray(img, format="rgb24")
            frame.pts = i
            for p in v.encode(frame):
                out.mux(p)
        for p in v.encode(None):
            out.mux(p)
        if a is not None and audio is not None:
            start = int(audio_start * SAMPLE_RATE)
            for i in range(0, len(audio), 1024):
                f = av.AudioFrame.from_ndarray(
                    audio[None, i : i + 1024], format="fltp", layout="mono"
                )
                f.sample_rate, f.pts = SAMPLE_RATE, start + i
                for p in a.encode(f):
                    out.mux(p)
            for p in a.encode(None):
                out.mux(p)
    return path


def test_video_audio_track_is_on_the_video_clock(tmp_path: Path) -> None:
    click = np.zeros(SAMPLE_RATE, dtype=np.float32)
    click[8000:8400] = TONE[:400]  # a burst 0.5 s into the audio track
    path = _video_with_audio(tmp_path / "v.mp4", click, audio_start=1.0)
    clip = load_audio(path)
    assert 0.9 <= clip.t0 <= 1.0  # AAC's encoder priming (1024 samples) comes first
    burst = clip.t0 + np.flatnonzero(np.abs(clip.samples) > 0.1)[0] / SAMPLE_RATE
    assert burst == pytest.approx(1.5, abs=0.03)
    part = load_audio(path, start=1.4, end=1.8)
    assert part.t0 == pytest.approx(1.4, abs=1e-3)
    assert part.duration == pytest.approx(0.4, abs=1e-3)


def test_stream_file_gives_contiguous_fixed_chunks(tmp_path: Path) -> None:
    path = write_audio(tmp_path / "tone.wav", resample(TONE, 44100), 44100, 2)
    chunks = list(stream_file(path))
    assert all(len(c.samples) == CHUNK for c in chunks)
    assert np.allclose(np.diff([c.t for c in chunks]), CHUNK / SAMPLE_RATE)
    joined = np.concatenate([c.samples for c in chunks])[:SAMPLE_RATE]
    assert np.allclose(joined, load_audio(path).samples, atol=1e-6)


@pytest.mark.parametrize("block", [1, 100, 512, 777, 4096])
def test_rechunker_is_independent_of_block_size(block: int) -> None:
    r = Rechunker()
    out = []
    for i in range(0, len(TONE), block):
        out += r.push(i / SAMPLE_RATE, TONE[i : i + block])
    out += r.flush()
    assert [c.t for c in out] == pytest.approx([i * CHUNK / SAMPLE_RATE for i in range(len(out))])
    assert np.array_equal(np.concatenate([c.samples for c in out])[: len(TONE)], TONE)


def _corrupt(tmp: Path) -> Path:
    p = tmp / "corrupt.wav"
    p.write_bytes(b"RIFF\x00\x00\x00\x00WAVEjunk" + bytes(range(256)) * 4)
    return p


def _no_audio(tmp: Path) -> Path:
    return _video_with_audio(tmp / "silent_video.mp4", None, 0.0)


def _low_rate(tmp: Path) -> Path:
    return write_audio(tmp / "low.wav", resample(TONE, 4000), 4000)


def _text(tmp: Path) -> Path:
    p = tmp / "notes.mp3"
    p.write_text("not audio at all\n")
    return p


@pytest.mark.parametrize(
    ("make", "kwargs", "error", "words"),
    [
        (lambda t: t / "missing.wav", {}, MissingInputError, "not found"),
        (lambda t: t, {}, AudioInputError, "directory"),
        (_corrupt, {}, AudioInputError, "cannot be read"),
        (_text, {}, AudioInputError, "cannot be read"),
        (_no_audio, {}, AudioInputError, "no audio track"),
        (_low_rate, {}, AudioInputError, "too low"),
        (
            lambda t: write_audio(t / "a.wav", TONE),
            {"start": 5.0},
            AudioInputError,
            "no audio samples",
        ),
        (lambda t: write_audio(t / "b.wav", TONE), {"start": 0.5, "end": 0.2}, InputError, "--end"),
        (lambda t: write_audio(t / "c.wav", TONE), {"start": -1.0}, InputError, "--start"),
    ],
)
def test_bad_inputs_give_one_line_user_errors(
    tmp_path: Path, make, kwargs, error, words: str
) -> None:
    path = make(tmp_path)
    with pytest.raises(error) as exc:
        load_audio(path, **kwargs)
    assert isinstance(exc.value, UserError)
    assert words in str(exc.value) and "\n" not in str(exc.value)


def test_microphone_without_a_device_is_a_clear_error() -> None:
    import sounddevice as sd

    if any(d["max_input_channels"] > 0 for d in sd.query_devices()):
        pytest.skip("this machine has an input device")
    with pytest.raises(NoMicrophoneError, match="no usable input device"):
        next(stream_microphone())
