"""Render one night script into ``<name>.mp4`` + ``<name>.truth.json`` + ``<name>.table.json``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np

from mafiavision.samples.encode import write_clip
from mafiavision.samples.hand import squeeze_degrees
from mafiavision.samples.scene import Compositor, Layout
from mafiavision.samples.script import NightScript
from mafiavision.samples.sprites import SpriteBank
from mafiavision.samples.timeline import Timeline, appearance, build
from mafiavision.samples.truth import (
    BendTrack,
    ClipTruth,
    HandInterval,
    VideoInfo,
    VoiceInfo,
)
from mafiavision.samples.voice import SAMPLE_RATE, Track, Voice

EASE = 0.4  # seconds for a head lift or a light change to ramp


def _ramp(t: float, start: float, end: float) -> float:
    """0 outside [start, end], 1 inside, with linear ramps of :data:`EASE` seconds."""
    if t <= start or t >= end:
        return 0.0
    return float(min(1.0, (t - start) / EASE, (end - t) / EASE))


def cases(script: NightScript, tl: Timeline) -> list[str]:
    """Which cases of issue 5 point 3 the clip shows, derived from its content."""
    out: list[str] = []
    kinds = [o.kind for h in tl.hunts for o in h.observations]
    if any(h.verdict == "hit" for h in tl.hunts):
        out.append("hunt_hit")
    if any(h.verdict == "miss" and any("different numbers" in r for r in h.reasons)
           for h in tl.hunts):
        out.append("miss_other_number")
    for kind, name in (("between", "miss_between"), ("no_shot", "miss_no_shot"),
                       ("multiple", "double_squeeze")):
        if kind in kinds:
            out.append(name)
    if len(tl.hunts) >= 2:
        out.append("two_hunts")
    if any(o.repeats >= 2 for o in tl.orders):
        out.append("orders_twice")
    if any(c.hands == 1 for c in tl.checks):
        out.append("check_one_hand")
    if any(c.hands == 2 for c in tl.checks):
        out.append("check_two_hands")
    if script.night == 0 and any(g.kind == "raise" and script.role_of(g.seat) in
                                 ("sheriff", "commissar") for g in tl.gestures):
        out.append("sheriff_raise_night_zero")
    raises = [g for g in tl.gestures if g.kind == "raise"]
    if any(g.kind == "move" and any(r.start < g.end and g.start < r.end for r in raises)
           for g in tl.gestures):
        out.append("non_bandit_moves_during_hunt")
    if any(g.view == "back" and g.kind in ("raise", "shot", "number", "order")
           for g in tl.gestures):
        out.append("back_of_hand")
    return out


def render_clip(script: NightScript, out_dir: Path, bank: SpriteBank) -> ClipTruth:
    seq = np.random.SeedSequence(script.seed)
    r_look, r_time, r_scene, r_audio = (np.random.default_rng(s) for s in seq.spawn(4))
    look = appearance(script, r_look)
    tl = build(script, look, r_time)
    layout = Layout(script)
    comp = Compositor(script, layout, look, bank, r_scene)
    table = comp.table()
    fps = script.video.fps
    n_frames = int(np.ceil(tl.duration * fps))
    bends: dict[int, BendTrack] = {}
    guns = [h for h in tl.hands if h.pose == "gun"]

    def frames() -> Iterator[np.ndarray]:
        for i in range(n_frames):
            t = i / fps
            heads = {d.seat: _ramp(t, d.start, d.end) for d in tl.distractions
                     if d.kind == "head_lift" and d.seat is not None}
            gain = 1.0
            for d in tl.distractions:
                if d.kind == "light" and d.gain is not None:
                    gain *= 1.0 + (d.gain - 1.0) * _ramp(t, d.start, d.end)
            for h in guns:
                if h.up <= t <= h.down:
                    track = bends.setdefault(h.seat, BendTrack(seat=h.seat, times=[],
                                                               degrees=[]))
                    track.times.append(round(t, 4))
                    track.degrees.append(round(squeeze_degrees(h.bend(t)), 2))
            yield comp.frame(t, tl.hands, heads, gain)

    v = script.voice
    voice = Voice(v.variant or v.language, v.rate, v.pitch)
    audio = Track(n_frames / fps)
    for w in tl.words:
        audio.place(w.text, voice, w.onset)
    audio.add_room_tone(r_audio, 0.004)

    out_dir.mkdir(parents=True, exist_ok=True)
    video_path = out_dir / f"{script.name}.mp4"
    written = write_clip(video_path, frames(), fps, audio.samples, SAMPLE_RATE,
                         crf=script.video.crf)
    truth = ClipTruth(
        name=script.name, description=script.description, seed=script.seed, rules=script.rules,
        night=script.night, seats=script.seats,
        roles={s: script.role_of(s) for s in range(1, script.seats + 1)},
        video=VideoInfo(width=script.video.width, height=script.video.height, fps=fps,
                        frames=written, duration=written / fps,
                        elevation=script.video.elevation, noise=script.video.noise,
                        crf=script.video.crf),
        voice=VoiceInfo(language=v.language, voice=voice.name, rate=v.rate, pitch=v.pitch,
                        pace=v.pace),
        table=table, words=tl.words, gestures=tl.gestures,
        hands=[HandInterval(seat=h.seat, hand=h.hand, appear=h.appear, up=h.up, down=h.down,
                            gone=h.gone, pose=h.pose, view=h.view, yaw=h.yaw,  # type: ignore[arg-type]
                            skin=h.skin, shape=h.shape) for h in tl.hands],
        bends=sorted(bends.values(), key=lambda b: b.seat),
        hunts=tl.hunts, checks=tl.checks, orders=tl.orders, distractions=tl.distractions,
        cases=cases(script, tl),
    )
    truth.save(out_dir / f"{script.name}.truth.json")
    table.save(out_dir / f"{script.name}.table.json")
    return truth
