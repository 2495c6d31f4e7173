"""The Rise of the Guys card database: cards.toml beside this file, read once and checked
(every field, every ability in the vocabulary of docs/abilities.md); CardDataError names the
card and the field."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from p2pcards.abilities import Ability, Vocabulary, Words, parse_abilities
from p2pcards.carddb import entries, read_toml, require
from p2pcards.errors import CardDataError

CLASSES = ("madlad", "comrade", "doodad")  # line 30
KEYWORDS = ("sneaky", "overarch", "patient", "stinky", "unhurtable")
HANDLERS = ("swap_lanes",)  # effects in code (state.py): a test lists the cards using them
WORDS = Words.of(
    triggers=("played", "enhanced", "revealed", "destroyed", "start_of_turn", "end_of_turn",
              "card_played", "token_made", "vengeful", "prepare", "static"),
    verbs=("damage", "heal", "destroy", "modify", "grant", "move", "return", "loot", "draw",
           "draw_to", "discard", "token", "energy", "play_free", "handler"),
    selector=("what", "side", "lane", "tribe", "class", "type", "token", "self",
              "attack_at_least", "health_at_least", "cost_at_most", "face", "pick", "count",
              "optional"),
    condition=("unopposed", "opposed", "count", "at_least", "at_most", "life_at_most",
               "hand_at_most"),
    effect=("amount", "target", "attack", "health", "duration", "keyword", "who", "how", "card",
            "where", "side", "count", "name"),
    ability=("by", "filter", "amount", "condition"),
    values=("guy", "player", "pin", "hand_card", "you", "each_opponent", "every_seat", "this",
            "opposing", "other", "adjacent", "any", "up", "down", "choose", "random", "all",
            "exclude", "only", "holder", "trigger", "same", "turn", "permanent", "this_lane",
            "choose_lane", "each_empty_lane"),
)  # fmt: skip
"""The words of docs/abilities.md this game supports: any other is refused at load."""
RARITIES = ("common", "rare", "epic")
_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*\Z")
_FIELDS = {
    "id", "name", "type", "pin_to", "classes", "tribes", "cost", "attack", "health", "rarity",
    "token", "source", "rulebook_lines", "keywords", "enhance", "text", "ability",
}  # fmt: skip

CardType = Literal["guy", "prank", "pin"]


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the set (or a token)."""

    id: str
    name: str
    type: CardType
    classes: tuple[str, ...]
    tribes: tuple[str, ...]
    cost: int
    rarity: str
    source: Literal["rulebook", "ours"]
    text: str
    abilities: tuple[Ability, ...] = ()
    pin_to: Literal["guy", "vest"] | None = None
    attack: int = 0
    health: int = 0
    token: bool = False
    rulebook_lines: tuple[int, ...] = ()
    keywords: frozenset[str] = frozenset()
    enhance: int | None = None
    qty: int = 0  # no shared deck: each seat's deck says how many


@dataclass(frozen=True, slots=True)
class CardDatabase:
    """Every card in file order, by id, and the indices the rules use."""

    cards: tuple[Card, ...]
    by_id: Mapping[str, Card]
    index: Mapping[str, int]

    @property
    def tokens(self) -> tuple[Card, ...]:
        """The token cards (never in a deck)."""
        return tuple(c for c in self.cards if c.token)

    @property
    def deck_cards(self) -> tuple[Card, ...]:
        """The cards a deck may hold."""
        return tuple(c for c in self.cards if not c.token)

    def classes_of(self, card: str) -> tuple[str, ...] | None:
        """A card's classes, or None if there is no such card (for deck checks)."""
        found = self.by_id.get(card)
        return None if found is None else found.classes

    def is_token(self, card: str) -> bool:
        """Whether a card is a token (for deck checks)."""
        found = self.by_id.get(card)
        return found is not None and found.token


def _strings(entry: dict[str, Any], key: str, where: str, allowed: tuple[str, ...] | None,
             low: int, high: int) -> tuple[str, ...]:  # fmt: skip
    value = entry.get(key, [])
    if not isinstance(value, list) or not low <= len(value) <= high:
        raise CardDataError(f"{where}: field {key!r} must list {low}..{high} names")
    for item in value:
        if not isinstance(item, str) or not _ID.match(item):
            raise CardDataError(f"{where}: field {key!r} holds a bad name {item!r:.40}")
        if allowed is not None and item not in allowed:
            raise CardDataError(
                f"{where}: field {key!r}: {item!r} is not one of {', '.join(allowed)}"
            )
    if len(set(value)) != len(value):
        raise CardDataError(f"{where}: field {key!r} repeats a name")
    return tuple(value)


