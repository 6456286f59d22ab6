"""``mafiavision callout`` on the rendered sample night clips matches their ground-truth words."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mafiavision.audio.callout import LiveCallout, callout_from_audio
from mafiavision.audio.sources import load_audio, stream_file
from mafiavision.audio.vad import SileroVAD
from mafiavision.cli import main

SAMPLES = Path(__file__).resolve().parents[2] / "sample_videos"
CLIPS = sorted(p.name[: -len(".truth.json")] for p in SAMPLES.glob("*.truth.json")
               if any(w["kind"] == "number" for w in json.loads(p.read_text())["words"]))


def _numbers(name: str) -> list[dict]:
    truth = json.loads((SAMPLES / f"{name}.truth.json").read_text())
    return [w for w in truth["words"] if w["kind"] == "number"]


def _counts(name: str) -> list[tuple[float, float | None, list[dict]]]:
    """Each count of the clip (a night may have several hunts: Triad) as (start, end, numbers):
    a count starts where the numbers start again from a lower one, and spans from the end of the
    previous count to the first word said after its own last number."""
    words = json.loads((SAMPLES / f"{name}.truth.json").read_text())["words"]
    counts: list[list[dict]] = []
    for w in words:
        if w["kind"] != "number":
            continue
        if not counts or w["number"] <= counts[-1][-1]["number"]:
            counts.append([])
        counts[-1].append(w)
    spans = []
    for i, numbers in enumerate(counts):
        start = 0.0 if i == 0 else counts[i - 1][-1]["offset"] + 0.2
        later = [w["onset"] for w in words if w["onset"] > numbers[-1]["offset"]]
        spans.append((start, min(later) - 0.05 if later else None, numbers))
    return spans


@pytest.mark.skipif(not CLIPS, reason="no sample clips with spoken numbers in sample_videos/")
@pytest.mark.parametrize("name", CLIPS)
def test_callout_cli_on_sample_clip(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    for start, end, words in _counts(name):
        args = ["callout", str(SAMPLES / f"{name}.mp4"), "--seats", str(len(words)),
                "--start", f"{start:.3f}", "--json"]
        if end is not None:
            args += ["--end", f"{end:.3f}"]
        assert main(args) == 0
        windows = json.loads(capsys.readouterr().out)["windows"]
        onsets = np.array([w["onset"] for w in windows])
        truth = np.array([w["onset"] for w in words])
        assert np.abs(onsets - truth).max() < 0.1, (start, onsets - truth)


@pytest.mark.skipif(not CLIPS, reason="no sample clips with spoken numbers in sample_videos/")
def test_live_path_on_a_sample_clip_with_a_preamble() -> None:
    name = CLIPS[0]
    words = _numbers(name)
    seats = list(range(1, len(words) + 1))
    live = LiveCallout(seats, SileroVAD())
    for chunk in stream_file(SAMPLES / f"{name}.mp4"):
        live.push(chunk)
    assert live.complete
    emitted = np.array([w.onset for w in live.windows])
    assert len(emitted) == len(words)
    assert np.abs(emitted - [w["onset"] for w in words]).max() < 0.1
    offline, _ = callout_from_audio(load_audio(SAMPLES / f"{name}.mp4"), seats, SileroVAD())
    assert [w.seat for w in offline.windows] == seats
