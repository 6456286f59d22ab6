"""The table scene: a pinhole camera above one end of the table, seats, players, seat numbers,
raised hands composited from sprites, and the distractors (head lift, light change, noise)."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from mafiavision.samples.hand import Render
from mafiavision.samples.script import NightScript
from mafiavision.samples.sprites import PX_PER_M, SpriteBank, SpriteKey
from mafiavision.samples.timeline import Appearance, HandPlan
from mafiavision.vision.table import SeatRegion, Table

HAND_HEIGHT = 0.45  # wrist height above the table when the hand is raised (m)
REGION_FRACTION = 0.38  # the open hand's width ÷ its seat region's width
#: Table tops with contrast against skin: green felt, blue cloth, dark walnut.
TABLE_COLOURS = ((38, 88, 56), (40, 52, 88), (58, 40, 28))


@dataclass
class Camera:
    position: np.ndarray
    right: np.ndarray
    up: np.ndarray
    forward: np.ndarray
    f: float = 1.0
    cx: float = 0.0
    cy: float = 0.0

    @classmethod
    def looking_at(cls, elevation: float, distance: float, target: np.ndarray) -> Camera:
        e = np.radians(elevation)
        pos = target + distance * np.array([0.0, np.sin(e), -np.cos(e)])
        fwd = (target - pos) / np.linalg.norm(target - pos)
        right = np.cross([0.0, 1.0, 0.0], fwd)
        right /= np.linalg.norm(right)
        return cls(pos, right, np.cross(fwd, right), fwd)

    def depth(self, p: np.ndarray) -> np.ndarray:
        return (np.asarray(p) - self.position) @ self.forward

    def project(self, p: np.ndarray) -> np.ndarray:
        v = np.atleast_2d(p) - self.position
        z = v @ self.forward
        return np.stack([self.cx + self.f * (v @ self.right) / z,
                         self.cy - self.f * (v @ self.up) / z], axis=1)

    def px_per_m(self, p: np.ndarray) -> float:
        return float(self.f / self.depth(p))


@dataclass
class Seat:
    number: int
    angle: float  # radians around the table
    base: np.ndarray  # the player's chair point on the floor plane (table height = 0)
    wrist: np.ndarray  # where the raised hand's wrist is (3-D)
    card: np.ndarray  # the seat-number card on the table


class Layout:
    """Seats around an oval table seen by :class:`Camera`, fitted to the image."""

    def __init__(self, script: NightScript) -> None:
        v = script.video
        n = script.seats
        self.size = (v.width, v.height)
        rx, rz = (1.25, 0.8) if n == 10 else (1.45, 0.9)
        self.table_axes = (rx, rz)
        angles = np.radians(np.linspace(245.0, -65.0, n))
        self.seats: list[Seat] = []
        for k, a in enumerate(angles, start=1):
            d = np.array([np.cos(a), 0.0, np.sin(a)])
            edge = np.array([rx * d[0], 0.0, rz * d[2]])
            out = edge / np.linalg.norm(edge)
            base = edge + 0.32 * out
            self.seats.append(Seat(k, float(a), base,
                                   base - 0.12 * out + np.array([0.0, HAND_HEIGHT, 0.0]),
                                   edge - 0.16 * out))
        self.camera = Camera.looking_at(v.elevation, v.distance, np.array([0.0, 0.1, 0.1]))
        self.hand_scale = v.hand_scale
        self._fit()

    def _fit(self) -> None:
        pts = [s.base + np.array([0, 0.2, 0]) for s in self.seats]
        pts += [s.wrist + np.array([0, 0.22, 0]) for s in self.seats]
        pts += [s.base - 0.25 * s.base / np.linalg.norm(s.base) for s in self.seats]
        xy = self.camera.project(np.array(pts))
        w, h = self.size
        lo, hi = xy.min(axis=0), xy.max(axis=0)
        f = min(0.9 * w / (hi[0] - lo[0]), 0.88 * h / (hi[1] - lo[1]))
        self.camera.f = f
        self.camera.cx = w / 2 - f * (lo[0] + hi[0]) / 2
        self.camera.cy = h / 2 - f * (lo[1] + hi[1]) / 2 + 0.01 * h

    def sprite_scale(self, seat: Seat) -> float:
        return self.camera.px_per_m(seat.wrist) * self.hand_scale / PX_PER_M

    def region(self, seat: Seat, open_hand: Render) -> SeatRegion:
        """The seat's square region, centred on the raised open hand, sized so the hand is
        :data:`REGION_FRACTION` of its width; ``hand_width`` is that hand's longer side."""
        scale = self.sprite_scale(seat)
        ys, xs = np.nonzero(open_hand.alpha > 0.5)
        wrist = open_hand.keypoints[0]
        above = ys < wrist[1]
        x0, x1 = xs[above].min(), xs[above].max()
        y0 = ys[above].min()
        anchor = self.camera.project(seat.wrist)[0]
        cx = anchor[0] + ((x0 + x1) / 2 - wrist[0]) * scale
        cy = anchor[1] + ((y0 + wrist[1]) / 2 - wrist[1]) * scale
        side = (x1 - x0) * scale / REGION_FRACTION
        side = max(side, (wrist[1] - y0) * scale * 1.3)
        w, h = self.size
        corners = [(cx - side / 2, cy - side / 2), (cx + side / 2, cy - side / 2),
                   (cx + side / 2, cy + side / 2), (cx - side / 2, cy + side / 2)]
        poly = [(round(min(max(x / w, 0.0), 1.0), 5), round(min(max(y / h, 0.0), 1.0), 5))
                for x, y in corners]
        head = self.camera.project(seat.base + np.array([0.0, 0.25, 0.0]))[0]
        toward = np.array([head[0] - cx, head[1] - cy])
        toward /= np.linalg.norm(toward)
        hand = max(x1 - x0, wrist[1] - y0) * scale / w  # the open hand's longer side
        return SeatRegion(seat=seat.number, polygon=poly,
                          toward=(round(float(toward[0]), 5), round(float(toward[1]), 5)),
                          hand_width=round(float(hand), 5))


