"""An articulated 3-D hand as a signed distance field, ray-marched in numpy.

Hand-local frame (metres): ``x`` across the palm (thumb on ``+x``), ``y`` from the wrist toward the
fingertips, ``z`` out of the palm (the palm faces ``+z``). Every finger has three flexion angles
(MCP, PIP, DIP; the thumb: CMC fold, MCP, IP), so any pose of the night (finger gun at any depth of
a squeeze, counts 0..5, open palm) is a :class:`HandPose`. Rendering is slow (~1 s per sprite), so
:mod:`mafiavision.samples.sprites` renders a grid of poses and views once and the clips composite
those sprites.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

FINGERS = ("index", "middle", "ring", "pinky")
#: Flexion (degrees) of MCP, PIP, DIP of a long finger at bend 1.0 (a full curl).
FULL_CURL = (80.0, 100.0, 70.0)


@dataclass(frozen=True)
class HandShape:
    """Size parameters of one hand (metres)."""

    palm_width: float = 0.084
    palm_length: float = 0.090
    finger_scale: float = 1.0
    thumb_scale: float = 1.0


@dataclass(frozen=True)
class HandPose:
    """Per-finger bend in [0, 1] (0 = straight, 1 = fully curled) and thumb fold in [0, 1]."""

    index: float = 0.0
    middle: float = 0.0
    ring: float = 0.0
    pinky: float = 0.0
    thumb: float = 0.0
    spread: float = 0.5

    def bend(self, finger: str) -> float:
        return float(getattr(self, finger))


def gun(bend: float = 0.0) -> HandPose:
    """The finger gun: index and middle out (bent by ``bend`` during a squeeze), the rest curled."""
    return HandPose(index=bend, middle=bend, ring=1.0, pinky=1.0, thumb=0.85, spread=0.15)


def count(n: int) -> HandPose:
    """``n`` extended fingers (0 = fist): index, middle, ring, pinky, then the thumb."""
    if not 0 <= n <= 5:
        raise ValueError(f"a hand shows 0..5 fingers, not {n}")
    bends = [0.0 if i < n else 1.0 for i in range(4)]
    thumb = 0.0 if n == 5 else 0.9
    return HandPose(*bends, thumb=thumb, spread=0.6 if n >= 3 else 0.3)


def squeeze_degrees(bend: float) -> float:
    """Summed flexion (MCP+PIP+DIP of index and middle, degrees) at a gun bend of ``bend``."""
    return 2.0 * bend * sum(FULL_CURL)


@dataclass(frozen=True)
class View:
    """How the camera sees the hand: yaw about the hand's long axis (0 = palm to the camera,
    180 = back to the camera), pitch (camera above the hand looks down), roll in the image."""

    yaw: float = 0.0
    pitch: float = 15.0
    roll: float = 0.0


@dataclass
class Capsule:
    a: np.ndarray
    b: np.ndarray
    ra: float
    rb: float


@dataclass
class Skeleton:
    """The 21 MediaPipe-ordered keypoints and the capsules that give the hand its volume."""

    keypoints: np.ndarray  # (21, 3)
    fingers: list[Capsule] = field(default_factory=list)


_FINGER_BASE = {  # x, y (fraction of palm length), length scale, radius
    "index": (0.30, 0.97, 1.00, 0.0124),
    "middle": (0.095, 1.00, 1.10, 0.0127),
    "ring": (-0.105, 0.98, 1.03, 0.0120),
    "pinky": (-0.295, 0.90, 0.80, 0.0107),
}
_SEGMENTS = (0.043, 0.026, 0.021)
_SPLAY = {"index": 0.10, "middle": 0.02, "ring": -0.06, "pinky": -0.16}


def skeleton(pose: HandPose, shape: HandShape = HandShape()) -> Skeleton:
    """Joint positions of ``pose`` (MediaPipe order: wrist, thumb 1-4, index 5-8, ...)."""
    z = np.array([0.0, 0.0, 1.0])
    kps = np.zeros((21, 3))
    caps: list[Capsule] = []
    # thumb: CMC on the palm's side, fold sweeps it across the palm's front
    t = float(np.clip(pose.thumb, 0, 1))
    cmc = np.array([0.30 * shape.palm_width, 0.18 * shape.palm_length, 0.006])
    ext = np.array([0.72, 0.62, 0.22])
    # folded, the thumb lies across the front of the curled ring and little fingers
    folded = (np.array([0.25, 0.8, 0.55]), np.array([-0.7, 0.35, 0.45]),
              np.array([-0.95, -0.05, 0.3]))
    tl = np.array([0.040, 0.032, 0.026]) * shape.thumb_scale
    tr = (0.0135, 0.0118, 0.0104)
    p = cmc
    kps[1] = cmc
    for k in range(3):
        d = (1 - t) * ext / np.linalg.norm(ext) + t * folded[k] / np.linalg.norm(folded[k])
        d = d / np.linalg.norm(d)
        q = p + tl[k] * d
        caps.append(Capsule(p, q, tr[k], tr[min(k + 1, 2)] * (0.92 if k == 2 else 1.0)))
        kps[2 + k] = q
        p = q
    for i, name in enumerate(FINGERS):
        fx, fy, ls, r = _FINGER_BASE[name]
        b = float(np.clip(pose.bend(name), 0, 1))
        base = np.array([fx * shape.palm_width, fy * shape.palm_length, 0.0])
        splay = _SPLAY[name] * (0.4 + pose.spread)
        d0 = np.array([np.sin(splay), np.cos(splay), 0.0])
        p = base
        kps[5 + 4 * i] = base
        theta = 0.0
        lengths = np.array(_SEGMENTS) * ls * shape.finger_scale
        for k in range(3):
            theta += np.radians(FULL_CURL[k] * b)
            d = np.cos(theta) * d0 + np.sin(theta) * z
            q = p + lengths[k] * d
            caps.append(Capsule(p, q, r * (1 - 0.07 * k), r * (1 - 0.07 * (k + 1))))
            kps[6 + 4 * i + k] = q
            p = q
    return Skeleton(kps, caps)


def _capsule_sdf(p: np.ndarray, c: Capsule) -> np.ndarray:
    ba = c.b - c.a
    pa = p - c.a
    h = np.clip(pa @ ba / float(ba @ ba), 0.0, 1.0)
    return np.linalg.norm(pa - h[:, None] * ba, axis=1) - (c.ra + (c.rb - c.ra) * h)


def _smin(a: np.ndarray, b: np.ndarray, k: float) -> np.ndarray:
    h = np.clip(0.5 + 0.5 * (b - a) / k, 0.0, 1.0)
    return b + (a - b) * h - k * h * (1.0 - h)


def _round_box(p: np.ndarray, centre: np.ndarray, half: np.ndarray, r: float) -> np.ndarray:
    q = np.abs(p - centre) - half
    return np.linalg.norm(np.maximum(q, 0.0), axis=1) + np.minimum(q.max(axis=1), 0.0) - r


class HandSDF:
    """Distance to the hand surface, and which material (0 skin, 1 sleeve) is nearest."""

    def __init__(self, pose: HandPose, shape: HandShape = HandShape()) -> None:
        self.shape = shape
        self.skel = skeleton(pose, shape)
        w, h = shape.palm_width, shape.palm_length
        self._palm_c = np.array([0.0, 0.5 * h, 0.0])
        self._palm_h = np.array([0.5 * w - 0.009, 0.5 * h - 0.006, 0.005])
        self._wrist = Capsule(np.array([0.0, 0.02, -0.002]), np.array([0.0, -0.16, -0.006]),
                              0.027, 0.030)
        self._sleeve = Capsule(np.array([0.0, -0.065, -0.006]), np.array([0.0, -0.4, -0.01]),
                               0.038, 0.042)

    def __call__(self, p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        palm = _round_box(p, self._palm_c, self._palm_h, 0.009)
        # the wrist is flatter than it is wide: squash z before measuring
        q = p * np.array([1.0, 1.0, 1.45])
        wrist = _capsule_sdf(q, self._wrist) / 1.45
        fingers = np.min([_capsule_sdf(p, c) for c in self.skel.fingers[3:]], axis=0)
        thumb = np.min([_capsule_sdf(p, c) for c in self.skel.fingers[:3]], axis=0)
        skin = _smin(_smin(palm, wrist, 0.02), fingers, 0.008)
        skin = _smin(skin, thumb, 0.012)
        sleeve = _capsule_sdf(q, self._sleeve) / 1.45
        return np.minimum(skin, sleeve), (sleeve < skin).astype(np.uint8)


def rotation(view: View) -> np.ndarray:
    """Rotation taking hand-local coordinates to camera coordinates (camera looks along -z)."""
    y, p, r = np.radians([view.yaw, view.pitch, view.roll])
    ry = np.array([[np.cos(y), 0, np.sin(y)], [0, 1, 0], [-np.sin(y), 0, np.cos(y)]])
    rx = np.array([[1, 0, 0], [0, np.cos(p), -np.sin(p)], [0, np.sin(p), np.cos(p)]])
    rz = np.array([[np.cos(r), -np.sin(r), 0], [np.sin(r), np.cos(r), 0], [0, 0, 1]])
    return rz @ rx @ ry


@dataclass
class Render:
    """A rendered sprite: shading (float32, HxW, ~[0, 1.3]), alpha, material, 2-D keypoints."""

    shade: np.ndarray
    alpha: np.ndarray
    material: np.ndarray
    keypoints: np.ndarray  # (21, 2) pixel coordinates (x, y) in the sprite


#: Extent of the sprite in hand coordinates after rotation (metres): x half-width, y range.
EXTENT_X = 0.13
EXTENT_Y = (-0.12, 0.21)


def render(pose: HandPose, view: View, *, shape: HandShape = HandShape(),
           px_per_m: float = 800.0, max_steps: int = 72) -> Render:
    """Orthographic sphere-traced render of the hand (keypoint 0, the wrist, anchors it)."""
    sdf = HandSDF(pose, shape)
    rot = rotation(view)
    w = round(2 * EXTENT_X * px_per_m)
    h = round((EXTENT_Y[1] - EXTENT_Y[0]) * px_per_m)
    xs = (np.arange(w) + 0.5) / px_per_m - EXTENT_X
    ys = EXTENT_Y[1] - (np.arange(h) + 0.5) / px_per_m
    gx, gy = np.meshgrid(xs, ys)
    n = gx.size
    origin_cam = np.stack([gx.ravel(), gy.ravel(), np.full(n, 0.25)], axis=1)
    to_local = rot.T
    origin = origin_cam @ to_local.T
    direction = np.array([0.0, 0.0, -1.0]) @ to_local.T
    t = np.zeros(n)
    hit = np.zeros(n, dtype=bool)
    active = np.arange(n)
    for _ in range(max_steps):
        if active.size == 0:
            break
        pts = origin[active] + t[active, None] * direction
        d, _m = sdf(pts)
        t[active] += 0.9 * d
        done = d < 2e-4
        hit[active[done]] = True
        gone = t[active] > 0.5
        active = active[~done & ~gone]
    idx = np.flatnonzero(hit)
    pts = origin[idx] + t[idx, None] * direction
    e = 2.5e-4
    offs = np.array([[1, -1, -1], [-1, -1, 1], [-1, 1, -1], [1, 1, 1]], dtype=float)
    normal = np.zeros_like(pts)
    for o in offs:
        normal += o * sdf(pts + e * o)[0][:, None]
    normal /= np.linalg.norm(normal, axis=1, keepdims=True) + 1e-12
    _, material = sdf(pts)
    ncam = normal @ rot.T  # normals in camera coordinates
    light = np.array([-0.35, 0.55, 0.75])
    light /= np.linalg.norm(light)
    diffuse = np.clip(ncam @ light, 0.0, None)
    fill = np.clip(ncam @ np.array([0.6, -0.2, 0.77]), 0.0, None)
    occl = np.ones(len(idx))
    for k, step in enumerate((0.004, 0.009, 0.016)):
        dd, _ = sdf(pts + step * normal)
        occl -= (step - np.clip(dd, 0, None)) / step * (0.25 / (k + 1))
    occl = np.clip(occl, 0.25, 1.0)
    rim = (1.0 - np.clip(ncam[:, 2], 0, 1)) ** 3
    shade = (0.22 + 0.78 * diffuse + 0.25 * fill) * occl - 0.35 * rim
    out_shade = np.zeros(n, dtype=np.float32)
    out_shade[idx] = np.clip(shade, 0.05, 1.4)
    out_mat = np.zeros(n, dtype=np.uint8)
    out_mat[idx] = material
    kp_cam = sdf.skel.keypoints @ rot.T
    kp = np.stack([(kp_cam[:, 0] + EXTENT_X) * px_per_m,
                   (EXTENT_Y[1] - kp_cam[:, 1]) * px_per_m], axis=1)
    return Render(out_shade.reshape(h, w), hit.reshape(h, w).astype(np.float32),
                  out_mat.reshape(h, w), kp.astype(np.float32))
