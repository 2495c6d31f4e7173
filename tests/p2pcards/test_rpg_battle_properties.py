"""Property tests of rpg-battle over random playouts, for every seat count from 2 to 8.

Each example plays one whole game: a seed drawn by Hypothesis drives a `LocalDealer` at chance
nodes and a `random.Random` that picks uniformly among the legal actions elsewhere; a round cap,
also drawn, makes sure the game ends. Every test checks its invariant after every step.
"""

from __future__ import annotations

import json
import random
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from importlib import resources
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from replica_helpers import step_replicas

from p2pcards import CHANCE, TERMINAL, games
from p2pcards.dealer import LocalDealer
from p2pcards.engine import Action, ChanceOutcome, State
from p2pcards.errors import IllegalActionError
from p2pcards.games.rpg_battle import RpgBattleState
from p2pcards.games.rpg_battle.actions import Deal, Play

GAME = games.load("rpg-battle")
SEAT_COUNTS = range(GAME.min_players, GAME.max_players + 1)

# Read straight from the data file, not through the engine's own parser.
_CARDS_TOML = tomllib.loads(
    resources.files("p2pcards.games.rpg_battle").joinpath("cards.toml").read_text("utf-8")
)
QUANTITIES: Counter[str] = Counter({c["id"]: c["qty"] for c in _CARDS_TOML["card"]})
EFFECTS: dict[str, str] = {c["id"]: c["effect"] for c in _CARDS_TOML["card"]}
CHARACTERS: list[str] = [c["id"] for c in _CARDS_TOML["character"]]
DECK_SIZE = 100

# A turn is at most: per character a play, a reaction from each opponent (at most 7), two
# draws, two forced discards or a steal; then the end of the turn and up to five draws.
MAX_STEPS_PER_TURN = 3 * (1 + 7 + 2 + 2) + 1 + 5
MAX_SETUP_STEPS = 8 + 5 * 8  # the draft and the opening deal

seeds = st.integers(min_value=0, max_value=2**32 - 1)
round_caps = st.integers(min_value=1, max_value=40)


def playouts(max_examples: int) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Run a test over every seat count, with `max_examples` games drawn for each."""

    def decorate(test: Callable[..., None]) -> Callable[..., None]:
        test = settings(max_examples=max_examples, deadline=None)(test)
        return pytest.mark.parametrize("num_players", SEAT_COUNTS)(test)  # type: ignore[no-any-return]

    return decorate


# ------------------------------------------------------------------ the shared playout


@dataclass(frozen=True, slots=True)
class Step:
    """One applied action, with what the state said just before it."""

    action: Action
    chance_viewers: frozenset[int] | None  # None unless the action was a chance outcome


def choose(state: State, dealer: LocalDealer, rng: random.Random) -> Action:
    """The dealer's outcome at a chance node, else a uniformly random legal action."""
    if state.is_chance_node():
        return dealer.sample(state)
    return rng.choice(state.legal_actions())


def max_steps(num_players: int, round_cap: int) -> int:
    """More steps than any game capped at `round_cap` rounds can take."""
    return MAX_SETUP_STEPS + round_cap * num_players * MAX_STEPS_PER_TURN


def play(
    state: RpgBattleState,
    seed: int,
    round_cap: int,
    before: Callable[[Action], None] | None = None,
) -> Iterator[Step]:
    """Play `state` out from `seed`, yielding each step after it is applied; fail if it never ends.

    `before` sees each action just before it is applied. The caller may inspect `state` at each
    yield but must not change it.
    """
    dealer, rng = LocalDealer(seed), random.Random(seed)
    for _ in range(max_steps(state.num_players, round_cap)):
        if state.is_terminal():
            return
        viewers = state.chance_viewers() if state.is_chance_node() else None
        action = choose(state, dealer, rng)
        if before is not None:
            before(action)
        state.apply_action(action)
        yield Step(action, viewers)
    assert state.is_terminal(), f"not over after {max_steps(state.num_players, round_cap)} steps"


def new_game(num_players: int, round_cap: int) -> RpgBattleState:
    state = GAME.new_initial_state(num_players, round_cap=round_cap)
    assert isinstance(state, RpgBattleState)
    return state


def named(cards: Iterable[str | None]) -> Counter[str]:
    """The known cards among `cards` (None for unknown ones), counted."""
    return Counter(card for card in cards if card is not None)


def known_cards(state: RpgBattleState) -> Counter[str]:
    """How many copies of each card `state` knows the place of."""
    return named(card for _, _, card, _ in state.slots())


def assert_within_quantities(state: RpgBattleState) -> None:
    over = known_cards(state) - QUANTITIES
    assert not over, f"more copies known than cards.toml has: {dict(over)}"


# ------------------------------------------------------------------------------ tests


