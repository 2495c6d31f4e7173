"""The Rise of the Guys set (p2pcards/games/rise_of_the_guys/cards.toml; its design and the
hints it honours: rules.md part 2): the data is checked at load, every card named in the
rulebook is there, every keyword is used, handlers stay few, and every card can be played
from a real position with replicas keeping up."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from guys_helpers import DB, Table

from p2pcards.abilities import Trigger, Verb
from p2pcards.errors import CardDataError
from p2pcards.games.rise_of_the_guys import cards
from p2pcards.games.rise_of_the_guys.actions import Play
from p2pcards.games.rise_of_the_guys.cards import KEYWORDS

# Every card the rulebook names (lines 95-149).
RULEBOOK_CARDS = {
    "robutt", "surprise-elevator", "manapult", "circuiteer", "holo-shield-9000", "disguyse",
    "laser-tag", "surprise-holiday-gift", "transformation-hat", "nerfer", "arm-o-matic",
    "spinrev", "incubator", "chicken-dance", "full-moon", "chicken-wrangler", "longbow-larry",
    "mandatory-vacation", "rock-thrower", "the-ole-switcheroo", "nail-dispenser", "bookkeeper",
    "dj-john-dope", "escape-to-the-skies", "mr-doctor", "summoner", "handsome-man", "smack",
    "pinchers", "helping-hand",
}  # fmt: skip


def test_the_set_has_81_cards_and_every_one_the_rulebook_names() -> None:
    """Line 24: 81 unique cards; lines 95-149 name these, each marked as the rulebook's."""
    assert len(DB.deck_cards) == 81
    assert set(DB.by_id) >= RULEBOOK_CARDS
    for card in DB.cards:
        assert (card.source == "rulebook") == (card.id in RULEBOOK_CARDS), card.id
    rarities = Counter(c.rarity for c in DB.deck_cards)
    assert set(rarities) == {"common", "rare", "epic"}  # boosters: 5 common, 3 rare, 1 epic


def test_the_rulebooks_hints_hold() -> None:
    """Line 95: Mr. Doctor deals 3 and survives a Summoner's 2; line 99: Robutt has 1 attack;
    Smack deals 2; Arm-O-Matic is a Vest Pin."""
    by = DB.by_id
    assert by["mr-doctor"].attack == 3 and by["mr-doctor"].health > by["summoner"].attack
    assert by["summoner"].health <= by["mr-doctor"].attack
    assert by["robutt"].attack == 1 and "machine" in by["robutt"].tribes
    (smack,) = by["smack"].abilities
    assert smack.effects[0].do == "damage" and smack.effects[0].amount == 2
    assert by["arm-o-matic"].type == "pin" and by["arm-o-matic"].pin_to == "vest"


def test_every_keyword_trigger_and_effect_of_the_vocabulary_is_used() -> None:
    """Issue 15: every keyword used by at least one card (docs/abilities.md)."""
    keywords = {k for c in DB.cards for k in c.keywords}
    triggers = {a.trigger for c in DB.cards for a in c.abilities}
    verbs = {e.do for c in DB.cards for a in c.abilities for e in a.effects}
    assert keywords == set(KEYWORDS)
    # The vocabulary is shared: Gammasphere's words (activated abilities, levels, modes,
    # tapping, searching a deck, shuffling the discard pile back) are not Rise of the Guys',
    # nor are RPG Get!'s (ailments, ranks, the unconscious pile, the Enemy step, the bank).
    assert triggers == set(Trigger.__args__) - {"activated"}  # type: ignore[attr-defined]
    others = {"level", "mode", "tap", "untap", "search", "recycle", "status", "cure", "rank",
              "resurrect", "recruit", "bank_destroy", "unscore"}  # fmt: skip
    assert verbs == set(Verb.__args__) - others  # type: ignore[attr-defined]
    assert any(c.enhance is not None for c in DB.cards)


def test_cards_in_code_stay_under_a_tenth_of_the_set() -> None:
    """Issue 15: a card whose text does not fit the vocabulary names a handler; they are
    listed here, and fewer than 10% of the set."""
    handlers = sorted(
        c.id for c in DB.cards for a in c.abilities for e in a.effects if e.do == "handler"
    )
    assert handlers == ["trade-places"]
    assert len(handlers) < 0.1 * len(DB.deck_cards)


def _card(**changes: Any) -> dict[str, Any]:
    card: dict[str, Any] = {
        "id": "test-guy", "name": "Test Guy", "type": "guy", "classes": ["madlad"],
        "tribes": ["human"], "cost": 2, "attack": 1, "health": 2, "rarity": "common",
        "source": "ours", "text": "When played: deal 1 damage to target Guy.",
        "ability": [{"trigger": "played", "effects": [
            {"do": "damage", "amount": 1, "target": {"pick": "choose"}}]}],
    }  # fmt: skip
    card.update(changes)
    return card


