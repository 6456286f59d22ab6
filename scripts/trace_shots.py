#!/usr/bin/env python
"""Trace the shot detectors of some seats through a span of a recording, as the analysis runs them.

Tracks the recording exactly as ``mafiavision analyze`` does
(:func:`mafiavision.analysis.scan.scan`: the day tracker, the night's one- and two-hand
trackers, the frames taken back at nightfall) up to ``--to`` and prints, for each listed seat
and each frame from ``--from``:

- the hands the tracker gave the seat: track id, ``fresh`` or ``held``, how many networks read
  it, the score and the index+middle curls of its world landmarks (degrees); ``*`` marks the
  hand the shot detector follows;
- the detector's baseline while no squeeze is open: index+middle baseline curls, the threshold a
  squeeze must rise by (``on``) and whether the hand showed the gun;
- the fold's score of each frame it scored (:class:`~mafiavision.vision.fold.FoldConfig`: a
  peak from its threshold is a shot once released);
- each squeeze of the joints when it starts and when it is judged, with the figures the judgement
  reads (peak and threshold, each finger's rise, the hand's least extent against its baseline,
  the fingers read folded, the curls' correlation, both networks rising, the fold agreeing);
- each squeeze of the fingers' look when it ends (the gun, the joints' rise during it) and when
  it is decided (near a shot, a rebound, the fold agreeing, the fold's best score);
- every shot, with its signal (joints, look or fold).

It reads the detector's private state: a maintainer's tool for questions such as "why did the
analysis miss seat 7's shot at 5.5 s?" (``tests/analysis/test_trace_shots.py`` keeps it working).

    python scripts/trace_shots.py CLIP --seats 7,1 --from 4.9 --to 8.6 [--table TABLE.json]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mafiavision.errors import InputError, UserError  # noqa: E402


class _Done(Exception):
    """Raised from the scan's progress callback once the span is over."""


def _hand(h: Any, followed: Any) -> str:
    from mafiavision.vision.fingers import curl

    c = curl(h.world)
    return (f"{'*' if h is followed else ' '}track {h.track} {'held ' if h.held else 'fresh'} "
            f"{h.networks} net score {h.score:.2f} curls {c[1]:.0f}+{c[2]:.0f}")