@playouts(max_examples=25)
@given(seed=seeds, round_cap=round_caps)
def test_game_ends_within_round_cap(num_players: int, seed: int, round_cap: int) -> None:
    """The game reaches its end within the cap, with winners who still have a character up."""
    state = new_game(num_players, round_cap)
    for _ in play(state, seed, round_cap):
        # A capped game ends as the round after the cap would begin.
        assert state.round() <= round_cap or state.is_terminal()
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    winners = state.winners()
    assert winners, "a finished game has a winner"
    assert all(any(state.is_active(c) for c in state.characters(w)) for w in winners)
    returns = state.returns()
    assert len(returns) == num_players
    assert sum(returns) == pytest.approx(1.0)
    assert [s for s in range(num_players) if returns[s] > 0] == winners


@playouts(max_examples=20)
@given(seed=seeds, round_cap=round_caps)
def test_every_card_is_accounted_for(num_players: int, seed: int, round_cap: int) -> None:
    """The 100 slots are each in one place; known cards never outnumber cards.toml."""
    assert sum(QUANTITIES.values()) == DECK_SIZE
    state = new_game(num_players, round_cap)
    for _ in play(state, seed, round_cap):
        hands = sum(state.hand_size(s) for s in range(num_players))
        assert state.deck_size() + len(state.discard_pile()) + hands == DECK_SIZE
        slots = list(state.slots())
        assert sorted(slot for slot, _, _, _ in slots) == list(range(DECK_SIZE))
        assert_within_quantities(state)
        for slot, place, card, _ in slots:
            if place.startswith("hand:") or place == "discard":
                assert card is not None, f"slot {slot} in {place} is unknown in the full state"
        if state.is_chance_node():
            check_deck_composition(state)


def check_deck_composition(state: RpgBattleState) -> None:
    """At a deal, each card's probability is its copies not in a hand or the discard pile."""
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    deals = {outcome.card: p for outcome, p in outcomes if isinstance(outcome, Deal)}
    if not deals:
        return  # a Steal's take
    rest = QUANTITIES - known_cards(state)
    assert rest.total() == state.deck_size()
    want = {card: n / state.deck_size() for card, n in rest.items() if n}
    assert deals == pytest.approx(want)


@playouts(max_examples=25)
@given(seed=seeds, round_cap=round_caps)
def test_hp_stays_within_bounds(num_players: int, seed: int, round_cap: int) -> None:
    """Every character's HP stays between 0 and its maximum."""
    state = new_game(num_players, round_cap)
    for _ in play(state, seed, round_cap):
        for c in CHARACTERS:
            assert 0 <= state.hp(c) <= state.max_hp(c), f"{c} has {state.hp(c)} HP"


@playouts(max_examples=25)
@given(seed=seeds, round_cap=round_caps)
def test_knocked_out_characters_neither_act_nor_heal(
    num_players: int, seed: int, round_cap: int
) -> None:
    """A KO'd character is never asked to act, and only a Revive played at it brings it back."""
    state = new_game(num_players, round_cap)
    hp = {c: state.hp(c) for c in CHARACTERS}
    for step in play(state, seed, round_cap):
        for c in CHARACTERS:
            if hp[c] == 0 and state.hp(c) > 0:
                action = step.action
                assert isinstance(action, Play), f"{c} came back from KO on {action}"
                assert EFFECTS[action.card] == "revive", f"{c} came back from KO on {action}"
                assert action.target == c, f"{c} came back from KO on {action}"
            hp[c] = state.hp(c)
        decision = state.decision()
        if decision.kind in ("play", "react"):
            assert decision.character is not None
            assert state.is_active(decision.character), f"KO'd {decision.character} asked to act"
        if decision.kind == "play":
            assert decision.character in state.characters(decision.seat)


@playouts(max_examples=8)
@given(seed=seeds, round_cap=round_caps)
def test_observations_hide_what_a_seat_may_not_know(
    num_players: int, seed: int, round_cap: int
) -> None:
    """Each seat's observation names a card only where that seat knows the slot."""
    state = new_game(num_players, round_cap)
    for _ in play(state, seed, round_cap):
        truth = {slot: (place, card, mask) for slot, place, card, mask in state.slots()}
        for seat in range(num_players):
            check_observation(state, seat, truth)


def check_observation(
    state: RpgBattleState, seat: int, truth: dict[int, tuple[str, str | None, int]]
) -> None:
    view = state.observation(seat)
    assert view.viewer == seat
    assert view.public_digest() == state.public_digest()
    assert view.hand(seat) == state.hand(seat)
    assert_within_quantities(view)
    for slot, place, card, mask in view.slots():
        true_place, true_card, true_mask = truth[slot]
        assert (place, mask) == (true_place, true_mask), f"slot {slot} differs for seat {seat}"
        if place == "deck":
            assert card is None, f"seat {seat} sees deck slot {slot}"
        elif place == f"hand:{seat}" or mask >> seat & 1:
            assert card == true_card, f"seat {seat} sees slot {slot} wrongly"
        else:
            assert card is None, f"seat {seat} sees slot {slot} in {place}, mask {mask:b}"
    assert state.to_json(seat)["hands"] == [view.hand(s) for s in range(state.num_players)]


