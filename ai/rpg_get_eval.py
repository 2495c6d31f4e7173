"""The RPG Get! evaluation: victory points, reward counters, the party and what it carries,
cards to come, and the mission attempt in progress, per seat, minus the strongest other
seat's. The weights live in `ai/weights/rpg-get.toml`; `scripts/tune_weights.py --game
rpg-get` fits them to played games, each weight held to the sign `SENSES` gives it.

It reads only what the state may know: the other seats' hands, banks and decks by their
sizes, everything in play (public) by its cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ai.evaluation import WEIGHTS_DIR, read_weights, relative, terminal_value, weighted
from ai.tuning import OwnDecks, Sign
from p2pcards.engine import State
from p2pcards.games.rpg_get.state import RpgGetState

RPG_GET_FEATURES = (
    "vp", "counters", "party_hp", "party_attack", "characters", "inventory", "bank", "hand",
    "deck", "attempt", "active_attack", "foes", "ailments", "unmatched",
)  # fmt: skip


@dataclass(frozen=True)
class RpgGetWeights:
    """Weights of the evaluation, in the order of RPG_GET_FEATURES, and its scale."""

    vector: tuple[float, ...]
    scale: float

    @classmethod
    def load(cls, path: Path = WEIGHTS_DIR / "rpg-get.toml") -> RpgGetWeights:
        """The weights in a TOML file, every one required."""
        values = read_weights(path, [*RPG_GET_FEATURES, "scale"])
        return cls(tuple(values[name] for name in RPG_GET_FEATURES), values["scale"])


def rpg_get_features(state: RpgGetState, seat: int) -> tuple[float, ...]:
    """One seat's features (RPG_GET_FEATURES), from what `state` knows."""
    has = state.seat_sums(seat)
    mission = foes = 0
    if state.attempter == seat:
        on = state.zone_slots("mission")
        mission = state.card(on[0]).vp if on else 0
        for s in state.zone_slots("enemies"):
            foes += state.hp_left(s)
    # Enemy HP the active party cannot fell in one round: unlike `active_attack`, it does
    # not drop when the last enemy falls and the attempt ends.
    active = has.active_attack
    unmatched = foes - active if foes > active else 0
    # Ints where the features are counts: a weight times an int is the same float as times
    # that int made a float, and the search reads these at every leaf.
    return (
        has.vp, has.counters, has.hp, has.attack, has.members, has.inventory, has.bank,
        has.hand, has.deck, mission, active, foes, has.ailments, unmatched,
    )  # fmt: skip


class RpgGetEvaluation:
    """Each seat's weighted features minus the strongest other seat's, in evaluation units."""

    def __init__(self, weights: RpgGetWeights) -> None:
        self.weights = weights

    def values(self, state: State) -> list[float]:
        """Every seat's value; terminal states by their returns."""
        assert isinstance(state, RpgGetState)
        seats = range(state.num_players)
        if state.is_terminal():
            return [terminal_value(state, s) for s in seats]
        vector = self.weights.vector
        scores = [weighted(vector, rpg_get_features(state, s)) for s in seats]
        return relative(scores, self.weights.scale)


def make_evaluation(path: Path | None = None) -> RpgGetEvaluation:
    """The evaluation with the shipped weights, or those of the file `path`."""
    return RpgGetEvaluation(RpgGetWeights.load() if path is None else RpgGetWeights.load(path))


FIT = OwnDecks(
    "rpg-get", "RPG Get!", "ai/rpg_get_eval.py", RpgGetState, rpg_get_features,
    RpgGetWeights.load,
    lambda st: isinstance(st, RpgGetState) and st.phase not in ("first", "deal", "opening"),
)  # fmt: skip
SENSES: dict[str, tuple[Sign, str]] = {
    # What a fit may make of each weight (scripts/tune_weights.py holds it), and its note.
    # Everything a seat owns is worth at least nothing, what stands against it at most
    # nothing: a plain fit to greedy games paid for ailments and docked party HP, counters
    # and inventory (attempting missions costs them, and winners attempt), and greedy on it
    # stopped attempting (ai/weights/rpg-get.toml).
    "vp": ("nonnegative", "per victory point in the score pile"),
    "counters": ("nonnegative", "per reward counter"),
    "party_hp": ("nonnegative", "HP left of the party's characters"),
    "party_attack": ("nonnegative", "the party's strongest Attacks, X times Y each"),
    "characters": ("nonnegative", "characters in the party"),
    "inventory": ("nonnegative", "Rewards in the inventory"),
    "bank": ("nonnegative", "cards in the bank"),
    "hand": ("nonnegative", "cards in hand"),
    "deck": ("nonnegative", "cards left in the deck"),
    "attempt": ("nonnegative", "VP of the mission this seat is attempting"),
    "active_attack": ("nonnegative", "the strongest Attacks of the active party, X times Y each"),
    "foes": ("nonpositive", "HP left of the enemies against this seat's attempt"),
    "ailments": ("nonpositive", "status ailments on the party"),
    "unmatched": (
        "nonpositive",
        "HP of the enemies against this seat's attempt beyond the active party's strongest"
        " Attacks (X times Y each)",
    ),
}
TUNING = FIT.tuning(
    RPG_GET_FEATURES,
    {name: note for name, (_, note) in SENSES.items()},
    {name: sign for name, (sign, _) in SENSES.items()},
)
"""How scripts/tune_weights.py fits the weights (the registration's `tuning`)."""
