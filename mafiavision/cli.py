"""The ``mafiavision`` command.

Each sub-command lives in the ``cli`` module of its own sub-package, which exposes
``register(subparsers)``: it adds its parser(s) and sets ``func`` to a function taking the parsed
arguments and returning the exit code. Heavy imports (MediaPipe, onnxruntime, FastAPI) stay inside
those functions so ``mafiavision replay`` starts fast.

A :class:`~mafiavision.errors.UserError` ends the command with one line on stderr and exit code 2,
never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from mafiavision import __version__
from mafiavision.errors import UserError

#: Modules that register sub-commands, in the order ``--help`` lists them.
COMMAND_MODULES: tuple[str, ...] = (
    "mafiavision.rules.cli",
    "mafiavision.vision.cli",
    "mafiavision.audio.cli",
    "mafiavision.vision.gestures_cli",
    "mafiavision.night.cli",
    "mafiavision.analysis.cli",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mafiavision",
        description="Camera and microphone assistant for the night of a Mafia game.",
    )
    parser.add_argument("--version", action="version", version=f"mafiavision {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "func", None) is None:
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except UserError as exc:
        print(f"mafiavision {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"mafiavision {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