def pitch_for(elevation: float) -> float:
    """The hand's pitch in the sprite grid that matches the camera's elevation."""
    return float(min((15.0, 30.0, 45.0), key=lambda p: abs(p - (elevation - 10.0))))


class Compositor:
    """Draws frames: a static room and table, then per frame the players, hands and effects."""

    def __init__(self, script: NightScript, layout: Layout, look: Appearance, bank: SpriteBank,
                 rng: np.random.Generator) -> None:
        self.script = script
        self.layout = layout
        self.look = look
        self.bank = bank
        self.rng = rng
        self.pitch = pitch_for(script.video.elevation)
        self.background = self._background()
        self._coloured: dict[tuple[SpriteKey, tuple[int, int, int], tuple[int, int, int], float],
                             tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        cam = layout.camera
        self.order = sorted(layout.seats, key=lambda s: -float(cam.depth(s.base)))

    def table(self) -> Table:
        regions = []
        for seat in self.layout.seats:
            key = SpriteKey("count", 5, self.look.yaw[seat.number], self.pitch,
                            self.look.shape[seat.number])
            regions.append(self.layout.region(seat, self.bank.get(key)))
        w, h = self.layout.size
        return Table(seats=self.script.seats, image_size=(w, h), regions=regions)

    # --- static part -----------------------------------------------------------------------
    def _background(self) -> np.ndarray:
        w, h = self.layout.size
        cam = self.layout.camera
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        room = 38 + 22 * (yy / h)
        lamp = np.exp(-(((xx - w / 2) / (0.6 * w)) ** 2 + ((yy - h / 2) / (0.7 * h)) ** 2))
        img = np.stack([room * 1.05, room * 0.95, room * 0.9], axis=2) * (0.7 + 0.5 * lamp[...,
                                                                                            None])
        rx, rz = self.layout.table_axes
        a = np.linspace(0, 2 * np.pi, 96, endpoint=False)
        rim = np.stack([rx * np.cos(a), np.zeros_like(a), rz * np.sin(a)], axis=1)
        poly = cam.project(rim).astype(np.int32)
        mask = np.zeros((h, w), np.uint8)
        cv2.fillPoly(mask, [poly], 255, lineType=cv2.LINE_AA)
        grain = cv2.GaussianBlur(self.rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0),
                                 sigmaX=9, sigmaY=1.5)
        cloth = np.array(TABLE_COLOURS[int(self.rng.integers(len(TABLE_COLOURS)))], np.float32)
        wood = cloth * (1 + 0.6 * grain[..., None]) * (
            0.75 + 0.45 * lamp[..., None])
        m = mask[..., None] / 255.0
        img = img * (1 - m) + wood * m
        cv2.polylines(img, [poly], True, (60, 38, 22), max(2, w // 400), cv2.LINE_AA)
        img = np.clip(img * self.script.video.brightness, 0, 255).astype(np.uint8)
        for seat in self.layout.seats:
            self._card(img, seat)
        return img

    def _card(self, img: np.ndarray, seat: Seat) -> None:
        cam = self.layout.camera
        d = seat.card / np.linalg.norm(seat.card)
        t = np.array([-d[2], 0.0, d[0]])
        corners = [seat.card + 0.07 * t + 0.05 * d, seat.card - 0.07 * t + 0.05 * d,
                   seat.card - 0.07 * t - 0.05 * d, seat.card + 0.07 * t - 0.05 * d]
        poly = cam.project(np.array(corners)).astype(np.int32)
        cv2.fillPoly(img, [poly], (225, 222, 210), lineType=cv2.LINE_AA)
        centre = cam.project(seat.card)[0]
        height = cam.px_per_m(seat.card) * 0.07
        text = str(seat.number)
        scale = max(height / 24.0, 0.3)
        thick = max(1, round(scale * 2))
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        org = (int(centre[0] - tw / 2), int(centre[1] + th / 2))
        cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (20, 20, 20), thick,
                    cv2.LINE_AA)

    # --- per frame --------------------------------------------------------------------------
    def frame(self, t: float, hands: list[HandPlan], head_lift: dict[int, float],
              gain: float) -> np.ndarray:
        img = self.background.copy()
        by_seat: dict[int, list[HandPlan]] = {}
        for h in hands:
            if h.lift(t) > 0:
                by_seat.setdefault(h.seat, []).append(h)
        for seat in self.order:
            self._player(img, seat, head_lift.get(seat.number, 0.0))
            for h in by_seat.get(seat.number, []):
                self._hand(img, seat, h, t)
        out = img.astype(np.float32)
        if gain != 1.0:
            out *= gain
        if self.script.video.noise > 0:
            out += self.rng.standard_normal(out.shape, dtype=np.float32) * self.script.video.noise
        return np.clip(out, 0, 255).astype(np.uint8)

    def _player(self, img: np.ndarray, seat: Seat, lift: float) -> None:
        cam = self.layout.camera
        n = seat.number
        out = seat.base / np.linalg.norm(seat.base)
        shoulders = seat.base + np.array([0.0, 0.18, 0.0])
        c = cam.project(shoulders)[0]
        ppm = cam.px_per_m(shoulders)
        axes = (int(0.24 * ppm), int(0.15 * ppm))
        tangent = np.array([-out[2], 0.0, out[0]])
        ends = cam.project(np.array([shoulders - 0.2 * tangent, shoulders + 0.2 * tangent]))
        ang = float(np.degrees(np.arctan2(ends[1, 1] - ends[0, 1], ends[1, 0] - ends[0, 0])))
        cv2.ellipse(img, (int(c[0]), int(c[1])), axes, ang, 0, 360, self.look.shirt[n], -1,
                    cv2.LINE_AA)
        down = seat.base - 0.2 * out + np.array([0.0, 0.12, 0.0])
        up = seat.base + np.array([0.0, 0.42, 0.0])
        head = down + (up - down) * lift
        hc = cam.project(head)[0]
        r = int(0.1 * cam.px_per_m(head))
        if lift > 0.3:
            cv2.circle(img, (int(hc[0]), int(hc[1])), r, self.look.skin[n], -1, cv2.LINE_AA)
            cv2.ellipse(img, (int(hc[0]), int(hc[1] - r * 0.3)), (r, int(r * 0.75)), 0, 180,
                        360, self.look.hair[n], -1, cv2.LINE_AA)
        else:
            cv2.circle(img, (int(hc[0]), int(hc[1])), r, self.look.hair[n], -1, cv2.LINE_AA)

    def _sprite(self, key: SpriteKey, skin: tuple[int, int, int], sleeve: tuple[int, int, int],
                scale: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Premultiplied colour, coverage and keypoints of a coloured sprite at ``scale``."""
        k = (key, skin, sleeve, scale)
        if k not in self._coloured:
            s = self.bank.get(key)
            colour = np.where(s.material[..., None] == 1, np.array(sleeve, np.float32),
                              np.array(skin, np.float32))
            rgb = (np.clip(s.shade[..., None] * colour, 0, 255) * s.alpha[..., None]).astype(
                np.float32)
            alpha = s.alpha.astype(np.float32)
            h, w = alpha.shape
            size = (max(round(w * scale), 1), max(round(h * scale), 1))
            interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
            rgb = cv2.resize(rgb, size, interpolation=interp)
            alpha = cv2.resize(alpha, size, interpolation=interp)
            kps = s.keypoints * np.array([size[0] / w, size[1] / h], np.float32)
            self._coloured[k] = (rgb, alpha, kps)
        return self._coloured[k]

    def _hand(self, img: np.ndarray, seat: Seat, h: HandPlan, t: float) -> None:
        if h.pose == "gun":
            key = SpriteKey("gun", h.bend(t), h.yaw, self.pitch, h.shape)
        else:
            key = SpriteKey("count", h.count_at(t), h.yaw, self.pitch, h.shape)
        scale = self.layout.sprite_scale(seat)
        rgb, alpha, kps = self._sprite(key, h.skin, h.sleeve, scale)
        lift = h.lift(t)
        cam = self.layout.camera
        ppm = cam.px_per_m(seat.wrist) * self.layout.hand_scale
        sway = h.sway * np.array([0.006 * np.sin(1.3 * t + h.phase),
                                  0.004 * np.sin(2.1 * t + 2 * h.phase)])
        if h.sway > 1:
            sway[0] = 0.025 * h.sway * np.sin(2.4 * t + h.phase)
        low = seat.wrist - np.array([0.0, 0.38, 0.0])
        wrist3 = low + (seat.wrist - low) * lift
        anchor = cam.project(wrist3)[0]
        side = ppm * 0.13 / REGION_FRACTION
        anchor = anchor + np.array([h.offset * side + sway[0] * ppm, -sway[1] * ppm])
        roll = 3.0 * np.sin(0.9 * t + 3 * h.phase) + (8.0 * np.sign(h.offset) if h.offset else 0)
        # the forearm from the shoulder up to the sprite's bottom edge
        shoulder = cam.project(seat.base + np.array([0.0, 0.22, 0.0]))[0]
        elbow_px = anchor + np.array([0.0, 0.1 * ppm])
        cv2.line(img, (int(shoulder[0] + h.offset * side), int(shoulder[1])),
                 (int(elbow_px[0]), int(elbow_px[1])), h.sleeve, max(2, int(0.075 * ppm)),
                 cv2.LINE_AA)
        m = cv2.getRotationMatrix2D((float(kps[0][0]), float(kps[0][1])), float(roll), 1.0)
        m[:, 2] += anchor - kps[0]
        hh, ww = alpha.shape
        box = cv2.transform(np.array([[[0, 0], [ww, 0], [0, hh], [ww, hh]]], np.float32), m)[0]
        x0 = max(int(np.floor(box[:, 0].min())), 0)
        y0 = max(int(np.floor(box[:, 1].min())), 0)
        x1 = min(int(np.ceil(box[:, 0].max())) + 1, img.shape[1])
        y1 = min(int(np.ceil(box[:, 1].max())) + 1, img.shape[0])
        if x1 <= x0 or y1 <= y0:
            return
        m[:, 2] -= (x0, y0)
        size = (x1 - x0, y1 - y0)
        col = cv2.warpAffine(rgb, m, size, flags=cv2.INTER_LINEAR)
        a = cv2.warpAffine(alpha, m, size, flags=cv2.INTER_LINEAR)[..., None]
        roi = img[y0:y1, x0:x1].astype(np.float32)
        img[y0:y1, x0:x1] = np.clip(roi * (1 - a) + col, 0, 255).astype(np.uint8)
