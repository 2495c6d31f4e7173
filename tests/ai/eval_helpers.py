"""What every game's evaluation test checks on random games."""

from __future__ import annotations

import random

from ai.evaluation import LOSS, WIN, Evaluation
from p2pcards.dealer import LocalDealer
from p2pcards.engine import State


def assert_replicas_valued_in_bounds(evaluate: Evaluation, state: State, seed: int) -> None:
    """Play `state` out at random (seeded): at every step each seat's replica is valued inside
    the bounds, zero-sum, so no hidden card is read; the end by its result."""
    dealer, rng = LocalDealer(seed), random.Random(seed)
    while not state.is_terminal():
        for seat in (0, 1):
            values = evaluate.values(state.observation(seat))
            assert len(values) == 2 and all(LOSS < v < WIN for v in values)
            assert values[0] == -values[1]
        state.apply_action(
            dealer.sample(state) if state.is_chance_node() else rng.choice(state.legal_actions())
        )
    assert evaluate.values(state) in ([WIN, LOSS], [LOSS, WIN], [0.0, 0.0])
