"""Spoken seat numbers → the window of time in which a shot counts for each seat.

The moderator says the called seats' numbers in order, so the k-th number word is the k-th called
seat: no recognition is needed, only an *ordinal alignment* of the speech segments to the words.
:func:`align` does it by dynamic programming over the "candidates": every segment's onset and
every *rise* inside a segment (speech resuming after a dip, see :class:`vad.Segmenter`):

* each word is either put on a candidate (its onset) or *missed* and interpolated between its
  neighbours (a word merged into the previous one's segment, or not heard at all);
* candidates left out between two words are a split word's second part or a rise (cheap), a
  knock or noise burst (cheap when short or faint), the lead-in of a segment whose word starts
  at a rise (music or noise just before the word), or a word (expensive); before the first word
  they are a preamble ("Mafia goes hunting…", cheap when longer than a number word);
* a word on a short, never quite sure piece right before another segment (a chord attack or a
  click just before the word) costs extra;
* the count's own rhythm is the main cost: the time between consecutive word onsets,
  over a grid of typical inter-onset intervals ``T``, costs ``w_rhythm * log(ioi / T)²``; the
  best ``T`` is part of the solution.

Windows: seat k's window is ``[onset_k + lead, onset_{k+1} + lead)``; the last one ends one
typical interval after its onset. A time within ``between_gap`` of the boundary between two
windows, and before the later number's onset, is "between numbers": the night arbiter
(:func:`mafiavision.night.arbiter.locate`) finds it and decides what it means under its rules.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from mafiavision.audio.sources import AudioChunk, AudioClip
from mafiavision.audio.vad import (
    CHUNK_SECONDS,
    Segment,
    Segmenter,
    SpeechScorer,
    chunks_of,
    detect_segments,
)
from mafiavision.errors import InputError


class NoSpeechError(InputError):
    """No speech found where the numbers should be."""


@dataclass(frozen=True)
class NumberWindow:
    """Where a shot counts for ``seat``: ``[start, end)``; ``onset`` is when its number starts."""

    seat: int
    start: float
    end: float
    onset: float
    confidence: float


@dataclass
class Callout:
    windows: list[NumberWindow]
    between_gap: float


@dataclass(frozen=True)
class AlignParams:
    """Costs of the aligner (tuned on one seeded synthetic set, checked on another)."""

    w_rhythm: float = 16.0
    miss: float = 2.5
    miss_in_speech: float = 0.5
    long_factor: float = 2.5
    max_word: float = 0.8
    long_word: float = 0.6
    skip_word: float = 3.0
    skip_noise: float = 0.4
    skip_lead: float = 0.1
    continuation: float = 0.3
    split_gap: float = 0.2
    min_ioi: float = 0.3
    max_jump: int = 5
    t_grid: tuple[float, float, int] = (0.4, 2.6, 28)
    default_interval: float = 1.0
    weak_score: float = 0.8
    w_duration: float = 1.0
    short: float = 0.12
    rise: float = 0.2
    skip_head: float = 1.0
    blip: float = 1.0
    blip_peak: float = 0.98
    head_rise: float = 0.5


@dataclass
class Alignment:
    onsets: list[float]
    confidences: list[float]
    interpolated: list[bool]
    interval: float
    cost: float
    segments: list[int | None] = field(default_factory=list)


def _skip_costs(segs: Sequence[Segment], p: AlignParams) -> np.ndarray:
    out = np.empty(len(segs))
    for i, s in enumerate(segs):
        if i > 0 and s.start - segs[i - 1].end < p.split_gap:
            out[i] = p.continuation
            continue
        wordness = min(1.0, s.duration / (2 * p.short)) * min(1.0, s.score / p.weak_score)
        out[i] = p.skip_noise + (p.skip_word - p.skip_noise) * wordness**2
    return out


@dataclass(frozen=True)
class _Candidates:
    """Where a word may start: every segment's onset and every rise inside a segment."""

    t: np.ndarray  # onset
    end: np.ndarray  # end of the segment it lies in
    segment: np.ndarray  # index of that segment
    rise: np.ndarray  # True for a rise inside a segment

    @classmethod
    def of(cls, segs: Sequence[Segment]) -> _Candidates:
        rows = sorted([(s.start, s.end, i, False) for i, s in enumerate(segs)]
                      + [(r, s.end, i, True) for i, s in enumerate(segs) for r in s.rises
                         if s.start < r < s.end])
        t, end, seg, rise = zip(*rows, strict=True)
        return cls(np.array(t), np.array(end), np.array(seg, dtype=np.int64),
                   np.array(rise, dtype=bool))


