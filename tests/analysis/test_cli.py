import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mafiavision.analysis.pipeline import NO_RECORD
from tests.analysis.media_files import corrupt, remux

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mafiavision", *args], cwd=ROOT,
                          capture_output=True, text=True, check=False, timeout=300)


@pytest.fixture(scope="module")
def clip(sample_clip: Path, tmp_path_factory) -> Path:
    """A sample clip and its table in a scratch folder."""
    folder = tmp_path_factory.mktemp("cli")
    shutil.copy(sample_clip.with_name(sample_clip.stem + ".table.json"),
                folder / "table.json")
    return remux(sample_clip, folder / "clip.mp4")


def wrong_table(clip: Path) -> Path:
    data = json.loads((clip.parent / "table.json").read_text())
    data["image_size"] = [640, 480]
    path = clip.parent / "wrong.table.json"
    path.write_text(json.dumps(data))
    return path


def deal_file(clip: Path, text: str) -> Path:
    path = clip.parent / "bad.deal.yaml"
    path.write_text(text + "\n")
    return path


def live_record(clip: Path, *first: str) -> Path:
    """A live record of a game whose first seats hold ``first`` (mafia and sheriff after)."""
    from mafiavision.rules import load_rules
    from mafiavision.rules.record import start_game
    from mafiavision.rules.script import Script

    path = clip.parent / "live.jsonl"
    path.unlink(missing_ok=True)
    roles = [*first, "mafia", "mafia", "sheriff"]
    play = Script(start_game(path, load_rules("kharkiv")))
    play.deal(roles + ["civilian"] * (10 - len(roles)))
    play.game.journal.close()
    return path


@pytest.mark.parametrize(
    ("make_args", "message"),
    [
        (lambda c: [str(c.parent / "nothing.mp4"), "--table", str(c.parent / "table.json")],
         "nothing.mp4: recording not found"),
        (lambda c: [str(corrupt(c.parent / "broken.mp4")), "--table",
                    str(c.parent / "table.json")], "broken.mp4: not a readable video file"),
        (lambda c: [str(c), "--table", str(wrong_table(c))],
         "wrong.table.json: does not fit clip.mp4"),
        (lambda c: [str(c), "--table", str(c.parent / "none.json")],
         "none.json: table file not found"),
        (lambda c: [str(c), "--table", str(c.parent / "table.json"), "--hunts", "30-12"],
         "--hunts: span '30-12'"),
        (lambda c: [str(c), "--table", str(c.parent / "table.json"), "--deal",
                    str(c.parent / "none.yaml")], "none.yaml: deal file not found"),
        (lambda c: [str(c), "--table", str(c.parent / "table.json"), "--deal",
                    str(deal_file(c, "roles: {don: 3, mafia: [1, 9], sherif: 4}"))],
         "bad.deal.yaml: roles.sherif: not a role of kharkiv"),
        (lambda c: [str(c), "--table", str(c.parent / "table.json"), "--deal",
                    str(deal_file(c, "roles: {don: 3, mafia: [1, 9], sheriff: 4}")),
                    "--record", str(live_record(c, "civilian", "don"))],
         "bad.deal.yaml: not the deal of the live record (--record): seat 1: mafia / civilian; "
         "seat 2: civilian / don; seat 3: don / mafia (deal file / record)"),
    ],
)
def test_bad_input_is_one_line(clip: Path, make_args, message: str) -> None:
    proc = run("analyze", *make_args(clip), "--rules", "kharkiv", "--out",
               str(clip.parent / "out"))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert message in lines[0]
    assert "Traceback" not in proc.stderr


def test_table_with_other_seat_count_than_the_rules(clip: Path) -> None:
    proc = run("analyze", str(clip), "--table", str(clip.parent / "table.json"), "--rules",
               "triad", "--out", str(clip.parent / "out"))
    assert proc.returncode == 2
    assert "table.json: 10 seats, but triad is played by 12" in proc.stderr


def test_analyze_prints_the_report_path(clip: Path) -> None:
    from tests.analysis.media_files import truncated

    short = truncated(clip, clip.parent / "short.mkv", keep=0.3)
    out = clip.parent / "out-ok"
    proc = run("analyze", str(short), "--table", str(clip.parent / "table.json"), "--rules",
               "kharkiv", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    # no deal: no game record, and stdout says which flag gives one; the report's path last
    assert proc.stdout.strip().splitlines() == [NO_RECORD, str(out / "report.html")]
    assert "--deal DEAL.yaml" in NO_RECORD
    assert (out / "events.json").exists()
    assert "short.mkv" in proc.stderr  # the progress bar
    assert "Traceback" not in proc.stderr
