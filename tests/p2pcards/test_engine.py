"""The engine model: registry, options, action wire forms, card data, dealer, digests."""

import pytest
from rpg_helpers import attack, fill, play, setup

from p2pcards import CHANCE, TERMINAL, games
from p2pcards.carddb import read_toml
from p2pcards.dealer import LocalDealer
from p2pcards.engine import State
from p2pcards.errors import (
    ActionFormatError,
    CardDataError,
    GameOptionError,
    HiddenInformationError,
    IllegalActionError,
    UnknownGameError,
)
from p2pcards.games.rpg_battle import cards
from p2pcards.games.rpg_battle.actions import EndTurn, Pass, Pick, Play
from p2pcards.zones import Deal

GAME = games.load("rpg-battle")


def test_names_and_load() -> None:
    assert "rpg-battle" in games.names()
    assert games.load("rpg-battle") is GAME
    assert (GAME.min_players, GAME.max_players) == (2, 8)


def test_unknown_game_lists_known_games() -> None:
    known = "known games: gammasphere, getgem, rise-of-the-guys, rpg-battle"
    with pytest.raises(UnknownGameError, match=known):
        games.load("poker")


@pytest.mark.parametrize("seats", [0, 1, 9])
def test_seat_count_out_of_range(seats: int) -> None:
    with pytest.raises(GameOptionError, match="2 to 8 seats"):
        GAME.new_initial_state(seats)


@pytest.mark.parametrize("options", [{"colour": "red"}, {"round_cap": 0}, {"round_cap": "5"}])
def test_bad_options_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(GameOptionError):
        GAME.new_initial_state(2, **options)


def test_constants_are_distinct_from_seats() -> None:
    assert CHANCE < 0 and TERMINAL < 0 and CHANCE != TERMINAL


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "play", "card": "attack", "target": 3, "seat": None},  # target must be a str
        {"kind": "play", "card": "attack", "target": None},  # seat missing
        {"kind": "play", "card": "attack", "target": None, "seat": None, "x": 1},
        {"kind": "pick", "character": True},
        {"kind": "teleport"},
        ["pick", "vex"],
    ],
)
def test_malformed_action_json_is_refused(data: object) -> None:
    with pytest.raises(ActionFormatError):
        GAME.action_from_json(data)  # type: ignore[arg-type]


def test_action_json_round_trip() -> None:
    steal, attack = Play(3, "steal", seat=1), Play(97, "attack", "vex")
    for action in (Pick("vex"), steal, attack, Pass(), Deal(None)):
        assert GAME.action_from_json(action.to_json()) == action


def test_card_database_matches_the_rulebook_totals() -> None:
    # rulebook line 34: "These 100 cards"; lines 11-22: eight characters.
    db = cards.load()
    assert db.deck_size == 100
    assert len(db.cards) == 22
    assert [c.name for c in db.characters] == [
        "Vex", "Kalen", "Anya", "Sera", "Gideon", "Mystra", "Sybil", "Thorne",
    ]  # fmt: skip


@pytest.mark.parametrize(
    "data, message",
    [
        ({"character": [{"id": "a"}], "card": []}, "field 'name'"),
        ({"card": [{"id": "x", "qty": 1, "effect": "fly", "power": 1}]}, "unknown effect"),
        ({}, "at least 2 characters"),
        ({"character": "vex"}, "must be a list of \\[\\[character\\]\\] tables"),
        ({"card": ["attack"]}, "card #1 must be a table"),
    ],
)
def test_broken_card_data_is_refused(data: dict[str, object], message: str) -> None:
    with pytest.raises(CardDataError, match=message):
        cards.parse(data)


def test_missing_or_invalid_card_file() -> None:
    with pytest.raises(CardDataError, match="missing"):
        read_toml("p2pcards.games.rpg_battle", "nope.toml")
    with pytest.raises(CardDataError, match="not valid TOML"):
        read_toml("p2pcards.games.rpg_battle", "rules.md")


def test_dealer_is_reproducible_and_follows_the_probabilities() -> None:
    state = GAME.new_initial_state(2)
    for name in ("vex", "kalen", "anya", "sera", "gideon", "mystra"):
        state.apply_action(Pick(name))
    assert state.is_chance_node()
    draws = [LocalDealer(seed).sample(state) for seed in range(2000)]
    assert draws == [LocalDealer(seed).sample(state) for seed in range(2000)]
    share = sum(d == Deal("attack") for d in draws) / len(draws)
    assert abs(share - 13 / 100) < 0.03  # 13 Attack cards of 100 (rulebook line 38)


def test_hidden_identities_are_refused_or_raise() -> None:
    state = GAME.new_initial_state(2)
    for name in ("vex", "kalen", "anya", "sera", "gideon", "mystra"):
        state.apply_action(Pick(name))
    with pytest.raises(IllegalActionError, match="must be told"):
        state.apply_action(Deal(None))  # the complete state must know every card
    replica = state.observation(1)
    with pytest.raises(IllegalActionError, match="may not learn"):
        replica.apply_action(Deal("attack"))  # seat 0's card, seen by seat 1's replica
    replica.apply_action(Deal(None))
    assert replica.hand(0) == [None]
    with pytest.raises(HiddenInformationError):
        replica.observation(0)


def test_digest_names_the_section_that_differs() -> None:
    a = GAME.new_initial_state(2)
    b = a.clone()
    b.apply_action(Pick("vex"))
    da, db = a.section_digests(), b.section_digests()
    assert a.public_digest() != b.public_digest()
    assert {name for name in da if da[name] != db[name]} == {"turn", "board"}


def test_lines_that_reach_the_same_draw_share_its_luck_key() -> None:
    # The search seeds a chance step's sampling by its luck key, so that two lines of play are
    # compared on the same cards: a deal is the deck's next card whichever line reached it. A
    # take is from a hand that differs from line to line, so it is not shared.
    lineups = [["vex", "kalen", "anya"], ["sera", "gideon", "mystra"]]
    passed = setup(lineups, {0: ["steal", "attack"]})
    fought = passed.clone()
    end_turn_without_drawing(passed)
    attack(fought, "attack", "sera")
    end_turn_without_drawing(fought)
    assert passed.is_chance_node() and fought.is_chance_node()
    assert passed.search_key() != fought.search_key()
    assert passed.luck_key() == fought.luck_key()
    drawn = passed.clone()
    drawn.apply_action(passed.chance_outcomes()[0][0])
    fill(drawn)  # seat 1's turn: it passes and draws one too
    end_turn_without_drawing(drawn)
    assert drawn.is_chance_node() and drawn.luck_key() != passed.luck_key()
    stealing = setup(lineups, {0: ["steal"]})
    play(stealing, "steal", seat=1)
    assert stealing.decision().kind == "take"
    assert stealing.luck_key() == stealing.search_key()


def end_turn_without_drawing(state: State) -> None:
    """The seat on turn passes with every character left and ends its turn drawing one card;
    the draw is left to the caller."""
    while state.decision().kind == "play":
        state.apply_action(Pass())
    state.apply_action(EndTurn(False))
