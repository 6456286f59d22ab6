"""Landmark sequences built from REAL landmark frames, for shot tests and evaluations.

There is no real footage of a finger-gun shot. A squeeze is built from two real MediaPipe frames:
a gun pose (index + middle extended) and a fist. The fist is aligned onto the gun hand by a
similarity transform of the palm points (wrist and the four MCPs); then each bone of the index
and the middle finger turns (spherical interpolation of its direction, length kept: the bones
stay rigid) from its gun direction toward its fist direction by a fraction ``alpha`` (0 = gun,
1 = fist). Ring, pinky, thumb and palm stay as in the real gun frame (ring and pinky can turn
too, by one fraction: a hand closing to a fist, not a squeeze). A whole sequence adds a
rotation of the hand over time (raise / lower / turn), real-sized Gaussian jitter on every world
landmark every frame (MediaPipe's full model on perturbed real photos jittered by 1.2–2.7 mm per
landmark: ``scripts/eval_shots.py`` prints how it was measured), and gaps where the hand is not
seen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

PALM = [0, 5, 9, 13, 17]
FINGER_CHAINS = {
    "index": [5, 6, 7, 8],
    "middle": [9, 10, 11, 12],
    "ring": [13, 14, 15, 16],
    "pinky": [17, 18, 19, 20],
}


@dataclass(frozen=True)
class Observation:
    """A hand in one frame: what the shot detector reads (``HandObservation``'s fields; no
    image landmarks, always fresh, untracked, one network, no finger patch)."""

    seat: int
    t: float
    world: np.ndarray  # (21, 3) metres
    landmarks: np.ndarray | None = None
    held: bool = False
    track: int | None = None
    networks: int = 1
    second: Observation | None = None
    patch: np.ndarray | None = None


def align(source: np.ndarray, target: np.ndarray, points: list[int] = PALM) -> np.ndarray:
    """``source`` (21, 3) moved by the similarity transform that best maps its ``points`` onto
    the target's (Umeyama)."""
    a, b = source[points], target[points]
    ma, mb = a.mean(axis=0), b.mean(axis=0)
    a0, b0 = a - ma, b - mb
    u, sing, vt = np.linalg.svd(b0.T @ a0)
    d = np.sign(np.linalg.det(u @ vt))
    fix = np.diag([1.0, 1.0, d])
    rot = u @ fix @ vt
    scale = np.trace(np.diag(sing) @ fix) / np.sum(a0**2)
    return (source - ma) @ rot.T * scale + mb


def _slerp(u: np.ndarray, v: np.ndarray, alpha: float) -> np.ndarray:
    u, v = u / np.linalg.norm(u), v / np.linalg.norm(v)
    omega = np.arccos(np.clip(u @ v, -1.0, 1.0))
    if omega < 1e-6:
        return u
    return (np.sin((1 - alpha) * omega) * u + np.sin(alpha * omega) * v) / np.sin(omega)


def squeeze_pose(gun: np.ndarray, fist_aligned: np.ndarray, alpha: dict[str, float]) -> np.ndarray:
    """The gun frame with each finger of ``alpha`` turned toward the aligned fist by
    ``alpha[finger]``."""
    out = gun.copy()
    for name, chain in FINGER_CHAINS.items():
        a = alpha.get(name, 0.0)
        if a == 0.0:
            continue
        for k in range(3):
            p, c = chain[k], chain[k + 1]
            bone = gun[c] - gun[p]
            direction = _slerp(bone, fist_aligned[c] - fist_aligned[p], a)
            out[c] = out[p] + direction * np.linalg.norm(bone)
    return out


def bump(t: np.ndarray, start: float, duration: float) -> np.ndarray:
    """A smooth 0→1→0 raised-cosine pulse over [start, start + duration]."""
    x = np.clip((t - start) / duration, 0.0, 1.0)
    return 0.5 - 0.5 * np.cos(2 * np.pi * x)


def rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    """Rotation matrix about ``axis`` by ``angle`` radians (Rodrigues)."""
    axis = axis / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(angle) * k + (1 - np.cos(angle)) * (k @ k)


