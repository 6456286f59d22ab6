"""Audio sources: a file's audio track, a sound file, or a live microphone, as 16 kHz mono float32.

Every sample time is on the *input's* clock: for a video file the audio track's presentation time
(so it lines up with the video frames), for a sound file seconds from its start, for a microphone
seconds since the stream opened. Files and the microphone share one streaming path: fixed
:data:`CHUNK`-sample :class:`AudioChunk` blocks made by a :class:`Rechunker`, which is what the
live voice detector and aligner consume (tests feed recorded files through it, as there is no
microphone here).
"""

from __future__ import annotations

import queue
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from mafiavision.errors import InputError, MissingInputError

SAMPLE_RATE = 16_000
#: Samples per streaming block: 32 ms at 16 kHz, the chunk silero VAD v6 expects.
CHUNK = 512
#: Below this rate a recording cannot carry intelligible speech.
MIN_SOURCE_RATE = 8_000


class AudioInputError(InputError):
    """An audio input cannot be used: corrupt, without an audio track, or a wrong sample rate."""


class NoMicrophoneError(AudioInputError):
    """No usable input device, or it refuses to record mono audio at the needed rate."""


@dataclass
class AudioClip:
    """Mono float32 samples at :data:`SAMPLE_RATE`; ``t0`` is the time of the first sample."""

    samples: np.ndarray
    t0: float
    name: str = "audio"

    @property
    def duration(self) -> float:
        return len(self.samples) / SAMPLE_RATE

    @property
    def end(self) -> float:
        return self.t0 + self.duration


@dataclass
class AudioChunk:
    """One streaming block: ``t`` is the time of its first sample on the input's clock."""

    t: float
    samples: np.ndarray


class Rechunker:
    """Cuts arbitrary blocks of samples into fixed-size :class:`AudioChunk` s on one clock.

    The clock is set by the first block's time; after that, time advances by the sample count, so
    a jittery source timestamp never makes chunks overlap or leave holes.
    """

    def __init__(self, size: int = CHUNK) -> None:
        self.size = size
        self._buf = np.zeros(0, dtype=np.float32)
        self._t: float | None = None

    def push(self, t: float, samples: np.ndarray) -> list[AudioChunk]:
        if self._t is None:
            self._t = t
        self._buf = np.concatenate([self._buf, np.asarray(samples, dtype=np.float32).ravel()])
        out = []
        while len(self._buf) >= self.size:
            out.append(AudioChunk(self._t, self._buf[: self.size].copy()))
            self._buf = self._buf[self.size :]
            self._t += self.size / SAMPLE_RATE
        return out

    def flush(self) -> list[AudioChunk]:
        """The last partial block, zero-padded to a full chunk (nothing when empty)."""
        if self._t is None or len(self._buf) == 0:
            return []
        pad = np.zeros(self.size - len(self._buf), dtype=np.float32)
        chunk = AudioChunk(self._t, np.concatenate([self._buf, pad]))
        self._buf = np.zeros(0, dtype=np.float32)
        return [chunk]


def _decode(path: Path, start: float | None, end: float | None
            ) -> Iterator[tuple[float, np.ndarray]]:
    """(time, samples) blocks of the first audio track, resampled to 16 kHz mono float32."""
    import av

    if not path.exists():
        raise MissingInputError(f"{path}: file not found")
    if path.is_dir():
        raise AudioInputError(f"{path}: is a directory, expected an audio or video file")
    try:
        container = av.open(str(path))
    except (av.FFmpegError, UnicodeDecodeError) as exc:
        raise AudioInputError(f"{path}: cannot be read as audio or video ({exc})") from exc
    with container:
        if not container.streams.audio:
            raise AudioInputError(f"{path}: has no audio track")
        stream = container.streams.audio[0]
        rate = stream.codec_context.sample_rate or stream.rate
        if rate and rate < MIN_SOURCE_RATE:
            raise AudioInputError(
                f"{path}: sample rate {rate} Hz is too low for speech (need at least "
                f"{MIN_SOURCE_RATE} Hz)")
        resampler = av.AudioResampler(format="flt", layout="mono", rate=SAMPLE_RATE)
        clock: float | None = None
        try:
            for frame in container.decode(stream):
                if clock is None:
                    clock = float(frame.time) if frame.time is not None else 0.0
                for out in resampler.resample(frame):
                    block = out.to_ndarray().reshape(-1).astype(np.float32, copy=False)
                    t = clock
                    clock += len(block) / SAMPLE_RATE
                    yield from _trim(t, block, start, end)
                    if end is not None and clock >= end:
                        return
            for out in resampler.resample(None):
                block = out.to_ndarray().reshape(-1).astype(np.float32, copy=False)
                yield from _trim(clock or 0.0, block, start, end)
                clock = (clock or 0.0) + len(block) / SAMPLE_RATE
        except av.FFmpegError as exc:
            raise AudioInputError(f"{path}: corrupt audio data ({exc})") from exc


