"""Toy Brawl (`toy-brawl`): a small own-deck game for 2 to 6 seats, kept for the tests only.

It proves that the core carries any number of seats (DESIGN.md §10): its layout, masks and
turn order come from `num_players`, its default decks cycle in the engine, and a card played
opens a response window (`p2pcards.windows`) that every seat still in the game answers, a
response to a response included. It is not registered for players; the conformance suite
and the in-process table tests run over it beside the registered games.

The rules, in full:
- Each seat brings its own deck of 8 cards (at most 4 copies of a card) and starts with
  3 life and 2 cards in hand, dealt one at a time, seat by seat.
- On its turn a seat draws a card (with an empty deck it loses 1 life instead) and then plays
  one card of kind "play" from its hand, or passes. Either ends its turn after the card.
- A card played goes face up on the stack and opens a window: every seat, from the player's
  left round to the player, may answer it with a Counter from its hand, or pass. A Counter
  goes on the stack and opens its own window, which resolves first. A window asks a seat
  whenever its hand holds a card (so the rhythm shows nothing), and closes once every seat
  still in the game has passed in a row.
- When a window closes its card resolves: Spark deals 1 damage to the next seat still in the
  game on its player's left, Flare 2 to the seat it chose, Mend heals its player by 1 (to 5
  at most), Counter cancels the card it answered (that card's window closes at once and the
  card does nothing). Cards then go to their owner's discard pile.
- A seat at 0 life is out of the game: turns and windows skip it. The last seat in wins;
  with a round cap, the seats in with the most life share the win when the cap is reached.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from p2pcards.decks import DeckRules, OwnDecksBase
from p2pcards.engine import Game
from p2pcards.games import GameInfo, GameOption
from toygame.actions import ACTION_TYPES
from toygame.cards import CardDatabase
from toygame.state import DECK_SIZE, ToyRules, ToyState

DECK_RULES = DeckRules(size=DECK_SIZE, max_copies=4, min_classes=0, max_classes=0)


class ToyGame(OwnDecksBase, Game):
    """Toy Brawl: makes initial states and parses actions."""

    name = "toy-brawl"
    title = "Toy Brawl (a test game)"
    min_players = 2
    max_players = 6
    action_types = ACTION_TYPES
    default_decks = ("fire", "guard", "mixed")
    deck_rules = DECK_RULES

    @cached_property
    def db(self) -> CardDatabase:
        """The toy set."""
        return CardDatabase()

    @property
    def catalogue(self) -> CardDatabase:
        """The cards decks are built from."""
        return self.db

    def deck_cards(self) -> list[str]:
        """Every card of the set may go in a deck."""
        return [c.id for c in self.db.cards]

    @cached_property
    def rules(self) -> ToyRules:
        """The static tables, with a deck model that knows the shipped decks."""
        return ToyRules(self, self.db.cards, self.shipped_decks_model(self.db.index))

    def new_initial_state(self, num_players: int = 2, **options: Any) -> ToyState:
        """A table at the first deal. Options: decks (one per seat, None for another seat's
        deck at a table; default the shipped decks in turn) and round_cap."""
        self.check_num_players(num_players)
        decks, round_cap = self.table_options(num_players, options, "rounds")
        return ToyState(self.rules, num_players, decks, round_cap)


GAME = ToyGame()

INFO = GameInfo(
    name=GAME.name,
    title=GAME.title,
    module=__name__,
    min_players=GAME.min_players,
    max_players=GAME.max_players,
    zero_sum=True,
    own_decks=True,
    deck_rules="8 cards, at most 4 copies of a card",
    options=(
        GameOption("round_cap", None, "rounds before the game ends; None: no cap"),
        GameOption("decks", None, "one deck per seat; default the shipped decks in turn"),
    ),
    typical_length=40,
    view="",
    evaluation="",
)
"""Its registration as the conformance suite reads one, though the registry does not hold it."""
