import numpy as np
import pytest

from mafiavision.samples.hand import View, count, gun, render, skeleton, squeeze_degrees


def _angle(kps: np.ndarray, a: int, b: int, c: int) -> float:
    u, v = kps[b] - kps[a], kps[c] - kps[b]
    return float(np.degrees(np.arccos(u @ v / np.linalg.norm(u) / np.linalg.norm(v))))


@pytest.mark.parametrize("bend", [0.0, 0.3, 0.6, 1.0])
def test_skeleton_bends_as_squeeze_degrees_says(bend: float) -> None:
    """PIP and DIP flex by 100° and 70° per unit of bend; MCP by 80° (so 500° for both at 1)."""
    assert squeeze_degrees(bend) == pytest.approx(500.0 * bend)
    kps = skeleton(gun(bend)).keypoints
    pip_dip = sum(_angle(kps, b, b + 1, b + 2) + _angle(kps, b + 1, b + 2, b + 3) for b in (5, 9))
    assert pip_dip == pytest.approx(2 * 170.0 * bend, abs=0.5)


@pytest.mark.parametrize("n", range(6))
def test_count_extends_n_fingers(n: int) -> None:
    pose = count(n)
    bends = [pose.index, pose.middle, pose.ring, pose.pinky]
    extended = sum(b == 0.0 for b in bends) + (pose.thumb == 0.0)
    assert extended == n


def test_count_rejects_six() -> None:
    with pytest.raises(ValueError, match=r"0\.\.5"):
        count(6)


def test_render_is_deterministic_and_pose_dependent() -> None:
    a = render(gun(0.3), View(30, 20), px_per_m=120)
    b = render(gun(0.3), View(30, 20), px_per_m=120)
    c = render(gun(0.7), View(30, 20), px_per_m=120)
    assert np.array_equal(a.shade, b.shade) and np.array_equal(a.alpha, b.alpha)
    assert a.alpha.sum() > 100  # the hand is there
    assert not np.array_equal(a.alpha, c.alpha)


@pytest.mark.parametrize(("yaw", "palm_side"), [(0.0, True), (180.0, False)])
def test_view_shows_palm_or_back(yaw: float, palm_side: bool) -> None:
    """Folded fingers curl toward the palm: seen from the palm they are nearer the camera, so the
    rendered keypoint of a curled fingertip lands on the palm in both views, but the thumb's
    side flips between palm and back views."""
    r = render(count(5), View(yaw, 0), px_per_m=120)
    thumb_x, pinky_x = r.keypoints[4, 0], r.keypoints[20, 0]
    assert (thumb_x > pinky_x) == palm_side
