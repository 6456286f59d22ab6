"""Shared fixtures: where the real data lives, and skipping clearly when it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
HANDDATA = SHARED / "handdata"


@pytest.fixture(scope="session")
def handdata() -> Path:
    if not HANDDATA.is_dir():
        pytest.skip(f"real hand data not found at {HANDDATA} (needs ../shared beside the repo)")
    return HANDDATA
