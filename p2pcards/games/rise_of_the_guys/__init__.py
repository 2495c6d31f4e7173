"""Rise of the Guys (`rise-of-the-guys`): two players, their own 40-card decks, four lanes.

Rulebook: ../shared/seeds/002_35243a55690da039.txt; the set is ours (cards.toml), and our
reading of the rulebook's open points is docs/rules/rise-of-the-guys.md (rules.md here).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

from p2pcards.boosters import ANY, PackLayout
from p2pcards.deckmodel import CardTraits, KnownDecksModel
from p2pcards.decks import DeckList, DeckRules, deck_problems, shipped_decks
from p2pcards.engine import Game
from p2pcards.errors import GameOptionError
from p2pcards.games.rise_of_the_guys import cards
from p2pcards.games.rise_of_the_guys.actions import ACTION_TYPES
from p2pcards.games.rise_of_the_guys.rules import DECK_SIZE, GuyRules
from p2pcards.games.rise_of_the_guys.state import GuysState, Options, new_state

__all__ = ["BOOSTER", "DECK_RULES", "GAME", "GuysGame", "GuysState"]

DECK_RULES = DeckRules(size=DECK_SIZE, max_copies=4, min_classes=1, max_classes=2)
"""Lines 117–125: 40 cards, at most 4 of a card, one or two classes, no tokens."""

BOOSTER = PackLayout(
    rarities=cards.RARITIES,
    slots=(("common", 5), ("rare", 3), ("epic", 1), (ANY, 1)),
    sealed_packs=10,
)
"""Line 237: a booster is 5 commons, 3 rares, 1 epic and 1 card of any rarity; "it takes about
10 packs to be able to build a deck using only those cards" (sealed: rules.md)."""

DEFAULT_DECKS = ("tempo-machine", "aggro-historical")
"""With no deck given, the rulebook's two example decks (lines 133–149)."""

DeckSpec = str | Mapping[str, int] | DeckList
"""A seat's deck: a shipped deck's name, card counts by id, or a deck list read from a file."""


class GuysGame(Game):
    """The game object: makes initial states and parses actions."""

    name = "rise-of-the-guys"
    title = "Rise of the Guys"
    min_players = 2
    max_players = 2
    action_types = ACTION_TYPES
    default_decks = DEFAULT_DECKS
    deck_rules = DECK_RULES
    booster = BOOSTER

    def __init__(self) -> None:
        self.db = cards.load()

    @property
    def catalogue(self) -> cards.CardDatabase:
        """The cards decks are built from (for the deck rules)."""
        return self.db

    @property
    def booster_cards(self) -> tuple[cards.Card, ...]:
        """The cards boosters draw from: the set without its tokens, in file order."""
        return self.db.deck_cards

    @cached_property
    def decks(self) -> dict[str, DeckList]:
        """The shipped decks by file stem."""
        return {deck.id: deck for deck in shipped_decks(__name__)}

    @cached_property
    def rules(self) -> GuyRules:
        """The static tables, with a deck model that knows the shipped decks."""
        index = self.db.index
        known = []
        for deck in self.decks.values():
            row = [0] * len(self.db.cards)
            for card, n in deck.counts().items():
                row[index[card]] += n
            known.append(row)
        model = KnownDecksModel(
            [CardTraits(frozenset(c.classes), c.token) for c in self.db.cards],
            known,
            size=DECK_RULES.size,
            max_copies=DECK_RULES.max_copies,
            max_classes=DECK_RULES.max_classes,
        )
        return GuyRules(self, self.db, model)

    def physical_cards(self) -> list[str]:
        """A game of own decks has no shared deck: each table's decks make its cards."""
        return []

    def card_universe(self) -> list[str]:
        """Every copy a legal deck may hold of every card of the set (tokens are never
        dealt)."""
        return [c.id for c in self.db.deck_cards for _ in range(DECK_RULES.max_copies)]

    def deck(self, spec: DeckSpec) -> dict[str, int]:
        """A seat's deck as card counts, checked against the deck rules; GameOptionError lists
        every rule it breaks."""
        if isinstance(spec, str):
            found = self.decks.get(spec)
            if found is None:
                known = ", ".join(sorted(self.decks))
                raise GameOptionError(f"no shipped deck called {spec!r}; shipped: {known}")
            spec = found
        deck = spec if isinstance(spec, DeckList) else DeckList.from_counts(self.name, spec)
        problems = deck_problems(deck, DECK_RULES, self.db)
        if problems:
            raise GameOptionError(f"deck {deck.name!r} is not legal: " + "; ".join(problems))
        return deck.counts()

    def new_initial_state(self, num_players: int = 2, **options: Any) -> GuysState:
        """A table at the first deal. Options: decks (one per seat: a shipped deck's name, card
        counts, or a DeckList; default the rulebook's two decks; None for another seat's
        deck, unknown here, when the state only serves to make this seat's replica at a
        table) and round_cap (turns, or None)."""
        self.check_num_players(num_players)
        decks: Sequence[DeckSpec | None] | None = options.pop("decks", None)
        round_cap = options.pop("round_cap", None)
        if options:
            raise GameOptionError(f"unknown {self.name} options: {', '.join(sorted(options))}")
        if round_cap is not None and (
            not isinstance(round_cap, int) or isinstance(round_cap, bool) or round_cap < 1
        ):
            raise GameOptionError(
                f"round_cap must be a positive number of turns, not {round_cap!r}"
            )
        if decks is None:
            decks = DEFAULT_DECKS
        if isinstance(decks, str | Mapping) or len(decks) != num_players:
            raise GameOptionError(f"decks must give one deck per seat ({num_players})")
        if all(d is None for d in decks):
            raise GameOptionError("at least one deck must be known")
        counted = [None if d is None else self.deck(d) for d in decks]
        return new_state(self, self.rules, counted, Options(round_cap))


GAME = GuysGame()
