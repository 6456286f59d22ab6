"""Standard deals and game builders for the rules tests."""

from __future__ import annotations

from typing import Any

from mafiavision.rules import Game, load_rules
from mafiavision.rules.rulesets import RuleSet, rules_from_mapping
from mafiavision.rules.script import Script
from mafiavision.rules.state import RoundKind

# Seats: town/red leader 2; bandits 4, 6 (leader), 9. Triad: red 1 3 5 6(Commissar) 8 10 12,
# black 2 7(Boss) 11, yellow 4 9(Kambu).
DEALS: dict[str, list[str]] = {
    "kharkiv": ["civilian", "sheriff", "civilian", "mafia", "civilian",
                "don", "civilian", "civilian", "mafia", "civilian"],
    "romanian": ["citizen", "commissar", "citizen", "mafia", "citizen",
                 "don", "citizen", "citizen", "mafia", "citizen"],
    "ukrainian": ["civilian", "sheriff", "civilian", "mafia", "civilian",
                  "don", "civilian", "civilian", "mafia", "civilian"],
    "triad": ["town", "clan", "town", "yakuza", "town", "commissar",
              "boss", "town", "kambu", "town", "clan", "town"],
}  # fmt: skip
BANDIT = {"kharkiv": "mafia", "romanian": "black", "ukrainian": "black"}


def rules(base: str, /, **overrides: Any) -> RuleSet:
    """A built-in rule set, or a club variant of it with ``overrides``."""
    if not overrides:
        return load_rules(base)
    return rules_from_mapping({"base": base, **overrides}, "test")


def play(name: str, **overrides: Any) -> Script:
    """A dealt game of ``name`` (with option overrides), as a Script."""
    script = Script(Game(rules(name, **overrides)))
    script.deal(DEALS[name])
    return script


def alive(script: Script) -> tuple[int, ...]:
    return script.game.state.alive()


def to_discussion(script: Script) -> None:
    """Quietly on to the next discussion round (Kharkiv: past the greeting day)."""
    game = script.game
    script.until(lambda s: s.action == "speech" and game.state.round == RoundKind.DISCUSSION)


def vote_out(script: Script, seat: int) -> None:
    """The next discussion day: ``seat`` and one other player are nominated; everybody but
    ``seat`` votes for ``seat``, who leaves."""
    game = script.game
    to_discussion(script)
    first, second = game.state.speakers[:2]
    other = next(s for s in game.state.alive() if s != seat)
    script.nominate(first, seat)
    script.nominate(second, other)
    script.vote({seat: set(game.state.alive()) - {seat}})
