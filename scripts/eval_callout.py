"""Evaluate the spoken-number timing (``mafiavision.audio``) on synthetic moderator counts.

Each count: espeak-ng (ru, uk, ro, en) at 130-240 wpm, every number word synthesised apart so its
voice onset is known, pauses of 0.3-1.2 s, half of them after a preamble ("Mafia goes hunting"),
30 % calling only some (living) seats; mixed clean, with table knocks, pink noise at 10 and 0 dB
(SNR over the words' active speech) and synthesised music (chords) at 5 dB. Reports, per
condition: per-seat onset error (median, p90), the share of seats within ±200 ms and of counts
with every seat right, and the offline real-time factor (CPU time of the voice detector + aligner
on one thread, over the audio duration: robust to other jobs sharing the machine).

``--live`` also writes each mixture to a WAV file and streams it through the live path
(``sources.stream_file`` → 32 ms chunks → ``LiveCallout.push``, what ``mafiavision callout
--live`` and a microphone use), and reports per word the *release latency*: the time its window is
first released (audio time at the end of that chunk plus the wall time the push took) minus the
word's true end, median / p90 / max, for the first number and for numbers 2..N; the share
released within 150 ms; whether the window was right (±200 ms) when released and when confirmed;
the latency until it was right for good (a wrong release revised later counts from the
revision); and how many releases were revised or withdrawn.

The aligner's costs were tuned with ``--tune`` on seed 1 and checked on seeds 2 and 3; report on
other seeds (4 and 5 are held out)::

    python scripts/eval_callout.py --seed 4 --counts 100 --live
    python scripts/eval_callout.py --seed 1 --counts 60 --tune     # the cost grid on seed 1
    python scripts/eval_callout.py --seed 3 --counts 60 --preamble-pause 0.4   # stress: every
                                   # count after a preamble, 0.4 s pause (noise fills it)
    python scripts/eval_callout.py --seed 6 --counts 100 --baseline  # vs the previous aligner
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import tempfile
import time
import wave
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from callout_synth import CONDITIONS, Count, make_count, mix

from mafiavision.audio.callout import AlignParams, LiveCallout, align
from mafiavision.audio.sources import SAMPLE_RATE, AudioClip, stream_file
from mafiavision.audio.vad import (
    CHUNK_SECONDS,
    Segment,
    chunks_of,
    detect_segments,
    make_detector,
)
from mafiavision.machine import describe_machine

TOL = 0.2
LIVE_TARGET = 0.15


def _onsets(segments: list[Segment], n: int, params: AlignParams) -> np.ndarray:
    try:
        return np.array(align(segments, n, params).onsets)
    except ValueError:
        return np.full(n, np.inf)


def run_offline(c: Count, x: np.ndarray, vad: str, params: AlignParams,
                baseline: bool = False) -> dict:
    """The detector alone over the clip, then the aligner over its segments (CPU time each).
    ``baseline``: also the previous session's aligner (no rises, no blip cost) on the same
    segments."""
    detector = make_detector(vad)  # type: ignore[arg-type]
    t0 = time.process_time()
    segments = detect_segments(chunks_of(AudioClip(x, 0.0)), detector)
    t_vad = time.process_time() - t0
    t0 = time.process_time()
    onsets = _onsets(segments, len(c.seats), params)
    t_align = time.process_time() - t0
    row = {"err": onsets - np.array(c.onsets), "seconds": len(x) / SAMPLE_RATE,
           "t_vad": t_vad, "t_align": t_align, "segments": segments}
    if baseline:
        plain = [replace(s, rises=()) for s in segments]
        row["err_baseline"] = (_onsets(plain, len(c.seats), replace(params, blip=0.0))
                               - np.array(c.onsets))
    return row


def write_wav(path: Path, x: np.ndarray) -> Path:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SAMPLE_RATE)
        w.writeframes((np.clip(x, -1, 1) * 32767).astype("<i2").tobytes())
    return path


def run_live(c: Count, x: np.ndarray, vad: str, params: AlignParams, wav: Path) -> dict:
    """Stream the mixture from a WAV file through ``LiveCallout``; per word: when it was first
    released, whether right then, when it became right for good, and its final live window."""
    live = LiveCallout(c.seats, make_detector(vad), params=params)  # type: ignore[arg-type]
    truth = np.array(c.onsets)
    released: dict[int, tuple[float, float]] = {}  # k -> (known at, first onset)
    right_since: dict[int, float | None] = {}
    changes = {"revised": 0, "withdrawn": 0}
    for chunk in stream_file(write_wav(wav, x)):
        t0 = time.perf_counter()
        out = live.push(chunk)
        known = chunk.t + CHUNK_SECONDS + time.perf_counter() - t0
        for change in out:
            k = c.seats.index(change.window.seat)
            if change.status in changes:
                changes[change.status] += 1
            ok = change.status != "withdrawn" and abs(change.window.onset - truth[k]) <= TOL
            released.setdefault(k, (known, change.window.onset))
            if not ok:
                right_since[k] = None
            elif right_since.get(k) is None:
                right_since[k] = known
    final = {live.seats.index(w.seat): w.onset for w in live.windows}
    off = np.array(c.offsets)
    return {
        "latency": [(k, released[k][0] - off[k]) if k in released else (k, np.inf)
                    for k in range(len(truth))],
        "right_latency": [(k, (right_since.get(k) or np.inf) - off[k]) for k in range(len(truth))],
        "release_err": np.array([released[k][1] - truth[k] if k in released else np.inf
                                 for k in range(len(truth))]),
        "final_err": np.array([final.get(k, np.inf) - truth[k] for k in range(len(truth))]),
        "releases": len(released), **changes,
    }


def _ms(values: np.ndarray, q: float) -> float | None:
    fin = values[np.isfinite(values)]
    return round(1000 * float(np.percentile(fin, q)), 1) if len(fin) else None


def summarise(rows: list[dict]) -> dict:
    err = np.abs(np.concatenate([r["err"] for r in rows]))
    audio = sum(r["seconds"] for r in rows)
    return {
        "counts": len(rows), "seats": len(err),
        "within_200ms_pct": round(100 * float(np.mean(err <= TOL)), 2),
        "counts_all_right_pct": round(100 * float(np.mean(
            [np.all(np.abs(r["err"]) <= TOL) for r in rows])), 1),
        "median_ms": _ms(err, 50), "p90_ms": _ms(err, 90),
        "rtf": round((sum(r["t_vad"] + r["t_align"] for r in rows)) / audio, 4),
        "align_ms_per_count": round(1000 * sum(r["t_align"] for r in rows) / len(rows), 1),
    } | ({"baseline_within_200ms_pct": round(100 * float(np.mean(np.abs(np.concatenate(
        [r["err_baseline"] for r in rows])) <= TOL)), 2)} if "err_baseline" in rows[0] else {})


def summarise_live(rows: list[dict]) -> dict:
    def lat(key: str, first: bool) -> np.ndarray:
        return np.array([x for r in rows for k, x in r[key] if (k == 0) == first])

    out: dict[str, float | int | None] = {}
    for name, first in (("first", True), ("2..N", False)):
        x = lat("latency", first)
        right = lat("right_latency", first)
        out |= {f"{name}: release median_ms": _ms(x, 50), f"{name}: p90_ms": _ms(x, 90),
                f"{name}: max_ms": _ms(x, 100),
                f"{name}: released <=150ms %": round(100 * float(np.mean(x <= LIVE_TARGET)), 1),
                f"{name}: right for good <=150ms %":
                    round(100 * float(np.mean(right <= LIVE_TARGET)), 1)}
    release = np.abs(np.concatenate([r["release_err"] for r in rows]))
    final = np.abs(np.concatenate([r["final_err"] for r in rows]))
    out |= {"right when released %": round(100 * float(np.mean(release <= TOL)), 2),
            "final live within 200ms %": round(100 * float(np.mean(final <= TOL)), 2),
            "revised per 100 releases": round(100 * sum(r["revised"] for r in rows)
                                              / max(1, sum(r["releases"] for r in rows)), 1),
            "withdrawn": sum(r["withdrawn"] for r in rows)}
    return out


def print_table(summary: dict[str, dict]) -> None:
    keys = list(next(iter(summary.values())).keys())
    print("| condition | " + " | ".join(keys) + " |")
    print("|---" * (len(keys) + 1) + "|")
    for cond, s in summary.items():
        print(f"| {cond} | " + " | ".join(str(s[k]) for k in keys) + " |")


def tune(data: list[tuple[str, Count, list]], base: AlignParams) -> None:
    """Grid over the main costs on cached segments; prints the best settings."""
    def score(p: AlignParams) -> dict[str, float]:
        res: dict[str, list[np.ndarray]] = {}
        for cond, c, segs in data:
            try:
                err = np.array(align(segs, len(c.seats), p).onsets) - np.array(c.onsets)
            except ValueError:
                err = np.full(len(c.seats), np.inf)
            res.setdefault(cond, []).append(err)
        return {k: round(100 * float(np.mean(np.abs(np.concatenate(v)) <= TOL)), 1)
                for k, v in res.items()}
    rows = []
    for wr, mi, mis, ws, co in itertools.product(
            (4, 8, 16, 24), (1.5, 2.5), (0.5, 0.8, 1.2), (0.65, 0.8), (0.3, 0.6)):
        p = replace(base, w_rhythm=wr, miss=mi, miss_in_speech=mis, weak_score=ws,
                    continuation=co)
        r = score(p)
        total = r.get("pink0", 0) + r.get("music", 0) + 3 * sum(
            r.get(k, 0) for k in ("clean", "knocks", "pink10"))
        rows.append((total, dict(w_rhythm=wr, miss=mi, miss_in_speech=mis, weak_score=ws,
                                 continuation=co), r))
    rows.sort(key=lambda r: -r[0])
    for total, kw, r in rows[:8]:
        print(f"{total:.1f} {kw} {r}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--counts", type=int, default=60)
    ap.add_argument("--vad", choices=("silero", "energy"), default="silero")
    ap.add_argument("--conditions", default=",".join(CONDITIONS))
    ap.add_argument("--live", action="store_true",
                    help="also stream every mixture through the live path (release latency)")
    ap.add_argument("--preamble-pause", type=float,
                    help="stress: every count after a preamble, then this pause (s)")
    ap.add_argument("--baseline", action="store_true",
                    help="also report the previous aligner (no rises, no blip cost)")
    ap.add_argument("--tune", action="store_true", help="grid-search the aligner costs")
    ap.add_argument("--verbose", action="store_true", help="print every count with an error")
    ap.add_argument("--json", type=Path, help="write the summary here too")
    args = ap.parse_args()
    conditions = args.conditions.split(",")
    rng = np.random.default_rng(args.seed)
    params = AlignParams()
    per: dict[str, list[dict]] = {c: [] for c in conditions}
    per_live: dict[str, list[dict]] = {c: [] for c in conditions}
    cached: list[tuple[str, Count, list]] = []
    langs: dict[str, int] = {}
    t_start = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.counts):
            count = make_count(rng, preamble_pause=args.preamble_pause)
            langs[count.lang] = langs.get(count.lang, 0) + 1
            for cond in CONDITIONS:
                x = mix(count, cond, rng)  # always drawn, so every condition sees the same counts
                if cond not in conditions:
                    continue
                row = run_offline(count, x, args.vad, params, args.baseline)
                if args.verbose and np.any(np.abs(row["err"]) > TOL):
                    print(f"miss {cond} {count.lang} {count.wpm}wpm preamble={count.preamble} "
                          f"err={np.round(row['err'], 2).tolist()} segments="
                          f"{[f'{s.start:.2f}-{s.end:.2f}' for s in row['segments']]} "
                          f"truth={np.round(count.onsets, 2).tolist()}")
                per[cond].append(row)
                cached.append((cond, count, row["segments"]))
                if args.live:
                    per_live[cond].append(
                        run_live(count, x, args.vad, params, Path(tmp) / "count.wav"))
    print(f"# eval_callout seed={args.seed} counts={args.counts} vad={args.vad} "
          f"preamble_pause={args.preamble_pause} languages={langs} "
          f"wall={time.time() - t_start:.0f}s")
    print(f"# machine: {describe_machine()}")
    summary = {cond: summarise(rows) for cond, rows in per.items()}
    print_table(summary)
    result: dict = {"seed": args.seed, "counts": args.counts, "vad": args.vad,
                    "preamble_pause": args.preamble_pause, "summary": summary}
    if args.live:
        live = {cond: summarise_live(rows) for cond, rows in per_live.items()}
        print("\n# live: LiveCallout fed from a WAV file by stream_file, 32 ms chunks; "
              "latency = release time - true word end")
        print_table(live)
        result["live"] = live
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    if args.tune:
        tune(cached, params)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
