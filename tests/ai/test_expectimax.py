"""Expectimax: right moves in positions worked out by hand, no peeking, reproducible.

The positions are played from the draft (tests/ai/positions.py). Each right move is checked
under several seeds, that is several sets of sampled worlds, so a test does not pass by luck.
"""

import dataclasses
import gc
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from gamma_helpers import Table as GammaTable
from guys_helpers import Table as GuysTable
from positions import last_stand, two_seat_position, wounded_vex
from rpg_helpers import play_of, react_of

from ai import match
from ai.agents import Agent, make_agent
from ai.errors import AgentSpecError
from ai.evaluation import WEIGHTS_DIR, evaluation
from ai.expectimax import ExpectimaxAgent, _Budget, _Luck, _MaxN, _Replay, _TwoSided
from ai.match import play_match
from p2pcards import games
from p2pcards.engine import Action, State
from p2pcards.games.rpg_battle.actions import Pass

SEEDS = range(4)


def agent(seed: int = 7) -> ExpectimaxAgent:
    return ExpectimaxAgent(seed, nodes=6000, samples=16)


@pytest.mark.parametrize("seed", SEEDS)
def test_it_takes_the_game_winning_blow(seed: int) -> None:
    # Rulebook line 26: "The winner is the last player with at least one character still
    # active." Sybil (8 HP) is seat 1's last; only Vex's Attack II (STR 4 x 2) knocks her out.
    # Stealing first, or passing to Kalen or Thorne (STR 3), wins nothing this turn.
    state = last_stand(["attack-ii", "steal", "heal"], "heal")
    assert agent(seed).act(state.observation(0)) == play_of(state, "attack-ii", "sybil")


@pytest.mark.parametrize("seed", SEEDS)
def test_it_dodges_the_blow_that_would_lose_the_game(seed: int) -> None:
    # Line 58, Dodge: "take zero damage". Taking the hit loses at once (line 26).
    state = last_stand(["attack-ii", "steal", "heal"], "dodge")
    state.apply_action(play_of(state, "attack-ii", "sybil"))
    assert agent(seed).act(state.observation(1)) == react_of(state, "dodge")


@pytest.mark.parametrize("seed", SEEDS)
def test_it_heals_a_character_one_hit_from_a_knock_out(seed: int) -> None:
    # Vex (STR 4, MAG 4) is at 1 HP; Anya's Heal III (line 45, MAG 2 x 3 = 6) keeps the best
    # character standing, where Attack III (line 40, 6 damage) only scratches a healthy one.
    state = wounded_vex("attack-iii", mystra_hit=False)
    assert state.hp("vex") == 1
    assert agent(seed).act(state.observation(0)) == play_of(state, "heal-iii", "vex")


@pytest.mark.parametrize("seed", SEEDS)
def test_it_attacks_when_the_attack_knocks_out_and_the_heal_can_wait(seed: int) -> None:
    # Same hand, but Vex is at 9 and Mystra at 5: Anya's 6 damage knocks Mystra out.
    state = wounded_vex("attack", mystra_hit=True)
    assert (state.hp("vex"), state.hp("mystra")) == (9, 5)
    assert agent(seed).act(state.observation(0)) == play_of(state, "attack-iii", "mystra")


@pytest.mark.parametrize("seed", SEEDS)
def test_it_takes_the_knock_out(seed: int) -> None:
    state = two_seat_position(
        ["attack-iii", "attack-ii", "heal", "heal", "heal"],
        ["heal-ii", "heal-ii", "heal-ii", "revive", "revive"],
    )
    state.apply_action(play_of(state, "attack-iii", "mystra"))  # Vex: 12 damage
    state.apply_action(Pass())
    # Kalen's Attack II (6) knocks out Mystra (5 HP left); anywhere else it only wounds. Seat
    # 1 may Revive her (line 51) at a few HP, and the evaluation counts a character at 1 HP
    # as fully alive, so a horizon just after that Revive sees the knock-out undone: at
    # depths 4 and 5 passing comes out level with it or ahead. Six decisions see seat 0's
    # answer to the Revive, and the knock-out ahead in every sample set.
    searcher = ExpectimaxAgent(seed, nodes=10**8, samples=16, max_depth=6)
    assert searcher.act(state.observation(0)) == play_of(state, "attack-ii", "mystra")


