"""The terminal view of RPG Get! (cli/rpg_get_view.py): what each seat is shown of random
games at 3 and 4 seats, the menus, and the sentences of a mission attempt: an attack, its
window, a Defense and the damage."""

from __future__ import annotations

import io
import random
import re

import pytest
from replica_helpers import unseen_cards
from rich.console import Console
from rpg_get_helpers import Table, fight, saber_back_to_a_full_bank

from cli import rpg_get_view as view
from cli.look import look
from cli.menus import Node, choice_tree
from cli.narration import told_of
from cli.views import Drew
from cli.wording import Seats
from p2pcards import games
from p2pcards.dealer import LocalDealer
from p2pcards.engine import Action
from p2pcards.games.rpg_get import RpgGetState
from p2pcards.games.rpg_get.actions import (
    Act,
    Activate,
    Attempt,
    Bank,
    Defend,
    Enlist,
    Oppose,
    Pass,
    Recruit,
)
from p2pcards.games.rpg_get.state import ACTIVE, BANK
from p2pcards.history import Event, witnessed


def text(renderable: object) -> str:
    console = Console(file=io.StringIO(), width=100, color_system=None)
    console.print(renderable)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


NAMES = [card.name for card in games.load("rpg-get").db.cards]  # type: ignore[attr-defined]


def names(name: str, text: str) -> bool:
    """Whether `text` names the card `name` as a whole name, not as a part of another card's
    ('Ryudo' in 'Ryudo (Lv 2)', 'Gibarta' in 'Trial of Gibarta')."""
    for longer in NAMES:
        if name in longer and name != longer:
            text = text.replace(longer, "")
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def leaves(node: Node) -> list[Action]:
    """Every action a menu tree offers."""
    if node.plan is not None:
        return [node.plan[0]]
    return [a for child in node.children for a in leaves(child)]


@pytest.mark.parametrize(("seats", "seed"), [(3, 0), (3, 1), (4, 2)])
def test_no_seat_is_shown_a_card_it_may_not_know(seats: int, seed: int) -> None:
    """Every step told to each seat, its board and its `i` list name only cards it may know:
    no card of another seat's hand, bank or deck is named unless the seat knows a copy of it
    (line 36: the bank is face down, its owner's alone); the others' draws are told as draws,
    and a bank's size is shown to all. The menus offer every legal action, the copies of a
    card in a hand once."""
    game = games.load("rpg-get")
    state = game.new_initial_state(seats, round_cap=4)
    assert isinstance(state, RpgGetState)
    dealer, rng = LocalDealer(seed), random.Random(seed)
    hidden_named = banked_unseen = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = dealer.sample(state)
        else:
            mover = state.observation(state.current_player())
            offered = leaves(choice_tree(view, mover))
            legal = mover.legal_actions()
            assert all(a in legal for a in offered)  # each line legal, copies of a card once
            alike = {view.alike(mover, a) for a in offered}
            assert len(alike) == len(offered) and alike == {view.alike(mover, a) for a in legal}
            action = rng.choice(state.legal_actions())
        before = state.clone()
        state.apply_action(action)
        for seat in range(seats):
            seen = Seats(seat)
            secret = {view.name_of(card) for card in unseen_cards(state, seat)}
            hidden_named += len(secret)
            told = told_of(
                view,
                before.observation(seat),
                witnessed(before, action, seat),
                state.observation(seat),
                seen,
            )
            for item in told:
                if isinstance(item, Drew) and item.seat != seat:
                    assert item.card is None
            lines = [t for t in told if isinstance(t, str)]
            lines += [t.card for t in told if isinstance(t, Drew) and t.card is not None]
            mine = state.observation(seat)
            board = text(view.board(mine, seen))
            shown = board + look(view, mine, seen, "")
            for other in range(seats):
                bank = state.pile(other, BANK)
                if other != seat and bank:
                    assert f"bank {len(bank)}" in board
                    banked_unseen += any(state.card_at(s) for s in bank)
            for name in secret:
                assert not any(names(name, line) for line in lines), (name, lines)
                assert not names(name, shown), (name, shown)
    assert hidden_named and banked_unseen  # the check had hidden hands and banks to guard
    assert "Game over" in view.result(state, Seats(0))