BROKEN = [
    ({"cost": "two"}, "field 'cost' must be a int"),
    ({"classes": ["madlad", "wizard"]}, "'wizard' is not one of"),
    ({"classes": []}, "field 'classes' must list 1..2"),
    ({"attack": None}, "field 'attack'"),
    ({"type": "spell"}, "field 'type' must be guy, prank or pin"),
    ({"keywords": ["flying"]}, "'flying' is not one of"),
    ({"source": "rulebook"}, "a rulebook card cites its lines"),
    ({"ability": [{"trigger": "on_tuesday", "effects": []}]}, "field 'trigger' must be one of"),
    (
        {
            "ability": [
                {
                    "trigger": "played",
                    "effects": [{"do": "damage", "amount": "x", "target": "this"}],
                }
            ]
        },
        "card \"test-guy\": ability 1: effect 1: field 'amount' must be an int",
    ),
    (
        {"ability": [{"trigger": "played", "effects": [{"do": "damage", "amount": 1}]}]},
        "needs field 'target'",
    ),
    (
        {
            "ability": [
                {
                    "trigger": "played",
                    "effects": [{"do": "damage", "amount": 1, "target": {"pick": "sometimes"}}],
                }
            ]
        },
        "field 'pick' must be one of",
    ),
    (
        {
            "ability": [
                {"trigger": "static", "effects": [{"do": "damage", "amount": 1, "target": "this"}]}
            ]
        },
        "a static ability may only modify or grant",
    ),
    (
        {
            "ability": [
                {
                    "trigger": "played",
                    "effects": [{"do": "token", "card": "robutt", "where": "this_lane"}],
                }
            ]
        },
        "is not a token card",
    ),
    (
        {
            "ability": [
                {
                    "trigger": "played",
                    "effects": [
                        {"do": "play_free", "target": {"what": "hand_card", "pick": "random"}}
                    ],
                }
            ]
        },
        "cannot be picked at random",
    ),
    (
        {
            "ability": [
                {"trigger": "played", "effects": [{"do": "draw", "amount": 1, "colour": "red"}]}
            ]
        },
        "unknown field 'colour'",
    ),
    # Gammasphere's words, which this game's board does not carry (DESIGN.md §10)
    (
        {"ability": [{"trigger": "played",
                      "effects": [{"do": "level", "amount": 1, "target": "this"}]}]},
        "ability 1: effect 1: field 'do': 'level' is not a word of this game",
    ),
    (
        {"ability": [{"trigger": "activated", "cost": {"tap": True},
                      "effects": [{"do": "draw", "amount": 1}]}]},
        "ability 1: field 'trigger': 'activated' is not a word of this game",
    ),
    (
        {"ability": [{"trigger": "played",
                      "effects": [{"do": "destroy", "target": {"what": "character"}}]}]},
        "effect 1: target: field 'what': 'character' is not a word of this game",
    ),
    (
        {"ability": [{"trigger": "played", "effects": [{"do": "draw", "amount": 1}],
                      "condition": {"mode": "attack"}}]},
        "ability 1: condition: field 'mode' is not a word of this game",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("changes", "message"), BROKEN)
def test_broken_card_data_is_refused_naming_the_card_and_field(
    changes: dict[str, Any], message: str
) -> None:
    """Issue 15: card data is validated at load; CardDataError names the card and field."""
    with pytest.raises(CardDataError, match="test-guy") as caught:
        cards.parse({"card": [_card(**changes), {**_card(), "id": "robutt"}]})
    assert message in str(caught.value)


def test_the_shipped_database_parses_and_a_duplicate_id_is_refused() -> None:
    assert cards.load() is DB
    with pytest.raises(CardDataError, match="appears twice"):
        cards.parse({"card": [_card(), _card()]})


def _placement(t: Table, card: str) -> Play:
    """A legal play of `card` by the current seat (the first listed)."""
    for action in t.state.legal_actions():
        if isinstance(action, Play) and action.card == card:
            return action
    raise AssertionError(f"{card} has no legal play: {t.state.legal_actions()}")


def _answer_all(t: Table) -> None:
    while t.state.ask() is not None:
        t.act(t.state.legal_actions()[0])


@pytest.mark.parametrize("card", [c.id for c in DB.deck_cards])
def test_every_card_can_be_played_and_resolves_with_replicas_in_step(card: str) -> None:
    """Each card of the set is played from a real position (a Guy on each side to aim at,
    the energy its cost needs) and its abilities resolve, every question answered with the
    first choice; each seat's observation keeps the complete state's digest, and the turn
    plays out."""
    kind = DB.by_id[card]
    friend = "robutt" if "doodad" in kind.classes else "hothead"  # of the deck's classes
    patient = "patient" in kind.keywords
    turn = max(kind.cost, kind.enhance or 0, 4) + 1
    if (turn % 2 == 0) != patient:  # seat 0 leads odd turns; a Patient card waits to react
        turn += 1
    t = Table([card, friend], ["summoner"])
    t.to_turn(turn - 1)
    while t.state.current_player() != 1:
        t.pass_phase()
    t.play("summoner", 0)  # an opposing Guy, and its token
    _answer_all(t)
    t.to_turn(turn)
    if patient:
        t.pass_phase()  # seat 1's Leading Phase
    t.play(friend, 0 if t.state.lane_guy(0, 0) < 0 else 1)
    _answer_all(t)
    played = _placement(t, card)
    t.act(played)
    _answer_all(t)
    assert t.state.zone_of(played.slot) != "hand:0", f"{card} stayed in hand"
    for seat in (0, 1):
        assert t.state.observation(seat).public_digest() == t.state.public_digest()
    while t.state.turn() == turn and not t.state.is_terminal():
        _answer_all(t)
        t.pass_phase()
    assert t.state.turn() == turn + 1 or t.state.is_terminal()