@playouts(max_examples=15)
@given(seed=seeds, round_cap=round_caps)
def test_same_seed_and_actions_give_same_digests(
    num_players: int, seed: int, round_cap: int
) -> None:
    """The same seed plays the same actions, and replaying them gives the same digests."""
    first = new_game(num_players, round_cap)
    actions: list[Action] = []
    digests: list[dict[str, str]] = []
    for step in play(first, seed, round_cap):
        actions.append(step.action)
        digests.append(first.section_digests())

    second = new_game(num_players, round_cap)
    assert [step.action for step in play(second, seed, round_cap)] == actions
    assert second.to_json() == first.to_json()

    replay = new_game(num_players, round_cap)
    for action, expected in zip(actions, digests, strict=True):
        replay.apply_action(action)
        assert replay.section_digests() == expected
    assert replay.public_digest() == first.public_digest()
    assert replay.to_json() == first.to_json()
    assert list(replay.slots()) == list(first.slots())


@playouts(max_examples=10)
@given(seed=seeds, round_cap=round_caps)
def test_clones_are_independent(num_players: int, seed: int, round_cap: int) -> None:
    """Playing on a clone leaves the original as it was, and the other way round."""

    def snapshot(state: RpgBattleState) -> tuple[str, dict[str, Any], list[Any]]:
        return state.public_digest(), state.to_json(), list(state.slots())

    state = new_game(num_players, round_cap)
    mutator = LocalDealer(seed + 1), random.Random(seed + 1)
    frozen = state.clone(), snapshot(state)
    for _ in play(state, seed, round_cap):
        # The original moved on: the clone taken before that step did not.
        assert snapshot(frozen[0]) == frozen[1]
        before = snapshot(state)
        twin = state.clone()
        assert snapshot(twin) == before
        for _ in range(8):
            if twin.is_terminal():
                break
            twin.apply_action(choose(twin, *mutator))
        assert snapshot(state) == before, "playing a clone changed the original"
        frozen = state.clone(), before


@playouts(max_examples=15)
@given(seed=seeds, round_cap=round_caps)
def test_actions_round_trip_through_json_and_msgpack(
    num_players: int, seed: int, round_cap: int
) -> None:
    """Every legal action and chance outcome (and its hidden form) survives JSON and msgpack."""
    state = new_game(num_players, round_cap)
    checked: set[Action] = set()

    def check(action: Action) -> None:
        if action in checked:
            return
        checked.add(action)
        wire = action.to_json()
        assert GAME.action_from_json(wire) == action
        assert type(action).from_json(wire) == action
        assert GAME.action_from_json(json.loads(json.dumps(wire))) == action
        assert GAME.action_from_json(msgpack.unpackb(msgpack.packb(wire))) == action
        if isinstance(action, ChanceOutcome):
            check(action.hidden())

    for step in play(state, seed, round_cap):
        check(step.action)
        for action in state.legal_actions():
            check(action)


def as_seen_by(seat: int, step: Step) -> Action:
    """The action as `seat`'s replica applies it: a chance outcome it may not see, hidden."""
    action = step.action
    if step.chance_viewers is None or seat in step.chance_viewers:
        return action
    assert isinstance(action, ChanceOutcome)
    return action.hidden()


def check_replica(state: RpgBattleState, replica: RpgBattleState, seat: int) -> None:
    """The replica agrees with the game on everything public and on its own hand, and knows
    nothing false about other hands."""
    assert replica.public_digest() == state.public_digest()
    assert replica.section_digests() == state.section_digests()
    assert replica.hand(seat) == state.hand(seat)
    assert replica.hand(seat) == state.observation(seat).hand(seat)
    assert replica.current_player() == state.current_player()
    assert replica.decision() == state.decision()
    if state.current_player() == seat:
        assert replica.legal_actions() == state.legal_actions()
    for other in range(state.num_players):
        wrong = named(replica.hand(other)) - named(state.hand(other))
        assert not wrong, f"seat {seat}'s replica puts {dict(wrong)} in seat {other}'s hand"
    assert_within_quantities(replica)


@playouts(max_examples=10)
@given(seed=seeds, round_cap=round_caps, data=st.data())
def test_replica_that_is_shown_cards_equals_the_observation(
    num_players: int, seed: int, round_cap: int, data: st.DataObject
) -> None:
    """As the table protocol drives it: before an action that shows a card from a hand, every
    replica is told which position of the hand holds it (`see`). The replica then knows
    exactly what `observation(seat)` knows, slot by slot. Not told, a replica that cannot see
    that hand refuses the action rather than guess the slot."""
    seat = data.draw(st.integers(min_value=0, max_value=num_players - 1), label="seat")
    state = new_game(num_players, round_cap)
    replica = state.observation(seat)
    dealer, rng = LocalDealer(seed), random.Random(seed)
    for _ in range(max_steps(num_players, round_cap)):
        if state.is_terminal():
            break
        action = choose(state, dealer, rng)
        shower = state.current_player()
        if shower not in (seat, CHANCE) and state.reveals(action):
            with pytest.raises(IllegalActionError, match="must pin"):
                replica.clone().apply_action(action)
        step_replicas(state, {seat: replica}, action)
        check_replica(state, replica, seat)
        assert list(replica.slots()) == list(state.observation(seat).slots())
        assert replica.to_json() == state.to_json(seat)
    assert state.is_terminal()
