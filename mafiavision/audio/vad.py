"""Voice activity: silero VAD v6 (ONNX, onnxruntime) streaming in 32 ms chunks, and an energy
detector with a running noise floor as the fallback when the model cannot be loaded.

Both give a speech score in [0, 1] per :data:`~mafiavision.audio.sources.CHUNK`-sample chunk; a
:class:`Segmenter` turns the scores into speech :class:`Segment` s with hysteresis (on at
``threshold``, off below ``threshold - 0.15`` for ``min_silence`` seconds), the same way in
batch and live use.
"""

from __future__ import annotations

import hashlib
import math
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Literal, Protocol

import numpy as np

from mafiavision.audio.sources import CHUNK, SAMPLE_RATE, AudioChunk, AudioClip
from mafiavision.errors import InputError, MissingInputError

MODELS_DIR = Path(__file__).resolve().parents[2] / "models"
SILERO_FILE = "silero_vad.onnx"
#: Samples of the previous chunk that silero v6 expects in front of each 512-sample chunk.
SILERO_CONTEXT = 64
CHUNK_SECONDS = CHUNK / SAMPLE_RATE

DetectorName = Literal["silero", "energy", "auto"]


class VadModelError(InputError):
    """The silero model file is missing, corrupt or cannot be run."""


class SpeechScorer(Protocol):
    name: str

    def score(self, chunk: np.ndarray) -> float: ...

    def reset(self) -> None: ...


def silero_model_path(models_dir: Path | None = None) -> Path:
    """The verified ``models/silero_vad.onnx`` (sha256 checked against ``models/SHA256SUMS``)."""
    return _verified(models_dir or MODELS_DIR)


@cache
def _verified(models_dir: Path) -> Path:
    path = models_dir / SILERO_FILE
    if not path.exists():
        raise MissingInputError(
            f"{path}: silero VAD model not found "
            "(extract it with `python scripts/extract_silero.py`)")
    sums = models_dir / "SHA256SUMS"
    expected = None
    if sums.exists():
        for line in sums.read_text().splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[1] == SILERO_FILE:
                expected = parts[0]
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if expected is not None and digest != expected:
        raise VadModelError(f"{path}: sha256 {digest[:12]}… does not match SHA256SUMS "
                            f"({expected[:12]}…): re-extract it with scripts/extract_silero.py")
    return path


