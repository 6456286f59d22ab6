"""Find hands on a whole still photo with MediaPipe's HandLandmarker in IMAGE mode.

The palm detector sees the image shrunk to 192×192, so a small hand on a big photo, or any hand on
a tiny photo, is missed. :class:`PhotoHandDetector` therefore

* upscales small images (shorter side below ``min_side``) by an integer factor, and
* while fewer than ``max_hands`` hands are found, runs further passes: the image inside a
  replicated border (a hand that fills the photo is often missed), square windows sliding along
  a long image, and on large images overlapping half- and quarter-size tiles (small hands); a
  hand overlapping one already found is dropped.

Landmarks are returned normalised to the *original* image, bounding boxes in its pixels.

Test-time augmentation (:meth:`PhotoHandDetector.views`): MediaPipe's landmark failures (a
finger's chain laid on another, collapsed fingers) often differ between slightly different
inputs, so each found hand is also read on a few **views**: a square crop around it, turned,
mirrored or at another crop size (:class:`View`). Each view's landmarks stay in that view's own
frame (square pixels): the finger features do not change under a turn, a scaling or a mirror
(:mod:`mafiavision.vision.fingers`), so a view's finger probabilities are comparable with the
photo's. :func:`combine_views` lets the views vote on the finger states.

A second landmark network (session 5): when the main model's readings do not agree (the
winning pattern has fewer than :data:`WEAK_VOTE` of them), the *lite* network reads the hand on
every view of :data:`SECOND_VIEWS` and its readings join the vote (:func:`combine_models`).
Chosen on the fit part of the real photos (``scripts/compare_finger_features.py --second``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mafiavision.errors import InputError, MissingInputError
from mafiavision.vision.models import HandVariant, hand_landmarker_path


@dataclass(frozen=True)
class PhotoHand:
    """One hand found on a photo."""

    landmarks: np.ndarray  # (21, 3) x, y normalised to the original image, z relative depth
    world: np.ndarray  # (21, 3) metres, origin near the hand's centre
    score: float  # handedness score (MediaPipe's presence-like confidence)
    handedness: str  # "Left" / "Right" as MediaPipe reports it (often wrong: never rely on it)
    bbox: tuple[float, float, float, float]  # x0, y0, x1, y1 in pixels of the original image


@dataclass(frozen=True)
class View:
    """A square crop around a found hand: ``scale`` × the hand's longer side, turned ``turn``
    degrees (counter-clockwise in the photo), mirrored left–right when ``mirror``. (Crops of
    2 × the hand's side missed the hand on 6 of 25 EPSRC photos, the palm detector wanting more
    context; 3 × on 1, 4 × on 0.)"""

    mirror: bool
    turn: float
    scale: float


#: The views ``mafiavision gestures IMAGE`` reads besides the photo itself (chosen on the fit part
#: of the real photos: ``scripts/compare_finger_features.py --views``; docs/accuracy.md).
DEFAULT_VIEWS: tuple[View, ...] = (
    View(False, 0.0, 3.0),
    View(True, 0.0, 3.0),
    View(True, -20.0, 3.0),
    View(False, 0.0, 4.0),
)
#: Every view the landmark cache holds (``scripts/extract_handdata_landmarks.py``), from which the
#: default was chosen.
CANDIDATE_VIEWS: tuple[View, ...] = (
    View(False, 0.0, 3.0),
    View(True, 0.0, 3.0),
    View(False, 20.0, 3.0),
    View(False, -20.0, 3.0),
    View(True, 20.0, 3.0),
    View(True, -20.0, 3.0),
    View(False, 0.0, 2.5),
    View(False, 0.0, 4.0),
    View(True, 0.0, 4.0),
)
VIEW_SIDE = 256  # pixels of a view's square crop
#: The main model's vote is weak when fewer of its readings (photo + views) share the winning
#: pattern than this (a majority of the photo and its four default views).
WEAK_VOTE = 3
#: The second network and the views it reads a hand on when the main model's vote is weak.
SECOND_MODEL: HandVariant = "lite"
SECOND_VIEWS: tuple[View, ...] = CANDIDATE_VIEWS


def combine_views(probabilities: np.ndarray) -> np.ndarray:
    """p(extended) per finger of a hand read on several views: (..., views, 5) → (..., 5).

    The views that found the hand (rows of NaN: views that did not) vote on the finger states
    (the five-finger pattern); a tie goes to the pattern of the first row, the photo's own
    landmarks; the result is the mean of the winning views' probabilities (so its states are the
    winning pattern). (Averaging all views instead split a count when views put the raised finger
    on different fingers, e.g. index on two views, middle on two: "1" read as 0.)"""
    p = np.asarray(probabilities, dtype=np.float64)
    flat = p.reshape(-1, *p.shape[-2:])
    out = np.empty((len(flat), p.shape[-1]))
    for k, views in enumerate(flat):
        views = views[~np.isnan(views).any(axis=-1)]
        states = views > 0.5
        same = (states[:, None] == states[None]).all(axis=-1)  # (views, views)
        score = same.sum(axis=1) + 0.5 * same[0]
        out[k] = views[same[int(np.argmax(score))]].mean(axis=0)
    return out.reshape(p.shape[:-2] + p.shape[-1:])


def vote_support(probabilities: np.ndarray) -> np.ndarray:
    """How many readings share the pattern that :func:`combine_views` picks: (..., readings, 5)
    → (...) (0 where no reading found the hand)."""
    p = np.asarray(probabilities, dtype=np.float64)
    seen = ~np.isnan(p).any(axis=-1)
    states = p > 0.5
    same = (states[..., :, None, :] == states[..., None, :, :]).all(axis=-1)
    same &= seen[..., :, None] & seen[..., None, :]
    score = np.where(seen, same.sum(axis=-1) + 0.5 * same[..., 0], -1.0)
    winner = np.take_along_axis(same, np.argmax(score, axis=-1)[..., None, None], axis=-2)
    return winner[..., 0, :].sum(axis=-1)


def weak_vote(probabilities: np.ndarray) -> np.ndarray:
    """Whether the main model's readings (..., readings, 5) leave the vote weak (...)."""
    return vote_support(probabilities) < WEAK_VOTE


