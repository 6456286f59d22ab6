"""The schema of ``events.json``: everything ``mafiavision analyze`` found in one recording.

Times are seconds on the recording's clock (the video's presentation time; the audio track is on
the same clock). Confidences are in [0, 1]. The schema is documented field by field in
``docs/analysis.md``; :data:`SCHEMA_VERSION` changes whenever a field changes meaning.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from mafiavision.errors import InputError, MissingInputError

SCHEMA_VERSION = 1

#: How each member of a bandit group behaved during a hunt (``rules.ShotKind`` values).
MemberKind = Literal["shot", "no_shot", "between", "multiple", "not_seen"]
#: Where the time of a hunt or check came from: found in the recording, or given by hand.
Origin = Literal["found", "given"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SourceInfo(_Model):
    """The recording and how far it decoded."""

    path: str
    width: int = Field(gt=0)
    height: int = Field(gt=0)
    fps: float = Field(gt=0, description="average frame rate of the video stream")
    duration: float = Field(ge=0, description="seconds the container announces")
    has_audio: bool
    decoded_until: float = Field(ge=0, description="time of the last frame that decoded")
    stopped_early: bool = Field(description="decoding ended before the announced duration")
    stop_reason: str | None = Field(
        default=None, description="why decoding stopped early (the decoder's message)"
    )


class ShotRecord(_Model):
    """One squeeze-and-release of index + middle at a seat (``vision.shots.ShotEvent``)."""

    seat: int = Field(ge=1)
    t: float = Field(description="time of the squeeze's deepest point")
    duration: float = Field(ge=0)
    depth: float = Field(description="degrees of summed index+middle bend above the baseline")
    confidence: float = Field(ge=0, le=1)


class WindowRecord(_Model):
    """The time in which a shot counts for ``seat`` (``audio.callout.NumberWindow``)."""

    seat: int = Field(ge=1)
    start: float
    end: float
    onset: float = Field(description="onset of the spoken number")
    confidence: float = Field(ge=0, le=1)


class NumberRecord(_Model):
    """A number shown on the fingers of a seat's hand(s), held steady from start to end."""

    seat: int = Field(ge=1)
    start: float
    end: float
    value: int = Field(ge=0)
    confidence: float = Field(ge=0, le=1)


class MemberRecord(_Model):
    """What one member of the hunting group did, as the rules engine counts it."""

    seat: int = Field(ge=1)
    kind: MemberKind
    target: int | None = Field(default=None, description="seat shot at when kind is 'shot'")
    reason: str = Field(description="'shot on 7', 'no shot', 'another number (4)', ...")
    confidence: float = Field(ge=0, le=1)
    seen: float = Field(ge=0, le=1, description="share of the hunt's frames the hand was seen")
    shot_times: list[float] = Field(default_factory=list)


class VerdictRecord(_Model):
    """The arbiter's verdict of a hunt (``night.arbiter.judge_hunt``), with its evidence."""

    outcome: Literal["hit", "miss"]
    target: int | None = Field(default=None, description="seat hit (outcome 'hit')")
    members: list[MemberRecord]
    questions: list[str] = Field(
        description="the arbiter's doubts; non-empty means the moderator must decide"
    )
    confidence: float = Field(ge=0, le=1)
    spread_ms: float | None = Field(
        default=None, description="ms between the first and last shooter's shot (hit or miss)"
    )
    evidence_times: list[float] = Field(
        default_factory=list, description="frame times whose thumbnails the report shows"
    )

    @property
    def needs_moderator(self) -> bool:
        return bool(self.questions)

    def miss_reasons(self) -> list[str]:
        """The members' reasons of a miss without their details: 'no shot', 'another number'."""
        if self.outcome == "hit":
            return []
        return [m.reason.split(" (")[0] for m in self.members if m.kind != "shot"
                or m.reason.startswith("another number")]


