import pytest

from mafiavision.rules.outcome import standing_outcome
from mafiavision.rules.rulesets import RuleSet
from mafiavision.rules.state import Cause, GameState, Outcome, Removal, Termination
from tests.rules.helpers import DEALS, rules


def state_with(name: str, ruleset: RuleSet, alive: dict[str, int]) -> GameState:
    """A dealt state of ``name`` where each team keeps its first ``alive[team]`` seats."""
    roles = tuple(DEALS[name])
    teams = tuple(ruleset.team_of(r).name for r in roles)
    kept: dict[str, int] = {}
    removed = []
    for seat, team in enumerate(teams, start=1):
        kept[team] = kept.get(team, 0) + 1
        if kept[team] > alive[team]:
            removed.append(Removal(seat, Cause.KILLED, None, 1))
    return GameState(seats=len(roles), roles=roles, teams=teams, removed=tuple(removed))


E, P, G, L = (Termination.ELIMINATION, Termination.PARITY, Termination.EQUAL_GROUPS,
              Termination.LAST_TEAM)  # fmt: skip


@pytest.mark.parametrize(
    ("name", "red", "black", "expected"),
    [
        ("kharkiv", 7, 3, None),
        ("kharkiv", 4, 3, None),
        ("kharkiv", 3, 3, Outcome(P, "mafia")),  # equal numbers at the table
        ("kharkiv", 2, 3, Outcome(P, "mafia")),  # two left together: mafia ahead
        ("kharkiv", 5, 0, Outcome(E, "town")),
        ("romanian", 1, 1, Outcome(P, "black")),
        ("romanian", 2, 0, Outcome(E, "red")),
        ("ukrainian", 3, 3, Outcome(P, "black")),
        ("ukrainian", 6, 0, Outcome(E, "red")),
    ],
)
def test_two_team_wins(name: str, red: int, black: int, expected: Outcome | None) -> None:
    ruleset = rules(name)
    town, bandits = (t.name for t in ruleset.teams)
    state = state_with(name, ruleset, {town: red, bandits: black})
    assert standing_outcome(ruleset, state) == expected


@pytest.mark.parametrize(
    ("red", "black", "yellow", "expected"),
    [
        (7, 3, 2, None),
        (2, 2, 2, Outcome(G, "yellow")),  # Yellow's win takes precedence over Black's parity
        (1, 1, 1, Outcome(G, "yellow")),
        (3, 3, 3, Outcome(P, "black")),  # equal groups of three: not Yellow's win
        (3, 3, 2, Outcome(P, "black")),  # Black's parity with Yellow alive (default)
        (2, 1, 1, None),
        (4, 0, 0, Outcome(E, "red")),
        (0, 0, 2, Outcome(L, "yellow")),
        (0, 0, 0, Outcome(Termination.NO_PLAYERS, None)),
        (3, 0, 2, None),
    ],
)
def test_triad_wins(red: int, black: int, yellow: int, expected: Outcome | None) -> None:
    ruleset = rules("triad")
    state = state_with("triad", ruleset, {"red": red, "black": black, "yellow": yellow})
    assert standing_outcome(ruleset, state) == expected


def test_triad_options_change_the_ambiguous_wins() -> None:
    base = rules("triad").model_dump(mode="json")
    black_first = rules("triad", wins=[base["wins"][2], base["wins"][1], base["wins"][0]])
    state = state_with("triad", black_first, {"red": 2, "black": 2, "yellow": 2})
    assert standing_outcome(black_first, state) == Outcome(P, "black")  # Yellow could never win
    black_rule = dict(base["wins"][2], also_eliminated=["yellow"])
    needs_yellow_gone = rules("triad", wins=[base["wins"][0], base["wins"][1], black_rule])
    state = state_with("triad", needs_yellow_gone, {"red": 3, "black": 3, "yellow": 2})
    assert standing_outcome(needs_yellow_gone, state) is None
