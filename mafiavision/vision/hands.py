"""Per-seat hand tracking: seat crops → MediaPipe HandLandmarker (VIDEO mode) → tracks.

Whole-frame detection misses small hands (the palm detector sees 192×192), so each seat's region
is cropped and given its own landmarker. Hands go to seats by geometry only: a detection counts
for a seat when its palm centre lies in that seat's polygon; when two seats claim one hand (their
regions overlap), it goes to the seat its forearm points from (see :func:`forearm_seat`).
Handedness is never used.

The :class:`SeatTracker` schedules the work: the *active* seats (set by the caller, e.g. the
bandits during a hunt; all seats by default) are examined every frame, the others are swept a few
at a time (each once every ``sweep_every`` frames), and a seat with no hand is skipped while the
cheap :class:`~mafiavision.vision.gate.SeatGate` sees nothing new in its crop.
"""

from __future__ import annotations

import math
import os
import sys
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from mafiavision.errors import InputError
from mafiavision.vision.appearance import PatchCutter
from mafiavision.vision.gate import SeatGate
from mafiavision.vision.models import HandVariant, hand_landmarker_path
from mafiavision.vision.sources import Frame
from mafiavision.vision.table import Table
from mafiavision.vision.tracks import Detection, SeatTracks, Track

#: Landmark indices: wrist, and the knuckles (MCP) of index, middle, ring and little fingers.
WRIST, INDEX_MCP, MIDDLE_MCP, PINKY_MCP = 0, 5, 9, 17
PALM = (0, 5, 9, 13, 17)
#: Two hands of one landmarker whose palm centres lie closer than this many palm sizes are one
#: hand reported twice (see :func:`merge_duplicates`).
SAME_HAND = 0.8
#: MediaPipe's palm-detection / hand-presence / tracking threshold (its default is 0.5).
MIN_CONFIDENCE = 0.5
#: Border added around each crop (edge pixels repeated), as a fraction of its size: the palm
#: detector misses hands whose arm runs into the crop's edge; see docs/tracking.md.
CROP_PAD = 0.3
#: Every this many landmarker calls that find a closed hand (index or middle folded), the crop
#: is also read by a fresh IMAGE-mode detection (palm detector, then landmarks): see
#: :meth:`Landmarker.detect`.
RECHECK_EVERY = 10
#: A tracked hand is re-found from scratch when the fresh detection at its place is at least
#: this many times larger (longest side of the landmarks' box): see :meth:`Landmarker.detect`.
TIGHT_RATIO = 1.25


@dataclass(frozen=True, slots=True)
class HandObservation:
    """One hand at one seat at time ``t``.

    ``landmarks`` (21, 3) are normalised to the full frame (x, y in 0..1; z on the x scale, as
    MediaPipe gives it); ``world`` (21, 3) in metres around the hand's centre; ``score`` the
    landmarker's confidence; ``track`` an id kept while the hand stays; ``bbox`` (x0, y0, x1, y1)
    in frame pixels; ``held`` is True when the seat was not examined or the hand was briefly missed
    in this frame and its last landmarks are repeated. ``networks`` is 2 when a second landmark
    network read the seat too (:mod:`mafiavision.vision.pairing`); ``second`` is then its fresh
    reading of this hand (None: it did not see the hand fresh in this frame). ``patch`` is the
    grey patch of its index and middle fingers in a fresh frame
    (:func:`mafiavision.vision.appearance.finger_patch`; None when held).
    """

    seat: int
    t: float
    landmarks: np.ndarray
    world: np.ndarray
    score: float
    track: int
    bbox: tuple[float, float, float, float]
    held: bool = False
    networks: int = 1
    second: HandObservation | None = None
    patch: np.ndarray | None = None


@dataclass(frozen=True, slots=True)
class SeatCrop:
    """Where a seat's crop lies in the frame (pixels)."""

    seat: int
    x0: int
    y0: int
    x1: int
    y1: int


