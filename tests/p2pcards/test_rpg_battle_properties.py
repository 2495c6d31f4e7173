"""Property tests of rpg-battle over random playouts, for every seat count from 2 to 8.

Each example plays one whole game: a seed drawn by Hypothesis drives a `LocalDealer` at chance
nodes and a `random.Random` that picks uniformly among the legal actions elsewhere; a round cap,
also drawn, makes sure the game ends. Every test checks its invariant after every step.

What every game owes the engine (cards conserved, no leak, replicas' digests, JSON round trips,
clones, replays, determinizations) is checked by the conformance suite (test_conformance.py);
these are rpg-battle's own rules.
"""

from __future__ import annotations

import random
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2pcards import TERMINAL, games
from p2pcards.dealer import LocalDealer
from p2pcards.engine import Action, State
from p2pcards.games.rpg_battle import RpgBattleState
from p2pcards.games.rpg_battle.actions import Play

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
    """The 100 cards of cards.toml are the game's, each in the deck, the discard pile or a hand.
    That no card is made or lost, where each slot is, and that a deal is weighted by the cards
    left, the conformance suite checks for every game."""
    assert sum(QUANTITIES.values()) == DECK_SIZE
    assert Counter(GAME.physical_cards()) == QUANTITIES
    state = new_game(num_players, round_cap)
    for _ in play(state, seed, round_cap):
        hands = sum(state.hand_size(s) for s in range(num_players))
        assert state.deck_size() + len(state.discard_pile()) + hands == DECK_SIZE


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
