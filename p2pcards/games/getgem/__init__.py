"""GETGEM (`getgem`), お宝争奪カードゲーム: collect fire, water and thunder, declare, and hold out.

Rulebook: the text 001_8f4b08e2e7b8d5ce.txt; our reading of its open points, the
card composition and the expansion's characters are in rules.md beside this file
(docs/rules/getgem.md).
"""

from typing import Any

from p2pcards.engine import Game
from p2pcards.errors import GameOptionError
from p2pcards.games.getgem import cards
from p2pcards.games.getgem.actions import ACTION_TYPES
from p2pcards.games.getgem.cards import CardDatabase
from p2pcards.games.getgem.state import Decision, GetGemState, Options, Rules

__all__ = ["GAME", "Decision", "GetGemGame", "GetGemState"]


class GetGemGame(Game):
    """The game object: makes initial states and parses actions."""

    name = "getgem"
    title = "GETGEM"
    min_players = 2
    max_players = 5
    action_types = ACTION_TYPES

    def __init__(self, db: CardDatabase | None = None) -> None:
        """The game with the shipped card database, or with `db` (composition studies)."""
        self.db = db or cards.load()
        self.rules = Rules(self, self.db)

    def physical_cards(self) -> list[str]:
        """The basic cards (30 shipped), in database order, copies repeated."""
        return [card.id for card in self.db.cards for _ in range(card.qty)]

    def new_initial_state(self, num_players: int, **options: Any) -> GetGemState:
        """A table before the opening deal (or the character draft).

        Options: `turn_cap` (turns in all before the game is drawn, or a match decided on
        points; default None: no cap, as in the rulebook, rules.md §25) or `round_cap` (the
        same in rounds of one turn per seat, as every game takes it), `first_player` (seat,
        default 0), `match` (bool: play games until a seat has 10 points, line 69-73), `characters`
        (bool: draft the expansion's character cards first, line 64-68).
        """
        self.check_num_players(num_players)
        match = options.pop("match", False)
        characters = options.pop("characters", False)
        first = options.pop("first_player", 0)
        if "round_cap" in options and "turn_cap" in options:
            raise GameOptionError("give turn_cap or round_cap, not both")
        cap = options.pop("turn_cap", None)
        if "round_cap" in options:
            # The cap every game takes (the command line's --round-cap): a round is one
            # turn of each seat.
            rounds = options.pop("round_cap")
            if rounds is not None and (
                not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < 1
            ):
                raise GameOptionError(
                    f"round_cap must be a positive number of rounds, not {rounds!r}"
                )
            cap = None if rounds is None else rounds * num_players
        if options:
            raise GameOptionError(f"unknown getgem options: {', '.join(sorted(options))}")
        for name, value in (("match", match), ("characters", characters)):
            if not isinstance(value, bool):
                raise GameOptionError(f"{name} must be true or false, not {value!r}")
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < num_players:
            raise GameOptionError(f"first_player must be a seat from 0 to {num_players - 1}")
        if cap is not None and (not isinstance(cap, int) or isinstance(cap, bool) or cap < 1):
            raise GameOptionError(f"turn_cap must be a positive number of turns, not {cap!r}")
        if characters and len(self.db.characters) < num_players:
            raise GameOptionError(
                f"{len(self.db.characters)} character cards cannot go round {num_players} seats"
            )
        return GetGemState(self.rules, num_players, Options(cap, first, match, characters))


GAME = GetGemGame()