class SileroVAD:
    """Silero VAD v6 run by onnxruntime on one thread, one 512-sample chunk at a time.

    As the silero wheel's own ``OnnxWrapper`` does: each chunk is prefixed with the last 64
    samples of the previous input (zeros at first), and the recurrent ``state`` (2, 1, 128) is
    carried from call to call.
    """

    name = "silero"

    def __init__(self, model_path: Path | None = None) -> None:
        import onnxruntime as ort

        path = model_path or silero_model_path()
        opts = ort.SessionOptions()
        opts.inter_op_num_threads = 1
        opts.intra_op_num_threads = 1
        try:
            self._session = ort.InferenceSession(
                str(path), sess_options=opts, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own untyped errors
            raise VadModelError(f"{path}: onnxruntime cannot load the model ({exc})") from exc
        self._sr = np.array(SAMPLE_RATE, dtype=np.int64)
        self.reset()

    def reset(self) -> None:
        self._state = np.zeros((2, 1, 128), dtype=np.float32)
        self._context = np.zeros((1, SILERO_CONTEXT), dtype=np.float32)

    def score(self, chunk: np.ndarray) -> float:
        x = np.concatenate([self._context, chunk.reshape(1, CHUNK).astype(np.float32)], axis=1)
        out, self._state = self._session.run(
            None, {"input": x, "state": self._state, "sr": self._sr})
        self._context = x[:, -SILERO_CONTEXT:]
        return float(out[0, 0])


class EnergyVAD:
    """Speech score from the chunk's level above a running noise floor.

    The floor is the lowest chunk level of the last ``window`` seconds: a count pauses at least
    0.3 s between words, so the window always holds some background. The score is 0 at
    ``margin_db`` above the floor and 1 at ``margin_db + span_db``; chunks below ``silence_db``
    (digital silence) score 0.
    """

    name = "energy"

    def __init__(self, margin_db: float = 3.0, span_db: float = 9.0, window: float = 2.0,
                 silence_db: float = -70.0) -> None:
        self.margin_db = margin_db
        self.span_db = span_db
        self.silence_db = silence_db
        self._levels: deque[float] = deque(maxlen=max(1, round(window / CHUNK_SECONDS)))
        self.reset()

    def reset(self) -> None:
        self._levels.clear()

    def score(self, chunk: np.ndarray) -> float:
        x = chunk.astype(np.float64)
        level = 10.0 * math.log10(float(np.mean(x * x)) + 1e-12)
        self._levels.append(level)
        if level < self.silence_db:
            return 0.0
        floor = min(self._levels)
        return float(np.clip((level - floor - self.margin_db) / self.span_db, 0.0, 1.0))


def make_detector(name: DetectorName = "auto") -> SpeechScorer:
    """``silero``, ``energy``, or ``auto`` (silero, falling back to energy if it cannot load)."""
    if name == "energy":
        return EnergyVAD()
    if name == "silero":
        return SileroVAD()
    if name != "auto":
        raise InputError(f"voice detector must be 'silero', 'energy' or 'auto', not {name!r}")
    try:
        return SileroVAD()
    except (InputError, ImportError, FileNotFoundError):
        return EnergyVAD()


@dataclass
class Segment:
    """A stretch of speech: onset/offset in seconds, mean and peak chunk score, and the times
    inside it where speech *rises* again after a dip (see :class:`Segmenter`): where a second
    word may start when two words run into one segment."""

    start: float
    end: float
    score: float = 1.0
    peak: float = 1.0
    rises: tuple[float, ...] = ()

    @property
    def duration(self) -> float:
        return self.end - self.start


@dataclass
class Segmenter:
    """Hysteresis over chunk scores → closed segments, pushed one chunk at a time.

    A *rise* is a chunk scoring ``dip_level`` or more after at least ``min_dip`` seconds below
    ``dip_level``, reaching under ``threshold``, that did not close the segment: speech that
    resumes after a dip, e.g. a number said right after the preamble with the pause between them
    filled by noise.
    """

    threshold: float = 0.5
    min_silence: float = 0.096
    min_speech: float = 0.064
    min_dip: float = 0.096
    dip_level: float = 0.7
    #: live use: a word "pauses" (see :meth:`tentative`) at the first chunk below this score
    pause_level: float = 0.95
    _onset: float | None = field(default=None, init=False)
    _dip: int = field(default=0, init=False)
    _dip_min: float = field(default=1.0, init=False)
    _rises: list[float] = field(default_factory=list, init=False)
    _last_speech_end: float = field(default=0.0, init=False)
    _scores: list[float] = field(default_factory=list, init=False)
    _reported: bool = field(default=False, init=False)
    _last_high_end: float = field(default=0.0, init=False)

    @property
    def open_onset(self) -> float | None:
        """Onset of the segment in progress, if any."""
        return self._onset

    def tentative(self, now: float) -> Segment | None:
        """The segment in progress as if it ended at its last chunk scoring ``pause_level`` or
        more, reported once at the first chunk below that: its onset is final even if speech
        resumes (a split word), and silero's score decays ~100 ms later in noise."""
        if self._onset is None or self._last_high_end >= now or self._reported:
            return None
        if self._last_high_end - self._onset < self.min_speech:
            return None
        self._reported = True
        n = max(1, round((self._last_high_end - self._onset) / CHUNK_SECONDS))
        scores = self._scores[:n]
        return Segment(self._onset, self._last_high_end, float(np.mean(scores)),
                       float(np.max(scores)),
                       tuple(r for r in self._rises if r < self._last_high_end))

    def push(self, t: float, score: float) -> Segment | None:
        """Feed the score of the chunk starting at ``t``; returns a segment when one closes."""
        if self._onset is None:
            if score >= self.threshold:
                self._onset, self._last_speech_end, self._scores = t, t + CHUNK_SECONDS, [score]
                self._last_high_end = t + CHUNK_SECONDS
                self._dip, self._dip_min, self._rises = 0, 1.0, []
            return None
        self._scores.append(score)
        if score < self.dip_level:
            self._dip += 1
            self._dip_min = min(self._dip_min, score)
        else:
            if (self._dip * CHUNK_SECONDS >= self.min_dip - 1e-9
                    and self._dip_min < self.threshold):
                self._rises.append(t)
            self._dip, self._dip_min = 0, 1.0
        if score >= self.pause_level:
            self._last_high_end = t + CHUNK_SECONDS
            self._reported = False
        if score >= self.threshold - 0.15:
            self._last_speech_end = t + CHUNK_SECONDS
            return None
        if t + CHUNK_SECONDS - self._last_speech_end >= self.min_silence:
            return self._close()
        return None

    def flush(self) -> Segment | None:
        """Close the segment in progress at the end of the input."""
        return self._close() if self._onset is not None else None

    def _close(self) -> Segment | None:
        assert self._onset is not None
        start, end = self._onset, self._last_speech_end
        n = max(1, round((end - start) / CHUNK_SECONDS))
        scores = self._scores[:n]
        rises = tuple(self._rises)
        self._onset, self._scores, self._reported = None, [], False
        if end - start < self.min_speech:
            return None
        return Segment(start, end, float(np.mean(scores)), float(np.max(scores)), rises)


def chunks_of(clip: AudioClip) -> Iterator[AudioChunk]:
    """The clip as the streaming path sees it: full chunks, the last one zero-padded."""
    x = clip.samples
    for i in range(0, len(x), CHUNK):
        block = x[i : i + CHUNK]
        if len(block) < CHUNK:
            block = np.concatenate([block, np.zeros(CHUNK - len(block), dtype=np.float32)])
        yield AudioChunk(clip.t0 + i / SAMPLE_RATE, block)


def detect_segments(chunks: Iterable[AudioChunk], detector: SpeechScorer,
                    segmenter: Segmenter | None = None) -> list[Segment]:
    """Every speech segment of a chunk stream (batch use of the streaming path)."""
    seg = segmenter or Segmenter()
    detector.reset()
    out = []
    for chunk in chunks:
        closed = seg.push(chunk.t, detector.score(chunk.samples))
        if closed is not None:
            out.append(closed)
    last = seg.flush()
    if last is not None:
        out.append(last)
    return out
