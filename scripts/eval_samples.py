"""Measure how real MediaPipe sees the rendered hands of the sample clips.

For every clip in ``sample_videos/`` (or the names given): decode the video with PyAV, crop each
raised hand's seat region from the clip's ``table.json`` and run the Tasks HandLandmarker (full
model, IMAGE mode, one call per crop) on the frames where the truth says a hand is fully raised.
Prints per clip and in total:

* detection rate: frames with the expected number of hands found ÷ frames with a hand raised;
* bend visibility: for every shot, the Pearson correlation between the ground-truth bend and the
  summed index+middle flexion read from MediaPipe's world landmarks over the shot ±0.4 s, and the
  measured rise (peak minus the median of the 1 s before the shot).

    python scripts/eval_samples.py [names...] [--dir sample_videos] [--model full|lite]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import av
import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from mafiavision.machine import describe_machine  # noqa: E402
from mafiavision.samples.truth import ClipTruth  # noqa: E402
from mafiavision.vision.models import hand_landmarker_path  # noqa: E402

CROP = 256  # crops are resized to this many pixels on the long side


def flexion(world: np.ndarray) -> float:
    """Summed MCP+PIP+DIP flexion of index and middle (degrees) from 21 world landmarks."""
    total = 0.0
    for base in (5, 9):
        chain = [world[0]] + [world[base + k] for k in range(4)]
        for k in range(1, 4):
            u = chain[k] - chain[k - 1]
            v = chain[k + 1] - chain[k]
            c = float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v) + 1e-9))
            total += float(np.degrees(np.arccos(np.clip(c, -1.0, 1.0))))
    return total


def crop_box(truth: ClipTruth, seat: int) -> tuple[int, int, int, int]:
    w, h = truth.table.image_size
    return truth.table.region(seat).pixel_box(w, h)


def evaluate(truth: ClipTruth, video: Path, landmarker_for: dict) -> dict:
    import mediapipe as mp

    fps = truth.video.fps
    want: dict[int, dict[int, int]] = {}  # frame -> seat -> hands expected fully raised
    for h in truth.hands:
        for i in range(int(np.ceil(h.up * fps)), int(np.floor(h.down * fps)) + 1):
            want.setdefault(i, {})
            want[i][h.seat] = want[i].get(h.seat, 0) + 1
    found = 0
    total = 0
    per_seat: dict[int, list[int]] = {}
    flex: dict[int, dict[float, float]] = {}
    with av.open(str(video)) as container:
        for i, frame in enumerate(container.decode(video=0)):
            if i not in want:
                continue
            img = frame.to_ndarray(format="rgb24")
            t = i / fps
            for seat, n in want[i].items():
                x0, y0, x1, y1 = crop_box(truth, seat)
                crop = img[y0:y1, x0:x1]
                s = CROP / max(crop.shape[:2])
                crop = cv2.resize(crop, None, fx=s, fy=s, interpolation=cv2.INTER_CUBIC)
                res = landmarker_for[n].detect(
                    mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(crop)))
                total += 1
                counts = per_seat.setdefault(seat, [0, 0])
                counts[1] += 1
                if len(res.hand_landmarks) >= n:
                    found += 1
                    counts[0] += 1
                    if n == 1:
                        world = np.array([[p.x, p.y, p.z] for p in res.hand_world_landmarks[0]])
                        flex.setdefault(seat, {})[round(t, 4)] = flexion(world)
    shots = []
    track = {b.seat: dict(zip(b.times, b.degrees, strict=True)) for b in truth.bends}
    for g in truth.gestures:
        if g.kind != "shot" or g.seat not in flex:
            continue
        ts = [t for t in track[g.seat] if g.start - 0.4 <= t <= g.end + 0.4]
        pairs = [(track[g.seat][t], flex[g.seat][t]) for t in ts if t in flex[g.seat]]
        before = [flex[g.seat][t] for t in track[g.seat]
                  if g.start - 1.0 <= t < g.start and t in flex[g.seat]]
        if len(pairs) < 5:
            shots.append({"seat": g.seat, "peak": g.peak, "r": float("nan"), "rise": float("nan"),
                          "truth": g.depth_deg})
            continue
        a = np.array(pairs)
        r = float(np.corrcoef(a[:, 0], a[:, 1])[0, 1]) if a[:, 1].std() > 0 else 0.0
        base = float(np.median(before)) if before else float(a[0, 1])
        shots.append({"seat": g.seat, "peak": g.peak, "r": r, "rise": float(a[:, 1].max() - base),
                      "truth": g.depth_deg})
    return {"found": found, "total": total, "shots": shots, "per_seat": per_seat}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("names", nargs="*")
    ap.add_argument("--dir", type=Path, default=ROOT / "sample_videos")
    ap.add_argument("--model", choices=("full", "lite"), default="full")
    args = ap.parse_args(argv)
    from mediapipe.tasks.python import BaseOptions, vision

    def make(n: int):
        opts = vision.HandLandmarkerOptions(
            base_options=BaseOptions(model_asset_path=str(hand_landmarker_path(args.model))),
            running_mode=vision.RunningMode.IMAGE, num_hands=n)
        return vision.HandLandmarker.create_from_options(opts)

    landmarker_for = {1: make(1), 2: make(2)}
    paths = sorted(args.dir.glob("*.truth.json"))
    if args.names:
        paths = [p for p in paths if p.name.removesuffix(".truth.json") in set(args.names)]
    print(f"eval_samples: model={args.model}, crops {CROP}px, IMAGE mode; machine "
          f"{describe_machine()}")
    all_found = all_total = 0
    all_shots: list[dict] = []
    start = time.perf_counter()
    for p in paths:
        truth = ClipTruth.load(p)
        res = evaluate(truth, p.with_name(f"{truth.name}.mp4"), landmarker_for)
        all_found += res["found"]
        all_total += res["total"]
        all_shots += res["shots"]
        rs = [s["r"] for s in res["shots"]]
        rate = res["found"] / max(res["total"], 1)
        print(f"{truth.name}: detected {res['found']}/{res['total']} = {100 * rate:.1f}% ; "
              f"shots {len(rs)}, r = "
              + ", ".join(f"{s['seat']}:{s['r']:.2f}" for s in res["shots"])
              + (" ; rise° = " + ", ".join(f"{s['rise']:.0f}" for s in res["shots"])
                 if rs else "")
              + " ; seats " + " ".join(f"{k}:{f}/{n}" for k, (f, n) in sorted(
                  res["per_seat"].items())), flush=True)
    rs = np.array([s["r"] for s in all_shots], float)
    rise = np.array([s["rise"] for s in all_shots], float)
    print(f"TOTAL: detected {all_found}/{all_total} = {100 * all_found / max(all_total, 1):.1f}% "
          f"of raised-hand frames")
    if rs.size:
        ok = np.isfinite(rs)
        print(f"shots: {rs.size}; measurable {ok.sum()}; correlation median {np.nanmedian(rs):.2f}"
              f", min {np.nanmin(rs):.2f}; r >= 0.7 in {(rs[ok] >= 0.7).sum()}/{ok.sum()}; "
              f"measured rise median {np.nanmedian(rise):.0f}°, min {np.nanmin(rise):.0f}°")
    print(f"({time.perf_counter() - start:.0f}s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
