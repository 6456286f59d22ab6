"""``mafiavision replay RECORD [--json]``: re-run a game record and print the final state."""

from __future__ import annotations

import argparse
import json
from typing import Any


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="re-run a game record through the rules engine and print the final state",
        description="Re-run a game record (JSON Lines) through the rules engine, checking every "
        "action, and print the final state.",
    )
    parser.add_argument("record", help="game record (.jsonl) written by MafiaVision")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def summary(game: Any) -> dict[str, Any]:
    """The final state of a replayed game as the ``--json`` object (an external contract)."""
    state = game.state
    outcome = game.outcome()
    return {
        "rules": game.rules.name,
        "winner": outcome.winner if outcome else None,
        "termination": outcome.termination.value if outcome else None,
        "alive": list(state.alive()),
        "misses": dict(state.misses),
        "day": state.day,
        "night": state.night,
        "phase": state.phase.value,
        "next": game.next_step().text,
        "removed": [
            {"seat": r.seat, "cause": r.cause.value, "day": r.day, "night": r.night}
            for r in state.removed
        ],
        "roles": {str(seat): role for seat, role in enumerate(state.roles, start=1)},
        "actions": len(game.actions),
    }


def _text(info: dict[str, Any], title: str) -> str:
    result = (
        f"{info['winner'] or 'nobody'} wins ({info['termination']})"
        if info["termination"]
        else "game in progress"
    )
    removed = ", ".join(f"{r['seat']} {r['cause']}" for r in info["removed"]) or "nobody"
    misses = ", ".join(f"{team} {n}" for team, n in info["misses"].items()) or "-"
    alive = ", ".join(f"{s} ({info['roles'][str(s)]})" for s in info["alive"])
    return "\n".join(
        [
            f"rules:   {info['rules']} — {title}",
            f"result:  {result}",
            f"day:     {info['day']}, night {info['night']}, phase {info['phase']}",
            f"alive:   {alive}",
            f"removed: {removed}",
            f"misses:  {misses}",
            f"next:    {info['next']}",
            f"actions: {info['actions']}",
        ]
    )


def run(args: argparse.Namespace) -> int:
    from mafiavision.rules.record import replay

    game = replay(args.record)
    info = summary(game)
    print(json.dumps(info, ensure_ascii=False) if args.json else _text(info, game.rules.title))
    return 0
