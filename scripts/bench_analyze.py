#!/usr/bin/env python
"""Speed of ``mafiavision analyze`` on a long "game": sample clips with day stretches between.

Builds (in a temporary folder, with PyAV) a 720p30 H.264 + AAC recording of ``--nights`` nights
from the sample clips that share the first clip's table layout (one camera view for the whole
game; a clip is used again when there are fewer): before each night ``--day`` seconds of "day" —
the clip's first frame, no hand raised, with sensor noise, and silence — then the clip itself
scaled to 1280×720 and resampled to 30 fps by time (its picture and sound stay together). Runs
the analysis on it and prints seconds of video per second of wall time (× real time) and of CPU
time (user + system, every thread of the process), the hunts found against the clips' ground
truth, the data and the machine.

    python scripts/bench_analyze.py [--clips 'sample_videos/*.mp4'] [--day 60] [--nights 4]
                                    [--threads N] [--keep DIR | --game DIR]

``--keep DIR`` keeps the built game in DIR; ``--game DIR`` analyses a game kept so (no rebuild:
A/B runs of two versions on the same file).
"""

from __future__ import annotations

import argparse
import glob
import json
import resource
import sys
import tempfile
import time
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import av
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mafiavision.machine import describe_machine  # noqa: E402

WIDTH, HEIGHT, FPS, RATE = 1280, 720, 30, 48000


def _clip_frames(path: Path) -> Iterator[np.ndarray]:
    """The clip's frames at the game's rate, scaled to its size: at each instant k / FPS of the
    clip, the last frame shown by then (a 25 fps clip gets a repeated frame every fifth frame;
    writing its frames one per 1/30 s instead would run its picture 20 % ahead of its sound)."""
    with av.open(str(path)) as c:
        stream = c.streams.video[0]
        shown, k, t = None, 0, 0.0
        for f in c.decode(stream):
            t = float(f.time)
            while shown is not None and k / FPS < t - 1e-6:
                yield shown
                k += 1
            shown = f.to_ndarray(format="rgb24", width=WIDTH, height=HEIGHT)
        if shown is None:
            return
        end = t + 1.0 / float(stream.average_rate or stream.guessed_rate or FPS)
        while k / FPS < end - 1e-6:
            yield shown
            k += 1


def _clip_audio(path: Path) -> np.ndarray:
    with av.open(str(path)) as c:
        if not c.streams.audio:
            return np.zeros(0, np.float32)
        resampler = av.AudioResampler(format="flt", layout="mono", rate=RATE)
        parts = [r.to_ndarray().reshape(-1) for f in c.decode(audio=0) for r in
                 resampler.resample(f)]
    return np.concatenate(parts) if parts else np.zeros(0, np.float32)


