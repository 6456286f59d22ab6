"""Per-finger features and extended/folded states from MediaPipe landmarks.

Two views of the hand feed each finger's model:

* the **world** landmarks (metres, hand-centred): 3-D joint angles and distance ratios, which do
  not change when the hand turns, shows its palm or its back, or moves;
* the **image plane** (the normalised image landmarks' x, y): MediaPipe's 2-D points are more
  faithful than its depth, which on side and back views often bends a finger that is straight
  in the photo. The features do not change with an in-plane turn, scaling or mirroring, and a
  straight finger projects to a straight line from any side. The frame's aspect ratio, which
  the normalised landmarks hide, is recovered per hand from the world landmarks
  (:func:`square_pixels`). Without image landmarks (the shot detector passes world landmarks
  only) the world landmarks' x, y stand in: MediaPipe's world axes follow the camera's (on the
  EPSRC photos the world x, y match the image points up to a median in-plane turn of 1.4° and
  a median residual of 12 % of the hand's size).

Landmark indices (MediaPipe): 0 wrist; thumb 1 CMC, 2 MCP, 3 IP, 4 tip; index 5–8, middle 9–12,
ring 13–16, pinky 17–20 (MCP, PIP, DIP, tip).

Features per finger (index…pinky):
* ``bend`` (degrees) at the MCP, PIP and DIP joints — the angle between consecutive bones (the
  MCP bend uses the wrist→MCP "metacarpal" as the previous bone); ``curl`` is their sum: ~0–30°
  for a straight finger, 200–260° in a fist;
* ``reach``: fingertip-to-wrist distance ÷ MCP-to-wrist distance (≈2 straight, ≈1 folded);
  ``tip_over_pip``: the same ÷ PIP-to-wrist (below 1: the tip is folded back past its PIP);
  ``tip_palm_centre``: tip to the centre of the palm (wrist and four MCPs) ÷ palm size;
* image plane: ``image_straightness`` (MCP-to-tip distance ÷ the length of the three bones: 1
  for a straight finger), the cosines of the PIP and DIP angles, the tip's coordinates in the
  palm's own affine frame (origin the wrist, axes to the index and pinky MCPs: ``a + b`` is
  ≈1 on the knuckle line, ≈2 for an extended finger; ``a − b``), and ``image_progress``: how
  far the tip lies along the finger's own wrist→MCP direction (÷ that length).

The thumb is where naive rules fail, so it gets its own features. Its joints and world
distances: the bends at its MCP and IP, its tip's distance from the index, pinky and middle MCPs
and from the palm centre (÷ palm size: wrist→middle-MCP), how far the tip stands out of the palm
plane, and the angle between the thumb (MCP→tip) and the index (MCP→tip). How free it stands:
its tip's distance from the nearest bone of index…pinky, in 3-D and in the image plane, and from
the palm centre in the image plane (÷ palm size in each). Two thumb models read them
(:class:`FingerModel`).

Each finger's state is a logistic model over its standardised features whose weights were fitted
on real photos (``scripts/fit_gesture_thresholds.py`` → ``thresholds.json``, with provenance).
All functions are vectorised over a leading batch axis: ``(..., 21, 3)``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

FINGERS: tuple[str, ...] = ("thumb", "index", "middle", "ring", "pinky")
THRESHOLDS_PATH = Path(__file__).with_name("thresholds.json")

_CHAINS = np.arange(1, 21).reshape(5, 4)  # per finger: base, 2nd, 3rd joint, tip
_PALM = np.array([0, 5, 9, 13, 17])  # the wrist and the four knuckles
_TIPS, _PIPS, _MCPS = _CHAINS[1:, 3], _CHAINS[1:, 1], _CHAINS[1:, 0]  # index…pinky
#: Per finger the wrist and its chain (one fancy index: the wrist is every finger's start).
_WRIST_CHAINS = np.concatenate([np.zeros((5, 1), dtype=_CHAINS.dtype), _CHAINS], axis=1)

_IMAGE_NAMES = (
    "image_straightness",
    "image_cos_pip",
    "image_cos_dip",
    "image_palm_a_plus_b",
    "image_palm_a_minus_b",
    "image_progress",
)
#: The second thumb model (:class:`FingerModel`): the thumb's joint and world-distance
#: features only, the first :data:`THUMB_JOINT_COLUMNS` columns of its features.
THUMB_JOINTS = "thumb_joints"
THUMB_JOINT_COLUMNS = 8
#: Names of the feature columns of :func:`finger_features`, per finger.
FEATURE_NAMES: dict[str, tuple[str, ...]] = {
    "thumb": (
        "bend_mcp",
        "bend_ip",
        "tip_index_mcp",
        "tip_pinky_mcp",
        "tip_out_of_palm",
        "tip_middle_mcp",
        "angle_to_index",
        "tip_palm_centre",
        "tip_nearest_finger",
        "image_tip_nearest_finger",
        "image_tip_palm_centre",
    ),
    **{
        name: (
            "bend_mcp",
            "bend_pip",
            "bend_dip",
            "reach",
            "tip_over_pip",
            "tip_palm_centre",
            *_IMAGE_NAMES,
        )
        for name in FINGERS[1:]
    },
}
FEATURE_NAMES[THUMB_JOINTS] = FEATURE_NAMES["thumb"][:THUMB_JOINT_COLUMNS]
#: The models of :class:`FingerModel`: one per finger, and the thumb's second.
MODEL_NAMES: tuple[str, ...] = (*FINGERS, THUMB_JOINTS)


def _cross_parts(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The x, y, z components of the cross product along the last axis."""
    ax, ay, az = a[..., 0], a[..., 1], a[..., 2]
    bx, by, bz = b[..., 0], b[..., 1], b[..., 2]
    return ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Cross product along the last axis (np.cross has a large per-call overhead)."""
    return np.stack(_cross_parts(a, b), axis=-1)


def _clip(a: np.ndarray, low: float, high: float) -> np.ndarray:
    """``np.clip(a, low, high)`` without its dispatch overhead (a few values per hand)."""
    return np.minimum(np.maximum(a, low), high)


def _norm(a: np.ndarray) -> np.ndarray:
    return np.sqrt(np.einsum("...i,...i->...", a, a))


def _angle(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Angle in degrees between vectors a and b along the last axis."""
    cx, cy, cz = _cross_parts(a, b)
    cross = np.sqrt((cx * cx + cz * cz) + cy * cy)  # the order np.einsum sums in (as _norm)
    dot = a[..., 0] * b[..., 0] + a[..., 1] * b[..., 1] + a[..., 2] * b[..., 2]
    return np.degrees(np.arctan2(cross, dot))  # stable near 0° and 180°