def seat_crops(table: Table, width: int, height: int) -> dict[int, SeatCrop]:
    """The crop box of every seat for frames of the given size (its polygon's bounding box)."""
    return {r.seat: SeatCrop(r.seat, *r.pixel_box(width, height)) for r in table.regions}


#: Held while stderr is redirected: landmarkers run in threads too (``analysis.scan``), and two
#: interleaved redirections would leave stderr pointing at /dev/null.
_SILENCE_LOCK = threading.RLock()


@contextmanager
def native_logs_silenced() -> Iterator[None]:
    """Silence what MediaPipe's C++ code writes to stderr (INFO lines about LiteRT, XNNPACK)
    while a landmarker is created and first run; no environment variable turns those off."""
    with _SILENCE_LOCK:
        sys.stderr.flush()
        saved = os.dup(2)
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, 2)
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            os.close(devnull)


class Landmarker:
    """One MediaPipe Tasks HandLandmarker in VIDEO mode, fed crops, answering in frame terms.

    VIDEO mode finds each frame's hand inside a box built from the previous frame's landmarks.
    A hand first read closed (a raised gun read as a fist while it came up) gets a fist-sized
    box that leaves its extended fingers out, and the tracker can stay locked on the fist
    reading (romanian_miss_noshot_en seat 9, full model: from the hand's entry until its
    squeeze 1.7 s later). So every :data:`RECHECK_EVERY` calls that find a closed hand (the
    index or the middle finger folded: :func:`closed`; a hand showing both already has a box
    that holds its fingers, so it is not worth an IMAGE-mode call),
    a fresh IMAGE-mode detection reads the same crop; when it finds a hand at the tracked
    hand's place (palm centres within half a hand) at least :data:`TIGHT_RATIO` times larger,
    the tracked box was too tight: the VIDEO landmarker is replaced and the frame re-read, so
    tracking restarts from the palm detector. Only a larger fresh reading replaces a tracked
    one, never a smaller one: a fresh detection of the same crops reads a fist again at other
    times.
    """

    def __init__(self, model: HandVariant = "lite", num_hands: int = 1,
                 min_confidence: float = MIN_CONFIDENCE, pad: float = CROP_PAD) -> None:
        self._settings = (model, num_hands, min_confidence)
        self._landmarker = self._create("VIDEO")
        self._fresh: Any = None  # the IMAGE-mode landmarker, made at the first re-check
        self.num_hands = num_hands
        self.pad = pad
        self._tracked = 0
        self._last_ms = -1
        self._closed = 0  # calls that found a closed hand

    def _create(self, mode: Literal["VIDEO", "IMAGE"]) -> Any:
        from mediapipe.tasks.python import BaseOptions, vision

        model, num_hands, min_confidence = self._settings
        options = vision.HandLandmarkerOptions(
            base_options=BaseOptions(model_asset_path=str(hand_landmarker_path(model))),
            running_mode=getattr(vision.RunningMode, mode),
            num_hands=num_hands,
            min_hand_detection_confidence=min_confidence,
            min_hand_presence_confidence=min_confidence,
            min_tracking_confidence=min_confidence,
        )
        with native_logs_silenced():
            return vision.HandLandmarker.create_from_options(options)

    def _call(self, image: Any, t: float) -> Any:
        ms = max(self._last_ms + 1, round(t * 1000))
        if self._last_ms < 0:  # the first call logs its graph set-up
            with native_logs_silenced():
                result = self._landmarker.detect_for_video(image, ms)
        else:
            result = self._landmarker.detect_for_video(image, ms)
        self._last_ms = ms
        return result

    def detect(
        self, pixels: np.ndarray, crop: SeatCrop, frame_size: tuple[int, int], t: float
    ) -> list[Detection]:
        """Hands in ``pixels`` (the RGB crop of ``crop``), in the frame's coordinates."""
        import mediapipe as mp

        w, h = frame_size
        ch, cw = pixels.shape[:2]
        px0, py0 = round(self.pad * cw), round(self.pad * ch)
        if px0 or py0:
            import cv2

            pixels = cv2.copyMakeBorder(pixels, py0, py0, px0, px0, cv2.BORDER_REPLICATE)
        image = mp.Image(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(pixels))
        result = self._call(image, t)
        if self._tracked == self.num_hands and len(result.hand_landmarks) < self._tracked:
            # While every hand is tracked the palm detector is skipped, and after a loss it only
            # runs on the next call: make that call now (1 ms later) instead of a frame later.
            result = self._call(image, t)
        worlds = _world_arrays(result)
        if any(closed(world) for world in worlds):
            self._closed += 1
            if self._closed % RECHECK_EVERY == 0 and self._too_tight(image, result):
                self.restart()
                result = self._call(image, t)
                worlds = _world_arrays(result)
        self._tracked = len(result.hand_landmarks)
        pw, ph = pixels.shape[1], pixels.shape[0]
        out = []
        for i, hand in enumerate(result.hand_landmarks):
            local = np.array([(p.x, p.y, p.z) for p in hand], dtype=np.float64)
            px = local[:, 0] * pw - px0 + crop.x0
            py = local[:, 1] * ph - py0 + crop.y0
            landmarks = np.stack([px / w, py / h, local[:, 2] * pw / w], axis=1)
            world = worlds[i]
            score = result.handedness[i][0].score if result.handedness else 1.0
            bbox = (float(px.min()), float(py.min()), float(px.max()), float(py.max()))
            centre = np.array([px[list(PALM)].mean(), py[list(PALM)].mean()])
            size = float(max(bbox[2] - bbox[0], bbox[3] - bbox[1]))
            out.append(Detection(landmarks, world, float(score), centre, size, bbox))
        return out

    def restart(self) -> None:
        """Forget the tracked hands: the next call finds them afresh with the palm detector."""
        with native_logs_silenced():
            self._landmarker.close()
        self._landmarker = self._create("VIDEO")
        self._last_ms = -1  # a new landmarker: its own clock (and set-up logs)
        self._tracked = 0

    def _too_tight(self, image: Any, result: Any) -> bool:
        """Whether a fresh IMAGE-mode detection of ``image`` finds a hand at a tracked hand's
        place at least :data:`TIGHT_RATIO` times larger than the tracked reading."""
        if self._fresh is None:
            self._fresh = self._create("IMAGE")
        fresh = self._fresh.detect(image)

        def box(hand: Any) -> tuple[float, np.ndarray]:
            xy = np.array([(p.x, p.y) for p in hand])
            return float(np.ptp(xy, axis=0).max()), xy[list(PALM)].mean(axis=0)

        for fresh_hand in fresh.hand_landmarks:
            size, centre = box(fresh_hand)
            for hand in result.hand_landmarks:
                tracked, tracked_centre = box(hand)
                near = float(np.linalg.norm(centre - tracked_centre)) < 0.5 * max(size, tracked)
                if near and size >= TIGHT_RATIO * tracked:
                    return True
        return False

    def close(self) -> None:
        with native_logs_silenced():
            self._landmarker.close()
            if self._fresh is not None:
                self._fresh.close()


