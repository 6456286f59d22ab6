from pathlib import Path

import numpy as np
import pytest
import yaml

from mafiavision.errors import InputError, MissingInputError
from mafiavision.samples.script import NightScript, load_script
from mafiavision.samples.timeline import appearance, build

ROOT = Path(__file__).resolve().parents[2]
BASE = {
    "name": "t",
    "description": "d",
    "seed": 1,
    "rules": "kharkiv",
    "night": 1,
    "seats": 10,
    "roles": {"mafia": [3, 7], "don": [5], "sheriff": [9]},
    "voice": {"language": "ru"},
    "phases": [{"kind": "hunt", "at": 0.5, "shots": {3: [{"at": 6}]}}],
}


def _with(path: str, value: object) -> dict:
    data = yaml.safe_load(yaml.safe_dump(BASE))
    *parents, last = path.split(".")
    node = data
    for p in parents:
        node = node[int(p)] if p.isdigit() else node[p]
    node[int(last) if last.isdigit() else last] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("seats", 11, "field seats"),
        ("roles.mafia", [3, 11], "seat 11 is not in 1..10"),
        ("roles.don", [3], "seat 3 has two roles"),
        ("voice.language", "fr", "field voice.language"),
        ("video", {"width": 2000}, "field video.width"),
        ("video", {"width": 1280, "height": 675}, "field video.height: Value error, 675 is odd"),
        ("video", {"width": 1201, "height": 676}, "field video.width: Value error, 1201 is odd"),
        ("phases.0.shots", {4: [{"at": 6}]}, "outside the group"),
        ("phases.0.shots", {3: [{"at": 6, "between": [6, 7]}]}, "exactly one of"),
        ("phases.0.shots", {3: [{"between": [6, 8]}]}, "consecutive"),
        ("phases.0.group", "clan", "no seat has a role of that group"),
    ],
)
def test_bad_scripts_name_the_field(tmp_path: Path, path: str, value: object, message: str) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text(yaml.safe_dump(_with(path, value)), encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_script(f)
    assert str(f) in str(exc.value)
    assert message in str(exc.value)


def test_missing_and_malformed_files(tmp_path: Path) -> None:
    with pytest.raises(MissingInputError):
        load_script(tmp_path / "nope.yaml")
    bad = tmp_path / "x.yaml"
    bad.write_text("name: [unclosed", encoding="utf-8")
    with pytest.raises(InputError, match="not valid YAML"):
        load_script(bad)


@pytest.mark.parametrize(
    "path",
    sorted((ROOT / "sample_videos" / "scripts").glob("*.yaml"))
    + sorted((ROOT / "validation_clips").glob("scripts*/*.yaml")),
    ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}/{p.stem}",
)
def test_committed_scripts_load_and_resolve(path: Path) -> None:
    script = load_script(path)
    assert script.name == path.stem
    assert isinstance(script, NightScript)
    seq = np.random.SeedSequence(script.seed)
    r_look, r_time = (np.random.default_rng(s) for s in seq.spawn(2))
    timeline = build(script, appearance(script, r_look), r_time)  # raises on impossible scenes
    assert timeline.duration > 0
