"""The bench's long game (``scripts/bench_analyze.py``) keeps each clip's timing, so its night is
judged as the clip alone. Regression: the bench wrote the 25 fps clips one frame per 1/30 s, their
picture ran 20 % ahead of their sound, and all of its nights were judged misses ("between
numbers") although every shot was found."""

import json

import numpy as np
import pytest

from mafiavision.analysis.events import Events
from tests.analysis.conftest import BENCH_CLIP, BENCH_DAY, SAMPLES, BatchRun

#: A shot found this close to the truth's deepest point is the same shot.
SHOT_TOLERANCE = 0.25


@pytest.fixture(scope="module")
def game(batch_run: BatchRun) -> Events:
    if "bench_game" not in batch_run.rows:
        pytest.skip(f"{BENCH_CLIP} is not among the sample clips")
    return Events.load(batch_run.out / "bench_game" / "events.json")


def truth() -> dict:
    return json.loads((SAMPLES / f"{BENCH_CLIP}.truth.json").read_text())


def test_the_clip_keeps_its_length_and_its_sound(batch_run: BatchRun, game: Events) -> None:
    from mafiavision.audio.sources import SAMPLE_RATE, stream_file

    clip = truth()["video"]
    assert game.source.fps == 30
    assert game.source.duration == pytest.approx(BENCH_DAY + clip["duration"], abs=1 / 30)
    sound = np.concatenate([c.samples for c in stream_file(SAMPLES / f"{BENCH_CLIP}.mp4")])
    copy = np.concatenate([c.samples for c in stream_file(batch_run.archive / "bench_game.mp4")])
    a, n = round(BENCH_DAY * SAMPLE_RATE), round((clip["duration"] - 1) * SAMPLE_RATE)
    lags = range(-SAMPLE_RATE // 10, SAMPLE_RATE // 10)
    lag = max(lags, key=lambda k: float(np.dot(sound[:n], copy[a + k:a + k + n])))
    assert abs(lag) <= SAMPLE_RATE // 200  # 5 ms


def test_the_night_is_judged_as_the_clip(game: Events) -> None:
    want = truth()["hunts"]
    assert len(game.hunts) == len(want)
    for hunt, expected in zip(game.hunts, want, strict=True):
        assert (hunt.verdict.outcome, hunt.verdict.target) == (expected["verdict"],
                                                               expected["target"])
        assert {m.seat: (m.kind, m.target) for m in hunt.verdict.members} == {
            o["seat"]: (o["kind"], o["number"] if o["kind"] == "shot" else None)
            for o in expected["observations"]}
    peaks = [(g["seat"], BENCH_DAY + g["peak"]) for g in truth()["gestures"]
             if g["kind"] == "shot"]
    for seat, peak in peaks:
        assert any(s.seat == seat and abs(s.t - peak) <= SHOT_TOLERANCE for s in game.shots)
