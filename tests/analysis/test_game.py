"""The live record of a sample clip against its analysis (the ``batch_run`` results)."""

import json
from pathlib import Path

import pytest

from mafiavision.analysis.events import Events
from mafiavision.analysis.game import compare, read_live, write_record
from mafiavision.rules import Check, Hunt, MemberShot, load_rules
from mafiavision.rules.record import Evidence, replay, start_game
from mafiavision.rules.script import Script
from tests.analysis.conftest import SAMPLES, BatchRun


def live_record(path: Path, game: str, events: Events, hunt_shots=None, checks=None) -> Path:
    """A live record of the clip's night: the truth's deal, the hunt and checks as given, with
    evidence times taken from the clip's truth (as a live session would have written them)."""
    truth = json.loads((SAMPLES / f"{game}.truth.json").read_text())
    roles = [truth["roles"][str(s)] for s in range(1, truth["seats"] + 1)]
    spans = {"hunt": [(h["up"], h["down"]) for h in truth["hands"]],
             "check": [(g["start"], g["end"]) for g in truth["gestures"] if g["kind"] == "number"]}

    def evidence(action):
        kind = {Hunt: "hunt", Check: "check"}.get(type(action))
        if kind is None or not spans[kind]:
            return None
        start, end = spans[kind].pop(0) if kind == "check" else spans[kind][0]
        return Evidence(source=f"{game}.mp4", video_time=start, video_end=end)

    play = Script(start_game(path, load_rules(truth["rules"])), evidence)
    play.deal(roles)
    for h in truth["hunts"] or [{"group": "mafia"}]:
        play.hunt(h["group"], hunt_shots)
    for check in checks or []:
        play.check(*check)
    play.game.journal.close()
    return path


def test_a_recorded_hit_the_analysis_calls_a_miss_is_listed(batch_run: BatchRun, tmp_path):
    events = Events.load(batch_run.out / "kharkiv_hit_ru" / "events.json")
    record = live_record(tmp_path / "live.jsonl", "kharkiv_hit_ru", events, hunt_shots=6)
    _, entries = read_live(record)
    found = {m.seat: (m.kind, m.target) for m in events.hunts[0].verdict.members}
    disputes = compare(entries, events.hunts, events.checks)
    if found == {3: ("shot", 6), 5: ("shot", 6), 7: ("shot", 6)}:
        assert disputes == []
    else:
        (dispute,) = disputes
        assert dispute.kind == "hunt"
        assert dispute.record.startswith("mafia: hit on seat 6")
        assert not dispute.analysis.startswith("hit on seat 6")


def test_checks_agree_and_get_their_answers(batch_run: BatchRun, tmp_path) -> None:
    events = Events.load(batch_run.out / "kharkiv_checks_en" / "events.json")
    record = live_record(tmp_path / "live.jsonl", "kharkiv_checks_en", events,
                         checks=[(3, 4), (4, 8)])
    header, entries = read_live(record)
    disputes = compare(entries, events.hunts, events.checks)
    # the clip shows no hunt, the record has one (nobody shot): that is the only dispute
    assert [(d.kind, d.analysis) for d in disputes] == [("hunt", "no hunt found")]
    checks, warnings, info = write_record(tmp_path / "analysis.jsonl", SAMPLES / "x.mp4",
                                          header, entries, events.hunts, events.checks)
    assert warnings == []
    assert [(c.seat, c.role, c.value, c.answer) for c in checks] == [
        (3, "don", 4, True), (4, "sheriff", 8, False)]
    game = replay(tmp_path / "analysis.jsonl")
    assert [type(a).__name__ for a in game.actions[-2:]] == ["Check", "Check"]
    assert (info.actions, info.deal) == (len(game.actions), "the live record")


@pytest.mark.parametrize("shots", [None, 6])
def test_the_analysis_record_replays(batch_run: BatchRun, tmp_path, shots) -> None:
    events = Events.load(batch_run.out / "kharkiv_hit_ru" / "events.json")
    record = live_record(tmp_path / "live.jsonl", "kharkiv_hit_ru", events, hunt_shots=shots)
    header, entries = read_live(record)
    write_record(tmp_path / "analysis.jsonl", SAMPLES / "kharkiv_hit_ru.mp4", header, entries,
                 events.hunts, events.checks)
    hunt = next(a for a in replay(tmp_path / "analysis.jsonl").actions if isinstance(a, Hunt))
    assert {s.seat: (str(s.kind), s.target) for s in hunt.shots} == {
        m.seat: (m.kind, m.target) for m in events.hunts[0].verdict.members}
    assert all(isinstance(s, MemberShot) for s in hunt.shots)


@pytest.mark.parametrize(("calls_dead", "called"), [
    (True, list(range(1, 11))),
    (False, [1, 2, 3, 4, 6, 7, 8, 9, 10]),
])
def test_the_count_calls_the_seats_the_record_says(tmp_path, calls_dead, called) -> None:
    """Seat 5 is voted out on day 1: a club whose moderator skips the dead calls nine seats in
    the night's hunt, and that hunt's count is aligned to those nine."""
    from mafiavision.analysis.game import called_seats
    from mafiavision.rules import Deal

    club = tmp_path / "club.yaml"
    club.write_text(f"base: ukrainian\nname: club\ncalls_dead_seats: {str(calls_dead).lower()}\n")
    rules = load_rules(str(club))
    play = Script(start_game(tmp_path / "live.jsonl", rules))
    play.deal(Deal.random(rules, seed=1).roles)
    play.nominate(1, 5)
    play.nominate(2, 6)
    play.vote({5: set(range(1, 11)) - {5, 6}})
    play.hunt("black", 7)
    play.game.journal.close()
    header, entries = read_live(tmp_path / "live.jsonl")
    assert called_seats(header, entries, [(40.0, 55.0)]) == {0: called}
