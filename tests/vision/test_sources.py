from __future__ import annotations

import contextlib
import threading
from fractions import Fraction
from pathlib import Path

import av
import cv2
import numpy as np
import pytest

from mafiavision.errors import InputError, MissingInputError
from mafiavision.vision.sources import (
    ImageFolderSource,
    LiveSource,
    RealtimeSource,
    SourceLostError,
    TruncatedInputError,
    UnsupportedInputError,
    VideoFileSource,
    open_source,
)

W, H = 96, 64
CODECS = {
    "mp4": "libx264",
    "mkv": "libx264",
    "mov": "libx264",
    "webm": "libvpx-vp9",
    "avi": "mpeg4",
}


def _image(i: int) -> np.ndarray:
    """A frame whose bright column moves with i (so frames can be told apart and located)."""
    img = np.full((H, W, 3), 30, np.uint8)
    img[:, (i * 7) % (W - 8) : (i * 7) % (W - 8) + 8] = 230
    return img


def _write(
    path: Path,
    times: list[float],
    *,
    rotation: int = 0,
    size: tuple[int, int] = (W, H),
    faststart: bool = True,
) -> Path:
    ext = path.suffix[1:]
    options = {"movflags": "+faststart"} if faststart and ext in ("mp4", "mov") else {}
    with av.open(str(path), "w", options=options) as container:
        stream = container.add_stream(CODECS[ext], rate=30)
        stream.width, stream.height = size
        stream.pix_fmt = "yuv420p"
        if ext != "avi":
            stream.codec_context.time_base = Fraction(1, 1000)
            stream.time_base = Fraction(1, 1000)
        if rotation:
            stream.set_display_rotation(rotation)
        for i, t in enumerate(times):
            img = cv2.resize(_image(i), size, interpolation=cv2.INTER_NEAREST)
            frame = av.VideoFrame.from_ndarray(img, format="rgb24")
            if ext != "avi":
                frame.pts, frame.time_base = round(t * 1000), Fraction(1, 1000)
            for packet in stream.encode(frame):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    return path


@pytest.mark.parametrize("ext", sorted(CODECS))
def test_video_formats_decode_with_stream_times(tmp_path: Path, ext: str) -> None:
    times = [i / 30 for i in range(20)]
    with open_source(_write(tmp_path / f"clip.{ext}", times)) as source:
        frames = list(source)
    assert [f.index for f in frames] == list(range(20))
    assert np.allclose([f.t for f in frames], times, atol=0.002)
    assert frames[0].image.shape == (H, W, 3) and frames[0].image.dtype == np.uint8
    # the bright column of frame 3 is where it was drawn (decoded content, RGB order kept)
    column = frames[3].image[:, :, 0].mean(axis=0).argmax()
    assert 21 <= column < 29


@pytest.mark.parametrize("ext", ["mp4", "mkv"])
def test_variable_frame_rate_times_come_from_the_stream(tmp_path: Path, ext: str) -> None:
    times = [0.0, 0.033, 0.050, 0.200, 0.210, 0.700, 0.733, 1.5, 1.52, 1.54]
    with open_source(_write(tmp_path / f"vfr.{ext}", times)) as source:
        got = [f.t for f in source]
    assert np.allclose(got, times, atol=0.0015)


@pytest.mark.parametrize(("every", "start", "prefetch"),
                         [(1, 0.0, 0), (3, 0.0, 0), (7, 0.2, 0), (1, 0.0, 4), (7, 0.2, 4)])
def test_frames_not_wanted_are_decoded_but_not_given(tmp_path: Path, every: int,
                                                     start: float, prefetch: int) -> None:
    times = [i / 30 for i in range(30)]
    path = _write(tmp_path / "clip.mp4", times)
    with VideoFileSource(path) as source:
        all_frames = list(source)
    with VideoFileSource(path, prefetch=prefetch) as source:
        got = list(source.frames(lambda t: t >= start and round(t * 30) % every == 0))
    want = [f for f in all_frames if f.t >= start and f.index % every == 0]
    assert [(f.index, f.t) for f in got] == [(f.index, f.t) for f in want]
    assert all(np.array_equal(a.image, b.image) for a, b in zip(got, want, strict=True))
    assert (source.decoded, source.last_t) == (30, pytest.approx(times[-1], abs=0.002))


@pytest.mark.parametrize(("every", "prefetch"), [(3, 0), (7, 4), (1, 0)])
def test_the_frames_skipped_before_the_last_given_can_be_taken_back(
    tmp_path: Path, every: int, prefetch: int
) -> None:
    """``skipped()`` gives the frames decoded but not wanted just before the frame given last,
    converted as a wanted frame would be, in order, once."""
    times = [i / 30 for i in range(30)]
    path = _write(tmp_path / "clip.mp4", times)
    with VideoFileSource(path) as source:
        all_frames = list(source)
    with VideoFileSource(path, prefetch=prefetch) as source:
        for frame in source.frames(lambda t: round(t * 30) % every == 0):
            back = source.skipped()
            want = all_frames[max(0, frame.index - every + 1):frame.index]
            assert [f.index for f in back] == [f.index for f in want]
            assert all(np.array_equal(a.image, b.image) and a.t == b.t
                       for a, b in zip(back, want, strict=True))
            assert source.skipped() == []


