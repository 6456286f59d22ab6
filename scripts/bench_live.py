"""Benchmark of the live night: frames per second during a hunt, and the verdict card's latency.

For each sample clip with a hunt (sample_videos/*.truth.json):

1. **fps**: the live pipeline (decode → per-seat tracking with the hunters active → shot
   detection → evidence crops) over the whole clip as fast as it goes (not paced), timed on the
   wall clock; plus the median and p95 time per frame.
2. **latency**: the clip played as a live camera (paced at real time, its audio track as the
   microphone) through the live session, brought to the clip's hunt with the rules engine; the
   time from the count's end (the last number window closing, on the audio clock) to the
   verdict card, and whether the card's verdict equals the ground truth.
3. **checks**: for clips with leaders' checks, the seat each check card puts to the moderator
   against the seat shown in the ground truth.

Prints the figures with the machine and the clips they ran on. Usage::

    python scripts/bench_live.py [--clips sample_videos] [--only NAME] [--model lite]
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


def hunt_clips(folder: Path, only: str | None, kind: str = "hunts") -> list[Path]:
    clips = []
    for truth in sorted(folder.glob("*.truth.json")):
        data = json.loads(truth.read_text())
        if data.get(kind) and (only is None or only in truth.name):
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


def bench_latency(clip: Path, model: str, workers: int) -> dict[str, object]:
    from mafiavision.night.live import build_listener, build_pipeline
    from mafiavision.night.session import LiveSession
    from mafiavision.rules import load_rules
    from mafiavision.rules.record import start_game
    from mafiavision.rules.script import Script

    truth = json.loads(clip.with_name(clip.stem + ".truth.json").read_text())
    hunt = truth["hunts"][0]
    with tempfile.TemporaryDirectory() as tmp:
        game = start_game(Path(tmp) / "game.jsonl", load_rules(truth["rules"]))
        play = Script(game)
        play.deal([truth["roles"][str(s)] for s in range(1, truth["seats"] + 1)])
        play.until(lambda s: s.action == "hunt")  # night 1's first hunt: the clip's
        table = clip.with_name(clip.stem + ".table.json")
        pipeline = build_pipeline(table, clip, realtime=True, model=model, reopen=False,
                                  workers=workers)
        listener = build_listener(clip, None, pipeline)
        session = LiveSession(game, pipeline=pipeline, listener=listener, source_name=str(clip))
        session.start()
        # A video file keeps every frame: on a busy machine the card comes late, not never.
        deadline = time.monotonic() + 4 * truth["video"]["duration"] + 30
        card = None
        while time.monotonic() < deadline and card is None:
            time.sleep(0.05)
            card = session.view()["card"]
        fps = pipeline.status.fps
        dropped = pipeline.status.dropped
        processed = pipeline.status.frames
        session.stop()
    if card is None:
        return {"card": None}
    expected = hunt["target"] if hunt["verdict"] == "hit" else None
    found = {f["seat"]: (f["observation"], f["target"]) for f in card["findings"]}
    members_right = sum(found.get(o["seat"]) == (o["kind"], o["number"])
                        for o in hunt["observations"])
    return {"latency_s": session.card_latency[-1] if session.card_latency else None,
            "members_right": members_right, "members": len(hunt["observations"]),
            "verdict": card["summary"], "asks": bool(card["questions"]),
            "equals_truth": card["hit"] == expected, "live_fps": fps,
            "dropped": dropped, "processed": processed}


def bench_checks(clip: Path, model: str) -> list[str]:
    """The clip's checks through the live session (night 1's hunt pushed quietly first): for
    each, the card's seat against the truth; the moderator's answer is the truth's."""
    from mafiavision.night.live import build_listener, build_pipeline
    from mafiavision.night.session import LiveSession
    from mafiavision.rules import load_rules
    from mafiavision.rules.record import start_game
    from mafiavision.rules.script import Script, quiet_action
    from mafiavision.ui.commands import COMMAND

    truth = json.loads(clip.with_name(clip.stem + ".truth.json").read_text())
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        game = start_game(Path(tmp) / "game.jsonl", load_rules(truth["rules"]))
        play = Script(game)
        play.deal([truth["roles"][str(s)] for s in range(1, truth["seats"] + 1)])
        play.until(lambda s: s.action == "hunt")
        play.push(quiet_action(game))  # night 1's hunt is not in a checks clip
        table = clip.with_name(clip.stem + ".table.json")
        pipeline = build_pipeline(table, clip, realtime=True, model=model, reopen=False)
        session = LiveSession(game, pipeline=pipeline,
                              listener=build_listener(clip, None, pipeline))
        session.start()
        deadline = time.monotonic() + 4 * truth["video"]["duration"] + 30
        for check in truth["checks"]:
            card = None
            while time.monotonic() < deadline and card is None:
                time.sleep(0.05)
                card = session.view()["card"]
            if card is None:
                out.append(f"seat {check['by']}: no card")
                break
            same = card["target"] == check["shown"]
            asks = f" (asks: {'; '.join(card['questions'])})" if card["questions"] else ""
            out.append(f"seat {check['by']} showed {check['shown']} with {check['hands']} "
                       f"hand(s): card '{card['summary']}' "
                       f"{'= truth' if same else 'DIFFERS'}{asks}")
            session.apply(COMMAND.validate_python({
                "kind": "answer_check", "card": card["id"], "target": check["shown"],
                "answer": check["answer"]}))
        session.stop()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clips", type=Path, default=ROOT / "sample_videos")
    parser.add_argument("--only", default=None, help="only clips whose name contains this")
    parser.add_argument("--model", choices=("lite", "full"), default="lite")
    parser.add_argument("--workers", type=int, choices=(1, 2), default=1)
    parser.add_argument("--fps-only", action="store_true", help="skip the real-time runs")
    args = parser.parse_args()
    clips = hunt_clips(args.clips, args.only)
    print(f"machine: {describe_machine()}; model {args.model}; workers {args.workers}")
    for clip in clips:
        truth = json.loads(clip.with_name(clip.stem + ".truth.json").read_text())
        v = truth["video"]
        print(f"\n{clip.name}: {v['width']}x{v['height']} @ {v['fps']} fps, "
              f"{v['duration']:.1f} s, hunters {truth['hunts'][0]['members']}")
        f = bench_fps(clip, args.model, args.workers)
        print(f"  unpaced: {f['frames']} frames, {f['fps']:.1f} fps, "
              f"median {f['median_ms']:.1f} ms/frame, p95 {f['p95_ms']:.1f} ms")
        if args.fps_only:
            continue
        r = bench_latency(clip, args.model, args.workers)
        if r.get("card") is None and "verdict" not in r:
            print("  live: no verdict card")
            continue
        lat = r["latency_s"]
        print(f"  live (real time): card {lat:.2f} s after the count's end; "
              f"fps {r['live_fps']:.1f} ({r['dropped']} frames skipped to stay live, "
              f"{r['processed']} processed); verdict '{r['verdict']}'"
              f"{' (asks the moderator)' if r['asks'] else ''}; "
              f"{'equals' if r['equals_truth'] else 'DIFFERS from'} the ground truth; "
              f"{r['members_right']}/{r['members']} members read as in the truth")
    if not args.fps_only:
        for clip in hunt_clips(args.clips, args.only, "checks"):
            print(f"\n{clip.name}: checks")
            for line in bench_checks(clip, args.model):
                print(f"  {line}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