def _card(entry: dict[str, Any], where: str, words: Vocabulary) -> Card:
    unknown = sorted(set(entry) - _FIELDS)
    if unknown:
        raise CardDataError(f"{where}: unknown field {unknown[0]!r}")
    kind = require(entry, "type", str, where)
    if kind not in ("guy", "prank", "pin"):
        raise CardDataError(f"{where}: field 'type' must be guy, prank or pin, got {kind!r}")
    token = entry.get("token", False)
    if not isinstance(token, bool):
        raise CardDataError(f"{where}: field 'token' must be true or false")
    rarity = require(entry, "rarity", str, where)
    if rarity != ("token" if token else rarity) or (not token and rarity not in RARITIES):
        raise CardDataError(f"{where}: field 'rarity' must be token for a token, else one of "
                            f"{', '.join(RARITIES)}; got {rarity!r}")  # fmt: skip
    source = require(entry, "source", str, where)
    if source not in ("rulebook", "ours"):
        raise CardDataError(f"{where}: field 'source' must be rulebook or ours")
    lines = entry.get("rulebook_lines", [])
    if not isinstance(lines, list) or not all(
        isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 999 for n in lines
    ):
        raise CardDataError(f"{where}: field 'rulebook_lines' must list line numbers")
    if (source == "rulebook") != bool(lines):
        raise CardDataError(f"{where}: a rulebook card cites its lines, and only it")
    guy = kind == "guy"
    for stat in ("attack", "health"):
        if guy != (stat in entry):
            raise CardDataError(f"{where}: field {stat!r} is for Guys, and every Guy has it")
    pin_to = entry.get("pin_to")
    if (kind == "pin") != (pin_to is not None) or pin_to not in (None, "guy", "vest"):
        raise CardDataError(
            f"{where}: field 'pin_to' (guy or vest) is for Pins, and every Pin has it"
        )
    enhance = entry.get("enhance")
    if enhance is not None:
        enhance = require(entry, "enhance", int, where, low=0, high=10)
    return Card(
        id=entry["id"],
        name=require(entry, "name", str, where),
        type=kind,
        classes=_strings(entry, "classes", where, CLASSES, 1, 2),
        tribes=_strings(entry, "tribes", where, None, 0, 4),
        cost=require(entry, "cost", int, where, low=0, high=10),
        rarity=rarity,
        source=source,
        text=require(entry, "text", str, where),
        abilities=parse_abilities(entry.get("ability"), where, words),
        pin_to=pin_to,
        attack=require(entry, "attack", int, where, low=0, high=20) if guy else 0,
        health=require(entry, "health", int, where, low=1, high=20) if guy else 0,
        token=token,
        rulebook_lines=tuple(lines),
        keywords=frozenset(_strings(entry, "keywords", where, KEYWORDS, 0, 5)),
        enhance=enhance,
    )


def parse(data: dict[str, Any], where: str = "cards.toml") -> CardDatabase:
    """Check and build the database from parsed TOML; CardDataError names what is wrong."""
    raw = list(entries(data, "card"))
    ids: dict[str, bool] = {}
    for place, entry in raw:
        card_id = require(entry, "id", str, place)
        if not _ID.match(card_id):
            raise CardDataError(f"{place}: field 'id' {card_id!r} must be lowercase-with-hyphens")
        if card_id in ids:
            raise CardDataError(f"{place}: card {card_id!r} appears twice")
        ids[card_id] = entry.get("token") is True
    words = Vocabulary(WORDS, KEYWORDS, ids, HANDLERS)
    cards = tuple(_card(entry, f'{where}: card "{entry["id"]}"', words) for _, entry in raw)
    if not cards:
        raise CardDataError(f"{where} holds no cards")
    return CardDatabase(cards, {c.id: c for c in cards}, {c.id: i for i, c in enumerate(cards)})


@cache
def load() -> CardDatabase:
    """The shipped card database (read once)."""
    return parse(read_toml(__name__.rpartition(".")[0], "cards.toml"))
