"""Tournament statistics: scores, Wilson intervals, Elo and the SPRT, against hand computations."""

import math

import pytest

from ai.ratings import (
    PENTANOMIAL,
    TRINOMIAL,
    Rating,
    Score,
    Sprt,
    elo,
    los,
    pentanomial,
    wilson,
)


def test_a_score_counts_wins_draws_and_losses() -> None:
    score = Score.of([1.0, 0.5, 0.0, 1.0])
    assert (score.games, score.wins, score.draws, score.losses) == (4, 2, 1, 1)
    assert score.rate == pytest.approx(0.625)


def test_wilson_interval_matches_a_hand_computation() -> None:
    # 6 of 12 with z = 1.96: centre 0.5, half-width 1.96 * sqrt(0.25/12 + 3.8416/576) / 1.3201
    low, high = wilson(6, 12)
    half = 1.959964 * math.sqrt(0.25 / 12 + 1.959964**2 / 576) / (1 + 1.959964**2 / 12)
    assert (low, high) == pytest.approx((0.5 - half, 0.5 + half))
    assert 0.25 < low < 0.26 and 0.74 < high < 0.75
    # At a perfect score the interval is not a point.
    assert wilson(10, 10) == pytest.approx((0.722, 1.0), abs=1e-3)


def test_elo_is_the_logistic_transform_of_the_score() -> None:
    assert elo(0.5) == 0.0
    assert elo(0.75) == pytest.approx(400 * math.log10(3))
    assert elo(0.25) == pytest.approx(-elo(0.75))
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf
    rating = Rating.of([1.0] * 6 + [0.0] * 4)
    assert rating.elo == pytest.approx(elo(0.6))
    assert rating.elo_error == pytest.approx((elo(rating.high) - elo(rating.low)) / 2)


def test_sprt_log_likelihood_ratio_matches_fishtest_and_fastchess() -> None:
    # Reference figures of fastchess's SPRT tests (logistic Elo, the generalized LLR).
    trinomial = (21184, 40708, 21404)  # losses, draws, wins
    assert Sprt(elo0=0.5, elo1=2.5).llr(trinomial) == pytest.approx(-1.57, abs=0.01)
    assert Sprt(elo0=0, elo1=2).llr((57030, 106593, 57433)) == pytest.approx(-2.59, abs=0.01)
    # Pairs scoring 0, 0.5, 1 (a win and a loss, or two draws), 1.5 and 2 points.
    pairs = (223, 9863, 20279 + 1000, 10037, 246)
    assert Sprt(elo0=0.5, elo1=2.5).llr(pairs, PENTANOMIAL) == pytest.approx(-3.07, abs=0.01)
    assert Sprt().bounds == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    assert Sprt().llr((0, 0, 0)) == 0.0


def test_pentanomial_counts_and_los() -> None:
    assert pentanomial([0.0, 2.0, 1.0, 1.0, 0.5, 1.5, 2 / 3]) == (1, 2, 2, 1, 1)
    assert los((10, 0, 10), TRINOMIAL) == pytest.approx(0.5)
    assert los((1, 0, 9), TRINOMIAL) > 0.99 > los((5, 0, 6), TRINOMIAL) > 0.5
    assert los((0, 0, 3), TRINOMIAL) == 1.0  # no variance yet: all wins
    assert los((), PENTANOMIAL[:0]) == 0.5


def test_sprt_decides_for_a_clearly_stronger_and_a_clearly_equal_agent() -> None:
    sprt = Sprt(elo0=0, elo1=50)
    assert sprt.decision([1.0, 0.0] * 3) is None
    assert sprt.decision([1.0, 1.0, 1.0, 0.0] * 40) == "H1"
    assert sprt.decision([1.0, 0.0] * 400) == "H0"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("elo2=3", "takes elo0"),
        ("elo1=x", "needs a number"),
        ("elo0=5 elo1=5", "elo0 below elo1"),
        ("elo0=10 elo1=0", "elo0 below elo1"),
        ("alpha=0", "alpha and beta between 0 and 1"),
        ("beta=1.5", "alpha and beta between 0 and 1"),
        ("alpha=0.6 beta=0.5", "alpha \\+ beta below 1"),
        ("elo1=nan", "finite"),
    ],
)
def test_bad_sprt_options_are_explained(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Sprt.parse(text)
