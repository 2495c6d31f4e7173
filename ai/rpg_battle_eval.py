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

from ai.defaults import DEFAULT_ROUND_CAP
from ai.evaluation import WEIGHTS_DIR, read_weights, relative, terminal_value, weighted
from ai.tuning import SCALE, Outcome, Tuning, constraints
from p2pcards import games
from p2pcards.engine import State
from p2pcards.games.rpg_battle import RpgBattleState
from p2pcards.games.rpg_battle.cards import Character

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


_NOTHING = (0.0,) * len(RPG_BATTLE_FEATURES)
_STANDING = 4  # the features a character brings: alive, STR, MAG, HP; the rest are the hand's


@functools.cache
def _health_curve(hp_scale: float) -> tuple[float, ...]:
    """1 - exp(-hp / hp_scale) for every HP a character can have, worked out once."""
    return tuple(1.0 - math.exp(-hp / hp_scale) for hp in range(64))


def _standing(card: Character, hp: int, hp_scale: float) -> tuple[float, float, float, float]:
    """What one character adds to its seat's features: (alive, STR, MAG, HP)."""
    if hp <= 0:
        return (0.0, 0.0, 0.0, 0.0)
    curve = _health_curve(hp_scale)
    health = curve[hp] if hp < len(curve) else 1.0 - math.exp(-hp / hp_scale)
    return (1.0, card.str * health, card.mag * health, float(hp))


def _hand(state: RpgBattleState, seat: int, hand_cap: int) -> tuple[float, float, float]:
    """A seat's (hand, tempo, quick) features: cards it keeps once pending discards are made,
    characters still to act this turn, and Quick Actions in hand (expected, for cards this
    state does not know)."""
    hand = state.hand_size(seat)
    for victim, count in state.pending_discards():
        if victim == seat:
            hand -= count
    hand = min(max(0, hand), hand_cap)
    known, unknown = state.quick_in_hand(seat)
    quick = float(known)
    if unknown:
        quick += unknown * state.unseen_quick_share()
    return (float(hand), float(state.still_to_act(seat)), quick)


def rpg_battle_features(
    state: RpgBattleState, seat: int, hp_scale: float, hand_cap: int
) -> tuple[float, ...]:
    """One seat's features (RPG_BATTLE_FEATURES), counting pending attacks as landing.

    A card in hand that this state does not know counts as a Quick Action with the share of
    Quick Actions among the cards it has not seen. A seat with no character left scores zero
    on every feature.
    """
    standing = [_standing(card, hp, hp_scale) for hp, card in state.fighting_strength(seat)]
    if not any(alive for alive, *_ in standing):
        return _NOTHING
    return (*map(sum, zip(*standing, strict=True)), *_hand(state, seat, hand_cap))


class RpgBattleEvaluation:
    """Each seat's weighted features minus the strongest opponent's, in evaluation units.

    A character's weighted standing depends only on which character it is and its HP, so
    it is looked up in a table (one row per character, worked out on first sight) rather
    than computed at each of the search's leaves.
    """

    def __init__(self, weights: RpgBattleWeights) -> None:
        self.weights = weights
        vector = weights.vector()
        self._standing_weights = vector[:_STANDING]
        self._hand_weights = vector[_STANDING:]
        self._rows: dict[str, tuple[float, ...]] = {}

    def values(self, state: State) -> list[float]:
        """Every seat's value; terminal states by their returns."""
        assert isinstance(state, RpgBattleState)
        n = state.num_players
        if state.is_terminal():
            return [terminal_value(state, s) for s in range(n)]
        return relative([self._score(state, s) for s in range(n)], self.weights.scale)

    def _score(self, state: RpgBattleState, seat: int) -> float:
        """One seat's weighted features."""
        rows = self._rows
        total = 0.0
        alive = False
        for hp, card in state.fighting_strength(seat):
            if hp > 0:
                row = rows.get(card.id) or self._row(card)
                total += row[hp]  # never above the maximum (rules.md, choice 17)
                alive = True
        if not alive:
            return 0.0
        hand, tempo, quick = _hand(state, seat, self.weights.hand_cap)
        w_hand, w_tempo, w_quick = self._hand_weights
        return total + w_hand * hand + w_tempo * tempo + w_quick * quick

    def _row(self, card: Character) -> tuple[float, ...]:
        """A character's weighted standing at every HP up to its maximum."""
        w = self.weights
        row = self._rows[card.id] = tuple(
            weighted(self._standing_weights, _standing(card, hp, w.hp_scale))
            for hp in range(card.hp + 1)
        )
        return row


def make_evaluation(path: Path | None = None) -> RpgBattleEvaluation:
    """The evaluation with the shipped weights, or those of the file `path`."""
    return RpgBattleEvaluation(
        RpgBattleWeights.load() if path is None else RpgBattleWeights.load(path)
    )


# The fit (scripts/tune_weights.py): features of the complete state, a choice of hp_scale.
HP_SCALES = (4.0, 6.0, 8.0, 12.0, 16.0)
HAND_CAP = 7


def _start(number: int) -> State:
    """A two-seat rpg-battle game."""
    return games.load("rpg-battle").new_initial_state(2, round_cap=DEFAULT_ROUND_CAP)


def _sampled(state: State) -> bool:
    """Every decision after the draft."""
    assert isinstance(state, RpgBattleState)
    return state.decision().kind != "pick"


def _difference(state: State, hp_scale: float) -> list[float]:
    """Seat 0's features minus seat 1's."""
    assert isinstance(state, RpgBattleState)
    mine = rpg_battle_features(state, 0, hp_scale, HAND_CAP)
    theirs = rpg_battle_features(state, 1, hp_scale, HAND_CAP)
    return [a - b for a, b in zip(mine, theirs, strict=True)]


def _current(path: Path) -> tuple[float, list[float]]:
    """The file's hp_scale and weights in log-odds."""
    current = RpgBattleWeights.load(path)
    return current.hp_scale, [v * current.scale / SCALE for v in current.vector()]


def _header(outcome: Outcome) -> list[str]:
    """The weights file's comment."""
    return [
        "# Weights of the rpg-battle evaluation (ai/rpg_battle_eval.py), in log-odds of winning",
        "# per unit of each feature, times `scale`. Written by scripts/tune_weights.py",
        f"#     {outcome.command}",
        f"# from {outcome.games} {outcome.players()} games (epsilon {outcome.epsilon}); "
        f"held-out log-loss {outcome.loss:.4f}{outcome.replaced()}.",
        *constraints(outcome),
    ]


TUNING = Tuning(
    features=RPG_BATTLE_FEATURES,
    hyper="hp_scale",
    candidates=HP_SCALES,
    start=_start,
    sampled=_sampled,
    difference=_difference,
    current=_current,
    settings=lambda hp_scale: {"hp_scale": hp_scale, "hand_cap": HAND_CAP, "scale": SCALE},
    header=_header,
    notes={},
    # Left free, a fit to the current AI's self-play (issue 28) put MAG below 0: every feature
    # counts something a seat is better off with, so none may count against it.
    signs=dict.fromkeys(RPG_BATTLE_FEATURES, "nonnegative"),
)
"""How scripts/tune_weights.py fits the weights (the registration's `tuning`)."""
