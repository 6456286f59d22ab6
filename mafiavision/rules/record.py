"""The game record: JSON Lines, a header then one entry per line, append-only.

Line 1 is the header (``"type": "header"``: format, version, the rule set with all its options,
seats, nicknames, creation time). Every further line is either an action::

    {"type": "action", "time": "2026-11-29T23:41:07.120+00:00", "action": "hunt",
     "args": {"team": "mafia", "shots": [{"seat": 3, "kind": "shot", "target": 7}, ...]},
     "evidence": {"source": "night2.mp4", "video_time": 812.4, "confidence": 0.93}}

or an undo of the previous action (``{"type": "undo", "time": ...}``), so the moderator's
corrections are kept. :class:`RecordWriter` appends, flushes and fsyncs each line before it
returns (a :class:`~mafiavision.rules.engine.Game` with it as journal acknowledges only then).
:func:`read_record` drives a :class:`RecordVisitor` over a file (python-chess PGN style); the
default :class:`GameBuilder` replays it into a :class:`~mafiavision.rules.engine.Game`. A bad
line raises :class:`RecordError` naming the file, the line and the field.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from mafiavision import __version__
from mafiavision.errors import InputError, MissingInputError
from mafiavision.rules.actions import ACTION_TYPES, Action
from mafiavision.rules.engine import Game
from mafiavision.rules.errors import IllegalAction, NotAllowed
from mafiavision.rules.rulesets import RuleSet, describe_validation_error

FORMAT = "mafiavision-game"
FORMAT_VERSION = 1


class RecordError(InputError):
    """A game record is invalid: the message names the file, the line and the field."""


class Evidence(BaseModel):
    """Where an action came from when the camera proposed it (all optional)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source: str | None = Field(None, description="Video file or camera the evidence is in.")
    video_time: float | None = Field(None, ge=0, description="Seconds on the input's clock.")
    video_end: float | None = Field(None, ge=0, description="End of the evidence span, seconds.")
    confidence: float | None = Field(None, ge=0, le=1)
    details: dict[str, Any] = Field(default_factory=dict, description="Free-form, JSON only.")


class RecordHeader(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["header"] = "header"
    format: Literal["mafiavision-game"] = FORMAT
    version: Literal[1] = FORMAT_VERSION
    mafiavision: str = __version__
    created: str
    rules: RuleSet
    seats: int = Field(ge=7, le=12)
    nicknames: dict[int, str] = Field(default_factory=dict)


class _ActionLine(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["action"]
    time: str
    action: str
    args: dict[str, Any] = Field(default_factory=dict)
    evidence: Evidence | None = None


class _UndoLine(BaseModel):
    model_config = ConfigDict(extra="forbid")

    type: Literal["undo"]
    time: str


@dataclass(frozen=True)
class ActionEntry:
    line: int
    time: str
    action: Action
    evidence: Evidence | None


@dataclass(frozen=True)
class UndoEntry:
    line: int
    time: str


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


_ADAPTERS: dict[str, TypeAdapter[Any]] = {
    kind: TypeAdapter(cls) for kind, cls in ACTION_TYPES.items()
}


def action_to_json(action: Action) -> dict[str, Any]:
    """``{"action": kind, "args": {...}}`` for one action (frozensets become sorted lists)."""
    args = _ADAPTERS[action.kind].dump_python(action, mode="json")
    for key in args:
        value = getattr(action, key)
        if isinstance(value, frozenset):
            args[key] = sorted(value)
    return {"action": action.kind, "args": args}


def action_from_json(kind: str, args: dict[str, Any]) -> Action:
    """The action ``kind`` built from ``args``; raises ValueError / ValidationError."""
    if kind not in _ADAPTERS:
        raise ValueError(f"unknown action {kind!r} (expected one of {', '.join(_ADAPTERS)})")
    action: Action = _ADAPTERS[kind].validate_python(args)
    return action


# --------------------------------------------------------------------------- writing


class RecordWriter:
    """Appends a game record. Use :meth:`create` for a new file, :meth:`append_to` to continue
    one (after a crash); pass it as ``journal`` to :class:`~mafiavision.rules.engine.Game`."""

    def __init__(self, path: Path, clock: Callable[[], str] = now_iso) -> None:
        self.path = path
        self.clock = clock
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND)

    @classmethod
    def create(
        cls,
        path: str | Path,
        rules: RuleSet,
        nicknames: dict[int, str] | None = None,
        clock: Callable[[], str] = now_iso,
    ) -> RecordWriter:
        """Start a new record (the file must not exist) and write its header."""
        path = Path(path)
        header = RecordHeader(
            created=clock(), rules=rules, seats=rules.players, nicknames=nicknames or {}
        )
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        except FileExistsError as exc:
            raise RecordError(
                f"{path}: a record already exists there (append_to continues it)"
            ) from exc
        writer = cls(path, clock)
        writer._write(header.model_dump(mode="json"))
        return writer

    @classmethod
    def append_to(cls, path: str | Path, clock: Callable[[], str] = now_iso) -> RecordWriter:
        """Continue an existing record (its header valid, its last line complete)."""
        read_header(path)
        with Path(path).open("rb") as handle:
            handle.seek(-1, os.SEEK_END)
            if handle.read(1) != b"\n":
                raise RecordError(f"{path}: the last line is incomplete (cut off while writing?)")
        return cls(Path(path), clock)

    def _write(self, obj: dict[str, Any]) -> None:
        data = (json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view) :]
        os.fsync(self._fd)

    def record_action(self, action: Action, evidence: Any = None) -> None:
        if evidence is not None and not isinstance(evidence, Evidence):
            evidence = Evidence.model_validate(evidence)
        line: dict[str, Any] = {"type": "action", "time": self.clock(), **action_to_json(action)}
        if evidence is not None:
            line["evidence"] = evidence.model_dump(mode="json", exclude_defaults=True)
        self._write(line)

    def record_undo(self) -> None:
        self._write({"type": "undo", "time": self.clock()})

    def close(self) -> None:
        os.close(self._fd)

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def start_game(
    path: str | Path,
    rules: RuleSet,
    nicknames: dict[int, str] | None = None,
    clock: Callable[[], str] = now_iso,
) -> Game:
    """A new :class:`Game` recording into a new file at ``path``."""
    return Game(rules, journal=RecordWriter.create(path, rules, nicknames, clock))


