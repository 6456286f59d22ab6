"""Benchmark of the live night: frames per second during a hunt, the verdict card's latency,
and every card of the sample clips against the ground truth.

1. **fps** (each sample clip with a hunt): the live pipeline (decode → per-seat tracking with
   the hunters active → shot detection → evidence crops) over the whole clip as fast as it
   goes (not paced), timed on the wall clock; plus the median and p95 time per frame.
2. **live night** (every sample clip with orders, hunts or checks): the clip played as a live
   camera (paced at real time, its audio track as the microphone) through the live session,
   the game brought to the clip's first step by the rules engine
   (:func:`mafiavision.night.clips.game_at_clip`). Each card is graded against the truth —
   *correct* (equals it, asks nothing), *asked* (sent to the moderator as uncertain; said
   when its proposal was wrong), *wrong* (differs and asks nothing: a silent error) or
   *missing* — then answered with the truth, as the moderator would, so the session moves
   on to the clip's next step (Triad's second hunt, the next leader's check). For hunts: the
   time from the count's end (the last number window closing, on the audio clock) to the card,
   and the members read as in the truth. The tally is printed per clip and over all clips.

Prints the figures with the machine and the clips they ran on. Usage::

    python scripts/bench_live.py [--clips sample_videos] [--only NAME] [--model lite|full|lite+full]
        [--fps-only | --night-only]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mafiavision.machine import describe_machine  # noqa: E402
from mafiavision.vision.pairing import TRACKER_MODELS  # noqa: E402


def clips_with(folder: Path, only: str | None, kind: str | None = None) -> list[Path]:
    """The clips whose truth has ``kind`` (hunts), or any camera step (orders, hunts, checks)."""
    clips = []
    for truth in sorted(folder.glob("*.truth.json")):
        data = json.loads(truth.read_text())
        has = data.get(kind) if kind else any(data.get(k) for k in ("orders", "hunts", "checks"))
        if has and (only is None or only in truth.name):
            clips.append(truth.with_name(truth.name.replace(".truth.json", ".mp4")))
    return clips


def bench_fps(clip: Path, model: str, workers: int) -> dict[str, float]:
    from mafiavision.night.capture import Capture
    from mafiavision.night.live import build_pipeline

    truth = json.loads(clip.with_name(clip.stem + ".truth.json").read_text())
    seats = truth["hunts"][0]["members"]
    table = clip.with_name(clip.stem + ".table.json")
    pipeline = build_pipeline(table, clip, realtime=False, model=model, reopen=False,
                              workers=workers)
    pipeline.set_active(seats)
    pipeline.attach(Capture(seats=tuple(seats)))
    times: list[float] = []
    source = pipeline._open_frames()
    t0 = time.perf_counter()
    for frame in source:
        a = time.perf_counter()
        pipeline._step(frame, paced=False)
        times.append(time.perf_counter() - a)
    total = time.perf_counter() - t0
    for tracker in pipeline._trackers:
        tracker.close()
    times.sort()
    return {"frames": len(times), "fps": len(times) / total,
            "median_ms": 1000 * statistics.median(times),
            "p95_ms": 1000 * times[int(0.95 * (len(times) - 1))]}


def bench_night(clip: Path, model: str, workers: int) -> dict[str, object]:
    """The clip played as a live camera through the live session, the game brought to the
    clip's first step; each card graded against the truth, then answered with the truth."""
    from mafiavision.night.clips import (
        Grade,
        answer,
        expected_steps,
        game_at_clip,
        grade,
        members_right,
        proposal_right,
    )
    from mafiavision.night.live import build_listener, build_pipeline
    from mafiavision.night.session import LiveSession
    from mafiavision.samples.truth import ClipTruth
    from mafiavision.ui.commands import COMMAND

    truth = ClipTruth.load(clip.with_name(clip.stem + ".truth.json"))
    lines: list[str] = []
    grades: list[Grade] = []
    latencies: list[float] = []
    asked_wrong = 0  # asked, with a wrong proposal
    with tempfile.TemporaryDirectory() as tmp:
        game = game_at_clip(Path(tmp) / "game.jsonl", truth)
        table = clip.with_name(clip.stem + ".table.json")
        pipeline = build_pipeline(table, clip, realtime=True, model=model, reopen=False,
                                  workers=workers)
        session = LiveSession(game, pipeline=pipeline,
                              listener=build_listener(clip, None, pipeline),
                              source_name=str(clip))
        session.start()
        # A video file keeps every frame: on a busy machine the card comes late, not never.
        deadline = time.monotonic() + 4 * truth.video.duration + 30
        steps = expected_steps(truth)
        for expected in steps:
            card = None
            while time.monotonic() < deadline and card is None:
                time.sleep(0.05)
                card = session.view()["card"]
            g = grade(card, expected)
            grades.append(g)
            if card is None:
                lines.append(f"{expected.label}: NO CARD")
                break
            note = ""
            if expected.kind == "hunt":
                right, n = members_right(card, expected)
                latency = session.card_latency[-1] if session.card_latency else float("nan")
                latencies.append(latency)
                note = (f"; {right}/{n} members as in the truth; card {latency:.2f} s after "
                        "the count")
            proposal = "right" if proposal_right(card, expected) else "WRONG"
            asked_wrong += g is Grade.ASKED and proposal == "WRONG"
            asks = f" — asks: {'; '.join(card['questions'])}" if card["questions"] else ""
            lines.append(f"{expected.label}: card '{card['summary']}' → {g.value.upper()} "
                         f"(proposal {proposal}){note}{asks}")
            if g is Grade.MISSING:
                break
            session.apply(COMMAND.validate_python(answer(card, expected)))
        grades += [Grade.MISSING] * (len(steps) - len(grades))  # never reached
        status = pipeline.status
        lines.append(f"live: {status.frames} frames processed, {status.dropped} skipped, "
                     f"last second {status.fps:.0f} fps")
        session.stop()
    return {"grades": grades, "lines": lines, "latencies": latencies,
            "asked_wrong": asked_wrong}


