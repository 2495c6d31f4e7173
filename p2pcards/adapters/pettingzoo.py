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
returns) are given, at the end of the cycle in which it ended. An observation's tensor is made
the first time it is read (`Observation`), so a policy that looks at the mask alone does not
pay for it (docs/adapters.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable, ItemsView, Iterator, ValuesView
from functools import cache
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
    TensorLayout,
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


class _Snapshot:
    """A state the environment no longer changes once it has been observed (it moves on
    from a copy), and the tensors of its seats as they are first asked for."""

    __slots__ = ("layout", "numbers", "state", "tensors")

    def __init__(self, state: State, layout: TensorLayout) -> None:
        self.state = state
        self.layout = layout
        self.numbers: dict[int, float] | None = None
        self.tensors: dict[int, np.ndarray] = {}

    def tensor(self, seat: int) -> np.ndarray:
        """The seat's tensor, a copy of its own to each caller."""
        made = self.tensors.get(seat)
        if made is None:
            if self.numbers is None:  # the same for every seat: made once
                self.numbers = self.layout.number_entries(self.state)
            made = np.zeros(self.layout.size, np.float32)
            for entries in (self.layout.seat_entries(self.state, seat), self.numbers):
                made[list(entries)] = list(entries.values())
            self.tensors[seat] = made
        return made.copy()


class Observation(dict[str, np.ndarray]):
    """An agent's observation: a dict like any other, `{"observation": the seat's tensor
    (TensorLayout), "action_mask": int8 (MAX_CHOICES + 1,)}`, except that the tensor is
    made the first time it is read (then kept), from the state as it was when observed: a
    policy that looks at the mask alone does not pay for it.

    Every way of reading it (`[]`, `get`, `values`, `items`, `dict(…)`, `{**…}`, copy,
    pickle, `==`, `repr`) sees the tensor; only a C extension reading the dict's slots
    directly, before anything else has, would find None there."""

    __slots__ = ("_seat", "_snapshot")

    def __init__(
        self, mask: np.ndarray, snapshot: _Snapshot | None, seat: int,
        tensor: np.ndarray | None = None,
    ) -> None:  # fmt: skip
        super().__init__(observation=tensor, action_mask=mask)  # type: ignore[arg-type]
        self._snapshot = snapshot
        self._seat = seat

    def __getitem__(self, key: str) -> np.ndarray:
        value = dict.__getitem__(self, key)
        if value is None:
            assert self._snapshot is not None  # None only for a copy, which has its tensor
            value = self._snapshot.tensor(self._seat)
            dict.__setitem__(self, key, value)
        return value

    def _whole(self) -> Observation:
        self["observation"]  # made, if not yet
        return self

    # Defined (as the dict's own) so that dict(…), {**…} and update(…) read through
    # keys() and __getitem__ rather than the dict's slots.
    def __iter__(self) -> Iterator[str]:
        return dict.__iter__(self)

    def get(self, key: str, default: Any = None) -> Any:
        """The value at `key` (the tensor made if it is asked for), else `default`."""
        try:
            return self[key]
        except KeyError:
            return default

    def values(self) -> ValuesView[np.ndarray]:  # type: ignore[override]
        """The tensor and the mask."""
        return dict.values(self._whole())

    def items(self) -> ItemsView[str, np.ndarray]:  # type: ignore[override]
        """Both entries, the tensor made."""
        return dict.items(self._whole())

    def pop(self, key: str, *default: Any) -> Any:
        """Remove and return an entry (the tensor made first)."""
        return dict.pop(self._whole(), key, *default)

    def popitem(self) -> tuple[str, np.ndarray]:
        """Remove and return the last entry (the tensor made first)."""
        return dict.popitem(self._whole())

    def copy(self) -> Observation:
        """A shallow copy (the same arrays), the tensor made."""
        return Observation(self["action_mask"], None, self._seat, self["observation"])

    def __copy__(self) -> Observation:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Observation:
        tensor, mask = self["observation"].copy(), self["action_mask"].copy()
        return Observation(mask, None, self._seat, tensor)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Observation, (self["action_mask"], None, self._seat, self["observation"]))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Observation):
            other._whole()
        return dict.__eq__(self._whole(), other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __or__(self, other: Any) -> dict[str, np.ndarray]:  # type: ignore[override]
        joined: dict[str, np.ndarray] = dict(self) | other
        return joined

    def __repr__(self) -> str:
        return dict.__repr__(self._whole())


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
        low, high = self.layout.bounds()
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    np.array(low, np.float32), np.array(high, np.float32), dtype=np.float32
                ),
                "action_mask": spaces.Box(0, 1, (MAX_CHOICES + 1,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(MAX_CHOICES + 1)
        self._rng = random.Random()
        self._initial = self.table.new_state()
        self.game_state: State = self._initial.clone()
        """The game as it stands (a step may replace the object: read it anew)."""
        self._legal: list[Action] | None = None
        self._snapshot: _Snapshot | None = None
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}

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
        self._snapshot = None
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

    def observe(self, agent: str) -> Observation:
        """The seat's view as a tensor (TensorLayout, made when first read) and its action
        mask."""
        seat = self._seats[agent]
        if self.game_state.current_player() == seat:
            mask = _mask(len(self.legal_actions()))
        else:
            mask = _mask(0)
        if self._snapshot is None:
            self._snapshot = _Snapshot(self.game_state, self.layout)
        return Observation(mask, self._snapshot, seat)

    def step(self, action: int | None) -> None:
        """The selected agent's action: a legal action if its seat decides, else a wait."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if self.game_state.current_player() == self._seats[agent]:
            legal = self.legal_actions()
            self._move(legal[(int(action or 0) - 1) % len(legal)])
            self._legal = None
            self._deal()
        self._cumulative_rewards[agent] = 0.0
        if self._selector.is_last():
            self._end_cycle()
        else:
            self._clear_rewards()
        self.agent_selection = self._selector.next()
        self._accumulate_rewards()

    def _move(self, action: Action) -> None:
        """Apply an action of the state's own lists; if the state has been observed, to a
        copy (its observations may still make their tensors from it)."""
        if self._snapshot is not None:
            self.game_state = self.game_state.clone()
            self._snapshot = None
        self.game_state.apply_legal(action)

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
        rng = self._rng
        while self.game_state.is_chance_node():
            outcomes = self.game_state.chance_outcomes()
            weights = [p for _, p in outcomes]
            self._move(rng.choices(outcomes, weights)[0][0])

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


@cache
def _mask_of(allowed: int) -> np.ndarray:
    mask = np.zeros(MAX_CHOICES + 1, np.int8)
    if allowed:
        mask[1 : allowed + 1] = 1
    else:
        mask[WAIT] = 1
    return mask


def _mask(allowed: int) -> np.ndarray:
    """The action mask of a decision with `allowed` legal actions (0: a wait), a copy of
    its own to each caller."""
    return _mask_of(allowed).copy()


def env(game: str, **kwargs: Any) -> P2PCardsEnv:
    """The AEC environment of a registered game: `env("getgem", players=3)`; takes
    `render_mode`, `max_cycles`, and the game's parameters (as in OpenSpiel: `players`,
    `round_cap`, its options)."""
    return P2PCardsEnv(game, **kwargs)


def parallel_env(game: str, **kwargs: Any) -> Any:
    """The same game through PettingZoo's parallel API: one step is one cycle, every live
    agent giving an action (waits included)."""
    return aec_to_parallel(env(game, **kwargs))
