"""Write a clip: H.264 video + AAC audio in an MP4, with PyAV's bundled encoders."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path

import av
import numpy as np

AUDIO_FRAME = 1024  # samples per AAC frame


def write_clip(path: Path, frames: Iterable[np.ndarray], fps: int, audio: np.ndarray,
               sample_rate: int, *, crf: int = 30, audio_bitrate: int = 48_000) -> int:
    """Encode RGB uint8 frames and a mono float32 track; returns the number of video frames."""
    n = 0
    with av.open(str(path), "w", format="mp4") as out:
        video = None
        sound = out.add_stream("aac", rate=sample_rate, layout="mono")
        sound.bit_rate = audio_bitrate
        for img in frames:
            if video is None:
                video = out.add_stream("libx264", rate=fps)
                video.width, video.height = img.shape[1], img.shape[0]
                video.pix_fmt = "yuv420p"
                video.time_base = Fraction(1, fps)
                video.options = {"crf": str(crf), "preset": "medium",
                                 "x264-params": "keyint=50"}
                # a fixed thread count keeps the bitstream identical between runs
                video.thread_count = 1
            frame = av.VideoFrame.from_ndarray(img, format="rgb24")
            frame.pts = n
            out.mux(video.encode(frame))
            n += 1
        if video is None:
            raise ValueError(f"{path}: no frames to write")
        out.mux(video.encode(None))
        pcm = np.clip(audio, -1.0, 1.0).astype(np.float32)
        for start in range(0, len(pcm), AUDIO_FRAME):
            chunk = pcm[start:start + AUDIO_FRAME]
            if len(chunk) < AUDIO_FRAME:
                chunk = np.pad(chunk, (0, AUDIO_FRAME - len(chunk)))
            af = av.AudioFrame.from_ndarray(chunk[None, :], format="fltp", layout="mono")
            af.sample_rate = sample_rate
            af.pts = start
            af.time_base = Fraction(1, sample_rate)
            out.mux(sound.encode(af))
        out.mux(sound.encode(None))
    return n
