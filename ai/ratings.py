"""Tournament statistics: scores with 95% intervals, Elo with its error, and the SPRT.

A game's points for an agent are the returns of the seats it held (1 a win, 0 a loss,
a share of a tie in between), so its score is its mean points. The interval is
Wilson's, which stays sensible at a score of 0 or 1 where the normal one shrinks to a
point (it counts a draw as half a win and half a loss, a little wider than needed when
there are many). Elo is the logistic transform of the score, and its error half the
width of the transformed interval, as cutechess-cli and fastchess report them.

For two agents on paired deals (the same deal twice, seats turned round) the pentanomial
counts, LOS and the SPRT follow fastchess: what is counted is each pair's points.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959964


@dataclass(frozen=True)
class Score:
    """An agent's results over some games."""

    games: int
    wins: int
    draws: int
    losses: int
    points: float

    @classmethod
    def of(cls, points: list[float]) -> Score:
        """The score of a list of per-game points, each in [0, 1]."""
        wins = sum(1 for p in points if p >= 1.0)
        losses = sum(1 for p in points if p <= 0.0)
        return cls(len(points), wins, len(points) - wins - losses, losses, sum(points))

    @property
    def rate(self) -> float:
        """Mean points per game."""
        return self.points / self.games if self.games else 0.0

    def interval(self) -> tuple[float, float]:
        """The 95% interval of the rate."""
        return wilson(self.points, self.games)


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate (95% by default)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = (
        z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    )
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(rate: float) -> float:
    """The Elo difference that predicts this expected score (infinite at 0 and 1)."""
    if rate <= 0.0:
        return -math.inf
    if rate >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / rate - 1.0)


@dataclass(frozen=True)
class Rating:
    """Score, its interval, and the Elo difference it implies, with its error."""

    score: Score
    low: float
    high: float

    @classmethod
    def of(cls, points: list[float]) -> Rating:
        """The rating of a list of per-game points."""
        score = Score.of(points)
        low, high = score.interval()
        return cls(score, low, high)

    @property
    def elo(self) -> float:
        """Elo difference against the opponents faced."""
        return elo(self.score.rate)

    @property
    def elo_error(self) -> float:
        """Half the width of the 95% interval, in Elo (infinite when it reaches 0 or 1)."""
        return (elo(self.high) - elo(self.low)) / 2


TRINOMIAL = (0.0, 0.5, 1.0)  # a game's score: loss, draw, win
PENTANOMIAL = (0.0, 0.25, 0.5, 0.75, 1.0)  # a pair's mean score: 0 to 2 points over two games


def trinomial(points: Sequence[float]) -> tuple[int, int, int]:
    """Losses, draws and wins among per-game points (a share of a tie is a draw)."""
    score = Score.of(list(points))
    return score.losses, score.draws, score.wins


def pentanomial(pair_points: Sequence[float]) -> tuple[int, int, int, int, int]:
    """How many paired deals scored 0, 0.5, 1, 1.5 and 2 points over their two games.

    A tie among three or more seats gives shares like 1/3: such a pair counts in the
    nearest half point, as the tie counts as a draw in `Score`.
    """
    counts = [0, 0, 0, 0, 0]
    for points in pair_points:
        counts[min(4, max(0, round(2 * points)))] += 1
    return counts[0], counts[1], counts[2], counts[3], counts[4]


def mean_and_variance(counts: Sequence[int], scores: Sequence[float]) -> tuple[float, float]:
    """The mean score of the counted outcomes and the variance of one outcome."""
    n = sum(counts)
    if n == 0:
        return 0.5, 0.0
    mean = sum(c * s for c, s in zip(counts, scores, strict=True)) / n
    variance = sum(c * (s - mean) ** 2 for c, s in zip(counts, scores, strict=True)) / n
    return mean, variance


def los(counts: Sequence[int], scores: Sequence[float]) -> float:
    """Likelihood of superiority: the chance the first agent is the stronger, from the normal
    approximation of its mean score (over games, or over paired deals as fastchess does)."""
    n = sum(counts)
    mean, variance = mean_and_variance(counts, scores)
    if n == 0 or variance <= 0.0:
        return 0.5 if mean == 0.5 else float(mean > 0.5)
    return 0.5 * (1.0 + math.erf((mean - 0.5) / math.sqrt(2.0 * variance / n)))


