"""The Gammasphere card database: cards.toml beside this file, read once and checked field
by field; CardDataError names the card and the field.

Card kinds follow the rulebook (lines 8–21): characters (type line, level, attack and
defense with their per-level modifiers), buildings (type line, defense), weapons (attack and
defense bonuses, attached to characters or also buildings), events and the Pylon. A card
may be unique (line 9). Costs are Vespene Gas and Jiggawatts (line 9).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from p2pcards.abilities import Ability, Selector, Vocabulary, Words, parse_abilities
from p2pcards.carddb import entries, read_toml, require
from p2pcards.errors import CardDataError
from p2pcards.games.gammasphere.rules import HIGHEST_LEVEL, LOWEST_LEVEL

CardType = Literal["character", "building", "weapon", "event", "pylon"]
TYPES: tuple[CardType, ...] = ("character", "building", "weapon", "event", "pylon")
ENTITIES = ("character", "building", "weapon")
KEYWORDS = ("unattackable", "cannot_attack", "battle_proof")
"""Keywords in code: can't be attacked; can't attack; can't be destroyed by attacks."""
UNATTACKABLE, CANNOT_ATTACK, BATTLE_PROOF = (1 << i for i in range(len(KEYWORDS)))
KEYWORD_BITS = dict(zip(KEYWORDS, (UNATTACKABLE, CANNOT_ATTACK, BATTLE_PROOF), strict=True))
WORDS = Words.of(
    triggers=("played", "destroyed", "start_of_turn", "end_of_turn", "static", "activated"),
    verbs=("damage", "heal", "destroy", "modify", "grant", "return", "draw", "discard",
           "energy", "level", "mode", "tap", "untap", "search", "recycle"),
    selector=("what", "side", "tribe", "self", "pick"),
    condition=("count", "at_least", "at_most", "life_at_most", "hand_at_most", "mode",
               "holder_tribe", "holder_attack_at_least"),
    effect=("amount", "target", "attack", "defense", "duration", "keyword", "who", "how",
            "card", "what", "tribe"),
    ability=("condition", "cost"),
    cost=("tap", "holder_tap", "resource", "jiggawatts"),
    values=("character", "building", "weapon", "pylon", "entity", "you", "each_opponent",
            "every_seat", "this", "holder", "same", "choose", "all", "random", "exclude",
            "only", "turn", "permanent", "attack", "defense"),
)  # fmt: skip
"""The words of docs/abilities.md this game supports: any other is refused at load (no lanes,
no face-down cards, no loot or tokens, no Vengeful; one target a choice)."""
MAX_NUMBER = 10_000  # amounts in the cards' abilities: Power Level and gas are in thousands
_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*\Z")
_FIELDS = {
    "id", "name", "type", "types", "unique", "gas", "jw", "level", "attack", "defense",
    "attack_mod", "defense_mod", "attach", "source", "text", "ability",
}  # fmt: skip
MAX_STAT = 100_000
MAX_GAS = 100_000
MAX_JW = 20


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the set."""

    id: str
    name: str
    type: CardType
    types: tuple[str, ...]
    unique: bool
    gas: int
    jw: int
    source: Literal["ours"]
    text: str
    level: int = 0
    attack: int = 0
    defense: int = 0
    attack_mod: int = 0
    defense_mod: int = 0
    attach: tuple[str, ...] = ()
    abilities: tuple[Ability, ...] = ()


@dataclass(frozen=True, slots=True)
class CardDatabase:
    """Every card in file order, by id, and its index."""

    cards: tuple[Card, ...]
    by_id: Mapping[str, Card]
    index: Mapping[str, int]

    @property
    def deck_cards(self) -> tuple[Card, ...]:
        """The cards a deck may hold (all of them: the set has no tokens)."""
        return self.cards

    def classes_of(self, card: str) -> tuple[str, ...] | None:
        """No classes in this game: () for a card of the set, None for no such card."""
        return None if card not in self.by_id else ()

    def is_token(self, card: str) -> bool:
        """The set has no tokens."""
        return False


def _names(
    entry: dict[str, Any], key: str, where: str, allowed: tuple[str, ...] | None
) -> tuple[str, ...]:
    value = entry.get(key, [])
    if not isinstance(value, list) or len(value) > 6:
        raise CardDataError(f"{where}: field {key!r} must list at most 6 names")
    for item in value:
        if not isinstance(item, str) or not _ID.match(item):
            raise CardDataError(f"{where}: field {key!r} holds a bad name {item!r:.40}")
        if allowed is not None and item not in allowed:
            choices = ", ".join(allowed)
            raise CardDataError(f"{where}: field {key!r}: {item!r} is not one of {choices}")
    if len(set(value)) != len(value):
        raise CardDataError(f"{where}: field {key!r} repeats a name")
    return tuple(value)


def _stat(entry: dict[str, Any], key: str, where: str, wanted: bool, low: int = 0) -> int:
    """A number the card's type has (required) or has not (refused)."""
    if wanted != (key in entry):
        need = "required" if wanted else "not for"
        raise CardDataError(f"{where}: field {key!r} is {need} this card's type")
    return require(entry, key, int, where, low=low, high=MAX_STAT) if wanted else 0