# --------------------------------------------------------------------------- reading

T = TypeVar("T")


class RecordVisitor(Generic[T]):
    """Receives a record's parts in order; subclass and override what you need.

    An :class:`~mafiavision.rules.errors.IllegalAction` raised by a visit method becomes a
    :class:`RecordError` naming the file and line."""

    def begin_record(self, header: RecordHeader) -> None:
        """Called once with the validated header."""

    def visit_action(self, entry: ActionEntry) -> None:
        """Called for every action line."""

    def visit_undo(self, entry: UndoEntry) -> None:
        """Called for every undo line."""

    def end_record(self) -> None:
        """Called after the last line."""

    def result(self) -> T:
        raise NotImplementedError


class GameBuilder(RecordVisitor[Game]):
    """Replays a record into a :class:`Game` (illegal lines raise :class:`RecordError`)."""

    def __init__(self) -> None:
        self.game: Game | None = None

    def begin_record(self, header: RecordHeader) -> None:
        self.game = Game(header.rules)

    def visit_action(self, entry: ActionEntry) -> None:
        assert self.game is not None
        self.game.push(entry.action)

    def visit_undo(self, entry: UndoEntry) -> None:
        assert self.game is not None
        try:
            self.game.pop()
        except IndexError as exc:
            raise NotAllowed("undo with nothing to undo") from exc

    def result(self) -> Game:
        assert self.game is not None
        return self.game


def _lines(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        handle = path.open(encoding="utf-8")
    except FileNotFoundError as exc:
        raise MissingInputError(f"{path}: game record not found") from exc
    with handle:
        for number, text in enumerate(handle, start=1):
            if not text.strip():
                continue
            try:
                obj = json.loads(text)
            except json.JSONDecodeError as exc:
                raise RecordError(f"{path} line {number}: not valid JSON: {exc.msg}") from exc
            if not isinstance(obj, dict):
                raise RecordError(f"{path} line {number}: expected a JSON object")
            yield number, obj


def _header(path: Path, number: int, obj: dict[str, Any]) -> RecordHeader:
    if obj.get("type") != "header":
        raise RecordError(f"{path} line {number}: type: expected the header first")
    try:
        header = RecordHeader.model_validate(obj)
    except ValidationError as exc:
        raise RecordError(f"{path} line {number}: {describe_validation_error(exc)}") from exc
    if header.seats != header.rules.players:
        raise RecordError(
            f"{path} line {number}: seats: {header.seats} but the rules have {header.rules.players}"
        )
    return header


def read_header(path: str | Path) -> RecordHeader:
    """The validated header of a record."""
    path = Path(path)
    for number, obj in _lines(path):
        return _header(path, number, obj)
    raise RecordError(f"{path}: empty game record (expected a header line)")


def _entry(path: Path, number: int, obj: dict[str, Any]) -> ActionEntry | UndoEntry:
    kind = obj.get("type")
    try:
        if kind == "undo":
            undo = _UndoLine.model_validate(obj)
            return UndoEntry(number, undo.time)
        if kind != "action":
            raise RecordError(f"{path} line {number}: type: expected 'action' or 'undo'")
        line = _ActionLine.model_validate(obj)
    except ValidationError as exc:
        raise RecordError(f"{path} line {number}: {describe_validation_error(exc)}") from exc
    try:
        action = action_from_json(line.action, line.args)
    except ValidationError as exc:
        where = describe_validation_error(exc, prefix="args")
        raise RecordError(f"{path} line {number}: {where}") from exc
    except ValueError as exc:
        raise RecordError(f"{path} line {number}: action: {exc}") from exc
    return ActionEntry(number, line.time, action, line.evidence)


def read_record(path: str | Path, visitor: RecordVisitor[T]) -> T:
    """Validate ``path`` line by line and feed it to ``visitor``; returns ``visitor.result()``."""
    path = Path(path)
    header: RecordHeader | None = None
    for number, obj in _lines(path):
        if header is None:
            header = _header(path, number, obj)
            visitor.begin_record(header)
            continue
        entry = _entry(path, number, obj)
        try:
            if isinstance(entry, UndoEntry):
                visitor.visit_undo(entry)
            else:
                visitor.visit_action(entry)
        except IllegalAction as exc:
            what = "undo" if isinstance(entry, UndoEntry) else entry.action.kind
            raise RecordError(f"{path} line {number}: illegal {what}: {exc}") from exc
    if header is None:
        raise RecordError(f"{path}: empty game record (expected a header line)")
    visitor.end_record()
    return visitor.result()


def replay(path: str | Path) -> Game:
    """The game a record describes, re-run through the engine."""
    return read_record(path, GameBuilder())
