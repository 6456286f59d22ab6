"""``mafiavision gestures``: poses of the hands on photos, or shots and numbers per seat in a video.

    mafiavision gestures IMAGE... [--json]
    mafiavision gestures VIDEO --table table.json [--json]

Photos: MediaPipe runs over the whole image (small images upscaled, a padded pass and tiles when
hands are missing, see :mod:`mafiavision.vision.photo_hands`); each hand's fingers are read on
its own landmarks and on a few test-time-augmentation views of it (mirrored, turned, cropped:
``photo_hands.DEFAULT_VIEWS``), which vote on the finger states (``photo_hands.combine_views``);
where that vote is weak, the lite network's readings of more views join it
(``photo_hands.combine_models``; with ``--model full``, the default); one JSON object per image:
``{"image", "hands": [{"bbox", "score", "pose", "count", "fingers"}]}``.

Video: the seat tracker (:mod:`mafiavision.vision.hands`) follows each seat of the table; every
frame's hands go through the per-seat :class:`ShotDetector` and :class:`NumberReader`; one JSON
object: ``{"video", "seats": [{"seat", "shots", "numbers", "raised_hand"}]}``. By default two
networks read the hands (``--model lite+full``, :mod:`mafiavision.vision.pairing`): lite tracks
and reads the numbers, shots are read from both.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from mafiavision.errors import InputError
from mafiavision.vision.pairing import TRACKER_MODELS

VIDEO_SUFFIXES = {".mp4", ".mkv", ".avi", ".mov", ".webm", ".m4v"}


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "gestures",
        help="hand poses on photos; shots and numbers per seat in a video",
        description="Hand poses (gun, open, fist, count, other) and finger states on photos, or "
        "shots, numbers and raised hands per seat in a video of a table (needs --table).",
    )
    parser.add_argument("inputs", nargs="+", metavar="IMAGE|VIDEO", type=Path)
    parser.add_argument("--json", action="store_true", help="print JSON (one object per input)")
    parser.add_argument("--table", type=Path, help="table.json of the video's seats (video mode)")
    parser.add_argument(
        "--model", choices=TRACKER_MODELS,
        help="landmark network(s): photos full (default; lite's views join where full's vote is "
        "weak) or lite; videos lite+full (default: lite tracks, shots need both), lite or full",
    )
    parser.add_argument(
        "--max-hands",
        type=int,
        default=2,
        help="hands per photo, and per seat in a video: 2 reads two-hand numbers (default 2)",
    )
    parser.add_argument("--convention", type=Path, help="club convention (JSON/YAML) for numbers")
    parser.set_defaults(func=run)


def hand_record(hand: Any, pose: Any) -> dict[str, Any]:
    return {
        "bbox": [round(v, 1) for v in hand.bbox],
        "score": round(hand.score, 4),
        "pose": pose.pose,
        "count": pose.count,
        "fingers": pose.fingers,
    }


def run_images(args: argparse.Namespace) -> int:
    from mafiavision.vision.gestures import classify_probabilities
    from mafiavision.vision.photo_hands import SECOND_MODEL, PhotoHandDetector, load_rgb

    images = [(path, load_rgb(path)) for path in args.inputs]  # fail early on a bad file
    model = "lite" if args.model == "lite" else "full"  # lite+full: full, lite's views joining
    second = SECOND_MODEL if model == "full" else None  # chosen with the full model only
    with PhotoHandDetector(model, max_hands=args.max_hands, second=second) as detector:
        for path, rgb in images:
            hands = sorted(detector.detect(rgb), key=lambda h: h.bbox[0])
            records = [
                hand_record(h, classify_probabilities(detector.finger_probabilities(rgb, h)))
                for h in hands
            ]
            if args.json:
                print(json.dumps({"image": str(path), "hands": records}))
            else:
                print(f"{path}: {len(records)} hand(s)")
                for r in records:
                    up = ", ".join(name for name, ext in r["fingers"].items() if ext) or "none"
                    print(f"  {r['pose']:6s} count {r['count']}  fingers: {up}  bbox {r['bbox']}")
            sys.stdout.flush()
    return 0


def run_video(args: argparse.Namespace) -> int:
    from mafiavision.vision.gestures import DEFAULT_CONVENTION, ClubConvention, classify_seats
    from mafiavision.vision.numbers import NumberEvent, NumberReader
    from mafiavision.vision.pairing import make_tracker
    from mafiavision.vision.shots import ShotDetector, continuing_hand
    from mafiavision.vision.sources import open_source
    from mafiavision.vision.table import Table

    if len(args.inputs) != 1:
        raise InputError("video mode takes exactly one VIDEO with --table")
    video = args.inputs[0]
    table = Table.load(args.table)
    convention = ClubConvention.load(args.convention) if args.convention else DEFAULT_CONVENTION
    seats = [region.seat for region in table.regions]
    shots = {seat: ShotDetector(seat) for seat in seats}
    readers = {seat: NumberReader(seat, convention) for seat in seats}
    found: dict[int, dict[str, list[dict[str, Any]]]] = {
        seat: {"shots": [], "numbers": [], "raised_hand": []} for seat in seats
    }

    def keep(seat: int, events: list[Any]) -> None:
        for e in events:
            if isinstance(e, NumberEvent):
                found[seat]["numbers"].append(
                    {"start": e.start, "end": e.end, "value": e.value, "confidence": e.confidence}
                )
            elif hasattr(e, "depth"):
                found[seat]["shots"].append(
                    {"t": e.t, "duration": e.duration, "depth": e.depth,
                     "confidence": e.confidence, "source": e.source}
                )
            else:
                found[seat]["raised_hand"].append(
                    {"start": e.start, "end": e.end, "confidence": e.confidence}
                )

    tracker = make_tracker(table, args.model or "lite+full", hands_per_seat=args.max_hands)
    try:
        tracker.set_active(seats)
        for frame in open_source(video):
            observed = tracker.update(frame)
            poses = classify_seats({seat: observed.get(seat, [])[:2] for seat in seats},
                                   convention=convention)
            for seat in seats:
                main = continuing_hand(observed.get(seat, []), shots[seat].track)
                keep(seat, shots[seat].update(main, frame.t))
                keep(seat, readers[seat].update(poses[seat], frame.t))
    finally:
        tracker.close()
    for seat in seats:
        keep(seat, readers[seat].flush())
    result = {"video": str(video), "seats": [{"seat": s, **found[s]} for s in seats]}
    if args.json:
        print(json.dumps(result))
    else:
        for entry in result["seats"]:
            print(
                f"seat {entry['seat']}: {len(entry['shots'])} shot(s) "
                + " ".join(f"{s['t']:.2f}s" for s in entry["shots"])
                + f"; numbers {[n['value'] for n in entry['numbers']]}"
                + f"; raised hand {len(entry['raised_hand'])}"
            )
    return 0


def run(args: argparse.Namespace) -> int:
    videos = [p for p in args.inputs if p.suffix.lower() in VIDEO_SUFFIXES]
    if args.max_hands < 1:
        raise InputError(f"--max-hands must be at least 1, not {args.max_hands}")
    if args.table is not None:
        return run_video(args)
    if videos:
        raise InputError(f"{videos[0]}: a video needs --table table.json (the seats to follow)")
    return run_images(args)