def joint_bends(world: np.ndarray) -> np.ndarray:
    """Bends in degrees, shape (..., 5, 3): per finger the first, middle and last joint.

    Thumb: CMC, MCP, IP (previous bone of the CMC: wrist→CMC). Other fingers: MCP, PIP, DIP.
    """
    world = np.asarray(world, dtype=np.float64)
    points = world[..., _WRIST_CHAINS, :]  # (..., 5, 5, 3)
    bones = points[..., 1:, :] - points[..., :-1, :]  # (..., 5, 4, 3): wrist→base, …, 3→tip
    return _angle(bones[..., :-1, :], bones[..., 1:, :])


def curl(world: np.ndarray) -> np.ndarray:
    """Summed bend (degrees) of each finger's three joints, shape (..., 5)."""
    return joint_bends(world).sum(axis=-1)


@dataclass(frozen=True)
class FingerFeatures:
    """Per-finger feature matrices for a batch of hands: ``by_finger[name]`` is (..., k)."""

    by_finger: dict[str, np.ndarray]


def _image_features(z: np.ndarray) -> np.ndarray:
    """Image-plane features of (..., 21) points given as complex numbers x + iy, (..., 4, 6) for
    index…pinky: conj(p)·q holds the dot (real) and cross (imaginary) products, a few array
    operations for a hand (this runs once per hand and frame)."""
    wrist = z[..., :1]
    u, v = z[..., 5:6] - wrist, z[..., 17:18] - wrist
    det = (u.conj() * v).imag
    floor = 0.05 * np.abs(u) * np.abs(v) + 1e-12  # the palm seen edge-on: keep the frame finite
    det = np.where(np.abs(det) < floor, np.where(det < 0, -floor, floor), det)
    chains = z[..., _CHAINS[1:]]  # (..., 4, 4): MCP, PIP, DIP, tip
    bones = chains[..., 1:] - chains[..., :-1]  # (..., 4, 3)
    lengths = np.abs(bones)
    rel = chains[..., 3] - wrist  # (..., 4)
    a = _clip((rel.conj() * v).imag / det, -4, 4)
    b = _clip((u.conj() * rel).imag / det, -4, 4)
    meta = chains[..., 0] - wrist
    turns = (bones[..., :-1].conj() * bones[..., 1:]).real / (
        lengths[..., :-1] * lengths[..., 1:] + 1e-12
    )
    return np.stack(
        [
            np.abs(chains[..., 3] - chains[..., 0]) / (lengths.sum(axis=-1) + 1e-12),
            turns[..., 0],
            turns[..., 1],
            a + b,
            a - b,
            _clip((meta.conj() * rel).real / (np.abs(meta) ** 2 + 1e-12), -3, 5),
        ],
        axis=-1,
    )


