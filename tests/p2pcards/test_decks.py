"""Deck files and deck rules (p2pcards/decks.py; Rise of the Guys' rules: lines 117-125)."""

from __future__ import annotations

import random

import pytest
from guys_helpers import DB, GAME

from p2pcards.decks import DeckError, DeckList, deck_problems, find_deck, parse_deck
from p2pcards.errors import GameOptionError
from p2pcards.games.rise_of_the_guys import DECK_RULES

PACKAGE = "p2pcards.games.rise_of_the_guys"


def test_the_shipped_decks_are_legal_and_the_rulebooks_two_are_exact() -> None:
    """Lines 133-149: the two example decks, card for card; every shipped deck legal."""
    decks = {d.id: d for d in GAME.decks.values()}
    assert set(decks) >= {"tempo-machine", "aggro-historical", "control"} and len(decks) >= 4
    for deck in decks.values():
        assert deck_problems(deck, DECK_RULES, DB) == [], deck.id
    assert decks["tempo-machine"].counts() == {
        "robutt": 4, "surprise-elevator": 2, "manapult": 4, "circuiteer": 4,
        "holo-shield-9000": 4, "disguyse": 4, "laser-tag": 3, "surprise-holiday-gift": 2,
        "transformation-hat": 3, "nerfer": 4, "arm-o-matic": 2, "spinrev": 4,
    }  # fmt: skip
    assert decks["aggro-historical"].counts() == {
        "incubator": 2, "chicken-dance": 4, "full-moon": 4, "chicken-wrangler": 4,
        "longbow-larry": 4, "mandatory-vacation": 3, "rock-thrower": 3, "the-ole-switcheroo": 2,
        "nail-dispenser": 3, "bookkeeper": 4, "dj-john-dope": 3, "escape-to-the-skies": 4,
    }  # fmt: skip


def test_every_broken_rule_is_named() -> None:
    """Lines 119-125: 40 cards, at most 4 copies, one or two classes, no tokens."""
    deck = DeckList.from_counts(
        "rise-of-the-guys",
        {"robutt": 5, "mr-doctor": 4, "smack": 4, "chicken": 1, "robut": 2},
    )
    problems = deck_problems(deck, DECK_RULES, DB)
    assert "robutt: 5 copies, at most 4" in problems
    assert "chicken is a token: tokens cannot be put in decks" in problems
    assert "no card called 'robut' (did you mean robutt?)" in problems
    assert "40 cards needed, this deck has 16" in problems
    assert any(p.startswith("3 classes (comrade, doodad, madlad)") for p in problems)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b"name = 'x'\n[cards]\nrobutt = 'four'\n", "copies must be a whole number"),
        (b"name = 'x'\n[cards]\nrobutt = 400\n", "copies must be a whole number"),
        (b"name = 'x'\n[cards]\n'Robutt!' = 4\n", "is not a card id"),
        (b"name = 'x'\n", r"a \[cards\] table"),
        (b"name = 'x'\ncolour = 'red'\n[cards]\nrobutt = 4\n", "unknown field 'colour'"),
        (b'name = "x\n', "not valid TOML"),
        (b"\xff\xfe", "not UTF-8"),
        (b"a" * (1 << 21), "over the"),
    ],
)
def test_a_malformed_deck_file_is_refused_in_one_line(text: bytes, message: str) -> None:
    with pytest.raises(DeckError, match=message):
        parse_deck(text, "deck.toml")


def test_a_deck_is_found_by_name_or_path(tmp_path: object) -> None:
    assert find_deck(PACKAGE, "control").id == "control"
    with pytest.raises(DeckError, match="no shipped deck called 'nope'"):
        find_deck(PACKAGE, "nope")


def test_the_game_takes_decks_by_name_counts_or_list_and_refuses_illegal_ones() -> None:
    """Issue 15: with no deck given each seat gets a shipped deck (the rulebook's two)."""
    state = GAME.new_initial_state(2)
    assert state.deck_composition(0) == GAME.deck("tempo-machine")
    assert state.deck_composition(1) == GAME.deck("aggro-historical")
    GAME.new_initial_state(2, decks=["control", GAME.decks["sneaky-stinky"]])
    with pytest.raises(GameOptionError, match="robutt: 5 copies"):
        GAME.new_initial_state(2, decks=[{"robutt": 5}, "control"])
    with pytest.raises(GameOptionError, match="one deck per seat"):
        GAME.new_initial_state(2, decks=["control"])


def test_the_deck_model_guesses_decks_that_hold_every_card_seen() -> None:
    """DESIGN §9: a known deck that fits, else a legal deck built around the cards seen."""
    model = GAME.rules.deck_model
    assert model is not None
    index = DB.index
    seen = [0] * len(DB.cards)
    seen[index["robutt"]] = 3
    rng = random.Random(1)
    guess = model.decklist(1, seen, rng)
    assert guess[index["robutt"]] >= 3 and sum(guess) == 40
    seen[index["big-tiny"]] = 1  # no shipped deck has Robutt and Big Tiny
    built = model.decklist(1, seen, rng)
    counts = {DB.cards[k].id: n for k, n in enumerate(built) if n}
    assert counts["robutt"] >= 3 and counts["big-tiny"] >= 1
    assert deck_problems(DeckList.from_counts("rise-of-the-guys", counts), DECK_RULES, DB) == []
