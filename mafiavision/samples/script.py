"""Night scripts: what happens in a sample clip, as YAML (schema :class:`NightScript`).

A script names the table (seats, roles), the moderator's voice, the camera and the phases of the
night in time order. Times are seconds on the clip's clock. Seats are 1-based.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from mafiavision.errors import InputError, MissingInputError
from mafiavision.rules.rulesets import load_rules

RuleName = Literal["kharkiv", "romanian", "ukrainian", "triad"]
Role = Literal["civilian", "sheriff", "mafia", "don", "commissar", "clan", "boss", "yakuza",
               "kambu"]
#: Hunting groups and the roles that belong to them.
GROUPS: dict[str, tuple[str, ...]] = {
    "mafia": ("mafia", "don"),
    "clan": ("clan", "boss"),
    "yakuza": ("yakuza", "kambu"),
}


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class VoiceSpec(Strict):
    language: Literal["ru", "en"]
    variant: str | None = None  # espeak-ng voice name; default: the language
    rate: int = Field(160, ge=80, le=320)  # words per minute
    pitch: int = Field(50, ge=0, le=99)
    pace: float = Field(1.0, gt=0.3, le=3.0)  # seconds between number onsets (mean)
    jitter: float = Field(0.1, ge=0.0, le=0.4)  # relative random spread of the pace
    word_gap: float = Field(0.08, ge=0.0, le=1.0)  # pause between the words of a call


class VideoSpec(Strict):
    width: int = Field(1280, ge=640, le=1280)
    height: int = Field(720, ge=360, le=720)
    fps: int = Field(25, ge=15, le=30)
    elevation: float = Field(40.0, ge=25.0, le=80.0)  # camera angle above the table plane
    distance: float = Field(3.4, gt=1.5, le=6.0)  # camera distance to the table centre (m)
    hand_scale: float = Field(1.5, gt=0.5, le=3.0)  # hands drawn this many times life size
    noise: float = Field(1.5, ge=0.0, le=12.0)  # sensor noise sigma (8-bit levels)
    crf: int = Field(30, ge=16, le=40)  # H.264 quality (higher = stronger compression)
    brightness: float = Field(1.0, gt=0.2, le=1.5)

    @field_validator("width", "height")
    @classmethod
    def _even(cls, v: int) -> int:
        if v % 2:
            raise ValueError(f"{v} is odd: H.264 in yuv420p needs an even width and height")
        return v


class ShotSpec(Strict):
    """One squeeze-and-release: ``at`` a number (starting ``delay`` s after its onset) or
    ``between`` two consecutive numbers (centred in the pause between them)."""

    at: int | None = None
    between: tuple[int, int] | None = None
    delay: float = Field(0.15, ge=-0.2, le=1.0)
    depth: float = Field(0.6, ge=0.2, le=0.8)  # peak gun bend (0 straight .. 1 curled)
    duration: float = Field(0.45, ge=0.2, le=1.0)

    @model_validator(mode="after")
    def _one_target(self) -> ShotSpec:
        if (self.at is None) == (self.between is None):
            raise ValueError("a shot needs exactly one of 'at' or 'between'")
        if self.between is not None and self.between[1] != self.between[0] + 1:
            raise ValueError("'between' takes two consecutive numbers, e.g. [4, 5]")
        return self


class HuntPhase(Strict):
    kind: Literal["hunt"]
    at: float = Field(ge=0.0)
    group: Literal["mafia", "clan", "yakuza"] = "mafia"
    shots: dict[int, list[ShotSpec]] = {}  # seat -> its squeezes (absent or [] = no shot)
    numbers: int | None = None  # how many numbers are called (default: every seat)


class CheckPhase(Strict):
    kind: Literal["check"]
    at: float = Field(ge=0.0)
    by: int  # the checking leader's seat
    show: int = Field(ge=1, le=10)  # the seat shown on the fingers (6..10 with two hands)
    hold: float = Field(2.5, ge=1.0, le=6.0)


class OrdersPhase(Strict):
    kind: Literal["orders"]
    at: float = Field(ge=0.0)
    by: int  # the Don's seat
    values: list[int] = Field(min_length=1, max_length=4)
    repeat: int = Field(2, ge=1, le=3)
    hold: float = Field(1.4, ge=0.6, le=4.0)
    pause: float = Field(1.5, ge=0.0, le=5.0)  # extra seconds between two passes


class WakePhase(Strict):
    kind: Literal["wake"]
    at: float = Field(ge=0.0)
    seat: int
    call: Literal["wake_sheriff", "wake_don"] = "wake_sheriff"
    hold: float = Field(2.0, ge=0.8, le=6.0)


Phase = Annotated[HuntPhase | CheckPhase | OrdersPhase | WakePhase, Field(discriminator="kind")]


class Distractor(Strict):
    """Something that is not a gesture of the night: a non-bandit ``move``s a hand, a player lifts
    the head (``head_lift``), or the room ``light`` changes by ``gain``."""

    kind: Literal["move", "head_lift", "light"]
    start: float = Field(ge=0.0)
    end: float = Field(gt=0.0)
    seat: int | None = None
    gain: float = Field(0.6, gt=0.1, le=2.0)

    @model_validator(mode="after")
    def _check(self) -> Distractor:
        if self.end <= self.start:
            raise ValueError("end must be after start")
        if self.kind != "light" and self.seat is None:
            raise ValueError(f"a {self.kind} distractor needs a seat")
        return self


class NightScript(Strict):
    name: str = Field(pattern=r"^[a-z0-9_]+$")
    description: str
    seed: int
    rules: RuleName
    night: int = Field(ge=0)
    seats: Literal[10, 12]
    roles: dict[Role, list[int]]  # role -> seats; unlisted seats are civilians (Town/Red)
    voice: VoiceSpec
    video: VideoSpec = VideoSpec()
    back: list[int] = []  # seats that show the back of the hand to the camera
    phases: list[Phase] = Field(min_length=1)
    distractors: list[Distractor] = []
    tail: float = Field(1.0, ge=0.2, le=5.0)  # seconds after the last phase

    @model_validator(mode="after")
    def _check(self) -> NightScript:
        seen: set[int] = set()
        for role, seats in self.roles.items():
            for s in seats:
                if not 1 <= s <= self.seats:
                    raise ValueError(f"roles.{role}: seat {s} is not in 1..{self.seats}")
                if s in seen:
                    raise ValueError(f"roles.{role}: seat {s} has two roles")
                seen.add(s)
        starts = [p.at for p in self.phases]
        if starts != sorted(starts):
            raise ValueError("phases must be in time order")
        for p in self.phases:
            if isinstance(p, HuntPhase):
                members = set(self.members(p.group))
                if not members:
                    raise ValueError(f"hunt of {p.group!r}: no seat has a role of that group")
                if not set(p.shots) <= members:
                    raise ValueError(f"hunt of {p.group!r}: shots for seats "
                                     f"{sorted(set(p.shots) - members)} outside the group")
        return self

    def role_of(self, seat: int) -> str:
        """The seat's role as the rule set names it; unlisted seats hold the plain card of the
        largest team (civilian, citizen or town)."""
        for role, seats in self.roles.items():
            if seat in seats:
                return role
        return max(load_rules(self.rules).teams, key=lambda team: team.size).member

    def members(self, group: str) -> list[int]:
        return sorted(s for role in GROUPS[group] for s in self.roles.get(role, []))  # type: ignore[call-overload]


def load_script(path: Path) -> NightScript:
    """Read and validate a night script; errors name the file and the field."""
    if not path.exists():
        raise MissingInputError(f"{path}: night script not found")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise InputError(f"{path}: not valid YAML ({exc})") from exc
    try:
        return NightScript.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(x) for x in err["loc"]) or "(top level)"
        raise InputError(f"{path}: field {where}: {err['msg']}") from exc
