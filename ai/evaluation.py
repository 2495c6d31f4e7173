"""Per-game evaluation functions: how good a state looks for one seat.

Each takes any state (complete or a replica) and a seat and returns a number in
[LOSS, WIN]; terminal states score by their returns. The weights live in
dataclasses so they can be tuned from data without touching the search.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass

from p2pcards.engine import State
from p2pcards.games.rpg_battle import RpgBattleState

WIN = 1000.0
LOSS = -1000.0

Evaluator = Callable[[State, int], float]


@dataclass(frozen=True)
class RpgBattleWeights:
    """Weights of the rpg-battle evaluation."""

    alive: float = 10.0  # per active character
    str: float = 6.0  # per point of STR of an active character
    mag: float = 3.0  # per point of MAG of an active character
    hp: float = 1.0  # per hit point
    # A character's worth (alive + stats) is scaled by 1 - exp(-hp / hp_scale):
    # concave in HP, so damage on a nearly KO'd character counts more (focus fire).
    hp_scale: float = 8.0
    hand: float = 1.0  # per card in hand, up to `hand_cap`
    hand_cap: int = 7


def terminal_value(state: State, seat: int) -> float:
    """WIN for a sole winner, LOSS for a loser, in between for a shared win."""
    share = state.returns()[seat]
    return LOSS + (WIN - LOSS) * share


def rpg_battle(state: State, seat: int, w: RpgBattleWeights = RpgBattleWeights()) -> float:
    """Own strength minus the strongest opponent's: characters standing, HP, STR, MAG, cards."""
    assert isinstance(state, RpgBattleState)
    if state.is_terminal():
        return terminal_value(state, seat)
    incoming: dict[str, int] = {}
    for target, damage in state.pending_hits():
        incoming[target] = incoming.get(target, 0) + damage
    losing = dict.fromkeys(range(state.num_players), 0)
    for victim, count in state.pending_discards():
        losing[victim] += count

    def strength(s: int) -> float:
        total = 0.0
        for c in state.characters(s):
            hp = max(0, state.hp(c) - incoming.get(c, 0))
            if hp > 0:
                card = state.stats(c)
                worth = w.alive + w.str * card.str + w.mag * card.mag
                total += worth * (1.0 - math.exp(-hp / w.hp_scale)) + w.hp * hp
        if total == 0.0:
            return 0.0
        return total + w.hand * min(max(0, state.hand_size(s) - losing[s]), w.hand_cap)

    own = strength(seat)
    others = [strength(s) for s in range(state.num_players) if s != seat]
    return own - max(others, default=0.0)


_EVALUATORS: dict[str, Evaluator] = {"rpg-battle": rpg_battle}


def evaluator(game_name: str) -> Evaluator:
    """The evaluation function of a game."""
    try:
        return _EVALUATORS[game_name]
    except KeyError:
        raise ValueError(f"no evaluation function for {game_name!r}") from None
