"""Pre-rendered hand sprites: a grid of poses × views, rendered once and cached on disk.

A sprite is the hand's shading (grey, lit), coverage and material (skin / sleeve), so one sprite
serves every skin tone and sleeve colour; the compositor colours it. The cache lives outside git
(``cache/sprites`` under the repository by default) and is keyed on every render parameter, so a
stale entry can never be used for a different pose.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from mafiavision.samples.hand import HandPose, HandShape, Render, View, count, gun, render

#: Gun bends the squeeze can take (nearest level is used per frame).
GUN_LEVELS = tuple(round(0.1 * i, 1) for i in range(9))
PX_PER_M = 700.0
RENDER_VERSION = 5  # bump when hand.py changes what a render looks like
DEFAULT_CACHE = Path(__file__).resolve().parents[2] / "cache" / "sprites"


@dataclass(frozen=True)
class SpriteKey:
    """What a sprite shows: ``pose`` is ``"gun"`` (with ``level``) or ``"count"`` (``level`` =
    fingers 0..5); ``yaw``/``pitch`` the view; ``shape`` an index into :data:`SHAPES`."""

    pose: str
    level: float
    yaw: float
    pitch: float
    shape: int = 0

    def hand_pose(self) -> HandPose:
        if self.pose == "gun":
            return gun(self.level)
        if self.pose == "count":
            return count(int(self.level))
        raise ValueError(f"unknown sprite pose {self.pose!r}")

    def digest(self) -> str:
        text = repr((RENDER_VERSION, PX_PER_M, sorted(asdict(self).items()),
                     asdict(SHAPES[self.shape])))
        return hashlib.sha1(text.encode()).hexdigest()[:16]


#: Hand shapes: an average hand, a broad short-fingered one, a slender long-fingered one.
SHAPES: tuple[HandShape, ...] = (
    HandShape(),
    HandShape(palm_width=0.092, palm_length=0.088, finger_scale=0.92, thumb_scale=0.95),
    HandShape(palm_width=0.078, palm_length=0.094, finger_scale=1.08, thumb_scale=1.05),
)


def nearest_gun_level(bend: float) -> float:
    return min(GUN_LEVELS, key=lambda v: abs(v - bend))


class SpriteBank:
    """Loads sprites from the disk cache, rendering (and saving) the ones missing."""

    def __init__(self, cache_dir: Path | None = DEFAULT_CACHE) -> None:
        self.cache_dir = cache_dir
        self._mem: dict[SpriteKey, Render] = {}

    def get(self, key: SpriteKey) -> Render:
        if key in self._mem:
            return self._mem[key]
        path = self.cache_dir / f"{key.digest()}.npz" if self.cache_dir else None
        if path is not None and path.exists():
            with np.load(path) as z:
                sprite = Render(z["shade"], z["alpha"], z["material"], z["keypoints"])
        else:
            sprite = render(key.hand_pose(), View(key.yaw, key.pitch),
                            shape=SHAPES[key.shape], px_per_m=PX_PER_M)
            if path is not None:
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(".tmp.npz")
                np.savez_compressed(tmp, shade=sprite.shade, alpha=sprite.alpha,
                                    material=sprite.material, keypoints=sprite.keypoints)
                tmp.replace(path)
        self._mem[key] = sprite
        return sprite
