import shutil
from pathlib import Path

import pytest

from mafiavision.errors import InputError, MissingInputError
from mafiavision.vision.models import MODELS_DIR, ModelError, hand_landmarker_path


@pytest.mark.parametrize("variant", ["full", "lite"])
def test_bundled_models_verify(variant: str) -> None:
    path = hand_landmarker_path(variant)  # type: ignore[arg-type]
    assert path.exists() and path.name == f"hand_landmarker_{variant}.task"


def _copy_models(tmp_path: Path) -> Path:
    for name in ("SHA256SUMS", "hand_landmarker_lite.task"):
        shutil.copy(MODELS_DIR / name, tmp_path / name)
    return tmp_path


def test_missing_model_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(MissingInputError, match=r"full\.task: model file not found"):
        hand_landmarker_path("full", _copy_models(tmp_path))


def test_corrupt_model_is_a_clear_error(tmp_path: Path) -> None:
    models = _copy_models(tmp_path)
    data = bytearray((models / "hand_landmarker_lite.task").read_bytes())
    data[len(data) // 2] ^= 0xFF
    (models / "hand_landmarker_lite.task").write_bytes(bytes(data))
    with pytest.raises(ModelError, match=r"does not match SHA256SUMS.*corrupt"):
        hand_landmarker_path("lite", models)


def test_intact_copy_verifies(tmp_path: Path) -> None:
    assert hand_landmarker_path("lite", _copy_models(tmp_path)).parent == tmp_path


def test_unknown_variant() -> None:
    with pytest.raises(InputError, match="'full' or 'lite'"):
        hand_landmarker_path("huge")  # type: ignore[arg-type]
