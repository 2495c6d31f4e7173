"""Booster packs of collectible games: a game's pack layout as data (`PackLayout`) and a pure,
seeded opener. Generic: a game passes its layout and its cards, each with an id, a rarity and
whether it is a token.

Within a pack a card appears at most once: slots are filled in layout order, each from the
cards of its rarity not yet in the pack. The `ANY` slot draws from every card not yet in the
pack with equal weight, so each rarity comes up in proportion to its card count.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from p2pcards.errors import P2PCardsError

ANY = "any"
"""A slot's rarity meaning every rarity."""

Pack = tuple[str, ...]
"""The card ids of one pack, in slot order."""


class BoosterError(P2PCardsError, ValueError):
    """Boosters that cannot be opened: a count below 1, or too few cards of a rarity."""


class RarityCard(Protocol):
    """What boosters read of a card."""

    @property
    def id(self) -> str:
        """The card's id."""
        ...

    @property
    def rarity(self) -> str:
        """The card's rarity."""
        ...

    @property
    def token(self) -> bool:
        """Whether the card is a token (never in a pack)."""
        ...


@dataclass(frozen=True, slots=True)
class PackLayout:
    """A game's booster: its rarities, commonest first, and its slots as (rarity, count)."""

    rarities: tuple[str, ...]
    slots: tuple[tuple[str, int], ...]
    sealed_packs: int
    """The boosters a sealed pool opens by default."""

    def __post_init__(self) -> None:
        # A layout is a game's data in code: a mistake in it is the game's bug, found at import.
        if not self.rarities or len(set(self.rarities)) != len(self.rarities):
            raise ValueError(f"rarities must be named once each: {self.rarities}")
        if not self.slots or self.sealed_packs < 1:
            raise ValueError("a pack has at least one slot, and sealed opens at least one pack")
        for rarity, count in self.slots:
            if (rarity != ANY and rarity not in self.rarities) or count < 1:
                raise ValueError(f"bad slot {rarity!r} x {count}: a known rarity, or any, x 1+")

    @property
    def size(self) -> int:
        """Cards in a pack."""
        return sum(count for _, count in self.slots)

    def slot_names(self) -> tuple[str, ...]:
        """Each card's slot in a pack, in order: its rarity, or ANY."""
        return tuple(rarity for rarity, count in self.slots for _ in range(count))


def open_boosters(cards: Iterable[RarityCard], layout: PackLayout, n: int, seed: int) -> list[Pack]:
    """`n` packs, the same for the same seed and cards (in the same order); tokens never."""
    if n < 1:
        raise BoosterError(f"open at least one booster, not {n}")
    deck_cards = [card for card in cards if not card.token]
    by_rarity = {r: [c.id for c in deck_cards if c.rarity == r] for r in layout.rarities}
    by_rarity[ANY] = [c.id for c in deck_cards]
    rng = random.Random(seed)
    return [_pack(rng, layout, by_rarity) for _ in range(n)]


def _pack(rng: random.Random, layout: PackLayout, by_rarity: dict[str, list[str]]) -> Pack:
    chosen: list[str] = []
    for rarity, count in layout.slots:
        left = [card for card in by_rarity[rarity] if card not in chosen]
        if len(left) < count:
            raise BoosterError(
                f"too few {rarity} cards for a pack: {count} needed, {len(left)} not yet in it"
            )
        chosen.extend(rng.sample(left, count))
    return tuple(chosen)


def pool_of(packs: Sequence[Pack]) -> dict[str, int]:
    """The opened cards: copies by card id."""
    return dict(Counter(card for pack in packs for card in pack))
