"""Every registered game as an OpenSpiel game (`pip install p2pcards[openspiel]`).

Importing this module registers `p2pcards_<game>` (`-` written `_`) for each game with
`pyspiel.register_game`: sequential, explicit stochastic chance with the engine's exact
outcome probabilities, imperfect information, terminal rewards (the game's returns). Its
parameters are `players`, `round_cap` (100 by default, 0 none) and the game's options
(`decks` as shipped deck names joined by "+"). Action ids come from each action's canonical
form (`p2pcards.adapters.common`), strings and tensors from the seat's own view, and
`resample_from_infostate` from the engine's `determinize` (docs/adapters.md).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any, TypeAlias

import numpy as np
import pyspiel

from p2pcards import CHANCE, TERMINAL, games
from p2pcards.adapters.common import (
    NUM_ACTION_IDS,
    SerializationError,
    Settings,
    StateRecord,
    TensorLayout,
    action_label,
    assign_ids,
    canonical,
    decode_record,
    parameter_defaults,
    settings,
    tensor_layout,
    view_string,
)
from p2pcards.engine import Action, State

PREFIX = "p2pcards_"

# Our CHANCE and TERMINAL are OpenSpiel's player ids, so current_player() passes through.
assert int(pyspiel.PlayerId.CHANCE) == CHANCE and int(pyspiel.PlayerId.TERMINAL) == TERMINAL


def short_name(game: str) -> str:
    """The OpenSpiel name of a registered game: `p2pcards_rise_of_the_guys`."""
    return PREFIX + game.replace("-", "_")


def load(game: str, **params: int | bool | str) -> pyspiel.Game:
    """The OpenSpiel game for one of ours, e.g. `load("getgem", players=3)`."""
    return pyspiel.load_game(short_name(game), params)


class _Node:
    """The actions (or chance outcomes) of one state with their ids, computed once per
    state: in the engine's order (a search asks for the ids far more often than it looks
    one up, so neither a dict nor a sorted copy is made until asked)."""

    __slots__ = ("actions", "ids", "probabilities")

    def __init__(self, state: State) -> None:
        self.probabilities: Sequence[float] = ()
        self.actions: Sequence[Action] = ()
        current = state.current_player()
        if current == CHANCE:
            self.actions, self.probabilities = zip(*state.chance_outcomes(), strict=True)
        elif current != TERMINAL:
            self.actions = state.legal_actions()
        self.ids = assign_ids(self.actions)

    def action_of(self, number: int) -> Action | None:
        """The action an id names here, or None."""
        try:
            return self.actions[self.ids.index(number)]
        except ValueError:
            return None


Trail: TypeAlias = "tuple[Trail, int] | None"
"""The ids of the steps from the initial state, last first, shared between clones."""


class _Box:
    """An engine state shared copy-on-write between OpenSpiel states: OpenSpiel clones a
    Python state by deep-copying its attributes, which here costs nothing until one of the
    copies moves (then it takes `State.clone()`, far cheaper than a deep copy). It keeps the
    ids of the steps that led to it from the initial state (`rooted`), for serialization;
    a state made around an engine state (an observation, a resampled world) has none."""

    __slots__ = ("node", "rooted", "shared", "state", "table", "trail")

    def __init__(self, table: Settings, state: State, shared: bool, rooted: bool) -> None:
        self.table = table
        self.state = state
        self.shared = shared
        self.rooted = rooted
        self.trail: Trail = None
        self.node: _Node | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        self.shared = True
        copy = _Box(self.table, self.state, shared=True, rooted=self.rooted)
        copy.trail = self.trail
        copy.node = self.node  # never changed once made
        return copy

    def __reduce__(self) -> tuple[Any, ...]:
        # OpenSpiel's own serialization of a Python state pickles its attributes: this one
        # pickles as our record (the table and the ids of its steps), restored by replaying.
        return (_restore, (self.record().encode(),))

    def record(self) -> StateRecord:
        """The table and the steps from its initial state; SerializationError for a state
        that was not reached from the initial state by steps."""
        if not self.rooted:
            raise SerializationError(
                "a state made around an engine state (an observation, a resampled world) "
                "has no steps from the initial state to serialize"
            )
        history = []
        trail = self.trail
        while trail is not None:
            trail, number = trail
            history.append(number)
        return StateRecord(self.table, tuple(reversed(history)))

    def current_node(self) -> _Node:
        if self.node is None:
            self.node = _Node(self.state)
        return self.node

    def apply(self, number: int, action: Action) -> None:
        if self.shared:
            self.state = self.state.clone()
            self.shared = False
        self.state.apply_legal(action)
        self.trail = (self.trail, number)
        self.node = None


class P2PCardsState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type hints
    """An OpenSpiel state around an engine state (a complete one, or a seat's view when an
    agent searches from what it knows)."""

    def __init__(self, game: P2PCardsGame, box: _Box) -> None:
        super().__init__(game)
        self._box = box

    @property
    def engine_state(self) -> State:
        """The engine state (do not change it: it may be shared with clones)."""
        return self._box.state

    def current_player(self) -> int:
        """The seat to act, or CHANCE, or TERMINAL."""
        return self._box.state.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._box.state.current_player():
            return []
        return sorted(self._box.current_node().ids)

    # Python callers (the searches, a playout loop) reach these without a round trip through
    # pyspiel's C++ State; C++ callers get the same answers through `_legal_actions` and
    # `current_player`.
    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action ids, ascending (at a chance node, the outcomes' ids)."""
        box = self._box
        current = box.state.current_player()
        if (player is not None and player != current) or current == TERMINAL:
            return []
        ids = (box.node or box.current_node()).ids
        # Legal actions ascending, as OpenSpiel asks; chance outcomes in the engine's order.
        return list(ids) if current == CHANCE else sorted(ids)

    def is_chance_node(self) -> bool:
        """Whether chance moves next."""
        return self._box.state.current_player() == CHANCE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each outcome's id with its exact probability, in the engine's order."""
        node = self._box.current_node()
        return list(zip(node.ids, node.probabilities, strict=True))

    def serialize(self) -> str:
        """The state as its table's parameters and the ids of its steps from the initial
        state (`StateRecord`, JSON): `P2PCardsGame.deserialize_state` or `deserialize`
        replays it. SerializationError for a state made around an engine state."""
        return self._box.record().encode()

    def _apply_action(self, action: int) -> None:
        box = self._box
        node = box.node or box.current_node()
        try:
            found = node.actions[node.ids.index(action)]
        except ValueError:
            raise ValueError(f"action id {action} is not legal here") from None
        box.apply(action, found)

    def action_of(self, action: int) -> Action:
        """The engine action an id names here; ValueError unless it is legal now."""
        found = self._box.current_node().action_of(action)
        if found is None:
            raise ValueError(f"action id {action} is not legal here")
        return found

    def _action_to_string(self, player: int, action: int) -> str:
        node = self._box.current_node()
        found = node.action_of(action)
        if found is None:
            return f"action {action}"
        return action_label(found, node.actions)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._box.state.current_player() == TERMINAL

    def returns(self) -> list[float]:
        """The game's returns at the end, zeros before (terminal rewards)."""
        state = self._box.state
        if not state.is_terminal():
            return [0.0] * state.num_players
        return [float(r) for r in state.returns()]

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> P2PCardsState:
        """A complete state `player_id` cannot tell from this one: the engine's
        `determinize` of the seat's view, seeded from the sampler."""
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        view = self._box.state
        if view.viewer != player_id:
            view = view.observation(player_id)
        game: P2PCardsGame = self.get_game()
        return game.wrap(view.determinize(rng))

    def __str__(self) -> str:
        return json.dumps(self._box.state.to_json(None), sort_keys=True)


