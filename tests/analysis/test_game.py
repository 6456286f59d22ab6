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


#: The actions of each test clip's game record (written from its ``<name>.deal.yaml`` by the
#: batch) that the recording shows; the others are the deal and the steps assumed between them.
SEEN_IN_RECORD = {
    "kharkiv_hit_ru": ["hunt"],
    "kharkiv_miss_other_en": ["hunt"],
    "ukrainian_miss_between_ru": ["hunt"],  # after a day 1 passed quietly
    "kharkiv_checks_en": [],  # the clip has no hunt: its checks cannot be reached
    "kharkiv_night_zero_ru": ["meet", "leader_shown"],
}


def _truth_spans(game: str, kind: str) -> list[tuple[float, float]]:
    truth = json.loads((SAMPLES / f"{game}.truth.json").read_text())
    if kind == "hunt":
        return [(h["up"], h["down"]) for h in truth["hands"]]
    gesture = {"meet": "order", "leader_shown": "raise"}[kind]
    return [(g["start"], g["end"]) for g in truth["gestures"] if g["kind"] == gesture]


@pytest.mark.parametrize(("game", "seen"), SEEN_IN_RECORD.items())
def test_the_deal_gives_a_replayable_record_pointing_into_the_recording(
        batch_run: BatchRun, game: str, seen: list[str]) -> None:
    import subprocess
    import sys

    from tests.analysis.test_pipeline import load

    events = load(batch_run, game)
    path = batch_run.out / game / "record.jsonl"
    proc = subprocess.run([sys.executable, "-m", "mafiavision", "replay", "--json", str(path)],
                          cwd=SAMPLES.parent, capture_output=True, text=True, check=False,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    replayed = json.loads(proc.stdout)
    truth = json.loads((SAMPLES / f"{game}.truth.json").read_text())
    assert replayed["roles"] == truth["roles"]
    assert events.record is not None
    assert (events.record.actions, events.record.next) == (replayed["actions"], replayed["next"])

    _, entries = read_live(path)
    observed = [e for e in entries if e.evidence and e.evidence.video_time is not None]
    assert [e.action.kind for e in observed] == seen == (
        [] if not seen else [e.action.kind for e in entries[-len(seen):]])  # ends with them
    assert events.record.observed == len(seen)
    for entry in observed:
        ev = entry.evidence
        assert Path(ev.source).name == f"{game}.mp4" and 0 < ev.confidence <= 1
        assert any(ev.video_time < b and ev.video_end > a
                   for a, b in _truth_spans(game, entry.action.kind))
        if entry.action.kind == "hunt":
            assert {s.seat: (str(s.kind), s.target) for s in entry.action.shots} == {
                m.seat: (m.kind, m.target) for m in events.hunts[0].verdict.members}
        if entry.action.kind == "meet":
            assert list(entry.action.orders) == events.orders[0].orders
    assert all(e.evidence.details == {"assumed": True}
               for e in entries[1:len(entries) - len(seen)])


def test_checks_get_roles_and_answers_from_the_deal(batch_run: BatchRun) -> None:
    from tests.analysis.test_pipeline import load

    events = load(batch_run, "kharkiv_checks_en")
    assert [(c.seat, c.role, c.value, c.answer) for c in events.checks] == [
        (3, "don", 4, True), (4, "sheriff", 8, False)]
    assert [w for w in events.warnings if "not in the game record" in w] == [
        f"check {c.index} ({c.start:.1f} s) is not in the game record: before it comes 'night "
        "1: mafia goes hunting (seats 1, 3, 9)', not found in the recording"
        for c in events.checks]


def test_without_a_deal_no_record_and_the_report_says_which_flag(batch_run: BatchRun) -> None:
    from mafiavision.analysis.pipeline import NO_RECORD

    events = Events.load(batch_run.out / "noaudio" / "events.json")
    assert events.record is None and NO_RECORD in events.warnings
    assert not (batch_run.out / "noaudio" / "record.jsonl").exists()
    assert "--deal DEAL.yaml" in (batch_run.out / "noaudio" / "report.html").read_text()


@pytest.mark.parametrize(
    ("roles", "shots", "notes"),
    [
        # seat 7 a civilian, seat 8 the third mafia: 8 was not seen hunting, 7 is left out
        ({"don": 5, "mafia": [3, 8], "sheriff": 9}, {3: "shot", 5: "shot", 8: "not_seen"},
         ["seat 8 (mafia by the deal) was not seen hunting: recorded as 'not_seen'",
          "seat 7 (civilian by the deal) held the gun: not a hunter of mafia tonight"]),
        # nobody who held the gun is a bandit: the hunt is left out, the record is the deal
        ({"don": 1, "mafia": [2, 4], "sheriff": 9}, None,
         ["no hunter (seats 3, 5, 7) is a bandit by the deal"]),
    ],
)
def test_a_hunt_against_the_deal(batch_run: BatchRun, tmp_path, roles, shots, notes) -> None:
    """The record follows the deal: seats the deal says hunt but the camera did not see are
    'not_seen' (the engine's miss), gun holders the deal says are not bandits are left out."""
    import yaml

    from mafiavision.analysis.deal import load_deal
    from mafiavision.analysis.game import record_from_deal

    events = Events.load(batch_run.out / "kharkiv_hit_ru" / "events.json")
    rules = load_rules("kharkiv")
    (tmp_path / "deal.yaml").write_text(yaml.safe_dump({"roles": roles}))
    deal = load_deal(tmp_path / "deal.yaml", rules)
    warnings, info = record_from_deal(tmp_path / "record.jsonl", SAMPLES / "kharkiv_hit_ru.mp4",
                                      rules, deal, events.hunts, [], [], [])
    for note in notes:
        assert any(note in w for w in warnings), (note, warnings)
    game = replay(tmp_path / "record.jsonl")
    hunts = [a for a in game.actions if isinstance(a, Hunt)]
    if shots is None:
        assert hunts == [] and (info.actions, info.observed) == (1, 0)
    else:
        assert {s.seat: str(s.kind) for s in hunts[0].shots} == shots
        assert game.state.misses == (("mafia", 1),) and info.observed == 1


KHARKIV_DEAL = ("don", "mafia", "sheriff", "civilian", "civilian", "mafia",
                "civilian", "civilian", "civilian", "civilian")


@pytest.mark.parametrize(
    ("found", "kept", "strays"),
    [
        # the Sheriff checks while civilian 5's open hand moves: only the Sheriff's is a check
        ([(3, 6, "found"), (5, 5, "found")], [(1, 3, "sheriff", 6, True)],
         ["seat 5 (civilian by the deal) showed 5 at"]),
        # a mafia member's number and an unreadable civilian's: neither is a check; the Don's is
        # numbered 1 again
        ([(2, 4, "found"), (4, None, "found"), (1, 3, "found")], [(1, 1, "don", 3, True)],
         ["seat 2 (mafia by the deal) showed 4 at", "seat 4 (civilian by the deal) showed an "
          "unreadable number at"]),
        # a check given by hand (--checks) stays, whoever the seat is, with no answer
        ([(7, 2, "given")], [(1, 7, "civilian", 2, None)], []),
        # a leader's number out of the seats' range: still his check, no answer
        ([(1, 11, "found")], [(1, 1, "don", 11, None)], []),
    ],
)
def test_with_the_deal_only_leaders_check(found, kept, strays) -> None:
    from mafiavision.analysis.deal import GameDeal
    from mafiavision.analysis.events import CheckRecord
    from mafiavision.analysis.game import answer_checks

    checks = [CheckRecord(index=i, start=10.0 * i, end=10.0 * i + 2, origin=origin, seat=seat,
                          value=value, confidence=0.9, question="?", doubts=[])
              for i, (seat, value, origin) in enumerate(found, 1)]
    deal = GameDeal(roles=KHARKIV_DEAL, nicknames={}, origin="test")
    out, warnings = answer_checks(load_rules("kharkiv"), deal, checks)
    assert [(c.index, c.seat, c.role, c.value, c.answer) for c in out] == kept
    assert len(warnings) == len(strays)
    assert all(w.startswith(s) and w.endswith("not a check (only a leader who checks does)")
               for w, s in zip(warnings, strays, strict=True))
