"""The OpenSpiel adapter (`p2pcards.adapters.openspiel`): OpenSpiel's own simulation test and
bots over every registered game at its fewest and most seats, stable action ids, and views
that hold only what a seat knows (docs/adapters.md)."""

from __future__ import annotations

import base64
import json
import os
import pickle
import re
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
    # range and summing to the constant sum, game length within max_game_length. One game
    # per table: every check runs at each of its steps, and the conformance suite plays three
    # more games of each table; a second game cost 18 s (RPG Get! at 5 seats) for no new check.
    game = openspiel.load(name, players=seats)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "seats"), tables())
def test_openspiel_bots_play_every_game_to_the_end(name: str, seats: int) -> None:
    game = openspiel.load(name, players=seats, round_cap=3)
    rng = np.random.RandomState(7)
    rollout = mcts.RandomRolloutEvaluator(1, rng)
    lineups = [[pyspiel.make_uniform_random_bot(s, 10 + s) for s in range(seats)]]
    if seats == games.info(name).min_players:  # the searches once per game: they are slow
        lineups.append(
            # Inconsistent action sets allowed: in getgem and RPG Get! a seat's legal actions
            # can depend on a card it cannot see (docs/adapters.md), which the default
            # ISMCTS takes for a broken game.
            [
                ismcts.ISMCTSBot(
                    game, rollout, 1.4, 8, random_state=rng, allow_inconsistent_action_sets=True
                )
            ]
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
        state.is_chance_node() or state.current_player() != 0 or len(state.engine_state.hand(1)) < 3
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
    for cache in ("_FIRST_IDS", "_BY_OBJECT", "_HOLDER"):
        monkeypatch.setattr(common, cache, {})
    monkeypatch.setattr(common, "_KEPT", [])
    monkeypatch.setattr(common, "_SHARED", set())
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


def random_state(game: pyspiel.Game, seed: int, steps: int) -> openspiel.P2PCardsState:
    """A state `steps` random steps (decisions and chance alike) from the start."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            ids, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(ids, p=probabilities)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize(("name", "seats"), tables())
def test_a_serialized_state_is_its_parameters_and_steps_and_replays(name: str, seats: int) -> None:
    game = openspiel.load(name, players=seats, round_cap=5)
    state = random_state(game, seats, 60)
    text = state.serialize()
    record = json.loads(text)
    assert record["history"] == state.history()  # the steps' ids, chance outcomes included
    assert record["params"] == {"players": seats, **dict(game.settings.options)}
    again = game.deserialize_state(text)
    other_game, other = openspiel.deserialize(text)
    for copy in (again, other):
        assert str(copy) == str(state) and copy.history() == state.history()
        assert copy.serialize() == text
    assert str(other_game) == str(game)
    # OpenSpiel's own form carries the same record inside its pickle (the random_sim_test
    # above goes through it): see docs/adapters.md.
    _, through_pyspiel = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state)
    )
    assert str(through_pyspiel) == str(state)


def test_a_malformed_or_hostile_serialized_state_is_refused_by_name() -> None:
    game = openspiel.load("getgem", players=2, round_cap=5)
    good = json.loads(random_state(game, 1, 30).serialize())
    illegal = min(set(range(10)) - set(game.replay(good["history"][:4]).legal_actions()))

    def changed(**fields: object) -> str:
        return json.dumps({**good, **fields})

    # A pickle that would run a command, as OpenSpiel's own form would unpickle it.
    hostile = base64.b64encode(pickle.dumps(_Boom())).decode()
    cases = {
        hostile: "not JSON",
        "": "not JSON",
        "[" * 100_000: "nests too deeply",
        '{"format": NaN}': "NaN",
        "[]": "a JSON object of",
        changed(format="p2pcards-save"): "not a serialized state",
        changed(version=2): "version 2",
        changed(version=True): "not a serialized state",
        changed(game="chess"): "unknown game",
        changed(rules_version=1): "rules version 1",
        changed(params={"players": 9}): "bad params",
        changed(params={"players": "2"}): "must be int",
        changed(params={"colour": 1}): "bad params",
        changed(params=[2]): "params must be",
        changed(history={"a": 1}): "history must be",
        changed(history=[*good["history"][:3], -1]): "step 3: -1 is not an action id",
        changed(history=[*good["history"][:3], True]): "step 3: True",
        changed(history=[*good["history"][:3], NUM_ACTION_IDS]): "not an action id",
        changed(history=[*good["history"][:4], illegal]): f"step 4: action id {illegal} is not",
        "x" * (common.MAX_RECORD_CHARS + 1): "too long",
    }
    for text, message in cases.items():
        with pytest.raises(common.SerializationError, match=re.escape(message)):
            openspiel.deserialize(text)
        with pytest.raises(common.SerializationError):
            game.deserialize_state(text)
    with pytest.raises(common.SerializationError, match="another table"):
        openspiel.load("getgem", players=3).deserialize_state(json.dumps(good))
    assert not _Boom.ran


def test_a_state_made_around_an_engine_state_has_no_steps_to_serialize() -> None:
    game = openspiel.load("rpg-battle", players=2)
    state = random_state(game, 2, 20)
    world = state.resample_from_infostate(state.current_player(), lambda: 0.5)
    with pytest.raises(common.SerializationError, match="no steps from the initial state"):
        world.serialize()


class _Boom:
    """What a hostile pickle would run."""

    ran = False

    def __reduce__(self) -> tuple[object, ...]:
        return (_Boom._run, ())

    @staticmethod
    def _run() -> None:
        _Boom.ran = True