def _world_arrays(result: Any) -> list[np.ndarray]:
    """Each hand's world landmarks of a HandLandmarker result as a (21, 3) array (metres)."""
    return [np.array([(p.x, p.y, p.z) for p in hand], dtype=np.float64)
            for hand in result.hand_world_landmarks]


def closed(world: np.ndarray) -> bool:
    """Whether a hand's index or middle finger is folded: its tip nearer the wrist than its
    middle joint (PIP), from its (21, 3) world landmarks (metres; any view, any aspect)."""
    reach = np.linalg.norm(world[[8, 6, 12, 10]] - world[0], axis=1)
    return bool(reach[0] < reach[1] or reach[2] < reach[3])


def palm_size(landmarks: np.ndarray, width: int, height: int) -> float:
    """The palm's size in pixels: the longest side of the wrist / index knuckle / little-finger
    knuckle triangle (MediaPipe's own "baseline distance" of a hand; it does not change when the
    fingers bend)."""
    p = landmarks[[WRIST, INDEX_MCP, PINKY_MCP], :2] * (width, height)
    return float(max(np.linalg.norm(p[0] - p[1]), np.linalg.norm(p[1] - p[2]),
                     np.linalg.norm(p[2] - p[0])))


def merge_duplicates(dets: list[Detection], width: int, height: int) -> list[Detection]:
    """One landmarker's hands with each physical hand once.

    In VIDEO mode with room for a second hand, MediaPipe runs the palm detector next to the
    tracked hand and keeps a new detection whose box overlaps the tracked one by IoU < 0.5; its
    own deduplication then drops it only when ≥ 10 of the 21 landmarks agree. A tracked copy
    stuck on an old pose (a fist after the squeeze was released) or a garbled second reading
    passes both, and the one hand is reported twice at one place with two different poses.
    Here two hands whose palm centres lie within :data:`SAME_HAND` palm sizes are one hand (the
    palms of two real hands side by side are ≥ 1 palm size apart unless one covers the other),
    and the copy with the larger palm is kept: a wrong copy fits the hand into part of the real
    hand's pixels. On the rendered sample clips (the only video with duplicates and a known pose:
    frames whose truth shows the extended gun), the larger palm was the right copy in 262 of 266
    duplicate frames with the full model and 14 of 18 with lite; the newest copy in 174 of 266.
    """
    if len(dets) < 2:
        return dets
    sized = sorted(((palm_size(d.landmarks, width, height), d) for d in dets),
                   key=lambda pair: -pair[0])
    kept: list[tuple[float, Detection]] = []
    for size, det in sized:
        if all(float(np.linalg.norm(det.center - k.center)) >= SAME_HAND * max(size, k_size)
               for k_size, k in kept):
            kept.append((size, det))
    return [d for d in dets if any(d is k for _, k in kept)]


