"""Property tests of GETGEM over random playouts, for every seat count from 2 to 5.

Each example plays one whole game (or match): a seed drawn by Hypothesis drives a `LocalDealer`
at chance nodes and a `random.Random` that picks uniformly among the legal actions elsewhere;
the options (turn cap, first player, match, characters) are drawn too. Every test checks its
invariant after every step.
"""

from __future__ import annotations

import json
import random
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator
from importlib import resources
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from replica_helpers import step_replicas

from p2pcards import CHANCE, TERMINAL, games
from p2pcards.dealer import LocalDealer
from p2pcards.engine import Action, ChanceOutcome
from p2pcards.errors import IllegalActionError
from p2pcards.games.getgem import GetGemState
from p2pcards.games.getgem.actions import Deal, Discard, Push

GAME = games.load("getgem")
SEAT_COUNTS = range(GAME.min_players, GAME.max_players + 1)
_TOML = tomllib.loads(
    resources.files("p2pcards.games.getgem").joinpath("cards.toml").read_text("utf-8")
)
QUANTITIES: Counter[str] = Counter({c["id"]: c["qty"] for c in _TOML["card"]})
DECK_SIZE = 30  # rulebook line 19
ELEMENTS = ("fire", "water", "thunder")  # rulebook line 21, 42-44

# A turn is a draw, a Barrier window, a take and a push per action card (at most 30 played),
# up to 30 gem payments, the end phase's take-backs and discards: far fewer than this.
MAX_STEPS_PER_TURN = 400
MAX_SETUP_STEPS = 5 + 4 * 5 + 1

seeds = st.integers(min_value=0, max_value=2**32 - 1)
table_options = st.fixed_dictionaries(
    {
        "turn_cap": st.integers(min_value=1, max_value=60),
        "match": st.booleans(),
        "characters": st.booleans(),
    }
)


def playouts(max_examples: int) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Run a test over every seat count, with `max_examples` games drawn for each."""

    def decorate(test: Callable[..., None]) -> Callable[..., None]:
        test = settings(max_examples=max_examples, deadline=None)(test)
        return pytest.mark.parametrize("num_players", SEAT_COUNTS)(test)  # type: ignore[no-any-return]

    return decorate


def new_game(num_players: int, seed: int, options: dict[str, Any]) -> GetGemState:
    state = GAME.new_initial_state(num_players, first_player=seed % num_players, **options)
    assert isinstance(state, GetGemState)
    return state


def choose(state: GetGemState, dealer: LocalDealer, rng: random.Random) -> Action:
    """The dealer's outcome at a chance node, else a uniformly random legal action."""
    if state.is_chance_node():
        return dealer.sample(state)
    return rng.choice(state.legal_actions())


def max_steps(num_players: int, turn_cap: int) -> int:
    return MAX_SETUP_STEPS + turn_cap * MAX_STEPS_PER_TURN


def play(state: GetGemState, seed: int, turn_cap: int) -> Iterator[Action]:
    """Play `state` out from `seed`, yielding each action after it is applied; fail if the
    game never ends."""
    dealer, rng = LocalDealer(seed), random.Random(seed)
    for _ in range(max_steps(state.num_players, turn_cap)):
        if state.is_terminal():
            return
        action = choose(state, dealer, rng)
        state.apply_action(action)
        yield action
    assert state.is_terminal(), "the game did not end"


def named(cards: list[str | None]) -> Counter[str]:
    return Counter(card for card in cards if card is not None)


def known_cards(state: GetGemState) -> Counter[str]:
    return Counter(card for _, _, card, _ in state.slots() if card is not None)


def assert_within_quantities(state: GetGemState) -> None:
    over = known_cards(state) - QUANTITIES
    assert not over, f"more copies known than cards.toml has: {dict(over)}"
    assert known_cards(state) + Counter(state.unseen_cards()) == QUANTITIES


# ------------------------------------------------------------------------------ tests


@playouts(max_examples=25)
@given(seed=seeds, options=table_options)
def test_game_ends_within_the_turn_cap(
    num_players: int, seed: int, options: dict[str, Any]
) -> None:
    """The game (or match) ends within the cap; returns sum to 1 over the winners."""
    state = new_game(num_players, seed, options)
    for _ in play(state, seed, options["turn_cap"]):
        assert state.turns_played() <= options["turn_cap"]
    assert state.current_player() == TERMINAL and state.legal_actions() == []
    winners = state.winners()
    assert winners
    returns = state.returns()
    assert sum(returns) == pytest.approx(1.0)
    assert [s for s in range(num_players) if returns[s] > 0] == winners
    scores = state.scores()
    if options["match"]:
        # rulebook line 73: 10 points win; our choice (rules.md §25): at the cap, the most points
        assert winners == [s for s in range(num_players) if scores[s] == max(scores)]
        assert max(scores) >= 10 or state.turns_played() == options["turn_cap"]
    elif len(winners) == 1:
        assert state.holds_victory(winners[0])  # rulebook line 55
    else:  # our choice (rules.md §25): a capped game is drawn
        assert winners == list(range(num_players))
        assert state.turns_played() == options["turn_cap"]