def _card(entry: dict[str, Any], where: str, words: Vocabulary) -> Card:
    unknown = sorted(set(entry) - _FIELDS)
    if unknown:
        raise CardDataError(f"{where}: unknown field {unknown[0]!r}")
    kind = require(entry, "type", str, where)
    if kind not in TYPES:
        choices = ", ".join(TYPES)
        raise CardDataError(f"{where}: field 'type' must be one of {choices}, got {kind!r}")
    if require(entry, "source", str, where) != "ours":
        raise CardDataError(f"{where}: field 'source' must be ours (the rulebook has no cards)")
    unique = entry.get("unique", False)
    if not isinstance(unique, bool) or (unique and kind not in ENTITIES):
        raise CardDataError(f"{where}: field 'unique' is true or false, for entities only")
    character, weapon = kind == "character", kind == "weapon"
    level = _stat(entry, "level", where, character, low=LOWEST_LEVEL)
    if character and level > HIGHEST_LEVEL:
        raise CardDataError(f"{where}: field 'level' must be {LOWEST_LEVEL} to {HIGHEST_LEVEL}")
    attach = _names(entry, "attach", where, ("character", "building"))
    if weapon != bool(attach) or (attach and "character" not in attach):
        raise CardDataError(
            f"{where}: field 'attach' (character, and maybe building) is for weapons, "
            "and every weapon has it"
        )
    return Card(
        id=entry["id"],
        name=require(entry, "name", str, where),
        type=kind,
        types=_names(entry, "types", where, None),
        unique=unique,
        gas=require(entry, "gas", int, where, low=0, high=MAX_GAS),
        jw=require(entry, "jw", int, where, low=0, high=MAX_JW),
        source="ours",
        text=require(entry, "text", str, where),
        level=level,
        attack=_stat(entry, "attack", where, character or weapon),
        defense=_stat(entry, "defense", where, kind in ENTITIES),
        attack_mod=_stat(entry, "attack_mod", where, character),
        defense_mod=_stat(entry, "defense_mod", where, character),
        attach=attach,
        abilities=_players_only(parse_abilities(entry.get("ability"), where, words), where),
    )


def _players_only(abilities: tuple[Ability, ...], where: str) -> tuple[Ability, ...]:
    """Damage and healing are Power Level's here (rules.md): they reach players only."""
    for i, ability in enumerate(abilities, 1):
        for j, e in enumerate(ability.effects, 1):
            sel = e.target
            if e.do in ("damage", "heal") and sel is not None and not _names_players(sel):
                raise CardDataError(
                    f"{where}: ability {i}: effect {j}: field 'target': a {e.do!r} "
                    "reaches players only in this game"
                )
    return abilities


def _names_players(sel: Selector) -> bool:
    return sel.what == "player" or sel.ref in ("you", "each_opponent", "every_seat", "left_of")


def parse(data: dict[str, Any], where: str = "cards.toml") -> CardDatabase:
    """Check and build the database from parsed TOML; CardDataError names what is wrong."""
    raw = list(entries(data, "card"))
    seen: set[str] = set()
    for place, entry in raw:
        card_id = require(entry, "id", str, place)
        if not _ID.match(card_id):
            raise CardDataError(f"{place}: field 'id' {card_id!r} must be lowercase-with-hyphens")
        if card_id in seen:
            raise CardDataError(f"{place}: card {card_id!r} appears twice")
        seen.add(card_id)
    words = Vocabulary(
        WORDS, KEYWORDS, dict.fromkeys(seen, False), (), MAX_NUMBER, ("attack", "defense")
    )
    cards = tuple(_card(entry, f'{where}: card "{entry["id"]}"', words) for _, entry in raw)
    if not any(c.type == "pylon" for c in cards):
        raise CardDataError(f"{where} has no Pylon (line 20)")
    return CardDatabase(cards, {c.id: c for c in cards}, {c.id: i for i, c in enumerate(cards)})


@cache
def load() -> CardDatabase:
    """The shipped card database (read once)."""
    return parse(read_toml(__name__.rpartition(".")[0], "cards.toml"))
