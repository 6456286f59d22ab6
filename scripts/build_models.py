"""Rebuild the hand-landmarker bundles in ``models/`` from the Apache-2.0 MediaPipe 0.10.21 wheel.

MediaPipe 0.10.21 is the last wheel that ships the hand models; newer versions download them at
run time, which this product must never do. The Tasks ``HandLandmarker`` of mediapipe 1.2.x loads
a ``.task`` bundle: a zip *stored uncompressed* holding ``hand_detector.tflite`` (the FULL palm
model: the lite one lacks NormalizationOptions metadata and fails to load) and
``hand_landmarks_detector.tflite`` (full or lite landmark model).

Usage::

    python scripts/build_models.py                      # pip-downloads the wheel into a temp dir
    python scripts/build_models.py --wheel path/to/mediapipe-0.10.21-*.whl

It rewrites ``models/hand_landmarker_{full,lite}.task`` and their lines of
``models/SHA256SUMS``; the bundles are byte-for-byte reproducible (fixed zip timestamps).
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "models"
PALM = "mediapipe/modules/palm_detection/palm_detection_full.tflite"
LANDMARK = "mediapipe/modules/hand_landmark/hand_landmark_{variant}.tflite"
FIXED_TIME = (2025, 1, 1, 0, 0, 0)


def fetch_wheel(dest: Path) -> Path:
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "mediapipe==0.10.21",
            "--python-version",
            "3.11",
            "--only-binary=:all:",
            "-d",
            str(dest),
        ],
        check=True,
    )
    return Path(glob.glob(str(dest / "mediapipe-0.10.21-*.whl"))[0])


def write_bundle(wheel: zipfile.ZipFile, variant: str, out: Path) -> None:
    members = {
        "hand_detector.tflite": wheel.read(PALM),
        "hand_landmarks_detector.tflite": wheel.read(LANDMARK.format(variant=variant)),
    }
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_STORED) as bundle:
        for name, data in members.items():
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_STORED
            bundle.writestr(info, data)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", type=Path, help="mediapipe 0.10.21 wheel (downloaded if absent)")
    args = parser.parse_args()
    MODELS.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        wheel_path = args.wheel or fetch_wheel(Path(tmp))
        with zipfile.ZipFile(wheel_path) as wheel:
            for variant in ("full", "lite"):
                write_bundle(wheel, variant, MODELS / f"hand_landmarker_{variant}.task")
            (MODELS / "MEDIAPIPE_LICENSE.txt").write_bytes(
                wheel.read("mediapipe-0.10.21.dist-info/LICENSE")
            )
    sums_file = MODELS / "SHA256SUMS"
    sums: dict[str, str] = {}  # other models' lines (e.g. silero_vad.onnx) are kept
    if sums_file.exists():
        for line in sums_file.read_text().splitlines():
            if line.strip():
                digest, name = line.split(maxsplit=1)
                sums[name.strip()] = digest
    for path in sorted(MODELS.glob("*.task")):
        sums[path.name] = hashlib.sha256(path.read_bytes()).hexdigest()
        print(f"{sums[path.name]}  {path.name}  {path.stat().st_size} bytes")
    sums_file.write_text("".join(f"{d}  {n}\n" for n, d in sorted(sums.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
