"""Fixtures of the analysis tests: a headless Debian chromium (never a downloaded browser)."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest


def open_page(browser, path: Path) -> tuple[object, list[str]]:
    """Open a local HTML file; returns the page and the console errors / page errors seen."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("requestfailed", lambda r: errors.append(f"request failed: {r.url}"))
    page.goto(path.resolve().as_uri())
    page.wait_for_load_state("load")
    return page, errors


ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_videos"
#: The clips the analysis tests run on: a hit, a miss on another number, a miss between numbers,
#: two checks (one- and two-hand numbers) and night zero (the Don's orders, the Sheriff's raised
#: hand) — short ones, to keep the suite quick.
TEST_CLIPS = ("kharkiv_hit_ru", "kharkiv_miss_other_en", "ukrainian_miss_between_ru",
              "kharkiv_checks_en", "kharkiv_night_zero_ru")
#: The bench's long game in small: ``BENCH_DAY`` seconds of day, then this clip re-encoded at
#: 30 fps and 48 kHz (scripts/bench_analyze.py).
BENCH_CLIP, BENCH_DAY = "kharkiv_hit_ru", 2.0


def write_deal(game: str, path: Path) -> Path:
    """The deal of a sample clip as a club's moderator writes it, from the clip's truth (the
    tests' stand-in for the moderator's sheet; ``scripts/eval_analyze.py`` does the same)."""
    from scripts.eval_analyze import write_deal as from_truth

    return from_truth(json.loads((SAMPLES / f"{game}.truth.json").read_text()), path)


def _clips() -> list[Path]:
    return [SAMPLES / f"{name}.mp4" for name in TEST_CLIPS
            if (SAMPLES / f"{name}.mp4").exists() and (SAMPLES / f"{name}.truth.json").exists()]


@pytest.fixture(scope="session")
def sample_clips() -> list[Path]:
    clips = _clips()
    if not clips:
        pytest.skip(f"no sample clip of {TEST_CLIPS} in {SAMPLES}")
    return clips


@pytest.fixture(scope="session")
def sample_clip(sample_clips: list[Path]) -> Path:
    """The cheapest clip to analyse (no hunt: two checks)."""
    return next((c for c in sample_clips if c.stem == "kharkiv_checks_en"), sample_clips[0])


@dataclass(frozen=True)
class BatchRun:
    archive: Path
    out: Path
    rows: dict[str, object]  # game → GameRow


@pytest.fixture(scope="session")
def batch_run(sample_clips: list[Path], sample_clip: Path, tmp_path_factory) -> BatchRun:
    """One analyze-batch over the test clips (each with its ``<name>.deal.yaml``), a copy without
    audio, a truncated copy, a corrupt file and the bench's game in small (``bench_game``:
    ``BENCH_DAY`` s of day, then ``BENCH_CLIP`` re-encoded), on a local Dask cluster; every
    analysis test reads its results (each clip is analysed once per session)."""
    pytest.importorskip("mafiavision.night.arbiter",
                        reason="the night arbiter (branch live) is not merged yet")
    from mafiavision.analysis.batch import find_recordings, plan, run_batch
    from scripts.bench_analyze import build_game
    from tests.analysis.media_files import corrupt, remux, truncated

    archive = tmp_path_factory.mktemp("archive")
    table = sample_clip.with_name(sample_clip.stem + ".table.json")
    for clip in sample_clips:  # with their deals; the copies below have none
        (archive / clip.name).symlink_to(clip)
        (archive / f"{clip.stem}.table.json").symlink_to(clip.with_name(f"{clip.stem}.table.json"))
        write_deal(clip.stem, archive / f"{clip.stem}.deal.yaml")
    for name, make in (("noaudio.mp4", lambda p: remux(sample_clip, p, audio=False)),
                       ("truncated.mkv", lambda p: truncated(sample_clip, p)),
                       ("corrupt.mp4", corrupt)):
        make(archive / name)
        shutil.copy(table, archive / (Path(name).stem + ".table.json"))
    bench = SAMPLES / f"{BENCH_CLIP}.mp4"
    if bench in sample_clips:
        build_game([bench], BENCH_DAY, archive / "bench_game.mp4")
        shutil.copy(bench.with_name(f"{BENCH_CLIP}.table.json"), archive / "bench_game.table.json")
    out = tmp_path_factory.mktemp("batch")
    jobs = plan(find_recordings(str(archive)), out, "kharkiv", None)
    rows = run_batch(jobs, out, workers=2, progress=False)
    return BatchRun(archive, out, {r.game: r for r in rows})
