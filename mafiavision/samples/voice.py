"""The moderator's voice: espeak-ng words placed on the clip's audio clock.

Each word is synthesised on its own (``espeak-ng -w``), its leading and trailing silence trimmed,
and placed at a chosen onset, so every word's onset and offset in the track is known exactly.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import wave
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from mafiavision.errors import MissingInputError

SAMPLE_RATE = 22050  # espeak-ng's native rate

NUMBERS: dict[str, tuple[str, ...]] = {
    "ru": ("один", "два", "три", "четыре", "пять", "шесть", "семь", "восемь", "девять", "десять",
           "одиннадцать", "двенадцать"),
    "en": ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
           "eleven", "twelve"),
}

#: The moderator's calls, by key and language.
CALLS: dict[str, dict[str, str]] = {
    "night": {"ru": "Город засыпает", "en": "The town falls asleep"},
    "hunt_mafia": {"ru": "Мафия выходит на охоту", "en": "Mafia goes hunting"},
    "hunt_clan": {"ru": "Клан выходит на охоту", "en": "Clan goes hunting"},
    "hunt_yakuza": {"ru": "Якудза выходит на охоту", "en": "Yakuza goes hunting"},
    "wake_mafia": {"ru": "Мафия просыпается", "en": "Mafia wakes up"},
    "wake_sheriff": {"ru": "Шериф просыпается", "en": "The Sheriff wakes up"},
    "wake_don": {"ru": "Дон просыпается", "en": "The Don wakes up"},
    "check_don": {"ru": "Дон ищет шерифа", "en": "The Don looks for the Sheriff"},
    "check_sheriff": {"ru": "Шериф ищет мафию", "en": "The Sheriff looks for the Mafia"},
    "check_commissar": {"ru": "Комиссар ищет мафию", "en": "The Commissar looks for the Mafia"},
    "check_boss": {"ru": "Босс ищет комиссара", "en": "The Boss looks for the Commissar"},
    "check_kambu": {"ru": "Камбу ищет комиссара", "en": "The Kambu looks for the Commissar"},
    "sleep": {"ru": "Засыпает", "en": "Sleeps"},
}


@dataclass(frozen=True)
class Voice:
    """An espeak-ng voice (``-v``), speed in words per minute (``-s``) and pitch 0..99 (``-p``)."""

    name: str
    rate: int = 160
    pitch: int = 50


def _espeak() -> str:
    exe = shutil.which("espeak-ng")
    if exe is None:
        raise MissingInputError("espeak-ng not found: install the Debian package espeak-ng")
    return exe


@cache
def synthesize(word: str, voice: Voice) -> np.ndarray:
    """One word as float32 samples at :data:`SAMPLE_RATE`, silence trimmed from both ends."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "w.wav"
        subprocess.run([_espeak(), "-v", voice.name, "-s", str(voice.rate), "-p",
                        str(voice.pitch), "-w", str(path), word], check=True,
                       capture_output=True)
        with wave.open(str(path)) as w:
            if w.getframerate() != SAMPLE_RATE or w.getsampwidth() != 2:
                raise RuntimeError(f"espeak-ng wrote {w.getframerate()} Hz, "
                                   f"{8 * w.getsampwidth()} bit; expected {SAMPLE_RATE} Hz 16 bit")
            pcm = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2")
    samples = pcm.astype(np.float32) / 32768.0
    return trim(samples)


def trim(samples: np.ndarray, threshold: float = 0.01) -> np.ndarray:
    """Cut leading and trailing samples quieter than ``threshold`` (keeps 5 ms margins)."""
    loud = np.flatnonzero(np.abs(samples) > threshold)
    if loud.size == 0:
        raise RuntimeError("espeak-ng produced silence")
    margin = int(0.005 * SAMPLE_RATE)
    return samples[max(loud[0] - margin, 0): loud[-1] + margin + 1]


def duration(word: str, voice: Voice) -> float:
    return len(synthesize(word, voice)) / SAMPLE_RATE


class Track:
    """A mono float32 track of ``seconds`` length onto which words are mixed."""

    def __init__(self, seconds: float) -> None:
        self.samples = np.zeros(int(np.ceil(seconds * SAMPLE_RATE)), dtype=np.float32)

    def place(self, word: str, voice: Voice, onset: float, gain: float = 0.8) -> float:
        """Mix ``word`` starting at ``onset`` seconds; returns its offset (end) in seconds.

        The onset is rounded to the sample grid; callers must use the returned offset and
        :func:`sample_time` for the truth so it matches the samples exactly."""
        audio = synthesize(word, voice)
        start = round(onset * SAMPLE_RATE)
        end = start + len(audio)
        if start < 0 or end > len(self.samples):
            raise ValueError(f"word {word!r} at {onset:.2f}s does not fit the {self.seconds:.1f}s"
                             " track")
        self.samples[start:end] += gain * audio
        return end / SAMPLE_RATE

    @property
    def seconds(self) -> float:
        return len(self.samples) / SAMPLE_RATE

    def add_room_tone(self, rng: np.random.Generator, level: float) -> None:
        """Low pink-ish background noise (a quiet room), ``level`` = RMS."""
        white = rng.standard_normal(len(self.samples)).astype(np.float32)
        kernel = np.exp(-np.arange(64) / 12.0).astype(np.float32)
        pink = np.convolve(white, kernel / kernel.sum(), mode="same")
        pink *= level / (np.sqrt(np.mean(pink**2)) + 1e-9)
        self.samples += pink


def sample_time(t: float) -> float:
    """``t`` rounded to the audio sample grid (what :meth:`Track.place` uses)."""
    return round(t * SAMPLE_RATE) / SAMPLE_RATE
