"""Detection rate of the per-seat tracker on real photos placed into the seats of a table frame.

Every photo of ../shared/handdata/epsrc_finger_counting_human/{1..5} (785 photos, one raised hand
each) is put into one cell of a 4x3 grid (12 seats per frame, in file order), and the frame goes
through the full pipeline (seat crops, gate, one VIDEO-mode landmarker per seat, hysteresis,
geometric seat assignment). The frame is shown ``--repeat`` times, as a still camera would (the
hysteresis needs two hits before it reports a hand); a photo counts as found when its seat reports
a fresh (not held) hand at the last repeat. The 2 empty backgrounds are placed the same way and
must give no hand (false positives are counted).

    python scripts/eval_tracking.py --sizes 1280x720,1920x1080 --models lite,full

``--samples`` instead runs the tracker over the rendered sample clips (sample_videos/, with their
table.json and truth): the seats that raise a hand are tracked at full rate, the others swept,
as during a hunt. Per clip: the share of frames in which a raised hand (between ``up`` + 0.3 s
and ``down`` − 0.3 s) is reported fresh at its seat, and the frames with a hand reported at a
seat whose hand is down (false).

    python scripts/eval_tracking.py --samples
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mafiavision.vision.composite import compose, grid_table, load_rgb  # noqa: E402
from mafiavision.vision.hands import CROP_PAD, MIN_CONFIDENCE, SeatTracker  # noqa: E402
from mafiavision.vision.sources import Frame  # noqa: E402

EPSRC = ROOT.parent / "shared" / "handdata" / "epsrc_finger_counting_human"


def evaluate(photos: list[Path], size: tuple[int, int], model: str, repeat: int,
             min_confidence: float, crop_pad: float) -> tuple[int, list[Path]]:
    """(number found, photos missed)."""
    table = grid_table(12, size)
    tracker = SeatTracker(table, model,  # type: ignore[arg-type]
                          min_confidence=min_confidence, crop_pad=crop_pad)
    found, missed, t = 0, [], 0.0
    for start in range(0, len(photos), 12):
        batch = photos[start : start + 12]
        image = compose([load_rgb(p) for p in batch] + [None] * (12 - len(batch)), size)
        tracker.reset()
        for _ in range(repeat):
            hands = tracker.update(Frame(t=t, index=0, image=image))
            t += 1 / 30
        for seat, path in enumerate(batch, start=1):
            if any(not o.held for o in hands.get(seat, [])):
                found += 1
            else:
                missed.append(path)
    tracker.close()
    return found, missed


def evaluate_clip(clip: Path, model: str) -> tuple[int, int, int, int]:
    """(raised seat-frames, of them found fresh, lowered seat-frames, of them with a hand)."""
    from mafiavision.samples.truth import ClipTruth
    from mafiavision.vision.sources import open_source
    from mafiavision.vision.table import Table

    truth = ClipTruth.load(clip.with_suffix(".truth.json"))
    table = Table.load(clip.with_suffix(".table.json"))
    raised_seats = sorted({h.seat for h in truth.hands})
    raised = found = lowered = false = 0
    with SeatTracker(table, model) as tracker, open_source(clip) as source:  # type: ignore[arg-type]
        tracker.set_active(raised_seats)
        for frame in source:
            hands = tracker.update(frame)
            for seat in table.seat_numbers():
                up = any(h.seat == seat and h.up + 0.3 <= frame.t <= h.down - 0.3
                         for h in truth.hands)
                near = any(h.seat == seat and h.appear - 0.3 <= frame.t <= h.gone + 0.3
                           for h in truth.hands)
                if up:
                    raised += 1
                    found += any(not o.held for o in hands.get(seat, []))
                elif not near:
                    lowered += 1
                    false += seat in hands
    return raised, found, lowered, false


def samples(model: str) -> None:
    clips = sorted((ROOT / "sample_videos").glob("*.mp4"))
    if not clips:
        print("no sample clips in sample_videos/", file=sys.stderr)
    total = [0, 0, 0, 0]
    for clip in clips:
        r = evaluate_clip(clip, model)
        total = [a + b for a, b in zip(total, r, strict=True)]
        print(f"{clip.name} ({model}): raised hand found in {r[1]}/{r[0]} seat-frames "
              f"({100 * r[1] / max(1, r[0]):.1f} %); hand reported in {r[3]}/{r[2]} seat-frames "
              "without one", flush=True)
    print(f"all clips ({model}): {total[1]}/{total[0]} = {100 * total[1] / max(1, total[0]):.1f} %"
          f" found; false {total[3]}/{total[2]} = {100 * total[3] / max(1, total[2]):.2f} %")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1280x720,1920x1080")
    parser.add_argument("--models", default="lite,full")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sets", default="Set1,Set2", help="EPSRC sessions to use")
    parser.add_argument("--min-confidence", type=float, default=MIN_CONFIDENCE)
    parser.add_argument("--crop-pad", type=float, default=CROP_PAD)
    parser.add_argument("--show-missed", action="store_true")
    parser.add_argument("--samples", action="store_true",
                        help="evaluate on the sample clips instead (first model of --models)")
    args = parser.parse_args()
    if args.samples:
        samples(args.models.split(",")[0])
        return 0
    if not EPSRC.is_dir():
        print(f"needs the real photos at {EPSRC}", file=sys.stderr)
        return 2
    sets = tuple(f"{name}_" for name in args.sets.split(","))
    photos = sorted(p for d in "12345" for p in (EPSRC / d).glob("*.jpg")
                    if p.name.startswith(sets))
    empty = sorted((EPSRC / "no_hand_background").glob("*.jpg"))
    print(f"data: {len(photos)} photos of {EPSRC.relative_to(ROOT.parent)}/1..5 ({args.sets}), "
          f"12 seats per frame (4x3 grid), each frame shown {args.repeat} times, "
          f"min confidence {args.min_confidence}, crop pad {args.crop_pad}")
    for size_text in args.sizes.split(","):
        size = tuple(int(v) for v in size_text.split("x"))
        for model in args.models.split(","):
            found, missed = evaluate(photos, size, model, args.repeat,  # type: ignore[arg-type]
                                     args.min_confidence, args.crop_pad)
            false, _ = evaluate(empty, size, model, args.repeat,  # type: ignore[arg-type]
                                args.min_confidence, args.crop_pad)
            print(f"{size_text} {model}: hand found in {found}/{len(photos)} = "
                  f"{100 * found / len(photos):.1f} % (cell {size[0] // 4}x{size[1] // 3} px); "
                  f"hands reported on {false}/{len(empty)} empty backgrounds", flush=True)
            if args.show_missed:
                for p in missed:
                    print(f"  missed {p.relative_to(EPSRC)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