def trace(clip: Path, table_path: Path, seats: set[int], start: float, end: float,
          say: Callable[[str], None] = print) -> None:
    """Run the analysis's scan of ``clip`` up to ``end`` and report ``seats`` from ``start``."""
    from mafiavision.analysis import seats as stages_module
    from mafiavision.analysis.media import probe
    from mafiavision.analysis.pipeline import load_table
    from mafiavision.analysis.scan import ScanConfig, scan
    from mafiavision.vision import shots as V

    info = probe(clip)
    table = load_table(table_path, info)
    unknown = seats - set(table.seat_numbers())
    if unknown:
        raise InputError(f"--seats: {sorted(unknown)} not in {table_path} "
                         f"(seats {table.seat_numbers()})")

    def watched(seat: int, t: float) -> bool:
        return seat in seats and start <= t <= end

    stages_update = stages_module.SeatStages.update
    judge, looks = V.ShotDetector._judge, V.ShotDetector._looks
    detector_update = V.ShotDetector.update

    def traced_stages(self: Any, t: float, hands: Any, timeline: Any) -> list[int]:
        for seat in sorted(seats):
            if watched(seat, t):
                seen, followed = self._hands(seat, hands)
                say(f"{t:7.2f}  seat {seat:2}  " + ("; ".join(_hand(h, followed) for h in seen)
                                                   or "no hand"))
        return stages_update(self, t, hands, timeline)

    def traced_update(self: Any, obs: Any, t: float) -> list[Any]:
        was = self._squeeze
        done = detector_update(self, obs, t)
        if watched(self.seat, t):
            if was is None and self._squeeze is not None:
                s = self._squeeze
                say(f"{t:7.2f}  seat {self.seat:2}  joints: squeeze starts, rise {s.peak:.0f} "
                    f"(on {s.on:.0f})")
            elif self._squeeze is None and len(self._quiet) >= 3:
                base, on, _ = self._baseline()
                say(f"{t:7.2f}  seat {self.seat:2}  baseline {base[0]:.0f}+{base[1]:.0f} on "
                    f"{on:.0f} gun {'yes' if self._showed_gun() else 'no'}")
            scores = self._fold_scores
            if scores and scores[-1][0] == t:
                say(f"{t:7.2f}  seat {self.seat:2}  fold {scores[-1][1]:.1f} (shot from "
                    f"{self.config.finger_fold.threshold:g})")
        for shot in done:
            if shot.seat in seats:
                say(f"{t:7.2f}  seat {shot.seat:2}  SHOT at {shot.t:.2f} ({shot.source}, depth "
                    f"{shot.depth:.0f}, confidence {shot.confidence:.2f})")
        return done

    def traced_judge(self: Any, squeeze: Any, t: float) -> Any:
        event = judge(self, squeeze, t)
        if watched(self.seat, t):
            small, large = sorted(float(v) for v in squeeze.most)
            say(f"{t:7.2f}  seat {self.seat:2}  joints: squeeze {squeeze.start:.2f}-{t:.2f} "
                f"{'a shot' if event else 'no shot'}: peak {squeeze.peak:.0f} at "
                f"{squeeze.peak_t:.2f} (on {squeeze.on:.0f}, strong x{self.config.strong}), "
                f"fingers {small:.0f}/{large:.0f} (each {squeeze.each:.0f}), least extent "
                f"{squeeze.least / squeeze.extent:.2f}, shrank {V._shrank(squeeze):.2f}, "
                f"folded {V._fingers_folded(squeeze, self.config)}, correlation "
                f"{V._correlation(np.array(squeeze.curls)):.2f}, both rose "
                f"{self._both_rose(squeeze, t)}, fold agrees "
                f"{self._fold_agrees(squeeze.start, t)}")
        return event

    def traced_looks(self: Any, reading: Any, t: float) -> list[Any]:
        if not watched(self.seat, t):
            return looks(self, reading, t)
        was = self._look.squeeze
        waiting = {id(w): w for w in self._look_waiting}
        before = {key: (self._near_shot(sq.start, sq.end, self._shot_times),
                        self._rebound(sq.peak_t), self._fold_agrees(sq.start, sq.end),
                        max((v for u, v, _ in self._fold_scores
                             if sq.start - self.config.smooth <= u <= sq.end), default=None))
                  for key, (sq, _) in waiting.items()}
        done = looks(self, reading, t)
        if was is not None and self._look.squeeze is None:
            say(f"{t:7.2f}  seat {self.seat:2}  look: squeeze {was[0]:.2f}-{t:.2f} ends, "
                f"gun {'yes' if self._look_gun else 'no'}, joints rose {self._look_depth:.0f} "
                f"(needs {self.config.look_rise:.0f})")
        for key, w in waiting.items():
            if w not in self._look_waiting:
                near, rebound, agrees, best = before[key]
                sq = w[0]
                shot = any(e.source == "look" and abs(e.t - sq.peak_t) < 1e-6 for e in done)
                say(f"{t:7.2f}  seat {self.seat:2}  look: squeeze {sq.start:.2f}-{sq.end:.2f} "
                    f"{'a shot' if shot else 'no shot'}: near a shot {near}, rebound {rebound}, "
                    f"fold agrees {agrees} (best "
                    f"{'none' if best is None else f'{best:.1f}'})")
        return done

    def progress(t: float) -> None:
        if t > end:
            raise _Done

    stages_module.SeatStages.update = traced_stages  # type: ignore[method-assign]
    V.ShotDetector.update = traced_update  # type: ignore[method-assign]
    V.ShotDetector._judge = traced_judge  # type: ignore[method-assign]
    V.ShotDetector._looks = traced_looks  # type: ignore[method-assign]
    try:
        scan(info, table, ScanConfig(), progress=progress)
    except _Done:
        pass
    finally:
        stages_module.SeatStages.update = stages_update  # type: ignore[method-assign]
        V.ShotDetector.update = detector_update  # type: ignore[method-assign]
        V.ShotDetector._judge = judge  # type: ignore[method-assign]
        V.ShotDetector._looks = looks  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("clip", type=Path)
    parser.add_argument("--seats", required=True, help="comma-separated seat numbers, e.g. 7,1")
    parser.add_argument("--from", dest="start", type=float, default=0.0, help="seconds")
    parser.add_argument("--to", dest="end", type=float, required=True, help="seconds")
    parser.add_argument("--table", type=Path, help="default: CLIP with .table.json")
    args = parser.parse_args(argv)
    try:
        seats = {int(s) for s in args.seats.split(",")}
    except ValueError:
        print(f"--seats: expected seat numbers separated by commas, got {args.seats!r}",
              file=sys.stderr)
        return 2
    table = args.table or args.clip.with_name(args.clip.stem + ".table.json")
    try:
        trace(args.clip, table, seats, args.start, args.end)
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