def test_it_dodges_the_hit_that_would_knock_it_out() -> None:
    state = two_seat_position(
        ["attack-iii", "attack-ii", "heal", "heal", "heal"],
        ["dodge", "heal-ii", "heal-ii", "revive", "revive"],
    )
    state.apply_action(play_of(state, "attack-iii", "mystra"))
    state.apply_action(Pass())  # Mystra at 5
    state.apply_action(play_of(state, "attack-ii", "mystra"))  # 6 damage coming
    assert agent().act(state.observation(1)) == react_of(state, "dodge")


def test_it_cannot_see_hidden_cards() -> None:
    # Two games that differ only in seat 1's hand, which seat 0 may not see. The hands
    # matter: handed the complete states, the same search (same seed, same budget) would
    # steal from the hand of Dodges and Counter rather than attack into it. Handed what
    # seat 0 may know, as it always is, it sees one observation and makes one choice.
    mine = ["attack-iii", "attack-ii", "heal", "revive", "steal"]
    one = two_seat_position(mine, ["dodge", "dodge", "counter", "attack-all", "attack-iii"])
    other = two_seat_position(mine, ["heal", "heal-ii", "draw", "discard", "absorb"])
    assert agent().act(one.clone()) != agent().act(other.clone())  # a peek would tell
    assert one.observation(0).to_json() == other.observation(0).to_json()
    assert agent().act(one.observation(0)) == agent().act(other.observation(0))


def guys_third_turn(hand1: list[str]) -> State:
    """Rise of the Guys at seat 0's first decision of turn 3, seat 1 having drawn `hand1`
    from a deck built around it, neither seat having played."""
    t = GuysTable(["hothead", "smack", "mr-doctor", "rock-thrower", "handsome-man"], hand1)
    t.to_turn(3)
    return t.state


def gamma_third_turn(hand1: list[str]) -> State:
    """Gammasphere at the start of seat 0's second turn, seat 1 holding `hand1` (and Pylons)
    from a deck built around it, neither seat having played."""
    t = GammaTable(["zealot", "pylon", "pylon", "zerglet"], hand1)
    t.to_turn(3)
    return t.state


@pytest.mark.parametrize(
    ("position", "hand1", "other_hand1"),
    [
        (
            guys_third_turn,
            ["laser-tag", "pickpocket", "ninja-nate", "hothead", "smack"],
            ["mr-doctor", "lunch-lady", "pinchers", "nurse-nancy", "group-hug"],
        ),
        (
            gamma_third_turn,
            ["kamehamehaha", "senzoo-bean", "ki-blast", "saiyan-elite"],
            ["nuclear-launch-detected", "siege-tank", "space-marine", "bunker"],
        ),
    ],
)
def test_it_cannot_see_the_other_hand_or_deck_of_a_collectible_game(
    position: Callable[[list[str]], State], hand1: list[str], other_hand1: list[str]
) -> None:
    # The same public game where seat 1's hand and whole decklist differ (own decks are
    # secret, DESIGN.md section 9): seat 0's observations are the same, and so are the
    # worlds a search samples from them (the decklist is no part of to_json, but a world
    # filled from the real one would tell), so its choice is the same.
    one, other = position(hand1), position(other_hand1)
    assert one.current_player() == 0 and other.current_player() == 0
    assert one.to_json() != other.to_json()  # the complete states differ
    assert one.observation(0).to_json() == other.observation(0).to_json()
    for seed in range(3):
        worlds = [s.observation(0).determinize(random.Random(seed)) for s in (one, other)]
        assert worlds[0].to_json() == worlds[1].to_json()
    search = "expectimax:nodes=400:samples=4"
    assert make_agent(search, 3).act(one.observation(0)) == make_agent(search, 3).act(
        other.observation(0)
    )


