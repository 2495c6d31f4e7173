"""Agents: they act only on observations, return legal actions, and greedy plays sensibly."""

import random
from pathlib import Path

import pytest
from positions import two_seat_position
from rpg_helpers import play_of, react_of

from ai.agents import GreedyAgent, RandomAgent, make_agent
from ai.errors import AgentSpecError
from ai.evaluation import MAX_WEIGHTS_BYTES, WEIGHTS_DIR, WeightsError, relative, weighted
from ai.match import play_match, seating, simulate
from ai.rpg_battle_eval import (
    RPG_BATTLE_FEATURES,
    RpgBattleEvaluation,
    RpgBattleWeights,
    rpg_battle_features,
)
from p2pcards import games
from p2pcards.dealer import LocalDealer
from p2pcards.games.rpg_battle import RpgBattleState
from p2pcards.games.rpg_battle.actions import Pass

GAME = games.load("rpg-battle")


def test_unknown_agent() -> None:
    with pytest.raises(
        AgentSpecError,
        match="known agents: expectimax, greedy, openspiel:ismcts, openspiel:mcts, random",
    ):
        make_agent("alphazero")


@pytest.mark.parametrize("agent", [RandomAgent(1), GreedyAgent(1)])
def test_agents_return_legal_actions_from_observations(agent: RandomAgent | GreedyAgent) -> None:
    result = play_match("rpg-battle", [agent.name, agent.name, agent.name], seed=5)
    assert result.winners  # the game finished with a winner (round cap 100)


def test_greedy_finishes_off_a_weakened_character() -> None:
    state = two_seat_position(
        ["attack-iii", "attack-ii", "heal", "heal", "heal"],
        ["heal-ii", "heal-ii", "heal-ii", "revive", "revive"],
    )
    state.apply_action(play_of(state, "attack-iii", "mystra"))  # Vex, STR 4: 12 damage
    state.apply_action(Pass())  # seat 1 holds no Quick Action
    assert state.hp("mystra") == 5
    # Kalen (STR 3) holds Attack II: 6 damage KOs Mystra, anywhere else it only wounds.
    assert GreedyAgent(0).act(state.observation(0)) == play_of(state, "attack-ii", "mystra")


def test_greedy_plays_by_a_weights_file_when_given_one(tmp_path: Path) -> None:
    # `greedy:weights=FILE` (two fits against each other): the shipped weights copied play
    # the same move; turned upside down (`scale` negated), greedy no longer finishes Mystra.
    shipped = (WEIGHTS_DIR / "rpg-battle.toml").read_text(encoding="utf-8")
    same, upside_down = tmp_path / "same.toml", tmp_path / "upside-down.toml"
    same.write_text(shipped, encoding="utf-8")
    upside_down.write_text(shipped.replace("scale = 100.0", "scale = -100.0"), encoding="utf-8")
    state = two_seat_position(
        ["attack-iii", "attack-ii", "heal", "heal", "heal"],
        ["heal-ii", "heal-ii", "heal-ii", "revive", "revive"],
    )
    state.apply_action(play_of(state, "attack-iii", "mystra"))
    state.apply_action(Pass())
    finish = play_of(state, "attack-ii", "mystra")
    assert make_agent(f"greedy:weights={same}", seed=0).act(state.observation(0)) == finish
    assert make_agent(f"greedy:weights={upside_down}", seed=0).act(state.observation(0)) != finish


def test_greedy_dodges_a_lethal_hit() -> None:
    state = two_seat_position(
        ["attack-iii", "attack-ii", "heal", "heal", "heal"],
        ["dodge", "heal-ii", "heal-ii", "revive", "revive"],
    )
    state.apply_action(play_of(state, "attack-iii", "mystra"))
    state.apply_action(Pass())  # seat 1 takes 12: Mystra at 5
    state.apply_action(play_of(state, "attack-ii", "mystra"))  # Kalen: 6 damage would KO her
    assert state.decision().kind == "react" and state.current_player() == 1
    assert GreedyAgent(0).act(state.observation(1)) == react_of(state, "dodge")


def test_greedy_beats_random_most_of_the_time() -> None:
    tally = simulate("rpg-battle", ["greedy", "random"], seats=2, num_games=40, seed=100)
    assert tally.wins_by_agent["greedy"] >= 0.75 * 40


def test_seating_rotates_agents_round_the_table() -> None:
    assert seating(["a", "b"], 3, 0) == ["a", "b", "a"]
    assert seating(["a", "b"], 3, 1) == ["b", "a", "b"]


def test_matches_are_reproducible() -> None:
    assert play_match("rpg-battle", ["greedy", "random"], 9) == play_match(
        "rpg-battle", ["greedy", "random"], 9
    )


def test_a_broken_weights_file_is_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "missing.toml"
    missing.write_text("alive = 1.0\n")
    with pytest.raises(WeightsError, match="lack 'str'"):
        RpgBattleWeights.load(missing)
    malformed = tmp_path / "malformed.toml"
    malformed.write_text("alive = = 1\n")
    with pytest.raises(WeightsError, match="cannot read weights"):
        RpgBattleWeights.load(malformed)
    huge = tmp_path / "huge.toml"
    shipped_text = (WEIGHTS_DIR / "rpg-battle.toml").read_text()
    huge.write_text(shipped_text.replace("scale = 100.0", "scale = 1e400"))
    with pytest.raises(WeightsError, match="must all be finite"):  # 1e400 reads as inf
        RpgBattleWeights.load(huge)
    deep = tmp_path / "deep.toml"
    deep.write_text("alive = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(WeightsError, match="nested too deep"):
        RpgBattleWeights.load(deep)
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * (MAX_WEIGHTS_BYTES + 1) + "\n")
    with pytest.raises(WeightsError, match="over"):
        RpgBattleWeights.load(big)
    shipped = RpgBattleWeights.load()  # the committed file has every weight
    assert len(shipped.vector()) == len(RPG_BATTLE_FEATURES)


def test_the_evaluation_is_the_weighted_features_the_tuner_fits() -> None:
    # The evaluation looks a character's weighted standing up in a table, for speed; the tuner
    # (scripts/tune_weights.py) fits weights to rpg_battle_features. The two must agree, at
    # every position of a game: each seat's weighted features, minus the other's, scaled.
    evaluate = RpgBattleEvaluation(RpgBattleWeights.load())
    w = evaluate.weights
    state = GAME.new_initial_state(2, round_cap=30)
    dealer, rng = LocalDealer(4), random.Random(4)
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(dealer.sample(state))
            continue
        assert isinstance(state, RpgBattleState)
        mine, theirs = (
            weighted(w.vector(), rpg_battle_features(state, s, w.hp_scale, w.hand_cap))
            for s in (0, 1)
        )
        expected = relative([mine, theirs], w.scale)
        assert evaluate.values(state) == pytest.approx(expected, abs=1e-9)
        state.apply_action(rng.choice(state.legal_actions()))
        checked += 1
    assert checked > 50