def forearm_seat(detection: Detection, seats: Iterable[int], table: Table, width: int,
                 height: int) -> int:
    """Of the candidate ``seats``, the one the hand's forearm points from.

    The forearm runs from the player to the wrist, along the hand's wrist→middle-knuckle
    direction ``d``. Each seat's player stands at its region's centre moved by one region size
    along its ``toward`` vector. A seat's cost is the distance of its player from the ray from the
    wrist along −d (players behind the wrist lose), plus the distance of the palm from the
    region's centre (a hand in the middle of one region and at the edge of another belongs to the
    first; this decides when the players of both seats lie along the forearm), both in region
    sizes. The cheapest seat wins.
    """
    lm = detection.landmarks[:, :2] * (width, height)
    d = lm[MIDDLE_MCP] - lm[WRIST]
    back = -d / (np.linalg.norm(d) or 1.0)
    best, best_cost = -1, math.inf
    for seat in seats:
        r = table.region(seat)
        poly = r.pixel_polygon(width, height)
        size = float(np.mean(np.ptp(poly, axis=0)))
        player = poly.mean(axis=0) + np.asarray(r.toward) * size
        v = player - lm[WRIST]
        along = float(v @ back)
        across = abs(float(v[0] * back[1] - v[1] * back[0]))
        off_centre = float(np.linalg.norm(detection.center - poly.mean(axis=0)))
        cost = (across + off_centre) / size + (0.0 if along > 0 else 1e6)
        if cost < best_cost:
            best, best_cost = seat, cost
    return best


def _tracked_at(det: Detection, tracked: dict[int, list[Track]]) -> int | None:
    """The seat whose confirmed track ``det`` continues (palm within one hand width; the most
    recently seen such track, then the nearest); None when it continues none."""
    best, best_key = None, (math.inf, math.inf)
    for seat, tracks in tracked.items():
        for tr in tracks:
            dist = float(np.linalg.norm(det.center - tr.detection.center))
            if dist <= max(det.width, tr.detection.width) and (-tr.t, dist) < best_key:
                best, best_key = seat, (-tr.t, dist)
    return best


