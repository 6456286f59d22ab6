"""Which team, if any, has won by the numbers at the table (the rule set's ``wins``)."""

from __future__ import annotations

from mafiavision.rules.rulesets import RuleSet, WinRule
from mafiavision.rules.state import GameState, Outcome, Termination

_TERMINATION = {
    "eliminated": Termination.ELIMINATION,
    "parity": Termination.PARITY,
    "equal_groups": Termination.EQUAL_GROUPS,
}


def _holds(rule: WinRule, counts: dict[str, int]) -> bool:
    own = counts[rule.team]
    if own == 0:
        return False
    if rule.when == "eliminated":
        return all(counts[t] == 0 for t in rule.teams)
    if rule.when == "parity":
        return own >= sum(counts[t] for t in rule.teams) and all(
            counts[t] == 0 for t in rule.also_eliminated
        )
    sizes = {own, *(counts[t] for t in rule.teams)}
    return len(sizes) == 1 and own in rule.counts


def standing_outcome(rules: RuleSet, state: GameState) -> Outcome | None:
    """The outcome the living players' numbers decide, or None while the game goes on.

    The win rules are tried in order (so a rule set states precedence, e.g. Triad's Yellow
    first); then, when only one team has players left, it wins; when nobody is left, nobody does.
    """
    counts = {team.name: 0 for team in rules.teams}
    for seat in state.alive():
        counts[state.team_of(seat)] += 1
    if not any(counts.values()):
        return Outcome(Termination.NO_PLAYERS, None)
    for rule in rules.wins:
        if _holds(rule, counts):
            return Outcome(_TERMINATION[rule.when], rule.team)
    living = [team for team, n in counts.items() if n]
    if len(living) == 1:
        return Outcome(Termination.LAST_TEAM, living[0])
    return None
