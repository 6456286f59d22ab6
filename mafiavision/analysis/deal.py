"""The deal of a recorded game, from the moderator's sheet (``--deal``, ``<name>.deal.yaml``).

A recording shows the night but not the cards; a game record begins with the deal. The club's
moderator writes it by hand, as on the sheet — each role with its seat(s); the seats not listed
hold the one card left over (the civilians)::

    # kharkiv_hit_ru.deal.yaml: who had which card
    roles:
      don: 5
      mafia: [3, 7]
      sheriff: 9
    nicknames: {3: Anna, 5: Boris}   # optional: names in the game record
    night: 0                         # optional: the night the recording begins on

YAML (or JSON, which YAML reads too). Every mistake is one line naming the file and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import yaml
from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from mafiavision.errors import InputError, MissingInputError

if TYPE_CHECKING:
    from mafiavision.rules import RuleSet


class DealError(InputError):
    """A deal file is invalid: the message names the file and the field."""


class DealFile(BaseModel):
    """The file as written: role → seat or seats, and optional nicknames."""

    model_config = ConfigDict(extra="forbid")

    roles: dict[str, StrictInt | list[StrictInt]] = Field(
        description="role title → its seat (or list of seats); unlisted seats hold the card "
        "left over")
    nicknames: dict[int, str] = Field(default_factory=dict, description="seat → name")
    night: int | None = Field(
        None, ge=0, strict=True,
        description="the night the recording begins on (0: the game's first night, before any "
        "hunt); unset: not known")


@dataclass(frozen=True)
class GameDeal:
    """The deal validated against a rule set: ``roles[i]`` is the role of seat ``i + 1``."""

    roles: tuple[str, ...]
    nicknames: dict[int, str]
    origin: str  # the file (or record) it came from
    night: int | None = None  # the night the recording begins on (None: not known)

    def differences(self, other: tuple[str, ...]) -> list[str]:
        return [f"seat {s}: {a} / {b}" for s, (a, b) in enumerate(zip(self.roles, other,
                                                                        strict=True), 1)
                if a != b]


def _read(path: Path) -> DealFile:
    from mafiavision.rules.rulesets import describe_validation_error

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise MissingInputError(f"{path}: deal file not found") from exc
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        problem = str(getattr(exc, "problem", None) or exc).splitlines()[0]
        raise DealError(f"{path}: not valid YAML or JSON ({problem})") from exc
    if not isinstance(data, dict):
        raise DealError(f"{path}: expected a mapping with 'roles:' (role: seat or [seats])")
    try:
        return DealFile.model_validate(data)
    except ValidationError as exc:
        raise DealError(f"{path}: {describe_validation_error(exc)}") from exc


def load_deal(path: Path, rules: RuleSet) -> GameDeal:
    """The deal of ``path`` under ``rules`` (a :class:`~mafiavision.rules.RuleSet`)."""
    sheet = _read(path)
    counts = rules.role_counts()
    known = ", ".join(counts)
    titles = {title.lower(): title for title in counts}  # a role is named in any case
    seats: dict[int, str] = {}
    for key, given in sheet.roles.items():
        role = titles.get(key.strip().lower(), "")
        if role not in counts:
            raise DealError(f"{path}: roles.{key}: not a role of {rules.name} (roles: {known})")
        listed = [given] if isinstance(given, int) else given
        for seat in listed:
            if not 1 <= seat <= rules.players:
                raise DealError(f"{path}: roles.{key}: seat {seat} does not exist (seats are "
                                f"1..{rules.players})")
            if seat in seats:
                raise DealError(f"{path}: roles: seat {seat} is given twice ({seats[seat]} and "
                                f"{role})")
            seats[seat] = role
        if len([s for s in seats.values() if s == role]) > counts[role]:
            raise DealError(f"{path}: roles.{key}: {len(listed)} seats, but {rules.name} deals "
                            f"{counts[role]} {role} card{'s' if counts[role] > 1 else ''}")
    left = {role: n - sum(r == role for r in seats.values()) for role, n in counts.items()}
    left = {role: n for role, n in left.items() if n}
    free = [s for s in range(1, rules.players + 1) if s not in seats]
    if len(left) > 1:
        cards = ", ".join(f"{n} {role}" for role, n in left.items())
        raise DealError(f"{path}: roles: seats {', '.join(map(str, free))} have no role and the "
                        f"cards left are {cards}: list every role but one")
    for seat in free:
        seats[seat] = next(iter(left))
    for seat in sheet.nicknames:
        if not 1 <= seat <= rules.players:
            raise DealError(f"{path}: nicknames.{seat}: seat {seat} does not exist (seats are "
                            f"1..{rules.players})")
    return GameDeal(tuple(seats[s] for s in range(1, rules.players + 1)), dict(sheet.nicknames),
                    str(path), sheet.night)
