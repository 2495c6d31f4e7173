"""Reading the opponents (ai/belief.py): worlds weighed by the decisions the other seats took."""

import asyncio
import random
from typing import Any

import pytest
from rpg_helpers import play, setup

from ai import match
from ai.agents import make_agent
from ai.belief import FLOOR, Belief, Worlds, decision_probability, show_decision
from ai.expectimax import ExpectimaxAgent
from cli.table import decider
from p2pcards import games
from p2pcards.dealer import LocalDealer
from p2pcards.engine import Action, State
from p2pcards.errors import IllegalActionError
from p2pcards.games.rpg_battle.actions import Pass, Play
from p2pcards.history import witnessed


def attacked_mystra() -> State:
    """Seat 0's Vex has played Attack III at seat 1's Mystra (12 damage, her HP 17): seat 1
    may answer with a Quick Action (Dodge or Counter) if it holds one, or take the hit.
    Seat 1 holds only Revives, so it can but pass."""
    state = setup([["vex", "kalen", "anya"], ["sera", "gideon", "mystra"]], {0: ["attack-iii"]})
    play(state, "attack-iii", "mystra")
    assert state.decision().kind == "react" and state.decision().seat == 1
    return state


def share_holding(states: list[State], weights: list[float], card: str) -> float:
    """The weight of the worlds in which seat 1 holds `card`."""
    return sum(w for s, w in zip(states, weights, strict=True) if card in s.hand(1))


def test_a_hit_taken_makes_a_quick_action_in_hand_unlikely() -> None:
    # Rulebook (seed 003) line 30: a Quick Action may be played in answer to an attack; a
    # seat that let 12 damage through most likely held none. Greedy's play would have
    # dodged, so the worlds where seat 1 holds a Dodge fall far below their uniform share.
    state = attacked_mystra()
    belief = Belief()
    belief.watch(state.observation(0), Pass())
    state.apply_action(Pass())
    worlds = belief.worlds(state.observation(0), random.Random(1), 25, 10**6)
    assert worlds is not None and worlds.decisions == 1
    uniform = [1 / len(worlds.states)] * len(worlds.states)
    assert share_holding(worlds.states, uniform, "dodge") > 0.2  # 7 Dodges in 100 cards
    assert share_holding(worlds.states, worlds.weights, "dodge") < 0.1
    # A card that could not have answered the attack keeps its share, near enough.
    heal_uniform = share_holding(worlds.states, uniform, "heal")
    assert share_holding(worlds.states, worlds.weights, "heal") == pytest.approx(
        heal_uniform, abs=0.1
    )


def test_a_seat_own_decisions_and_a_complete_state_teach_nothing() -> None:
    state = attacked_mystra()
    belief = Belief()
    belief.watch(state.observation(1), Pass())  # the watcher's own decision
    belief.watch(state.clone(), Pass())  # an oracle's view: nothing hidden
    assert belief.watched == []
    assert belief.worlds(state.observation(0), random.Random(1), 6, 10**6) is None


def test_no_budget_no_reading() -> None:
    state = attacked_mystra()
    belief = Belief()
    belief.watch(state.observation(0), Pass())
    state.apply_action(Pass())
    assert belief.worlds(state.observation(0), random.Random(1), 6, 0) is None


def test_the_model_spreads_its_floor_and_shares_the_best() -> None:
    a, b, c = Play("attack", "vex", None), Play("heal", "vex", None), Pass()
    scored: list[tuple[Action, float]] = [(a, 5.0), (b, 5.0), (c, 1.0)]
    assert decision_probability(scored, a) == pytest.approx(FLOOR / 3 + (1 - FLOOR) / 2)
    assert decision_probability(scored, c) == pytest.approx(FLOOR / 3)
    # Not legal in this world at all: no more likely than a shunned action.
    assert decision_probability(scored, Play("steal", None, 1)) == pytest.approx(FLOOR / 3)
    assert decision_probability([(a, 0.0)], c) == 1.0  # a forced move tells nothing


