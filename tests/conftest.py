"""Shared fixtures: where the real data lives, and skipping clearly when it is absent."""

from __future__ import annotations

from collections.abc import Iterator
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


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """A headless Debian chromium (never a downloaded browser), one per test module.

    Playwright's sync API keeps an event loop running in this thread while it is open, so it
    must be closed before other modules run (their ``asyncio.run`` and their own browser)."""
    if not CHROMIUM.exists():
        pytest.skip(f"Debian chromium not found at {CHROMIUM} (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_FLAGS, headless=True)
        yield b
        b.close()
