from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from mafiavision.audio.cli import parse_seats
from mafiavision.cli import main
from mafiavision.errors import InputError

from .conftest import Recording, write_audio

ROOT = Path(__file__).resolve().parents[2]


def test_callout_json_on_a_recording(ru_count: Recording) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mafiavision", "callout", str(ru_count.path), "--seats", "8",
         "--json"], capture_output=True, text=True, cwd=ROOT, check=False)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["vad"] == "silero"
    ws = out["windows"]
    assert [w["seat"] for w in ws] == list(range(1, 9))
    assert set(ws[0]) == {"seat", "start", "end", "onset", "confidence"}
    assert np.abs(np.array([w["onset"] for w in ws]) - ru_count.onsets).max() < 0.2
    assert all(a["end"] == b["start"] for a, b in itertools.pairwise(ws))


def test_callout_start_end_and_living_seats(en_living: Recording,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    # from the second number on: the times stay in seconds of the input
    start = en_living.onsets[1] - 0.3
    rc = main(["callout", str(en_living.path), "--seats", "3,4,7,9", "--start", str(start),
               "--json"])
    assert rc == 0
    ws = json.loads(capsys.readouterr().out)["windows"]
    assert [w["seat"] for w in ws] == [3, 4, 7, 9]
    assert np.abs(np.array([w["onset"] for w in ws]) - en_living.onsets[1:]).max() < 0.2


def test_callout_live_lines(en_living: Recording, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["callout", str(en_living.path), "--seats", "1,3,4,7,9", "--live",
                 "--json"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    live = [x for x in lines if "live" in x]
    released = [x["live"]["seat"] for x in live if x["status"] == "released"]
    confirmed = [x["live"]["seat"] for x in live if x["status"] == "confirmed"]
    assert released == [1, 3, 4, 7] and confirmed == [1, 3, 4, 7, 9]  # 9 completes the count
    assert all(x["known_at"] > x["live"]["onset"] for x in live)
    assert [w["seat"] for w in lines[-1]["windows"]] == [1, 3, 4, 7, 9]


@pytest.mark.parametrize(("args", "message"), [
    (["missing.wav", "--seats", "5"], "file not found"),
    (["{silence}", "--seats", "5"], "no speech found"),
    (["{silence}", "--seats", "zero"], "--seats"),
    (["{silence}", "--seats", "1,1,2"], "--seats"),
    (["{silence}", "--seats", "5", "--start", "3", "--end", "1"], "--end"),
    (["{silence}", "--seats", "5", "--between-gap", "-1"], "--between-gap"),
    (["mic", "--seats", "5"], "microphone"),
])
def test_callout_errors_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    silence = write_audio(tmp_path / "silence.wav", np.zeros(16000, dtype=np.float32))
    args = [a.replace("{silence}", str(silence)) for a in args]
    if args[0] == "mic":
        import sounddevice as sd

        if any(d["max_input_channels"] > 0 for d in sd.query_devices()):
            pytest.skip("this machine has an input device")
    proc = subprocess.run([sys.executable, "-m", "mafiavision", "callout", *args],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(("text", "expected"), [
    ("10", list(range(1, 11))), ("1,2,5,7", [1, 2, 5, 7]), ("3", [1, 2, 3]), ("7,", [7]),
])
def test_parse_seats(text: str, expected: list[int]) -> None:
    assert parse_seats(text) == expected


@pytest.mark.parametrize("text", ["0", "-3", "a,b", "", "1,1", "0,1"])
def test_parse_seats_rejects(text: str) -> None:
    with pytest.raises(InputError):
        parse_seats(text)
