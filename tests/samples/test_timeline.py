import itertools

import numpy as np
import pytest

from mafiavision.errors import InputError
from mafiavision.samples.script import NightScript
from mafiavision.samples.timeline import RISE, appearance, build

BASE = {
    "name": "t", "description": "d", "seed": 3, "rules": "kharkiv", "night": 1, "seats": 10,
    "roles": {"mafia": [3, 7], "don": [5], "sheriff": [9]},
    "voice": {"language": "en", "pace": 0.9, "jitter": 0.0},
}


def _build(phases: list[dict]) -> object:
    script = NightScript.model_validate({**BASE, "phases": phases})
    rng = np.random.default_rng(0)
    return build(script, appearance(script, rng), rng)


@pytest.mark.parametrize(
    ("phases", "message"),
    [
        ([{"kind": "check", "at": 0.5, "by": 5, "show": 9},
          {"kind": "check", "at": 2.0, "by": 9, "show": 3}], "starts before the previous"),
        ([{"kind": "check", "at": 0.5, "by": 3, "show": 4}], "cannot check"),
        ([{"kind": "hunt", "at": 0.0, "shots": {3: [{"at": 4, "delay": 0.8}]}}],
         "does not fall inside that number's window"),
    ],
)
def test_impossible_timings_are_refused(phases: list[dict], message: str) -> None:
    with pytest.raises(InputError, match=message):
        _build(phases)


def test_hunt_places_numbers_and_shots() -> None:
    tl = _build([{"kind": "hunt", "at": 0.5, "shots": {
        3: [{"at": 6}], 5: [{"at": 6}], 7: [{"between": [6, 7]}]}}])
    numbers = [w for w in tl.words if w.kind == "number"]
    assert [w.number for w in numbers] == list(range(1, 11))
    assert all(b.onset >= a.offset for a, b in itertools.pairwise(numbers))
    shots = {g.seat: g for g in tl.gestures if g.kind == "shot"}
    six, seven = numbers[5], numbers[6]
    assert six.onset <= shots[3].peak < seven.onset
    assert six.offset < shots[7].peak < seven.onset and shots[7].between == (6, 7)
    assert tl.hunts[0].verdict == "miss"
    raised = next(h for h in tl.hands if h.seat == 3)
    assert raised.up - raised.appear == pytest.approx(RISE)
    assert raised.bend(shots[3].peak) > 0.5 and raised.bend(raised.up) == 0.0


@pytest.mark.parametrize(("show", "answer"), [(9, True), (7, False), (4, False)])
def test_check_answers_by_role(show: int, answer: bool) -> None:
    """The Don (5) looks for the Sheriff (9); 6..10 are shown with two hands (5 + n-5)."""
    tl = _build([{"kind": "check", "at": 0.5, "by": 5, "show": show}])
    check = tl.checks[0]
    assert check.answer is answer
    assert check.hands == (1 if show <= 5 else 2) == len([h for h in tl.hands if h.seat == 5])
    shown = sorted(h.count_at(h.up) for h in tl.hands if h.seat == 5)
    assert sum(shown) == show


@pytest.mark.parametrize("pause", [0.0, 1.5, 4.0])
def test_orders_pause_between_passes(pause: float) -> None:
    """The Don's second pass starts ``pause`` seconds later than the gap between two numbers."""
    tl = _build([{"kind": "orders", "at": 0.5, "by": 5, "values": [3, 8, 1], "repeat": 2,
                  "hold": 1.2, "pause": pause}])
    shown = sorted((g for g in tl.gestures if g.kind == "order"), key=lambda g: g.start)
    assert [g.value for g in shown] == [3, 8, 1, 3, 8, 1]
    gaps = [b.start - a.end for a, b in itertools.pairwise(shown)]
    assert gaps[2] - gaps[1] == pytest.approx(pause, abs=1e-6)
    assert gaps[1] == pytest.approx(gaps[0], abs=1e-6)


@pytest.mark.parametrize(
    ("by", "show", "answer"),
    [
        (9, 3, True),  # the Romanian Commissar (9) finds black: Mafia 3
        (9, 5, True),  # ... and the Don
        (9, 4, False),  # not a citizen
        (5, 9, True),  # the Don (5) looks for the Commissar
        (5, 4, False),
    ],
)
def test_check_answers_follow_the_rule_set(by: int, show: int, answer: bool) -> None:
    script = NightScript.model_validate({
        **BASE, "rules": "romanian", "roles": {"mafia": [3, 7], "don": [5], "commissar": [9]},
        "phases": [{"kind": "check", "at": 0.5, "by": by, "show": show}]})
    rng = np.random.default_rng(0)
    check = build(script, appearance(script, rng), rng).checks[0]
    assert check.answer is answer
