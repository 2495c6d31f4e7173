"""The Rise of the Guys evaluation: life, the board, what the next combat will do, and cards
to come, per seat, minus the opponent's. The weights live in `ai/weights/rise-of-the-guys.toml`,
fitted to greedy games by `scripts/tune_weights.py --game rise-of-the-guys`.

It reads only what the state may know: a face-down Guy counts as an unknown Guy (its stats
are hidden from the opponent's replica), the opponent's hand by its size.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ai.evaluation import WEIGHTS_DIR, read_weights, relative, terminal_value, weighted
from ai.tuning import OwnDecks
from p2pcards.engine import State
from p2pcards.games.rise_of_the_guys.state import GuysState, LaneGuy
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
    state: GuysState,
    seat: int,
    bonuses: dict[int, Bonus] | None = None,
    lanes: tuple[list[LaneGuy | None], list[LaneGuy | None]] | None = None,
) -> tuple[float, ...]:
    """One seat's features (GUYS_FEATURES), from what `state` knows; `bonuses`: the static
    bonuses (`GuysState.bonuses`), and `lanes` both seats' (`GuysState.lanes`), if the
    caller has them."""
    if lanes is None:
        if bonuses is None:
            bonuses = state.bonuses()
        lanes = (state.lanes(0, bonuses), state.lanes(1, bonuses))
    mine, theirs = lanes[seat], lanes[1 - seat]
    attack = health = hidden = pressure = kills = 0.0
    for guy, foe in zip(mine, theirs, strict=True):
        if guy is None:
            continue
        if guy.hidden:
            hidden += 1.0
            continue
        atk = guy.attack
        attack += atk
        health += max(0, guy.health - guy.damage)
        if guy.prepared:
            continue
        if foe is None:
            pressure += atk
        elif not foe.face_down and atk >= foe.health - foe.damage:
            kills += 1.0  # the Guy opposite dies at the next combat
    life = state.life(seat)
    return (
        float(life),
        float(max(0, 6 - life)),
        attack,
        health,
        hidden,
        pressure,
        float(state.hand_size(seat)),
        float(state.deck_size(seat)),
        1.0 if state.vest(seat) >= 0 else 0.0,
        kills,
    )


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
        bonuses = state.bonuses()
        lanes = (state.lanes(0, bonuses), state.lanes(1, bonuses))
        scores = [weighted(vector, guys_features(state, s, lanes=lanes)) for s in range(2)]
        return relative(scores, self.weights.scale)


def make_evaluation(path: Path | None = None) -> GuysEvaluation:
    """The evaluation with the shipped weights, or those of the file `path`."""
    return GuysEvaluation(GuysWeights.load() if path is None else GuysWeights.load(path))


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
)
"""How scripts/tune_weights.py fits the weights (the registration's `tuning`)."""
