"""OpenSpiel's ISMCTS and MCTS as agents: `openspiel:ismcts:…` and `openspiel:mcts:…`.

Both search from the seat's observation only (`State.observation(seat)`, as every agent
here): OpenSpiel's information-set MCTS samples the worlds it searches through the adapter's
`resample_from_infostate`, which is the engine's `determinize` of what the seat knows; plain
MCTS, a perfect-information search, runs on such determinized worlds one after another and
sums their root visits (determinized MCTS), never on the complete state. Leaves are valued by
random rollouts to the end of the game.

A budget is `simulations` (the same moves from the same seed) or `think_ms` (the wall clock,
which does not replay), the exploration constant `uct_c`. Needs the `openspiel` extra.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from functools import cache
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from ai.errors import AgentSpecError
from p2pcards.adapters import openspiel
from p2pcards.engine import Action, State


@cache
def _table(game: str, players: int) -> openspiel.P2PCardsGame:
    """The OpenSpiel game a search runs in (only its description is used: the search starts
    from the agent's observation, not from this game's initial state)."""
    found: openspiel.P2PCardsGame = openspiel.load(game, players=players)
    return found


class _Search:
    """What both searches share: the budget, the exploration constant, random rollouts at
    the leaves, and the generators drawn from the seed."""

    def __init__(
        self, seed: int | None, simulations: int, think_ms: float | None, uct_c: float,
        rollouts: int,
    ) -> None:  # fmt: skip
        if simulations < 1:
            raise AgentSpecError(f"simulations must be at least 1, not {simulations}")
        if think_ms is not None and think_ms <= 0:
            raise AgentSpecError(f"think_ms must be positive, not {think_ms}")
        if uct_c <= 0 or rollouts < 1:
            raise AgentSpecError("uct_c must be positive and rollouts at least 1")
        self.simulations = simulations
        self.think_ms = think_ms
        self.uct_c = uct_c
        self.worlds = random.Random(seed)
        self.numpy_rng = np.random.RandomState(self.worlds.randrange(1 << 31))
        self.evaluator = mcts.RandomRolloutEvaluator(rollouts, self.numpy_rng)

    def deadline(self) -> float | None:
        """When a move must be chosen by, for a time budget."""
        if self.think_ms is None:
            return None
        return time.perf_counter() + self.think_ms / 1000


class _DeadlineISMCTS(ismcts.ISMCTSBot):  # type: ignore[misc]  # open_spiel has no hints
    """OpenSpiel's ISMCTS, stopped by a simulation count or a deadline (its own search takes
    a count only)."""

    deadline: float | None = None

    def run_search(self, state: Any) -> list[tuple[int, float]]:
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        root_key = self.get_state_key(state)
        done = 0
        # The first simulation only expands the root; a move needs a visit below it.
        while done < max(2, self._max_simulations) and not (
            done >= 2 and self.deadline is not None and time.perf_counter() >= self.deadline
        ):
            world = self.sample_root_state(state)
            # A world must be one the seat cannot tell from its own: the same view.
            assert self.get_state_key(world) == root_key
            self.run_simulation(world)
            done += 1
        policy: list[tuple[int, float]] = self.get_final_policy(state, self._root_node)
        return policy


class ISMCTSAgent(_Search):
    """OpenSpiel's information-set MCTS (its Python ISMCTSBot), worlds from `determinize`."""

    name = "openspiel:ismcts"

    def __init__(
        self, seed: int | None = None, simulations: int = 200, think_ms: float | None = None,
        uct_c: float = 1.4, rollouts: int = 1,
    ) -> None:  # fmt: skip
        super().__init__(seed, simulations, think_ms, uct_c, rollouts)

    def act(self, observation: State) -> Action:
        """The most visited action at the root of the seat's information set."""
        game = _table(observation.game.name, observation.num_players)
        root = game.view(observation)
        bot = _DeadlineISMCTS(
            game,
            self.evaluator,
            self.uct_c,
            self.simulations if self.think_ms is None else 1 << 30,
            random_state=self.numpy_rng,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
            # Worlds a seat cannot tell apart may still differ in its legal actions (getgem:
            # a push-peep's peeping draw, legal in some worlds of one view and not in others,
            # crashed the search with a KeyError); OpenSpiel's option for such games.
            allow_inconsistent_action_sets=True,
        )
        bot.set_resampler(lambda state, seat: state.resample_from_infostate(seat, self._uniform))
        bot.deadline = self.deadline()
        policy = bot.run_search(root)
        best = max(policy, key=lambda pair: (pair[1], -pair[0]))[0]
        return root.action_of(best)

    def _uniform(self) -> float:
        return self.worlds.random()


class MCTSAgent(_Search):
    """OpenSpiel's MCTS on worlds drawn by `determinize`, one after another, root visits
    summed (it never sees the complete state)."""

    name = "openspiel:mcts"

    def __init__(
        self, seed: int | None = None, simulations: int = 200, think_ms: float | None = None,
        uct_c: float = 1.4, rollouts: int = 1, worlds: int = 4,
    ) -> None:  # fmt: skip
        super().__init__(seed, simulations, think_ms, uct_c, rollouts)
        if worlds < 1:
            raise AgentSpecError(f"worlds must be at least 1, not {worlds}")
        self.per_world = max(1, simulations // worlds)
        self.world_count = worlds

    def act(self, observation: State) -> Action:
        """The action most visited over the worlds searched."""
        legal = observation.legal_actions()
        if len(legal) == 1:
            return legal[0]
        game = _table(observation.game.name, observation.num_players)
        root = game.view(observation)
        bot = mcts.MCTSBot(
            game,
            self.uct_c,
            self.per_world,
            self.evaluator,
            solve=False,
            random_state=self.numpy_rng,
        )
        deadline = self.deadline()
        visits: Counter[int] = Counter()
        searched = 0
        while (searched < self.world_count and deadline is None) or (
            deadline is not None and (searched == 0 or time.perf_counter() < deadline)
        ):
            world = game.wrap(observation.determinize(self.worlds))
            for child in bot.mcts_search(world).children:
                visits[child.action] += child.explore_count
            searched += 1
        best = max(visits.items(), key=lambda pair: (pair[1], -pair[0]))[0]
        return root.action_of(best)
