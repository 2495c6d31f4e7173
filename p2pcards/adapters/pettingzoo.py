"""Every registered game as a PettingZoo AEC environment (`pip install p2pcards[pettingzoo]`).

    env = p2pcards.adapters.pettingzoo.env("getgem", players=3, render_mode="ansi")

Agents `player_0`…: seats. Agents are asked in turn, one cycle at a time (as PettingZoo's
round-robin environments do, so that `max_cycles` and the parallel API mean what they mean
there): an agent whose seat has a decision chooses among its legal actions, any other agent
may only wait. Action `0` is "wait"; action `k` is the k-th legal action in the order of their
stable ids (`p2pcards.adapters.common`); `action_mask` in each observation says which are
allowed. An action outside the mask is taken modulo the number of legal actions, so an
unmasked random policy still plays a legal game. Chance nodes are resolved by the
environment's generator, seeded by `reset(seed=…)`. The game ends, and the rewards (the game's
returns) are given, at the end of the cycle in which it ended (docs/adapters.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector
from pettingzoo.utils.conversions import aec_to_parallel

from p2pcards import games
from p2pcards.adapters.common import (
    ActionSpaceError,
    Settings,
    assign_ids,
    settings,
    tensor_layout,
)
from p2pcards.engine import Action, State
from p2pcards.errors import GameOptionError

MAX_CHOICES = 255
"""The most legal actions a decision may have here (the games' largest seen is about 40)."""

WAIT = 0
"""The action of an agent whose seat has no decision now."""

RENDERER = "cli.views:board_text"
"""Where `render_mode="ansi"` finds the text of a seat's view: `p2pcards` imports nothing of
`cli`, so it is resolved through the registry (`games.resolve`) on the first render, as the
registry's views are."""

Renderer = Callable[[State, int | None], str]


def agent_name(seat: int) -> str:
    """The agent of a seat: `player_0`."""
    return f"player_{seat}"


def legal_in_id_order(state: State) -> list[Action]:
    """The decision's legal actions in the order of their stable ids: action k is the
    (k-1)-th of these."""
    actions = state.legal_actions()
    return [a for _, a in sorted(zip(assign_ids(actions), actions, strict=True))]


class P2PCardsEnv(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """One of our games at one table as a PettingZoo AEC environment."""

    def __init__(
        self,
        game: str,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        renderer: Renderer | None = None,
        **params: int | bool | str,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise GameOptionError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        self.table: Settings = settings(game, params)
        self.layout = tensor_layout(self.table)
        self.metadata = {
            "render_modes": ["ansi"],
            "name": f"p2pcards_{game.replace('-', '_')}",
            "is_parallelizable": True,  # every agent is asked once a cycle
        }
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self._renderer = renderer
        self.possible_agents = [agent_name(s) for s in range(self.table.players)]
        size = self.layout.size
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (MAX_CHOICES + 1,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(MAX_CHOICES + 1)
        self._rng = random.Random()
        self._initial = self.table.new_state()
        self.game_state: State = self._initial.clone()
        self._legal: list[Action] | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same for every agent: the view's tensor and the action mask."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Wait, or the k-th legal action."""
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; with `seed`, the same chance outcomes as every game reset with it."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.game_state = self._initial.clone()
        self._legal = None
        self._deal()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._selector = AgentSelector(self.agents)
        self.agent_selection = self._selector.reset()
        self._cycles = 0

    def legal_actions(self) -> list[Action]:
        """The deciding seat's legal actions, in the order actions 1, 2, … name them."""
        if self._legal is None:
            deciding = not self.game_state.is_terminal()
            self._legal = legal_in_id_order(self.game_state) if deciding else []
            if len(self._legal) > MAX_CHOICES:
                raise ActionSpaceError(
                    f"{len(self._legal)} legal actions: more than the {MAX_CHOICES} "
                    "this environment's action space holds"
                )
        return self._legal

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The seat's view as a tensor (TensorLayout) and its action mask."""
        seat = self.possible_agents.index(agent)
        mask = np.zeros(MAX_CHOICES + 1, np.int8)
        if self.game_state.current_player() == seat:
            mask[1 : len(self.legal_actions()) + 1] = 1
        else:
            mask[WAIT] = 1
        entries = self.layout.entries(self.game_state, seat)
        tensor = np.zeros(self.layout.size, np.float32)
        tensor[list(entries)] = list(entries.values())
        return {"observation": tensor, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """The selected agent's action: a legal action if its seat decides, else a wait."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        if self.game_state.current_player() == seat:
            legal = self.legal_actions()
            self.game_state.apply_legal(legal[(int(action or 0) - 1) % len(legal)])
            self._legal = None
            self._deal()
        self._cumulative_rewards[agent] = 0.0
        if self._selector.is_last():
            self._end_cycle()
        else:
            self._clear_rewards()
        self.agent_selection = self._selector.next()
        self._accumulate_rewards()

    def _end_cycle(self) -> None:
        """Rewards, terminations and truncations come at the end of a cycle only (so that
        the parallel API, which steps whole cycles, sees them together)."""
        self._cycles += 1
        if self.game_state.is_terminal():
            returns = self.game_state.returns()
            self.rewards = {a: float(returns[s]) for s, a in enumerate(self.possible_agents)}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self._clear_rewards()
            if self.max_cycles is not None and self._cycles >= self.max_cycles:
                self.truncations = dict.fromkeys(self.agents, True)

    def _deal(self) -> None:
        """Resolve chance nodes with the environment's generator, up to a decision."""
        state, rng = self.game_state, self._rng
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            weights = [p for _, p in outcomes]
            state.apply_legal(rng.choices(outcomes, weights)[0][0])

    def render(self) -> str | None:
        """The board as text (render_mode "ansi"), as the game's terminal view draws it for
        a spectator."""
        if self.render_mode != "ansi":
            return None
        if self._renderer is None:
            found = games.resolve(RENDERER)
            assert callable(found)
            self._renderer = found
        return self._renderer(self.game_state, None)

    def close(self) -> None:
        """Nothing to release."""


def env(game: str, **kwargs: Any) -> P2PCardsEnv:
    """The AEC environment of a registered game: `env("getgem", players=3)`; takes
    `render_mode`, `max_cycles`, and the game's parameters (as in OpenSpiel: `players`,
    `round_cap`, its options)."""
    return P2PCardsEnv(game, **kwargs)


def parallel_env(game: str, **kwargs: Any) -> Any:
    """The same game through PettingZoo's parallel API: one step is one cycle, every live
    agent giving an action (waits included)."""
    return aec_to_parallel(env(game, **kwargs))
