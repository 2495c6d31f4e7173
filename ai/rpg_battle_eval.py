"""The rpg-battle evaluation: characters' strength and health, hand, tempo.

A weighted sum of features per seat, minus the strongest opponent's; the weights
live in `ai/weights/rpg-battle.toml`, fitted from played games by
`scripts/tune_weights.py` (logistic regression of the result on the features), so
that a unit of evaluation is a fixed step in the log-odds of winning.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, fields
from pathlib import Path

from ai.evaluation import WEIGHTS_DIR, read_weights, relative, terminal_value, weighted
from p2pcards.engine import State
from p2pcards.games.rpg_battle import RpgBattleState

RPG_BATTLE_FEATURES = ("alive", "str", "mag", "hp", "hand", "tempo", "quick")


@dataclass(frozen=True)
class RpgBattleWeights:
    """Weights of the rpg-battle evaluation, per feature of `rpg_battle_features`."""

    alive: float  # per active character
    str: float  # per point of STR of an active character, scaled by its health
    mag: float  # per point of MAG, likewise
    hp: float  # per hit point
    hand: float  # per card in hand, up to `hand_cap`
    tempo: float  # per character of the seat still to act this turn
    quick: float  # per Quick Action (Dodge, Counter) in hand
    # Health scales STR and MAG by 1 - exp(-hp / hp_scale): concave, so damage to a
    # nearly KO'd character counts for more (focus fire). Chosen by the tuner.
    hp_scale: float
    hand_cap: int
    scale: float  # evaluation units per unit of log-odds

    @classmethod
    def load(cls, path: Path = WEIGHTS_DIR / "rpg-battle.toml") -> RpgBattleWeights:
        """The weights in a TOML file, every field required."""
        values: dict[str, float | int] = dict(read_weights(path, [f.name for f in fields(cls)]))
        values["hand_cap"] = int(values["hand_cap"])
        return cls(**values)  # type: ignore[arg-type]

    def vector(self) -> tuple[float, ...]:
        """The feature weights in the order of RPG_BATTLE_FEATURES."""
        return tuple(float(getattr(self, name)) for name in RPG_BATTLE_FEATURES)


@functools.cache
def _health_curve(hp_scale: float) -> tuple[float, ...]:
    """1 - exp(-hp / hp_scale) for every HP a character can have, worked out once."""
    return tuple(1.0 - math.exp(-hp / hp_scale) for hp in range(64))


def rpg_battle_features(
    state: RpgBattleState, seat: int, hp_scale: float, hand_cap: int
) -> tuple[float, ...]:
    """One seat's features (RPG_BATTLE_FEATURES), counting pending attacks as landing.

    A card in hand that this state does not know counts as a Quick Action with the share of
    Quick Actions among the cards it has not seen. A seat with no character left scores zero
    on every feature.
    """
    alive = strength = magic = hit_points = 0.0
    curve = _health_curve(hp_scale)
    for hp, card in state.fighting_strength(seat):
        if hp > 0:
            health = curve[hp] if hp < len(curve) else 1.0 - math.exp(-hp / hp_scale)
            alive += 1
            strength += card.str * health
            magic += card.mag * health
            hit_points += hp
    if not alive:
        return (0.0,) * len(RPG_BATTLE_FEATURES)
    losing = sum(count for victim, count in state.pending_discards() if victim == seat)
    hand = min(max(0, state.hand_size(seat) - losing), hand_cap)
    known, unknown = state.quick_in_hand(seat)
    quick = float(known)
    if unknown:
        quick += unknown * state.unseen_quick_share()
    tempo = float(state.still_to_act(seat))
    return (alive, strength, magic, hit_points, float(hand), tempo, quick)


class RpgBattleEvaluation:
    """Each seat's weighted features minus the strongest opponent's, in evaluation units."""

    def __init__(self, weights: RpgBattleWeights) -> None:
        self.weights = weights
        self._vector = weights.vector()

    def values(self, state: State) -> list[float]:
        """Every seat's value; terminal states by their returns."""
        assert isinstance(state, RpgBattleState)
        n = state.num_players
        if state.is_terminal():
            return [terminal_value(state, s) for s in range(n)]
        w = self.weights
        scores = [
            weighted(self._vector, rpg_battle_features(state, s, w.hp_scale, w.hand_cap))
            for s in range(n)
        ]
        return relative(scores, w.scale)


def make_evaluation() -> RpgBattleEvaluation:
    """The evaluation with the shipped weights."""
    return RpgBattleEvaluation(RpgBattleWeights.load())