def _missed_in_speech(pts: np.ndarray, starts: np.ndarray, ends: np.ndarray, typical: float
                      ) -> np.ndarray:
    """Whether each interpolated onset falls inside speech, past the start of its segment by at
    least half a typical word: a word merged into the segment, not a word missing in silence."""
    idx = np.searchsorted(starts, pts, side="right") - 1
    safe = np.maximum(idx, 0)
    return (idx >= 0) & (pts < ends[safe]) & (pts - starts[safe] >= 0.5 * typical)


def _edge_misses(t: np.ndarray, ends: np.ndarray, grid: np.ndarray, n: int, typical: float,
                 p: AlignParams, direction: int) -> np.ndarray:
    """(grid, candidate, k): cost of k words missed before (direction 1) or after (-1) a
    candidate, one interval apart. Before the first word found they are missing (a word merged
    into a preamble cannot be told from the preamble); after the last one, a word still inside
    that last segment is merged into it (cheap)."""
    steps = np.arange(1, n)
    each = np.full((len(grid), len(t), n - 1), p.miss)
    if direction < 0:
        pts = t[None, :, None] + grid[:, None, None] * steps[None, None, :]
        merged = (pts < ends[None, :, None]) & (pts - t[None, :, None] >= 0.5 * typical)
        each = np.where(merged, p.miss_in_speech, each)
    return np.concatenate([np.zeros((len(grid), len(t), 1)), np.cumsum(each, axis=2)], axis=2)


def _group_ends(segs: Sequence[Segment], p: AlignParams) -> np.ndarray:
    """End of the pieces that follow each segment closely (gaps under ``split_gap``): a split
    word, or a phrase said in one breath."""
    out = np.empty(len(segs))
    group_end = segs[-1].end
    for i in range(len(segs) - 1, -1, -1):
        if i + 1 < len(segs) and segs[i + 1].start - segs[i].end >= p.split_gap:
            group_end = segs[i].end
        out[i] = group_end
    return out


def _choose_costs(score: np.ndarray, spans: np.ndarray, typical: float, p: AlignParams
                  ) -> np.ndarray:
    """Cost of a word starting at each candidate: faint, or shorter than the count's typical
    word (with the pieces of a split word that follow it)."""
    short = np.minimum(0.0, np.log(np.maximum(spans, 1e-3) / typical))
    return np.maximum(0.0, p.weak_score - score) * 4 + p.w_duration * short * short


