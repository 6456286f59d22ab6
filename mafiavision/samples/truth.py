"""Ground truth of a sample clip (schema :class:`ClipTruth`, written as ``<name>.truth.json``).

Everything is exact by construction: the renderer puts each hand, squeeze and word where the truth
says. Times are seconds on the clip's clock (video presentation time = audio time).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from mafiavision.rules import load_rules
from mafiavision.vision.table import Table

TRUTH_VERSION = 1


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Word(Model):
    text: str
    onset: float
    offset: float
    kind: Literal["call", "number"]
    number: int | None = None  # for numbers: the value said (1..N)


class Gesture(Model):
    """``raise``: the hand is fully up (start..end); ``shot``: one squeeze-and-release (value = the
    number being said, ``between`` = the two numbers it fell between, peak = deepest moment);
    ``number``: a check shows ``value``; ``order``: the Don shows ``value`` on night zero;
    ``move``: a non-bandit's hand moves (a distractor)."""

    seat: int
    kind: Literal["raise", "shot", "number", "order", "move"]
    start: float
    end: float
    value: int | None = None
    between: tuple[int, int] | None = None
    peak: float | None = None
    depth_deg: float | None = None  # summed index+middle flexion at the peak (degrees)
    hands: int = 1
    view: Literal["palm", "back"] = "palm"


class HandInterval(Model):
    """A hand on screen: rising from ``appear`` to ``up``, fully raised ``up``..``down``, lowered
    and gone at ``gone``. Detection rates count the frames in ``up``..``down``."""

    seat: int
    hand: int = 0  # 0, or 0/1 for the two hands of a two-hand number
    appear: float
    up: float
    down: float
    gone: float
    pose: Literal["gun", "count", "open"]
    view: Literal["palm", "back"]
    yaw: float
    skin: tuple[int, int, int]
    shape: int


class BendTrack(Model):
    """Ground-truth bend of a gun hand at every frame it is fully raised: summed flexion of index
    and middle (MCP+PIP+DIP of both, degrees); 0 = straight fingers."""

    seat: int
    times: list[float]
    degrees: list[float]


class MemberObservation(Model):
    seat: int
    kind: Literal["shot", "no_shot", "between", "multiple"]
    number: int | None = None
    between: tuple[int, int] | None = None


class HuntResult(Model):
    group: Literal["mafia", "clan", "yakuza"]
    members: list[int]
    observations: list[MemberObservation]
    verdict: Literal["hit", "miss"]
    target: int | None = None
    reasons: list[str] = []


class CheckResult(Model):
    by: int
    role: str
    shown: int
    hands: int
    answer: bool  # the moderator's nod (True) or head-shake (False)
    looks_for: list[str]


class OrdersResult(Model):
    by: int
    values: list[int]
    repeats: int


class Distraction(Model):
    kind: Literal["move", "head_lift", "light"]
    start: float
    end: float
    seat: int | None = None
    gain: float | None = None


class VideoInfo(Model):
    width: int
    height: int
    fps: int
    frames: int
    duration: float
    elevation: float
    noise: float
    crf: int


class VoiceInfo(Model):
    language: str
    voice: str
    rate: int
    pitch: int
    pace: float


class ClipTruth(Model):
    version: int = TRUTH_VERSION
    name: str
    description: str
    seed: int
    rules: str
    night: int
    seats: int
    roles: dict[int, str]  # every seat -> its role
    video: VideoInfo
    voice: VoiceInfo
    table: Table  # the clip's table.json (docs/INTERFACES.md)
    words: list[Word]
    gestures: list[Gesture]
    hands: list[HandInterval]
    bends: list[BendTrack]
    hunts: list[HuntResult] = []
    checks: list[CheckResult] = []
    orders: list[OrdersResult] = []
    distractions: list[Distraction] = []
    cases: list[str] = Field(default_factory=list)  # which cases of issue 5 point 3 it covers

    def save(self, path: Path) -> None:
        path.write_text(self.model_dump_json(indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> ClipTruth:
        return cls.model_validate_json(path.read_text(encoding="utf-8"))


#: What each leader looks for, by role (Triad's Kambu: the Commissar, one reading of the text).
def looks_for(rules: str, role: str) -> tuple[str, ...]:
    """The roles a leader's check finds in the rule set (empty: the role does not check)."""
    ruleset = load_rules(rules)
    team = next((t for t in ruleset.teams if t.leader == role), None)
    return tuple(team.leader_finds) if team is not None else ()


def hunt_result(group: str, members: list[int], shots: dict[int, list[Gesture]]) -> HuntResult:
    """The expected verdict: a hit only if every member shoots once, on the same number."""
    obs: list[MemberObservation] = []
    reasons: list[str] = []
    for seat in members:
        mine = shots.get(seat, [])
        if not mine:
            obs.append(MemberObservation(seat=seat, kind="no_shot"))
            reasons.append(f"seat {seat} did not shoot")
        elif len(mine) > 1:
            obs.append(MemberObservation(seat=seat, kind="multiple"))
            reasons.append(f"seat {seat} squeezed {len(mine)} times")
        elif mine[0].between is not None:
            a, b = mine[0].between
            obs.append(MemberObservation(seat=seat, kind="between", between=(a, b)))
            reasons.append(f"seat {seat} shot between {a} and {b}")
        else:
            obs.append(MemberObservation(seat=seat, kind="shot", number=mine[0].value))
    numbers = {o.number for o in obs if o.kind == "shot"}
    if not reasons and len(numbers) == 1:
        return HuntResult(group=group, members=members, observations=obs,  # type: ignore[arg-type]
                          verdict="hit", target=numbers.pop())
    if len(numbers) > 1:
        reasons.append("members shot different numbers: " + ", ".join(
            f"seat {o.seat} → {o.number}" for o in obs if o.kind == "shot"))
    return HuntResult(group=group, members=members, observations=obs,  # type: ignore[arg-type]
                      verdict="miss", reasons=reasons)
