"""Trackers sharing a frame's seats between cores: a pool of threads, or two processes.

:class:`ThreadedSeatTracker`: the due seats of a frame are examined by a pool of threads — each
landmarker call runs in MediaPipe's C++ code without the GIL and uses one core, and every seat
keeps its own landmarker, so the landmarks are the same as one thread's.

:class:`ParallelSeatTracker`: two landmarker processes, the main process and one worker.

One landmarker call uses one core, so on a 2-core machine a second process can halve a frame
with many seats. Each seat has a home (main or worker) so its VIDEO-mode landmarker keeps its
tracking state; homes alternate over the active seats, then the others, and are re-dealt when the
active set changes. Crops go to the worker through a pipe (a few hundred kB per frame). Whether
this helps depends on the machine being otherwise idle: scripts/bench_tracking.py measures it.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

from mafiavision.vision.hands import Landmarker, SeatTracker
from mafiavision.vision.sources import Frame
from mafiavision.vision.tracks import Detection


def _serve(conn: Connection, model: str, min_confidence: float, crop_pad: float) -> None:
    landmarkers: dict[int, Landmarker] = {}
    try:
        while True:
            jobs = conn.recv()
            if jobs is None:
                break
            out = {}
            for seat, pixels, crop, size, t, restart, hands in jobs:
                if seat in landmarkers and landmarkers[seat].num_hands != hands:
                    landmarkers.pop(seat).close()  # a crowded seat looks for two hands
                if seat not in landmarkers:
                    landmarkers[seat] = Landmarker(
                        model, hands, min_confidence, crop_pad  # type: ignore[arg-type]
                    )
                elif restart:
                    landmarkers[seat].restart()
                out[seat] = landmarkers[seat].detect(pixels, crop, size, t)
            conn.send(out)
    finally:
        for lm in landmarkers.values():
            lm.close()
        conn.close()


class ParallelSeatTracker(SeatTracker):
    """A :class:`SeatTracker` whose landmarkers run in two processes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        ctx = mp.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self._proc = ctx.Process(
            target=_serve,
            args=(child, self.model, self.min_confidence, self.crop_pad),
            daemon=True,
        )
        self._proc.start()
        child.close()
        self._home: dict[int, int] = {}
        self._deal()

    def set_active(self, seats: Iterable[int] | None) -> None:
        super().set_active(seats)
        self._deal()

    def _deal(self) -> None:
        order = sorted(self.active) + sorted(set(self.table.seat_numbers()) - self.active)
        self._home = {seat: k % 2 for k, seat in enumerate(order)}

    def _detect(self, frame: Frame, seats: list[int]) -> dict[int, list[Detection]]:
        h, w = frame.image.shape[:2]
        remote = [s for s in seats if self._home[s] == 1]
        jobs = []
        for s in remote:
            seat = self._seats[s]
            c = seat.crop
            jobs.append((s, frame.image[c.y0 : c.y1, c.x0 : c.x1].copy(), c, (w, h), frame.t,
                         seat.restart, self.seat_hands(s)))
            seat.restart = False
        if jobs:
            self._conn.send(jobs)
        out = super()._detect(frame, [s for s in seats if self._home[s] == 0])
        if jobs:
            out.update(self._conn.recv())
        return out

    def close(self) -> None:
        super().close()
        proc = getattr(self, "_proc", None)
        if proc is not None and proc.is_alive():
            self._conn.send(None)
            proc.join(timeout=5)
            if proc.is_alive():
                proc.terminate()
        if proc is not None:
            self._conn.close()
            self._proc = None


class ThreadedSeatTracker(SeatTracker):
    """A :class:`SeatTracker` whose due seats are examined by a pool of ``threads`` threads.

    Each seat's VIDEO-mode landmarker still sees every one of its crops in order (a frame's
    seats are all done before the next frame), so its landmarks do not depend on the threads.
    """

    def __init__(self, table: Any, *, threads: int, **kwargs: Any) -> None:
        super().__init__(table, **kwargs)
        self._pool = ThreadPoolExecutor(threads, "landmarker") if threads > 1 else None

    def _detect(self, frame: Frame, seats: list[int]) -> dict[int, list[Detection]]:
        if self._pool is None or len(seats) < 2:
            return super()._detect(frame, seats)
        jobs = {number: self._pool.submit(self._detect_seat, frame, number) for number in seats}
        return {number: job.result() for number, job in jobs.items()}

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
        super().close()