def test_knowing_refuses_a_card_that_cannot_be_there() -> None:
    state = attacked_mystra().observation(0)
    slot = state.hand_slots(1)[0]
    assert state.knowing({slot: "dodge"}).card_at(slot) == "dodge"
    assert state.card_at(slot) is None  # a copy: the observation itself is unchanged
    mine = state.hand_slots(0)[0]
    with pytest.raises(IllegalActionError):
        state.knowing({mine: "dodge" if state.card_at(mine) != "dodge" else "heal"})


def test_reading_is_deterministic_under_a_seed() -> None:
    reports = []
    for _ in range(2):
        state = attacked_mystra()
        agent = ExpectimaxAgent(5, nodes=1500, read=True)
        show_decision([agent, None], state, Pass())
        state.apply_action(Pass())
        agent.act(state.observation(0))
        assert agent.last is not None and agent.belief is not None
        assert len(agent.belief.watched) == 1
        reports.append((agent.last.action, agent.last.values, agent.last.nodes))
    assert reports[0] == reports[1]


def test_a_reading_agent_watches_only_from_its_own_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    # What keeps reading blind: every view a harness shows a watching agent is its own
    # seat's replica, and another seat's decision comes in the public form it was told.
    watched: list[tuple[int | None, int, Action]] = []
    original = ExpectimaxAgent.watch

    def spy(self: ExpectimaxAgent, before: State, action: Action) -> None:
        watched.append((before.viewer, before.current_player(), action))
        original(self, before, action)

    monkeypatch.setattr(ExpectimaxAgent, "watch", spy)
    result = match.play_match("getgem", ["expectimax:nodes=300:read=true", "greedy", "greedy"], 3)
    assert result.status == "ok" and len(watched) > 10
    assert all(viewer == 0 and mover != 0 for viewer, mover, _ in watched)
    assert all(action == action.public() for _, _, action in watched)


@pytest.mark.parametrize(
    ("game", "seats"),
    [(game, 3 if game == "getgem" else 2) for game in games.names()],
)
def test_reading_agents_read_in_every_game(
    game: str, seats: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    weighed: list[int] = []
    original = Belief.worlds

    def spy(self: Belief, *args: Any) -> Worlds | None:
        worlds = original(self, *args)
        if worlds is not None:
            weighed.append(worlds.decisions)
        return worlds

    monkeypatch.setattr(Belief, "worlds", spy)
    specs = ["expectimax:nodes=200:read=true"] + ["greedy"] * (seats - 1)
    result = match.play_match(game, specs, 1, round_cap=4)
    assert result.status == "ok", result.error
    assert weighed and max(weighed) >= 1


@pytest.mark.parametrize(("game", "seats"), [("rpg-battle", 2), ("getgem", 3)])
def test_a_reading_agent_at_a_networked_table_reads_as_at_a_local_one(
    game: str, seats: int
) -> None:
    # A networked seat is shown each step through its table's hook (`decider`'s watch, the
    # table peer's `on_step`) with the seat's live replica, which the step then changes; a
    # local match shows a fresh observation of each decision. The same agent must read the
    # same worlds either way, so it plays the same moves.
    spec = "expectimax:nodes=400:samples=3:read=true"
    local = make_agent(spec, 7)
    seating = decider(spec, 7)
    assert seating.watch is not None and seating.replayed  # a resumed seat shows it the game
    state = games.load(game).new_initial_state(seats, round_cap=6)
    dealer = LocalDealer(3)
    others = [make_agent("greedy", seat) for seat in range(seats)]
    replica: State | None = None  # seat 0's, as a table keeps it: told actions applied
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = dealer.sample(state)
        elif state.current_player() == 0:
            action = local.act(state.observation(0))
            assert asyncio.run(seating.decide(state.observation(0))) == action
            moves += 1
        else:
            action = others[state.current_player()].act(state.observation(state.current_player()))
            show_decision([local], state, action)
        if replica is None:
            replica = state.observation(0)
        seating.watch(replica, witnessed(state, action, 0).action)
        replica.apply_action(witnessed(state, action, 0).action)
        state.apply_action(action)
    assert isinstance(local, ExpectimaxAgent) and local.belief is not None
    assert moves >= 3 and len(local.belief.watched) >= 3
