"""The GETGEM card database: basic cards, element cards, characters and numbers, from cards.toml."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from p2pcards.carddb import MAX_COPIES, entries, read_toml, require
from p2pcards.errors import CardDataError

GEMS = ("fire", "water", "thunder", "rainbow", "curse")
ELEMENT_GEMS = ("fire", "water", "thunder")  # line 50: the three a victory needs
EFFECTS = ("steal", "full-exchange", "excavation-arm", "steal-push", "peeping-draw", "barrier")
ABILITIES = ("pickpocket", "alchemist", "guardian", "merchant", "priest")
RULE_NUMBERS = (
    "deal", "draw", "hand_limit", "gem_take_cost", "element_cost", "declare_cards",
    "peeping_per_turn", "win_points", "rainbow_penalty", "match_target",
    "pickpocket_cost",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class CardType:
    """A kind of basic card and how many copies the 30 hold."""

    id: str
    name: str
    ja: str
    kind: str  # "gem" or "action"
    gem: str | None  # fire, water, thunder, rainbow, curse (gems only)
    effects: tuple[str, ...]  # action cards only; two for a dual card
    qty: int
    line: int


@dataclass(frozen=True, slots=True)
class ElementCard:
    """A gem element card: public, in the middle or in front of a player (line 45)."""

    id: str
    name: str
    ja: str
    gem: str
    line: int


@dataclass(frozen=True, slots=True)
class Character:
    """A character card of the expansion (line 64-68): our design."""

    id: str
    name: str
    ja: str
    ability: str
    text: str


@dataclass(frozen=True, slots=True)
class CardDatabase:
    """Everything cards.toml says, checked."""

    cards: tuple[CardType, ...]
    elements: tuple[ElementCard, ...]
    characters: tuple[Character, ...]
    numbers: dict[str, int]

    @property
    def deck_size(self) -> int:
        """How many basic cards there are in all."""
        return sum(card.qty for card in self.cards)

    def with_quantities(self, qty: dict[str, int]) -> CardDatabase:
        """The same database with other quantities (for composition studies); unknown ids raise."""
        unknown = set(qty) - {c.id for c in self.cards}
        if unknown:
            raise CardDataError(f"no such cards: {', '.join(sorted(unknown))}")
        cards = tuple(
            CardType(c.id, c.name, c.ja, c.kind, c.gem, c.effects, qty.get(c.id, c.qty), c.line)
            for c in self.cards
        )
        return _checked(CardDatabase(cards, self.elements, self.characters, dict(self.numbers)))


def parse(data: dict[str, Any]) -> CardDatabase:
    """Build the database from parsed TOML, refusing anything inconsistent."""
    rules = data.get("rules")
    if not isinstance(rules, dict):
        raise CardDataError("the card database needs a [rules] table")
    numbers = {key: require(rules, key, int, "[rules]") for key in RULE_NUMBERS}
    cards = []
    for where, entry in entries(data, "card"):
        kind = require(entry, "kind", str, where)
        gem: str | None = None
        effects: tuple[str, ...] = ()
        if kind == "gem":
            gem = require(entry, "gem", str, where)
            if gem not in GEMS:
                raise CardDataError(f"{where}: unknown gem {gem!r}; known: {', '.join(GEMS)}")
        elif kind == "action":
            raw = require(entry, "effects", list, where)
            if not raw or any(e not in EFFECTS for e in raw):
                raise CardDataError(f"{where}: effects must be among {', '.join(EFFECTS)}")
            effects = tuple(raw)
        else:
            raise CardDataError(f"{where}: kind must be 'gem' or 'action', not {kind!r}")
        cards.append(
            CardType(
                id=require(entry, "id", str, where),
                name=require(entry, "name", str, where),
                ja=require(entry, "ja", str, where),
                kind=kind,
                gem=gem,
                effects=effects,
                qty=require(entry, "qty", int, where, high=MAX_COPIES),
                line=require(entry, "line", int, where),
            )
        )
    elements = []
    for where, entry in entries(data, "element"):
        elements.append(
            ElementCard(
                id=require(entry, "id", str, where),
                name=require(entry, "name", str, where),
                ja=require(entry, "ja", str, where),
                gem=require(entry, "gem", str, where),
                line=require(entry, "line", int, where),
            )
        )
    characters = []
    for where, entry in entries(data, "character"):
        ability = require(entry, "ability", str, where)
        if ability not in ABILITIES:
            raise CardDataError(f"{where}: unknown ability {ability!r}")
        characters.append(
            Character(
                id=require(entry, "id", str, where),
                name=require(entry, "name", str, where),
                ja=require(entry, "ja", str, where),
                ability=ability,
                text=require(entry, "text", str, where),
            )
        )
    return _checked(CardDatabase(tuple(cards), tuple(elements), tuple(characters), numbers))


def _checked(db: CardDatabase) -> CardDatabase:
    for what, ids in (
        ("card", [c.id for c in db.cards]),
        ("element", [e.id for e in db.elements]),
        ("character", [c.id for c in db.characters]),
    ):
        if len(set(ids)) != len(ids):
            raise CardDataError(f"duplicate {what} ids in the card database")
    for card in db.cards:
        if card.qty < 0:
            raise CardDataError(f"card {card.id!r} needs qty >= 0")
    for gem in GEMS:
        if sum(1 for c in db.cards if c.gem == gem) != 1:
            raise CardDataError(f"the database needs exactly one card kind for the {gem} gem")
    if sorted(e.gem for e in db.elements) != sorted(ELEMENT_GEMS):
        raise CardDataError("the database needs one element card each for fire, water, thunder")
    if len({c.ability for c in db.characters}) != len(db.characters):
        raise CardDataError("two characters share an ability")
    if db.deck_size < 1:
        raise CardDataError("the deck needs at least one card")
    for key in RULE_NUMBERS:
        if db.numbers[key] < 0:
            raise CardDataError(f"[rules] {key} must not be negative")
    return db


def load() -> CardDatabase:
    """The database shipped with the game."""
    return parse(read_toml(__package__ or "p2pcards.games.getgem", "cards.toml"))
