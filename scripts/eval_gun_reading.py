"""How often a raised hand reads as the gun: by its pose and by the shot detector's gun check.

On recorded landmarks of rendered nights (``scripts/eval_sample_gestures.py --cache DIR``, which
records them), every fresh frame of a seat's hand (the hand :func:`continuing_hand` picks) is read
two ways: the pose of :func:`classify_hand` and the shot detector's gun check
(:func:`mafiavision.analysis.seats.checks_gun`: :func:`mafiavision.vision.shots.shows_gun` on the
reading the detector takes, both networks' mean with ``lite+full``), the two the hunt finder now
holds as the gun. Frames are grouped by what the truth says the hand does: a hunt member in the
2.5 s before its shot's deepest point (by its view, palm or back), a civilian's moving hand, a
leader's check.

    python scripts/eval_gun_reading.py --samples DIR --cache DIR [--samples DIR --cache DIR ...]
        [--model lite|lite+full]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from eval_sample_gestures import _by_time, seen_at  # noqa: E402

from mafiavision.analysis.seats import checks_gun  # noqa: E402
from mafiavision.vision.gestures import classify_hand  # noqa: E402
from mafiavision.vision.shots import ShotConfig, continuing_hand  # noqa: E402

#: A hunt member's frames: this long before its shot's deepest point.
BEFORE = 2.5


def kinds_at(truth: dict, t: float) -> dict[int, str]:
    """What each seat's raised hand does at ``t`` by the truth (members first)."""
    kinds: dict[int, str] = {}
    for g in truth["gestures"]:
        if g["kind"] == "shot" and 0 <= g["peak"] - t <= BEFORE:
            kinds[g["seat"]] = f"hunt member, {g['view']}"
    for d in truth["distractions"]:
        if d["kind"] == "move" and d["start"] <= t <= d["end"]:
            kinds.setdefault(d["seat"], "civilian moving a hand")
    for g in truth["gestures"]:
        if g["kind"] == "number" and g["start"] <= t <= g["end"]:
            kinds.setdefault(g["seat"], "leader's check")
    return kinds


def read_clip(clip: Path, cache: Path, model: str, tally: defaultdict[str, Counter]) -> None:
    truth = json.loads(clip.with_suffix(".truth.json").read_text(encoding="utf-8"))
    with np.load(cache / f"{clip.stem}.{model}.npz") as f:
        data = {k: f[k] for k in f.files}
    floor = ShotConfig().open_floor
    by_time = _by_time(data)
    for t in data["times"]:
        for seat, kind in kinds_at(truth, float(t)).items():
            hand = continuing_hand(seen_at(data, by_time, seat, float(t)), None)
            if hand is None or hand.held:
                continue
            tally[kind].update(frames=1,
                               pose=classify_hand(hand.world, hand.landmarks).pose == "gun",
                               check=checks_gun(hand, floor))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=Path, action="append", required=True,
                        help="folder of clips with .truth.json (repeat for several sets)")
    parser.add_argument("--cache", type=Path, action="append", required=True,
                        help="its recorded landmarks (one per --samples, same order)")
    parser.add_argument("--model", choices=("lite", "lite+full"), default="lite+full")
    args = parser.parse_args()
    if len(args.samples) != len(args.cache):
        parser.error("give one --cache for each --samples")
    tally: defaultdict[str, Counter] = defaultdict(Counter)
    for samples, cache in zip(args.samples, args.cache, strict=True):
        clips = sorted(samples.glob("*.mp4"))
        missing = [c.stem for c in clips if not (cache / f"{c.stem}.{args.model}.npz").exists()]
        if not clips or missing:
            parser.error(f"--cache {cache}: no recorded landmarks for {missing or samples}")
        for clip in clips:
            read_clip(clip, cache, args.model, tally)
    print(f"data: {', '.join(map(str, args.samples))}; model {args.model}")
    print("| the hand (by the truth) | frames | the pose reads the gun | the detector's check |")
    print("|---|---|---|---|")
    for kind, c in sorted(tally.items()):
        pose, check = c["pose"] / c["frames"], c["check"] / c["frames"]
        print(f"| {kind} | {c['frames']} | {pose:.0%} | {check:.0%} |")


if __name__ == "__main__":
    main()
