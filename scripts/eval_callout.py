"""Evaluate the spoken-number timing (``mafiavision.audio``) on synthetic moderator counts.

Each count: espeak-ng (ru, uk, ro, en) at 130-240 wpm, every number word synthesised apart so its
voice onset is known, pauses of 0.3-1.2 s, half of them after a preamble ("Mafia goes hunting"),
30 % calling only some (living) seats; mixed clean, with table knocks, pink noise at 10 and 0 dB
(SNR over the words' active speech) and synthesised music (chords) at 5 dB. Reports, per
condition: per-seat onset error (median, p90), the share of seats within ±200 ms and of counts
with every seat right, the offline real-time factor (CPU time of the voice detector + aligner
on one thread, over the audio duration: robust to other jobs sharing the machine), and
for the live path (the same chunks pushed one by one) whether each emitted window was right and
how long after its word's end it was emitted (numbers 2..N; the first number comes out with the
second, reported apart).

The aligner's costs were tuned with ``--tune`` on seed 1; report on another seed::

    python scripts/eval_callout.py --seed 2 --counts 60
    python scripts/eval_callout.py --seed 1 --counts 60 --tune     # the cost grid on seed 1
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from callout_synth import CONDITIONS, Count, make_count, mix

from mafiavision.audio.callout import AlignParams, LiveCallout, align
from mafiavision.audio.sources import AudioClip
from mafiavision.audio.vad import CHUNK_SECONDS, chunks_of, make_detector
from mafiavision.machine import describe_machine

TOL = 0.2




def run_one(c: Count, x: np.ndarray, vad: str, params: AlignParams) -> dict:
    clip = AudioClip(x, 0.0)
    detector = make_detector(vad)  # type: ignore[arg-type]
    live = LiveCallout(c.seats, detector, params=params)
    emitted: dict[int, tuple[float, float]] = {}
    for chunk in chunks_of(clip):
        t0 = time.perf_counter()
        new = live.push(chunk)
        spent = time.perf_counter() - t0
        for w in new:
            k = c.seats.index(w.seat)
            emitted[k] = (w.onset, chunk.t + CHUNK_SECONDS + spent)
    # offline timing: the detector alone over the clip, then the aligner over its segments
    t0 = time.process_time()
    detector.reset()
    for chunk in chunks_of(clip):
        detector.score(chunk.samples)
    t_vad = time.process_time() - t0
    last = live.segmenter.flush()
    segments = live.segments + ([last] if last is not None else [])
    t0 = time.process_time()
    try:
        al = align(segments, len(c.seats), params)
        onsets = np.array(al.onsets)
    except ValueError:
        onsets = np.full(len(c.seats), np.inf)
    t_align = time.process_time() - t0
    truth = np.array(c.onsets)
    live_err = [emitted[k][0] - truth[k] if k in emitted else np.inf for k in range(len(truth))]
    latency = [(k, emitted[k][1] - c.offsets[k]) for k in emitted]
    return {"err": onsets - truth, "live_err": np.array(live_err), "latency": latency,
            "seconds": len(x) / 16000, "t_vad": t_vad, "t_align": t_align, "segments": segments}


def summarise(rows: list[dict]) -> dict:
    err = np.abs(np.concatenate([r["err"] for r in rows]))
    live = np.abs(np.concatenate([r["live_err"] for r in rows]))
    lat = np.array([x for r in rows for k, x in r["latency"] if k > 0])
    first = np.array([x for r in rows for k, x in r["latency"] if k == 0])
    audio = sum(r["seconds"] for r in rows)
    fin = err[np.isfinite(err)]
    return {
        "counts": len(rows), "seats": len(err),
        "within_200ms_pct": round(100 * float(np.mean(err <= TOL)), 2),
        "counts_all_right_pct": round(100 * float(np.mean(
            [np.all(np.abs(r["err"]) <= TOL) for r in rows])), 1),
        "median_ms": round(1000 * float(np.median(fin)), 1) if len(fin) else None,
        "p90_ms": round(1000 * float(np.percentile(fin, 90)), 1) if len(fin) else None,
        "rtf": round((sum(r["t_vad"] + r["t_align"] for r in rows)) / audio, 4),
        "align_ms_per_count": round(1000 * sum(r["t_align"] for r in rows) / len(rows), 1),
        "live_within_200ms_pct": round(100 * float(np.mean(live <= TOL)), 2),
        "live_latency_median_ms": round(1000 * float(np.median(lat)), 1) if len(lat) else None,
        "live_latency_p90_ms": round(1000 * float(np.percentile(lat, 90)), 1) if len(lat) else None,
        "live_within_150ms_of_word_end_pct": round(100 * float(np.mean(lat <= 0.15)), 1)
        if len(lat) else None,
        "live_first_number_latency_median_ms": round(1000 * float(np.median(first)), 1)
        if len(first) else None,
    }


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
    ap.add_argument("--tune", action="store_true", help="grid-search the aligner costs")
    ap.add_argument("--verbose", action="store_true", help="print every count with an error")
    ap.add_argument("--json", type=Path, help="write the summary here too")
    args = ap.parse_args()
    conditions = args.conditions.split(",")
    rng = np.random.default_rng(args.seed)
    params = AlignParams()
    per: dict[str, list[dict]] = {c: [] for c in conditions}
    cached: list[tuple[str, Count, list]] = []
    langs: dict[str, int] = {}
    t_start = time.time()
    for _ in range(args.counts):
        count = make_count(rng)
        langs[count.lang] = langs.get(count.lang, 0) + 1
        for cond in CONDITIONS:
            x = mix(count, cond, rng)  # always drawn, so every condition sees the same counts
            if cond in conditions:
                row = run_one(count, x, args.vad, params)
                if args.verbose and np.any(np.abs(row["err"]) > TOL):
                    print(f"miss {cond} {count.lang} {count.wpm}wpm preamble={count.preamble} "
                          f"err={np.round(row['err'], 2).tolist()} "
                          f"segments={[f'{s.start:.2f}-{s.end:.2f}' for s in row['segments']]} "
                          f"truth={np.round(count.onsets, 2).tolist()}")
                per[cond].append(row)
                cached.append((cond, count, row["segments"]))
    print(f"# eval_callout seed={args.seed} counts={args.counts} vad={args.vad} "
          f"languages={langs} wall={time.time() - t_start:.0f}s")
    print(f"# machine: {describe_machine()}")
    summary = {cond: summarise(rows) for cond, rows in per.items()}
    keys = list(next(iter(summary.values())).keys())
    print("| condition | " + " | ".join(keys) + " |")
    print("|---" * (len(keys) + 1) + "|")
    for cond, s in summary.items():
        print(f"| {cond} | " + " | ".join(str(s[k]) for k in keys) + " |")
    if args.json:
        args.json.write_text(json.dumps({"seed": args.seed, "counts": args.counts,
                                         "vad": args.vad, "summary": summary}, indent=2))
    if args.tune:
        tune(cached, params)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