def align(segments: Sequence[Segment], n_words: int, params: AlignParams | None = None,
          *, open_end: bool = False) -> Alignment:
    """Onsets of words 1..``n_words`` among ``segments``; see the module doc.

    ``open_end`` (live use): the count may still be going on, so the words after the last one
    found are not missed but not said yet; the result then holds only the words said so far
    (possibly none).
    """
    p = params or AlignParams()
    if n_words < 1:
        raise InputError(f"the number of called seats must be at least 1, not {n_words}")
    segs = sorted(segments, key=lambda s: s.start)
    if not segs:
        raise NoSpeechError("no speech found")
    cands = _Candidates.of(segs)
    t, ends, of = cands.t, cands.end, cands.segment
    m, n, jmax = len(t), n_words, p.max_jump
    grid = np.geomspace(p.t_grid[0], p.t_grid[1], p.t_grid[2])
    g = len(grid)
    # the start of a segment with a rise inside may be a lead-in (music, noise) to the word
    has_rise = np.array([bool(s.rises) for s in segs])[of] & ~cands.rise
    skip = np.where(cands.rise, p.continuation, _skip_costs(segs, p)[of])
    skip = np.where(has_rise, np.minimum(skip, p.skip_head), skip)
    cum = np.concatenate([[0.0], np.cumsum(skip)])  # cum[i] = skip cost of candidates < i
    seg_durs = np.array([s.duration for s in segs])
    wordlike = seg_durs[seg_durs >= p.short]
    typical = float(np.clip(np.median(wordlike) if len(wordlike) else p.short,
                            2 * p.short, p.max_word / 2))
    # before the first word / after the last: a long stretch is a phrase (a preamble), cheap
    durs = ends - t
    spans = _group_ends(segs, p)[of] - t
    long = durs > min(p.long_factor * typical, p.max_word)
    edge = np.where(long, p.skip_lead, skip)
    lead = np.concatenate([[0.0], np.cumsum(edge)])[:m]
    score = np.array([s.score for s in segs])[of]
    # a short, never quite sure piece right before a segment: a chord or click before the word
    nxt = np.array([i + 1 < len(segs) and segs[i + 1].start - s.end < p.split_gap
                    for i, s in enumerate(segs)])
    blip = np.array([s.duration < 2 * p.short and s.peak < p.blip_peak for s in segs]) & nxt
    choose = (_choose_costs(score, spans, typical, p) + np.where(long, p.long_word, 0.0)
              + np.where(cands.rise, p.rise, 0.0) + np.where(blip[of] & ~cands.rise, p.blip, 0.0))
    trail = np.concatenate([np.cumsum(edge[::-1])[::-1][1:], [0.0]])
    starts = np.array([s.start for s in segs])
    seg_ends = np.array([s.end for s in segs])
    inf = math.inf
    cost = np.full((g, m, n), inf)
    back_a = np.full((g, m, n), -1, dtype=np.int64)
    back_j = np.zeros((g, m, n), dtype=np.int64)
    log_grid = np.log(grid)[:, None]
    head_miss = _edge_misses(t, ends, grid, n, typical, p, 1)
    # the first word at a rise inside a phrase: "one" run into the preamble, or a word of it
    seg_long = np.array([s.duration for s in segs])[of] > min(p.long_factor * typical, p.max_word)
    head = choose + np.where(cands.rise & seg_long, p.head_rise, 0.0)
    for c in range(m):
        # start here: candidates before c are a preamble, words before k are missed
        cost[:, c, :] = lead[c] + head_miss[:, c, :] + head[c]
        if c == 0:
            continue
        dt = t[c] - t[:c]  # (c,)
        between = cum[c] - cum[1 : c + 1]  # skips strictly between a and c
        for j in range(1, min(jmax, n - 1) + 1):
            ioi = dt / j
            ok = ioi >= p.min_ioi
            if not ok.any():
                continue
            rhythm = p.w_rhythm * (np.log(np.maximum(ioi, 1e-3))[None, :] - log_grid) ** 2
            trans = j * rhythm + between[None, :]
            if j > 1:
                pts = t[:c, None] + dt[:, None] * (np.arange(1, j) / j)[None, :]
                inside = _missed_in_speech(pts, starts, seg_ends, typical)
                trans = trans + np.where(inside, p.miss_in_speech, p.miss).sum(axis=1)[None, :]
            trans[:, ~ok] = inf
            prev = cost[:, :c, : n - j] + trans[:, :, None]  # (g, c, n-j)
            best_a = prev.argmin(axis=1)  # (g, n-j)
            best = np.take_along_axis(prev, best_a[:, None, :], axis=1)[:, 0, :] + choose[c]
            better = best < cost[:, c, j:]
            cost[:, c, j:] = np.where(better, best, cost[:, c, j:])
            back_a[:, c, j:] = np.where(better, best_a, back_a[:, c, j:])
            back_j[:, c, j:] = np.where(better, j, back_j[:, c, j:])
    if open_end:
        tail = np.broadcast_to(trail[None, :, None], cost.shape)
    else:
        tail = trail[None, :, None] + _edge_misses(t, ends, grid, n, typical, p, -1)[
            :, :, ::-1]
    total = cost + tail
    gi, c, k = np.unravel_index(int(np.argmin(total)), total.shape)
    best_cost = float(total[gi, c, k])
    interval = float(grid[gi])
    if open_end and lead[-1] + edge[-1] < best_cost:  # nothing said yet: all preamble/noise
        return Alignment([], [], [], interval, float(lead[-1] + edge[-1]), [])
    said = int(k) + 1 if open_end else n
    anchors: dict[int, int] = {}
    while c >= 0:
        anchors[int(k)] = int(c)
        a, j = back_a[gi, c, k], back_j[gi, c, k]
        if a < 0:
            break
        c, k = a, k - j
    if len(anchors) < 2:  # one word found: the count has no rhythm yet
        interval = p.default_interval
    return _fill(cands, score, anchors, said, interval, best_cost, p)


