"""Real landmarks for the gesture tests: MediaPipe's own test landmarks, and a small fixed set of
real photos from ../shared/handdata run through the real HandLandmarker once per session.

Plain cached functions (not conftest fixtures) so other test folders' conftest files never clash;
each takes the ``handdata`` path from the root conftest fixture, which skips when it is absent."""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path

import numpy as np

from mafiavision.vision.hands import HandObservation
from mafiavision.vision.photo_hands import PhotoHand

TESTDATA = "mediapipe_testdata_landmarks"
_NO_BOX = (0.0, 0.0, 1.0, 1.0)  # recorded cuts keep no box: nothing downstream reads it

#: A fixed small set: the first photos (sorted by name) of each class, from the EVAL part
#: (EPSRC Set2; sign-language: odd-indexed students — see scripts/extract_handdata_landmarks.py).
PHOTO_CLASSES = [("epsrc", str(n)) for n in (1, 2, 4, 5)] + [("sign", str(n)) for n in range(10)]
PER_CLASS = 4


def _testdata(handdata: Path, name: str) -> dict[str, object]:
    return json.loads((handdata / TESTDATA / name / f"{name}_landmarks.json").read_text())


def mediapipe_world(handdata: Path, name: str) -> np.ndarray:
    """World landmarks (21, 3) of MediaPipe's expected output for its real test photo ``name``."""
    return np.asarray(_testdata(handdata, name)["world_landmarks_m_xyz"], dtype=np.float64)


def mediapipe_image(handdata: Path, name: str) -> np.ndarray:
    """Normalised image landmarks (21, 3) of the same expected output."""
    return np.asarray(_testdata(handdata, name)["landmarks_normalized_xyz"], dtype=np.float64)


def _eval_photos(handdata: Path) -> list[tuple[str, str, Path]]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
    from extract_handdata_landmarks import list_photos

    picked: dict[tuple[str, str], list[Path]] = {}
    for rel, source, label, part in list_photos(handdata):
        key = (source, label)
        if part == "eval" and key in PHOTO_CLASSES and len(picked.setdefault(key, [])) < PER_CLASS:
            picked[key].append(handdata / rel)
    return [(s, lab, p) for (s, lab), paths in sorted(picked.items()) for p in paths]


@cache
def real_photo_hands(handdata: Path) -> list[tuple[str, str, Path, PhotoHand | None]]:
    """(source, label, path, hand or None) for the fixed photo set, via real MediaPipe."""
    from mafiavision.vision.photo_hands import PhotoHandDetector, load_rgb

    out = []
    with PhotoHandDetector("full", max_hands=1) as detector:
        for source, label, path in _eval_photos(handdata):
            hands = detector.detect(load_rgb(path))
            out.append((source, label, path, hands[0] if hands else None))
    return out


def recorded_cut(path: Path, cut: int) -> dict[str, np.ndarray]:
    """Cut ``cut`` of a fixture of recorded cuts (``scripts/cut_recorded_seat.py``'s layout),
    its arrays by name without the cut's prefix."""
    with np.load(path) as f:
        return {k.split("_", 1)[1]: f[k] for k in f.files if k.startswith(f"{cut}_")}


def recorded_observations(data: dict[str, np.ndarray], *, networks: int | None = None
                          ) -> list[HandObservation]:
    """Every row of a :func:`recorded_cut` as the tracker gave it (seat 1): a fresh row with its
    finger patch, a cut of two networks with the second network's fresh reading. ``networks=1``
    reads a cut of two networks as the tracking network alone gave it."""
    two = "second" in data and networks != 1
    # a cut of numbers keeps no landmarker score (nothing that reads numbers reads it)
    scores = data["score"] if "score" in data else np.full(len(data["t"]), np.nan)

    def second(i: int) -> HandObservation | None:
        if not two or not data["second"][i]:
            return None
        return HandObservation(1, float(data["t"][i]),
                               data["second_landmarks"][i].astype(np.float64),
                               data["second_world"][i].astype(np.float64),
                               float(scores[i]), int(data["track"][i]), _NO_BOX)

    patched = "patch" in data
    return [
        HandObservation(1, float(data["t"][i]), data["landmarks"][i].astype(np.float64),
                        data["world"][i].astype(np.float64), float(scores[i]),
                        int(data["track"][i]), _NO_BOX, held=bool(data["held"][i]),
                        networks=2 if two else 1, second=second(i),
                        patch=data["patch"][i].astype(np.float32)
                        if patched and data["fresh"][i] else None)
        for i in range(len(data["t"]))
    ]


def recorded_frames(data: dict[str, np.ndarray], *, networks: int | None = None
                    ) -> list[tuple[float, list[HandObservation]]]:
    """A :func:`recorded_cut` frame by frame: (time, the hands seen then), every frame of the
    cut including those with no hand."""
    hands = recorded_observations(data, networks=networks)
    return [(float(t), [hands[i] for i in np.flatnonzero(data["t"] == t)])
            for t in data["times"]]
