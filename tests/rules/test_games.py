"""Complete scripted games: every rule set, every way it can end; each one also recorded and
replayed from its record."""

from collections.abc import Callable
from pathlib import Path

import pytest

from mafiavision.rules import Annul, Disqualify, Game, Outcome, Termination
from mafiavision.rules.record import RecordWriter, replay
from mafiavision.rules.script import Script
from tests.rules.helpers import play, vote_out

T = Termination


def kharkiv_town_by_elimination(p: Script) -> None:
    for kill, out in ((1, 4), (3, 9), (5, 6)):
        p.hunt("mafia", kill)
        vote_out(p, out)


def kharkiv_town_by_three_misses(p: Script) -> None:
    for out in (1, 3):
        p.hunt("mafia", None)
        vote_out(p, out)
    p.hunt("mafia", None)


def kharkiv_town_by_mafia_disqualified(p: Script) -> None:
    p.hunt("mafia", 1)
    p.until(lambda s: s.action == "speech")
    p.push(Disqualify(seat=9))


def kharkiv_mafia_by_parity(p: Script) -> None:
    for kill, out in ((1, 3), (5, 7)):
        p.hunt("mafia", kill)
        vote_out(p, out)


def kharkiv_mafia_by_two_days_without_a_vote(p: Script) -> None:
    p.hunt("mafia", 1)
    p.hunt("mafia", 3)
    p.finish()  # day 2 and its extra round pass without a vote elimination


def kharkiv_mafia_by_town_disqualified(p: Script) -> None:
    p.push(Disqualify(seat=2))


def annulled(p: Script) -> None:
    p.until(lambda s: s.action == "speech")
    p.push(Annul())


def two_team_red_by_elimination(p: Script) -> None:
    for out, kill in ((4, 1), (9, 3)):
        vote_out(p, out)
        p.hunt("black", kill)
    vote_out(p, 6)


def two_team_black_by_parity(p: Script) -> None:
    for out, kill in ((7, 1), (8, 3)):
        vote_out(p, out)
        p.hunt("black", kill)
    p.finish()  # red 2 5 10 against black 4 6 9 at dawn


def triad_red_by_elimination(p: Script) -> None:
    for out in (2, 4, 7, 9, 11):
        vote_out(p, out)  # the bandits' hunts pass without shots


def triad_black_by_parity(p: Script) -> None:
    for kill in (1, 3, 5, 8):
        p.hunt("black", kill)
    p.finish()  # red 6 10 12 against black 2 7 11, yellow alive


def triad_yellow_by_equal_groups(p: Script) -> None:
    vote_out(p, 3)
    p.hunt("black", 1)
    p.hunt("yellow", 8)
    vote_out(p, 11)
    p.hunt("black", 5)
    p.hunt("yellow", 10)
    p.finish()  # red 6 12, black 2 7, yellow 4 9


def triad_yellow_one_each(p: Script) -> None:
    vote_out(p, 3)
    p.hunt("black", 1)
    p.hunt("yellow", 8)
    vote_out(p, 11)
    p.hunt("black", 5)
    p.hunt("yellow", 2)
    vote_out(p, 10)  # red 6 12, black 7, yellow 4 9; then the Clan hits 4, the Yakuza 12
    p.hunt("black", 4)
    p.hunt("yellow", 12)
    p.finish()


GAMES: list[tuple[str, Callable[[Script], None], Outcome]] = [
    ("kharkiv", kharkiv_town_by_elimination, Outcome(T.ELIMINATION, "town")),
    ("kharkiv", kharkiv_town_by_three_misses, Outcome(T.MISSES, "town")),
    ("kharkiv", kharkiv_town_by_mafia_disqualified, Outcome(T.DISQUALIFICATION, "town")),
    ("kharkiv", kharkiv_mafia_by_parity, Outcome(T.PARITY, "mafia")),
    ("kharkiv", kharkiv_mafia_by_two_days_without_a_vote, Outcome(T.NO_ELIMINATION_DAYS, "mafia")),
    ("kharkiv", kharkiv_mafia_by_town_disqualified, Outcome(T.DISQUALIFICATION, "mafia")),
    ("kharkiv", annulled, Outcome(T.ANNULLED, None)),
    ("romanian", two_team_red_by_elimination, Outcome(T.ELIMINATION, "red")),
    ("romanian", two_team_black_by_parity, Outcome(T.PARITY, "black")),
    ("romanian", annulled, Outcome(T.ANNULLED, None)),
    ("ukrainian", two_team_red_by_elimination, Outcome(T.ELIMINATION, "red")),
    ("ukrainian", two_team_black_by_parity, Outcome(T.PARITY, "black")),
    ("ukrainian", annulled, Outcome(T.ANNULLED, None)),
    ("triad", triad_red_by_elimination, Outcome(T.ELIMINATION, "red")),
    ("triad", triad_black_by_parity, Outcome(T.PARITY, "black")),
    ("triad", triad_yellow_by_equal_groups, Outcome(T.EQUAL_GROUPS, "yellow")),
    ("triad", triad_yellow_one_each, Outcome(T.EQUAL_GROUPS, "yellow")),
    ("triad", annulled, Outcome(T.ANNULLED, None)),
]


@pytest.mark.parametrize(
    ("name", "script", "outcome"), GAMES, ids=[f"{g[0]}-{g[1].__name__}" for g in GAMES]
)
def test_complete_game(
    name: str, script: Callable[[Script], None], outcome: Outcome, tmp_path: Path
) -> None:
    p = play(name)
    script(p)
    assert p.game.outcome() == outcome
    assert p.game.next_step().action is None
    path = tmp_path / "game.jsonl"
    recorded = Game(p.game.rules, journal=RecordWriter.create(path, p.game.rules))
    for action in p.game.actions:
        recorded.push(action)
    again = replay(path)
    assert again.state == p.game.state and again.outcome() == outcome
