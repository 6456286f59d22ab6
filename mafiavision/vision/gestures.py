"""Static hand poses (finger gun, counts 0–5, open, fist, other) and values of one or two hands.

* **gun**: index and middle extended, ring and pinky folded, the thumb free (folded as in a "V",
  or up like a pistol's hammer), with those four fingers read surely (the fitted
  ``gun_min_confidence``; a less sure gun shape reads as its count). Two-finger shapes that are
  not the gun — index+pinky, thumb+pinky, thumb+index — are not guns.
* **fist**: nothing extended (count 0); **open**: all five (count 5).
* **count**: a shape the club convention accepts as a number (by default 1 = index or thumb,
  2 = index+middle or thumb+index, 3 = index+middle+ring or thumb+index+middle, 4 = four fingers).
* **other**: any other shape (index+pinky, thumb+pinky, middle alone…): it has no value.

``count`` is always the number of extended fingers (the CLI reports it for every pose); the
*value* of a hand is what the convention says (``None`` for "other"). Two hands show the sum
(6–10 by default). Numbers above 10 and clubs that sign differently are configured by
:class:`ClubConvention` (pydantic; loadable from JSON/YAML).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Literal, Protocol, TypeVar

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from mafiavision.errors import InputError, MissingInputError
from mafiavision.vision.fingers import (
    FINGERS,
    FingerModel,
    finger_probabilities,
    fitted_thresholds,
)

Pose = Literal["gun", "open", "fist", "count", "other"]
K = TypeVar("K")
FingerName = Literal["thumb", "index", "middle", "ring", "pinky"]


@dataclass(frozen=True)
class PoseResult:
    """The pose of one hand in one frame."""

    pose: Pose
    count: int  # number of extended fingers
    fingers: dict[str, bool]  # finger name → extended
    confidence: float  # 0..1: how far the deciding fingers are from their decision boundary
    probabilities: tuple[float, ...] = ()  # p(extended) per finger, order FINGERS


def _shape(names: list[str]) -> frozenset[str]:
    return frozenset(names)


class ClubConvention(BaseModel):
    """How a club shows numbers with the hands.

    ``gun_thumb`` "free" accepts the gun with the thumb folded (a "V") or up (a pistol's hammer:
    the same shape as thumb+index+middle = 3); "folded" accepts only the V. ``shapes`` maps a
    value to the finger sets that show it on one hand; the empty set is the fist (0) and is a value
    only if listed. Two hands show the sum of their values when ``two_hands`` is "sum". Numbers
    above ``max_one_show`` are shown as two numbers one after the other: ``above_ten`` "digits"
    reads "1 then 2" as 12, "add" reads "10 then 2" as 12, "none" never
    combines. Load a club's own table with :meth:`load`.
    """

    model_config = ConfigDict(extra="forbid")

    name: str = "standard"
    shapes: dict[int, list[list[FingerName]]] = Field(
        default_factory=lambda: {
            1: [["index"], ["thumb"]],
            2: [["index", "middle"], ["thumb", "index"]],
            3: [["index", "middle", "ring"], ["thumb", "index", "middle"]],
            4: [["index", "middle", "ring", "pinky"]],
            5: [["thumb", "index", "middle", "ring", "pinky"]],
        }
    )
    gun_thumb: Literal["free", "folded"] = "free"
    two_hands: Literal["sum", "none"] = "sum"
    above_ten: Literal["digits", "add", "none"] = "digits"
    max_one_show: int = Field(10, ge=1)
    max_number: int = Field(12, ge=1)

    @field_validator("shapes")
    @classmethod
    def _distinct(cls, shapes: dict[int, list[list[str]]]) -> dict[int, list[list[str]]]:
        seen: dict[frozenset[str], int] = {}
        for value, sets in shapes.items():
            for fingers in sets:
                key = _shape(fingers)
                if key in seen and seen[key] != value:
                    raise ValueError(f"finger set {sorted(key)} shows both {seen[key]} and {value}")
                seen[key] = value
        return shapes

    @classmethod
    def load(cls, path: Path) -> ClubConvention:
        import yaml

        if not path.exists():
            raise MissingInputError(f"{path}: club convention file not found")
        try:
            return cls.model_validate(yaml.safe_load(path.read_text()))
        except (ValidationError, yaml.YAMLError) as exc:
            first = str(exc).splitlines()[:3]
            raise InputError(f"{path}: not a valid club convention: {' '.join(first)}") from None

    @cached_property
    def _values(self) -> dict[frozenset[str], int]:
        """Each finger set's value (read per hand and frame: one lookup)."""
        return {_shape(s): value for value, sets in self.shapes.items() for s in sets}

    def hand_value(self, fingers: dict[str, bool]) -> int | None:
        """Value one hand shows (None: not a number in this convention)."""
        return self._values.get(frozenset(name for name, up in fingers.items() if up))

    def hands_value(self, hands: list[PoseResult]) -> int | None:
        """Value shown by one or two hands at once (None if a hand shows no number)."""
        if not hands or len(hands) > 2 or (len(hands) == 2 and self.two_hands == "none"):
            return None
        values = [self.hand_value(hand.fingers) for hand in hands]
        if any(v is None for v in values):
            return None
        total = sum(v for v in values if v is not None)
        return total if total <= self.max_one_show else None

    def combine(self, first: int, second: int) -> int | None:
        """The number shown as ``first`` then ``second`` (None if they do not combine)."""
        if self.above_ten == "digits" and 1 <= first <= 9 and 0 <= second <= 9:
            number = 10 * first + second
        elif self.above_ten == "add" and first == self.max_one_show:
            number = first + second
        else:
            return None
        return number if self.max_one_show < number <= self.max_number else None


