"""Tournament statistics: scores with 95% intervals, Elo with its error, and the SPRT.

A game's points for an agent are the returns of the seats it held (1 a win, 0 a loss,
a share of a tie in between), so its score is its mean points. The interval is
Wilson's, which stays sensible at a score of 0 or 1 where the normal one shrinks to a
point (it counts a draw as half a win and half a loss, a little wider than needed when
there are many). Elo is the logistic transform of the score, and its error half the
width of the transformed interval, as cutechess-cli and fastchess report them.
"""

from __future__ import annotations

import math
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


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test between two Elo hypotheses (elo0: H0, elo1: H1)."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def bounds(self) -> tuple[float, float]:
        """The log-likelihood ratio below which H0 is accepted, and above which H1 is."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, points: list[float]) -> float:
        """The log-likelihood ratio of H1 against H0 (normal approximation, as fishtest)."""
        n = len(points)
        if n < 2:
            return 0.0
        mean = sum(points) / n
        var = sum((p - mean) ** 2 for p in points) / n
        if var <= 0.0:
            return 0.0
        s0, s1 = (1 / (1 + 10 ** (-e / 400)) for e in (self.elo0, self.elo1))
        return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)

    def decision(self, points: list[float]) -> str | None:
        """ "H1" (the first agent is stronger by elo1), "H0", or None (play on)."""
        lower, upper = self.bounds
        value = self.llr(points)
        if value >= upper:
            return "H1"
        if value <= lower:
            return "H0"
        return None

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
        sprt = cls(**values)
        if not (0 < sprt.alpha < 1 and 0 < sprt.beta < 1 and sprt.elo1 != sprt.elo0):
            raise ValueError("--sprt needs 0 < alpha, beta < 1 and elo1 different from elo0")
        return sprt
