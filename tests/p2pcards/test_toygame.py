"""Toy Brawl (tests/p2pcards/toygame), the own-deck test game: seats from `num_players`, its
default decks cycling in the engine, and response windows from p2pcards/windows.py. Each test
cites the rule of the toy's docstring it checks; the engine contract over whole games is the
conformance suite's (test_conformance.py runs over the toy at 2 to 6 seats)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
from toygame import GAME
from toygame.actions import PASS, Play, Respond
from toygame.state import Reason, ToyState

from p2pcards.engine import CHANCE
from p2pcards.errors import GameOptionError, HiddenInformationError, IllegalActionError
from p2pcards.zones import Deal

EVEN = {"spark": 2, "flare": 2, "mend": 2, "counter": 2}
FLARES = {"flare": 4, "spark": 4}
MENDS = {"mend": 4, "spark": 4}


def table(
    hands: Sequence[Sequence[str]],
    draws: Sequence[str] = ("mend",),
    decks: Sequence[dict[str, int]] | None = None,
) -> ToyState:
    """A table whose seats hold `hands` (two cards each, dealt in seat order as the rules
    deal them), seat 0 having drawn `draws[0]` for its first turn; `decks` default EVEN."""
    n = len(hands)
    state = GAME.new_initial_state(n, decks=decks or [EVEN] * n)
    for i in range(2):
        for seat in range(n):
            assert state.current_player() == CHANCE
            state.apply_action(Deal(hands[seat][i]))
    state.apply_action(Deal(draws[0]))
    assert state.current_player() == 0
    return state


def hand_slot(state: ToyState, seat: int, card: str) -> int:
    return next(s for s in state.hand_slots(seat) if state.card_at(s) == card)


def play(state: ToyState, seat: int, card: str, target: int = -1) -> None:
    state.apply_action(Play(hand_slot(state, seat, card), card, target))


def respond(state: ToyState, seat: int) -> None:
    state.apply_action(Respond(hand_slot(state, seat, "counter"), "counter"))


def pass_round(state: ToyState) -> list[int]:
    """Every seat asked passes until the innermost window closes: who was asked."""
    depth, asked = len(state.windows), []
    while len(state.windows) >= depth and state.current_player() >= 0:
        asked.append(state.current_player())
        state.apply_action(PASS)
    return asked


def test_default_decks_cycle_in_the_engine_for_any_number_of_seats() -> None:
    """Rule: "Each seat brings its own deck": with none given, the shipped decks in turn."""
    state = GAME.new_initial_state(5)
    defaults = GAME.default_decks
    for seat in range(5):
        wanted = GAME.deck(defaults[seat % len(defaults)])
        assert state.deck_composition(seat) == wanted
    with pytest.raises(GameOptionError, match="one deck per seat"):
        GAME.new_initial_state(3, decks=[EVEN, EVEN])


def test_the_layout_has_each_seats_zones_for_any_number_of_seats() -> None:
    """Layout from `num_players`: deck, hand and discard pile of every seat, and the stack."""
    state = GAME.new_initial_state(5)
    for seat in range(5):
        for kind in ("deck", "hand", "discard"):
            assert state.zone_owner(f"{kind}:{seat}") == seat
        assert len(state.zone_slots(f"deck:{seat}")) == 8
    assert state.zone_owner("stack") is None


def test_a_card_played_opens_a_window_from_the_players_left_round_to_the_player() -> None:
    """Rule: "every seat, from the player's left round to the player, may answer it"; once all have
    passed the Spark hits the next seat on its player's left."""
    state = table([["spark", "mend"], ["mend", "spark"], ["spark", "mend"], ["mend", "mend"]])
    play(state, 0, "spark")
    assert state.windows.top.reason == Reason.PLAYED
    assert pass_round(state) == [1, 2, 3, 0]
    assert [state.life(s) for s in range(4)] == [3, 2, 3, 3]
    assert state.zone_cards("discard:0") == ["spark"]
    assert not state.windows and state.current_player() == CHANCE  # seat 1 draws


def test_a_seat_holding_cards_is_asked_even_with_nothing_to_answer() -> None:
    """Rule: "A window asks a seat whenever its hand holds a card (so the rhythm shows nothing)":
    a seat without a Counter is asked and may only pass; the other seats cannot tell."""
    state = table([["spark", "mend"], ["mend", "spark"], ["counter", "mend"]])
    play(state, 0, "spark")
    assert state.current_player() == 1
    assert state.legal_actions() == [PASS]
    for seat in (0, 2):
        with pytest.raises(HiddenInformationError):
            state.observation(seat).legal_actions()
        assert state.observation(seat).current_player() == 1
    state.apply_action(PASS)
    assert state.current_player() == 2
    assert PASS in state.legal_actions() and len(state.legal_actions()) == 2


