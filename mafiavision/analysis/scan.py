"""The vision pass over a recording: hands per seat, poses, the bend signal, shots and numbers.

The cheap day gate: while no hand is raised anywhere, only ``day_fps`` frames a second are
tracked (the others are decoded, never converted), by a tracker with no active seat, so that its
image gate examines a seat only when its crop changed (motion and skin) or every 2 s (an active
seat is re-examined every 0.2 s: all ten ran on every day frame while they were left active).
Once a hand is seen the pass tracks every frame (up to ``night_fps``) with ungated
trackers that make the seats with a hand their active seats, the others being swept at the
tracker's low rate; ``linger`` seconds after the last hand it is day again. Night falls from the
frames the day skipped since its last look (:meth:`VideoFileSource.skipped`; the day frame that
saw the hand is tracked again as a night frame): a bandit may shoot on the first number a second
after raising the gun, and the shot detector needs ~0.4 s of the raised hand as its baseline
(session 8: on validation sets 7 and 8, 8 of the 10 shots the analysis missed while the
replay of every frame's recorded landmarks found them came 1.3–1.7 s after the raise). The
night's tracker for those frames is chosen from the hands the day saw by the same hunt rule as
every later frame's (below; ``SeatStages.gun_seats`` reads the gun as ``SeatStages.update``
does); a hand it first finds in one of them makes its seat active from the next one on (session
58: on ``v78_kharkiv_first_hit_en`` the day's look at 3.5 s saw three hands, not seat 6's
back-of-hand gun; found at 3.1 s in the frames taken back, seat 6 was examined in 2 of those
9 frames, and its first-number shot at 4.0–4.5 s was lost).

Why two kinds of tracker: the image gate skips a hand that was still rising when examined and then
held still (seats 2 and 6 of ``kharkiv_miss_other_en`` were found 1.5–2 s late with it, at the
raise without it), so at night no gate; by day it makes the day cheap. At night a seat without a
hand is examined at its turn in the sweep and also as soon as its crop changed (``wake``: session
57, on ``v77_kharkiv_first_hit_dim_ru`` a distractor's hand made night fall at 1.58 s, the three
guns rose from 2.62 s and were found one seat a frame from 2.9 s to 3.16 s, and the three
first-number shots at 3.9–4.2 s were lost; the replay of every frame found them). At night two
hands per seat
are looked for (a leader shows 6–10 with two hands), except while two or more seats hold the
finger gun with one hand — a hunt, one raised hand per bandit — when a one-hand tracker takes
over (a seat with two hands up shows a number: his 2, or thumb-up 3, is the gun's pose; on the
seen validation set 24 a leader showed 8 as 5 and 3, the 3 read as the gun, and one frame of a
neighbour's moving hand read as the gun switched to one hand per seat: the 8 was read 5): MediaPipe
reruns its palm detector every frame while it finds fewer hands than it looks for, which doubled
the cost of a hunt on the sample clips. Each tracker starts afresh (``reset``) when it takes over.

Night frames are tracked at the recording's own rate (``night_fps`` 30): at 15 fps the shot
detector lost one shot of nine and invented another on the sample clips.

Frames are decoded at a reduced width when that cannot cost accuracy: the hand landmark model
looks at a 224-pixel crop around the hand, so frames are shrunk until the smallest expected hand
(``Table.hand_width_px``) is :data:`MODEL_HAND_PX` wide, never below, never enlarged.

The seats of a frame are examined by ``threads`` threads (:class:`ThreadedSeatTracker`): each
landmarker call runs in MediaPipe's C++ code without the GIL and uses one core, and every seat
keeps its own landmarker, so the landmarks are the same as one thread's.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mafiavision.analysis.media import MediaInfo
from mafiavision.analysis.seats import SeatStages
from mafiavision.analysis.timeline import SeatSeries, TimelineBuilder
from mafiavision.vision.hands import SeatTracker
from mafiavision.vision.pairing import PairedTracker, TrackerModel, make_tracker
from mafiavision.vision.workers import ThreadedSeatTracker

#: Input size of MediaPipe's hand landmark model: a hand this wide loses nothing to downscaling.
MODEL_HAND_PX = 224.0
#: Frames decoded ahead by the source's thread (a day's 15 skipped frames between two tracked
#: ones, and some).
PREFETCH = 32


@dataclass(frozen=True)
class ScanConfig:
    day_fps: float = 2.0
    night_fps: float = 30.0
    linger: float = 1.5
    #: The landmark network(s): lite+full (default since session 7) reads shots from both
    #: (:mod:`vision.pairing`): fewer false shots on every unseen validation set; lite is about
    #: 1.4x faster (docs/analysis.md).
    model: TrackerModel = "lite+full"
    #: Threads examining the seats of a frame (1: the calling thread alone).
    threads: int = field(default_factory=lambda: os.cpu_count() or 1)


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


@dataclass
class _Due:
    """When the next frame is to be tracked: the frames before are decoded but never converted
    (most of the day)."""

    t: float = 0.0
    step: float = 0.0

    def __call__(self, t: float) -> bool:
        return t + 1e-6 >= self.t

    def advance(self, t: float, step: float) -> None:
        """Next due ``step`` after the last due time — a fixed grid, so a rate whose instants
        fall between frames does not drift lower — or after ``t`` when the frame came a whole
        step late or the rate changed."""
        base = self.t if step == self.step and t - self.t < step else t
        self.t, self.step = base + step, step


def _one_hand_guns(guns: list[int], hands: dict[int, list]) -> list[int]:
    """The seats of ``guns`` holding the gun with one hand: two hands up show a number (a
    leader's 2, or thumb-up 3, is the gun's pose), never a hunt's gun."""
    return [seat for seat in guns if len(hands.get(seat, [])) == 1]


