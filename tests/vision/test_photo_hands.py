"""Test-time-augmentation views of hands found on real photos (real MediaPipe), and their
combination."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from mafiavision.vision.photo_hands import (
    CANDIDATE_VIEWS,
    SECOND_VIEWS,
    WEAK_VOTE,
    PhotoHandDetector,
    View,
    combine_models,
    combine_views,
    load_rgb,
    vote_support,
    weak_vote,
)

EPSRC = "epsrc_finger_counting_human"
SIGN = "sign_language_digits_ardamavi"
NAN5 = [np.nan] * 5


@pytest.mark.parametrize(
    ("views", "expected"),
    [
        ([[0.2, 0.9, 0.9, 0.1, 0.1]], [0.2, 0.9, 0.9, 0.1, 0.1]),  # the photo alone
        # two views agree on index+middle, one says index only: the mean of the two
        (
            [[0.2, 0.9, 0.7, 0.1, 0.1], [0.2, 0.8, 0.3, 0.1, 0.1], [0.4, 0.7, 0.9, 0.1, 0.1]],
            [0.3, 0.8, 0.8, 0.1, 0.1],
        ),
        # a tie (index on two views, middle on two) goes to the photo's pattern, never 0 or 2
        (
            [[0, 0.1, 0.9, 0, 0], [0, 0.9, 0.1, 0, 0], [0, 0.3, 0.7, 0, 0], [0, 0.7, 0.3, 0, 0]],
            [0, 0.2, 0.8, 0, 0],
        ),
        ([[0.2, 0.9, 0.9, 0.1, 0.1], NAN5, NAN5], [0.2, 0.9, 0.9, 0.1, 0.1]),  # views found none
        # NaN rows do not vote: the two seen views outvote the photo
        (
            [[0.9, 0.9, 0, 0, 0], NAN5, [0.1, 0.9, 0, 0, 0], [0.3, 0.7, 0, 0, 0]],
            [0.2, 0.8, 0, 0, 0],
        ),
    ],
)
def test_combine_views_votes_on_the_finger_states(
    views: list[list[float]], expected: list[float]
) -> None:
    assert np.allclose(combine_views(np.array(views)), expected)
    batch = combine_views(np.array([views, views]))  # a leading batch axis
    assert batch.shape == (2, 5) and np.allclose(batch, expected)


@pytest.fixture(scope="module")
def detector() -> PhotoHandDetector:
    with PhotoHandDetector("full", max_hands=2) as det:
        yield det


@pytest.mark.parametrize(
    ("photo", "extended"),
    [
        (f"{SIGN}/5/IMG_1123.JPG", (1, 1, 1, 1, 1)),  # 100×100, the hand fills the photo
        (f"{EPSRC}/2/Set2_two_1.jpg", (0, 1, 1, 0, 0)),  # back of the hand, V
        (f"{EPSRC}/4/Set2_four_1.jpg", (0, 1, 1, 1, 1)),
    ],
)
def test_every_candidate_view_reads_a_clear_hand(
    detector: PhotoHandDetector, handdata: Path, photo: str, extended: tuple[int, ...]
) -> None:
    """Each view (mirrored, turned, cropped) finds the same hand and, on a clear pose, the same
    fingers: the features do not change under a turn, a scaling or a mirror."""
    from mafiavision.vision.fingers import finger_probabilities

    rgb = load_rgb(handdata / photo)
    (hand,) = detector.detect(rgb)[:1]
    views = detector.views(rgb, hand, CANDIDATE_VIEWS)
    read = [
        tuple(int(x) for x in finger_probabilities(w, lm) > 0.5) for lm, w in filter(None, views)
    ]
    assert len(read) >= len(CANDIDATE_VIEWS) - 2, views  # a view may miss the hand
    assert read.count(extended) >= len(read) - 1, read
    assert tuple(int(x) for x in detector.finger_probabilities(rgb, hand) > 0.5) == extended


def test_views_keep_to_their_hand_on_a_two_hand_photo(
    detector: PhotoHandDetector, handdata: Path
) -> None:
    """A crop around one hand that also shows the other reads the hand it was made for."""
    import cv2

    left = cv2.resize(load_rgb(handdata / SIGN / "5" / "IMG_1123.JPG"), (480, 480))
    right = load_rgb(handdata / EPSRC / "2" / "Set2_two_1.jpg")
    rgb = np.hstack([left, right])
    hands = sorted(detector.detect(rgb), key=lambda h: h.bbox[0])
    assert len(hands) == 2
    wide = (View(False, 0.0, 3.0), View(True, 0.0, 3.0))
    for hand, count in zip(hands, (5, 2), strict=True):
        for seen in detector.views(rgb, hand, wide):
            assert seen is not None
        assert int((detector.finger_probabilities(rgb, hand, wide) > 0.5).sum()) == count


P_ONE = [0.1, 0.9, 0.1, 0.1, 0.1]  # index only
P_TWO = [0.1, 0.9, 0.9, 0.1, 0.1]  # index + middle
P_THREE = [0.1, 0.9, 0.9, 0.9, 0.1]


@pytest.mark.parametrize(
    ("first", "support"),
    [
        ([P_ONE], 1),
        ([P_ONE, P_ONE, P_TWO], 2),
        ([P_ONE, NAN5, P_ONE, P_ONE, P_TWO], 3),  # a view that found no hand does not count
        ([P_ONE, P_TWO, P_TWO, P_THREE, P_THREE], 2),  # a tie: the photo's pattern is not on it
        ([P_TWO, P_TWO, P_TWO, P_TWO, P_TWO], 5),
    ],
)
def test_vote_support_counts_the_winning_pattern(first: list[list[float]], support: int) -> None:
    assert int(vote_support(np.array(first))) == support
    assert vote_support(np.array([first, first])).tolist() == [support, support]
    assert bool(weak_vote(np.array(first))) == (support < WEAK_VOTE)


@pytest.mark.parametrize(
    ("first", "second", "expected_count"),
    [
        # a strong vote (3 of 5) ignores the second model, however many of its views disagree
        ([P_TWO, P_TWO, P_TWO, P_ONE, P_ONE], [P_ONE] * 9, 2),
        # a weak vote (2 of 4 readings) is decided by both models' readings together
        ([P_TWO, P_TWO, P_ONE, P_ONE, NAN5], [P_ONE] * 5 + [NAN5] * 4, 1),
        ([P_TWO, P_ONE, P_THREE, NAN5, NAN5], [P_THREE, P_THREE, P_ONE], 3),
        # the second model found nothing: the main model's vote (the photo breaks the tie)
        ([P_TWO, P_ONE], [NAN5] * 9, 2),
    ],
)
def test_combine_models_asks_the_second_model_only_on_a_weak_vote(
    first: list[list[float]], second: list[list[float]], expected_count: int
) -> None:
    out = combine_models(np.array(first), np.array(second))
    assert int((out > 0.5).sum()) == expected_count
    assert np.allclose(combine_models(np.array(first), None), combine_views(np.array(first)))
    if not weak_vote(np.array(first)):
        assert np.allclose(out, combine_views(np.array(first)))


def test_second_model_reads_the_found_hand_on_its_views(handdata: Path) -> None:
    """The lite network reads the hand the full model found, on every view of SECOND_VIEWS,
    and a detector without a second model refuses to."""
    rgb = load_rgb(handdata / EPSRC / "4" / "Set2_four_1.jpg")
    with PhotoHandDetector("full", max_hands=1, second="lite") as det:
        (hand,) = det.detect(rgb)
        seen = det.views(rgb, hand, SECOND_VIEWS, second=True)
        assert len(seen) == len(SECOND_VIEWS)
        assert sum(s is not None for s in seen) >= len(SECOND_VIEWS) - 2
        assert int((det.finger_probabilities(rgb, hand) > 0.5).sum()) == 4
    with PhotoHandDetector("full", max_hands=1) as det, pytest.raises(ValueError, match="second"):
        det.views(rgb, hand, SECOND_VIEWS, second=True)


@pytest.mark.parametrize(
    ("photo", "alone", "label", "extended"),
    [
        (f"{EPSRC}/1/Set1_one_181.jpg", (0, 0, 0, 0, 1), 1, (0, 1, 0, 0, 0)),
        # with lite: three fingers, the label, but since session 30's thumb model the wrong
        # three (middle, ring, pinky; before: index, middle, ring)
        (f"{EPSRC}/3/Set1_three_208.jpg", (1, 1, 1, 1, 1), 3, None),
    ],
)
def test_the_lite_network_decides_a_weak_vote(
    detector: PhotoHandDetector,
    handdata: Path,
    photo: str,
    alone: tuple[int, ...],
    label: int,
    extended: tuple[int, ...] | None,
) -> None:
    """Fit-part photos whose full-model readings disagree: the full model alone picks a wrong
    pattern; with the lite network's views the vote reads the photo's label."""
    from mafiavision.vision.fingers import finger_probabilities

    rgb = load_rgb(handdata / photo)
    (hand,) = detector.detect(rgb)
    first = [(hand.landmarks, hand.world), *filter(None, detector.views(rgb, hand))]
    assert weak_vote(np.array([finger_probabilities(w, lm) for lm, w in first]))
    assert tuple(int(x) for x in detector.finger_probabilities(rgb, hand) > 0.5) == alone
    with PhotoHandDetector("full", max_hands=2, second="lite") as both:
        read = tuple(int(x) for x in both.finger_probabilities(rgb, hand) > 0.5)
        assert sum(read) == label
        if extended is not None:
            assert read == extended
