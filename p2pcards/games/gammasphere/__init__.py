"""Gammasphere TCG Prototype 3 (`gammasphere`): two players, their own 40-card decks,
characters with levels, buildings, weapons, events and Pylons.

Rulebook: the text 004_8844080fa8b4f3e6.txt (it stops inside the attack rules); the
set is ours (cards.toml), and our reading and completion of the rules is
docs/rules/gammasphere.md (rules.md here).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from p2pcards.deckmodel import CardTraits, KnownDecksModel
from p2pcards.decks import DeckRules, OwnDecksBase
from p2pcards.engine import Game
from p2pcards.games.gammasphere import cards
from p2pcards.games.gammasphere.actions import ACTION_TYPES
from p2pcards.games.gammasphere.rules import DECK_SIZE, MAX_COPIES
from p2pcards.games.gammasphere.state import GammaRules, GammaState, Options, new_state

__all__ = ["DECK_RULES", "GAME", "GammaGame", "GammaState"]

DECK_RULES = DeckRules(
    size=DECK_SIZE,
    max_copies=MAX_COPIES,
    min_classes=0,
    max_classes=0,
    unlimited=frozenset({"pylon"}),
)
"""Lines 9, 20, 21 and rules.md: 40 cards, at most 4 of an entity or event, Pylons unlimited."""

DEFAULT_DECKS = ("protoss-pylon-rush", "saiyan-power-level")
"""With no deck given, the two starter decks."""


class GammaGame(OwnDecksBase, Game):
    """The game object: makes initial states and parses actions."""

    name = "gammasphere"
    title = "Gammasphere TCG Prototype 3"
    min_players = 2
    max_players = 2
    action_types = ACTION_TYPES
    default_decks = DEFAULT_DECKS
    deck_rules = DECK_RULES

    def __init__(self) -> None:
        self.db = cards.load()

    @property
    def catalogue(self) -> cards.CardDatabase:
        """The cards decks are built from (for the deck rules)."""
        return self.db

    @cached_property
    def rules(self) -> GammaRules:
        """The static tables, with a deck model that knows the shipped decks."""
        known = []
        for deck in self.decks.values():
            row = [0] * len(self.db.cards)
            for card, n in deck.counts().items():
                row[self.db.index[card]] += n
            known.append(row)
        model = KnownDecksModel(
            [CardTraits(frozenset(), False) for _ in self.db.cards],
            known,
            size=DECK_SIZE,
            max_copies=MAX_COPIES,
            max_classes=0,
        )
        return GammaRules(self, self.db.cards, model)

    def deck_cards(self) -> list[str]:
        """The cards a deck may hold: the whole set."""
        return [c.id for c in self.db.cards]

    def new_initial_state(self, num_players: int = 2, **options: Any) -> GammaState:
        """A table at the first deal. Options: decks (one per seat: a shipped deck's name, card
        counts, or a DeckList; default the two starter decks; None for another seat's deck,
        unknown here, when the state only serves to make this seat's replica at a table) and
        round_cap (rounds of one turn each, or None)."""
        self.check_num_players(num_players)
        decks, round_cap = self.table_options(num_players, options, "rounds")
        return new_state(self.rules, decks, Options(round_cap))


GAME = GammaGame()
