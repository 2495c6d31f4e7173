"""RPG Get!'s set as data (issue 25): its words are the vocabulary's, read by the one
interpreter and documented in docs/abilities.md; the set uses every card type, every action
kind and every keyword and special term of the rulebook (000_34065cf589791de6.txt)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from p2pcards import interpreter
from p2pcards.errors import CardDataError
from p2pcards.games.rpg_get import GAME
from p2pcards.games.rpg_get.cards import ACTION_KINDS, CARD_TYPES, STATUSES, WORDS, CardDatabase
from p2pcards.games.rpg_get.state import OWN_VERBS

DB = GAME.db


def test_the_docs_list_rpg_gets_words() -> None:
    """docs/abilities.md, "RPG Get!'s words": the table is WORDS, kind by kind."""
    doc = (Path(__file__).parents[2] / "docs" / "abilities.md").read_text()
    section = doc.split("### RPG Get!'s words", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and cells[0] not in ("kind", "---"):
            rows[cells[0]] = set(re.findall(r"`([a-z_]+)`", cells[1]))
    kinds = {"trigger": WORDS.triggers, "verb": WORDS.verbs, "value": WORDS.values}
    for table, fields in WORDS.fields.items():
        kinds[f"{table} field"] = fields
    assert rows == {kind: set(words) for kind, words in kinds.items()}


def test_each_verb_is_carried_once() -> None:
    """A verb is the interpreter's (every game's) or this game's own code, never both."""
    assert WORDS.verbs <= interpreter.CORE_VERBS | OWN_VERBS
    assert not interpreter.CORE_VERBS & OWN_VERBS
    assert WORDS.verbs >= OWN_VERBS


def test_the_set_has_every_type_action_and_keyword() -> None:
    """Issue 25: at least 120 cards; line 70-90: the six card types; line 91-104: the six
    actions (Ability and Intrinsic as abilities); line 132-175: each special term."""
    cards = DB.cards
    assert len(cards) >= 120
    assert {c.type for c in cards} == set(CARD_TYPES)
    kinds = {a.kind for c in cards for a in c.actions}
    assert kinds == set(ACTION_KINDS)
    triggers = {a.trigger for c in cards for a in c.abilities}
    assert {"activated", "static", "start_of_turn", "played"} <= triggers  # Ability, Intrinsic
    verbs = {e.do for c in cards for a in c.abilities for e in a.effects}
    assert verbs == set(WORDS.verbs)  # Resurrect, Recruit, Rank Change, bank and score pile
    inflicted = {a.inflicts for c in cards for a in c.actions} | {
        e.status for c in cards for a in c.abilities for e in a.effects
    }
    assert set(STATUSES) <= inflicted  # line 168-175
    keywords = {k for c in cards for a in c.actions for k in a.keywords}
    assert {"melee", "magic"} <= keywords and any("move" in c.keywords for c in cards)
    assert any(c.boss for c in cards)  # line 53
    assert any(a.combo for c in cards for a in c.actions)  # line 133
    assert any(a.fixed for c in cards for a in c.actions)  # line 117: *
    assert any(a.more for c in cards for a in c.actions)  # line 116: _(+Y)
    assert any(a.party for c in cards for a in c.actions)  # line 125: party member
    whats = {e.target.what for c in cards for a in c.abilities for e in a.effects if e.target}
    assert {"party_member", "unconscious", "scored"} <= whats
    assert {c.when for c in cards if c.type == "event"} == {"play", "attempt", "enemy_step"}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"do": "status", "status": "doom", "target": {"what": "member"}}, "unknown status"),
        ({"do": "recruit"}, "names a card or a tribe"),
        ({"do": "destroy", "target": {"what": "member"}}, "not a word of this game"),
        ({"do": "rank", "rank": "side", "target": {"what": "member"}}, "rank"),
    ],
)
def test_the_loader_refuses_what_the_game_has_not(change: dict[str, object], message: str) -> None:
    """docs/abilities.md: a word the game does not support is refused at load, naming it."""
    event = {
        "id": "odd-event", "name": "Odd", "type": "event", "when": "attempt",
        "ability": [{"trigger": "played", "effects": [change]}],
    }  # fmt: skip
    with pytest.raises(CardDataError, match=message):
        CardDatabase({"card": [event]})