def square_pixels(image: np.ndarray, world: np.ndarray) -> np.ndarray:
    """Image points (..., 21, 2) with x rescaled so that both axes have the same unit.

    Normalised landmarks divide x by the frame's width and y by its height, so their shapes
    depend on the frame's aspect ratio, which is not passed along. The world x, y follow the
    camera's axes in metres: the least-squares scales of image x on world x and of image y on
    world y give the aspect per hand (on the EPSRC 4:3 photos median 1.29, 5–95 % 1.15–1.44;
    on the square sign-language photos 0.99, 0.86–1.07), and the features become exactly
    independent of it."""
    return np.stack([image[..., 0] * _aspect(image, world)[..., None], image[..., 1]], axis=-1)


def _aspect(image: np.ndarray, world: np.ndarray) -> np.ndarray:
    """The factor (...) that :func:`square_pixels` multiplies the image x by."""
    img = image - np.add.reduce(image, axis=-2, keepdims=True) / image.shape[-2]
    wxy = world[..., :2] - np.add.reduce(world[..., :2], axis=-2, keepdims=True) / world.shape[-2]
    scale = np.add.reduce(img * wxy, axis=-2) / (np.add.reduce(wxy * wxy, axis=-2) + 1e-18)
    return _clip(np.abs(scale[..., 1]) / (np.abs(scale[..., 0]) + 1e-18), 0.1, 10.0)


#: The bones (MCP→PIP, PIP→DIP, DIP→tip) of index…pinky, as (start, end) landmark indices.
_BONE_START = _CHAINS[1:, :3].ravel()
_BONE_END = _BONE_START + 1


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Dot product along the last axis: a reduction along each row's own contiguous values, so
    a hand's features are the same floats alone and in a batch."""
    return np.add.reduce(a * b, axis=-1)


def _tip_to_nearest_bone(points: np.ndarray) -> np.ndarray:
    """Distance (...) from the thumb's tip to the nearest bone of index…pinky, for points
    (..., 21, d): the segments' closest points, one gather for the hand's twelve bones."""
    starts = points[..., _BONE_START, :]
    bones = points[..., _BONE_END, :] - starts
    rel = points[..., 4:5, :] - starts
    t = _clip(_dot(rel, bones) / (_dot(bones, bones) + 1e-12), 0.0, 1.0)
    gap = rel - t[..., None] * bones
    return np.sqrt(np.min(_dot(gap, gap), axis=-1))


#: The distances the features read, as (from, to) point pairs; point 21 is the palm's centre.
#: Columns: the palm size (wrist→middle MCP); per finger index…pinky: tip→wrist, MCP→wrist,
#: PIP→wrist, tip→centre; the thumb's tip→index, pinky and middle MCP, tip→centre.
_CENTRE = 21
_DIST_FROM = np.array([9, *_TIPS, *_MCPS, *_PIPS, *_TIPS, 4, 4, 4, 4])
_DIST_TO = np.array([0] * 13 + [_CENTRE] * 4 + [5, 17, 9, _CENTRE])