def resolve_overlaps(found: dict[int, list[Detection]], table: Table, width: int,
                     height: int, tracked: dict[int, list[Track]] | None = None
                     ) -> dict[int, list[Detection]]:
    """Keep each physical hand at one seat: duplicates (palm centres within half a hand) from
    overlapping regions go to :func:`forearm_seat`. A hand found by one seat only that continues
    another examined seat's confirmed track (``tracked``) is the same kind of duplicate: a
    squeezing hand changes shape and its own seat's landmarker may lose it for a while while a
    neighbour's finds it; :func:`forearm_seat` decides between the two seats."""
    tracked = {s: tracks for s, tracks in (tracked or {}).items() if s in found}
    items = [(seat, d) for seat, dets in found.items() for d in dets]
    taken = [False] * len(items)
    out: dict[int, list[Detection]] = {seat: [] for seat in found}
    for i, (seat, det) in enumerate(items):
        if taken[i]:
            continue
        group = [i]
        for j in range(i + 1, len(items)):
            other_seat, other = items[j]
            if taken[j] or other_seat == seat:
                continue
            if np.linalg.norm(det.center - other.center) < 0.5 * max(det.width, other.width):
                group.append(j)
        for j in group:
            taken[j] = True
        seats = {items[j][0] for j in group}
        if len(group) == 1:
            seats.add(_tracked_at(det, tracked) or seat)
            winner = seat if len(seats) == 1 else forearm_seat(det, seats, table, width, height)
            out[winner].append(det)
            continue
        winner = forearm_seat(det, seats, table, width, height)
        out[winner].append(max((items[j] for j in group if items[j][0] == winner),
                               key=lambda sd: sd[1].score)[1])
    return out


@dataclass(slots=True)
class _Seat:
    crop: SeatCrop
    gate: SeatGate
    tracks: SeatTracks
    landmarker: Landmarker | None = None
    saw_hand: bool = False  # the landmarker found a hand in this crop on its last run
    restart: bool = False  # its landmarker is to find the hands afresh on its next run
    crowded: bool = False  # its one-hand landmarker held another seat's hand: it looks for two

    def drop_landmarker(self) -> None:
        """Close the seat's landmarker; its next run makes a new one."""
        if self.landmarker is not None:
            self.landmarker.close()
            self.landmarker = None


