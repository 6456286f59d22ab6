import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mafiavision.rules import (
    Action,
    AllLeaveVote,
    Annul,
    Check,
    Deal,
    Disqualify,
    Game,
    Hunt,
    LastWord,
    LeaderShown,
    Meet,
    MemberShot,
    ShotKind,
    Speech,
    Vote,
)
from mafiavision.rules.record import (
    ActionEntry,
    Evidence,
    GameBuilder,
    RecordError,
    RecordHeader,
    RecordVisitor,
    RecordWriter,
    UndoEntry,
    action_from_json,
    action_to_json,
    read_header,
    read_record,
    replay,
    start_game,
)
from mafiavision.rules.script import Script, quiet_action
from tests.rules.helpers import DEALS, rules


def recorded(path: Path, name: str = "kharkiv") -> Script:
    def evidence(action: Action) -> Evidence | None:
        return Evidence(source="n.mp4", video_time=12.5) if isinstance(action, Hunt) else None

    script = Script(start_game(path, rules(name), {1: "Ace", 2: "Bee"}), evidence=evidence)
    script.deal(DEALS[name])
    return script


def test_record_then_replay_gives_the_same_state(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    p = recorded(path)
    p.hunt("mafia", {4: MemberShot.shot(4, 1), 6: MemberShot(seat=6, kind=ShotKind.MULTIPLE)})
    p.check(6, 2)
    p.until(lambda s: s.action == "speech" and p.game.state.day == 1)
    p.nominate(2, 4)
    p.vote({4: {1, 2, 3}})
    game = replay(path)
    assert game.state == p.game.state
    assert game.actions == p.game.actions
    header = read_header(path)
    assert header.rules == rules("kharkiv") and header.nicknames == {1: "Ace", 2: "Bee"}
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    hunts = [x for x in lines if x.get("action") == "hunt"]
    assert hunts[0]["evidence"] == {"source": "n.mp4", "video_time": 12.5}
    assert hunts[0]["args"]["shots"][1] == {"seat": 6, "kind": "multiple", "target": None}


def test_undo_is_recorded_and_replayed(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    p = recorded(path, "romanian")
    p.until(lambda s: s.action == "speech")
    p.nominate(1, 4)
    p.game.pop()  # the moderator corrects: seat 1 nominated nobody
    p.nominate(1, 5)
    assert [json.loads(x)["type"] for x in path.read_text().splitlines()].count("undo") == 1
    assert replay(path).state == p.game.state
    assert replay(path).state.candidates == (5,)


def test_each_action_is_on_disk_and_synced_before_push_returns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.jsonl"
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
    p = recorded(path, "romanian")
    for _ in range(5):
        p.push(quiet_action(p.game))
        assert len(path.read_text().splitlines()) == 1 + len(p.game.actions)
    assert len(synced) == 1 + 6  # header + deal + 5 actions


class _FailingJournal:
    def record_action(self, action: Action, evidence: Any = None) -> None:
        raise OSError("disk full")

    def record_undo(self) -> None:
        raise OSError("disk full")


def test_a_failed_write_does_not_apply_the_action() -> None:
    game = Game(rules("romanian"), journal=_FailingJournal())
    before = game.state
    with pytest.raises(OSError, match="disk full"):
        game.push(Deal(roles=tuple(DEALS["romanian"])))
    assert game.state == before and game.actions == ()


def test_create_refuses_an_existing_file_and_append_continues(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    recorded(path, "romanian")
    with pytest.raises(RecordError, match="already exists"):
        RecordWriter.create(path, rules("romanian"))
    game = replay(path)
    game.journal = RecordWriter.append_to(path)
    Script(game).until(lambda s: s.action == "speech")
    assert replay(path).state == game.state


def test_append_refuses_a_cut_off_last_line(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    recorded(path, "romanian")
    with path.open("a") as handle:
        handle.write('{"type": "action", "ti')
    with pytest.raises(RecordError, match="last line is incomplete"):
        RecordWriter.append_to(path)


def _record_with(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "game.jsonl"
    recorded(path, "romanian")
    with path.open("a") as handle:
        handle.writelines(line + "\n" for line in lines)
    return path


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (['{"type": "action", "time": "t", "action": "fly", "args": {}}'],
         "line 3: action: unknown action 'fly'"),
        (['{"type": "action", "time": "t", "action": "meet", "args": {"team": 5}}'],
         "line 3: args.team: Input should be a valid string"),
        (['{"type": "action", "time": "t", "action": "meet", "args": {"team": "black", "x": 1}}'],
         "line 3: args.x: Unexpected keyword argument"),
        (['{"type": "action", "time": "t", "action": "hunt", "args": {"team": "black", '
          '"shots": [{"seat": 4, "kind": "bang"}]}}'],
         "line 3: args.shots.0.kind: Input should be 'shot'"),
        (['{"type": "action", "time": "t", "action": "meet", "args": {"team": "black"}, '
          '"evidence": {"video_time": -1}}'],
         "line 3: evidence.video_time: Input should be greater than or equal to 0"),
        (['{"type": "action", "action": "meet", "args": {"team": "black"}}'], "line 3: time"),
        (['{"type": "vote", "time": "t"}'], "line 3: type: expected 'action' or 'undo'"),
        (['{"type": "action", "time": "t", "action": "vote", "args": {"candidate": 1}}'],
         "line 3: illegal vote: a vote outside a vote"),
        (['{"type": "undo", "time": "t"}'] * 3, "line 4: illegal undo: undo with nothing"),
        (["[1]"], "line 3: expected a JSON object"),
    ],
)  # fmt: skip
def test_bad_lines_name_the_line_and_field(tmp_path: Path, lines: list[str], message: str) -> None:
    path = _record_with(tmp_path, lines)
    with pytest.raises(RecordError, match=re.escape(message)):
        replay(path)


def test_bad_header_names_the_field(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    recorded(path, "romanian")
    header = json.loads(path.read_text().splitlines()[0])
    header["rules"]["abstention"] = "sometimes"
    path.write_text(json.dumps(header) + "\n")
    with pytest.raises(RecordError, match=r"line 1: rules\.abstention: Input should be"):
        replay(path)


class _Counter(RecordVisitor[dict[str, int]]):
    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.seats = 0

    def begin_record(self, header: RecordHeader) -> None:
        self.seats = header.seats

    def visit_action(self, entry: ActionEntry) -> None:
        key = entry.action.kind + ("+evidence" if entry.evidence else "")
        self.counts[key] = self.counts.get(key, 0) + 1

    def visit_undo(self, entry: UndoEntry) -> None:
        self.counts["undo"] = self.counts.get("undo", 0) + 1

    def result(self) -> dict[str, int]:
        return {"seats": self.seats, **self.counts}


def test_visitor_api(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    p = recorded(path, "ukrainian")
    p.hunt("black", 1)
    p.game.pop()
    p.hunt("black", 2)
    counts = read_record(path, _Counter())
    assert counts["seats"] == 10
    assert counts["hunt+evidence"] == 2 and counts["undo"] == 1
    assert read_record(path, GameBuilder()).state == p.game.state


def test_frozensets_are_written_sorted() -> None:
    assert action_to_json(Vote(candidate=3, voters=frozenset({9, 1, 5}))) == {
        "action": "vote",
        "args": {"candidate": 3, "voters": [1, 5, 9]},
    }


seats = st.integers(1, 12)
voter_sets = st.frozensets(seats, max_size=5)
shots = st.builds(
    lambda seat, kind, target: MemberShot(
        seat=seat, kind=kind, target=target if kind == ShotKind.SHOT else None
    ),
    seats,
    st.sampled_from(list(ShotKind)),
    seats,
)
actions = st.one_of(
    st.builds(Hunt, team=st.sampled_from(["mafia", "black"]), shots=st.tuples(shots, shots)),
    st.builds(Vote, candidate=seats, voters=voter_sets),
    st.builds(AllLeaveVote, yes=voter_sets, no=voter_sets),
    st.builds(Speech, seat=seats, nominee=st.none() | seats),
    st.builds(Check, seat=seats, target=st.none(), answer=st.none()),
    st.builds(Check, seat=seats, target=seats, answer=st.booleans()),
    st.builds(Meet, team=st.just("mafia"), orders=st.lists(seats, max_size=3).map(tuple)),
    st.builds(Deal, roles=st.lists(st.sampled_from(["don", "civilian"]), max_size=3).map(tuple)),
    st.builds(Disqualify, seat=seats),
    st.builds(LastWord, seat=seats),
    st.builds(LeaderShown, seat=seats),
    st.just(Annul()),
)


@settings(max_examples=200, deadline=None)
@given(action=actions)
def test_every_action_survives_the_json_round_trip(action: Action) -> None:
    line = json.loads(json.dumps(action_to_json(action)))
    assert action_from_json(line["action"], line["args"]) == action
