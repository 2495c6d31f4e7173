"""Property tests of GETGEM over random playouts, for every seat count from 2 to 5.

Each example plays one whole game (or match): a seed drawn by Hypothesis drives a `LocalDealer`
at chance nodes and a `random.Random` that picks uniformly among the legal actions elsewhere;
the options (turn cap, first player, match, characters) are drawn too. Every test checks its
invariant after every step.

What every game owes the engine (cards conserved, no leak, replicas' digests, JSON round trips,
clones, replays, determinizations) is checked by the conformance suite (test_conformance.py);
these are GETGEM's own rules.
"""

from __future__ import annotations

import random
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator
from importlib import resources
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from replica_helpers import laid_open

from p2pcards import TERMINAL, games
from p2pcards.dealer import LocalDealer
from p2pcards.engine import Action
from p2pcards.games.getgem import GetGemState
from p2pcards.games.getgem.actions import Discard, Push

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
    """The 30 cards of cards.toml are the game's; they are in the deck, the discard pile, a hand
    or laid out; the 3 element cards have one owner each; the curse gem is never discarded nor
    offered for a discard (rulebook line 19, 41, 57, 82). That no card is made or lost, and
    where each slot is, the conformance suite checks for every game."""
    assert sum(QUANTITIES.values()) == DECK_SIZE
    assert Counter(GAME.physical_cards()) == QUANTITIES
    state = new_game(num_players, seed, options)
    for _ in play(state, seed, options["turn_cap"]):
        hands = sum(state.hand_size(s) for s in range(num_players))
        laid = sum(len(state.laid(s)) for s in range(num_players))
        assert state.deck_size() + len(state.discard_pile()) + hands + laid == DECK_SIZE
        owners = [state.element_owner(g) for g in ELEMENTS]
        assert all(o is None or 0 <= o < num_players for o in owners)
        assert sorted(g for s in range(num_players) for g in state.elements(s)) == sorted(
            g for g, o in zip(ELEMENTS, owners, strict=True) if o is not None
        )
        assert "curse" not in state.discard_pile()
        assert not any(isinstance(a, Discard) and a.card == "curse" for a in state.legal_actions())


@playouts(max_examples=10)
@given(seed=seeds, options=table_options)
def test_a_push_names_its_card_only_to_its_viewers(
    num_players: int, seed: int, options: dict[str, Any]
) -> None:
    """A push's public form names no card, only the slot, and it shows the card only to the
    seats that receive or held it."""
    state = new_game(num_players, seed, options)
    dealer, rng = LocalDealer(seed), random.Random(seed)
    for _ in range(max_steps(num_players, options["turn_cap"])):
        if state.is_terminal():
            break
        action = choose(state, dealer, rng)
        if isinstance(action, Push):
            assert action.public() == Push(action.slot, None)
            (shown,) = laid_open(state, action)
            assert shown.slot == action.slot
            pusher, victim = state.current_player(), state.decision().target
            assert victim is not None
            assert shown.knowers == state.known_to(action.slot) | 1 << victim
            assert shown.knowers >> pusher & 1
        state.apply_action(action)
    assert state.is_terminal()