class SeatTracker:
    """Tracks the raised hands of every seat of a :class:`Table`, frame by frame.

    ``model`` picks the landmark model (``lite`` is about twice as fast as ``full``);
    ``hands_per_seat`` is the landmarker's ``num_hands`` (1 keeps VIDEO mode fast: with 2 the palm
    detector reruns every frame while only one hand is up; a one-hand seat whose landmarker
    holds another seat's hand looks for two until :meth:`reset`, :meth:`_crowd`);
    ``sweep_every`` is how many frames apart an inactive seat is examined (0: never);
    ``init_delay``/``hit_max`` set the hysteresis.
    With ``wake`` (for an ungated tracker) an inactive seat is also examined as soon as its crop
    changed since the landmarker last looked at it (its :class:`SeatGate`'s motion and skin): a
    hand rising after the tracker took over is found on its first frames, not at its seat's turn
    in the sweep (one seat a frame: ten frames apart at ten seats).
    """

    def __init__(
        self,
        table: Table,
        model: Literal["lite", "full"] = "lite",
        *,
        hands_per_seat: int = 1,
        sweep_every: int = 10,
        init_delay: int = 1,
        hit_max: int = 4,
        gate: bool = True,
        wake: bool = False,
        min_confidence: float = MIN_CONFIDENCE,
        crop_pad: float = CROP_PAD,
    ) -> None:
        hand_landmarker_path(model)  # fail early on a missing or corrupt model
        self.table = table
        self.model = model
        self.hands_per_seat = hands_per_seat
        self.sweep_every = max(0, sweep_every)
        self.init_delay = init_delay
        self.hit_max = hit_max
        self.use_gate = gate
        self.wake = wake
        self.min_confidence = min_confidence
        self.crop_pad = crop_pad
        self.active: set[int] = set(table.seat_numbers())
        self._seats: dict[int, _Seat] = {}
        self._size: tuple[int, int] | None = None
        self._sweep_pos = 0
        self._patches = PatchCutter()
        #: Per-frame counters of the last update (for benchmarks and previews).
        self.stats: dict[str, int] = {}

    def set_active(self, seats: Iterable[int] | None) -> None:
        """Seats examined every frame (``None``: all); the rest are swept at the low rate."""
        wanted = set(self.table.seat_numbers()) if seats is None else set(seats)
        unknown = wanted - set(self.table.seat_numbers())
        if unknown:
            raise InputError(
                f"seats {sorted(unknown)} are not in the table (seats: {self.table.seat_numbers()})"
            )
        self.active = wanted

    def _setup(self, width: int, height: int) -> None:
        self.table.check_frame_size(width, height)
        crops = seat_crops(self.table, width, height)
        self._release()
        self._seats = {
            seat: _Seat(crop, SeatGate(), SeatTracks(self.init_delay, self.hit_max))
            for seat, crop in crops.items()
        }
        self._size = (width, height)

    def due(self) -> list[int]:
        """The seats to examine in the next frame: all active ones, the inactive seats whose
        last examination found a hand not yet reported (a new track waits for a second hit,
        ``init_delay``: swept only every ``sweep_every`` frames, a raised hand was reported two
        sweeps after it rose), plus this frame's sweep."""
        pending = {s for s, seat in self._seats.items() if s not in self.active and any(
            not tr.confirmed for tr in seat.tracks.tracks)}
        inactive = [s for s in sorted(self._seats) if s not in self.active and s not in pending]
        due = sorted((self.active & set(self._seats)) | pending)
        if inactive and self.sweep_every:
            per_frame = math.ceil(len(inactive) / self.sweep_every)
            for k in range(per_frame):
                due.append(inactive[(self._sweep_pos + k) % len(inactive)])
            self._sweep_pos = (self._sweep_pos + per_frame) % len(inactive)
        return due

    def seat_hands(self, number: int) -> int:
        """The hands seat ``number``'s landmarker looks for (two at a crowded seat)."""
        return 2 if self._seats[number].crowded else self.hands_per_seat

    def _landmarker(self, number: int) -> Landmarker:
        """The seat's landmarker, made at its first use."""
        seat = self._seats[number]
        if seat.landmarker is None:
            seat.landmarker = Landmarker(
                self.model, self.seat_hands(number), self.min_confidence, self.crop_pad
            )
        return seat.landmarker

    def _detect_seat(self, frame: Frame, number: int) -> list[Detection]:
        """Run the seat's landmarker on its crop of ``frame``."""
        h, w = frame.image.shape[:2]
        seat = self._seats[number]
        c = seat.crop
        if seat.restart:
            seat.restart = False
            if seat.landmarker is not None:
                seat.landmarker.restart()
        return self._landmarker(number).detect(
            frame.image[c.y0 : c.y1, c.x0 : c.x1], c, (w, h), frame.t
        )

    def _detect(self, frame: Frame, seats: list[int]) -> dict[int, list[Detection]]:
        """Each listed seat's detections (overridden by the parallel trackers)."""
        return {number: self._detect_seat(frame, number) for number in seats}

    def update(self, frame: Frame) -> dict[int, list[HandObservation]]:
        """Examine the due seats of ``frame``; every seat's current hands (possibly held)."""
        h, w = frame.image.shape[:2]
        if self._size != (w, h):
            self._setup(w, h)
        due = self.due()
        jobs = []
        for number in due:
            seat = self._seats[number]
            c = seat.crop
            if not self.use_gate or seat.gate.should_run(
                frame.image[c.y0 : c.y1, c.x0 : c.x1],
                frame.t,
                seat.saw_hand or bool(seat.tracks.tracks),
                active=number in self.active,
            ):
                jobs.append(number)
        if self.wake:
            jobs += self._woken(frame, set(due))
        detected = {
            number: merge_duplicates(dets, w, h)
            for number, dets in self._detect(frame, jobs).items()
        }
        for number, dets in detected.items():
            self._seats[number].saw_hand = bool(dets)
        found = {
            number: [
                d
                for d in dets
                if self.table.region(number).contains(*d.center, w, h, margin=0.25 * d.width)
            ]
            for number, dets in detected.items()
        }
        self.stats = {"examined": len(jobs), "gated": len(due) - len(jobs)}
        tracked = {
            number: [tr for tr in seat.tracks.tracks if tr.confirmed]
            for number, seat in self._seats.items()
        }
        found = resolve_overlaps(found, self.table, w, h, tracked)
        self._crowd(detected, found)
        out: dict[int, list[HandObservation]] = {}
        for number, seat in self._seats.items():
            tracks = (
                seat.tracks.update(found[number], frame.t)
                if number in found
                else seat.tracks.reported()
            )
            fresh = number in found
            obs = [
                HandObservation(
                    seat=number,
                    t=frame.t,
                    landmarks=tr.detection.landmarks,
                    world=tr.detection.world,
                    score=tr.detection.score,
                    track=tr.id,
                    bbox=tr.detection.bbox,
                    held=held,
                    patch=None if held else self._patches.cut(
                        (number, tr.id), frame.image, tr.detection.landmarks),
                )
                for tr in tracks
                for held in [tr.held or not fresh]
            ]
            if obs:
                out[number] = obs
        self._patches.keep({(seat, o.track) for seat, hands in out.items() for o in hands})
        return out

    def _crowd(self, detected: dict[int, list[Detection]],
               found: dict[int, list[Detection]]) -> None:
        """A one-hand seat whose landmarker's hand is not the seat's (another seat's, or outside
        its region) looks for two hands from its next run: a landmarker follows the hand it
        holds, so with one hand it would follow the neighbour's for as long as that stays up
        and never see the seat's own (session 58: ``v76_ukrainian_first_hit_en``, at the hunt's
        tracker switch seat 2's landmarker took seat 3's gun and lost seat 2's for the rest of
        the night). With the two hands in its crop it tracks both without rerunning the palm
        detector."""
        if self.hands_per_seat != 1:
            return
        for number, dets in detected.items():
            seat = self._seats[number]
            if seat.crowded or not dets:
                continue
            kept = found.get(number, [])
            if not any(d is k for d in dets for k in kept):
                seat.crowded = True
                seat.drop_landmarker()

    def _woken(self, frame: Frame, due: set[int]) -> list[int]:
        """The inactive seats not due in ``frame`` whose crop changed since the landmarker last
        looked at them; every inactive due seat's crop is remembered as looked at."""
        woken = []
        for number, seat in self._seats.items():
            if number in self.active:
                continue
            c = seat.crop
            crop = frame.image[c.y0 : c.y1, c.x0 : c.x1]
            if number in due:
                seat.gate.looked(crop, frame.t)
            elif seat.gate.should_run(crop, frame.t, False):
                woken.append(number)
        return woken

    def restart(self, number: int) -> None:
        """Have seat ``number``'s landmarker find its hands afresh (palm detector) on its next
        run, instead of following the landmarks it read last (its tracks are kept)."""
        if number in self._seats:
            self._seats[number].restart = True

    def reset(self) -> None:
        """Forget every track and gate state (landmarkers are kept, except a crowded seat's:
        it looks for ``hands_per_seat`` hands again)."""
        for seat in self._seats.values():
            seat.tracks.reset()
            seat.gate.reset()
            seat.saw_hand = False
            if seat.crowded:
                seat.crowded = False
                seat.drop_landmarker()
        self._patches.reset()

    def close(self) -> None:
        """Release every landmarker."""
        self._release()

    def _release(self) -> None:
        for seat in self._seats.values():
            seat.drop_landmarker()

    def __enter__(self) -> SeatTracker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
