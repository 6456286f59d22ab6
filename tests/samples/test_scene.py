"""Determinism of the renderer on a tiny frame: the same seed gives the same pixels."""

import numpy as np
import pytest

from mafiavision.samples.scene import Compositor, Layout
from mafiavision.samples.script import NightScript
from mafiavision.samples.sprites import SpriteBank
from mafiavision.samples.timeline import appearance, build

SCRIPT = {
    "name": "tiny",
    "description": "d",
    "seed": 5,
    "rules": "kharkiv",
    "night": 1,
    "seats": 10,
    "roles": {"mafia": [2], "don": [5]},
    "voice": {"language": "en", "pace": 0.6},
    "video": {"width": 640, "height": 360, "noise": 2.0},
    "phases": [{"kind": "hunt", "at": 0.0, "numbers": 3, "shots": {2: [{"at": 2}]}}],
}


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> SpriteBank:
    return SpriteBank(tmp_path_factory.mktemp("sprites"))


def _frame(seed: int, bank: SpriteBank, t: float | None = None) -> tuple[np.ndarray, float]:
    script = NightScript.model_validate({**SCRIPT, "seed": seed})
    seq = np.random.SeedSequence(script.seed)
    r_look, r_time, r_scene, _ = (np.random.default_rng(s) for s in seq.spawn(4))
    look = appearance(script, r_look)
    tl = build(script, look, r_time)
    comp = Compositor(script, Layout(script), look, bank, r_scene)
    shot = next(g for g in tl.gestures if g.kind == "shot")
    t = shot.peak if t is None else t
    return comp.frame(t, tl.hands, {}, 1.0), t


def test_same_seed_same_pixels(bank: SpriteBank) -> None:
    a, t = _frame(5, bank)
    b, _ = _frame(5, bank, t)
    assert a.shape == (360, 640, 3)
    assert np.array_equal(a, b)


def test_other_seed_other_pixels(bank: SpriteBank) -> None:
    a, t = _frame(5, bank)
    b, _ = _frame(6, bank, t)
    assert not np.array_equal(a, b)


def test_sprite_cache_round_trip(bank: SpriteBank) -> None:
    """A sprite read back from the disk cache equals the freshly rendered one."""
    _frame(5, bank)
    key = next(iter(bank._mem))
    again = SpriteBank(bank.cache_dir).get(key)
    assert np.array_equal(again.shade, bank.get(key).shade)
