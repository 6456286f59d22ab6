"""Detection rate of the per-seat tracker on real photos placed into the seats of a table frame.

Every photo of ../shared/handdata/epsrc_finger_counting_human/{1..5} (785 photos, one raised hand
each) is put into one cell of a 4x3 grid (12 seats per frame, in file order), and the frame goes
through the full pipeline (seat crops, gate, one VIDEO-mode landmarker per seat, hysteresis,
geometric seat assignment). The frame is shown ``--repeat`` times, as a still camera would (the
hysteresis needs two hits before it reports a hand); a photo counts as found when its seat reports
a fresh (not held) hand at the last repeat. The 2 empty backgrounds are placed the same way and
must give no hand (false positives are counted).

    python scripts/eval_tracking.py --sizes 1280x720,1920x1080 --models lite,full
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1280x720,1920x1080")
    parser.add_argument("--models", default="lite,full")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sets", default="Set1,Set2", help="EPSRC sessions to use")
    parser.add_argument("--min-confidence", type=float, default=MIN_CONFIDENCE)
    parser.add_argument("--crop-pad", type=float, default=CROP_PAD)
    parser.add_argument("--show-missed", action="store_true")
    args = parser.parse_args()
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
