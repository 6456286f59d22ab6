import subprocess
import sys

import pytest

from mafiavision import __version__
from mafiavision.cli import main


def test_version_flag(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert __version__ in capsys.readouterr().out


def test_module_entry_point_runs() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mafiavision", "--help"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0
    assert "mafiavision" in proc.stdout