@playouts(max_examples=20)
@given(seed=seeds, options=table_options)
def test_every_card_is_accounted_for(num_players: int, seed: int, options: dict[str, Any]) -> None:
    """The 30 slots are each in exactly one place, the 3 element cards with one owner each;
    the complete state knows every card outside the deck; a draw deals by the deck's
    composition; the curse gem is never discarded (rulebook line 41, 57, 82)."""
    assert sum(QUANTITIES.values()) == DECK_SIZE
    state = new_game(num_players, seed, options)
    for _ in play(state, seed, options["turn_cap"]):
        slots = list(state.slots())
        assert sorted(slot for slot, _, _, _ in slots) == list(range(DECK_SIZE))
        hands = sum(state.hand_size(s) for s in range(num_players))
        laid = sum(len(state.laid(s)) for s in range(num_players))
        assert state.deck_size() + len(state.discard_pile()) + hands + laid == DECK_SIZE
        owners = [state.element_owner(g) for g in ELEMENTS]
        assert all(o is None or 0 <= o < num_players for o in owners)
        assert sorted(g for s in range(num_players) for g in state.elements(s)) == sorted(
            g for g, o in zip(ELEMENTS, owners, strict=True) if o is not None
        )
        assert "curse" not in state.discard_pile()
        assert_within_quantities(state)
        for slot, place, card, _ in slots:
            assert (card is None) == (place == "deck"), f"slot {slot} in {place}: {card}"
        for seat in range(num_players):
            assert [s for s, p, _, _ in slots if p == f"hand:{seat}"] == state.hand_slots(seat)
        assert [s for s, p, _, _ in slots if p == "deck"] == state.deck_slots()
        if state.is_chance_node() and state.chance_move().kind == "deal":
            outcomes = state.chance_outcomes()
            rest = QUANTITIES - known_cards(state)
            assert rest.total() == state.deck_size()
            want = {Deal(c): n / state.deck_size() for c, n in rest.items() if n}
            assert dict(outcomes) == pytest.approx(want)


@playouts(max_examples=15)
@given(seed=seeds, options=table_options)
def test_legal_actions_are_distinct_and_accepted(
    num_players: int, seed: int, options: dict[str, Any]
) -> None:
    """Legal actions come in a stable order without duplicates, and the one validation path
    accepts each of them; the curse gem is never offered for a discard."""
    state = new_game(num_players, seed, options)
    for _ in play(state, seed, options["turn_cap"]):
        actions = state.legal_actions()
        assert len(set(actions)) == len(actions)
        assert actions == state.legal_actions()
        assert Discard("curse") not in actions
        if not state.is_terminal():
            assert actions
            for action in random.Random(seed).sample(actions, min(5, len(actions))):
                assert state.can_apply(action), action


@playouts(max_examples=8)
@given(seed=seeds, options=table_options)
def test_observations_hide_what_a_seat_may_not_know(
    num_players: int, seed: int, options: dict[str, Any]
) -> None:
    """Each seat's observation names a card exactly where that seat knows the slot."""
    state = new_game(num_players, seed, options)
    for _ in play(state, seed, options["turn_cap"]):
        truth = {slot: (place, card, mask) for slot, place, card, mask in state.slots()}
        for seat in range(num_players):
            view = state.observation(seat)
            assert view.public_digest() == state.public_digest()
            assert view.hand(seat) == state.hand(seat)
            assert_within_quantities(view)
            for slot, place, card, mask in view.slots():
                true_place, true_card, true_mask = truth[slot]
                assert (place, mask) == (true_place, true_mask)
                if mask >> seat & 1:
                    assert card == true_card, f"seat {seat} sees slot {slot} wrongly"
                else:
                    assert card is None, f"seat {seat} sees slot {slot} in {place}"