DEFAULT_CONVENTION = ClubConvention()


def pose_from_fingers(
    fingers: dict[str, bool], convention: ClubConvention = DEFAULT_CONVENTION
) -> Pose:
    """The pose a set of finger states shows."""
    up = frozenset(name for name, extended in fingers.items() if extended)
    if (
        fingers["index"]
        and fingers["middle"]
        and not fingers["ring"]
        and not fingers["pinky"]
        and (convention.gun_thumb == "free" or not fingers["thumb"])
    ):
        return "gun"
    if not up:
        return "fist"
    if len(up) == 5:
        return "open"
    return "count" if convention.hand_value(fingers) is not None else "other"


def gun_min_confidence() -> float:
    """The confidence a gun shape needs to read as the gun (fitted: thresholds.json)."""
    return float(fitted_thresholds()["poses"]["gun_min_confidence"])  # type: ignore[index]


def classify_probabilities(
    probabilities: np.ndarray,
    convention: ClubConvention = DEFAULT_CONVENTION,
    gun_min: float | None = None,
) -> PoseResult:
    """PoseResult from p(extended) per finger (order :data:`FINGERS`).

    The gun is the pose a wrong reading costs most (a shot needs it), so the gun shape reads as
    the gun only when the four fingers that make it are sure: the smallest |2p − 1| of index…
    pinky ≥ ``gun_min`` (default :func:`gun_min_confidence`); a less sure gun shape reads as the
    count it shows. (With ``gun_thumb="folded"`` the thumb only has to be folded.)
    """
    p = np.asarray(probabilities, dtype=np.float64).tolist()  # the same floats, less overhead
    fingers = {name: v > 0.5 for name, v in zip(FINGERS, p, strict=True)}
    pose = pose_from_fingers(fingers, convention)
    margin = [abs(2.0 * v - 1.0) for v in p]
    sure = min(margin[1:])
    if pose == "gun" and sure < (gun_min_confidence() if gun_min is None else gun_min):
        pose = "count" if convention.hand_value(fingers) is not None else "other"
    free_thumb = pose == "gun" and convention.gun_thumb == "free"
    confidence = sure if free_thumb else min(margin)
    return PoseResult(
        pose=pose,
        count=sum(fingers.values()),
        fingers=fingers,
        confidence=confidence,
        probabilities=tuple(p),
    )


class HasLandmarks(Protocol):
    """What :func:`hand_probabilities` reads of a hand (``HandObservation`` has these)."""

    @property
    def world(self) -> np.ndarray: ...
    @property
    def landmarks(self) -> np.ndarray | None: ...


class PairedHand(HasLandmarks, Protocol):
    """What :func:`classify_hands` reads of a hand: its landmarks and a second network's fresh
    reading of it, if any (``HandObservation`` has these)."""

    @property
    def second(self) -> HasLandmarks | None: ...


