"""The terminal view of Gammasphere (cli/gammasphere_view.py): what each seat is shown of
random games, and the sentences of an attack."""

from __future__ import annotations

import io
import random
import re

import pytest
from gamma_helpers import DB, Table
from replica_helpers import unseen_cards
from rich.console import Console

from cli import gammasphere_view as view
from cli.narration import told_of
from cli.views import Drew
from cli.wording import Seats
from p2pcards import games
from p2pcards.dealer import LocalDealer
from p2pcards.games.gammasphere import GammaState
from p2pcards.games.gammasphere.actions import DIRECT, Activate, Attack
from p2pcards.history import Event, witnessed


def text(renderable: object) -> str:
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(renderable)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def names(name: str, text: str) -> bool:
    """Whether `text` names the card `name` (a whole name: "Pylons 3 untapped" counts the
    seat's Pylons in play and names no Pylon card of a hand)."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


@pytest.mark.parametrize("seed", range(4))
def test_no_seat_is_shown_a_card_of_the_other_hand(seed: int) -> None:
    """Every step told to each seat (the log) and its board name only cards it may know: no
    card of the other seat's hand or deck is named, unless the seat knows a copy of it
    (line 12: the hand is kept secret); the other seat's draws are told as draws."""
    game = games.load("gammasphere")
    decks = [["saiyan-power-level", "protoss-pylon-rush"], ["protoss-pylon-rush"] * 2][seed % 2]
    state = game.new_initial_state(2, decks=decks, round_cap=8)
    assert isinstance(state, GammaState)
    dealer, rng = LocalDealer(seed), random.Random(seed)
    hidden_named = 0
    while not state.is_terminal():
        action = (
            dealer.sample(state) if state.is_chance_node() else rng.choice(state.legal_actions())
        )
        before = state.clone()
        state.apply_action(action)
        for seat in (0, 1):
            seats = Seats(seat)
            secret = {view.name_of(state, card) for card in unseen_cards(state, seat)}
            hidden_named += len(secret)
            told = told_of(
                view,
                before.observation(seat),
                witnessed(before, action, seat),
                state.observation(seat),
                seats,
            )
            for item in told:
                if isinstance(item, Drew) and item.seat != seat:
                    assert item.card is None
                if isinstance(item, str):
                    assert "seat -1" not in item, item  # the dealer is no seat
            lines = [t for t in told if isinstance(t, str)]
            lines += [t.card for t in told if isinstance(t, Drew) and t.card is not None]
            board = text(view.board(state.observation(seat), seats))
            assert "your hand:" in board and "Power Level" in board
            for name in secret:
                assert not any(names(name, line) for line in lines), (name, lines)
                assert not names(name, board), (name, board)
    assert hidden_named  # some cards were secret (the other hand), so the check had work
    assert "Game over" in view.result(state, Seats(0))


def test_an_attack_is_told_with_what_it_destroyed_and_the_power_lost() -> None:
    t = Table(["saiyan-elite", "pylon"])
    t.pylons(2)
    elite = t.play("saiyan-elite")
    t.to_turn(3)
    before = t.state.clone()
    attack = Attack(elite, DIRECT)
    assert view.describe_choice(t.state, attack) == "Attack the player with Saiyan Elite (1550)"
    t.act(attack)
    told = told_of(view, before, Event(0, attack), t.state, Seats(0))
    assert told == [
        "Your Saiyan Elite attacks seat 1 directly.",
        "Seat 1 loses 1550 Power Level (9000 → 7450).",
    ]
    board = text(view.board(t.state, Seats(0)))
    assert "Saiyan Elite Lv 4 1550/1200" in board and "tapped" in board


def test_an_activated_ability_reads_as_its_own_sentence_and_its_target_as_a_menu() -> None:
    t = Table(["marshal-jim-raynot", "pylon", "pylon"], more0=["zealot"])
    t.pylons(2)
    marshal = t.play("marshal-jim-raynot")  # When played: draw 1 card
    st = t.state
    (use,) = [a for a in st.legal_actions() if isinstance(a, Activate)]
    assert view.describe_choice(st, use) == (
        "Use Marshal Jim Raynot: Activated — pay 300 Vespene Gas: target character gets "
        "+600 attack until end of turn"
    )
    t.act(use)  # the lone character on the field is the target: taken without asking
    assert st.attack(marshal) == DB.by_id["marshal-jim-raynot"].attack + 600
    assert use not in st.legal_actions()  # once a turn