def test_an_attack_its_window_a_defense_and_the_damage_are_told_and_drawn() -> None:
    t = Table([["ryudo", "clear-the-forest", "buckler"], ["vyse", "booma"], ["aika"]])
    st = t.state

    def step(action: Action) -> dict[int, list[str]]:
        before = st.clone()
        t.act(action)
        told = {}
        for seat in (0, 1):
            event = witnessed(before, action, seat)
            said = told_of(view, before.observation(seat), event, st.observation(seat), Seats(seat))
            told[seat] = [s for s in said if isinstance(s, str)]
        return told

    t.pass_until("play")
    banked = step(t.find(lambda a: isinstance(a, Bank)))
    assert banked == {0: ["You bank Buckler."], 1: ["Seat 0 banks a card face down."]}
    t.pass_until("mission")
    step(t.find(lambda a: isinstance(a, Attempt)))
    sent = step(t.find(lambda a: isinstance(a, Enlist)))
    assert sent[1] == ["Seat 0 sends Ryudo on the mission."]
    assert step(t.find(lambda a: isinstance(a, Oppose) and a.card == "booma"))[0] == [
        "Seat 1 plays Booma against the mission."
    ]
    t.pass_until("party-attack")
    attack = step(t.find(lambda a: isinstance(a, Act)))
    assert attack[1] == [
        "Seat 0's Ryudo attacks Booma (4 HP, yours) (Attack 3(1) melee).",
        "Attack: seat 0's Ryudo deals 3 to your Booma — the targets' side may Defend.",
    ]
    board = text(view.board(st.observation(2), Seats(2)))
    for shown in ("Seat 0's mission: Clear the Forest (1 VP, 2 RP)", "active party (PP 2 of 4)",
                  "enemies (EP 2 of 3)", "Booma 4/4 HP, Middle rank (seat 1's)", "Ryudo 6/6 HP",
                  "Seat 0: bank 1,"):  # fmt: skip
        assert shown in board, (shown, board)
    assert "Buckler" not in board  # seat 0's bank is face down to seat 2
    assert view.prompt(st, Seats(1)) == "Seat 0's Ryudo attacks for 3: Defend, or pass:"
    assert view.is_reaction(st)
    defend = t.find(lambda a: isinstance(a, Defend))
    assert view.describe_choice(st, defend) == "Defend Booma: Defense -1"
    assert step(defend)[0] == [
        "Seat 1's Booma defends (Defense -1).",
        "Seat 1's Booma takes 2 damage (2 HP left).",
    ]


def test_a_roadblock_poisons_and_a_knocked_out_character_is_told() -> None:
    """Line 88: a Roadblock strikes as it is played; line 170: poison; line 118: a character
    at 0 HP in an attempt goes to the unconscious pile; line 14: a seat with no party is out."""
    t = Table([["aika", "gibarta-trial"], ["vyse", "toxic-mist"]])  # EP 8: 6 Rockslides
    st = t.state
    t.pass_until("mission")
    t.act(t.find(lambda a: isinstance(a, Attempt)))
    t.act(t.find(lambda a: isinstance(a, Enlist)))
    before = st.clone()
    mist = t.find(lambda a: isinstance(a, Oppose) and a.card == "toxic-mist")
    t.act(mist)
    told = told_of(view, before, Event(1, mist), st, Seats(0))
    assert told == [
        "Seat 1 throws Toxic Mist in the way, hitting Aika (5 HP, yours).",
        "Your Aika is now poisoned.",
    ]
    for _ in range(6):  # Rockslides till Aika falls (the padding of the deck is Rockslides)
        before = st.clone()
        rock = t.find(lambda a: isinstance(a, Oppose) and a.card == "rockslide")
        t.act(rock)
        if st.is_terminal():
            break
    told = told_of(view, before, Event(1, rock), st, Seats(0))
    assert "Your Aika is knocked out." in told and "You are out of the game." in told
    assert told[-1].startswith("Game over: seat 1 wins — the last player with a party")


def test_a_namesake_played_says_it_replaces_the_one_in_play() -> None:
    """Line 39-40: a character with the name of one in play replaces it; the menu says so
    before, the log after."""
    t = Table([["ryudo", "ryudo"], ["vyse"]])
    st = t.state
    t.pass_until("play")
    recruit = t.find(lambda a: isinstance(a, Recruit))
    said = view.choice_path(st, recruit)[1]
    assert said == "play it into your party, replacing your Ryudo 6/6 HP"
    before = st.clone()
    t.act(recruit)
    assert told_of(view, before, Event(0, recruit), st, Seats(0)) == [
        "You play Ryudo into your party.",
        "Your Ryudo already in play is replaced and discarded.",
    ]


