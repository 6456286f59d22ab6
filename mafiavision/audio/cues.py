"""Moderator cues that replace or anchor the listening: taps, and the app speaking the numbers.

* **Taps**: the moderator taps a key or a screen button as they say each number. A tap is snapped
  to the voice onset nearest to it among those from ``SNAP_BEFORE`` before the tap to
  ``SNAP_AFTER`` after it (people tap a little after they start a word, sometimes just before);
  a tap with no onset in reach keeps its own time and a low confidence.
* **The app speaks**: espeak-ng (or a recorded clip per number) is played by the app, so the
  onset of every number is known exactly: the voice onset inside each synthesised word plus the
  time the word was started.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from mafiavision.audio.sources import SAMPLE_RATE, load_audio
from mafiavision.audio.vad import Segment
from mafiavision.errors import InputError

#: A voice onset may be this long after the tap (s)...
SNAP_AFTER = 0.25
#: ...or this long before it (the usual case: the finger follows the voice).
SNAP_BEFORE = 0.35

#: Number words 1..12 per espeak-ng voice (one word each, said apart).
NUMBER_WORDS: dict[str, tuple[str, ...]] = {
    "ru": ("один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять", "десять",
           "одиннадцать", "двенадцать"),
    "uk": ("один", "два", "три", "чотири", "п'ять", "шість", "сім", "вісім", "дев'ять", "десять",
           "одинадцять", "дванадцять"),
    "ro": ("unu", "doi", "trei", "patru", "cinci", "șase", "șapte", "opt", "nouă", "zece",
           "unsprezece", "doisprezece"),
    "en": ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
           "eleven", "twelve"),
}
PREAMBLES: dict[str, str] = {
    "ru": "Мафия выходит на охоту",
    "uk": "Мафія виходить на полювання",
    "ro": "Mafia iese la vânătoare",
    "en": "Mafia goes hunting",
}


class SpeechSynthesisError(InputError):
    """espeak-ng is missing or refused the text/voice."""


@dataclass(frozen=True)
class Word:
    """A synthesised word: samples at 16 kHz and where the voice starts and ends in them."""

    samples: np.ndarray
    onset: float
    offset: float


def voice_span(x: np.ndarray, rel_db: float = -35.0) -> tuple[float, float]:
    """Voice onset and offset (s) in a clean recording: first/last 5 ms frame within ``rel_db``
    of the loudest frame."""
    hop = SAMPLE_RATE // 200
    n = len(x) // hop
    if n == 0:
        return 0.0, 0.0
    energy = (x[: n * hop].reshape(n, hop).astype(np.float64) ** 2).mean(axis=1)
    loud = np.flatnonzero(energy > energy.max() * 10 ** (rel_db / 10))
    return float(loud[0] * hop / SAMPLE_RATE), float((loud[-1] + 1) * hop / SAMPLE_RATE)


def _espeak() -> str:
    exe = shutil.which("espeak-ng")
    if exe is None:
        raise SpeechSynthesisError("espeak-ng not found (install the Debian package espeak-ng)")
    return exe


@cache
def espeak_voices() -> frozenset[str]:
    """Voice names espeak-ng knows (language codes and voice file names, lower case)."""
    out = subprocess.run([_espeak(), "--voices"], capture_output=True, text=True, check=False)
    names: set[str] = set()
    for line in out.stdout.splitlines()[1:]:
        cols = line.split()
        if len(cols) >= 5:
            names.add(cols[1].lower())
            names.add(cols[4].split("/")[-1].lower())
    return frozenset(names)


@cache
def synthesize(text: str, voice: str, wpm: int = 175) -> Word:
    """``text`` spoken by espeak-ng, as 16 kHz mono float32 with its voice onset/offset."""
    exe = _espeak()
    if voice.lower() not in espeak_voices():
        raise SpeechSynthesisError(f"espeak-ng has no voice {voice!r}")
    with tempfile.TemporaryDirectory() as tmp:
        wav = Path(tmp) / "word.wav"
        proc = subprocess.run([exe, "-v", voice, "-s", str(int(wpm)), "-w", str(wav), text],
                              capture_output=True, text=True, check=False)
        if proc.returncode != 0 or not wav.exists():
            raise SpeechSynthesisError(
                f"espeak-ng voice {voice!r} failed on {text!r}: {proc.stderr.strip()[:200]}")
        samples = load_audio(wav).samples
    onset, offset = voice_span(samples)
    return Word(samples, onset, offset)


def number_word(seat: int, voice: str) -> str:
    words = NUMBER_WORDS.get(voice.split("-")[0])
    if words is None:
        raise InputError(f"no number words for voice {voice!r} (have {', '.join(NUMBER_WORDS)})")
    if not 1 <= seat <= len(words):
        raise InputError(f"seat {seat} out of range 1..{len(words)}")
    return words[seat - 1]


@dataclass
class SpokenCount:
    """A count the app says itself: the audio, and each word's exact voice onset/offset (s)."""

    samples: np.ndarray
    seats: list[int]
    onsets: list[float]
    offsets: list[float]


def speak_count(seats: Sequence[int], voice: str = "ru", wpm: int = 175,
                interval: float = 1.0, lead_in: float = 0.3) -> SpokenCount:
    """The numbers of ``seats`` said one every ``interval`` seconds (voice onset to voice onset).

    Play ``samples`` at 16 kHz from time T and the numbers' onsets are ``T + onsets``.
    """
    if interval <= 0:
        raise InputError(f"interval must be > 0 seconds, not {interval}")
    words = [synthesize(number_word(s, voice), voice, wpm) for s in seats]
    onsets, offsets, starts = [], [], []
    t = lead_in
    for w in words:
        starts.append(round((t - w.onset) * SAMPLE_RATE))
        onsets.append(t)
        offsets.append(t - w.onset + w.offset)
        t = max(t + interval, offsets[-1] + 0.15)
    total = max(s + len(w.samples) for s, w in zip(starts, words, strict=True))
    out = np.zeros(total, dtype=np.float32)
    for s, w in zip(starts, words, strict=True):
        out[max(0, s) : s + len(w.samples)] += w.samples[max(0, -s) :]
    return SpokenCount(out, list(seats), onsets, offsets)


@dataclass(frozen=True)
class SnappedTap:
    tap: float
    onset: float
    snapped: bool


def snap_taps(taps: Sequence[float], segments: Sequence[Segment]) -> list[SnappedTap]:
    """Each tap moved to the nearest voice onset in [tap - SNAP_BEFORE, tap + SNAP_AFTER].

    An onset is used at most once (taps in order); a tap with no onset in reach stays put.
    """
    onsets = np.array(sorted(s.start for s in segments), dtype=float)
    used = np.zeros(len(onsets), dtype=bool)
    out = []
    for tap in sorted(taps):
        ok = (onsets >= tap - SNAP_BEFORE) & (onsets <= tap + SNAP_AFTER) & ~used
        if ok.any():
            idx = np.flatnonzero(ok)
            best = idx[np.argmin(np.abs(onsets[idx] - tap))]
            used[best] = True
            out.append(SnappedTap(tap, float(onsets[best]), True))
        else:
            out.append(SnappedTap(tap, float(tap), False))
    return out
