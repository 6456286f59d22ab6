"""``mafiavision hands`` (per-seat hand landmarks) and ``mafiavision calibrate`` (table.json)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from mafiavision.errors import InputError


def register(subparsers: argparse._SubParsersAction) -> None:
    hands = subparsers.add_parser(
        "hands",
        help="track each seat's raised hand (21 landmarks) in a video, camera or stream",
        description="Track each seat's raised hand. INPUT: a video file (mp4 mkv avi webm mov), "
        "a folder of images, a camera index (0) or a stream URL (rtsp://, http://).",
    )
    hands.add_argument("input", metavar="INPUT")
    hands.add_argument("--table", required=True, type=Path, help="table.json (mafiavision "
                       "calibrate)")
    hands.add_argument("--seats", type=_seat_list, default=None,
                       help="seats tracked at full rate, e.g. 3,5,9 (default: all); the others "
                       "are swept at a low rate")
    hands.add_argument("--json", action="store_true",
                       help="write JSON Lines to stdout, one object per frame")
    hands.add_argument("--preview", type=Path, help="write an mp4 with seats, hands, landmarks")
    hands.add_argument("--model", choices=("lite", "full"), default="lite")
    hands.add_argument("--hands-per-seat", type=int, choices=(1, 2), default=1)
    hands.add_argument("--sweep-every", type=int, default=10, metavar="N",
                       help="an inactive seat is examined once every N frames (default 10)")
    hands.add_argument("--workers", type=int, choices=(1, 2), default=1,
                       help="landmarker processes (2 helps only on an idle 2-core machine)")
    hands.add_argument("--max-width", type=int, help="downscale wider frames to this width")
    hands.add_argument("--realtime", action="store_true",
                       help="pace a file at its own clock, as a live camera would deliver it")
    hands.add_argument("--max-frames", type=int, help="stop after this many frames")
    hands.set_defaults(func=run_hands)

    cal = subparsers.add_parser(
        "calibrate",
        help="make table.json: where each seat's raised hand appears",
        description="Make table.json from a layout (an ellipse of N seats, or explicit boxes) "
        "on a frame of INPUT (or --size), or --auto from a recording in which seats 1..N raise "
        "a hand one after another.",
    )
    cal.add_argument("input", metavar="INPUT", nargs="?",
                     help="video, image folder or camera giving the frame (size, preview)")
    cal.add_argument("--out", "-o", type=Path, required=True, help="table.json to write")
    cal.add_argument("--seats", type=int, help="number of seats (ellipse and auto)")
    cal.add_argument("--size", type=_size, help="image size WxH when there is no INPUT")
    cal.add_argument("--boxes", help="explicit regions: 'x0,y0,x1,y1;...' normalised 0..1, "
                     "seat 1 first, or a file with one box per line")
    cal.add_argument("--ellipse", type=_floats(4), default=(0.5, 0.5, 0.38, 0.34),
                     metavar="CX,CY,AX,AY", help="ellipse centre and semi-axes, normalised")
    cal.add_argument("--region", type=_floats(2), metavar="W,H",
                     help="region size, normalised (ellipse layout)")
    cal.add_argument("--start-deg", type=float, default=90.0,
                     help="angle of seat 1 (0 right, 90 down; default 90)")
    cal.add_argument("--counterclockwise", action="store_true")
    cal.add_argument("--toward", choices=("outward", "down"), default="outward",
                     help="direction toward the player (ellipse layout)")
    cal.add_argument("--auto", action="store_true",
                     help="find the regions in INPUT, a recording of seats raising a hand in "
                     "seat order")
    cal.add_argument("--preview", type=Path, help="draw the table on a frame into this PNG")
    cal.set_defaults(func=run_calibrate)


def _seat_list(text: str) -> list[int]:
    try:
        seats = [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected seat numbers like 3,5,9, got {text!r}"
        ) from None
    if not seats or min(seats) < 1:
        raise argparse.ArgumentTypeError(f"expected seat numbers ≥ 1 like 3,5,9, got {text!r}")
    return seats


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT like 1280x720, got {text!r}") \
            from None
    return w, h


def _floats(n: int) -> Any:
    def parse(text: str) -> tuple[float, ...]:
        try:
            values = tuple(float(v) for v in text.split(","))
        except ValueError:
            values = ()
        if len(values) != n:
            raise argparse.ArgumentTypeError(f"expected {n} comma-separated numbers, got {text!r}")
        return values

    return parse


def _report(message: str) -> None:
    print(f"warning: {message}", file=sys.stderr, flush=True)


def _hand_json(obs: Any) -> dict[str, Any]:
    return {
        "landmarks": [[round(float(v), 5) for v in p] for p in obs.landmarks],
        "world": [[round(float(v), 5) for v in p] for p in obs.world],
        "score": round(obs.score, 4),
        "track": obs.track,
        "held": obs.held,
    }


def run_hands(args: argparse.Namespace) -> int:
    from mafiavision.vision.hands import SeatTracker
    from mafiavision.vision.preview import Mp4Writer, draw_hands, draw_table
    from mafiavision.vision.sources import open_source
    from mafiavision.vision.table import Table

    table = Table.load(args.table)
    for warning in table.warnings():
        _report(warning)
    tracker_cls: Any = SeatTracker
    if args.workers == 2:
        from mafiavision.vision.workers import ParallelSeatTracker

        tracker_cls = ParallelSeatTracker
    tracker = tracker_cls(table, args.model, hands_per_seat=args.hands_per_seat,
                          sweep_every=args.sweep_every)
    if args.seats is not None:
        tracker.set_active(args.seats)
    writer = None
    frames, seen = 0, dict.fromkeys(table.seat_numbers(), 0)
    start = time.perf_counter()
    source = open_source(args.input, realtime=args.realtime, max_width=args.max_width,
                         report=_report)
    try:
        for frame in source:
            hands = tracker.update(frame)
            frames += 1
            for seat in hands:
                seen[seat] += 1
            if args.json:
                seats = {str(s): [_hand_json(o) for o in obs] for s, obs in sorted(hands.items())}
                print(json.dumps({"t": round(frame.t, 6), "seats": seats}), flush=True)
            if args.preview is not None:
                if writer is None:
                    h, w = frame.image.shape[:2]
                    writer = Mp4Writer(args.preview, w, h)
                picture = draw_table(table, frame.image, tracker.active)
                writer.write(draw_hands(picture, hands), frame.t)
            if args.max_frames and frames >= args.max_frames:
                break
    finally:
        source.close()
        tracker.close()
        if writer is not None:
            writer.close()
    elapsed = time.perf_counter() - start
    if frames == 0:
        raise InputError(f"{args.input}: no frames")
    summary = ", ".join(f"{s}: {100 * n / frames:.0f}%" for s, n in seen.items())
    print(f"{frames} frames in {elapsed:.1f} s ({frames / elapsed:.1f} fps); frames with a hand "
          f"per seat: {summary}", file=sys.stderr if args.json else sys.stdout)
    return 0


def _parse_boxes(text: str) -> list[tuple[float, float, float, float]]:
    path = Path(text)
    if path.suffix and path.exists():
        text = ";".join(line for line in path.read_text().splitlines() if line.strip())
    boxes = []
    for k, part in enumerate(p for p in text.split(";") if p.strip()):
        try:
            values = tuple(float(v) for v in part.replace(" ", ",").split(",") if v)
        except ValueError:
            values = ()
        if len(values) != 4:
            raise InputError(f"--boxes: box {k + 1} {part!r} is not x0,y0,x1,y1 (four numbers)")
        boxes.append(values)
    return boxes  # type: ignore[return-value]


def _first_frame(spec: str) -> Any:
    from mafiavision.vision.sources import open_source

    with open_source(spec) as source:
        for frame in source:
            return frame.image
    raise InputError(f"{spec}: no frames")


def run_calibrate(args: argparse.Namespace) -> int:
    import numpy as np

    from mafiavision.vision.preview import draw_table, save_png
    from mafiavision.vision.table import ellipse_layout, from_boxes

    if args.auto:
        from mafiavision.vision.autocalib import calibrate_from_recording

        if args.input is None or args.seats is None:
            raise InputError("--auto needs INPUT (the recording) and --seats N")
        table = calibrate_from_recording(args.input, args.seats, report=_report)
        image = _first_frame(args.input) if args.preview else None
    else:
        image = _first_frame(args.input) if args.input is not None else None
        if image is not None:
            size = (image.shape[1], image.shape[0])
        elif args.size is not None:
            size = args.size
            image = np.full((size[1], size[0], 3), 60, np.uint8)
        else:
            raise InputError("give INPUT (a frame to calibrate on) or --size WxH")
        if args.boxes:
            table = from_boxes(_parse_boxes(args.boxes), size)
        elif args.seats:
            cx, cy, ax, ay = args.ellipse
            table = ellipse_layout(
                args.seats, size, center=(cx, cy), axes=(ax, ay), region=args.region,
                start_deg=args.start_deg, clockwise=not args.counterclockwise,
                toward=args.toward,
            )
        else:
            raise InputError("give --seats N (ellipse layout), --boxes, or --auto")
    table.save(args.out)
    for warning in table.warnings():
        _report(warning)
    if args.preview is not None and image is not None:
        save_png(draw_table(table, image), args.preview)
    print(f"{args.out}: {table.seats} seats for {table.image_size[0]}x{table.image_size[1]} "
          "images")
    return 0
