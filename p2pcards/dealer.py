"""A local dealer: samples chance nodes from a seeded generator.

Used for hot-seat play, simulations and tournaments, where every seat trusts
the one process. Network tables use the mental-poker dealer instead.
"""

import random

from p2pcards.engine import Action, State


class LocalDealer:
    """Picks chance outcomes by their probabilities with its own `random.Random`."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def sample(self, state: State) -> Action:
        """One outcome of the chance node `state` is at."""
        return state.sample_outcome(self.rng)