def finger_features(
    world: np.ndarray, landmarks: np.ndarray | None = None, *, thumb: bool = True
) -> FingerFeatures:
    """The features of :data:`FEATURE_NAMES` for world landmarks of shape (..., 21, 3) and the
    normalised image landmarks (..., 21, 2 or 3) of the same hands (None: the world x, y);
    ``thumb=False``: index…pinky only (the shot detector reads no thumb; about half the cost).

    This runs once per hand and frame, so the distances are one gather and one norm."""
    world = np.asarray(world, dtype=np.float64)
    if landmarks is None:  # the world x, y, camera-aligned: see the module docstring
        image = world[..., 0] + 1j * world[..., 1]
    else:  # as square_pixels
        xy = np.asarray(landmarks, dtype=np.float64)[..., :2]
        image = xy[..., 0] * _aspect(xy, world)[..., None] + 1j * xy[..., 1]
    bends = joint_bends(world)
    centre = np.add.reduce(world[..., _PALM, :], axis=-2, keepdims=True) / len(_PALM)
    points = np.concatenate([world, centre], axis=-2)  # (..., 22, 3)
    dist = _norm(points[..., _DIST_FROM, :] - points[..., _DIST_TO, :])  # (..., 21)
    size = dist[..., :1] + 1e-9
    tip_wrist = dist[..., None, 1:5]
    reach = tip_wrist / (dist[..., 5:13].reshape(*dist.shape[:-1], 2, 4) + 1e-9)  # (..., 2, 4)
    by_size = dist[..., 13:] / size  # tip→centre per finger; the thumb's four distances
    per_finger = np.concatenate(  # (..., 4 fingers, 12 features)
        [
            bends[..., 1:, :],
            np.swapaxes(reach, -1, -2),
            by_size[..., :4, None],
            _image_features(image),
        ],
        axis=-1,
    )
    out: dict[str, np.ndarray] = {name: per_finger[..., f, :] for f, name in enumerate(FINGERS[1:])}
    if not thumb:
        return FingerFeatures(out)

    wrist = world[..., 0, :]
    tip = world[..., 4, :]
    normal = _cross(world[..., 5, :] - wrist, world[..., 17, :] - wrist)
    normal /= _norm(normal)[..., None] + 1e-9
    out_of_palm = np.abs(np.sum((tip - wrist) * normal, axis=-1, keepdims=True)) / size
    angle = _angle(tip - world[..., 2, :], world[..., 8, :] - world[..., 5, :])[..., None]
    # the tip's nearest other finger in 3-D and in the image plane (as 3-D points, z = 0): one
    # pass over both; ÷ the palm size in each
    flat = np.stack([image.real, image.imag, np.zeros(image.shape)], axis=-1)
    flat_size = np.abs(image[..., 9] - image[..., 0]) + 1e-9
    flat_centre = (
        image[..., 0] + image[..., 5] + image[..., 9] + image[..., 13] + image[..., 17]
    ) / len(_PALM)
    near = _tip_to_nearest_bone(np.stack([world, flat], axis=-3)) / np.stack(
        [size[..., 0], flat_size], axis=-1
    )
    free = np.concatenate(
        [near, (np.abs(image[..., 4] - flat_centre) / flat_size)[..., None]], axis=-1
    )
    out["thumb"] = np.concatenate(
        [bends[..., 0, 1:], by_size[..., 4:6], out_of_palm, by_size[..., 6:7], angle,
         by_size[..., 7:], free],
        axis=-1,
    )
    return FingerFeatures(out)


