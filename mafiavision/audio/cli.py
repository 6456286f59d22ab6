"""``mafiavision callout``: the windows in which a shot counts for each spoken seat number."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from mafiavision.errors import InputError


def parse_seats(text: str) -> list[int]:
    """``"10"`` → seats 1..10; ``"1,2,5,7"`` → those seats, in calling order."""
    try:
        if "," not in text:
            n = int(text)
            if n < 1:
                raise ValueError
            return list(range(1, n + 1))
        seats = [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        raise InputError(f"--seats: expected a seat count (e.g. 10) or a list of seat numbers "
                         f"(e.g. 1,2,5,7), got {text!r}") from None
    if not seats or min(seats) < 1 or len(set(seats)) != len(seats):
        raise InputError(f"--seats: expected distinct seat numbers >= 1, got {text!r}")
    return seats


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "callout", help="time the moderator's spoken seat numbers in a recording or live",
        description="Find when each called seat number is said (the k-th number word is the k-th "
                    "called seat) and print the window in which a shot counts for that seat.")
    p.add_argument("input", metavar="INPUT",
                   help="video or audio file (mp4, mkv, wav, flac, mp3, ogg...), or 'mic' / "
                        "'mic:DEVICE' for a live microphone")
    p.add_argument("--seats", required=True, type=parse_seats,
                   help="number of seats called 1..N, or the called (living) seats: 1,2,5,7")
    p.add_argument("--start", type=float, help="seconds of the input where the count starts")
    p.add_argument("--end", type=float, help="seconds of the input where the count ends")
    p.add_argument("--vad", choices=("auto", "silero", "energy"), default="auto",
                   help="voice detector (auto: silero, energy if the model cannot load)")
    p.add_argument("--lead", type=float, default=0.0,
                   help="windows start this many seconds after each number's onset (default 0)")
    p.add_argument("--between-gap", type=float, default=0.15,
                   help="a time this close to a window boundary is 'between numbers' (s)")
    p.add_argument("--live", action="store_true",
                   help="run the streaming path (as for a microphone) and print each window as "
                        "soon as it is known, and when it is revised or confirmed, one JSON line "
                        "each")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=run)


def _window(w: Any) -> dict[str, Any]:
    return {"seat": w.seat, "start": round(w.start, 3), "end": round(w.end, 3),
            "onset": round(w.onset, 3), "confidence": round(w.confidence, 3)}


def run(args: argparse.Namespace) -> int:
    from mafiavision.audio.callout import LiveCallout, callout_from_audio
    from mafiavision.audio.sources import load_audio, stream_file, stream_microphone
    from mafiavision.audio.vad import make_detector

    if args.between_gap < 0:
        raise InputError(f"--between-gap must be >= 0 seconds, not {args.between_gap}")
    detector = make_detector(args.vad)
    mic = args.input == "mic" or args.input.startswith("mic:")
    if mic or args.live:
        if mic:
            dev = args.input[4:] or None
            chunks = stream_microphone(int(dev) if dev and dev.isdigit() else dev)
        else:
            chunks = stream_file(args.input, args.start, args.end)
        live = LiveCallout(args.seats, detector, lead=args.lead, between_gap=args.between_gap)
        for chunk in chunks:
            for change in live.push(chunk):
                w = change.window
                known = chunk.t + len(chunk.samples) / 16000
                line = {"live": _window(w), "status": change.status, "known_at": round(known, 3)}
                print(json.dumps(line) if args.json else
                      f"seat {w.seat}: onset {w.onset:.2f} s, confidence {w.confidence:.2f} "
                      f"{change.status} at {known:.2f} s", flush=True)
            if mic and live.over():
                break
        callout = live.finish()
        segments = live.segments
    else:
        clip = load_audio(args.input, args.start, args.end)
        callout, segments = callout_from_audio(clip, args.seats, detector, lead=args.lead,
                                               between_gap=args.between_gap)
    out = {
        "input": args.input,
        "seats": args.seats,
        "vad": detector.name,
        "lead": args.lead,
        "between_gap": callout.between_gap,
        "windows": [_window(w) for w in callout.windows],
        "segments": [[round(s.start, 3), round(s.end, 3)] for s in segments],
    }
    if args.json:
        json.dump(out, sys.stdout)
        print()
    else:
        print(f"{args.input}: {len(segments)} speech segments ({detector.name})")
        for w in callout.windows:
            print(f"seat {w.seat:>2}: {w.start:8.2f} – {w.end:8.2f} s  onset {w.onset:8.2f}  "
                  f"confidence {w.confidence:.2f}")
    return 0
