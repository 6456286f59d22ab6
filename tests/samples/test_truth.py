import json
from collections import Counter
from pathlib import Path

import pytest

from mafiavision.samples.truth import Gesture, hunt_result


def shot(seat: int, value: int | None = None, between: tuple[int, int] | None = None) -> Gesture:
    return Gesture(seat=seat, kind="shot", start=1.0, end=1.4, value=value, between=between)


@pytest.mark.parametrize(
    ("shots", "verdict", "target", "kinds"),
    [
        ({3: [shot(3, 6)], 5: [shot(5, 6)], 7: [shot(7, 6)]}, "hit", 6, ["shot", "shot", "shot"]),
        (
            {3: [shot(3, 6)], 5: [shot(5, 5)], 7: [shot(7, 6)]},
            "miss",
            None,
            ["shot", "shot", "shot"],
        ),
        ({3: [shot(3, 6)], 7: [shot(7, 6)]}, "miss", None, ["shot", "no_shot", "shot"]),
        (
            {3: [shot(3, 6)], 5: [shot(5, 6), shot(5, 6)], 7: [shot(7, 6)]},
            "miss",
            None,
            ["shot", "multiple", "shot"],
        ),
        (
            {3: [shot(3, 6)], 5: [shot(5, between=(6, 7))], 7: [shot(7, 6)]},
            "miss",
            None,
            ["shot", "between", "shot"],
        ),
        ({}, "miss", None, ["no_shot", "no_shot", "no_shot"]),
    ],
)
def test_hunt_result(shots: dict, verdict: str, target: int | None, kinds: list[str]) -> None:
    res = hunt_result("mafia", [3, 5, 7], shots)
    assert res.verdict == verdict
    assert res.target == target
    assert [o.kind for o in res.observations] == kinds
    assert bool(res.reasons) == (verdict == "miss")


@pytest.mark.parametrize("path", sorted(Path(__file__).resolve().parents[2].glob(
    "sample_videos/*.truth.json")), ids=lambda p: p.name.removesuffix(".truth.json"))
def test_roles_are_the_rule_sets_deck(path: Path) -> None:
    """The deal in the truth is one the rules engine accepts (same role names and counts)."""

    from mafiavision.rules.rulesets import load_rules

    truth = json.loads(path.read_text())
    assert Counter(truth["roles"].values()) == load_rules(truth["rules"]).role_counts()