class HuntRecord(_Model):
    """One hunt: a bandit group holding the gun pose while the seat numbers are counted."""

    index: int = Field(ge=1, description="1-based order in the recording")
    start: float
    end: float
    origin: Origin
    members: list[int] = Field(description="seats of the hunting group")
    confidence: float = Field(ge=0, le=1, description="how sure the finder is this is a hunt")
    windows: list[WindowRecord]
    shots: list[ShotRecord]
    verdict: VerdictRecord


class CheckRecord(_Model):
    """One check: a leader showing a seat number on the fingers."""

    index: int = Field(ge=1)
    start: float
    end: float
    origin: Origin
    seat: int = Field(ge=1, description="the leader's seat")
    role: str | None = Field(default=None, description="the leader's role when the roles are known")
    value: int | None = Field(description="the seat number read, or null when unreadable")
    confidence: float = Field(ge=0, le=1)
    question: str = Field(description="what the moderator is asked: 'Is seat 7 the Sheriff?'")
    doubts: list[str] = Field(description="non-empty means the reading needs the moderator")
    answer: bool | None = Field(
        default=None,
        description="the moderator's answer when the roles are known (--deal or --record), "
        "else null",
    )
    evidence_times: list[float] = Field(default_factory=list)


class OrdersRecord(_Model):
    """The Don's night-zero orders: the seats to shoot on the next nights, shown twice."""

    index: int = Field(ge=1)
    start: float
    end: float
    origin: Origin
    seat: int = Field(ge=1, description="the seat showing the orders")
    orders: list[int] | None = Field(
        description="the orders proposed (what the passes agree on; doubts say where they "
        "differ), or null when none can be read")
    passes: list[list[int]] = Field(description="the numbers of each pass, as read")
    confidence: float = Field(ge=0, le=1)
    doubts: list[str] = Field(description="non-empty means the reading needs the moderator")
    evidence_times: list[float] = Field(default_factory=list)


class Disagreement(_Model):
    """A place where the analysis and the live game record say different things."""

    kind: Literal["hunt", "check"]
    t: float = Field(description="time in the recording the dispute is about")
    analysis: str = Field(description="what the analysis found")
    record: str = Field(description="what the live record says")


class RecordInfo(_Model):
    """The game record written beside ``events.json`` (``record.jsonl``)."""

    path: str = Field(description="file name of the record, beside events.json")
    deal: str = Field(description="where the deal came from: the --deal file or the live record")
    actions: int = Field(ge=1, description="actions in the record, the deal included")
    observed: int = Field(ge=0, description="actions whose evidence points into the recording")
    next: str = Field(description="what the game expects after the record's last action")


class Events(_Model):
    """Top level of ``events.json``."""

    schema_version: Literal[1] = SCHEMA_VERSION
    tool_version: str
    source: SourceInfo
    rules: str
    table: str
    vision_only: bool = Field(description="no usable audio track: windows and verdicts missing")
    sampling: dict[str, float] = Field(
        description="frames per second tracked in the day and during hands (the cheap gate)"
    )
    hunts: list[HuntRecord]
    checks: list[CheckRecord]
    orders: list[OrdersRecord] = Field(
        default_factory=list, description="the Don's night-zero orders (rule sets with orders)")
    shots: list[ShotRecord] = Field(description="every shot found, inside hunts or not")
    numbers: list[NumberRecord] = Field(description="every number shown, inside checks or not")
    disagreements: list[Disagreement] | None = Field(
        default=None, description="comparison with --record; null when no record was given"
    )
    record: RecordInfo | None = Field(
        default=None, description="the game record written; null when the deal was not known "
        "(neither --deal nor --record)")
    warnings: list[str]

    def save(self, path: Path) -> None:
        path.write_text(self.model_dump_json(indent=2) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> Events:
        if not path.exists():
            raise MissingInputError(f"{path}: events file not found")
        try:
            return cls.model_validate_json(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            first = str(exc).splitlines()
            raise InputError(f"{path}: not a valid events.json ({' '.join(first[:3])})") from exc
