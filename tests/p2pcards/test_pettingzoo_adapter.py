"""The PettingZoo adapter (`p2pcards.adapters.pettingzoo`): PettingZoo's API, seed and
max-cycles tests over every registered game at its fewest and most seats, the action mask,
the turn order and the board as text (docs/adapters.md)."""

from __future__ import annotations

import copy
import functools
import pickle
import types
import warnings

import numpy as np
import pytest
from adapter_helpers import tables
from pettingzoo.test import api_test, max_cycles_test, seed_test

from p2pcards.adapters import pettingzoo
from p2pcards.adapters.common import ActionSpaceError
from p2pcards.adapters.pettingzoo import MAX_CHOICES, WAIT, env, legal_in_id_order


@pytest.mark.parametrize(("name", "seats"), tables())
def test_pettingzoo_api_seed_and_max_cycles_tests_pass(name: str, seats: int) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns of every Dict observation (its own card games' too).
        warnings.filterwarnings("ignore", message="Observation", category=UserWarning)
        api_test(env(name, players=seats, round_cap=20), num_cycles=200)
    seed_test(functools.partial(env, name, players=seats), num_cycles=50)
    module = types.SimpleNamespace(
        env=functools.partial(env, name, players=seats),
        parallel_env=functools.partial(pettingzoo.parallel_env, name, players=seats),
    )
    max_cycles_test(module)


def play(table: pettingzoo.P2PCardsEnv, seed: int) -> list[int]:
    """A masked random game to the end; the actions taken."""
    table.reset(seed=seed)
    rng = np.random.default_rng(seed)
    taken = []
    for _ in table.agent_iter():
        observation, _, terminated, truncated, _ = table.last()
        action = None
        if not (terminated or truncated):
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            taken.append(action)
        table.step(action)
    return taken


@pytest.mark.parametrize(("name", "seats"), tables())
def test_every_observation_lies_within_the_spaces_bounds(name: str, seats: int) -> None:
    table = env(name, players=seats, round_cap=4)
    space = table.observation_space(table.possible_agents[0])["observation"]
    layout = table.layout
    ends = np.cumsum([size for _, size, _ in layout.pieces()])
    assert list(space.high[: ends[1]]) == [1.0] * int(ends[1])  # the one-hots
    assert list(space.low[: ends[2]]) == [0.0] * int(ends[2])  # ... and the counts
    table.reset(seed=3)
    rng = np.random.default_rng(3)
    seen = 0
    for _ in table.agent_iter():
        observation, _, terminated, truncated, _ = table.last()
        assert space.contains(observation["observation"]), observation["observation"]
        seen += 1
        done = terminated or truncated
        table.step(None if done else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert seen > 10


def test_the_mask_allows_the_legal_actions_of_the_deciding_seat_and_waits_else() -> None:
    table = env("rpg-battle", players=3, round_cap=2)
    table.reset(seed=4)
    rng = np.random.default_rng(4)
    decisions = waits = 0
    for agent in table.agent_iter():
        observation, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.step(None)
            continue
        seat = table.possible_agents.index(agent)
        mask = observation["action_mask"]
        assert mask.shape == (MAX_CHOICES + 1,)
        state = table.game_state
        if state.current_player() == seat:
            legal = legal_in_id_order(state)
            assert mask[WAIT] == 0 and mask.sum() == len(legal)
            assert list(mask[1 : len(legal) + 1]) == [1] * len(legal)
            decisions += 1
        else:
            assert list(np.flatnonzero(mask)) == [WAIT]
            waits += 1
        table.step(int(rng.choice(np.flatnonzero(mask))))
    assert decisions > 10 and waits > 0
    assert table.game_state.is_terminal()
    assert table.agents == []


def test_the_rewards_are_the_returns_given_at_the_end() -> None:
    table = env("getgem", players=3, round_cap=3)
    table.reset(seed=2)
    totals = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():
        observation, reward, terminated, truncated, _ = table.last()
        totals[agent] += reward
        if not table.game_state.is_terminal():
            assert reward == 0.0
        allowed = np.flatnonzero(observation["action_mask"])
        table.step(None if terminated or truncated else int(allowed[0]))
    returns = table.game_state.returns()
    assert [totals[a] for a in table.possible_agents] == returns
    assert sum(returns) == pytest.approx(1.0)


def test_a_seed_replays_the_game_and_another_seed_deals_another() -> None:
    table = env("gammasphere")
    first, again, other = play(table, 11), play(table, 11), play(table, 12)
    assert first == again
    assert first != other


def test_an_action_outside_the_mask_plays_a_legal_action_modulo_the_count() -> None:
    def first_decision(action: int) -> str:
        table = env("getgem", players=2)
        table.reset(seed=0)
        while table.game_state.current_player() != table.possible_agents.index(
            table.agent_selection
        ):
            table.step(WAIT)
        count = len(table.legal_actions())
        assert count > 2
        table.step(action if action > 0 else count - action)  # -k: count + k, out of mask
        return str(table.game_state.public_digest())

    # count + 2 is outside the mask: (count + 2 - 1) mod count = 1, the second legal action.
    assert first_decision(-2) == first_decision(2)
    assert first_decision(2) != first_decision(1)


def test_ansi_render_draws_the_board_with_the_games_terminal_view() -> None:
    table = env("rpg-battle", players=2, render_mode="ansi")
    play(table, 3)
    text = table.render()
    assert isinstance(text, str)
    assert "Round" in text and "HP" in text
    assert env("rpg-battle").render() is None  # no render mode: nothing drawn


def test_a_decision_larger_than_the_action_space_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = env("getgem", players=2)
    table.reset(seed=0)
    while table.game_state.current_player() != table.possible_agents.index(table.agent_selection):
        table.step(WAIT)
    assert len(table.legal_actions()) > 2
    table.reset(seed=0)
    monkeypatch.setattr(pettingzoo, "MAX_CHOICES", 2)
    with pytest.raises(ActionSpaceError, match="more than the 2"):
        while True:
            table.step(WAIT)
            table.observe(table.agent_selection)


def eager_tensor(table: pettingzoo.P2PCardsEnv, seat: int) -> np.ndarray:
    """The seat's tensor of the state as it stands, made at once."""
    tensor = np.zeros(table.layout.size, np.float32)
    for index, value in table.layout.entries(table.game_state, seat).items():
        tensor[index] = value
    return tensor


def test_an_observation_makes_its_tensor_when_read_from_the_state_it_was_observed_at(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = env("rpg-battle", players=2)
    table.reset(seed=5)
    made: list[int] = []
    real = pettingzoo._Snapshot.tensor
    monkeypatch.setattr(
        pettingzoo._Snapshot, "tensor", lambda self, seat: made.append(seat) or real(self, seat)
    )
    kept = []
    for _ in range(60):
        agent = table.agent_selection
        observation = table.observe(agent)
        kept.append((observation, eager_tensor(table, table.possible_agents.index(agent))))
        table.step(int(np.flatnonzero(observation["action_mask"])[-1]))
    assert made == []  # the masks alone: no tensor made
    states = {tuple(expected) for _, expected in kept}
    assert len(states) > 10  # the game moved on meanwhile
    for observation, expected in kept:  # each read as it was when observed
        assert np.array_equal(observation["observation"], expected)
    assert len(made) == len(kept)


def test_an_observation_reads_whole_in_every_way_a_dict_is_read() -> None:
    table = env("getgem", players=3)
    table.reset(seed=1)
    expected = eager_tensor(table, 0)
    readers = [
        lambda o: o["observation"],
        lambda o: o.get("observation"),
        lambda o: dict(o)["observation"],
        lambda o: {**o}["observation"],
        lambda o: dict(o.items())["observation"],
        lambda o: next(iter(o.values())),
        lambda o: copy.copy(o)["observation"],
        lambda o: copy.deepcopy(o)["observation"],
        lambda o: pickle.loads(pickle.dumps(o))["observation"],
        lambda o: o.copy()["observation"],
        lambda o: (o | {})["observation"],
        lambda o: o.pop("observation"),
    ]
    for read in readers:
        observation = table.observe("player_0")
        assert isinstance(observation, dict)
        assert np.array_equal(read(observation), expected)
    assert "None" not in repr(table.observe("player_0"))
    first, second = table.observe("player_0"), table.observe("player_0")
    first["observation"][0] = 9.0  # each caller's tensor is its own
    assert second["observation"][0] == expected[0]