@dataclass(frozen=True)
class FingerModel:
    """Logistic models, one per finger over its own features: p(extended) = σ(w · (x − mean) / std
    + b). (Models reading the whole hand's features scored higher on the photos but read
    MediaPipe's real thumb_up hand as "ring extended": rejected.)

    The thumb has two models, and reads as extended only when both say so (p = the smaller):
    ``thumb`` over all its features, fitted with the other fingers, and ``thumb_joints`` over its
    joint and world-distance features alone (:data:`THUMB_JOINTS`). The first reads how free the
    thumb stands and is the better on real photos; the second keeps a thumb folded across the
    palm folded where MediaPipe places its tip away from the other fingers (session 30,
    docs/accuracy.md § Gestures). A model without ``thumb_joints`` reads the thumb by ``thumb``
    alone."""

    mean: dict[str, np.ndarray]
    std: dict[str, np.ndarray]
    weights: dict[str, np.ndarray]
    bias: dict[str, float]

    def _logit(self, name: str, x: np.ndarray) -> np.ndarray:
        z = (np.ascontiguousarray(x) - self.mean[name]) / self.std[name]
        return np.add.reduce(z * self.weights[name], axis=-1) + self.bias[name]

    def _thumb_logit(self, features: FingerFeatures, shape: tuple[int, ...]) -> np.ndarray:
        """The thumb's logit: the smaller of its two models' (the smaller probability); NaN
        when its features were not computed (``finger_features(thumb=False)``)."""
        if "thumb" not in features.by_finger:
            return np.full(shape, np.nan)
        thumb = features.by_finger["thumb"]
        logit = self._logit("thumb", thumb)
        if THUMB_JOINTS not in self.weights:
            return logit
        return np.minimum(logit, self._logit(THUMB_JOINTS, thumb[..., :THUMB_JOINT_COLUMNS]))

    def probabilities(self, features: FingerFeatures) -> np.ndarray:
        """p(extended), shape (..., 5) in the order of :data:`FINGERS`. A hand's probabilities
        are the same floats whether it is read alone or in a batch: the weighted sum is a
        reduction along each hand's own contiguous row of features (a matrix product's
        summation order, and a strided reduction's, follow the batch's shape), and the logistic
        runs on all fingers at once."""
        logits = [self._logit(name, features.by_finger[name]) for name in FINGERS[1:]]
        logits.insert(0, self._thumb_logit(features, np.shape(logits[0])))
        stacked = np.array(logits)  # (5, ...): one hand's five logits cost no stacking
        if stacked.ndim > 1:
            stacked = np.moveaxis(stacked, 0, -1)
        return 1.0 / (1.0 + np.exp(-_clip(stacked, -50, 50)))

    def to_json(self) -> dict[str, dict[str, object]]:
        return {
            name: {
                "features": list(FEATURE_NAMES[name]),
                "mean": self.mean[name].round(6).tolist(),
                "std": self.std[name].round(6).tolist(),
                "weights": self.weights[name].round(6).tolist(),
                "bias": round(float(self.bias[name]), 6),
            }
            for name in MODEL_NAMES
            if name in self.weights
        }

    @classmethod
    def from_json(cls, data: dict[str, dict[str, object]]) -> FingerModel:
        def arr(name: str, key: str) -> np.ndarray:
            return np.asarray(data[name][key], dtype=np.float64)

        names = [n for n in MODEL_NAMES if n in data]
        for name in names:
            if list(data[name]["features"]) != list(FEATURE_NAMES[name]):  # type: ignore[call-overload]
                raise ValueError(f"thresholds.json: {name} features differ from the code's")
        return cls(
            mean={n: arr(n, "mean") for n in names},
            std={n: arr(n, "std") for n in names},
            weights={n: arr(n, "weights") for n in names},
            bias={n: float(data[n]["bias"]) for n in names},  # type: ignore[arg-type]
        )


@cache
def fitted_thresholds(path: Path = THRESHOLDS_PATH) -> dict[str, object]:
    """The fitted parameters (finger models, pose thresholds, provenance) from thresholds.json."""
    return json.loads(path.read_text())


@cache
def default_model() -> FingerModel:
    return FingerModel.from_json(fitted_thresholds()["fingers"])  # type: ignore[arg-type]


def finger_probabilities(
    world: np.ndarray,
    landmarks: np.ndarray | None = None,
    model: FingerModel | None = None,
    *,
    thumb: bool = True,
) -> np.ndarray:
    """p(extended) per finger, shape (..., 5), order :data:`FINGERS`; ``landmarks``: the
    normalised image landmarks of the same hands (None: the world x, y stand in);
    ``thumb=False``: the thumb is not read (its p is NaN)."""
    return (model or default_model()).probabilities(
        finger_features(world, landmarks, thumb=thumb)
    )
