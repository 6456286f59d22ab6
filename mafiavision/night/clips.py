"""A sample clip's night as the live session meets it: the game brought to the clip's first
step, what each card should say, and the grade of each card against the ground truth.

A clip (``sample_videos/<name>.mp4`` with its :class:`~mafiavision.samples.truth.ClipTruth`)
shows the camera steps of one night in the rule set's order: the leader's orders (night zero),
the hunts, the leaders' checks. :func:`game_at_clip` deals the clip's roles and lets the rules
engine pass quietly (:func:`~mafiavision.rules.script.quiet_action`) every step before the clip's
first one — for instance both of Triad's hunts (Clan, then Yakuza) before a clip of its checks.
:func:`expected_steps` lists what the clip shows, in order; :func:`grade` compares a card
(``LiveSession.view()["card"]``, the screen's JSON) with it; :func:`answer` is the moderator's
command that records the truth (Confirm when the card is right and asks nothing). The benchmark
(``scripts/bench_live.py``) and the end-to-end tests drive the session with these.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from mafiavision.rules import load_rules
from mafiavision.rules.record import start_game
from mafiavision.rules.script import Script
from mafiavision.samples.truth import CheckResult, ClipTruth, HuntResult, OrdersResult


class Grade(StrEnum):
    CORRECT = "correct"  # the card equals the truth and asks nothing
    ASKED = "asked"  # the card asks the moderator (its proposal may be right or wrong)
    WRONG = "wrong"  # the card differs from the truth and asks nothing: a silent error
    MISSING = "missing"  # no card (or a card of another step)


@dataclass(frozen=True)
class Expected:
    """One camera step of a clip and its truth."""

    kind: str  # the card's kind: "orders", "hunt", "check"
    truth: OrdersResult | HuntResult | CheckResult

    @property
    def label(self) -> str:
        t = self.truth
        if isinstance(t, HuntResult):
            shown = f"hit on {t.target}" if t.verdict == "hit" else "miss"
            return f"hunt of seats {', '.join(map(str, t.members))}: {shown}"
        if isinstance(t, CheckResult):
            return f"check by seat {t.by}: {t.shown} ({t.hands} hand{'s' * (t.hands > 1)})"
        return f"orders of seat {t.by}: {', '.join(map(str, t.values))}"

    def wanted(self, step: Any, game: Any) -> bool:
        """Whether the rules engine's next ``step`` is this one."""
        t = self.truth
        if isinstance(t, HuntResult):
            return step.action == "hunt" and set(step.seats) == set(t.members)
        if isinstance(t, CheckResult):
            return step.action == "check" and tuple(step.seats) == (t.by,)
        return step.action == "meet" and game.leader_seat(step.team) == t.by


def expected_steps(truth: ClipTruth) -> list[Expected]:
    """The clip's camera steps in the order of a night (orders, hunts, checks)."""
    return ([Expected("orders", o) for o in truth.orders]
            + [Expected("hunt", h) for h in truth.hunts]
            + [Expected("check", c) for c in truth.checks])


def game_at_clip(record: Path, truth: ClipTruth) -> Any:
    """A new game (its record at ``record``) with the clip's deal, at the clip's first step."""
    game = start_game(record, load_rules(truth.rules))
    play = Script(game)
    play.deal([truth.roles[s] for s in range(1, truth.seats + 1)])
    steps = expected_steps(truth)
    if steps:
        play.until(lambda s: steps[0].wanted(s, game))
    return game


def proposal_right(card: dict[str, Any], expected: Expected) -> bool:
    """Whether the card proposes what the truth says (the hunt's verdict; the seat shown; the
    orders)."""
    t = expected.truth
    if card.get("kind") != expected.kind:
        return False
    if isinstance(t, HuntResult):
        return card["hit"] == (t.target if t.verdict == "hit" else None)
    if isinstance(t, CheckResult):
        return card["target"] == t.shown and card["leader"] == t.by
    return card["orders"] == t.values


def members_right(card: dict[str, Any], expected: Expected) -> tuple[int, int]:
    """(members read as in the truth, members) of a hunt card."""
    t = expected.truth
    assert isinstance(t, HuntResult)
    found = {f["seat"]: (f["observation"], f["target"]) for f in card.get("findings", [])}
    right = sum(found.get(o.seat) == (o.kind, o.number) for o in t.observations)
    return right, len(t.observations)


def grade(card: dict[str, Any] | None, expected: Expected) -> Grade:
    if card is None or card.get("kind") != expected.kind:
        return Grade.MISSING
    if card["questions"]:
        return Grade.ASKED
    return Grade.CORRECT if proposal_right(card, expected) else Grade.WRONG


def answer(card: dict[str, Any], expected: Expected) -> dict[str, Any]:
    """The moderator's command (JSON of :mod:`mafiavision.ui.commands`) recording the truth."""
    t = expected.truth
    right = not card["questions"] and proposal_right(card, expected)
    if isinstance(t, CheckResult):
        return {"kind": "answer_check", "card": card["id"], "target": t.shown,
                "answer": t.answer}
    if right:
        return {"kind": "confirm", "card": card["id"]}
    if isinstance(t, HuntResult):
        return {"kind": "correct_hunt", "card": card["id"], "shots": [
            {"seat": o.seat, "kind": o.kind, "target": o.number} for o in t.observations]}
    return {"kind": "correct_orders", "card": card["id"], "orders": list(t.values)}
