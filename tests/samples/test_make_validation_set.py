"""The validation-set generator (scripts/make_validation_set.py): deterministic, and its own
checker passes on what it writes and catches a broken set."""

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("make_validation_set",
                                               ROOT / "scripts" / "make_validation_set.py")
assert _spec is not None and _spec.loader is not None
gen = importlib.util.module_from_spec(_spec)
sys.modules["make_validation_set"] = gen  # dataclasses look their module up
_spec.loader.exec_module(gen)

AVOID = {"ru+m1", "ru-lv+f2", "en-us+m3", "en-gb+f1"}


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    files, _ = gen.make_set(7, 7000, AVOID, "kharkiv")
    out = tmp_path_factory.mktemp("v7")
    for name, text in files.items():
        (out / name).write_text(text, encoding="utf-8")
    return out, files


def test_the_written_set_passes_its_checker(written: tuple[Path, dict[str, str]]) -> None:
    out, files = written
    assert len(files) == 16 and all(n.startswith("v7_") for n in files)
    errors, summary = gen.check(out, 7000, AVOID, "kharkiv", 7)
    assert errors == [], errors
    assert "16 scripts" in summary


def test_the_same_seed_gives_the_same_set(written: tuple[Path, dict[str, str]]) -> None:
    again, _ = gen.make_set(7, 7000, AVOID, "kharkiv")
    assert again == written[1]


def test_the_checker_catches_an_avoided_voice_and_swapped_orders(
        written: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    files = written[1]
    name, text = next((n, t) for n, t in sorted(files.items()) if "_ru" in n)
    variant = text.split("variant: ", 1)[1].split(",", 1)[0]
    for n, t in files.items():
        (tmp_path / n).write_text(t.replace(variant, "ru+m1") if n == name else t,
                                  encoding="utf-8")
    errors, _ = gen.check(tmp_path, 7000, AVOID, "ukrainian", 7)
    assert any("avoided voices" in e for e in errors)
    assert any("orders" in e for e in errors)


def test_the_checker_counts_moves_through_squeezes(written: tuple[Path, dict[str, str]]) -> None:
    sets, _ = gen.load_set(written[0])
    n_first = sum(s.first for x in sets for s in x.sp if s.kind == "hunt")
    n_optional = gen.TOTALS["move"] - 2 * n_first - gen.N_CHECKS - 1
    want = 2 * n_first + gen.shares(n_optional, gen.PLACE_WEIGHTS["move"])["squeeze"]
    errors: list[str] = []
    tally = gen.check_squeezes(sets, n_first, errors)
    assert errors == [] and str(tally["moves through squeezes"]).startswith(f"{want} ")
    for x in sets:  # take the squeezes away: no move passes over one
        for s in x.sp:
            s.peaks = []
    gen.check_squeezes(sets, n_first, errors)
    assert any("0 moves through squeezes" in e for e in errors)
