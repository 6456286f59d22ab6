"""The moderator's voice in a recording: the speech segments of its audio track (once, for the
whole file), and the number windows of one count (``audio.callout``, as the live night does)."""

from __future__ import annotations

from collections.abc import Sequence

from mafiavision.analysis.media import MediaInfo

#: Seconds around a boundary between two numbers where a shot is "between numbers" (the live
#: night's default).
BETWEEN_GAP = 0.15


def speech_segments(info: MediaInfo) -> tuple[list | None, str | None]:
    """The voice segments of the audio track, or (None, why) for a vision-only analysis."""
    from mafiavision.audio.sources import stream_file
    from mafiavision.audio.vad import detect_segments, make_detector
    from mafiavision.errors import InputError

    if not info.has_audio:
        return None, f"{info.path.name} has no audio track"
    try:
        segments = detect_segments(stream_file(info.path), make_detector("auto"))
    except InputError as exc:
        return None, f"the audio track cannot be used ({exc})"
    if not segments:
        return None, "no speech was found in the audio track"
    return segments, None


def count_windows(segments: list | None, start: float, end: float, seats: Sequence[int]
                  ) -> tuple[list, float, dict[int, float]]:
    """The number windows of the count spoken in [start, end], the between-numbers gap and when
    each number's word ended (where the speech shows it); no windows without speech there."""
    from mafiavision.audio.callout import align, make_windows
    from mafiavision.night.listener import word_ends

    inside = [s for s in segments or [] if s.end > start and s.start < end]
    if not inside:
        return [], BETWEEN_GAP, {}
    alignment = align(inside, len(seats))
    callout = make_windows(list(seats), alignment, between_gap=BETWEEN_GAP)
    return (callout.windows, callout.between_gap,
            word_ends(list(seats), alignment.segments, inside))