@dataclass(frozen=True)
class SequenceSpec:
    """A clip of one hand: finger fractions and the hand's rotation as functions of time."""

    duration: float
    fps: float = 30.0
    index: Callable[[np.ndarray], np.ndarray] = lambda t: np.zeros_like(t)
    middle: Callable[[np.ndarray], np.ndarray] = lambda t: np.zeros_like(t)
    #: ring and pinky together (0 in a squeeze; a hand closing to a fist moves them too)
    others: Callable[[np.ndarray], np.ndarray] = lambda t: np.zeros_like(t)
    turn: Callable[[np.ndarray], np.ndarray] = lambda t: np.zeros_like(t)  # radians
    turn_axis: tuple[float, float, float] = (1.0, 0.0, 0.0)
    jitter_m: float = 0.0007
    hidden: tuple[tuple[float, float], ...] = ()  # (start, end) intervals with no hand
    #: give image landmarks too: the world points seen by an orthographic camera (x, y × 2,
    #: moved to the frame's middle), as a tracker gives both
    image: bool = False


def build(
    spec: SequenceSpec,
    gun: np.ndarray,
    fist: np.ndarray,
    rng: np.random.Generator,
    seat: int = 1,
) -> list[tuple[float, Observation | None]]:
    """(t, observation or None) for every frame of the clip."""
    fist_aligned = align(fist, gun)
    times = np.arange(0.0, spec.duration, 1.0 / spec.fps)
    a_index, a_middle, turn = spec.index(times), spec.middle(times), spec.turn(times)
    a_others = spec.others(times)
    axis = np.asarray(spec.turn_axis, dtype=np.float64)
    centre = gun.mean(axis=0)
    frames: list[tuple[float, Observation | None]] = []
    for i, t in enumerate(times):
        if any(a <= t < b for a, b in spec.hidden):
            frames.append((float(t), None))
            continue
        alpha = {"index": a_index[i], "middle": a_middle[i], "ring": a_others[i],
                 "pinky": a_others[i]}
        pose = squeeze_pose(gun, fist_aligned, alpha)
        pose = (pose - centre) @ rotation(axis, turn[i]).T + centre
        pose = pose + rng.normal(0.0, spec.jitter_m, pose.shape)
        image = pose * 2.0 + np.array([0.5, 0.5, 0.0]) if spec.image else None
        frames.append((float(t), Observation(seat, float(t), pose, image)))
    return frames


def finger_rise(gun: np.ndarray, fist_aligned: np.ndarray, finger: str, alpha: float) -> float:
    """Curl rise (degrees) of one finger when turned by ``alpha`` toward the fist."""
    from mafiavision.vision.fingers import FINGERS, curl

    col = FINGERS.index(finger)
    moved = squeeze_pose(gun, fist_aligned, {finger: alpha})
    return float(curl(moved)[col] - curl(gun)[col])


def alpha_for_rise(gun: np.ndarray, fist_aligned: np.ndarray, finger: str, degrees: float) -> float:
    """The fraction that bends ``finger`` by ``degrees`` of curl (bisection; capped at 1)."""
    lo, hi = 0.0, 1.0
    if finger_rise(gun, fist_aligned, finger, hi) <= degrees:
        return hi
    for _ in range(30):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if finger_rise(gun, fist_aligned, finger, mid) < degrees else (lo, mid)
    return (lo + hi) / 2


SHOT_KINDS = ("face", "back", "double", "turning")
NEGATIVE_KINDS = ("still", "drift", "raise", "twitch", "tremor", "dropout", "leave", "hold")


