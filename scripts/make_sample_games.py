"""Write the bundled sample game records (sample_games/*.jsonl) by playing scripted games
through the rules engine, one or more per rule set.

    /work/venv/bin/python scripts/make_sample_games.py [--out sample_games]

The records are real engine output (every action checked, written by RecordWriter); only the
wall times are synthetic (a fixed start, 20 s per action) so the files are reproducible. Hunts
carry an evidence reference (a made-up video time) to show the format.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mafiavision.rules import Action, Game, Hunt, MemberShot, ShotKind, load_rules
from mafiavision.rules.record import Evidence, RecordWriter
from mafiavision.rules.script import Script

NICKNAMES = ["Ace", "Bee", "Cat", "Doc", "Elf", "Fox", "Gus", "Hal", "Ivy", "Jax", "Kit", "Lou"]


def _clock() -> Callable[[], str]:
    start = datetime(2026, 1, 10, 19, 0, tzinfo=UTC)
    ticks = iter(range(100_000))
    return lambda: (start + timedelta(seconds=20 * next(ticks))).isoformat(timespec="seconds")


def _evidence() -> Callable[[Action], Evidence | None]:
    clip_time = iter(range(60, 100_000, 45))

    def evidence(action: Action) -> Evidence | None:
        if isinstance(action, Hunt):
            return Evidence(source="night.mp4", video_time=float(next(clip_time)), confidence=0.9)
        return None

    return evidence


def _start(path: Path, rules_name: str) -> Script:
    rules = load_rules(rules_name)
    path.unlink(missing_ok=True)
    nicknames = {seat: NICKNAMES[seat - 1] for seat in range(1, rules.players + 1)}
    writer = RecordWriter.create(path, rules, nicknames, clock=_clock())
    return Script(Game(rules, journal=writer), evidence=_evidence())


def kharkiv_town_wins(play: Script) -> None:
    """Town wins by elimination after a miss, a shoot-out and a re-vote in reverse order."""
    play.deal(["civilian", "sheriff", "civilian", "mafia", "civilian",
               "don", "civilian", "civilian", "mafia", "civilian"])  # fmt: skip
    play.meet("mafia", [1, 3, 5])
    play.hunt("mafia", 1)
    play.check(6, 3)
    play.check(2, 4)  # yes: seat 4 is mafia
    play.nominate(2, 4)
    play.nominate(3, 7)
    play.vote({4: {2, 3, 5, 8, 10}, 7: {4, 6, 9}})  # seat 4 leaves
    play.hunt("mafia", {6: MemberShot.shot(6, 3), 9: MemberShot(seat=9, kind=ShotKind.BETWEEN)})
    play.check(6, 2)
    play.check(2, 9)
    play.nominate(3, 9)
    play.nominate(5, 6)
    play.vote({9: {2, 3, 5}, 6: {7, 8, 10}})  # tie: shoot-out
    play.vote({6: {2, 3, 5, 7}, 9: {8, 10}})  # re-vote in reverse order: seat 6 leaves
    play.hunt("mafia", 3)
    play.nominate(5, 9)
    play.vote({9: {2, 5, 7, 8, 10}})


def kharkiv_mafia_wins(play: Script) -> None:
    """Mafia wins: two days in a row without a vote elimination, then the extra round fails.
    The moderator corrects one hunt (an undo line in the record)."""
    play.deal(["mafia", "civilian", "civilian", "sheriff", "civilian",
               "civilian", "don", "civilian", "civilian", "mafia"])  # fmt: skip
    play.meet("mafia", [4, 2, 3])
    play.hunt("mafia", 2)
    play.game.pop()  # the moderator saw seat 10 shoot between the numbers
    play.hunt("mafia", {1: MemberShot.shot(1, 2), 7: MemberShot.shot(7, 2),
                        10: MemberShot(seat=10, kind=ShotKind.BETWEEN)})  # fmt: skip
    play.check(7, 4)
    play.check(4, 7)
    play.nominate(3, 7)
    play.nominate(4, 1)
    play.vote({7: {3, 4, 5}, 1: {7, 10, 2}})  # tie
    play.vote({1: {3, 4, 5}, 7: {1, 10, 2}})  # re-vote, reverse order: tie again
    play.all_leave({3, 4, 5}, {1, 2, 7, 10})  # not more than half the table: both stay
    play.hunt("mafia", 4)
    play.end_speeches()  # day 2: nobody nominated -> the extra round
    play.finish()  # the extra round removes nobody: mafia wins


def romanian_black_wins(play: Script) -> None:
    """Black reaches parity: the town votes out its own players while the Mafia shoots."""
    play.deal(["citizen", "mafia", "citizen", "citizen", "don",
               "commissar", "citizen", "mafia", "citizen", "citizen"])  # fmt: skip
    play.nominate(1, 3)  # day 1, a single candidate: no vote
    play.hunt("black", 6)
    play.check(5, 6)
    play.check(6, 1)
    play.nominate(3, 4)
    play.nominate(5, 7)
    play.vote({4: {2, 3, 5, 8}, 7: {1, 9}})
    play.hunt("black", 9)
    play.nominate(1, 10)
    play.vote({10: {1, 2, 5, 8}})  # red 3, black 3: parity


def ukrainian_red_wins(play: Script) -> None:
    """Red wins: abstentions count for the last candidate; a later single candidate leaves."""
    play.deal(["civilian", "civilian", "don", "civilian", "sheriff",
               "mafia", "civilian", "civilian", "mafia", "civilian"])  # fmt: skip
    play.meet("black", [5, 1, 2])
    play.nominate(2, 6)
    play.nominate(4, 8)
    play.vote({6: {1, 2, 4, 5, 7}, 8: set()})  # the other five abstain -> 5 for seat 8: tie
    play.vote({6: {1, 2, 4, 5, 7, 10}, 8: set()})  # re-vote: 6 for seat 6, 4 for seat 8
    play.hunt("black", 5)
    play.check(3, 5)
    play.check(5, 3)
    play.nominate(3, 9)  # day 2, a single candidate leaves without a vote
    play.hunt("black", 1)
    play.check(3, 2)
    play.nominate(4, 3)
    play.end_speeches()  # the Don, alone on the ballot, leaves: red wins


def triad_yellow_wins(play: Script) -> None:
    """Three teams; the Commissar loses his two lives on two nights; 2-2-2: Yellow wins."""
    play.deal(["town", "clan", "town", "yakuza", "town", "commissar",
               "boss", "town", "kambu", "town", "clan", "town"])  # fmt: skip
    play.hunt("black", 6)  # the Commissar loses a life
    play.hunt("yellow", 2)  # a clan member is hit
    play.check(7, 6)
    play.check(9, 7)
    play.check(6, 11)
    play.nominate(3, 1)
    play.nominate(5, 11)
    play.vote({1: {3, 4, 5, 7, 9, 11}, 11: {1, 6}})
    play.hunt("black", 3)
    play.hunt("yellow", 5)
    play.check(7, 8)
    play.check(9, 12)
    play.check(6, 4)
    play.nominate(4, 8)
    play.vote({8: {4, 7, 9, 11, 12}})
    play.hunt("black", 6)  # the Commissar's second life: red 2, black 2, yellow 2
    play.hunt("yellow", None)
    play.check(7, 12)
    play.check(9, 10)
    play.check(6, 7)  # the Commissar still checks: hits take effect at dawn


GAMES: dict[str, tuple[str, Callable[[Script], None], str]] = {
    "kharkiv_town_wins": ("kharkiv", kharkiv_town_wins, "town"),
    "kharkiv_mafia_wins": ("kharkiv", kharkiv_mafia_wins, "mafia"),
    "romanian_black_wins": ("romanian", romanian_black_wins, "black"),
    "ukrainian_red_wins": ("ukrainian", ukrainian_red_wins, "red"),
    "triad_yellow_wins": ("triad", triad_yellow_wins, "yellow"),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = Path(__file__).resolve().parents[1] / "sample_games"
    parser.add_argument("--out", type=Path, default=default)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name, (rules_name, script, winner) in GAMES.items():
        path = args.out / f"{name}.jsonl"
        play = _start(path, rules_name)
        script(play)
        assert isinstance(play.game.journal, RecordWriter)
        play.game.journal.close()
        outcome = play.game.outcome()
        if outcome is None or outcome.winner != winner:
            raise SystemExit(f"{name}: expected {winner} to win, got {outcome}")
        print(f"{path}: {len(play.game.actions)} actions, {outcome.winner} wins "
              f"({outcome.termination.value})")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