@dataclass(frozen=True)
class _Hand:
    world: np.ndarray
    landmarks: np.ndarray | None
    second: None = None


def classify_hands(
    hands: Sequence[PairedHand],
    *,
    model: FingerModel | None = None,
    convention: ClubConvention = DEFAULT_CONVENTION,
) -> list[PoseResult]:
    """The pose of each hand (its world and normalised image landmarks, both (21, 3); image
    landmarks None: the world x, y stand in, :mod:`mafiavision.vision.fingers`).

    A hand that a second network read fresh as well (``second``: the paired tracker,
    :mod:`mafiavision.vision.pairing`) counts a finger extended only if both networks read it
    so (p = the smaller of their two): a network misreads a folded finger of a hand seen from
    the back as extended, and a count shown by its folded fingers reads one too many (session
    37: on the seen validation sets 38–40, 83 of 117 numbers read by the tracking network alone,
    93 with both).

    The finger models read all hands of a frame in one batch: with twelve hands up a hand costs
    about a sixth of what it costs alone (``scripts/bench_look.py``), and reads the same floats
    either way."""
    if not hands:
        return []
    seconds = {k: h.second for k, h in enumerate(hands) if h.second is not None}
    paired = list(seconds)
    p = hand_probabilities([*hands, *seconds.values()], model)  # one batch
    p, second = p[: len(hands)], p[len(hands):]
    p[paired] = np.minimum(p[paired], second)
    return [classify_probabilities(row, convention) for row in p]


def hand_probabilities(
    hands: Sequence[HasLandmarks], model: FingerModel | None = None, *, thumb: bool = True
) -> np.ndarray:
    """p(extended) per finger of each hand's own landmarks, shape (hands, 5), each hand read
    with its image landmarks or, lacking them, its world landmarks alone — whatever the others
    have; ``thumb=False``: the thumb is not read (its p is NaN)."""
    with_image = [k for k, h in enumerate(hands) if h.landmarks is not None]
    if with_image and len(with_image) < len(hands):  # both kinds: each kind its own batch
        p = np.empty((len(hands), len(FINGERS)))
        world_only = [k for k, h in enumerate(hands) if h.landmarks is None]
        p[with_image] = hand_probabilities([hands[k] for k in with_image], model, thumb=thumb)
        p[world_only] = hand_probabilities([hands[k] for k in world_only], model, thumb=thumb)
        return p
    # one hand is read without a batch axis, which costs more than it saves there
    def stacked(arrays: list[np.ndarray]) -> np.ndarray:
        return np.asarray(arrays[0], np.float64) if len(arrays) == 1 else np.stack(arrays)

    world = stacked([h.world for h in hands])
    batch = () if len(hands) == 1 else (len(hands),)
    if world.shape != (*batch, 21, 3):
        raise ValueError(f"world landmarks must have shape (21, 3), got {world.shape[-2:]}")
    landmarks = None
    if with_image:
        landmarks = stacked([h.landmarks for h in hands])  # type: ignore[misc]
        if landmarks.shape[:-1] != (*batch, 21):
            raise ValueError(f"image landmarks must have 21 points, got {landmarks.shape[-2:]}")
    return finger_probabilities(world, landmarks, model, thumb=thumb).reshape(len(hands), -1)


def classify_seats(
    hands: Mapping[K, Sequence[PairedHand]],
    *,
    convention: ClubConvention = DEFAULT_CONVENTION,
) -> dict[K, list[PoseResult]]:
    """:func:`classify_hands` of every seat's hands (a frame's), in one batch."""
    poses = iter(classify_hands([h for seen in hands.values() for h in seen],
                                convention=convention))
    return {seat: [next(poses) for _ in seen] for seat, seen in hands.items()}


def classify_hand(
    world: np.ndarray,
    landmarks: np.ndarray | None = None,
    *,
    model: FingerModel | None = None,
    convention: ClubConvention = DEFAULT_CONVENTION,
) -> PoseResult:
    """Pose of one hand from its (21, 3) world landmarks (metres) and its (21, 3) normalised image
    landmarks (None: the world x, y stand in for the image plane; see
    :mod:`mafiavision.vision.fingers`): :func:`classify_hands` of that one hand."""
    return classify_hands([_Hand(world, landmarks)], model=model, convention=convention)[0]