def test_a_seat_with_an_empty_hand_is_not_asked() -> None:
    """The public facts say it cannot answer: asking it would cost a message for nothing."""
    state = table([["spark", "mend"], ["mend", "mend"], ["counter", "counter"]])
    play(state, 0, "spark")
    state.apply_action(PASS)  # seat 1
    respond(state, 2)
    state.apply_action(PASS)  # seats 0 and 1 let the first Counter stand
    state.apply_action(PASS)
    respond(state, 2)  # seat 2 answers its own Counter with its last card
    assert len(state.windows) == 3 and state.hand_size(2) == 0
    assert pass_round(state) == [0, 1]  # its hand is empty: seat 2 is not asked
    assert len(state.windows) == 1
    assert pass_round(state) == [0, 1]  # nor in the Spark's window, which then resolves
    assert state.life(1) == 2


def test_a_counter_opens_a_nested_window_that_resolves_first() -> None:
    """Rule: "A Counter goes on the stack and opens its own window, which resolves first", and
    "Counter cancels the card it answered (that card's window closes at once)"."""
    state = table([["spark", "mend"], ["counter", "mend"], ["mend", "mend"]])
    play(state, 0, "spark")
    respond(state, 1)
    assert len(state.windows) == 2 and state.windows.top.reason == Reason.RESPONSE
    assert pass_round(state) == [2, 0, 1]
    assert [state.life(s) for s in range(3)] == [3, 3, 3]
    assert not state.windows
    assert state.zone_cards("discard:0") == ["spark"]
    assert state.zone_cards("discard:1") == ["counter"]


def test_a_counter_of_a_counter_lets_the_first_card_stand() -> None:
    """A response to a response: the second Counter cancels the first, and the Spark's window
    asks every seat again (an act inside it reset the passes) before the Spark resolves."""
    state = table([["spark", "mend"], ["counter", "mend"], ["counter", "mend"]])
    play(state, 0, "spark")
    respond(state, 1)
    respond(state, 2)
    assert len(state.windows) == 3
    assert pass_round(state) == [0, 1, 2]  # the second Counter's window
    assert len(state.windows) == 1  # the first Counter was cancelled with its window
    assert pass_round(state) == [2, 0, 1]  # the Spark's, from the seat after seat 1
    assert [state.life(s) for s in range(3)] == [3, 2, 3]


def test_a_seat_out_of_the_game_is_skipped_by_turns_and_windows() -> None:
    """Rule: "A seat at 0 life is out of the game: turns and windows skip it."""
    decks = [FLARES, MENDS, MENDS]
    state = table([["flare", "spark"], ["mend", "mend"], ["mend", "mend"]], ["flare"], decks)
    play(state, 0, "flare", target=1)
    pass_round(state)
    assert state.life(1) == 1
    state.apply_action(Deal("mend"))  # seat 1's turn
    state.apply_action(PASS)
    state.apply_action(Deal("mend"))  # seat 2's turn
    state.apply_action(PASS)
    state.apply_action(Deal("spark"))  # seat 0 again
    play(state, 0, "flare", target=1)
    pass_round(state)
    assert state.life(1) == 0 and state.in_game() == (0, 2)
    assert state.current_player() == CHANCE and state.chance_move().to == 2  # 1 is skipped
    state.apply_action(Deal("mend"))
    play(state, 2, "mend")
    assert pass_round(state) == [0, 2]  # seat 1 still holds cards, but is out


def test_a_flare_aims_at_another_seat_still_in_the_game() -> None:
    state = table([["flare", "mend"], ["mend", "mend"]], draws=["mend"])
    slot = hand_slot(state, 0, "flare")
    for target in (0, 2, -1):
        with pytest.raises(IllegalActionError):
            state.apply_action(Play(slot, "flare", target))
    with pytest.raises(IllegalActionError, match="answers nothing"):
        state.apply_action(Respond(slot, "flare"))


def test_the_last_seat_in_wins_alone() -> None:
    state = table([["flare", "flare"], ["mend", "mend"]], ["flare"], [FLARES, MENDS])
    for _ in range(2):
        play(state, 0, "flare", target=1)
        pass_round(state)
        if state.is_terminal():
            break
        state.apply_action(Deal("mend"))
        state.apply_action(PASS)
        state.apply_action(Deal("flare"))
    assert state.is_terminal() and state.returns() == [1.0, 0.0]
    assert Counter(state.zone_cards("discard:0")) == {"flare": 2}
