"""The Gammasphere evaluation: Power Level, the field, what can attack next turn, and the
resources to play more (gas, Pylons, cards), per seat, minus the opponent's. The weights
live in `ai/weights/gammasphere.toml`.

It reads only what the state may know: the opponent's hand and deck by their sizes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ai.evaluation import WEIGHTS_DIR, read_weights, relative, terminal_value, weighted
from ai.tuning import OwnDecks
from p2pcards.engine import State
from p2pcards.games.gammasphere.state import ATTACK_MODE, GammaState, Stats

GAMMA_FEATURES = (
    "power", "danger", "attack", "defense", "buildings", "pylons", "gas", "hand", "deck",
    "kills", "tempo", "direct", "lethal", "pressure",
)  # fmt: skip


@dataclass(frozen=True)
class GammaWeights:
    """Weights of the evaluation, in the order of GAMMA_FEATURES, and its scale."""

    vector: tuple[float, ...]
    scale: float

    @classmethod
    def load(cls, path: Path = WEIGHTS_DIR / "gammasphere.toml") -> GammaWeights:
        """The weights in a TOML file, every one required."""
        values = read_weights(path, [*GAMMA_FEATURES, "scale"])
        return cls(tuple(values[name] for name in GAMMA_FEATURES), values["scale"])


def gamma_features(
    state: GammaState, seat: int, stats: dict[int, Stats] | None = None
) -> tuple[float, ...]:
    """One seat's features (GAMMA_FEATURES), in thousands where they are Power-Level-like;
    `stats`: `state.field_stats()`, if the caller has it."""
    return both_features(state, state.field_stats() if stats is None else stats)[seat]


def both_features(
    state: GammaState, stats: dict[int, Stats]
) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Both seats' features (GAMMA_FEATURES), each field read once (this runs at every leaf
    of a search); `stats`: `state.field_stats()`."""
    # Sums of ints (exact, as the floats they were once added up in).
    sums: list[tuple[int, int, int, int]] = []  # attack, defense, walls, strongest
    guards: list[list[int]] = []  # each character's stat an attack must beat, by its mode
    guarded: list[bool] = []  # whether anything of the seat's is in play to be attacked
    weakest: list[int] = []  # the least attack of the seat's characters in Attack Mode, or 0
    for seat in (0, 1):
        characters, buildings = state.field_kinds(seat)
        attack = defense = walls = strongest = 0
        guard = []
        least = 0
        for slot in characters:
            slot_attack, slot_defense = stats[slot]
            defense += slot_defense
            if state.mode(slot) == ATTACK_MODE:
                attack += slot_attack
                if slot_attack > strongest:
                    strongest = slot_attack
                if not least or slot_attack < least:
                    least = slot_attack
                guard.append(slot_attack)
            else:
                guard.append(slot_defense)
        for slot in buildings:
            walls += stats[slot].defense
        sums.append((attack, defense, walls, strongest))
        guards.append(guard)
        guarded.append(bool(characters or buildings))
        weakest.append(least)
    out = []
    turn = state.turn_seat()
    for seat, (attack, defense, walls, strongest) in enumerate(sums):
        other = 1 - seat
        kills = 0.0  # the opponent's characters our strongest attacker would destroy
        if strongest:
            for guard_stat in guards[other]:
                if guard_stat < strongest:
                    kills += 1.0
        power = state.power(seat)
        # What our attackers would take off the opponent's Power Level unopposed, when the
        # opponent has nothing in play to guard it (rules.md, choice 13), and whether that
        # ends the game: a threat greedy games seldom show, which the search must weigh.
        direct = pressure = 0.0
        if attack and not guarded[other]:
            direct = attack / 1000
        elif weakest[other] and strongest > weakest[other]:
            # Our strongest attacker against their weakest in Attack Mode: the difference
            # comes off their Power Level (rules.md, choice 11).
            pressure = (strongest - weakest[other]) / 1000
        out.append(
            (
                power / 1000,
                max(0, 3000 - power) / 1000,
                attack / 1000,
                defense / 1000,
                walls / 1000,
                float(state.pylon_count(seat)),
                state.gas(seat) / 1000,
                float(state.hand_size(seat)),
                float(state.deck_size(seat)),
                kills,
                1.0 if seat == turn else 0.0,
                direct,
                1.0 if direct and attack >= state.power(other) else 0.0,
                pressure,
            )
        )
    return out[0], out[1]


class GammaEvaluation:
    """Each seat's weighted features minus the opponent's, in evaluation units."""

    def __init__(self, weights: GammaWeights) -> None:
        self.weights = weights

    def values(self, state: State) -> list[float]:
        """Both seats' values; terminal states by their returns."""
        assert isinstance(state, GammaState)
        if state.is_terminal():
            return [terminal_value(state, s) for s in range(2)]
        vector = self.weights.vector
        first, second = both_features(state, state.field_stats())
        scores = [weighted(vector, first), weighted(vector, second)]
        return relative(scores, self.weights.scale)


def make_evaluation(path: Path | None = None) -> GammaEvaluation:
    """The evaluation with the shipped weights, or those of the file `path`."""
    return GammaEvaluation(GammaWeights.load() if path is None else GammaWeights.load(path))


FIT = OwnDecks(
    "gammasphere", "Gammasphere", "ai/gammasphere_eval.py", GammaState, gamma_features,
    GammaWeights.load, lambda st: True,
)  # fmt: skip
TUNING = FIT.tuning(
    GAMMA_FEATURES,
    {
        "power": "per 1000 Power Level",
        "danger": "per 1000 Power Level under 3000, on top of `power`",
        "attack": "per 1000 attack of characters in Attack Mode",
        "defense": "per 1000 defense of characters",
        "buildings": "per 1000 defense of buildings",
        "pylons": "per Pylon",
        "gas": "per 1000 gas",
        "hand": "per card in hand",
        "deck": "per card left in the deck (running out loses)",
        "kills": "per character of the opponent's that our strongest attacker would destroy",
        "tempo": "for the seat whose turn it is",
        "direct": "per 1000 attack in Attack Mode when the opponent has nothing in play to guard",
        "lethal": "when that direct attack would end the game",
        "pressure": "per 1000 attack our strongest has over their weakest in Attack Mode",
    },
)
"""How scripts/tune_weights.py fits the weights (the registration's `tuning`)."""
