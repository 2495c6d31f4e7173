"""Evaluation functions: how good a state looks for each seat, one module per game.

An evaluation takes any state (complete or a replica) and returns one number per
seat strictly between LOSS and WIN; terminal states score by their returns. The
games' evaluations are weighted sums of features whose weights live in
`ai/weights/<game>.toml`, so they can be tuned from data without touching code.
"""

from __future__ import annotations

import math
import operator
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol, cast

from p2pcards import games
from p2pcards.engine import State
from p2pcards.errors import P2PCardsError

WIN = 1000.0
LOSS = -1000.0
CLAMP = 0.9 * WIN
"""Non-terminal values stay inside this, so that any win beats any position."""

WEIGHTS_DIR = Path(__file__).parent / "weights"
MAX_WEIGHTS_BYTES = 1 << 20


class WeightsError(P2PCardsError, ValueError):
    """A weights file that is missing, malformed or lacks a weight."""


class Evaluation(Protocol):
    """A game's evaluation function."""

    def values(self, state: State) -> list[float]:
        """Every seat's value of `state`, each inside [LOSS, WIN]."""
        ...


def read_weights(path: Path, names: Sequence[str]) -> dict[str, float]:
    """The numbers `names` from a TOML weights file, every one required."""
    try:
        if path.stat().st_size > MAX_WEIGHTS_BYTES:  # a weights file is a few kilobytes
            raise WeightsError(f"weights {path} are over {MAX_WEIGHTS_BYTES} bytes")
        table = tomllib.loads(path.read_text(encoding="utf-8"))
        values = {name: table[name] for name in names}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise WeightsError(f"cannot read weights {path}: {err}") from None
    except RecursionError:  # tomllib recurses into nested arrays and tables
        raise WeightsError(f"cannot read weights {path}: nested too deep") from None
    except KeyError as err:
        raise WeightsError(f"weights {path} lack {err.args[0]!r}") from None
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values.values()):
        raise WeightsError(f"weights {path} must all be numbers")
    if not all(math.isfinite(v) for v in values.values()):  # inf or nan poisons every value
        raise WeightsError(f"weights {path} must all be finite")
    return {name: float(v) for name, v in values.items()}


def terminal_value(state: State, seat: int) -> float:
    """WIN for a sole winner, LOSS for a loser, in between for a shared win."""
    share = state.returns()[seat]
    return LOSS + (WIN - LOSS) * share


def weighted(vector: Sequence[float], features: Sequence[float]) -> float:
    """The dot product of weights and features."""
    return float(sum(map(operator.mul, vector, features)))


def relative(scores: Sequence[float], scale: float) -> list[float]:
    """Each seat's score minus the strongest opponent's, scaled and kept inside CLAMP."""
    n = len(scores)
    if n == 2:  # the common case, in the search's inner loop
        lead = scale * (scores[0] - scores[1])
        if lead > CLAMP:
            lead = CLAMP
        elif lead < -CLAMP:
            lead = -CLAMP
        return [lead, -lead]
    values = []
    for s in range(n):
        best_other = max((scores[o] for o in range(n) if o != s), default=0.0)
        values.append(max(-CLAMP, min(CLAMP, scale * (scores[s] - best_other))))
    return values


_LOADED: dict[tuple[str, Path | None], Evaluation] = {}


def evaluation(game_name: str, weights: Path | None = None, *, search: bool = False) -> Evaluation:
    """The evaluation function of a game, built by what its registration names
    (`GameInfo.evaluation`, or with `search` the search's `GameInfo.search_evaluation` where
    it names one) and its weights read once: the shipped ones, or the file `weights` (to
    compare two fits side by side)."""
    info = games.info(game_name)
    name = info.search_evaluation if search and info.search_evaluation else info.evaluation
    key = (name, weights)
    if key not in _LOADED:
        make = cast(Callable[..., Evaluation], games.resolve(name))
        _LOADED[key] = make() if weights is None else make(weights)
    return _LOADED[key]
