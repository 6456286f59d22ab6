"""Real espeak-ng speech written to real files through PyAV, for the audio tests."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import av
import numpy as np
import pytest

from mafiavision.audio.cues import PREAMBLES, speak_count, synthesize
from mafiavision.audio.sources import SAMPLE_RATE

CODECS = {".wav": "pcm_s16le", ".flac": "flac", ".mp3": "libmp3lame"}


def write_audio(
    path: Path, samples: np.ndarray, rate: int = SAMPLE_RATE, channels: int = 1
) -> Path:
    """Encode float samples in [-1, 1] to ``path`` (codec chosen by the suffix; Ogg Vorbis
    through sox, as FFmpeg's own vorbis encoder is experimental)."""
    if path.suffix == ".ogg":
        wav = write_audio(path.with_suffix(".tmp.wav"), samples, rate, channels)
        subprocess.run(["sox", str(wav), str(path)], check=True)
        wav.unlink()
        return path
    codec = CODECS[path.suffix]
    layout = "mono" if channels == 1 else "stereo"
    with av.open(str(path), "w") as out:
        stream = out.add_stream(codec, rate=rate, layout=layout)
        fmt = stream.codec_context.codec.audio_formats[0].name
        data = np.tile(samples.astype(np.float32), (channels, 1))
        frame_len = 1024
        pts = 0
        for i in range(0, data.shape[1], frame_len):
            block = data[:, i : i + frame_len]
            if fmt.startswith("s16"):
                arr = (np.clip(block, -1, 1) * 32767).astype(np.int16)
            elif fmt.startswith("s32"):
                arr = (np.clip(block, -1, 1) * 2147483000).astype(np.int32)
            else:
                arr = block.astype(np.float32)
            if fmt.endswith("p"):
                frame = av.AudioFrame.from_ndarray(arr, format=fmt, layout=layout)
            else:
                frame = av.AudioFrame.from_ndarray(arr.T.reshape(1, -1), format=fmt, layout=layout)
            frame.sample_rate = rate
            frame.pts = pts
            pts += block.shape[1]
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    return path


def resample(x: np.ndarray, rate: int) -> np.ndarray:
    n = int(len(x) * rate / SAMPLE_RATE)
    return np.interp(np.arange(n) * SAMPLE_RATE / rate, np.arange(len(x)), x).astype(np.float32)


@dataclass
class Recording:
    path: Path
    samples: np.ndarray
    seats: list[int]
    onsets: list[float]
    offsets: list[float]


def _count(
    seats: list[int], voice: str, wpm: int, interval: float, preamble: bool
) -> tuple[np.ndarray, list[float], list[float]]:
    count = speak_count(seats, voice, wpm, interval)
    if not preamble:
        return count.samples, count.onsets, count.offsets
    pre = synthesize(PREAMBLES[voice], voice, wpm).samples
    pause = np.zeros(int(0.7 * SAMPLE_RATE), dtype=np.float32)
    shift = (len(pre) + len(pause)) / SAMPLE_RATE
    x = np.concatenate([pre, pause, count.samples])
    return x, [t + shift for t in count.onsets], [t + shift for t in count.offsets]


@pytest.fixture(scope="session")
def audio_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("espeak-ng") is None:
        pytest.skip("espeak-ng is not installed (Debian package espeak-ng)")
    return tmp_path_factory.mktemp("audio")


@pytest.fixture(scope="session")
def ru_count(audio_dir: Path) -> Recording:
    """Russian, 8 seats, a preamble, a table knock between two numbers, in a WAV file."""
    seats = list(range(1, 9))
    x, onsets, offsets = _count(seats, "ru", 190, 0.85, preamble=True)
    rng = np.random.default_rng(0)
    t = np.arange(int(0.08 * SAMPLE_RATE)) / SAMPLE_RATE
    knock = np.sin(2 * np.pi * 180 * t) * np.exp(-t / 0.02) * 0.6
    i = int((offsets[3] + 0.15) * SAMPLE_RATE)
    x[i : i + len(knock)] += knock.astype(np.float32)
    x = x + 0.002 * rng.standard_normal(len(x)).astype(np.float32)
    return Recording(write_audio(audio_dir / "ru_count.wav", x), x, seats, onsets, offsets)


@pytest.fixture(scope="session")
def en_living(audio_dir: Path) -> Recording:
    """English, only the living seats 1, 3, 4, 7, 9 called, no preamble, in a FLAC file."""
    seats = [1, 3, 4, 7, 9]
    x, onsets, offsets = _count(seats, "en", 150, 1.1, preamble=False)
    return Recording(write_audio(audio_dir / "en_living.flac", x), x, seats, onsets, offsets)