@pytest.mark.parametrize("ext", ["mp4", "mkv"])
def test_a_video_starting_after_its_audio_keeps_its_offset(tmp_path: Path, ext: str) -> None:
    """The picture at 0.5 s in a player is at 0.5 s here too, on the clock the audio track is
    read on (mafiavision.audio.sources): a recorder that starts the sound first must not shift
    the gestures against the spoken numbers."""
    from mafiavision.audio.sources import load_audio

    path = tmp_path / f"late.{ext}"
    with av.open(str(path), "w") as out:
        video = out.add_stream("libx264", rate=30)
        video.width, video.height, video.pix_fmt = W, H, "yuv420p"
        audio = out.add_stream("aac", rate=16000)
        audio.layout = "mono"
        for i in range(30):
            frame = av.VideoFrame.from_ndarray(_image(i), format="rgb24")
            frame.pts, frame.time_base = 15 + i, Fraction(1, 30)
            for packet in video.encode(frame):
                out.mux(packet)
        for packet in video.encode():
            out.mux(packet)
        for i in range(0, 20480, 1024):  # 1.28 s: the video (0.5–1.5 s) ends last
            sound = av.AudioFrame.from_ndarray(np.zeros((1, 1024), np.float32), format="flt",
                                               layout="mono")
            sound.sample_rate, sound.pts, sound.time_base = 16000, i, Fraction(1, 16000)
            for packet in audio.encode(sound):
                out.mux(packet)
        for packet in audio.encode():
            out.mux(packet)
    with open_source(path) as source:
        times = [f.t for f in source]
    assert np.allclose(times, [0.5 + i / 30 for i in range(30)], atol=0.002)
    assert load_audio(path).t0 < 0.05


@pytest.mark.parametrize(("rotation", "k"), [(90, 1), (180, 2), (270, 3)])
def test_rotation_metadata_is_honoured(tmp_path: Path, rotation: int, k: int) -> None:
    path = _write(tmp_path / "rot.mp4", [0.0, 1 / 30], rotation=rotation)
    with open_source(path) as source:
        image = next(iter(source)).image
    expected = np.rot90(_image(0), k=k)
    assert image.shape == expected.shape
    assert np.abs(image.astype(int) - expected.astype(int)).mean() < 12


def test_downscale_keeps_aspect(tmp_path: Path) -> None:
    path = _write(tmp_path / "big.mkv", [0.0, 0.04], size=(320, 180))
    with open_source(path, max_width=160) as source:
        assert next(iter(source)).image.shape == (90, 160, 3)


@pytest.mark.parametrize(("ext", "prefetch"), [("mkv", 0), ("mp4", 0), ("mkv", 4), ("mp4", 4)])
def test_truncated_file_yields_good_frames_then_says_where(tmp_path: Path, ext: str,
                                                           prefetch: int) -> None:
    path = _write(tmp_path / f"full.{ext}", [i / 30 for i in range(90)], size=(192, 128))
    data = path.read_bytes()
    cut = tmp_path / f"cut.{ext}"
    cut.write_bytes(data[: len(data) // 2])
    got = []
    with pytest.raises(TruncatedInputError, match=r"cut\.\w+: decoding stopped at t=\d") as err, \
            VideoFileSource(cut, prefetch=prefetch) as source:
        for frame in source:
            got.append(frame)
    assert 10 < len(got) < 90
    assert f"after {len(got)} frames" in str(err.value)
    assert "\n" not in str(err.value)
    with open_source(cut) as source:  # the frames of the source without a decoding thread
        want = []
        with contextlib.suppress(TruncatedInputError):
            want.extend(source)
    assert [(f.index, f.t) for f in got] == [(f.index, f.t) for f in want]


@pytest.mark.parametrize("taken", [0, 1, 20])
def test_a_reader_stopping_early_stops_the_decoding_thread(tmp_path: Path, taken: int) -> None:
    path = _write(tmp_path / "clip.mp4", [i / 30 for i in range(60)])
    with VideoFileSource(path, prefetch=4) as source:
        frames = source.frames()
        for _ in range(taken):
            next(frames)
    assert not any(t.name == "decoder" for t in threading.enumerate())


def test_mp4_cut_before_its_index_cannot_be_opened(tmp_path: Path) -> None:
    path = _write(tmp_path / "moov_at_end.mp4", [i / 30 for i in range(30)], faststart=False)
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(path.read_bytes()[:2000])
    with pytest.raises(InputError, match=r"cut\.mp4: not a readable video file"):
        open_source(cut)


@pytest.mark.parametrize(
    ("name", "content", "error", "message"),
    [
        ("missing.mp4", None, MissingInputError, "no such file or folder"),
        ("notes.txt", b"hello", UnsupportedInputError, "unsupported input"),
        ("garbage.mp4", b"\x00\x01garbage" * 100, InputError, "not a readable video file"),
        ("empty.mkv", b"", InputError, "not a readable video file"),
    ],
)
def test_bad_inputs_are_one_line_errors(
    tmp_path: Path, name: str, content: bytes | None, error: type[Exception], message: str
) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(error, match=message) as err:
        open_source(path)
    assert str(path) in str(err.value) and "\n" not in str(err.value)


def test_audio_only_file_has_no_video_stream(tmp_path: Path) -> None:
    path = tmp_path / "sound.mkv"
    with av.open(str(path), "w") as container:
        stream = container.add_stream("pcm_s16le", rate=8000)
        frame = av.AudioFrame.from_ndarray(
            np.zeros((1, 800), np.int16), format="s16", layout="mono"
        )
        frame.sample_rate = 8000
        for packet in stream.encode(frame):
            container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    with pytest.raises(InputError, match="has no video stream"):
        open_source(path)


def test_image_folder(tmp_path: Path) -> None:
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"f{i:02d}.png"), cv2.cvtColor(_image(i), cv2.COLOR_RGB2BGR))
    (tmp_path / "readme.txt").write_text("not an image")
    source = open_source(tmp_path, fps=10)
    assert isinstance(source, ImageFolderSource)
    frames = list(source)
    assert [f.t for f in frames] == pytest.approx([0.0, 0.1, 0.2])
    assert np.array_equal(frames[2].image, _image(2))


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({}, "no images"),
        ({"a.jpg": b"not a jpeg"}, "a.jpg: not a readable image"),
    ],
)
def test_bad_image_folders(tmp_path: Path, files: dict[str, bytes], message: str) -> None:
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    with pytest.raises(InputError, match=message):
        list(open_source(tmp_path))


