"""The rpg-battle card database: characters and action cards, read from cards.toml."""

from dataclasses import dataclass
from typing import Any

from p2pcards.carddb import MAX_COPIES, entries, read_toml, require
from p2pcards.errors import CardDataError

EFFECTS = (
    "attack", "attack-all", "heal", "heal-all", "absorb", "revive",
    "discard", "draw", "steal", "dodge", "counter",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Character:
    """A character card: unique, drafted by one seat."""

    id: str
    name: str
    hp: int
    str: int
    mag: int
    line: int


@dataclass(frozen=True, slots=True)
class CardType:
    """An action card and how many copies the deck holds."""

    id: str
    name: str
    qty: int
    effect: str
    power: int
    quick: bool
    text: str
    line: int


@dataclass(frozen=True, slots=True)
class CardDatabase:
    """Everything cards.toml says, checked."""

    characters: tuple[Character, ...]
    cards: tuple[CardType, ...]

    @property
    def deck_size(self) -> int:
        """How many action cards there are in all."""
        return sum(card.qty for card in self.cards)


def parse(data: dict[str, Any]) -> CardDatabase:
    """Build the database from parsed TOML, refusing anything inconsistent."""
    characters = []
    for where, entry in entries(data, "character"):
        characters.append(
            Character(
                id=require(entry, "id", str, where),
                name=require(entry, "name", str, where),
                hp=require(entry, "hp", int, where),
                str=require(entry, "str", int, where),
                mag=require(entry, "mag", int, where),
                line=require(entry, "line", int, where),
            )
        )
    cards = []
    for where, entry in entries(data, "card"):
        effect = require(entry, "effect", str, where)
        if effect not in EFFECTS:
            raise CardDataError(f"{where}: unknown effect {effect!r}; known: {', '.join(EFFECTS)}")
        cards.append(
            CardType(
                id=require(entry, "id", str, where),
                name=require(entry, "name", str, where),
                qty=require(entry, "qty", int, where, high=MAX_COPIES),
                effect=effect,
                power=require(entry, "power", int, where),
                quick=bool(entry.get("quick", False)),
                text=require(entry, "text", str, where),
                line=require(entry, "line", int, where),
            )
        )
    if len(characters) < 2 or not cards:
        raise CardDataError("the card database needs at least 2 characters and 1 action card")
    for what, ids in (("character", [c.id for c in characters]), ("card", [c.id for c in cards])):
        if len(set(ids)) != len(ids):
            raise CardDataError(f"duplicate {what} ids in the card database")
    for c in characters:
        if c.hp < 1 or c.str < 0 or c.mag < 0:
            raise CardDataError(f"character {c.id!r} needs hp >= 1 and non-negative str and mag")
    for card in cards:
        if card.qty < 1 or card.power < 0:
            raise CardDataError(f"card {card.id!r} needs qty >= 1 and power >= 0")
    return CardDatabase(tuple(characters), tuple(cards))


def load() -> CardDatabase:
    """The database shipped with the game."""
    return parse(read_toml(__package__ or "p2pcards.games.rpg_battle", "cards.toml"))
