"""Synthetic moderator counts for scripts/eval_callout.py: espeak-ng words said apart (so each
word's voice onset is known), laid out with pauses, then mixed with pink noise, music or knocks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from mafiavision.audio.cues import PREAMBLES, number_word, synthesize
from mafiavision.audio.sources import SAMPLE_RATE

LANGS = ("ru", "uk", "ro", "en")
CONDITIONS = ("clean", "knocks", "pink10", "pink0", "music")


@dataclass
class Count:
    lang: str
    wpm: int
    seats: list[int]
    preamble: bool
    onsets: list[float]
    offsets: list[float]
    speech: np.ndarray
    meta: dict[str, float] = field(default_factory=dict)


def make_count(rng: np.random.Generator, n_seats: int = 10,
               preamble_pause: float | None = None) -> Count:
    """A random count; ``preamble_pause`` (a stress set) puts a preamble before every count,
    followed by that pause."""
    lang = str(rng.choice(LANGS))
    wpm = int(rng.integers(130, 241))
    if rng.random() < 0.3:  # only the living seats are called
        alive = int(rng.integers(4, n_seats))
        seats = sorted(int(s) for s in rng.choice(np.arange(1, n_seats + 1), alive, replace=False))
    else:
        seats = list(range(1, n_seats + 1))
    base_pause = float(rng.uniform(0.3, 1.2))
    preamble = bool(rng.random() < 0.5) or preamble_pause is not None
    pieces: list[tuple[float, np.ndarray]] = []
    t = float(rng.uniform(0.3, 1.0))
    if preamble:
        w = synthesize(PREAMBLES[lang], lang, wpm)
        pieces.append((t - w.onset, w.samples))
        pause = float(rng.uniform(0.4, 1.2))
        t += w.offset - w.onset + (pause if preamble_pause is None else preamble_pause)
    onsets, offsets = [], []
    for seat in seats:
        w = synthesize(number_word(seat, lang), lang, wpm)
        pieces.append((t - w.onset, w.samples))
        onsets.append(t)
        offsets.append(t + w.offset - w.onset)
        t = offsets[-1] + float(np.clip(base_pause * rng.uniform(0.75, 1.25), 0.3, 1.2))
    total = t + float(rng.uniform(0.3, 1.0))
    out = np.zeros(int(total * SAMPLE_RATE) + SAMPLE_RATE, dtype=np.float32)
    for start, x in pieces:
        i = round(start * SAMPLE_RATE)
        out[max(0, i) : i + len(x)] += x[max(0, -i) :]
    return Count(lang, wpm, seats, preamble, onsets, offsets,
                 out[: int(total * SAMPLE_RATE)], {"pause": base_pause})


def speech_power(c: Count) -> float:
    parts = [c.speech[int(a * SAMPLE_RATE) : int(b * SAMPLE_RATE)]
             for a, b in zip(c.onsets, c.offsets, strict=True)]
    return float(np.mean(np.concatenate(parts).astype(np.float64) ** 2))


def pink_noise(rng: np.random.Generator, n: int) -> np.ndarray:
    spec = np.fft.rfft(rng.standard_normal(n))
    f = np.arange(len(spec), dtype=float)
    f[0] = 1.0
    x = np.fft.irfft(spec / np.sqrt(f), n)
    return (x / x.std()).astype(np.float32)


def music(rng: np.random.Generator, n: int) -> np.ndarray:
    """Chords (3-4 notes with harmonics) changing every 0.4-1.6 s, soft attacks, plus a pulse."""
    out = np.zeros(n, dtype=np.float64)
    i = 0
    while i < n:
        length = int(rng.uniform(0.4, 1.6) * SAMPLE_RATE)
        t = np.arange(length) / SAMPLE_RATE
        root = 110.0 * 2 ** (rng.integers(0, 24) / 12)
        env = np.minimum(1.0, t / 0.03) * np.exp(-t / rng.uniform(0.5, 2.0))
        chord = np.zeros(length)
        for step in (0, int(rng.choice([3, 4])), 7, int(rng.choice([10, 11, 12]))):
            f0 = root * 2 ** (step / 12)
            for h in range(1, 5):
                chord += np.sin(2 * np.pi * f0 * h * t + rng.uniform(0, 6.3)) / h
        seg = (chord * env)[: n - i]
        out[i : i + len(seg)] += seg
        i += length
    return (out / out.std()).astype(np.float32)


def knock(rng: np.random.Generator) -> np.ndarray:
    """A knock on a table: a damped low resonance plus a short click of noise."""
    n = int(rng.uniform(0.04, 0.12) * SAMPLE_RATE)
    t = np.arange(n) / SAMPLE_RATE
    tau = rng.uniform(0.01, 0.03)
    x = np.sin(2 * np.pi * rng.uniform(90, 400) * t) * np.exp(-t / tau)
    x += 0.5 * rng.standard_normal(n) * np.exp(-t / (tau / 3))
    return (x / np.abs(x).max()).astype(np.float32)


def mix(c: Count, condition: str, rng: np.random.Generator) -> np.ndarray:
    x = c.speech.copy()
    p = speech_power(c)
    if condition == "clean":
        return x
    if condition == "knocks":
        peak = float(np.abs(x).max())
        for _ in range(int(rng.integers(2, 7))):
            k = knock(rng) * peak * float(rng.uniform(0.5, 1.5))
            i = int(rng.integers(0, len(x) - len(k)))
            x[i : i + len(k)] += k
        return x
    if condition.startswith("pink"):
        snr = float(condition[4:])
        noise = pink_noise(rng, len(x))
    elif condition == "music":
        snr = 5.0
        noise = music(rng, len(x))
    else:
        raise ValueError(condition)
    return (x + noise * np.sqrt(p / 10 ** (snr / 10))).astype(np.float32)
