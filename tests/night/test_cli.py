"""``mafiavision live``: bad input gets one line naming the option, exit code 2, no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from mafiavision.cli import main


@pytest.fixture
def files(tmp_path: Path) -> Path:
    (tmp_path / "table.json").write_text("{}")
    (tmp_path / "night.mp4").write_bytes(b"")
    (tmp_path / "old.jsonl").write_text("{}\n")
    return tmp_path


CASES = [
    (["--video", "{d}/night.mp4", "--table", "{d}/nope.json", "--record", "{d}/g.jsonl"],
     "--table {d}/nope.json: no such file"),
    (["--video", "{d}/nope.mp4", "--table", "{d}/table.json", "--record", "{d}/g.jsonl"],
     "--video {d}/nope.mp4: no such file"),
    (["--video", "{d}/night.mp4", "--table", "{d}/table.json"],
     "--record: expected the game record to write"),
    (["--video", "{d}/night.mp4", "--table", "{d}/table.json", "--record", "{d}/old.jsonl"],
     "--record {d}/old.jsonl: a record already exists there"),
    (["--video", "{d}/night.mp4", "--table", "{d}/table.json", "--resume", "{d}/g.jsonl"],
     "--resume {d}/g.jsonl: no such record"),
    (["--video", "{d}/night.mp4", "--table", "{d}/table.json", "--record", "{d}/a.jsonl",
      "--resume", "{d}/b.jsonl"], "differ: give one record"),
    (["--video", "{d}/night.mp4", "--table", "{d}/table.json", "--record", "{d}/g.jsonl",
      "--port", "70000"], "--port 70000: expected 1..65535"),
]


@pytest.mark.parametrize(("args", "message"), CASES)
def test_bad_input_is_one_line(files: Path, capsys, args, message) -> None:
    code = main(["live", *(a.format(d=files) for a in args)])
    err = capsys.readouterr().err
    assert code == 2
    assert message.format(d=files) in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_source_is_required(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["live", "--table", "t.json", "--record", "g.jsonl"])
    assert exc.value.code == 2
    assert "--camera" in capsys.readouterr().err
