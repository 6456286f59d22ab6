from __future__ import annotations

import itertools

import numpy as np
import pytest

from mafiavision.audio.callout import (
    Alignment,
    AlignParams,
    LiveCallout,
    NoSpeechError,
    align,
    callout_from_audio,
    make_windows,
)
from mafiavision.audio.sources import load_audio, stream_file
from mafiavision.audio.vad import CHUNK_SECONDS, Segment, SileroVAD
from mafiavision.errors import InputError

from .conftest import Recording

ONSETS = [2.0, 2.9, 3.85, 4.7, 5.65, 6.5]  # a count of six, ~0.9 s apart


def words(onsets: list[float], dur: float = 0.35) -> list[Segment]:
    return [Segment(t, t + dur, 0.95, 1.0) for t in onsets]


def without(segs: list[Segment], i: int) -> list[Segment]:
    return segs[:i] + segs[i + 1 :]


W = words(ONSETS)
SLOW_ONSETS = [1.0, 2.3, 3.6, 4.9, 6.2, 7.5]  # a slower count, 1.3 s apart
SLOW = words(SLOW_ONSETS, 0.4)
LATE_ONSETS = [1.0, 2.3, 3.75, 4.9, 6.2, 7.5]  # the third number said 0.15 s late
LATE = words(LATE_ONSETS, 0.4)
CASES = {
    "clean": (W, ONSETS, 0.01),
    "merged 3+4": ([*W[:2], Segment(3.85, 5.05, 0.9, 1.0), *W[4:]], ONSETS, 0.12),
    "split 2": (
        [*W[:1], Segment(2.9, 3.0, 0.9, 1.0), Segment(3.1, 3.3, 0.9, 1.0), *W[2:]],
        ONSETS,
        0.01,
    ),
    "missed 5": (without(W, 4), ONSETS, 0.12),
    "missed last": (W[:-1], ONSETS, 0.15),
    "knock between 2 and 3": (
        sorted([*W, Segment(3.4, 3.48, 0.7, 0.8)], key=lambda s: s.start),
        ONSETS,
        0.01,
    ),
    "knocks before and after": (
        [Segment(0.5, 0.58, 0.6, 0.7), *W, Segment(7.3, 7.37, 0.6, 0.7)],
        ONSETS,
        0.01,
    ),
    "preamble": ([Segment(0.3, 1.5, 0.97, 1.0), *W], ONSETS, 0.01),
    "preamble in pieces": (
        [
            Segment(0.3, 0.7, 0.97, 1.0),
            Segment(0.8, 1.2, 0.97, 1.0),
            Segment(1.3, 1.5, 0.9, 1.0),
            *W,
        ],
        ONSETS,
        0.01,
    ),
    "preamble and a merged first pair": (
        [Segment(0.3, 1.5, 0.97, 1.0), Segment(2.0, 3.25, 0.9, 1.0), *W[2:]],
        ONSETS,
        0.12,
    ),
    # the pause after the preamble filled by noise: one segment, "one" starts at its rise
    "preamble run into the first number": (
        [Segment(0.3, 2.3, 0.97, 1.0, (2.0,)), *W[1:]],
        ONSETS,
        0.01,
    ),
    # music just before a word runs into it: the word starts at the segment's rise
    "lead-in before a word": (
        [*SLOW[:2], Segment(3.3, 4.0, 0.85, 1.0, (3.6,)), *SLOW[3:]],
        SLOW_ONSETS,
        0.01,
    ),
    # a chord attack (short, never quite sure) right before a word said a little late
    "unsure blip right before a word": (
        [*LATE[:2], Segment(3.5, 3.57, 0.7, 0.9), *LATE[2:]],
        LATE_ONSETS,
        0.01,
    ),
    "faint noise in a gap": (
        sorted([*W, Segment(5.1, 5.3, 0.55, 0.6)], key=lambda s: s.start),
        ONSETS,
        0.01,
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_aligner_on_segment_lists(name: str) -> None:
    segs, truth, tol = CASES[name]
    al = align(segs, len(truth))
    assert np.max(np.abs(np.array(al.onsets) - truth)) <= tol, (name, al.onsets)
    assert len(al.confidences) == len(truth)
    assert all(0.0 <= c <= 1.0 for c in al.confidences)


@pytest.mark.parametrize(
    ("segs", "n", "said"),
    [
        (W[:3], 6, 3),  # three numbers said so far
        ([Segment(0.3, 1.6, 0.97, 1.0)], 6, 0),  # only the preamble so far
        # a preamble said with dips between its words: its rises are not numbers yet
        ([Segment(0.3, 1.6, 0.97, 1.0, (0.8, 1.25))], 6, 0),
        ([Segment(0.3, 1.6, 0.97, 1.0), *W[:1]], 6, 1),
        (W, 6, 6),
    ],
)
def test_open_end_alignment_counts_the_words_said_so_far(
    segs: list[Segment], n: int, said: int
) -> None:
    al = align(segs, n, open_end=True)
    assert len(al.onsets) == said
    assert al.onsets == pytest.approx(ONSETS[:said], abs=0.01)


def test_interpolated_words_have_low_confidence() -> None:
    al = align(without(W, 3), 6)
    assert al.interpolated == [False, False, False, True, False, False]
    assert al.confidences[3] < min(al.confidences[:3])


@pytest.mark.parametrize(
    ("segs", "n", "error"),
    [
        ([], 5, NoSpeechError),
        (W, 0, InputError),
    ],
)
def test_aligner_errors(segs: list[Segment], n: int, error: type) -> None:
    with pytest.raises(error):
        align(segs, n)


def test_windows_follow_the_onsets_with_lead() -> None:
    al = align(W, 6)
    callout = make_windows([1, 2, 3, 4, 5, 6], al, lead=-0.1, between_gap=0.2)
    starts = [w.start for w in callout.windows]
    assert starts == pytest.approx([t - 0.1 for t in ONSETS], abs=0.01)
    for a, b in zip(callout.windows, callout.windows[1:], strict=False):
        assert a.end == b.start
    last = callout.windows[-1]
    assert last.end - last.start == pytest.approx(al.interval)


def test_recorded_count_with_preamble_and_knock(ru_count: Recording) -> None:
    callout, segments = callout_from_audio(load_audio(ru_count.path), ru_count.seats, SileroVAD())
    assert [w.seat for w in callout.windows] == ru_count.seats
    err = np.array([w.onset for w in callout.windows]) - ru_count.onsets
    assert np.abs(err).max() < 0.2, err
    assert len(segments) > len(ru_count.seats)  # the preamble is a segment too


def test_living_seats_count(en_living: Recording) -> None:
    callout, _ = callout_from_audio(load_audio(en_living.path), en_living.seats, SileroVAD())
    assert [w.seat for w in callout.windows] == [1, 3, 4, 7, 9]
    err = np.array([w.onset for w in callout.windows]) - en_living.onsets
    assert np.abs(err).max() < 0.2, err


def test_silence_is_no_speech_found(tmp_path) -> None:
    from .conftest import write_audio

    path = write_audio(tmp_path / "silence.wav", np.zeros(32000, dtype=np.float32))
    with pytest.raises(NoSpeechError, match="no speech found"):
        callout_from_audio(load_audio(path), [1, 2, 3], SileroVAD())


def test_live_path_fed_from_a_file(ru_count: Recording) -> None:
    live = LiveCallout(ru_count.seats, SileroVAD())
    known_at: dict[int, float] = {}
    statuses: dict[int, list[str]] = {s: [] for s in ru_count.seats}
    for chunk in stream_file(ru_count.path):
        for change in live.push(chunk):
            w = change.window
            known_at.setdefault(w.seat, chunk.t + CHUNK_SECONDS)
            statuses[w.seat].append(change.status)
            assert w.end > w.start
            assert 0.0 <= w.confidence <= 1.0
    assert live.complete
    assert list(known_at) == ru_count.seats
    # every window ends confirmed, exactly once, and nothing after that
    assert all(s[-1] == "confirmed" and s.count("confirmed") == 1 for s in statuses.values())
    onsets = np.array([w.onset for w in live.windows])
    assert np.abs(onsets - ru_count.onsets).max() < 0.2
    # known from the audio itself shortly after each word ends (audio time), the first too
    delays = np.array([known_at[s] for s in ru_count.seats]) - ru_count.offsets
    assert delays.max() < 0.2, delays
    final = live.finish()
    offline, _ = callout_from_audio(load_audio(ru_count.path), ru_count.seats, SileroVAD())
    assert [w.onset for w in final.windows] == pytest.approx(
        [w.onset for w in offline.windows], abs=1e-6
    )
    fixed = live.callout.windows
    assert all(a.end == b.start for a, b in itertools.pairwise(fixed))


LATER = words([t + 1.0 for t in ONSETS])  # the same count, one second later
SHORT_PREAMBLE = [Segment(0.3, 0.65, 0.95, 1.0), Segment(0.9, 2.2, 0.95, 1.0)]  # "Mafia" "goes…"


@pytest.mark.parametrize(
    ("segs", "expected"),
    [
        # word by word: each number released when its word ends, confirmed two numbers later
        (W[:4], [[(1, "released")], [(2, "released")], [(1, "confirmed"), (3, "released")],
                 [(2, "confirmed"), (4, "released")]]),
        # a long preamble is never released
        ([Segment(0.3, 1.5, 0.97, 1.0), *W[:2]], [[], [(1, "released")], [(2, "released")]]),
        # a short first preamble word is taken for seat 1 until the count's rhythm shows it is
        # not; seat 1 is revised onto "one" and confirmed two numbers later
        ([*SHORT_PREAMBLE, *LATER[:4]],
         [[(1, "released")], [], [(2, "released")], [(1, "revised"), (2, "revised")],
          [(1, "confirmed"), (3, "released")], [(2, "confirmed"), (4, "released")]]),
        # the last number completes the count: everything left is confirmed at once
        (W, [[(1, "released")], [(2, "released")], [(1, "confirmed"), (3, "released")],
             [(2, "confirmed"), (4, "released")], [(3, "confirmed"), (5, "released")],
             [(4, "confirmed"), (5, "confirmed"), (6, "confirmed")]]),
    ],
)
def test_live_windows_are_released_then_confirmed_or_revised(
    segs: list[Segment], expected: list[list[tuple[int, str]]]
) -> None:
    live = LiveCallout([1, 2, 3, 4, 5, 6], SileroVAD())
    for i, want in enumerate(expected):
        got = live._update(align(segs[: i + 1], 6, open_end=True))
        assert [(c.window.seat, c.status) for c in got] == want, i
    assert [w.onset for w in live.windows] == pytest.approx(
        [s.start for s in segs[-len(live.windows):]])
    assert live.complete == (len(live.windows) == 6)


def test_first_window_alone_is_half_sure_and_its_end_follows_the_next() -> None:
    live = LiveCallout([1, 2, 3], SileroVAD())
    (first,) = live._update(align(W[:1], 3, open_end=True))
    assert first.window.confidence == pytest.approx(0.5 * 0.95, abs=0.01)
    assert first.window.end == pytest.approx(ONSETS[0] + AlignParams().default_interval)
    live._update(align(W[:2], 3, open_end=True))
    assert live.windows[0].end == pytest.approx(ONSETS[1])
    assert live.windows[0].confidence > 0.9


def test_a_seat_no_longer_placed_is_withdrawn() -> None:
    live = LiveCallout([1, 2, 3], SileroVAD())
    live._update(Alignment([1.0, 2.0], [0.9, 0.9], [False, False], 1.0, 0.0))
    got = live._update(Alignment([1.0], [0.9], [False], 1.0, 0.0))
    assert [(c.window.seat, c.status) for c in got] == [(2, "withdrawn")]
    assert [w.seat for w in live.windows] == [1]


def test_seat_lists_are_checked() -> None:
    with pytest.raises(InputError, match="distinct"):
        LiveCallout([1, 1, 2], SileroVAD())


def test_params_are_plain_data() -> None:
    assert AlignParams().w_rhythm > 0


@pytest.mark.parametrize(
    ("placed", "now", "over"), [(6, 7.5, False), (6, 7.9, True), (5, 9.0, False)]
)
def test_count_is_over_once_complete_and_quiet(placed: int, now: float, over: bool) -> None:
    live = LiveCallout([1, 2, 3, 4, 5, 6], SileroVAD())
    live.segments = W[:placed]
    live._update(align(live.segments, 6, open_end=True))
    live.now = now
    assert live.over(quiet=1.0) == over
