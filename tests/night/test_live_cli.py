"""``mafiavision live`` end to end: a sample clip played as a live camera (real-time pace, its
audio track as the microphone) through the real process, uvicorn and headless chromium; the
verdict against the clip's ground truth, confirm, the record, a kill and ``--resume``."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from mafiavision.night.clips import Grade, answer, expected_steps, game_at_clip, grade
from mafiavision.rules.record import replay
from mafiavision.samples.truth import ClipTruth

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_videos"

pytestmark = pytest.mark.slow

#: Seconds to wait for a clip's card: a video file keeps every frame, so on a busy machine the
#: verdict comes late rather than wrong.
CARD_WAIT = 120


def clip(name: str) -> Path:
    video = SAMPLES / f"{name}.mp4"
    if not video.is_file():
        pytest.skip(f"sample clip {video} not found")
    return video


def record_at_clip(path: Path, name: str) -> ClipTruth:
    """A record of the clip's game up to its first step (the clip's deal, every step before it
    passed quietly by the rules engine), its journal closed for the live process."""
    truth = ClipTruth.load(SAMPLES / f"{name}.truth.json")
    game_at_clip(path, truth).journal.close()
    return truth


def play_clip(tmp_path: Path, lives: list[Live], name: str) -> tuple[Live, ClipTruth, Path]:
    """``mafiavision live`` playing the clip as its camera, resumed from a record of the clip's
    game up to its first step; the process, the clip's truth and the record."""
    record = tmp_path / "game.jsonl"
    truth = record_at_clip(record, name)
    live = Live(tmp_path / "live.log", "--video", str(clip(name)),
                "--table", str(SAMPLES / f"{name}.table.json"), "--resume", str(record))
    lives.append(live)
    return live, truth, record


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Live:
    """The ``mafiavision live`` process."""

    def __init__(self, log: Path, *args: str) -> None:
        self.port = free_port()
        self.log = log
        with log.open("w") as out:  # a file, never a pipe nobody reads (MediaPipe logs a lot)
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "mafiavision", "live", *args, "--port", str(self.port)],
                cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, text=True,
            )
        self.url = f"http://127.0.0.1:{self.port}/"
        deadline = time.monotonic() + 60
        while True:
            assert self.proc.poll() is None, log.read_text()[-2000:]
            try:
                if httpx.get(self.url + "api/hello", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the live server did not come up"
            time.sleep(0.2)

    def state(self) -> dict:
        return httpx.get(self.url + "api/state", timeout=5).json()

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


@pytest.fixture
def lives() -> Iterator[list[Live]]:
    started: list[Live] = []
    yield started
    for live in started:
        if live.proc.poll() is None:
            live.kill()


def wait_for_card(live: Live, seconds: float) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        card = live.state()["card"]
        if card is not None:
            return card
        time.sleep(0.2)
    raise AssertionError(f"no verdict card within {seconds:.0f} s: {live.state()['warnings']}")


def expected_hit(truth: ClipTruth) -> int | None:
    hunt = truth.hunts[0]
    return hunt.target if hunt.verdict == "hit" else None


def test_sample_hunt_confirmed_in_the_browser_then_kill_and_resume(tmp_path, lives,
                                                                  browser) -> None:
    video = clip("kharkiv_hit_ru")
    record = tmp_path / "game.jsonl"
    truth = record_at_clip(record, "kharkiv_hit_ru")
    args = ["--video", str(video), "--table", str(SAMPLES / "kharkiv_hit_ru.table.json"),
            "--record", str(record), "--resume"]
    live = Live(tmp_path / "live1.log", *args)
    lives.append(live)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(live.url)
    expect(page.locator("#step-label")).to_contain_text("mafia goes hunting")
    card = wait_for_card(live, CARD_WAIT)
    # The verdict equals the ground truth (a hit on the seat all members shot).
    assert card["hit"] == expected_hit(truth), (card["summary"], live.state()["source"])
    expect(page.locator("#card-summary")).to_have_text(
        f"mafia: hit on seat {expected_hit(truth)}", timeout=5000)
    expect(page.locator("#card-members .member")).to_have_count(3)
    expect(page.locator("#card-members img.strip")).to_have_count(3)
    if card["questions"]:
        pytest.fail(f"the clean hit asked the moderator: {card['questions']}")
    page.click("#confirm")
    expect(page.locator("#step-label")).to_contain_text("checks")
    page.close()
    # Confirmed means written: the record's last line is the hunt, with its evidence.
    last = json.loads(record.read_text().splitlines()[-1])
    assert last["action"] == "hunt"
    assert {s["target"] for s in last["args"]["shots"]} == {expected_hit(truth)}
    assert last["evidence"]["source"] == str(video)
    before = replay(record).state
    live.kill()
    # Started again on the same record, the game is exactly where it was.
    again = Live(tmp_path / "live2.log", *args)
    lives.append(again)
    view = again.state()
    assert replay(record).state == before
    assert view["step"]["kind"] == "check"
    assert [s["alive"] for s in view["seats"]] == [True] * truth.seats


@pytest.mark.parametrize("name", ["ukrainian_miss_between_ru"])
def test_sample_miss_verdict_equals_truth_or_asks(tmp_path, lives, name) -> None:
    live, truth, _ = play_clip(tmp_path, lives, name)
    card = wait_for_card(live, CARD_WAIT)
    # The verdict (hit on which seat, or miss) equals the truth, or the card asks the moderator.
    assert grade(card, expected_steps(truth)[0]) in (Grade.CORRECT, Grade.ASKED), card["summary"]


@pytest.mark.parametrize("name", ["triad_checks_en"])
def test_sample_checks_read_as_in_the_truth(tmp_path, lives, name) -> None:
    """Each leader's check in the rule set's order (Triad, after its two hunts: the Boss shows
    10 with two hands, the Kambu 2, the Commissar 5): each card puts the seat shown to the
    moderator ("Is seat 10 the Commissar?"); his answer over HTTP goes to the record.
    (``scripts/bench_live.py`` runs every checks clip; one keeps this test short.)"""
    live, truth, record = play_clip(tmp_path, lives, name)
    for expected in expected_steps(truth):
        check = expected.truth
        card = wait_for_card(live, CARD_WAIT)
        assert (card["kind"], card["leader"], card["target"]) == ("check", check.by,
                                                                   check.shown), card
        assert card["summary"].startswith(f"Is seat {check.shown} ")
        assert grade(card, expected) in (Grade.CORRECT, Grade.ASKED)
        r = httpx.post(live.url + "api/command", json=answer(card, expected))
        assert r.status_code == 200, r.text
    checks = [(c.seat, c.target, c.answer) for c in replay(record).state.checks]
    assert checks[-len(truth.checks):] == [(c.by, c.shown, c.answer) for c in truth.checks]