def decode_width(table, info: MediaInfo) -> int:
    """The narrowest frame width at which every seat's hand is still ``MODEL_HAND_PX`` wide."""
    smallest = min(table.hand_width_px(s, info.width, info.height) for s in table.seat_numbers())
    if smallest <= MODEL_HAND_PX:
        return info.width
    return min(info.width, 2 * math.ceil(info.width * MODEL_HAND_PX / smallest / 2))


def scan(info: MediaInfo, table, config: ScanConfig,
         progress: Callable[[float], None] | None = None) -> ScanResult:
    """Track the whole recording; ``progress(t)`` is called with each processed frame's time."""
    from mafiavision.vision.sources import Frame, TruncatedInputError, VideoFileSource

    width = decode_width(table, info)
    seats = table.seat_numbers()
    stages = SeatStages(seats)
    timeline = TimelineBuilder(seats)
    frame_times: list[float] = []
    stop_reason = None
    due = _Due()
    last_seen: dict[int, float] = {}
    last_gun: dict[int, float] = {}
    # "day": every seat due every frame but none active, so each stays behind the image gate
    # (refreshed every 2 s); 1 and 2: hands looked for per seat at night.
    threads = config.threads
    def tracker(**kwargs: Any) -> SeatTracker | PairedTracker:
        return make_tracker(table, config.model, ThreadedSeatTracker, threads=threads, **kwargs)

    trackers = {"day": tracker(hands_per_seat=2, sweep_every=1, gate=True),
                1: tracker(hands_per_seat=1, gate=False, wake=True),
                2: tracker(hands_per_seat=2, gate=False, wake=True)}
    mode: str | int = "day"
    source = VideoFileSource(info.path, max_width=width, prefetch=PREFETCH)

    raised: set[int] = set()  # the seats with a hand in the day's frame that made night fall

    def track(frame: Frame, hands: dict[int, list], switch: bool = True) -> None:
        nonlocal mode
        frame_times.append(frame.t)
        for seat in _one_hand_guns(stages.update(frame.t, hands, timeline), hands):
            last_gun[seat] = frame.t
        for seat in hands:
            last_seen[seat] = frame.t
        recent = {s for s, t in last_seen.items() if frame.t - t <= config.linger}
        if not switch:  # a frame taken back: the same tracker, a hand it found made active
            trackers[mode].set_active(raised | recent)
            return
        guns = sum(frame.t - t <= config.linger for t in last_gun.values())
        wanted = "day" if not recent else 1 if guns >= 2 else 2
        if wanted != mode:
            mode = wanted
            trackers[mode].reset()
        trackers[mode].set_active(recent)

    try:
        for frame in source.frames(due):
            hands = trackers[mode].update(frame)
            if mode == "day" and hands:
                # night falls: track the frames the day skipped since its last look, then this
                # one again, as night frames (a shot can come a second after the hand rose)
                mode = 1 if len(_one_hand_guns(stages.gun_seats(hands), hands)) >= 2 else 2
                raised = set(hands)
                trackers[mode].reset()
                trackers[mode].set_active(raised)
                for earlier in source.skipped():
                    track(earlier, trackers[mode].update(earlier), switch=False)
                track(frame, trackers[mode].update(frame))
            else:
                track(frame, hands)
            due.advance(frame.t, 1.0 / (config.day_fps if mode == "day" else config.night_fps))
            if progress is not None:
                progress(frame.t)
    except TruncatedInputError as exc:
        stop_reason = str(exc)
    finally:
        source.close()
        for tracker in trackers.values():
            tracker.close()
    decoded, last_t = source.decoded, source.last_t
    shots, numbers = stages.finish(last_t)
    return ScanResult(
        series=timeline.build(), shots=shots, numbers=numbers, frame_times=frame_times,
        decoded=decoded, decoded_until=last_t, stop_reason=stop_reason, decode_width=width,
    )