def scenario(
    kind: str, gun: np.ndarray, fist: np.ndarray, rng: np.random.Generator
) -> tuple[SequenceSpec, list[float]]:
    """A random clip of one kind and the true times of its shots' deepest points.

    Shots: "face" (a deep squeeze, the palm toward the camera), "back" (the bend seen from the
    back: a total rise of only 18–30°), "double" (two squeezes 0.35–0.6 s apart), "turning" (a
    squeeze while the hand turns by up to 40°). No shot: "still" (jitter only), "drift"
    (index+middle bend by 20–60° in all and back over 6–12 s), "raise" (the hand turns by 30–80°
    and back in ~1 s), "twitch" (one finger squeezes), "tremor" (8–11 Hz, ±4–8°), "dropout" (the
    hand vanishes 0.3–1 s), "leave" (the fingers start to close and the hand leaves view), "hold"
    (the fingers fold and stay folded).
    """
    fa = align(fist, gun)
    duration = float(rng.uniform(4.0, 6.0))
    zero = lambda t: np.zeros_like(t)  # noqa: E731
    axis = tuple(rng.normal(size=3))

    def pulses(times: list[float], amp: tuple[float, float], lengths: list[float]):
        lag = float(rng.uniform(-0.04, 0.04))

        def index(t: np.ndarray) -> np.ndarray:
            return sum(amp[0] * bump(t, s, d) for s, d in zip(times, lengths, strict=True))

        def middle(t: np.ndarray) -> np.ndarray:
            return sum(amp[1] * bump(t, s + lag, d) for s, d in zip(times, lengths, strict=True))

        return index, middle

    start = float(rng.uniform(1.5, duration - 1.5))
    length = float(rng.uniform(0.2, 0.6))
    if kind in ("face", "turning"):
        amp = (float(rng.uniform(0.5, 1.0)), float(rng.uniform(0.5, 1.0)))
        index, middle = pulses([start], amp, [length])
        turn = (
            (lambda t: np.radians(40) * np.clip((t - 1) / 3, 0, 1)) if kind == "turning" else zero
        )
        return SequenceSpec(duration, index=index, middle=middle, turn=turn, turn_axis=axis), [
            start + length / 2
        ]
    if kind == "back":
        total = float(rng.uniform(18.0, 30.0))
        share = float(rng.uniform(0.4, 0.6))
        amp = (
            alpha_for_rise(gun, fa, "index", total * share),
            alpha_for_rise(gun, fa, "middle", total * (1 - share)),
        )
        index, middle = pulses([start], amp, [length])
        return SequenceSpec(duration, index=index, middle=middle), [start + length / 2]
    if kind == "double":
        gap = float(rng.uniform(0.35, 0.6))
        lengths = [float(rng.uniform(0.2, 0.35)), float(rng.uniform(0.2, 0.35))]
        starts = [start - 0.5, start - 0.5 + lengths[0] + gap - 0.2]
        amp = (float(rng.uniform(0.5, 1.0)), float(rng.uniform(0.5, 1.0)))
        index, middle = pulses(starts, amp, lengths)
        truth = [s + d / 2 for s, d in zip(starts, lengths, strict=True)]
        return SequenceSpec(duration, index=index, middle=middle), truth
    if kind == "still":
        return SequenceSpec(duration, jitter_m=float(rng.uniform(0.0005, 0.0015))), []
    if kind == "drift":
        total = float(rng.uniform(20, 60))
        amp_i = alpha_for_rise(gun, fa, "index", total / 2)
        amp_m = alpha_for_rise(gun, fa, "middle", total / 2)
        period = float(rng.uniform(6.0, 12.0))
        phase = float(rng.uniform(0, 2 * np.pi))
        wave = lambda t: 0.5 * (1 - np.cos(2 * np.pi * t / period + phase))  # noqa: E731
        return SequenceSpec(
            duration, index=lambda t: amp_i * wave(t), middle=lambda t: amp_m * wave(t)
        ), []
    if kind == "raise":
        angle = np.radians(float(rng.uniform(30, 80)))
        return SequenceSpec(
            duration, turn=lambda t: angle * bump(t, start - 0.5, 1.0), turn_axis=axis
        ), []
    if kind == "twitch":
        finger = str(rng.choice(["index", "middle"]))
        amp1 = float(rng.uniform(0.5, 1.0))
        pulse = lambda t: amp1 * bump(t, start, length)  # noqa: E731
        return SequenceSpec(duration, **{finger: pulse}), []
    if kind == "tremor":
        freq, deg = float(rng.uniform(8, 11)), float(rng.uniform(4, 8))
        amp_i = alpha_for_rise(gun, fa, "index", deg)
        amp_m = alpha_for_rise(gun, fa, "middle", deg)
        return SequenceSpec(
            duration,
            index=lambda t: amp_i * 0.5 * (1 - np.cos(2 * np.pi * freq * t)),
            middle=lambda t: amp_m * 0.5 * (1 - np.cos(2 * np.pi * freq * t)),
        ), []
    if kind == "dropout":
        gap = float(rng.uniform(0.3, 1.0))
        return SequenceSpec(duration, hidden=((start, start + gap),)), []
    if kind == "leave":
        close = lambda t: 0.8 * np.clip((t - start) / 0.3, 0, 1)  # noqa: E731
        return SequenceSpec(
            duration, index=close, middle=close, hidden=((start + 0.2, duration),)
        ), []
    if kind == "hold":
        amp_h = float(rng.uniform(0.5, 1.0))
        held = lambda t: amp_h * np.clip((t - start) / 0.25, 0, 1)  # noqa: E731
        return SequenceSpec(duration, index=held, middle=held), []
    raise ValueError(f"unknown scenario kind {kind!r}")
