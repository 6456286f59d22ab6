"""Real table frames for the vision tests: EPSRC photos composed into the seats of a grid."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from mafiavision.vision.composite import compose, load_rgb
from mafiavision.vision.preview import Mp4Writer

SIZE = (1280, 720)


@pytest.fixture(scope="session")
def epsrc(handdata: Path) -> Path:
    return handdata / "epsrc_finger_counting_human"


@pytest.fixture(scope="session")
def photo(epsrc: Path) -> Callable[[str, int], np.ndarray]:
    """photo("3", k): the k-th photo (name order) of the folder of 3 fingers, RGB."""
    cache: dict[tuple[str, int], np.ndarray] = {}

    def get(folder: str, k: int) -> np.ndarray:
        if (folder, k) not in cache:
            cache[(folder, k)] = load_rgb(sorted((epsrc / folder).glob("*.jpg"))[k])
        return cache[(folder, k)]

    return get


@pytest.fixture(scope="session")
def background(epsrc: Path) -> np.ndarray:
    return load_rgb(epsrc / "no_hand_background" / "Set1_imbk.jpg")


@pytest.fixture(scope="session")
def table_frame(
    photo: Callable[[str, int], np.ndarray], background: np.ndarray
) -> Callable[[dict[int, np.ndarray]], np.ndarray]:
    """table_frame({seat: photo}) → a 1280x720 frame of a 4x3 grid, empty seats show the wall."""

    def make(hands: dict[int, np.ndarray]) -> np.ndarray:
        return compose([hands.get(s) for s in range(1, 13)], SIZE, background=background)

    return make


def write_clip(path: Path, frames: list[np.ndarray], fps: float = 30.0) -> Path:
    with Mp4Writer(path, frames[0].shape[1], frames[0].shape[0], faststart=True) as writer:
        for i, image in enumerate(frames):
            writer.write(image, i / fps)
    return path
