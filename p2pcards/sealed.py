"""Sealed deck building: a legal deck from a pool of opened cards, each card used at most as
many times as it was opened. Generic: a game passes its deck rules, its cards (id, rarity,
classes, cost, token) and its rarities, commonest first.

Two steps, each a simple score rather than a search, so a person can redo them by hand:
1. The classes: of every set of classes the rules allow, the one whose cards in the pool give
   the most usable copies (depth: the deck least forced to play its weakest cards); ties go to
   more rarity points in the deck, then a lower total cost, then the classes' names.
2. The cards: rarer first (a set's rarity marks the cards that shape a game), cheaper first
   within a rarity (a curve with plays every turn), then by id; all the copies of a card
   together, at most the rules' copies and the pool's, until the deck is full.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import Protocol, runtime_checkable

from p2pcards.boosters import Pack, PackLayout, RarityCard, pool_of
from p2pcards.decks import DeckError, DeckList, DeckRules, OwnDecksGame


class SealedCard(RarityCard, Protocol):
    """What sealed deck building reads of a card."""

    @property
    def name(self) -> str:
        """The card's name, for people."""
        ...

    @property
    def classes(self) -> tuple[str, ...]:
        """The card's classes."""
        ...

    @property
    def cost(self) -> int:
        """The card's cost."""
        ...


@runtime_checkable
class SealedGame(OwnDecksGame, Protocol):
    """A game of own decks that opens boosters: what sealed needs of it."""

    name: str
    booster: PackLayout
    """Its pack layout, as data."""

    @property
    def booster_cards(self) -> Sequence[SealedCard]:
        """The cards boosters draw from."""
        ...


def sealed_deck(game: SealedGame, packs: Sequence[Pack], name: str, description: str) -> DeckList:
    """The deck a game's opened packs build (build_sealed_deck with the game's rules)."""
    return build_sealed_deck(
        pool_of(packs), game.booster_cards, game.deck_rules, game.booster.rarities, game.name,
        name, description,
    )  # fmt: skip


def build_sealed_deck(
    pool: Mapping[str, int],
    cards: Iterable[SealedCard],
    rules: DeckRules,
    rarities: Sequence[str],
    game: str,
    name: str = "Sealed",
    description: str = "",
) -> DeckList:
    """The best deck of the pool (copies by card id) by the module's two scores; DeckError
    if the pool holds an unknown card or cannot fill a legal deck."""
    by_id = {card.id: card for card in cards}
    unknown = sorted(set(pool) - set(by_id))
    if unknown:
        raise DeckError(f"the pool holds {unknown[0]!r}, which is no card of {game}")
    usable = {
        card: min(n, rules.max_copies)
        for card, n in pool.items()
        if n > 0 and (rules.tokens_allowed or not by_id[card].token)
    }
    rank = {rarity: i for i, rarity in enumerate(rarities)}

    def order(card: str) -> tuple[int, int, str]:
        return -rank.get(by_id[card].rarity, 0), by_id[card].cost, card

    ranked = sorted(usable, key=order)
    present = sorted({c for card in usable for c in by_id[card].classes})
    choices = [
        frozenset(classes)
        for k in range(rules.min_classes, rules.max_classes + 1)
        for classes in combinations(present, k)
    ] or [frozenset()]  # a pool of classless cards (or none): one choice, no class
    best: tuple[tuple[int, int, int], frozenset[str], dict[str, int]] | None = None
    for classes in choices:
        fits = [card for card in ranked if classes.issuperset(by_id[card].classes)]
        deck = _fill(fits, usable, rules.size)
        score = (
            sum(usable[card] for card in fits),
            sum(rank.get(by_id[card].rarity, 0) * n for card, n in deck.items()),
            -sum(by_id[card].cost * n for card, n in deck.items()),
        )
        if best is None or score > best[0]:
            best = (score, classes, deck)
    assert best is not None  # choices is never empty
    (depth, _, _), classes, deck = best
    if depth < rules.size:
        opened = sum(pool.values())
        raise DeckError(
            f"the {opened} cards opened make no legal deck: it needs {rules.size} cards, and "
            f"the best classes, {' + '.join(sorted(classes)) or 'none'}, give {depth} (at most "
            f"{rules.max_copies} copies of a card); open more boosters"
        )
    return DeckList(
        id="sealed",
        name=name,
        game=game,
        cards=tuple(sorted(deck.items())),
        description=description,
    )


def _fill(ranked: list[str], usable: Mapping[str, int], size: int) -> dict[str, int]:
    deck: dict[str, int] = {}
    room = size
    for card in ranked:
        if room == 0:
            break
        deck[card] = min(usable[card], room)
        room -= deck[card]
    return deck