def combine_models(first: np.ndarray, second: np.ndarray | None) -> np.ndarray:
    """p(extended) per finger from the main model's readings ``first`` (..., readings, 5; the
    photo's own first) and the second model's ``second`` (..., views, 5; NaN rows: the view
    found no hand; None: not read): the main model's vote (:func:`combine_views`), or, where it
    is weak (:func:`weak_vote`), the vote of both models' readings (the photo's pattern still
    breaking ties)."""
    first = np.asarray(first, dtype=np.float64)
    out = combine_views(first)
    if second is None:
        return out
    both = np.concatenate([first, np.asarray(second, dtype=np.float64)], axis=-2)
    weak = weak_vote(first)
    return np.where(weak[..., None], combine_views(both), out)


def load_rgb(path: Path) -> np.ndarray:
    """Read an image file as RGB uint8, or raise a one-line user error."""
    import cv2

    if not path.exists():
        raise MissingInputError(f"{path}: image not found")
    bgr = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if bgr is None:
        raise InputError(f"{path}: not a readable image (expected JPEG, PNG, BMP, WebP…)")
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)


def landmark_bbox(
    landmarks: np.ndarray, width: int, height: int
) -> tuple[float, float, float, float]:
    """The box (x0, y0, x1, y1 in pixels) of landmarks normalised to a width × height image."""
    xs = np.clip(landmarks[:, 0], 0.0, 1.0) * width
    ys = np.clip(landmarks[:, 1], 0.0, 1.0) * height
    return float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max())


def _iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


