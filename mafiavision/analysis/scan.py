"""The vision pass over a recording: hands per seat, poses, the bend signal, shots and numbers.

The cheap day gate: while no hand is raised anywhere, only ``day_fps`` frames a second are
tracked (every seat examined). Once a hand is seen the pass tracks every frame (up to
``night_fps``) and makes the seats with a hand the tracker's active seats, the others being swept
at its low rate; ``linger`` seconds after the last hand it falls back to the day rate.

Two hands per seat are looked for (a leader shows 6–10 with two hands), except while two or more
seats hold the finger gun — a hunt, where each bandit raises one hand — when a one-hand tracker
takes over: MediaPipe reruns its palm detector every frame while it finds fewer hands than it
looks for, which doubled the cost of a hunt on the sample clips.

The tracker's own image gate is off: on the sample clips it skipped hands that were still rising
when first examined and then held still (seats 2 and 6 of ``kharkiv_miss_other_en`` were found
1.5–2 s late with it, at the raise without it); the day gate above already makes the day cheap.

Frames are decoded at a reduced width when that cannot cost accuracy: the hand landmark model
looks at a 224-pixel crop around the hand, so frames are shrunk until the smallest expected hand
(``Table.hand_width_px``) is :data:`MODEL_HAND_PX` wide, never below, never enlarged.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from mafiavision.analysis.media import MediaInfo
from mafiavision.analysis.seats import SeatStages
from mafiavision.analysis.timeline import SeatSeries, TimelineBuilder

#: Input size of MediaPipe's hand landmark model: a hand this wide loses nothing to downscaling.
MODEL_HAND_PX = 224.0


@dataclass(frozen=True)
class ScanConfig:
    day_fps: float = 2.0
    night_fps: float = 30.0
    linger: float = 1.5
    model: str = "lite"


@dataclass
class ScanResult:
    series: dict[int, SeatSeries]
    shots: list  # ShotEvent
    numbers: list  # NumberEvent
    frame_times: list[float]
    decoded: int
    decoded_until: float
    stop_reason: str | None
    decode_width: int
    warnings: list[str] = field(default_factory=list)


def decode_width(table, info: MediaInfo) -> int:
    """The narrowest frame width at which every seat's hand is still ``MODEL_HAND_PX`` wide."""
    smallest = min(table.hand_width_px(s, info.width, info.height) for s in table.seat_numbers())
    if smallest <= MODEL_HAND_PX:
        return info.width
    return min(info.width, 2 * math.ceil(info.width * MODEL_HAND_PX / smallest / 2))


def scan(info: MediaInfo, table, config: ScanConfig,
         progress: Callable[[float], None] | None = None) -> ScanResult:
    """Track the whole recording; ``progress(t)`` is called with each processed frame's time."""
    from mafiavision.vision.hands import SeatTracker
    from mafiavision.vision.sources import Frame, TruncatedInputError, VideoFileSource

    width = decode_width(table, info)
    seats = table.seat_numbers()
    stages = SeatStages(seats)
    timeline = TimelineBuilder(seats)
    frame_times: list[float] = []
    decoded, last_t, stop_reason = 0, 0.0, None
    next_t = 0.0
    active_until = -1.0
    last_seen: dict[int, float] = {}
    last_gun: dict[int, float] = {}
    trackers = {n: SeatTracker(table, model=config.model, hands_per_seat=n, gate=False)
                for n in (1, 2)}
    hands_per_seat = 2
    try:
        with VideoFileSource(info.path, max_width=width) as source:
            for frame in source:
                decoded += 1
                last_t = frame.t
                if frame.t + 1e-6 < next_t:
                    continue
                night = frame.t <= active_until
                next_t = frame.t + 1.0 / (config.night_fps if night else config.day_fps)
                tracker = trackers[hands_per_seat]
                hands = tracker.update(Frame(frame.t, frame.index, frame.image))
                frame_times.append(frame.t)
                for seat in stages.update(frame.t, hands, timeline):
                    last_gun[seat] = frame.t
                for seat in hands:
                    last_seen[seat] = frame.t
                recent = {s for s, t in last_seen.items() if frame.t - t <= config.linger}
                if recent:
                    active_until = frame.t + config.linger
                guns = sum(frame.t - t <= config.linger for t in last_gun.values())
                wanted = 1 if guns >= 2 else 2
                if wanted != hands_per_seat:
                    hands_per_seat = wanted
                    trackers[wanted].reset()
                trackers[hands_per_seat].set_active(recent or None)
                if progress is not None:
                    progress(frame.t)
    except TruncatedInputError as exc:
        stop_reason = str(exc)
    finally:
        for tracker in trackers.values():
            tracker.close()
    shots, numbers = stages.finish(last_t)
    return ScanResult(
        series=timeline.build(), shots=shots, numbers=numbers, frame_times=frame_times,
        decoded=decoded, decoded_until=last_t, stop_reason=stop_reason, decode_width=width,
    )
