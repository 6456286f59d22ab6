"""Locate and verify the bundled model files in ``models/`` (never downloads anything)."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Literal

from mafiavision.errors import InputError, MissingInputError

MODELS_DIR = Path(__file__).resolve().parents[2] / "models"

HandVariant = Literal["full", "lite"]


class ModelError(InputError):
    """A model file is missing, corrupt or not what its checksum says."""


def _expected_sums(models_dir: Path) -> dict[str, str]:
    sums = models_dir / "SHA256SUMS"
    if not sums.exists():
        return {}
    out: dict[str, str] = {}
    for line in sums.read_text().splitlines():
        if line.strip():
            digest, name = line.split(maxsplit=1)
            out[name.strip()] = digest
    return out


@cache
def _verified(path: Path) -> Path:
    if not path.exists():
        raise MissingInputError(
            f"{path}: model file not found (rebuild it with `python scripts/build_models.py`)"
        )
    expected = _expected_sums(path.parent).get(path.name)
    if expected is not None:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest != expected:
            raise ModelError(
                f"{path}: sha256 {digest[:12]}… does not match SHA256SUMS ({expected[:12]}…); "
                "the file is corrupt: rebuild it with `python scripts/build_models.py`"
            )
    return path


def hand_landmarker_path(variant: HandVariant = "full", models_dir: Path | None = None) -> Path:
    """Path of the verified hand-landmarker bundle of the given variant."""
    if variant not in ("full", "lite"):
        raise ModelError(f"hand model variant must be 'full' or 'lite', not {variant!r}")
    return _verified((models_dir or MODELS_DIR) / f"hand_landmarker_{variant}.task")
