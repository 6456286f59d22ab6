import json
import subprocess
import sys
from pathlib import Path

import pytest

from mafiavision.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_games"


@pytest.mark.parametrize(
    ("name", "rules", "winner", "termination"),
    [
        ("kharkiv_town_wins", "kharkiv", "town", "elimination"),
        ("kharkiv_mafia_wins", "kharkiv", "mafia", "no_elimination_days"),
        ("romanian_black_wins", "romanian", "black", "parity"),
        ("ukrainian_red_wins", "ukrainian", "red", "elimination"),
        ("triad_yellow_wins", "triad", "yellow", "equal_groups"),
    ],
)
def test_replay_json_of_bundled_samples(
    name: str, rules: str, winner: str, termination: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(SAMPLES / f"{name}.jsonl"), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["rules"] == rules
    assert info["winner"] == winner
    assert info["termination"] == termination
    assert info["phase"] == "over"
    assert set(info) >= {"rules", "winner", "termination", "alive", "misses", "day", "phase"}
    assert all(isinstance(s, int) for s in info["alive"])


def test_replay_text_through_the_module_entry_point() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mafiavision", "replay", "sample_games/kharkiv_town_wins.jsonl"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "town wins (elimination)" in proc.stdout


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "game record not found"),
        ("", "empty game record"),
        ("{not json\n", "line 1: not valid JSON"),
        ('{"type": "action", "time": "t"}\n', "line 1: type: expected the header"),
    ],
)
def test_replay_bad_record_is_one_line_error(
    tmp_path: Path, content: str | None, expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.jsonl"
    if content is not None:
        path.write_text(content)
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert expected in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_bundled_samples_are_what_the_generator_writes(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "scripts/make_sample_games.py", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    written = sorted(p.name for p in tmp_path.glob("*.jsonl"))
    assert written == sorted(p.name for p in SAMPLES.glob("*.jsonl"))
    for name in written:
        assert (tmp_path / name).read_bytes() == (SAMPLES / name).read_bytes(), name


def test_replay_json_of_a_game_in_progress(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mafiavision.rules.record import start_game
    from mafiavision.rules.script import Script
    from tests.rules.helpers import DEALS, rules

    path = tmp_path / "club.jsonl"
    club = rules("kharkiv", name="club", miss_limit=None)
    play = Script(start_game(path, club))
    play.deal(DEALS["kharkiv"])
    play.hunt("mafia", None)
    assert main(["replay", str(path), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert (info["rules"], info["winner"], info["termination"]) == ("club", None, None)
    assert (info["phase"], info["night"], info["misses"]) == ("night", 1, {"mafia": 1})
    assert info["alive"] == list(range(1, 11))


def test_rules_imports_no_vision_audio_or_web() -> None:
    code = (
        "import sys, mafiavision.rules, mafiavision.rules.cli, mafiavision.rules.record;"
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('cv2', 'mediapipe', 'numpy', 'av', 'fastapi', 'uvicorn', 'onnxruntime', 'sounddevice')"
        " or m.startswith(('mafiavision.vision', 'mafiavision.audio', 'mafiavision.ui',"
        " 'mafiavision.night', 'mafiavision.analysis'))];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
