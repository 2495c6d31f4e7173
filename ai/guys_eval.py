"""The Rise of the Guys evaluation: life, the board, what the next combat will do, and cards
to come, per seat, minus the opponent's. The weights live in `ai/weights/rise-of-the-guys.toml`,
fitted to the AI's self-play by `scripts/tune_weights.py --game rise-of-the-guys`.

It reads only what the state may know: a face-down Guy counts as an unknown Guy (its stats
are hidden from the opponent's replica), the opponent's hand by its size.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ai.evaluation import WEIGHTS_DIR, read_weights, relative, terminal_value, weighted
from ai.tuning import OwnDecks
from p2pcards.engine import State
from p2pcards.games.rise_of_the_guys.state import BoardSums, GuysState
from p2pcards.interpreter import Bonus

GUYS_FEATURES = (
    "life", "danger", "board_attack", "board_health", "hidden_guys", "pressure", "hand", "deck",
    "vest", "lane_kills",
)  # fmt: skip


@dataclass(frozen=True)
class GuysWeights:
    """Weights of the evaluation, in the order of GUYS_FEATURES, and its scale."""

    vector: tuple[float, ...]
    scale: float

    @classmethod
    def load(cls, path: Path = WEIGHTS_DIR / "rise-of-the-guys.toml") -> GuysWeights:
        """The weights in a TOML file, every one required."""
        values = read_weights(path, [*GUYS_FEATURES, "scale"])
        return cls(tuple(values[name] for name in GUYS_FEATURES), values["scale"])


def guys_features(
    state: GuysState, seat: int, bonuses: dict[int, Bonus] | None = None
) -> tuple[float, ...]:
    """One seat's features (GUYS_FEATURES), from what `state` knows; `bonuses`: the static
    bonuses (`GuysState.bonuses`), if the caller has them."""
    boards = state.board_sums(state.bonuses() if bonuses is None else bonuses)
    return both_features(state, boards)[seat]


def both_features(
    state: GuysState, boards: tuple[BoardSums, BoardSums]
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Both seats' features (GUYS_FEATURES), from their `GuysState.board_sums`: this runs
    at every leaf of a search."""
    out = []
    for attack, health, hidden, pressure, kills, life, hand, deck, vest in boards:
        danger = 6 - life
        out.append(
            (
                float(life),
                float(danger if danger > 0 else 0),  # max() without the call: every leaf
                attack,
                health,
                hidden,
                pressure,
                float(hand),
                float(deck),
                1.0 if vest else 0.0,
                kills,
            )
        )
    return out[0], out[1]


class GuysEvaluation:
    """Each seat's weighted features minus the opponent's, in evaluation units."""

    def __init__(self, weights: GuysWeights) -> None:
        self.weights = weights

    def values(self, state: State) -> list[float]:
        """Both seats' values; terminal states by their returns."""
        assert isinstance(state, GuysState)
        if state.is_terminal():
            return [terminal_value(state, s) for s in range(2)]
        vector = self.weights.vector
        first, second = both_features(state, state.board_sums(state.bonuses()))
        scores = [weighted(vector, first), weighted(vector, second)]
        return relative(scores, self.weights.scale)


def make_evaluation(path: Path | None = None) -> GuysEvaluation:
    """The evaluation with the shipped weights, or those of the file `path`."""
    return GuysEvaluation(GuysWeights.load() if path is None else GuysWeights.load(path))


_GAINS = (
    "life", "board_attack", "board_health", "hidden_guys", "pressure", "hand", "deck", "lane_kills",
)  # fmt: skip
"""The features whose weight the fit holds at 0 or above."""
FIT = OwnDecks(
    "rise-of-the-guys", "Rise of the Guys", "ai/guys_eval.py", GuysState, guys_features,
    GuysWeights.load, lambda st: isinstance(st, GuysState) and st.phase() != "mulligan",
)  # fmt: skip
TUNING = FIT.tuning(
    GUYS_FEATURES,
    {
        "life": "per point of life",
        "danger": "per point of life below 6, on top of `life`",
        "board_attack": "attack of face-up Guys",
        "board_health": "health left of face-up Guys",
        "hidden_guys": "a face-down Guy whose card this state does not know",
        "pressure": "attack of unopposed, unprepared Guys: damage at the next combat",
        "hand": "cards in hand",
        "deck": "cards left in the deck (running out loses)",
        "vest": "a Pin in the Vest",
        "lane_kills": "unprepared Guys that kill the face-up Guy opposite at the next combat",
    },
    # Left free, a fit to self-play games (issue 28) put board_health and hidden_guys below
    # 0, which would have the search throw its own Guys away; more of what helps a seat is
    # held to help it. The Vest's Pin stays free: its worth is its ability, which the
    # board's static bonuses already count.
    {**dict.fromkeys(_GAINS, "nonnegative"), "danger": "nonpositive"},
)
"""How scripts/tune_weights.py fits the weights (the registration's `tuning`)."""
