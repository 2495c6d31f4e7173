"""One seat of a game as a Gymnasium environment, the other seats played by our agents
(`pip install p2pcards[pettingzoo]`):

    env = SingleSeatEnv("rpg-battle", seat=0, opponents="expectimax:think_ms=50")

It drives the PettingZoo environment (`p2pcards.adapters.pettingzoo`): the observations,
action mask and actions are the same (action k: the k-th legal action in id order), but a
step asks only for the learner's own decisions; the other seats' agents (any agent spec,
one for all or one per other seat) each get their seat's observation, as at a table. The
reward is the learner's return, at the end. Here in `ai`, not in `p2pcards`, because the
agents are `ai`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np

from ai.agents import Agent, make_agent
from ai.errors import AgentSpecError
from p2pcards.adapters.pettingzoo import WAIT, P2PCardsEnv


class SingleSeatEnv(gymnasium.Env[dict[str, np.ndarray], int]):
    """A learner at `seat`; `opponents` (a spec, or one per other seat in seat order) at
    the others."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012  # Gymnasium's own class attribute

    def __init__(
        self,
        game: str,
        seat: int = 0,
        opponents: str | Sequence[str] = "greedy",
        render_mode: str | None = None,
        max_cycles: int | None = None,
        **params: int | bool | str,
    ) -> None:
        self.table = P2PCardsEnv(game, render_mode, max_cycles, None, **params)
        players = self.table.table.players
        if not 0 <= seat < players:
            raise AgentSpecError(f"seat must be 0 to {players - 1}, not {seat}")
        specs = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != players - 1:
            raise AgentSpecError(f"{players - 1} opponents needed, one per other seat")
        self.seat = seat
        self.specs = specs
        self.render_mode = render_mode
        self.agent = self.table.possible_agents[seat]
        self.observation_space = self.table.observation_space(self.agent)
        self.action_space = self.table.action_space(self.agent)
        self.others: dict[int, Agent] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """A new game, played up to the learner's first decision; the seed replays it (the
        chance outcomes and the opponents' choices)."""
        super().reset(seed=seed)
        self.table.reset(seed=seed)
        others = [s for s in range(self.table.table.players) if s != self.seat]
        base = None if seed is None else seed * 1000
        self.others = {
            s: make_agent(spec, None if base is None else base + s)
            for s, spec in zip(others, self.specs, strict=True)
        }
        self._advance()
        return self.table.observe(self.agent), {}

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """The learner's action; then the others play up to its next decision or the end."""
        self.table.step(action)
        self._advance()
        state = self.table.game_state
        terminated = self.table.terminations.get(self.agent, True)
        truncated = self.table.truncations.get(self.agent, False)
        reward = float(state.returns()[self.seat]) if state.is_terminal() else 0.0
        return self.table.observe(self.agent), reward, terminated, truncated, {}

    def _advance(self) -> None:
        """Step the cycle on until the learner has a decision or the game is over."""
        table = self.table
        while True:
            agent = table.agent_selection
            if table.terminations[agent] or table.truncations[agent]:
                return
            seat = table.possible_agents.index(agent)
            state = table.game_state
            if state.current_player() != seat:
                table.step(WAIT)
            elif seat == self.seat:
                return
            else:
                choice = self.others[seat].act(state.observation(seat))
                table.step(table.legal_actions().index(choice) + 1)

    def render(self) -> str | None:
        """The board as text ("ansi")."""
        return self.table.render()
