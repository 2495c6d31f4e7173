"""The OpenSpiel adapter (`p2pcards.adapters.openspiel`): OpenSpiel's own simulation test and
bots over every registered game at its fewest and most seats, stable action ids, and views
that hold only what a seat knows (docs/adapters.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyspiel  # the openspiel extra, which scripts/test installs
import pytest
from adapter_helpers import tables
from open_spiel.python.algorithms import ismcts, mcts

from p2pcards import games
from p2pcards.adapters import common, openspiel
from p2pcards.adapters.common import NUM_ACTION_IDS, assign_ids, canonical
from p2pcards.errors import GameOptionError

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("name", "seats"), tables())
def test_random_sim_test_passes_with_serialization(name: str, seats: int) -> None:
    # OpenSpiel's own check: sorted legal actions, unique action names, legal action masks,
    # clones, serialize/deserialize round trips, tensor sizes, returns within the utility
    # range and summing to the constant sum, game length within max_game_length.
    game = openspiel.load(name, players=seats)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "seats"), tables())
def test_openspiel_bots_play_every_game_to_the_end(name: str, seats: int) -> None:
    game = openspiel.load(name, players=seats, round_cap=3)
    rng = np.random.RandomState(7)
    rollout = mcts.RandomRolloutEvaluator(1, rng)
    lineups = [[pyspiel.make_uniform_random_bot(s, 10 + s) for s in range(seats)]]
    if seats == games.info(name).min_players:  # the searches once per game: they are slow
        lineups.append(
            [ismcts.ISMCTSBot(game, rollout, 1.4, 8, random_state=rng)]
            + [mcts.MCTSBot(game, 1.4, 8, rollout, random_state=rng)]
            + [pyspiel.make_uniform_random_bot(s, s) for s in range(2, seats)]
        )
    for bots in lineups:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                ids, probabilities = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(ids, p=probabilities)))
            else:
                action = bots[state.current_player()].step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
        returns = state.returns()
        assert len(returns) == seats
        if games.info(name).zero_sum:
            assert sum(returns) == pytest.approx(1.0)


def test_chance_outcomes_are_the_engines_exact_probabilities() -> None:
    game = openspiel.load("getgem", players=3)
    state = game.new_initial_state()
    assert state.is_chance_node()
    engine = state.engine_state.chance_outcomes()
    by_canonical = {canonical(outcome): p for outcome, p in engine}
    outcomes = state.chance_outcomes()
    assert len(outcomes) == len(engine)
    for number, probability in outcomes:
        assert probability == by_canonical[canonical(state.action_of(number))]


def test_views_hold_only_what_the_seat_knows() -> None:
    # Two complete states that seat 0 cannot tell apart (resampled from its information
    # set) give seat 0 the same strings and tensors, and the same legal actions, while the
    # hidden cards differ between them.
    game = openspiel.load("rpg-battle", players=3)
    state = game.new_initial_state()
    rng = np.random.RandomState(3)
    while (
        state.is_chance_node()
        or state.current_player() != 0
        or len(state.engine_state.hand(1)) < 3
    ):
        if state.is_chance_node():
            ids, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(ids, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    worlds = [state.resample_from_infostate(0, lambda x=x: x) for x in (0.1, 0.6, 0.9)]
    hands = {json.dumps(w.engine_state.hand(1)) for w in worlds}
    assert len(hands) > 1, "the resampled worlds should deal seat 1 different cards"
    for world in worlds:
        assert world.information_state_string(0) == state.information_state_string(0)
        assert world.observation_string(0) == state.observation_string(0)
        assert world.information_state_tensor(0) == state.information_state_tensor(0)
        assert world.legal_actions() == state.legal_actions()
    assert None not in json.loads(state.information_state_string(0))["hands"][0]
    assert set(json.loads(state.information_state_string(0))["hands"][1]) == {None}


def test_tensor_shape_is_the_documented_layout() -> None:
    game = openspiel.load("gammasphere", players=2)
    layout = game.layout
    width = len(layout.cards) + 2
    expected = 2 + 4 + len(layout.zones) * width + len(layout.numbers)
    assert game.information_state_tensor_size() == expected == layout.size
    assert game.observation_tensor_shape() == [expected]
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    tensor = np.array(state.observation_tensor(0))
    seat_part, current_part = tensor[:2], tensor[2:6]
    assert list(seat_part) == [1.0, 0.0]
    assert current_part[state.current_player()] == 1.0
    zones = tensor[6 : 6 + len(layout.zones) * width].reshape(len(layout.zones), width)
    hand = zones[layout.zones.index("hand:1")]  # the other seat's hand: all unseen
    assert hand[:-1].sum() == 0 and hand[-1] == len(state.engine_state.hand(1))


def test_parameters_reach_the_game_and_bad_ones_are_refused() -> None:
    game = openspiel.load("rise-of-the-guys", decks="control+tempo-machine", round_cap=7)
    assert "decks=control+tempo-machine" in str(game)
    assert game.num_players() == 2
    with pytest.raises(GameOptionError, match="2 to 5 seats"):
        openspiel.load("getgem", players=9)
    with pytest.raises(GameOptionError, match="no-such-deck"):
        openspiel.load("rise-of-the-guys", decks="no-such-deck+control")
    with pytest.raises(pyspiel.SpielError, match="round_cap"):
        openspiel.load("getgem", round_cap=2.5)  # OpenSpiel checks the types itself
    with pytest.raises(GameOptionError, match="round_cap must be int"):
        common.settings("getgem", {"round_cap": 2.5})  # as PettingZoo's env is given it
    with pytest.raises(GameOptionError, match="takes"):
        common.settings("getgem", {"decks": "a+b"})


def test_every_registered_game_is_registered_in_openspiel() -> None:
    names = {t.short_name for t in pyspiel.registered_games()}
    assert {openspiel.short_name(g) for g in games.names()} <= names
    assert openspiel.short_name("rise-of-the-guys") == "p2pcards_rise_of_the_guys"


def test_colliding_ids_are_resolved_in_canonical_order(monkeypatch: pytest.MonkeyPatch) -> None:
    # Make every first probe meet: the actions must still get distinct ids, each the same
    # whatever order the actions come in.
    real = common._probe
    monkeypatch.setattr(common, "_probe", lambda text, probe: real(text, probe) if probe else 5)
    monkeypatch.setattr(common, "_FIRST_IDS", {})
    monkeypatch.setattr(common, "_BY_OBJECT", {})
    state = games.load("getgem").new_initial_state(2)
    outcomes = [o for o, _ in state.chance_outcomes()]
    assert len(outcomes) > 3
    forward = dict(zip(outcomes, assign_ids(outcomes), strict=True))
    backward = dict(zip(outcomes[::-1], assign_ids(outcomes[::-1]), strict=True))
    assert forward == backward
    assert len(set(forward.values())) == len(outcomes)
    first = min(outcomes, key=canonical)
    assert forward[first] == 5  # the first in canonical order keeps its first probe


IDS_SCRIPT = """
import json, sys
import numpy as np
from p2pcards.adapters import openspiel
out = []
for name, seats in (("getgem", 3), ("gammasphere", 2), ("rpg-battle", 2)):
    state = openspiel.load(name, players=seats, round_cap=4).new_initial_state()
    rng = np.random.RandomState(5)
    while not state.is_terminal():
        chance = state.is_chance_node()
        ids = [a for a, _ in state.chance_outcomes()] if chance else state.legal_actions()
        out += [[openspiel.canonical_of(state, a), a] for a in ids]
        state.apply_action(int(rng.choice(ids)))
print(json.dumps(out))
"""


def test_action_ids_are_the_same_in_processes_with_different_hash_seeds() -> None:
    runs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(
            [sys.executable, "-c", IDS_SCRIPT],
            env=env, cwd=ROOT, capture_output=True, text=True, timeout=300, check=True,
        )  # fmt: skip
        runs.append(json.loads(done.stdout))
    assert runs[0] == runs[1]
    pairs = {text: number for text, number in runs[0]}
    assert len(pairs) > 100
    assert all(0 <= n < NUM_ACTION_IDS for n in pairs.values())
    # And in this process: the id is a function of the canonical form alone.
    state = openspiel.load("getgem", players=3).new_initial_state()
    for number, _ in state.chance_outcomes():
        text = openspiel.canonical_of(state, number)
        if text in pairs:
            assert pairs[text] == number