def _fill(cands: _Candidates, score: np.ndarray, anchors: dict[int, int], n: int,
          interval: float, cost: float, p: AlignParams) -> Alignment:
    keys = sorted(anchors)
    onsets, conf, interp, seg_idx = [], [], [], []
    for k in range(n):
        if k in anchors:
            c = anchors[k]
            onsets.append(float(cands.t[c]))
            interp.append(False)
            seg_idx.append(int(cands.segment[c]))
            conf.append(float(np.clip(score[c], 0.0, 1.0)))
            continue
        lo = max((a for a in keys if a < k), default=None)
        hi = min((a for a in keys if a > k), default=None)
        if lo is not None and hi is not None:
            t_lo, t_hi = cands.t[anchors[lo]], cands.t[anchors[hi]]
            onsets.append(float(t_lo + (t_hi - t_lo) * (k - lo) / (hi - lo)))
        elif lo is not None:
            onsets.append(float(cands.t[anchors[lo]] + interval * (k - lo)))
        else:
            assert hi is not None
            onsets.append(float(cands.t[anchors[hi]] - interval * (hi - k)))
        interp.append(True)
        seg_idx.append(None)
        conf.append(0.3)
    # rhythm agreement lowers confidence where the inter-onset interval is off the typical one
    for k in range(n):
        iois = [onsets[i + 1] - onsets[i] for i in (k - 1, k) if 0 <= i < n - 1]
        if iois:
            dev = max(abs(math.log(max(x, 1e-3) / interval)) for x in iois)
            conf[k] *= math.exp(-p.w_rhythm * dev * dev / 4)
    return Alignment(onsets, [round(c, 3) for c in conf], interp, interval, cost, seg_idx)


def make_windows(seats: Sequence[int], alignment: Alignment, lead: float = 0.0,
                 between_gap: float = 0.15) -> Callout:
    """Windows ``[onset_k + lead, onset_{k+1} + lead)``; the last one lasts one interval."""
    on = alignment.onsets
    windows = []
    for i, seat in enumerate(seats):
        end = on[i + 1] + lead if i + 1 < len(on) else on[i] + lead + alignment.interval
        windows.append(NumberWindow(int(seat), on[i] + lead, end, on[i], alignment.confidences[i]))
    return Callout(windows, between_gap)


def _check_seats(seats: Sequence[int]) -> list[int]:
    out = [int(s) for s in seats]
    if not out:
        raise InputError("seats: at least one seat number must be called")
    if any(s < 1 for s in out) or len(set(out)) != len(out):
        raise InputError(f"seats: expected distinct seat numbers >= 1, got {out}")
    return out


def callout_from_audio(clip: AudioClip, seats: Sequence[int], detector: SpeechScorer, *,
                       params: AlignParams | None = None, lead: float = 0.0,
                       between_gap: float = 0.15) -> tuple[Callout, list[Segment]]:
    """Offline: the windows of the called ``seats`` (in calling order) in a recording."""
    seats = _check_seats(seats)
    segments = detect_segments(chunks_of(clip), detector)
    if not segments:
        raise NoSpeechError(f"{clip.name}: no speech found between {clip.t0:.2f} and "
                            f"{clip.end:.2f} s (voice detector: {detector.name})")
    return make_windows(seats, align(segments, len(seats), params), lead, between_gap), segments


LiveStatus = Literal["released", "revised", "confirmed", "withdrawn"]


@dataclass(frozen=True)
class LiveWindow:
    """A change to a live number window (see :class:`LiveCallout`)."""

    window: NumberWindow
    status: LiveStatus