@playouts(max_examples=10)
@given(seed=seeds, options=table_options)
def test_replicas_driven_by_the_dealer_equal_the_observations(
    num_players: int, seed: int, options: dict[str, Any]
) -> None:
    """As a table drives them: before each decision the dealer opens the cards it `reveals`
    (pinned slots chosen with `positions_of`) and tells each replica what it may learn
    (`see`); every replica applies the action's public form, or the hidden chance outcome.
    Each replica then holds exactly `observation(seat)`, slot by slot, at every step. A
    reference driven the same way (see, then the full action) ends exactly as one driven
    without pins; a replica that is not told the slot refuses a card it cannot see."""
    state = new_game(num_players, seed, options)
    plain = state.clone()
    replicas = {seat: state.observation(seat) for seat in range(num_players)}
    dealer, rng = LocalDealer(seed), random.Random(seed)
    for _ in range(max_steps(num_players, options["turn_cap"])):
        if state.is_terminal():
            break
        action = choose(state, dealer, rng)
        actor = state.current_player()
        if actor != CHANCE:
            public, full = state.reveals(action.public()), state.reveals(action)
            assert [(r.seat, r.viewers) for r in public] == [(r.seat, r.viewers) for r in full]
            if isinstance(action, Push):
                assert action.public() == Push(None) and public[0].cards == (None,)
            onlooker = (actor + 1) % num_players
            if any(r.cards for r in full):
                with pytest.raises(IllegalActionError, match="must pin"):
                    replicas[onlooker].clone().apply_action(action.public())
        plain.apply_action(action)
        step_replicas(state, replicas, action)
        digest = state.public_digest()
        for seat, replica in replicas.items():
            assert replica.public_digest() == digest
            assert replica.decision() == state.decision()
            assert list(replica.slots()) == list(state.observation(seat).slots())
            assert replica.unseen_cards() == state.observation(seat).unseen_cards()
            assert replica.to_json() == state.to_json(seat)
            if state.current_player() == seat:
                assert replica.legal_actions() == state.legal_actions()
        assert list(plain.slots()) == list(state.slots())
        assert plain.to_json() == state.to_json()
    assert state.is_terminal()


@playouts(max_examples=10)
@given(seed=seeds, options=table_options)
def test_same_seed_and_actions_give_same_digests(
    num_players: int, seed: int, options: dict[str, Any]
) -> None:
    """The same seed plays the same actions; replaying them gives the same digests."""
    first = new_game(num_players, seed, options)
    actions, digests = [], []
    for action in play(first, seed, options["turn_cap"]):
        actions.append(action)
        digests.append(first.section_digests())
    replay = new_game(num_players, seed, options)
    for action, expected in zip(actions, digests, strict=True):
        replay.apply_action(action)
        assert replay.section_digests() == expected
    assert replay.to_json() == first.to_json()
    assert replay.search_key() == first.search_key()


@playouts(max_examples=8)
@given(seed=seeds, options=table_options)
def test_clones_are_independent(num_players: int, seed: int, options: dict[str, Any]) -> None:
    """Playing on a clone leaves the original as it was."""

    def snapshot(state: GetGemState) -> tuple[str, dict[str, Any], list[Any]]:
        return state.public_digest(), state.to_json(), list(state.slots())

    state = new_game(num_players, seed, options)
    mutator = LocalDealer(seed + 1), random.Random(seed + 1)
    for _ in play(state, seed, options["turn_cap"]):
        before = snapshot(state)
        twin = state.clone()
        for _ in range(6):
            if twin.is_terminal():
                break
            twin.apply_action(choose(twin, *mutator))
        assert snapshot(state) == before


@playouts(max_examples=8)
@given(seed=seeds, options=table_options)
def test_determinized_worlds_agree_with_the_observation(
    num_players: int, seed: int, options: dict[str, Any]
) -> None:
    """A determinization of a seat's observation keeps everything that seat knows, names every
    hand card, and deals from what is left."""
    state = new_game(num_players, seed, options)
    rng = random.Random(seed)
    for i, _ in enumerate(play(state, seed, options["turn_cap"])):
        if i % 7:
            continue
        seat = i % num_players
        view = state.observation(seat)
        world = view.determinize(rng)
        assert world.viewer is None and world.public_digest() == state.public_digest()
        assert_within_quantities(world)
        for (slot, place, card, _), (_, _, seen, _) in zip(
            world.slots(), view.slots(), strict=True
        ):
            assert seen is None or card == seen, f"slot {slot} changed"
            assert (card is None) == (place == "deck")


@playouts(max_examples=10)
@given(seed=seeds, options=table_options)
def test_actions_round_trip_through_json_and_msgpack(
    num_players: int, seed: int, options: dict[str, Any]
) -> None:
    """Every legal action, chance outcome and public form survives JSON and msgpack."""
    state = new_game(num_players, seed, options)
    checked: set[Action] = set()

    def check(action: Action) -> None:
        if action in checked:
            return
        checked.add(action)
        wire = action.to_json()
        assert GAME.action_from_json(wire) == action
        assert GAME.action_from_json(json.loads(json.dumps(wire))) == action
        assert GAME.action_from_json(msgpack.unpackb(msgpack.packb(wire))) == action
        assert str(action)
        check(action.public())
        if isinstance(action, ChanceOutcome):
            check(action.hidden())

    for action in play(state, seed, options["turn_cap"]):
        check(action)
        for legal in state.legal_actions():
            check(legal)
