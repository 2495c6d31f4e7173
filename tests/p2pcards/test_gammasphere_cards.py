"""The Gammasphere set (p2pcards/games/gammasphere/cards.toml; its design: rules.md, "The
set"): what issue 17 asks of it, and card data checked at load, naming card and field."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from gamma_helpers import DB, GAME

from p2pcards.errors import CardDataError
from p2pcards.games.gammasphere import cards


def test_the_set_has_what_the_issue_asks() -> None:
    """Issue 17: at least 40 cards; characters of several types; buildings with a Refinery;
    weapons; events; unique entities; costs in Jiggawatts and gas; the Pylon (line 20)."""
    kinds = Counter(c.type for c in DB.cards)
    assert len(DB.cards) >= 41 and kinds["pylon"] == 1
    assert kinds["character"] >= 20 and kinds["building"] >= 4
    assert kinds["weapon"] >= 4 and kinds["event"] >= 4
    assert "refinery" in DB.by_id and DB.by_id["refinery"].type == "building"
    assert DB.by_id["pylon"].gas == 100  # line 20
    races = {c.types[0] for c in DB.cards if c.type == "character"}
    assert len(races) >= 4
    assert sum(c.unique for c in DB.cards) >= 4
    assert any(c.jw for c in DB.cards) and any(c.gas for c in DB.cards)
    for c in DB.cards:
        if c.type == "character":
            assert 1 <= c.level <= 10  # line 14
            assert c.attack - c.attack_mod * (c.level - 1) >= 0  # no stat below 0 at level 1


def test_the_starter_decks_are_legal_and_differ() -> None:
    """Issue 17: two starter decks, validated."""
    a, b = (GAME.deck(name) for name in GAME.default_decks)
    assert sum(a.values()) == sum(b.values()) == 40
    assert a["pylon"] > 4 and set(a) != set(b)


def _card(**changes: Any) -> dict[str, Any]:
    card: dict[str, Any] = {
        "id": "test-grunt", "name": "Test Grunt", "type": "character", "types": ["human"],
        "unique": False, "gas": 100, "jw": 0, "level": 2, "attack": 500, "defense": 400,
        "attack_mod": 100, "defense_mod": 100, "source": "ours", "text": "",
    }  # fmt: skip
    card.update(changes)
    return {k: v for k, v in card.items() if v is not None}


PYLON = {"id": "pylon", "name": "Pylon", "type": "pylon", "gas": 100, "jw": 0,
         "source": "ours", "text": "Tap: gain 1 Jiggawatt."}  # fmt: skip

BROKEN = [
    ({"level": 11}, "field 'level' must be 1 to 10"),
    ({"level": None}, "field 'level' is required"),
    ({"type": "spell"}, "field 'type' must be one of"),
    ({"gas": "lots"}, "field 'gas' must be a int"),
    ({"attach": ["character"]}, "field 'attach'"),
    ({"types": ["Human Being"]}, "field 'types' holds a bad name"),
    ({"source": "rulebook"}, "field 'source' must be ours"),
    ({"colour": "red"}, "unknown field 'colour'"),
    ({"type": "event", "unique": True}, "field 'unique'"),
    # "same" is the previous effect's target: a first effect, a static or a count has none
    (
        {
            "ability": [
                {"trigger": "played", "effects": [{"do": "level", "amount": 1, "target": "same"}]}
            ]
        },
        'target "same" needs an earlier effect with a target',
    ),
    (
        {
            "ability": [
                {
                    "trigger": "played",
                    "effects": [
                        {"do": "draw", "amount": 1},
                        {"do": "level", "amount": 1, "target": "same"},
                    ],
                }
            ]
        },
        'target "same" needs an earlier effect with a target',
    ),
    (
        {
            "ability": [
                {
                    "trigger": "static",
                    "effects": [
                        {"do": "modify", "attack": 1, "target": "this"},
                        {"do": "modify", "attack": 1, "target": "same"},
                    ],
                }
            ]
        },
        'target "same" needs an earlier effect with a target',
    ),
    (
        {
            "ability": [
                {
                    "trigger": "played",
                    "condition": {"count": "same", "at_least": 1},
                    "effects": [{"do": "draw", "amount": 1}],
                }
            ]
        },
        '"same" names an effect\'s targets',
    ),
]


@pytest.mark.parametrize(("changes", "message"), BROKEN)
def test_broken_card_data_is_refused_naming_the_card_and_field(
    changes: dict[str, Any], message: str
) -> None:
    with pytest.raises(CardDataError, match="test-grunt") as caught:
        cards.parse({"card": [_card(**changes), PYLON]})
    assert message in str(caught.value)


def test_a_set_without_a_pylon_or_with_a_card_twice_is_refused() -> None:
    with pytest.raises(CardDataError, match="no Pylon"):
        cards.parse({"card": [_card()]})
    with pytest.raises(CardDataError, match="appears twice"):
        cards.parse({"card": [_card(), _card(), PYLON]})
    assert cards.load() is DB


def _ability(**ability: Any) -> dict[str, Any]:
    return _card(ability=[{"trigger": "played", **ability}])


def _target(**selector: Any) -> dict[str, Any]:
    return _ability(effects=[{"do": "destroy", "target": selector}])


# Words of the vocabulary Gammasphere's board does not carry (issue 24: the loader accepted
# them and the interpreter ignored them): refused, naming the card, the ability and the field.
NOT_ITS_WORDS = [
    (_ability(effects=[{"do": "loot", "amount": 2}]), "ability 1: effect 1: field 'do': 'loot'"),
    (
        _card(ability=[{"trigger": "vengeful", "effects": [{"do": "draw", "amount": 1}]}]),
        "ability 1: field 'trigger': 'vengeful'",
    ),
    (_target(what="character", lane="this"), "effect 1: target: field 'lane'"),
    (_target(what="character", cost_at_most=3), "effect 1: target: field 'cost_at_most'"),
    (_target(what="character", count=2), "effect 1: target: field 'count'"),
    (_target(side="each_opponent"), "effect 1: target: field 'what': 'guy'"),  # the default
    (_target(what="character", side="left_of"), "effect 1: target: field 'side': 'left_of'"),
    (
        _ability(effects=[{"do": "damage", "amount": 500, "target": {"what": "character"}}]),
        "effect 1: field 'target': a 'damage' reaches players only",
    ),
]


@pytest.mark.parametrize(("card", "message"), NOT_ITS_WORDS)
def test_a_word_the_game_does_not_support_is_refused(card: dict[str, Any], message: str) -> None:
    """DESIGN.md §10: each game declares the words it supports; a card can never silently do
    less than its text."""
    with pytest.raises(CardDataError, match='card "test-grunt"') as caught:
        cards.parse({"card": [card, PYLON]})
    assert message in str(caught.value)
