"""The confirmation screen in headless Debian chromium, on the real session and uvicorn server:
the verdict card shown, confirm and correct, undo, and the pairing refusal."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from mafiavision.night.session import LiveSession
from mafiavision.ui.server import Server
from tests.night.helpers import feed, new_session, number, shot, to_night_one

pytestmark = pytest.mark.slow


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(session: LiveSession, host: str) -> Server:
    server = Server(session, host=host, port=free_port())
    server.start(out=open(os.devnull, "w"))  # noqa: SIM115
    return server


@pytest.fixture
def night(tmp_path: Path) -> Iterator[tuple[LiveSession, str]]:
    session = new_session(tmp_path / "game.jsonl")
    to_night_one(session)
    server = serve(session, "127.0.0.1")
    yield session, f"http://127.0.0.1:{server.port}/"
    server.stop()


def test_verdict_confirm_correct_and_undo_on_the_screen(night, browser) -> None:
    session, url = night
    clock = session.clock  # type: ignore[attr-defined]
    t = clock.t
    feed(session, clock, 4, shots=[shot(3, t + 2.5), shot(5, t + 2.6), shot(7, t + 2.55)])
    page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone
    page.goto(url)
    page.wait_for_selector("#app:not([hidden])")
    # the screen fills its labels after it shows: wait for the text (a loaded machine is slower)
    expect(page.locator("#step-label")).to_contain_text("mafia goes hunting")
    page.click("#finish")
    # The card: no count was heard, so it asks and Confirm is disabled.
    expect(page.locator("#card")).to_be_visible()
    expect(page.locator("#card-questions li").first).to_have_text(
        "the count of numbers was not heard: no timing for the shots")
    expect(page.locator("#confirm")).to_be_disabled()
    assert page.locator("#card-members .member").count() == 3
    # Correct: a hit on seat 6.
    page.select_option("#hit-seat", "6")
    page.click("#hit")
    expect(page.locator("#step-label")).to_contain_text("checks")
    hunt = session.game.state.verdicts[-1]
    assert (hunt.team, hunt.target) == ("mafia", 6)
    # The Don's check: he shows 9; the card puts the question and Confirm records the nod.
    feed(session, clock, 2, numbers=[number(5, clock.t + 0.5, clock.t + 1.2, 9)])
    page.click("#finish")
    expect(page.locator("#card-summary")).to_have_text("Is seat 9 the Sheriff?")
    page.click("#confirm")
    expect(page.locator("#checks")).to_contain_text("seat 5 → 9: yes")
    assert session.game.state.checks[-1].target == 9
    # Undo twice: the check, then the hunt.
    page.click("#undo")
    expect(page.locator("#checks")).to_have_text("")
    page.click("#undo")
    expect(page.locator("#step-label")).to_contain_text("hunting")
    assert session.game.state.verdicts == ()
    # Roles are on the moderator's screen.
    expect(page.locator("#seats")).to_contain_text("don")
    page.close()


def test_pairing_refused_then_accepted_in_the_browser(tmp_path: Path, browser) -> None:
    session = new_session(tmp_path / "game.jsonl")
    to_night_one(session)
    server = serve(session, "0.0.0.0")
    try:
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{server.port}/")
        page.wait_for_selector("#pairing:not([hidden])")
        assert page.is_hidden("#app")
        wrong = f"{(int(server.pairing.code) + 1) % 10**6:06d}"
        page.fill("#pair-code", wrong)
        page.click("#pair-form button")
        expect(page.locator("#pair-error")).to_have_text("wrong pairing code")
        # Nothing of the game reached the page.
        html = page.content()
        assert "don" not in html and "sheriff" not in html and "hunting" not in html
        page.fill("#pair-code", server.pairing.code)
        page.click("#pair-form button")
        page.wait_for_selector("#app:not([hidden])")
        expect(page.locator("#seats")).to_contain_text("don")
        page.close()
    finally:
        server.stop()
