"""Damaged and stripped copies of sample clips, written with PyAV (no ffmpeg binary needed)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from itertools import chain, takewhile
from pathlib import Path

import av
import numpy as np


def remux(src: Path, dst: Path, audio: bool = True) -> Path:
    """Copy the streams of ``src`` into ``dst`` (the container from its suffix) without
    re-encoding; ``audio=False`` leaves the audio track out."""
    with av.open(str(src)) as inp, av.open(str(dst), "w") as out:
        streams = [inp.streams.video[0]] + (list(inp.streams.audio[:1]) if audio else [])
        mapping = {s.index: out.add_stream_from_template(s) for s in streams}
        for packet in inp.demux(streams):
            if packet.dts is None:
                continue
            packet.stream = mapping[packet.stream.index]
            out.mux(packet)
    return dst


def truncated(src: Path, dst: Path, keep: float = 0.5) -> Path:
    """A Matroska copy of ``src`` cut after ``keep`` of its bytes (a recording that stopped)."""
    full = remux(src, dst.with_suffix(".full.mkv"))
    data = full.read_bytes()
    dst.write_bytes(data[: int(len(data) * keep)])
    full.unlink()
    return dst


def corrupt(dst: Path) -> Path:
    """A file named like a video that holds no video at all."""
    dst.write_bytes(b"\x00\x00\x00\x18ftypmp42" + bytes(range(256)) * 64)
    return dst


def _h264(dst: Path, images: Iterator[np.ndarray], rate: Fraction | int) -> Path:
    """RGB ``images`` (all of one size, at least one) written to ``dst`` as H.264 at ``rate``,
    no audio."""
    first = next(images)
    with av.open(str(dst), "w") as out:
        stream = out.add_stream("libx264", rate=rate)
        stream.width, stream.height, stream.pix_fmt = first.shape[1], first.shape[0], "yuv420p"
        stream.options = {"preset": "ultrafast"}
        for image in chain([first], images):
            for packet in stream.encode(av.VideoFrame.from_ndarray(image, format="rgb24")):
                out.mux(packet)
        for packet in stream.encode():
            out.mux(packet)
    return dst


def still_day(src: Path, dst: Path, seconds: float, fps: int = 30) -> Path:
    """A "day" of ``seconds``: the first frame of ``src`` (no hand raised) with sensor noise
    (±3 grey levels), H.264 at ``fps``, no audio."""
    with av.open(str(src)) as inp:
        first = next(inp.decode(video=0)).to_ndarray(format="rgb24")
    rng = np.random.default_rng(0)

    def noisy() -> Iterator[np.ndarray]:
        for _ in range(round(seconds * fps)):
            noise = rng.integers(-3, 4, first.shape, dtype=np.int16)
            yield np.clip(first.astype(np.int16) + noise, 0, 255).astype(np.uint8)

    return _h264(dst, noisy(), fps)


def head(src: Path, dst: Path, seconds: float) -> Path:
    """The first ``seconds`` of ``src``'s video, re-encoded (H.264 at its rate), no audio."""
    with av.open(str(src)) as inp:
        frames = takewhile(lambda f: f.time is None or f.time < seconds, inp.decode(video=0))
        return _h264(dst, (f.to_ndarray(format="rgb24") for f in frames),
                     inp.streams.video[0].average_rate)
