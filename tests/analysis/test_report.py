import numpy as np
import pytest

from mafiavision.analysis.events import (
    CheckRecord,
    Events,
    HuntRecord,
    MemberRecord,
    RecordInfo,
    ShotRecord,
    SourceInfo,
    VerdictRecord,
    WindowRecord,
)
from mafiavision.analysis.report import render, thumb_key, write_report
from mafiavision.analysis.timeline import TimelineBuilder
from tests.analysis.conftest import open_page


def windows(t0: float, n: int = 10) -> list[WindowRecord]:
    return [WindowRecord(seat=k, start=t0 + k - 1, end=t0 + k, onset=t0 + k - 1.0,
                         confidence=0.9) for k in range(1, n + 1)]


def member(seat, kind, reason, shots=(), target=None):
    return MemberRecord(seat=seat, kind=kind, target=target, reason=reason, confidence=0.8,
                        seen=0.95, shot_times=list(shots))


def events(vision_only=False, stopped=False) -> Events:
    hit = HuntRecord(
        index=1, start=10, end=21, origin="found", members=[3, 7], confidence=0.9,
        windows=windows(10.5),
        shots=[ShotRecord(seat=3, t=15.9, duration=0.3, depth=120, confidence=0.9),
               ShotRecord(seat=7, t=16.0, duration=0.3, depth=110, confidence=0.9)],
        verdict=VerdictRecord(
            outcome="hit", target=6,
            members=[member(3, "shot", "shot on 6", [15.9], 6),
                     member(7, "shot", "shot on 6", [16.0], 6)],
            questions=[], confidence=0.85, spread_ms=100.0, evidence_times=[15.9, 16.0]),
    )
    miss = HuntRecord(
        index=2, start=60, end=71, origin="given", members=[3, 7], confidence=1.0,
        windows=windows(60.5), shots=[],
        verdict=VerdictRecord(
            outcome="miss", target=None,
            members=[member(3, "no_shot", "no shot"), member(7, "no_shot", "no shot")],
            questions=["seat 7's hand was seen in only 60% of the hunt"], confidence=0.6,
            evidence_times=[65.0]),
    )
    check = CheckRecord(index=1, start=30, end=33, origin="found", seat=3, value=8,
                        confidence=0.9, question="Is seat 8 the Sheriff?", doubts=[],
                        evidence_times=[31.5])
    return Events(
        tool_version="test",
        source=SourceInfo(path="game.mp4", width=1280, height=720, fps=30, duration=90,
                          has_audio=not vision_only, decoded_until=50 if stopped else 90,
                          stopped_early=stopped, stop_reason="Invalid data" if stopped else None),
        rules="kharkiv", table="table.json", vision_only=vision_only, sampling={"day_fps": 2},
        hunts=[hit, miss], checks=[check], shots=hit.shots, numbers=[], warnings=[],
    )


def series():
    b = TimelineBuilder([3, 7])
    for t in np.arange(0, 90, 0.1):
        for seat in (3, 7):
            up = 10 <= t <= 21 or 60 <= t <= 71
            b.add(seat, float(t), "gun" if up else None, 2, 40 + 100 * (abs(t - 16) < 0.2)
                  if up else None)
    return b.build()


# a 2x2 JPEG
JPEG = bytes.fromhex(
    "ffd8ffe000104a46494600010100000100010000ffdb004300080606070605080707070909080a0c140d0c0b"
    "0b0c1912130f141d1a1f1e1d1a1c1c20242e2720222c231c1c2837292c30313434341f27393d38323c2e33"
    "3432ffc0000b080002000201011100ffc4001f0000010501010101010100000000000000000102030405060708"
    "090a0bffc400b5100002010303020403050504040000017d01020300041105122131410613516107227114"
    "328191a1082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a434445464748"
    "494a535455565758595a636465666768696a737475767778797a838485868788898a92939495969798999a"
    "a2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5e6e7e8"
    "e9eaf1f2f3f4f5f6f7f8f9faffda0008010100003f00fbfcffd9"
)


@pytest.mark.parametrize(
    ("vision_only", "stopped", "warning"),
    [(False, False, None), (True, False, "VISION-ONLY"), (False, True, "stopped decoding at")],
)
def test_report_states_warnings(vision_only, stopped, warning) -> None:
    page = render(events(vision_only, stopped), series(), {})
    if warning is None:
        assert 'class="warn"' not in page
    else:
        assert warning in page


def test_report_is_self_contained(tmp_path) -> None:
    page = render(events(), series(), {thumb_key(15.9): JPEG})
    assert "<script" not in page
    assert "http://" not in page and "https://" not in page
    assert page.count("data:image/png;base64,") == 3  # activity + one plot per hunt
    assert page.count("data:image/jpeg;base64,") == 1


@pytest.mark.slow
def test_report_loads_in_chromium(browser, tmp_path) -> None:
    path = write_report(tmp_path / "report.html", events(vision_only=True), series(),
                        {thumb_key(15.9): JPEG})
    page, errors = open_page(browser, path)
    assert errors == []
    text = page.inner_text("body")
    assert "HIT on seat 6" in text and "MISS" in text and "VISION-ONLY" in text
    assert "seat 3 shows 8" in text
    broken = page.evaluate(
        "Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0).length")
    assert broken == 0
    page.close()


@pytest.mark.parametrize(
    ("record", "says"),
    [
        (None, ["Not written: the recording does not show the deal", "--deal DEAL.yaml"]),
        (RecordInfo(path="record.jsonl", deal="game.deal.yaml", actions=14, observed=1,
                    next="night 1: the don (seat 5) checks"),
         ["14 actions, the deal from game.deal.yaml; 1 of them seen in the recording",
          "It ends before: night 1: the don (seat 5) checks",
          "mafiavision replay out/game/record.jsonl"]),
    ],
)
def test_report_says_where_the_game_record_is(record, says) -> None:
    page = render(events().model_copy(update={"record": record}), series(), {}, "out/game")
    for text in says:
        assert text in page