@pytest.mark.parametrize(
    ("game", "specs"),
    [
        ("rpg-battle", ["expectimax:nodes=300", "random", "expectimax:nodes=300"]),
        ("rise-of-the-guys", ["expectimax:nodes=100:samples=2", "greedy"]),
        ("gammasphere", ["random", "expectimax:nodes=100:samples=2"]),
    ],
)
def test_an_agent_is_handed_only_its_seats_observation(
    game: str, specs: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # What keeps the search blind: every state a game hands an agent is its own seat's
    # replica (`viewer` is the seat), never the complete state.
    handed: list[tuple[int, int | None]] = []

    class Spy:
        def __init__(self, agent: Agent) -> None:
            self.agent, self.name = agent, agent.name

        def act(self, observation: State) -> Action:
            handed.append((observation.current_player(), observation.viewer))
            return self.agent.act(observation)

    def spied(spec: str, seed: int | None = None, move_timeout: float | None = None) -> Spy:
        return Spy(make_agent(spec, seed, move_timeout))

    monkeypatch.setattr(match, "make_agent", spied)
    result = match.play_match(game, specs, 5, round_cap=4)
    assert result.status == "ok" and len(handed) > 10
    assert all(viewer == seat for seat, viewer in handed), handed
    assert {seat for seat, _ in handed} == set(range(len(specs)))


def test_same_seed_same_budget_same_move_and_report() -> None:
    state = two_seat_position(
        ["attack-iii", "attack-ii", "heal", "revive", "steal"],
        ["dodge", "heal", "draw", "discard", "absorb"],
    )
    first, second = agent(3), agent(3)
    assert first.act(state.observation(0)) == second.act(state.observation(0))
    assert first.last is not None and second.last is not None
    assert first.last.values == second.last.values and first.last.depth >= 2


@pytest.mark.parametrize("enabled", [True, False])
def test_a_search_leaves_the_garbage_collector_as_it_found_it(enabled: bool) -> None:
    state = two_seat_position(["attack-ii", "heal"], ["dodge", "heal"])
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        ExpectimaxAgent(1, nodes=300).act(state.observation(0))
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


def test_a_luck_key_replays_the_very_draws_of_a_new_generator() -> None:
    # The search draws a node's chance outcomes from Random(seed); the replay must draw the
    # same ones, however many and whichever node of the key reads them first.
    replay, weights = _Replay(), [3, 0, 2, 5, 1]
    for seed in (0, 7, -3, 2**63 + 5):
        luck = _Luck(seed)
        short = replay.restart(luck).choices(range(5), weights, k=3)
        long = replay.restart(luck).choices(range(5), weights, k=40)
        assert long == random.Random(seed).choices(range(5), weights, k=40)
        assert short == long[:3]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("expectimax:depth=3", "takes"),
        ("expectimax:nodes=many", "needs a whole number"),
        ("expectimax:think_ms=soon", "needs a number"),
        ("expectimax:paranoid=maybe", "true or false"),
        ("greedy:nodes=5", "greedy takes weights; not"),
        ("random:nodes=5", "takes no options"),
    ],
)
def test_agent_options_are_checked(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec)


def test_agent_options_are_applied() -> None:
    made = make_agent("expectimax:nodes=900:paranoid=true:samples=2", 1)
    assert isinstance(made, ExpectimaxAgent)
    assert (made.nodes, made.paranoid, made.samples, made.think_ms) == (900, True, 2, None)


@pytest.mark.parametrize("probe", [False, True])
@pytest.mark.parametrize("paranoid", [False, True])
def test_pruning_changes_no_value_and_saves_nodes(paranoid: bool, probe: bool) -> None:
    # Alpha-beta, Star1 and Star2's probes only skip subtrees that cannot matter: every root
    # value of the pruned search equals the full expectimax value. Without the probes (the
    # default: in rpg-battle they cost about what they save) it takes fewer nodes.
    state = wounded_vex("attack-iii", mystra_hit=False)
    pruned, full = (
        ExpectimaxAgent(
            1, nodes=10**8, max_depth=4, samples=3, paranoid=paranoid, prune=prune, probe=probe
        )
        for prune in (True, False)
    )
    pruned.act(state.observation(0))
    full.act(state.observation(0))
    assert pruned.last is not None and full.last is not None
    assert pruned.last.depth == full.last.depth == 4
    assert pruned.last.values == pytest.approx(full.last.values, abs=1e-9)
    if not probe:
        assert pruned.last.nodes < full.last.nodes