def test_ranks_are_on_the_board_and_a_rank_change_is_told() -> None:
    """Line 135-140: every card starts an attempt in the Middle and a Rank Change moves it;
    the board shows each active member's and enemy's rank to every seat, the log tells the
    move. Line 144, 167: the bank stays face down to the others all the while."""
    t = Table([["mag-launcher", "rag-rappy-den", "buckler"], ["vyse", "hildebear"], ["aika"]])
    st = t.state
    t.pass_until("play")
    t.act(t.find(lambda a: isinstance(a, Bank)))
    t.pass_until("mission")
    t.act(t.find(lambda a: isinstance(a, Attempt)))
    t.act(t.find(lambda a: isinstance(a, Enlist)))
    t.act(t.find(lambda a: isinstance(a, Oppose) and a.card == "hildebear"))
    t.pass_until("party-attack")
    (mag,) = st.pile(0, ACTIVE)
    assert st.rank(mag) == "middle"
    watcher = text(view.board(st.observation(2), Seats(2)))
    assert "Mag Launcher 7/7 HP, Middle rank" in watcher, watcher
    assert "Hildebear 7/7 HP, Middle rank (seat 1's)" in watcher, watcher
    before = st.clone()
    rank_change = Activate(mag, 0, mag)  # Mag's Ability: Rank Change to the Front
    t.act(rank_change)
    assert st.rank(mag) == "front"
    said = told_of(view, before.observation(2), witnessed(before, rank_change, 2),
                   st.observation(2), Seats(2))  # fmt: skip
    assert "Seat 0's Mag Launcher moves to the Front rank." in said, said
    for seat in (1, 2):
        board = text(view.board(st.observation(seat), Seats(seat)))
        assert "Mag Launcher 7/7 HP, Front rank" in board, board
        assert "Seat 0: bank 1," in board and not names("Buckler", board)
    assert names("Buckler", text(view.board(st.observation(0), Seats(0))))  # its owner's
    assert "now 7 of 7 HP, Front rank" in look(view, st.observation(1), Seats(1), "mag")
    assert "Hildebear — against the mission (yours)" in look(view, st.observation(1), Seats(1), "")


def test_a_full_bank_asks_its_owner_which_card_makes_room_and_the_log_tells_it() -> None:
    """Line 130 (rules.md, choice 24): the owner is asked in words, the menu names the bank's
    cards once each, and every seat reads which card made room for which."""
    t, _ = saber_back_to_a_full_bank()
    st = t.state
    assert view.prompt(st, Seats(0)) == (
        "Saber comes back to your full bank: discard one of the others to make room:"
    )
    offered = leaves(choice_tree(view, st.observation(0)))
    assert [view.describe_choice(st, a) for a in offered] == [
        "Discard Buckler from your bank to make room"
    ]
    before = st.clone()
    t.act(offered[0])
    said = told_of(view, before.observation(1), witnessed(before, offered[0], 1),
                   st.observation(1), Seats(1))  # fmt: skip
    assert said[0] == "Seat 0 discards Buckler from its full bank to make room for Saber.", said


def test_a_pass_in_the_window_opening_the_party_attack_step_declines_events() -> None:
    """Rules choice 35: the window opening the Party Attack step is for Events and
    Recoveries (line 78, 98), not a Defense: its pass says so, in the menu and the log."""
    t = fight([["ryudo", "rag-rappy-den"], ["vyse", "booma"]], ["booma"], events_window=True)
    st = t.state
    assert st.windows and st.attack is None
    seat = st.current_player()
    passing = next(a for a in st.legal_actions() if isinstance(a, Pass))
    assert view.describe_choice(st, passing) == "Pass (no Event or Recovery)"
    before = st.clone()
    t.act(passing)
    said = told_of(view, before, witnessed(before, passing, seat), st, Seats(0))
    assert said[0] == f"Seat {seat} passes (no Event or Recovery).", said


def test_the_last_enemy_defeated_is_told_before_the_mission_is_scored() -> None:
    """Line 63-64: the attempt succeeds once every enemy is defeated, and only then is the
    mission scored with its VP and RP; the log tells it in that order."""
    t = Table([["ryudo", "clear-the-forest"], ["vyse", "rag-rappy"]])
    st = t.state
    t.pass_until("mission")
    t.act(t.find(lambda a: isinstance(a, Attempt)))
    t.act(t.find(lambda a: isinstance(a, Enlist)))
    t.act(t.find(lambda a: isinstance(a, Oppose) and a.card == "rag-rappy"))
    t.pass_until("party-attack")
    before = st.clone()
    attack = t.find(lambda a: isinstance(a, Act))
    t.act(attack)
    told = [s for s in told_of(view, before, Event(0, attack), st, Seats(1)) if isinstance(s, str)]
    defeated = told.index("Your Rag Rappy is defeated.")
    scored = told.index("Seat 0 scores 1 VP (0 → 1).")
    completed = told.index("Seat 0 completes Clear the Forest and scores it.")
    assert defeated < scored < completed, told
