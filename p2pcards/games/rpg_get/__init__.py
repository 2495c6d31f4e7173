"""RPG Get! CCG (`rpg-get`): 2 to 5 seats, each with its own 80-card deck; missions attempted
by a party against the enemies the other seats play, with combat actions X(Y).

Rulebook: the text 000_34065cf589791de6.txt (not part of p2pcards); the set is ours
(cards.toml), and our reading of the rules is rules.md here (docs/rules/rpg-get.md links to
it). Registered as `rpg-get` (p2pcards/games/__init__.py).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from p2pcards.decks import DeckRules, OwnDecksBase
from p2pcards.engine import Game
from p2pcards.errors import GameOptionError
from p2pcards.games.rpg_get.actions import ACTION_TYPES
from p2pcards.games.rpg_get.cards import CardDatabase, load
from p2pcards.games.rpg_get.state import DECK_SIZE, RpgGetRules, RpgGetState

__all__ = ["DECK_RULES", "GAME", "RpgGetGame", "RpgGetState"]

DECK_RULES = DeckRules(size=DECK_SIZE, max_copies=DECK_SIZE, min_classes=0, max_classes=0)
"""Line 162: exactly 80 cards, any number of copies."""


class RpgGetGame(OwnDecksBase, Game):
    """RPG Get!: makes initial states and parses actions."""

    name = "rpg-get"
    title = "RPG Get! CCG"
    min_players = 2
    max_players = 5  # rules.md, choice 1
    action_types = ACTION_TYPES
    default_decks = ("sword-and-sorcery", "sky-pirates", "ragol-hunters")
    deck_rules = DECK_RULES

    @cached_property
    def db(self) -> CardDatabase:
        """The set."""
        return load()

    @property
    def catalogue(self) -> CardDatabase:
        """The cards decks are built from."""
        return self.db

    def deck_cards(self) -> list[str]:
        """Every card of the set may go in a deck."""
        return [c.id for c in self.db.cards]

    @cached_property
    def rules(self) -> RpgGetRules:
        """The static tables, with a deck model that knows the shipped decks."""
        return RpgGetRules(self, self.db.cards, self.shipped_decks_model(self.db.index))

    def new_initial_state(self, num_players: int = 2, **options: Any) -> RpgGetState:
        """A table before the roll for the first seat. Options: decks (one per seat, None for
        another seat's deck at a table; default the shipped decks in turn) and round_cap."""
        self.check_num_players(num_players)
        decks, round_cap = self.table_options(num_players, options, "rounds")
        for seat, deck in enumerate(decks):
            if deck is not None and not any(self.db.by_id[c].type == "character" for c in deck):
                raise GameOptionError(f"seat {seat}'s deck has no Character (rules.md, choice 3)")
        return RpgGetState(self.rules, num_players, decks, round_cap)


GAME = RpgGetGame()
