"""The terminal view of Rise of the Guys (cli/guys_view.py): what each seat is shown of
random games, board and log, never naming a card it may not know."""

from __future__ import annotations

import io
import random

import pytest
from replica_helpers import unseen_cards
from rich.console import Console

from cli import guys_view as view
from cli.narration import told_of
from cli.views import Drew
from cli.wording import Seats
from p2pcards import games
from p2pcards.dealer import LocalDealer
from p2pcards.games.rise_of_the_guys import GuysState
from p2pcards.history import witnessed


def text(renderable: object) -> str:
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(renderable)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def hidden_names(state: GuysState, seat: int) -> set[str]:
    """Names of the cards `seat` may not know right now that are nowhere in its sight: the
    opponent's face-down Guys and hand, where no copy is known to `seat`."""
    return {view.name_of(state, card) for card in unseen_cards(state, seat)}


@pytest.mark.parametrize("seed", range(6))
def test_no_seat_is_shown_a_card_it_may_not_know(seed: int) -> None:
    """Every step told to each seat (the log) and its board name only cards it may know; a
    face-down Guy reads as such to its opponent."""
    game = games.load("rise-of-the-guys")
    decks = [["sneaky-stinky", "control"], ["tempo-machine", "aggro-historical"]][seed % 2]
    state = game.new_initial_state(2, decks=decks, round_cap=12)
    assert isinstance(state, GuysState)
    dealer, rng = LocalDealer(seed), random.Random(seed)
    faced_down = 0
    while not state.is_terminal():
        action = (
            dealer.sample(state) if state.is_chance_node() else rng.choice(state.legal_actions())
        )
        before = state.clone()
        state.apply_action(action)
        for seat in (0, 1):
            seats = Seats(seat)
            secret = hidden_names(state, seat)  # still hidden once the step is done
            told = told_of(
                view,
                before.observation(seat),
                witnessed(before, action, seat),
                state.observation(seat),
                seats,
            )
            lines = [t for t in told if isinstance(t, str)]
            lines += [t.card for t in told if isinstance(t, Drew) and t.card is not None]
            board = text(view.board(state.observation(seat), seats))
            for name in secret:
                assert all(name not in line for line in lines), (name, lines)
                assert f" {name} " not in board.replace("\n", " "), name
            for guy in state.guys(1 - seat):
                if state.face_down(guy):
                    assert "face-down card" in board
                    faced_down += 1
    assert "Game over" in view.result(state, Seats(0))
    if seed % 2 == 0:
        assert faced_down  # the Sneaky deck played face down, and it was shown as such


def test_the_combat_line_tells_no_strike_after_the_lane_that_ended_the_game() -> None:
    """Combat stops at the lane that brings a player to 0 life (rulebook line 91 and 109,
    rules.md §10): seat 1, at 2 life, falls in lane 1, so the log tells that lane's strike and
    not the 3 and the 1 its Guys in lanes 2 and 3 would have dealt had the game gone on."""
    from guys_helpers import first_lane_decides

    from p2pcards.games.rise_of_the_guys.actions import PASS

    state = first_lane_decides().state
    before = state.clone()
    state.apply_action(PASS)
    assert state.is_terminal() and state.life(0) == 2
    told = told_of(
        view, before.observation(0), witnessed(before, PASS, 0), state.observation(0), Seats(0)
    )
    (combat,) = [line for line in told if isinstance(line, str) and line.startswith("Combat")]
    assert combat == "Combat in lane 1: your Mr. Doctor hits seat 1 for 3."


def test_menu_lines_and_prompts_read_as_sentences() -> None:
    game = games.load("rise-of-the-guys")
    state = game.new_initial_state(2, round_cap=12)
    dealer = LocalDealer(1)
    while state.is_chance_node():
        state.apply_action(dealer.sample(state))
    seen = state.observation(0)
    assert view.prompt(seen, Seats(0)).startswith("Mulligan")
    lines = [view.describe_choice(seen, a) for a in seen.legal_actions()]
    assert lines[0] == "keep the hand" and all(
        line.startswith(("keep", "put back")) for line in lines
    )
    state.apply_action(seen.legal_actions()[0])
    while state.current_player() != 0 or state.phase() != "lead":
        state.apply_action(
            dealer.sample(state) if state.is_chance_node() else state.legal_actions()[0]
        )
    seen = state.observation(0)
    menu = [view.describe_choice(seen, a) for a in seen.legal_actions()]
    assert menu[-1] == "Pass (end the Leading Phase)"
    assert "you have 1 energy" in view.prompt(seen, Seats(0))


def test_the_mulligan_is_asked_as_card_numbers_not_a_menu_of_every_subset() -> None:
    """Line 65: any cards go back. Five cards make 24 different choices here (32 with no
    copies); the person types the numbers of those going back instead (0: keep them all)."""
    from guys_helpers import GAME, deck

    from cli.narration import Narrator
    from cli.play import Menu, show_choices
    from p2pcards.games.rise_of_the_guys.actions import Mulligan

    hand = ["hothead", "hothead", "smack", "rock-thrower", "mr-doctor"]
    state = GAME.new_initial_state(2, decks=[deck(*hand), deck()], round_cap=None)
    queue = list(hand)
    while state.is_chance_node():
        to_us = state.chance_move().to == 0 and queue
        state.apply_action(
            state.chance_outcome_for(queue.pop(0)) if to_us else state.chance_outcomes()[0][0]
        )
    assert state.current_player() == 0 and state.ask() is not None
    seen = state.observation(0)
    picks = view.picks(seen)
    assert picks is not None and picks.items == [
        "Hothead",
        "Hothead",
        "Smack",
        "Rock Thrower",
        "Mr. Doctor",
    ]
    menu = Menu("Mulligan:", picks=picks)
    legal = seen.legal_actions()
    assert len(legal) == 24
    for typed, meaning in (
        ("0", "keep the hand"),
        ("2", "put back Hothead"),  # either copy: the same choice
        ("1", "put back Hothead"),
        ("1, 2 5", "put back 2 × Hothead and Mr. Doctor"),
        ("3 4", "put back Smack and Rock Thrower"),
    ):
        plan = menu.choose(typed)
        assert isinstance(plan, tuple) and len(plan) == 1, typed
        action = plan[0]
        assert isinstance(action, Mulligan) and action in legal, typed
        assert view.describe_choice(seen, action) == meaning, typed
    for bad in ("", "x", "0 1", "6", "1 1", "-1", "²", "9" * 5000):
        assert isinstance(menu.choose(bad), str), bad
    out = Console(file=io.StringIO(), width=100, record=True)
    shown = show_choices(seen, Narrator(view, Seats(0)), out)
    told = out.export_text()
    assert shown.picks is not None and "put back Hothead" not in told
    assert " 5  Mr. Doctor" in told and "or 0 to keep them all" in told
    assert shown.prompt_line().startswith("numbers [0-5")
    assert view.picks(state_after_mulligan(state)) is None


def state_after_mulligan(state: GuysState) -> GuysState:
    """The position after both seats keep their hands: no more picks."""
    after = state.clone()
    while (ask := after.ask()) is not None and ask.kind == "mulligan":
        after.apply_action(after.legal_actions()[0])
        while after.is_chance_node():
            after.apply_action(after.chance_outcomes()[0][0])
    return after
