"""The analysis of the sample clips (run once by the ``batch_run`` fixture) against their truth."""

import json

import pytest

from mafiavision.analysis.events import Events
from tests.analysis.conftest import SAMPLES, TEST_CLIPS, BatchRun, open_page

#: A shot found this close to the truth's deepest point is the same shot.
SHOT_TOLERANCE = 0.25


def load(batch_run: BatchRun, game: str) -> Events:
    if game not in batch_run.rows:
        pytest.skip(f"{game} is not among the sample clips")
    return Events.load(batch_run.out / game / "events.json")


def truth_of(game: str) -> dict:
    return json.loads((SAMPLES / f"{game}.truth.json").read_text())


@pytest.mark.parametrize("game", TEST_CLIPS)
def test_hunts_are_found_with_their_members(batch_run: BatchRun, game: str) -> None:
    events, truth = load(batch_run, game), truth_of(game)
    assert [sorted(h.members) for h in events.hunts] == [sorted(h["members"])
                                                         for h in truth["hunts"]]
    for hunt, want in zip(events.hunts, truth["hunts"], strict=True):
        up = [(h["up"], h["down"]) for h in truth["hands"] if h["seat"] in want["members"]]
        raised = (min(a for a, _ in up), max(b for _, b in up))
        overlap = min(hunt.end, raised[1]) - max(hunt.start, raised[0])
        assert overlap >= 0.6 * (raised[1] - raised[0])


@pytest.mark.parametrize("game", TEST_CLIPS)
def test_checks_match_the_truth(batch_run: BatchRun, game: str) -> None:
    events, truth = load(batch_run, game), truth_of(game)
    assert [(c.seat, c.value) for c in events.checks] == [(c["by"], c["shown"])
                                                         for c in truth["checks"]]
    for check, want in zip(events.checks, truth["checks"], strict=True):
        shown = next(g for g in truth["gestures"] if g["kind"] == "number"
                     and g["seat"] == want["by"])
        assert check.start < shown["end"] and check.end > shown["start"]


@pytest.mark.parametrize("game", TEST_CLIPS)
def test_verdicts_match_the_truth(batch_run: BatchRun, game: str) -> None:
    events, truth = load(batch_run, game), truth_of(game)
    assert [(h.verdict.outcome, h.verdict.target,
             {m.seat: (m.kind, m.target) for m in h.verdict.members}) for h in events.hunts] == [
        (h["verdict"], h["target"], {o["seat"]: (o["kind"], o["number"] if o["kind"] == "shot"
                                                 else None) for o in h["observations"]})
        for h in truth["hunts"]]


@pytest.mark.parametrize("game", TEST_CLIPS)
def test_orders_match_the_truth(batch_run: BatchRun, game: str) -> None:
    events, truth = load(batch_run, game), truth_of(game)
    assert [(o.seat, o.orders) for o in events.orders] == [(o["by"], o["values"])
                                                          for o in truth["orders"]]


@pytest.mark.parametrize("game", TEST_CLIPS)
def test_a_shot_not_in_the_truth_is_left_to_the_moderator(batch_run: BatchRun, game: str) -> None:
    """Every shot found is a real one, or a weak one (below the arbiter's ``sure``) whose hunt
    goes to the moderator: nothing invented decides a hunt silently."""
    from mafiavision.night.arbiter import Config

    events, truth = load(batch_run, game), truth_of(game)
    real = [(g["seat"], g["peak"]) for g in truth["gestures"] if g["kind"] == "shot"]
    for hunt in events.hunts:
        for shot in hunt.shots:
            if not any(seat == shot.seat and abs(peak - shot.t) <= SHOT_TOLERANCE
                       for seat, peak in real):
                assert shot.confidence < Config().sure, f"invented sure shot {shot}"
                assert hunt.verdict.needs_moderator, f"invented shot {shot} decided the hunt"


@pytest.mark.parametrize("game", TEST_CLIPS)
def test_verdicts_follow_from_shots_and_windows(batch_run: BatchRun, game: str) -> None:
    for hunt in load(batch_run, game).hunts:
        windows = {w.seat: w for w in hunt.windows}
        targets = set()
        for member in hunt.verdict.members:
            if member.kind == "shot":
                w = windows[member.target]
                assert len(member.shot_times) == 1
                assert w.start <= member.shot_times[0] < w.end
                targets.add(member.target)
        unanimous = len(targets) == 1 and all(m.kind == "shot" for m in hunt.verdict.members)
        assert (hunt.verdict.outcome == "hit") == unanimous
        assert hunt.verdict.target == (targets.pop() if unanimous else None)


def test_windows_follow_the_spoken_numbers(batch_run: BatchRun) -> None:
    for game in TEST_CLIPS:
        if game not in batch_run.rows:
            continue
        onsets = {w["number"]: w["onset"] for w in truth_of(game)["words"]
                  if w["kind"] == "number"}
        for hunt in load(batch_run, game).hunts:
            assert [w.seat for w in hunt.windows] == sorted(onsets)
            for w in hunt.windows:
                assert abs(w.onset - onsets[w.seat]) <= 0.2


def test_no_audio_is_a_vision_only_analysis(batch_run: BatchRun) -> None:
    events = Events.load(batch_run.out / "noaudio" / "events.json")
    assert events.vision_only and not events.source.has_audio
    assert all(not h.windows for h in events.hunts)
    assert "VISION-ONLY" in (batch_run.out / "noaudio" / "report.html").read_text()


def test_truncated_file_is_analysed_up_to_where_it_stops(batch_run: BatchRun) -> None:
    events = Events.load(batch_run.out / "truncated" / "events.json")
    source = events.source
    assert source.stopped_early
    assert 0 < source.decoded_until < source.duration - 1
    assert "stopped decoding at" in (batch_run.out / "truncated" / "report.html").read_text()


@pytest.mark.slow
@pytest.mark.parametrize("game", TEST_CLIPS)
def test_report_shows_the_verdicts_in_chromium(batch_run: BatchRun, browser, game: str) -> None:
    events = load(batch_run, game)
    page, errors = open_page(browser, batch_run.out / game / "report.html")
    assert errors == []
    cards = page.locator(".verdict")
    assert cards.count() == len(events.hunts)
    for card, hunt in zip(cards.all(), events.hunts, strict=True):
        text = card.inner_text()
        assert ("HIT on seat" in text) == (hunt.verdict.outcome == "hit")
        assert f"confidence {hunt.verdict.confidence:.2f}" in text
    assert page.locator(".check").count() == len(events.checks)
    broken = page.evaluate(
        "Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0).length")
    assert broken == 0
    page.close()