def build_game(clips: list[Path], day: float, out: Path) -> tuple[float, list[tuple[Path, float]]]:
    """Write the long game; returns its duration and where each clip starts in it. Every clip
    keeps its own timing: its picture is resampled to FPS and its sound cut or padded to the same
    length, so the clip's instant x is the game's instant start + x in picture and sound."""
    rng = np.random.default_rng(0)
    container = av.open(str(out), "w")
    video = container.add_stream("libx264", rate=FPS)
    video.width, video.height, video.pix_fmt = WIDTH, HEIGHT, "yuv420p"
    video.options = {"preset": "veryfast", "crf": "23", "g": str(2 * FPS)}
    audio = container.add_stream("aac", rate=RATE)
    audio.layout = "mono"
    n_frames, samples = 0, []
    starts: list[tuple[Path, float]] = []

    def put(image: np.ndarray) -> None:
        nonlocal n_frames
        frame = av.VideoFrame.from_ndarray(image, format="rgb24")
        frame.pts = n_frames
        frame.time_base = Fraction(1, FPS)
        for packet in video.encode(frame):
            container.mux(packet)
        n_frames += 1

    for clip in clips:
        first = next(_clip_frames(clip))
        for _ in range(round(day * FPS)):
            noise = rng.integers(-3, 4, first.shape, dtype=np.int16)
            put(np.clip(first.astype(np.int16) + noise, 0, 255).astype(np.uint8))
        samples.append(np.zeros(round(day * FPS) * RATE // FPS, np.float32))
        t0 = n_frames / FPS
        starts.append((clip, t0))
        count = 0
        for image in _clip_frames(clip):
            put(image)
            count += 1
        length = count * RATE // FPS
        sound = _clip_audio(clip)[:length]
        samples.append(np.pad(sound, (0, length - sound.size)))
    for packet in video.encode():
        container.mux(packet)
    pcm = np.concatenate(samples)
    for i in range(0, pcm.size, 1024):
        chunk = pcm[i:i + 1024].reshape(1, -1)
        frame = av.AudioFrame.from_ndarray(chunk, format="flt", layout="mono")
        frame.sample_rate = RATE
        frame.pts = i
        frame.time_base = Fraction(1, RATE)
        for packet in audio.encode(frame):
            container.mux(packet)
    for packet in audio.encode():
        container.mux(packet)
    container.close()
    return n_frames / FPS, starts


def same_layout(clips: list[Path]) -> list[Path]:
    """The clips whose table layout equals the first clip's (one camera view for the game)."""
    def layout(p: Path) -> str:
        data = json.loads(p.with_name(p.stem + ".table.json").read_text())
        return json.dumps(data["regions"], sort_keys=True)

    first = layout(clips[0])
    return [c for c in clips if layout(c) == first]




def _cpu() -> float:
    """CPU seconds of this process so far: user + system, every thread."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> int:
    from mafiavision.analysis.pipeline import Options, analyze
    from mafiavision.analysis.scan import ScanConfig
    from mafiavision.vision.pairing import TRACKER_MODELS
    from mafiavision.vision.table import Table

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clips", default=str(ROOT / "sample_videos" / "*.mp4"))
    parser.add_argument("--day", type=float, default=60.0, help="seconds of day before a clip")
    parser.add_argument("--nights", type=int, default=4, help="clips in the game")
    parser.add_argument("--rules", default="kharkiv")
    parser.add_argument("--threads", type=int, default=ScanConfig().threads,
                        help="threads examining a frame's seats (default: the CPU count)")
    parser.add_argument("--model", choices=TRACKER_MODELS, default=ScanConfig().model,
                        help="landmark network(s) (default: %(default)s)")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--keep", type=Path, help="keep the built game in this folder")
    where.add_argument("--game", type=Path, help="analyse the game kept in this folder by "
                       "--keep (the other game options are ignored)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        folder = args.game or args.keep or Path(tmp)
        game, table_path = folder / "game.mp4", folder / "game.table.json"
        plan = folder / "game.json"
        if args.game is not None:
            kept = json.loads(plan.read_text())
            duration, day, built = kept["duration"], kept["day"], 0.0
            starts = [(Path(c), t) for c, t in kept["starts"]]
            clips = [c for c, _ in starts]
        else:
            clips = sorted(Path(p) for p in glob.glob(args.clips))
            if not clips:
                print(f"no clip matches {args.clips}", file=sys.stderr)
                return 2
            layout = same_layout(clips)
            clips = [layout[i % len(layout)] for i in range(args.nights)]
            folder.mkdir(parents=True, exist_ok=True)
            t0 = time.perf_counter()
            duration, starts = build_game(clips, args.day, game)
            built, day = time.perf_counter() - t0, args.day
            table = Table.load(clips[0].with_name(clips[0].stem + ".table.json"))
            table = table.model_copy(update={"image_size": (WIDTH, HEIGHT)})
            table.save(table_path)
            plan.write_text(json.dumps({"duration": duration, "day": day,
                                        "starts": [(str(c), t) for c, t in starts]}))
        options = Options(progress=False, scan=ScanConfig(threads=args.threads, model=args.model))
        t0, cpu0 = time.perf_counter(), _cpu()
        result = analyze(game, table_path, args.rules, folder / "out", options)
        wall, cpu = time.perf_counter() - t0, _cpu() - cpu0
    events = result.events
    print(f"data: {len(clips)} nights from sample clips ({', '.join(c.name for c in clips)}) with "
          f"{day:.0f} s of day before each, scaled to {WIDTH}x{HEIGHT} @ {FPS} fps "
          f"H.264+AAC: {duration:.1f} s of video "
          + (f"(built in {built:.1f} s)" if args.game is None else f"(kept in {folder})"))
    print(f"machine: {describe_machine()}")
    sampling = events.sampling
    print(f"analysis ({args.threads} threads, model {args.model}): {wall:.1f} s wall for "
          f"{duration:.1f} s of video = "
          f"{duration / wall:.2f}x real time ({cpu:.1f} s CPU, user + system = "
          f"{duration / cpu:.2f}x per CPU-second); frames decoded {sampling['frames_decoded']:.0f}"
          f", tracked {events.sampling['frames_tracked']:.0f}, decode width "
          f"{events.sampling['decode_width']:.0f}")
    print(f"found: {len(events.hunts)} hunts, {len(events.checks)} checks, "
          f"{len(events.shots)} shots")
    for clip, start in starts:
        truth = json.loads(clip.with_name(clip.stem + ".truth.json").read_text())
        end = start + truth["video"]["duration"]
        want = [f"{h['verdict']} {h['target'] or ''}".strip() + f" by {sorted(h['members'])}"
                for h in truth["hunts"]]
        got = [f"{h.verdict.outcome} {h.verdict.target or ''}".strip() + f" by {h.members}"
               for h in events.hunts if start <= h.start < end]
        print(f"  night at {start:.1f} s ({clip.name}): truth {want or 'no hunt'}; "
              f"found {got or 'no hunt'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