class _Observer:
    """OpenSpiel's observer of a seat: its view as a string and as the tensor of
    `TensorLayout` (information state and observation alike: a seat's view already keeps
    what the seat has learnt)."""

    def __init__(self, layout: TensorLayout) -> None:
        self.layout = layout
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict: dict[str, np.ndarray] = {}
        start = 0
        for name, size, shape in layout.pieces():
            self.dict[name] = self.tensor[start : start + size].reshape(shape)
            start += size

    def set_from(self, state: P2PCardsState, player: int) -> None:
        """Fill the tensor with `player`'s view of `state`."""
        entries = self.layout.entries(state.engine_state, player)
        self.tensor.fill(0.0)
        self.tensor[list(entries)] = list(entries.values())

    def string_from(self, state: P2PCardsState, player: int) -> str:
        """`player`'s view of `state` as canonical JSON."""
        return view_string(state.engine_state, player)


class P2PCardsGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type hints
    """One of our games at one table's settings, as an OpenSpiel game."""

    NAME: str = ""
    """The registered game (set by each game's subclass, which OpenSpiel makes)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game = self.NAME
        self.settings: Settings = settings(game, params or {})
        self._initial = self.settings.new_state()
        self.layout = tensor_layout(self.settings)
        info = games.info(game)
        game_info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTION_IDS,
            max_chance_outcomes=NUM_ACTION_IDS,
            num_players=self.settings.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0 if info.zero_sum else None,
            max_game_length=max_game_length(game, self.settings.players),
        )
        full = {"players": self.settings.players, **dict(self.settings.options)}
        super().__init__(game_type(game), game_info, full)

    def new_initial_state(self) -> P2PCardsState:
        """A fresh game at this table."""
        return P2PCardsState(self, _Box(self.settings, self._initial, shared=True, rooted=True))

    def wrap(self, state: State) -> P2PCardsState:
        """An OpenSpiel state around an engine state of this table (it is not copied)."""
        return P2PCardsState(self, _Box(self.settings, state, shared=False, rooted=False))

    def view(self, state: State) -> P2PCardsState:
        """An OpenSpiel state around an engine state that must not change (the observation
        an agent was handed): a move from it works on a copy."""
        return P2PCardsState(self, _Box(self.settings, state, shared=True, rooted=False))

    def deserialize_state(self, text: str | bytes) -> P2PCardsState:
        """A serialized state of this table, replayed step by step from the initial state;
        SerializationError for a malformed one, another table's, or a step not legal where
        it is taken. Never unpickles (unlike `pyspiel.deserialize_game_and_state`: see
        docs/adapters.md)."""
        record = decode_record(text)
        if record.table != self.settings:
            raise SerializationError(
                f"the state is of another table ({str(record.table)[:200]}), not of {self.settings}"
            )
        return self.replay(record.history)

    def replay(self, history: Sequence[int]) -> P2PCardsState:
        """The state these step ids lead to from the initial state, each checked to be legal
        where it is taken (SerializationError names the first that is not)."""
        state = self.new_initial_state()
        for step, number in enumerate(history):
            if number not in state._box.current_node().ids:  # a list of a few dozen
                raise SerializationError(f"step {step}: action id {number} is not legal there")
            state.apply_action(number)
        return state

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> _Observer:
        """The observer of a seat's own view (the only kind of view there is)."""
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError("only a seat's own view is offered (its public and private part)")
        return _Observer(self.layout)


