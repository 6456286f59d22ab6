"""The live session walks through every sample clip's night in the rule set's order.

Regression: a clip of Triad's checks was brought to night 1 by passing one hunt quietly, so the
session still waited for Yakuza's hunt and the Boss's check never got a card. Here every clip's
game starts at the clip's first step, each step the session opens is the clip's next one, a card
made from nothing recorded asks the moderator, and the truth, entered as the moderator's
correction, reaches the record."""

from __future__ import annotations

from pathlib import Path

import pytest

from mafiavision.night.clips import Grade, answer, expected_steps, game_at_clip, grade
from mafiavision.night.session import LiveSession
from mafiavision.rules.record import replay
from mafiavision.samples.truth import ClipTruth
from mafiavision.ui.commands import COMMAND
from tests.night.helpers import Clock

SAMPLES = Path(__file__).resolve().parents[2] / "sample_videos"
CLIPS = sorted(p.name.removesuffix(".truth.json") for p in SAMPLES.glob("*.truth.json"))
STEP_KIND = {"orders": "meet", "hunt": "hunt", "check": "check"}


def test_every_clip_is_found() -> None:
    assert len(CLIPS) >= 15, CLIPS


@pytest.mark.parametrize("name", CLIPS)
def test_the_session_opens_each_step_of_the_clip_in_order(tmp_path, name) -> None:
    truth = ClipTruth.load(SAMPLES / f"{name}.truth.json")
    steps = expected_steps(truth)
    assert steps, f"{name} shows no camera step"
    record = tmp_path / "game.jsonl"
    session = LiveSession(game_at_clip(record, truth), clock=Clock())
    session._enter_step()
    for expected in steps:
        step = session.view()["step"]
        seats = expected.truth.members if expected.kind == "hunt" else [expected.truth.by]
        assert (step["kind"], sorted(step["seats"])) == (STEP_KIND[expected.kind],
                                                        sorted(seats)), (expected.label, step)
        session._finish()  # nothing was recorded: the card must ask, never decide
        card = session.view()["card"]
        assert grade(card, expected) is Grade.ASKED, card
        session.apply(COMMAND.validate_python(answer(card, expected)))
    state = replay(record).state
    assert [(c.seat, c.target, c.answer) for c in state.checks] == [
        (c.by, c.shown, c.answer) for c in truth.checks]
    assert [o for _, o in state.orders if o] == [tuple(o.values) for o in truth.orders]
    clip_hunts = state.verdicts[len(state.verdicts) - len(truth.hunts):]  # not the quiet ones
    hits = [v.target for v in clip_hunts]
    assert hits == [h.target if h.verdict == "hit" else None for h in truth.hunts]
