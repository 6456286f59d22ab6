"""Assemble a live game from its parts: record, game, tracker, gesture stages, ear, screen."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mafiavision.night.listener import Listener
from mafiavision.night.pipeline import Pipeline
from mafiavision.night.session import LiveSession
from mafiavision.ui.server import Server

#: During a hunt only the hunters matter: the other seats are looked at once a second (25 fps).
SWEEP_EVERY = 25


@dataclass
class Live:
    session: LiveSession
    server: Server


def open_game(record: Path, resume: bool, rules: str) -> Any:
    """The game with the record as its journal: a new record, or the old one replayed."""
    from mafiavision.rules import load_rules
    from mafiavision.rules.record import RecordWriter, replay, start_game

    if resume:
        game = replay(record)
        game.journal = RecordWriter.append_to(record)
        return game
    return start_game(record, load_rules(rules))


def build_pipeline(table_path: Path, source: str | int | Path, *, realtime: bool, model: str,
                   reopen: bool, workers: int = 1) -> Pipeline:
    """``model``: the landmark network(s) (``lite+full``: shots read from both,
    :mod:`mafiavision.vision.pairing`); a frame's seats are examined by two threads;
    ``workers`` 2: the hunt's landmarkers are shared with a second process instead
    (``scripts/bench_live.py --workers 2`` measures it)."""
    from mafiavision.vision.gestures import classify_seats
    from mafiavision.vision.numbers import NumberReader
    from mafiavision.vision.pairing import make_tracker
    from mafiavision.vision.shots import ShotConfig, ShotDetector
    from mafiavision.vision.sources import open_source
    from mafiavision.vision.table import Table
    from mafiavision.vision.workers import ParallelSeatTracker, ThreadedSeatTracker

    table = Table.load(table_path)
    shot_config = ShotConfig()
    hunt = (
        make_tracker(table, model, ParallelSeatTracker, sweep_every=SWEEP_EVERY)
        if workers == 2
        else make_tracker(table, model, ThreadedSeatTracker, threads=2, sweep_every=SWEEP_EVERY)
    )
    pipeline = Pipeline(
        lambda: open_source(source, realtime=realtime, report=pipeline.report),
        table,
        (hunt, make_tracker(table, model, ThreadedSeatTracker, threads=2, hands_per_seat=2)),
        lambda seat: ShotDetector(seat, shot_config),
        NumberReader,
        classify_seats,
        reopen=reopen,
        drop_late=reopen,
        shot_settle=shot_config.settle,
    )
    return pipeline


def build_listener(video: Path | None, microphone: str | None, pipeline: Pipeline) -> Listener:
    from mafiavision.audio.sources import stream_file, stream_microphone

    if video is not None:
        return Listener(lambda: stream_file(video, realtime=True), reopen=False)
    device: int | str | None = microphone
    if microphone is not None and microphone.isdigit():
        device = int(microphone)
    return Listener(lambda: stream_microphone(device), reopen=True, video_clock=pipeline.clock)


def build_live(*, record: Path, resume: bool, rules: str, table: Path, video: Path | None,
               camera: str | None, model: str, microphone: str | None, audio: bool, host: str,
               port: int, workers: int = 1) -> Live:
    game = open_game(record, resume, rules)
    if video is not None:
        source: str | int | Path = video
    else:
        assert camera is not None
        source = int(camera) if camera.isdigit() else camera
    pipeline = build_pipeline(table, source, realtime=video is not None, model=model,
                              reopen=video is None, workers=workers)
    listener = build_listener(video, microphone, pipeline) if audio else None
    session = LiveSession(game, pipeline=pipeline, listener=listener, source_name=str(source))
    return Live(session, Server(session, host=host, port=port))