def expected_score(elo_difference: float) -> float:
    """The expected score of a player this many Elo above its opponent (logistic)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo_difference / 400.0))


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test between two Elo hypotheses (elo0: H0, elo1: H1).

    The log-likelihood ratio is the generalized one of fishtest and fastchess (logistic
    Elo): for each hypothesis, the distribution over the outcomes (a game's loss, draw and
    win, or a paired deal's five point totals) closest to the observed one whose mean is
    the hypothesis's expected score, and the ratio of their likelihoods. With paired deals
    the pentanomial counts are used: the pair's luck cancels, and the test decides sooner.
    """

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def bounds(self) -> tuple[float, float]:
        """The log-likelihood ratio below which H0 is accepted, and above which H1 is."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[int], scores: Sequence[float] = TRINOMIAL) -> float:
        """The log-likelihood ratio of H1 against H0 for outcomes counted by score."""
        if sum(counts) == 0:
            return 0.0
        # An outcome never seen yet counts as a thousandth, as in fastchess: the most
        # likely distribution must give every outcome some chance.
        regular = [c if c > 0 else 1e-3 for c in counts]
        total = sum(regular)
        observed = [c / total for c in regular]
        low = _closest(observed, scores, expected_score(self.elo0))
        high = _closest(observed, scores, expected_score(self.elo1))
        return total * sum(
            p * (math.log(h) - math.log(q)) for p, h, q in zip(observed, high, low, strict=True)
        )

    def decide(self, llr: float) -> str | None:
        """ "H1" (the first agent is stronger by elo1), "H0", or None (play on)."""
        lower, upper = self.bounds
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None

    def decision(self, points: list[float]) -> str | None:
        """The decision on per-game points (trinomial counts)."""
        return self.decide(self.llr(trinomial(points)))

    @classmethod
    def parse(cls, text: str) -> Sprt:
        """From "elo0=0 elo1=10 alpha=0.05 beta=0.05" (any subset, spaces or commas)."""
        values: dict[str, float] = {}
        for part in text.replace(",", " ").split():
            key, _, number = part.partition("=")
            if key not in ("elo0", "elo1", "alpha", "beta"):
                raise ValueError(f"--sprt takes elo0, elo1, alpha and beta, not {key!r}")
            try:
                values[key] = float(number)
            except ValueError:
                raise ValueError(f"--sprt {key} needs a number, not {number!r}") from None
            if not math.isfinite(values[key]):
                raise ValueError(f"--sprt {key} needs a finite number, not {number!r}")
        sprt = cls(**values)
        if not sprt.elo0 < sprt.elo1:
            raise ValueError(
                f"--sprt needs elo0 below elo1 (H1 says the first agent is elo1 stronger), "
                f"not elo0={sprt.elo0:g} elo1={sprt.elo1:g}"
            )
        if not (0 < sprt.alpha < 1 and 0 < sprt.beta < 1 and sprt.alpha + sprt.beta < 1):
            raise ValueError(
                f"--sprt needs alpha and beta between 0 and 1 and alpha + beta below 1, "
                f"not alpha={sprt.alpha:g} beta={sprt.beta:g}"
            )
        return sprt


def _closest(observed: Sequence[float], scores: Sequence[float], mean: float) -> list[float]:
    """The distribution over `scores` with this mean that is most likely to have produced
    the observed frequencies (Van den Bergh, "Comparing the approximations for the
    generalized log likelihood ratio of a multinomial distribution", proposition 1.1):
    p_i = observed_i / (1 + theta (score_i - mean)), theta the root of
    sum observed_i (score_i - mean) / (1 + theta (score_i - mean)) = 0."""
    low, high = -1.0 / (max(scores) - mean), -1.0 / (min(scores) - mean)

    def slope(theta: float) -> float:
        pairs = zip(observed, scores, strict=True)
        return sum(p * (s - mean) / (1 + theta * (s - mean)) for p, s in pairs)

    # The sum falls from +inf to -inf across the open interval: bisect to the root.
    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if slope(middle) > 0:
            low = middle
        else:
            high = middle
    theta = (low + high) / 2
    return [p / (1 + theta * (s - mean)) for p, s in zip(observed, scores, strict=True)]