def max_game_length(game: str, players: int) -> int:
    """A bound on the decisions of one game: far beyond a typical game (the conformance
    suite's "a game past this does not end"); the default round cap keeps games well
    within it."""
    return 40 * games.info(game).typical_length * players


def game_type(game: str) -> pyspiel.GameType:
    """The OpenSpiel description of one of our games."""
    info = games.info(game)
    return pyspiel.GameType(
        short_name=short_name(game),
        long_name=f"p2pcards {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.CONSTANT_SUM
            if info.zero_sum
            else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameter_defaults(game),
        default_loadable=True,
        provides_factored_observation_string=False,
    )


def _register() -> None:
    registered = {t.short_name for t in pyspiel.registered_games()}
    for game in games.names():
        if short_name(game) in registered:
            continue
        # A class per game, as OpenSpiel's own Python games register: pyspiel keeps the
        # creator until after the interpreter has finalized, and dropping a plain function
        # then (its last reference) aborts the process at exit; a class lives in a cycle.
        creator = type(f"P2PCardsGame_{game.replace('-', '_')}", (P2PCardsGame,), {"NAME": game})
        pyspiel.register_game(game_type(game), creator)


def deserialize(text: str | bytes) -> tuple[P2PCardsGame, P2PCardsState]:
    """The game and state a serialized state (`P2PCardsState.serialize()`) names, the game
    loaded from the state's own parameters and the state replayed; SerializationError for a
    malformed one or a step that is not legal where it is taken."""
    record = decode_record(text)
    game = load(record.table.game, players=record.table.players, **dict(record.table.options))
    return game, game.replay(record.history)


def _restore(text: str) -> _Box:
    """A state's box from its record, as OpenSpiel's own deserialization unpickles it."""
    box: _Box = deserialize(text)[1]._box
    return box


def canonical_of(state: P2PCardsState, action: int) -> str:
    """The canonical form of the action an id names at `state` (for logs and tests)."""
    return canonical(state.action_of(action))


_register()
