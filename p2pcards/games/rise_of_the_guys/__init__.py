"""Rise of the Guys (`rise-of-the-guys`): two players, their own 40-card decks, four lanes.

Rulebook: the text 002_35243a55690da039.txt; the set is ours (cards.toml), and our
reading of the rulebook's open points is docs/rules/rise-of-the-guys.md (rules.md here).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from p2pcards.boosters import ANY, PackLayout
from p2pcards.deckmodel import CardTraits, KnownDecksModel
from p2pcards.decks import DeckRules, OwnDecksBase
from p2pcards.engine import Game
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


class GuysGame(OwnDecksBase, Game):
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

    def deck_cards(self) -> list[str]:
        """The cards a deck may hold: the set without its tokens."""
        return [c.id for c in self.db.deck_cards]

    def new_initial_state(self, num_players: int = 2, **options: Any) -> GuysState:
        """A table at the first deal. Options: decks (one per seat: a shipped deck's name, card
        counts, or a DeckList; default the rulebook's two decks; None for another seat's
        deck, unknown here, when the state only serves to make this seat's replica at a
        table) and round_cap (turns, or None)."""
        self.check_num_players(num_players)
        decks, round_cap = self.table_options(num_players, options, "turns")
        return new_state(self, self.rules, decks, Options(round_cap))


GAME = GuysGame()
