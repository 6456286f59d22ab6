"""``mafiavision live``: camera (or a video paced at real time), microphone, pipeline, screen."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from mafiavision.errors import InputError, MissingInputError
from mafiavision.vision.pairing import TRACKER_MODELS


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "live",
        help="run a live game: camera + microphone + the moderator's confirmation screen",
        description="Watch the night with a camera (or a video file paced at real time) and the "
        "microphone (or the file's audio track), and serve the moderator's confirmation screen.",
    )
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--camera", metavar="INDEX", help="camera index or stream URL")
    src.add_argument("--video", metavar="FILE", type=Path,
                     help="a video file played as a live camera (real-time pace, its audio track "
                     "as the microphone)")
    p.add_argument("--table", required=True, type=Path, help="table calibration (table.json)")
    p.add_argument("--rules", default="kharkiv",
                   help="rule set name or YAML/JSON file (ignored with --resume: the record's)")
    p.add_argument("--record", type=Path, help="game record to write (JSON Lines)")
    p.add_argument("--resume", nargs="?", const=True, default=None, metavar="RECORD",
                   help="continue the game in the record (after a crash or a kill)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1; another address requires the "
                   "pairing code printed here)")
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("--model", choices=TRACKER_MODELS, default="lite",
                   help="hand landmark network(s): lite (default), full, or lite+full (shots "
                   "read from both; too slow for real time on 2 vCPU: docs/live.md)")
    p.add_argument("--workers", type=int, choices=(1, 2), default=1,
                   help="landmarker processes during a hunt (2 helps on an idle 2-core machine)")
    p.add_argument("--microphone", default=None, metavar="DEVICE",
                   help="input device for --camera (default: the system's)")
    p.add_argument("--no-audio", action="store_true",
                   help="no microphone: the moderator taps the numbers on the screen")
    p.set_defaults(func=run)


def record_path(args: argparse.Namespace) -> tuple[Path, bool]:
    """The record to write and whether to resume it."""
    if isinstance(args.resume, str):
        if args.record is not None and Path(args.resume) != args.record:
            raise InputError(f"--resume {args.resume} and --record {args.record} differ: "
                             "give one record")
        return Path(args.resume), True
    if args.record is None:
        raise InputError("--record: expected the game record to write (e.g. game.jsonl)")
    return args.record, bool(args.resume)


def check_inputs(args: argparse.Namespace) -> tuple[Path, bool]:
    record, resume = record_path(args)
    if resume and not record.is_file():
        raise MissingInputError(f"--resume {record}: no such record")
    if not resume and record.exists():
        raise InputError(f"--record {record}: a record already exists there "
                         "(continue it with --resume, or choose another file)")
    if not args.table.is_file():
        raise MissingInputError(f"--table {args.table}: no such file")
    if args.video is not None and not args.video.is_file():
        raise MissingInputError(f"--video {args.video}: no such file")
    if not 0 < args.port < 65536:
        raise InputError(f"--port {args.port}: expected 1..65535")
    return record, resume


def run(args: argparse.Namespace) -> int:
    record, resume = check_inputs(args)
    from mafiavision.night.live import build_live

    live = build_live(
        record=record, resume=resume, rules=args.rules, table=args.table, video=args.video,
        camera=args.camera, model=args.model, microphone=args.microphone,
        audio=not args.no_audio, host=args.host, port=args.port, workers=args.workers,
    )
    done = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: done.set())
    live.server.start()
    live.session.start()
    print(f"record: {record}" + (" (resumed)" if resume else ""), flush=True)
    try:
        while not done.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        live.session.stop()
        live.server.stop()
    print("stopped", file=sys.stderr)
    return 0