def tally(grades: list[object], asked_wrong: int) -> str:
    from collections import Counter

    from mafiavision.night.clips import Grade

    n = Counter(grades)
    return (f"{n[Grade.CORRECT]} correct / {n[Grade.ASKED]} asked "
            f"({asked_wrong} of them with a wrong proposal) / {n[Grade.WRONG]} wrong / "
            f"{n[Grade.MISSING]} missing, of {len(grades)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clips", type=Path, default=ROOT / "sample_videos")
    parser.add_argument("--only", default=None, help="only clips whose name contains this")
    parser.add_argument("--model", choices=TRACKER_MODELS, default="lite")
    parser.add_argument("--workers", type=int, choices=(1, 2), default=1)
    parser.add_argument("--fps-only", action="store_true", help="skip the real-time runs")
    parser.add_argument("--night-only", action="store_true", help="skip the unpaced fps runs")
    args = parser.parse_args()
    print(f"machine: {describe_machine()}; model {args.model}; workers {args.workers}")
    if not args.night_only:
        print("\nunpaced pipeline during the (first) hunt of each clip:")
        for clip in clips_with(args.clips, args.only, "hunts"):
            truth = json.loads(clip.with_name(clip.stem + ".truth.json").read_text())
            v = truth["video"]
            f = bench_fps(clip, args.model, args.workers)
            print(f"  {clip.stem}: {v['width']}x{v['height']} @ {v['fps']} fps, hunters "
                  f"{truth['hunts'][0]['members']}: {f['frames']} frames, {f['fps']:.1f} fps, "
                  f"median {f['median_ms']:.1f} ms/frame, p95 {f['p95_ms']:.1f} ms")
    if args.fps_only:
        return 0
    print("\nlive night (real time) — each card against the ground truth:")
    every: list[object] = []
    asked_wrong = 0
    latencies: list[float] = []
    for clip in clips_with(args.clips, args.only):
        r = bench_night(clip, args.model, args.workers)
        print(f"\n{clip.stem}: {tally(r['grades'], r['asked_wrong'])}")
        for line in r["lines"]:
            print(f"  {line}")
        every += r["grades"]
        asked_wrong += r["asked_wrong"]
        latencies += r["latencies"]
    print(f"\nall clips: {tally(every, asked_wrong)}")
    if latencies:
        print(f"hunt cards after the count's end: {min(latencies):.2f}–{max(latencies):.2f} s "
              f"(median {statistics.median(latencies):.2f} s, {len(latencies)} hunts)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