def _trim(t: float, block: np.ndarray, start: float | None, end: float | None
          ) -> Iterator[tuple[float, np.ndarray]]:
    i0 = 0 if start is None else max(0, round((start - t) * SAMPLE_RATE))
    i1 = len(block) if end is None else min(len(block), round((end - t) * SAMPLE_RATE))
    if i1 > i0:
        yield t + i0 / SAMPLE_RATE, block[i0:i1]


def _check_range(start: float | None, end: float | None) -> None:
    if start is not None and start < 0:
        raise InputError(f"--start must be >= 0 seconds, not {start}")
    if start is not None and end is not None and end <= start:
        raise InputError(f"--end ({end}) must be after --start ({start})")


def load_audio(path: str | Path, start: float | None = None, end: float | None = None) -> AudioClip:
    """Decode the audio (track) of ``path`` between ``start`` and ``end`` seconds of its clock."""
    path = Path(path)
    _check_range(start, end)
    blocks = list(_decode(path, start, end))
    if not blocks:
        where = "" if start is None and end is None else f" between {start} and {end} s"
        raise AudioInputError(f"{path}: no audio samples{where}")
    samples = np.concatenate([b for _, b in blocks])
    return AudioClip(samples=samples, t0=blocks[0][0], name=str(path))


def stream_file(path: str | Path, start: float | None = None, end: float | None = None,
                *, realtime: bool = False, size: int = CHUNK) -> Iterator[AudioChunk]:
    """A file as the microphone would deliver it: fixed chunks, optionally paced in real time."""
    path = Path(path)
    _check_range(start, end)
    rechunker = Rechunker(size)
    t_wall0: float | None = None
    t_audio0 = 0.0
    for t, block in _decode(path, start, end):
        for chunk in rechunker.push(t, block):
            if realtime:
                if t_wall0 is None:
                    t_wall0, t_audio0 = time.monotonic(), chunk.t
                delay = (chunk.t + size / SAMPLE_RATE - t_audio0) - (time.monotonic() - t_wall0)
                if delay > 0:
                    time.sleep(delay)
            yield chunk
    yield from rechunker.flush()


def stream_microphone(device: int | str | None = None, *, size: int = CHUNK,
                      max_seconds: float | None = None) -> Iterator[AudioChunk]:
    """Live chunks from an input device (``sounddevice``); times are seconds since it opened."""
    import sounddevice as sd

    try:
        info = sd.query_devices(device, kind="input")
    except (ValueError, sd.PortAudioError) as exc:
        raise NoMicrophoneError(f"microphone {device if device is not None else '(default)'}: "
                                f"no usable input device ({exc})") from exc
    blocks: queue.Queue[np.ndarray] = queue.Queue()

    def callback(indata: np.ndarray, frames: int, t: object, status: object) -> None:
        blocks.put(indata[:, 0].copy())

    try:
        stream = sd.InputStream(device=device, channels=1, samplerate=SAMPLE_RATE,
                                dtype="float32", blocksize=size, callback=callback)
    except (ValueError, sd.PortAudioError) as exc:
        raise NoMicrophoneError(f"microphone {info['name']!r}: cannot record 16 kHz mono "
                                f"({exc})") from exc
    rechunker = Rechunker(size)
    received = 0
    with stream:
        while max_seconds is None or received < max_seconds * SAMPLE_RATE:
            block = blocks.get()
            yield from rechunker.push(received / SAMPLE_RATE, block)
            received += len(block)