class PhotoHandDetector:
    """MediaPipe HandLandmarker (IMAGE mode) over whole photos, with upscaling and tiling."""

    def __init__(
        self,
        variant: HandVariant = "full",
        *,
        max_hands: int = 2,
        min_side: int = 300,
        tile_above: int = 800,
        min_detection_confidence: float = 0.5,
        second: HandVariant | None = None,
    ) -> None:
        """``second``: the network that reads the views when the main model's vote is weak
        (:func:`combine_models`; None: the main model alone)."""
        self.max_hands = max_hands
        self.min_side = min_side
        self.tile_above = tile_above
        self.min_detection_confidence = min_detection_confidence
        self.second = second
        self._landmarker = self._create(variant)
        self._second: Any = None  # created at the first weak vote

    def _create(self, variant: HandVariant) -> Any:
        from mediapipe.tasks.python import BaseOptions, vision

        options = vision.HandLandmarkerOptions(
            base_options=BaseOptions(model_asset_path=str(hand_landmarker_path(variant))),
            running_mode=vision.RunningMode.IMAGE,
            num_hands=self.max_hands,
            min_hand_detection_confidence=self.min_detection_confidence,
        )
        return vision.HandLandmarker.create_from_options(options)

    def close(self) -> None:
        self._landmarker.close()
        if self._second is not None:
            self._second.close()

    def __enter__(self) -> PhotoHandDetector:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def read(
        self, rgb: np.ndarray, landmarker: Any = None
    ) -> list[tuple[np.ndarray, np.ndarray, float, str]]:
        """One HandLandmarker pass over ``rgb`` as it is (no upscaling, tiling or views): per
        hand its image and world landmarks, score and handedness."""
        import mediapipe as mp

        image = mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(rgb))
        result = (landmarker or self._landmarker).detect(image)
        out = []
        for lms, world, hand in zip(
            result.hand_landmarks, result.hand_world_landmarks, result.handedness, strict=True
        ):
            out.append(
                (
                    np.array([(p.x, p.y, p.z) for p in lms], dtype=np.float32),
                    np.array([(p.x, p.y, p.z) for p in world], dtype=np.float32),
                    float(hand[0].score),
                    str(hand[0].category_name),
                )
            )
        return out

    def _found(
        self,
        view: np.ndarray,
        offset: tuple[int, int],
        size: tuple[int, int],
        shape: tuple[int, int],
        found: list[PhotoHand],
    ) -> list[PhotoHand]:
        """Hands on ``view`` that do not overlap one in ``found``, mapped to the original image.

        The view shows the original image (``shape`` = width, height) with its top-left corner at
        ``offset`` and its extent ``size`` in view pixels."""
        vh, vw = view.shape[:2]
        (ox, oy), (sw, sh) = offset, size
        width, height = shape
        new: list[PhotoHand] = []
        for lm, w, s, h in self.read(view):
            full = lm.copy()
            full[:, 0] = (lm[:, 0] * vw - ox) / sw
            full[:, 1] = (lm[:, 1] * vh - oy) / sh
            box = landmark_bbox(full, width, height)
            if all(_iou(box, other.bbox) < 0.3 for other in found + new):
                new.append(PhotoHand(full, w, s, h, box))
        return new

    def _view(
        self,
        view: np.ndarray,
        offset: tuple[int, int],
        size: tuple[int, int],
        shape: tuple[int, int],
        found: list[PhotoHand],
    ) -> list[PhotoHand]:
        """New hands on ``view`` as it is, then (if still short) inside a replicated border of
        half its size on every side: a hand filling the view is often missed by the palm
        detector (on the sign-language photos this took detection from ~50 % to ~100 %)."""
        import cv2

        new = self._found(view, offset, size, shape, found)
        if len(found) + len(new) < self.max_hands:
            pad = max(view.shape[:2]) // 2
            padded = cv2.copyMakeBorder(view, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
            new += self._found(padded, (offset[0] + pad, offset[1] + pad), size, shape, found + new)
        return new

    def detect(self, rgb: np.ndarray) -> list[PhotoHand]:
        """Hands on an RGB uint8 image (H×W×3), best first, at most ``max_hands``.

        Passes, each only while fewer than ``max_hands`` hands are found (every pass also tries
        the view inside a padded border): the whole (upscaled) image; square windows of the
        short side sliding along a long image (two hands side by side); on a large image
        (long side ≥ ``tile_above``), half-size tiles on a 3×3 grid, and on a very large one
        (≥ 2 × ``tile_above``) quarter-size tiles on a 7×7 grid (small hands).
        """
        import cv2

        if rgb.ndim != 3 or rgb.shape[2] != 3:
            raise InputError(f"expected an RGB image H×W×3, got shape {rgb.shape}")
        height, width = rgb.shape[:2]
        shape = (width, height)
        factor = max(1, int(np.ceil(self.min_side / min(height, width))))
        work = (
            cv2.resize(rgb, (width * factor, height * factor), interpolation=cv2.INTER_CUBIC)
            if factor > 1
            else rgb
        )
        wh, ww = work.shape[:2]
        hands = self._view(work, (0, 0), (ww, wh), shape, [])
        windows: list[tuple[int, int, int, int]] = []
        side = min(wh, ww)
        if max(wh, ww) > 1.2 * side:
            steps = int(np.ceil(max(wh, ww) / (side / 2))) - 1
            for k in np.linspace(0, max(wh, ww) - side, steps + 1).astype(int):
                windows.append((k, 0, side, side) if ww > wh else (0, k, side, side))
        for level in (2, 4):  # tiles of 1/2, then 1/4 of each side, overlapping by half
            if max(wh, ww) < self.tile_above * level / 2:
                break
            th, tw = wh // level, ww // level
            starts_y = np.linspace(0, wh - th, 2 * level - 1).astype(int)
            starts_x = np.linspace(0, ww - tw, 2 * level - 1).astype(int)
            windows += [(int(x0), int(y0), tw, th) for y0 in starts_y for x0 in starts_x]
        for x0, y0, w, h in windows:
            if len(hands) >= self.max_hands:
                break
            tile = work[y0 : y0 + h, x0 : x0 + w]
            hands += self._view(tile, (-x0, -y0), (ww, wh), shape, hands)
        hands.sort(key=lambda hand: -hand.score)
        return hands[: self.max_hands]

    def views(
        self,
        rgb: np.ndarray,
        hand: PhotoHand,
        views: tuple[View, ...] = DEFAULT_VIEWS,
        *,
        second: bool = False,
    ) -> list[tuple[np.ndarray, np.ndarray] | None]:
        """The hand's (image landmarks, world landmarks) on each view, None where the view shows
        no hand on the found one (box overlap below 0.3 in the photo). Image landmarks are
        normalised to the view's square crop. ``second``: read by the second network."""
        import cv2

        landmarker = self._landmarker
        if second:
            if self.second is None:
                raise ValueError("this detector has no second model")
            if self._second is None:
                self._second = self._create(self.second)
            landmarker = self._second
        height, width = rgb.shape[:2]
        x0, y0, x1, y1 = hand.bbox
        centre = ((x0 + x1) / 2, (y0 + y1) / 2)
        longer = max(x1 - x0, y1 - y0, 8.0)
        out: list[tuple[np.ndarray, np.ndarray] | None] = []
        for view in views:
            zoom = VIEW_SIDE / (view.scale * longer)
            m = cv2.getRotationMatrix2D(centre, view.turn, zoom)  # photo → view, 2×3
            m[:, 2] += VIEW_SIDE / 2 - np.asarray(centre)
            if view.mirror:
                m[0] = -m[0]
                m[0, 2] += VIEW_SIDE
            crop = cv2.warpAffine(
                rgb,
                m,
                (VIEW_SIDE, VIEW_SIDE),
                flags=cv2.INTER_LINEAR,
                borderMode=cv2.BORDER_REPLICATE,
            )
            back = cv2.invertAffineTransform(m)
            best: tuple[float, tuple[np.ndarray, np.ndarray] | None] = (0.3, None)
            for lm, world, _, _ in self.read(crop, landmarker):
                pts = lm[:, :2] * VIEW_SIDE @ back[:, :2].T + back[:, 2]
                photo = np.column_stack([pts[:, 0] / width, pts[:, 1] / height, lm[:, 2]])
                overlap = _iou(landmark_bbox(photo, width, height), hand.bbox)
                if overlap >= best[0]:
                    best = (overlap, (lm, world))
            out.append(best[1])
        return out

    def finger_probabilities(
        self, rgb: np.ndarray, hand: PhotoHand, views: tuple[View, ...] = DEFAULT_VIEWS
    ) -> np.ndarray:
        """p(extended) per finger (order :data:`~mafiavision.vision.fingers.FINGERS`) of a hand
        found on ``rgb``: its own landmarks and each view's, combined by :func:`combine_views`;
        where that vote is weak and the detector has a second model, with the second model's
        readings on :data:`SECOND_VIEWS` (:func:`combine_models`)."""
        from mafiavision.vision.fingers import finger_probabilities

        def read(seen: list[tuple[np.ndarray, np.ndarray] | None]) -> np.ndarray:
            return np.array([finger_probabilities(w, lm) for lm, w in filter(None, seen)])

        first = read([(hand.landmarks, hand.world), *self.views(rgb, hand, views)])
        if self.second is None or not weak_vote(first):
            return combine_views(first)
        second = read(self.views(rgb, hand, SECOND_VIEWS, second=True)).reshape(-1, 5)
        return combine_models(first, second)