class LiveCallout:
    """Streaming aligner: push 32 ms chunks as they arrive; each number's window is *known* —
    released — at the first chunk after its word ends, then confirmed (or revised).

    At the first chunk whose speech score drops after a word (:meth:`Segmenter.tentative`: the
    end of the word, ~100 ms before silero's score falls below the segment threshold in noise),
    the aligner re-runs over every segment so far with an open end (:func:`align`
    ``open_end=True``). :meth:`push` reports what changed as :class:`LiveWindow` s:

    * ``released``: the window is placed for the first time — known: its onset is the best one
      given the audio so far, its ``end`` is provisional (onset + the count's typical interval)
      until the next number is placed, and its confidence is the aligner's, halved while it is
      the only number placed (a first number has no rhythm yet, and a word of the preamble
      looks the same);
    * ``confirmed``: ``confirm_after`` later numbers are placed (or the count is complete) and
      the window did not move; its ``end`` and confidence are up to date;
    * ``revised``: a later word moved the best alignment and the window's onset changed (before
      or, rarely, after it was confirmed);
    * ``withdrawn``: the seat is not placed any more (released too early); it comes back
      ``released`` when its word is heard.

    Ends and confidences follow the alignment in :attr:`windows` between those reports. A missed
    word comes out, interpolated, with the next one. Once every number is placed the count is
    :attr:`complete`, but speech heard after it is still aligned (a preamble piece taken for
    seat 1 shows as one word too many, and the whole count is revised); :meth:`finish`
    re-aligns the whole count offline (what a recording of the night gives).
    """

    #: confidence factor of a window released while it is the only number placed
    FIRST_ALONE = 0.5

    def __init__(self, seats: Sequence[int], detector: SpeechScorer, *,
                 params: AlignParams | None = None, lead: float = 0.0,
                 between_gap: float = 0.15, segmenter: Segmenter | None = None,
                 confirm_after: int = 2) -> None:
        self.seats = _check_seats(seats)
        self.detector = detector
        self.params = params or AlignParams()
        self.lead = lead
        self.between_gap = between_gap
        self.segmenter = segmenter or Segmenter()
        self.confirm_after = confirm_after
        self.segments: list[Segment] = []
        self.windows: list[NumberWindow] = []
        self.confirmed: list[bool] = []  # per window
        self.complete = False  # every called number is placed
        self.now = 0.0  # end of the last chunk pushed
        self._aligned_to = -math.inf  # end of the last segment aligned
        detector.reset()

    def _put(self, seg: Segment) -> None:
        if self.segments and self.segments[-1].start == seg.start:
            self.segments[-1] = seg
        else:
            self.segments.append(seg)

    def push(self, chunk: AudioChunk) -> list[LiveWindow]:
        """Feed one chunk; returns the windows released, confirmed, revised or withdrawn."""
        score = self.detector.score(chunk.samples)
        self.now = now = chunk.t + CHUNK_SECONDS
        closed = self.segmenter.push(chunk.t, score)
        if closed is not None:
            self._put(closed)
        pause = self.segmenter.tentative(now)
        if pause is not None:
            self._put(pause)
        elif closed is None or closed.end <= self._aligned_to:
            return []  # nothing new (a closed segment was seen already when its word paused)
        self._aligned_to = self.segments[-1].end
        return self._update(align(self.segments, len(self.seats), self.params, open_end=True))

    def _update(self, al: Alignment) -> list[LiveWindow]:
        placed, n = len(al.onsets), len(self.seats)
        out = [LiveWindow(w, "withdrawn") for w in self.windows[placed:]]
        windows, confirmed = [], []
        for k in range(placed):
            onset = al.onsets[k]
            end = (al.onsets[k + 1] if k + 1 < placed else onset + al.interval) + self.lead
            conf = al.confidences[k] * (self.FIRST_ALONE if placed == 1 < n else 1.0)
            w = NumberWindow(self.seats[k], onset + self.lead, end, onset, round(conf, 3))
            old = self.windows[k] if k < len(self.windows) else None
            moved = old is not None and abs(old.onset - onset) > 1e-3
            # a window that just moved is confirmed only when the count is complete
            sure = placed == n or (k + self.confirm_after < placed and not moved)
            if sure and (old is None or moved or not self.confirmed[k]):
                out.append(LiveWindow(w, "confirmed"))
            elif moved:
                out.append(LiveWindow(w, "revised"))
            elif old is None:
                out.append(LiveWindow(w, "released"))
            windows.append(w)
            confirmed.append(sure)
        self.windows, self.confirmed = windows, confirmed
        self.complete = placed == n
        return out

    def over(self, quiet: float = 1.0) -> bool:
        """The count is complete, its last window has ended and no speech was heard for
        ``quiet`` seconds (a microphone can stop listening)."""
        return (self.complete and self.segmenter.open_onset is None
                and self.now >= max(self.windows[-1].end, self.segments[-1].end + quiet))

    @property
    def callout(self) -> Callout:
        """The current windows (each ending where the next one starts, once that is known)."""
        return Callout(list(self.windows), self.between_gap)

    def finish(self) -> Callout:
        """End of input: the whole count aligned offline over every segment heard."""
        last = self.segmenter.flush()
        if last is not None:
            self._put(last)
        if not self.segments:
            raise NoSpeechError("no speech found in the stream")
        al = align(self.segments, len(self.seats), self.params)
        return make_windows(self.seats, al, self.lead, self.between_gap)
