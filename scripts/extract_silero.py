"""Extract ``models/silero_vad.onnx`` from the MIT-licensed ``silero-vad`` 6.2.3 wheel.

The wheel's Python package imports torch, which MafiaVision does not need: only the ONNX file is
kept and run with onnxruntime (``mafiavision.audio.vad``). The file is copied byte for byte, so
its sha256 matches ``models/SHA256SUMS``.

Usage::

    python scripts/extract_silero.py                       # pip-downloads the wheel (no deps)
    python scripts/extract_silero.py --wheel silero_vad-6.2.3-py3-none-any.whl
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
VERSION = "6.2.3"
MEMBER = "silero_vad/data/silero_vad.onnx"
LICENSE = f"silero_vad-{VERSION}.dist-info/licenses/LICENSE"


def fetch_wheel(dest: Path) -> Path:
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", f"silero-vad=={VERSION}",
         "--only-binary=:all:", "-d", str(dest)],
        check=True,
    )
    return Path(glob.glob(str(dest / f"silero_vad-{VERSION}-*.whl"))[0])


def extract(wheel_path: Path, models_dir: Path) -> str:
    with zipfile.ZipFile(wheel_path) as wheel:
        data = wheel.read(MEMBER)
        licence = wheel.read(LICENSE)
    (models_dir / "silero_vad.onnx").write_bytes(data)
    (models_dir / "SILERO_VAD_LICENSE.txt").write_bytes(licence)
    return hashlib.sha256(data).hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel", type=Path,
                        help=f"silero-vad {VERSION} wheel (downloaded if absent)")
    parser.add_argument("--models-dir", type=Path, default=MODELS)
    args = parser.parse_args()
    if args.wheel is not None:
        digest = extract(args.wheel, args.models_dir)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            digest = extract(fetch_wheel(Path(tmp)), args.models_dir)
    print(f"{digest}  silero_vad.onnx")
    sums = args.models_dir / "SHA256SUMS"
    listed = sums.read_text() if sums.exists() else ""
    if f"{digest}  silero_vad.onnx" not in listed:
        print(f"note: SHA256SUMS has no line '{digest}  silero_vad.onnx'", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