@pytest.mark.parametrize("zero_sum", [True, False])
def test_two_seats_search_two_sided_only_in_a_zero_sum_game(
    zero_sum: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With two seats, the other seat minimising our value is the same as it maximising its
    # own only if the game is zero-sum, as the registry says it is (GameInfo.zero_sum).
    info = dataclasses.replace(games.info("rpg-battle"), zero_sum=zero_sum)
    monkeypatch.setitem(games._REGISTRY, "rpg-battle", info)
    observation = wounded_vex("attack-iii", mystra_hit=False).observation(0)
    assert observation.num_players == 2
    searcher = ExpectimaxAgent(1, nodes=100)
    sample = searcher._sample(observation, random.Random(1), _Budget(100, None, 0.0))
    assert isinstance(sample.search, _TwoSided if zero_sum else _MaxN)


def test_the_whole_budget_goes_into_samples_that_count() -> None:
    # Iterative deepening's last iteration is seldom finished in time. Rather than throw it
    # away, the agent stops deepening when the next iteration looks too big for what is left,
    # searches more worlds at the depth reached, and spends the rest deepening samples one by
    # one. Every sample it reports reached the reported depth.
    state = wounded_vex("attack-iii", mystra_hit=False)
    budget = 20_000
    searcher = ExpectimaxAgent(5, nodes=budget, samples=4)
    searcher.act(state.observation(0))
    report = searcher.last
    assert report is not None
    assert report.nodes > budget  # spent to the last node: the budget ran out mid-search
    assert report.samples > 4  # more worlds than it started with
    # With no budget to speak of at that depth, the same four worlds search to exactly it.
    deep = ExpectimaxAgent(5, nodes=10**8, samples=4, max_depth=report.depth)
    deep.act(state.observation(0))
    assert deep.last is not None and deep.last.samples == 4
    assert deep.last.depth == report.depth


def test_explain_ranks_the_actions_and_marks_the_choice() -> None:
    state = wounded_vex("attack-iii", mystra_hit=False)
    searcher = agent(0)
    chosen = searcher.act(state.observation(0))
    assert searcher.last is not None
    text = searcher.last.explain(str, top=2)
    assert text.startswith(f"depth {searcher.last.depth}, {searcher.last.samples} samples, ")
    first, second = text.splitlines()[1:]
    assert first.endswith(f"{chosen}  <- chosen") and "chosen" not in second
    ranked = searcher.last.ranked()
    assert ranked[0][0] == chosen and ranked[0][1] >= ranked[1][1]


@pytest.mark.parametrize(
    "spec", ["expectimax:nodes=200:samples=2", "expectimax:nodes=200:paranoid=true"]
)
def test_it_plays_whole_three_seat_games(spec: str) -> None:
    # Three seats: max-n (no pruning), or paranoid alpha-beta; both must finish legally.
    result = play_match("rpg-battle", [spec, "greedy", "random"], seed=3)
    assert result.winners and sum(result.returns) == pytest.approx(1.0)


def test_past_the_horizon_a_turn_search_plays_the_rest_of_its_turn_greedily() -> None:
    # With a turn beam the depth counts turns: at depth 0, each root move's value is the
    # evaluation once the mover's turn is played out by the moves its evaluation likes best,
    # the chance on the way sampled as a settled evaluation samples it, up to the opponent's
    # first decision. (Gammasphere, line 26-30: a turn is draws, plays, attacks, the end.)
    state = gamma_third_turn(["kamehamehaha", "senzoo-bean", "ki-blast", "saiyan-elite"])
    evaluate = evaluation("gammasphere")
    search = _TwoSided(0, 2, evaluate, 1, _Budget(None, None, 0.0), 7, turn_beam=1)

    def child(position: State, action: Action) -> State:
        after = position.clone()
        after.apply_legal(action)
        return after

    actions = state.legal_actions()
    assert len(actions) > 2
    lengths = []
    for action in actions:
        line, decisions = search._settle(child(state, action)), 0
        while not line.is_terminal() and line.current_player() == 0:
            choices = [child(line, a) for a in line.legal_actions()]
            line = search._settle(max(choices, key=lambda s: search._settled_values(s)[0]))
            decisions += 1
        lengths.append(decisions)
        assert line.is_terminal() or line.current_player() == 1
        assert search.root_value(child(state, action), 0) == evaluate.values(line)[0]
    assert max(lengths) >= 2  # some lines are turns of several decisions


def test_a_weights_file_replaces_the_shipped_weights(tmp_path: Path) -> None:
    # `weights=FILE` plays another fit of the evaluation (two fits side by side): the same
    # weights search the same values, doubled ones (`scale` times two) twice the values.
    shipped = (WEIGHTS_DIR / "rpg-battle.toml").read_text(encoding="utf-8")
    same, doubled = tmp_path / "same.toml", tmp_path / "doubled.toml"
    same.write_text(shipped, encoding="utf-8")
    doubled.write_text(shipped.replace("scale = 100.0", "scale = 200.0"), encoding="utf-8")
    observation = wounded_vex("attack-iii", mystra_hit=False).observation(0)
    found = {}
    for name, weights in (("shipped", None), ("same", same), ("doubled", doubled)):
        path = None if weights is None else str(weights)
        searcher = ExpectimaxAgent(2, nodes=3000, samples=2, max_depth=1, weights=path)
        searcher.act(observation)
        assert searcher.last is not None
        found[name] = searcher.last.values
    assert found["same"] == found["shipped"]
    assert found["doubled"] == {a: pytest.approx(2 * v) for a, v in found["shipped"].items()}
