"""Expectimax: right moves in positions worked out by hand, no peeking, reproducible."""

import pytest
from positions import two_seat_position

from ai.agents import AgentSpecError, make_agent
from ai.expectimax import ExpectimaxAgent
from p2pcards.games.rpg_battle.actions import Pass, Play, React


def agent(seed: int = 7) -> ExpectimaxAgent:
    return ExpectimaxAgent(seed, nodes=1500, samples=3)


def test_it_takes_the_knock_out() -> None:
    state = two_seat_position(
        ["attack-iii", "attack-ii", "heal", "heal", "heal"],
        ["heal-ii", "heal-ii", "heal-ii", "revive", "revive"],
    )
    state.apply_action(Play("attack-iii", "mystra"))  # Vex: 12 damage
    state.apply_action(Pass())
    # Kalen's Attack II (6) knocks out Mystra (5 HP left); anywhere else it only wounds.
    assert agent().act(state.observation(0)) == Play("attack-ii", "mystra")


def test_it_dodges_the_hit_that_would_knock_it_out() -> None:
    state = two_seat_position(
        ["attack-iii", "attack-ii", "heal", "heal", "heal"],
        ["dodge", "heal-ii", "heal-ii", "revive", "revive"],
    )
    state.apply_action(Play("attack-iii", "mystra"))
    state.apply_action(Pass())  # Mystra at 5
    state.apply_action(Play("attack-ii", "mystra"))  # 6 damage coming
    assert agent().act(state.observation(1)) == React("dodge")


def test_it_cannot_see_hidden_cards() -> None:
    # Two games that differ only in seat 1's hand: seat 0 sees the same observation, so with
    # the same seed and node budget it must choose the same action.
    mine = ["attack-iii", "attack-ii", "heal", "revive", "steal"]
    one = two_seat_position(mine, ["dodge", "dodge", "counter", "attack-all", "attack-iii"])
    other = two_seat_position(mine, ["heal", "heal-ii", "draw", "discard", "absorb"])
    assert one.observation(0).to_json() == other.observation(0).to_json()
    assert agent().act(one.observation(0)) == agent().act(other.observation(0))


def test_same_seed_same_budget_same_move_and_report() -> None:
    state = two_seat_position(
        ["attack-iii", "attack-ii", "heal", "revive", "steal"],
        ["dodge", "heal", "draw", "discard", "absorb"],
    )
    first, second = agent(3), agent(3)
    assert first.act(state.observation(0)) == second.act(state.observation(0))
    assert first.last is not None and second.last is not None
    assert first.last.values == second.last.values and first.last.depth >= 2


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("expectimax:depth=3", "takes"),
        ("expectimax:nodes=many", "needs a number"),
        ("expectimax:paranoid=maybe", "true/false"),
        ("greedy:nodes=5", "takes no options"),
    ],
)
def test_agent_options_are_checked(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec)


def test_agent_options_are_applied() -> None:
    made = make_agent("expectimax:nodes=900:paranoid=true:samples=2", 1)
    assert isinstance(made, ExpectimaxAgent)
    assert (made.nodes, made.paranoid, made.samples, made.think_ms) == (900, True, 2, None)