def test_realtime_pacing_follows_the_file_clock(tmp_path: Path) -> None:
    times = [0.0, 0.1, 0.15, 0.5]
    now = [100.0]
    slept: list[float] = []

    def sleep(dt: float) -> None:
        slept.append(dt)
        now[0] += dt

    inner = VideoFileSource(_write(tmp_path / "pace.mkv", times))
    frames = list(RealtimeSource(inner, sleep=sleep, clock=lambda: now[0]))
    assert len(frames) == 4
    assert slept == pytest.approx([0.1, 0.05, 0.35], abs=0.002)
    assert isinstance(open_source(tmp_path / "pace.mkv", realtime=True), RealtimeSource)


class _FlakyCamera:
    """A reader that delivers ``frames`` frames, then drops out."""

    def __init__(self, frames: int) -> None:
        self.left = frames

    def read(self) -> np.ndarray | None:
        self.left -= 1
        return _image(self.left) if self.left >= 0 else None

    def close(self) -> None:
        pass


def test_live_source_retries_with_backoff_and_reports() -> None:
    # opens: fail, fail, 3 frames then drop, fail, 2 frames then drop, then fails for good
    plan: list[int | None] = [None, None, 3, None, 2]
    reports: list[str] = []
    sleeps: list[float] = []

    def opener() -> _FlakyCamera:
        step = plan.pop(0) if plan else None
        if step is None:
            raise OSError("device busy")
        return _FlakyCamera(step)

    source = LiveSource(
        "camera 0",
        opener,
        backoff=0.5,
        max_backoff=4.0,
        max_retries=4,
        report=reports.append,
        sleep=sleeps.append,
    )
    frames = []
    expected = r"camera 0: cannot open \(device busy\); gave up after 4"
    with pytest.raises(SourceLostError, match=expected):
        for frame in source:
            frames.append(frame)
    assert len(frames) == 5 and [f.index for f in frames] == list(range(5))
    assert source.dropouts == 2
    # back-off doubles per consecutive failure and restarts after frames arrive
    assert sleeps == [0.5, 1.0, 0.5, 1.0, 0.5, 1.0, 2.0, 4.0]
    assert reports[0] == "camera 0: cannot open (device busy); retry 1 in 0.5 s"
    assert "no frames (dropped out)" in reports[2]


def test_unreachable_stream_is_retried_then_given_up() -> None:
    reports: list[str] = []
    source = open_source("http://127.0.0.1:9/stream.mp4", max_retries=1, report=reports.append)
    with pytest.raises(SourceLostError, match=r"http://127.0.0.1:9/stream.mp4: cannot open"):
        list(source)
    assert len(reports) == 1 and "retry 1" in reports[0]


def test_absent_camera_is_retried_then_given_up() -> None:
    reports: list[str] = []
    with pytest.raises(SourceLostError, match="camera 7: cannot open"):
        list(open_source(7, max_retries=1, report=reports.append))
    assert reports == ["camera 7: cannot open (camera 7 cannot be opened); retry 1 in 0.5 s"]
