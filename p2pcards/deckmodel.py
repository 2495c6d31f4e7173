"""A deck model: what a seat that has not seen another seat's decklist may guess of it, for
`determinize` (DESIGN.md §9).

The guess fits everything known: the cards of that deck seen so far, the deck rules, and the
known decks (the shipped ones, a tournament's entries). A known deck holding every card seen
is picked at random; when none does, a legal deck is built around the cards seen, from cards
of the classes they show.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CardTraits:
    """What deck rules read of a card kind: its classes and whether it is a token."""

    classes: frozenset[str]
    token: bool


class KnownDecksModel:
    """Guesses a decklist from the known decks that fit, else builds a legal one."""

    def __init__(
        self,
        traits: Sequence[CardTraits],
        known: Sequence[Sequence[int]],
        *,
        size: int,
        max_copies: int,
        max_classes: int,
    ) -> None:
        self.traits = list(traits)
        self.known = [list(deck) for deck in known]
        self.size = size
        self.max_copies = max_copies
        self.max_classes = max_classes
        self.classes = sorted({c for t in traits for c in t.classes})

    def decklist(self, seat: int, seen: Sequence[int], rng: random.Random) -> list[int]:
        """A decklist (copies by kind) that holds every card in `seen`."""
        fitting = [d for d in self.known if all(n >= s for n, s in zip(d, seen, strict=True))]
        if fitting:
            return list(rng.choice(fitting))
        return self.build(seen, rng)

    def build(self, seen: Sequence[int], rng: random.Random) -> list[int]:
        """A legal deck around `seen`: random cards of the classes they show (or chosen at
        random up to the limit), no tokens, copies within the limit."""
        deck = list(seen)
        shown = sorted({c for k, n in enumerate(seen) if n for c in self.traits[k].classes})
        allowed = set(shown)
        spare = [c for c in self.classes if c not in allowed]
        rng.shuffle(spare)
        while len(allowed) < self.max_classes and spare:
            allowed.add(spare.pop())
        pool = [
            k
            for k, t in enumerate(self.traits)
            if not t.token and t.classes <= allowed and deck[k] < self.max_copies
        ]
        while sum(deck) < self.size and pool:
            k = rng.choice(pool)
            deck[k] += 1
            if deck[k] >= self.max_copies:
                pool.remove(k)
        return deck
