"""The toy set: cards.toml beside this package, read once and checked field by field."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from p2pcards.carddb import entries, read_toml, require
from p2pcards.errors import CardDataError

Effect = Literal["damage-left", "damage-chosen", "heal", "counter"]
EFFECTS: tuple[Effect, ...] = ("damage-left", "damage-chosen", "heal", "counter")
PACKAGE = __name__.rpartition(".")[0]


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the toy set."""

    id: str
    name: str
    response: bool
    effect: Effect
    amount: int


class CardDatabase:
    """The toy set, read from cards.toml beside this file."""

    def __init__(self) -> None:
        data = read_toml(PACKAGE, "cards.toml")
        cards = []
        for where, entry in entries(data, "cards"):
            kind = require(entry, "kind", str, where)
            effect = require(entry, "effect", str, where)
            if kind not in ("play", "response") or effect not in EFFECTS:
                raise CardDataError(f"{where}: unknown kind {kind!r} or effect {effect!r}")
            cards.append(
                Card(
                    require(entry, "id", str, where),
                    require(entry, "name", str, where),
                    kind == "response",
                    effect,
                    require(entry, "amount", int, where, low=0, high=5),
                )
            )
        self.cards = tuple(cards)
        self.by_id = {c.id: c for c in cards}
        self.index = {c.id: i for i, c in enumerate(cards)}

    def classes_of(self, card: str) -> tuple[str, ...] | None:
        """No classes: () for a card of the set, None for no such card."""
        return None if card not in self.by_id else ()

    def is_token(self, card: str) -> bool:
        """The set has no tokens."""
        return False
