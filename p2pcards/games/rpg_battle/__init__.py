"""RPG Battle Card Game (`rpg-battle`): draft characters, then battle with 100 action cards.

Rulebook: the text 003_cfa394b9cdefb20c.txt; our reading of its open
points is in rules.md beside this file (docs/rules/rpg-battle.md).
"""

from typing import Any

from p2pcards.engine import Game
from p2pcards.errors import GameOptionError
from p2pcards.games.rpg_battle import cards
from p2pcards.games.rpg_battle.actions import ACTION_TYPES
from p2pcards.games.rpg_battle.state import Decision, Options, RpgBattleState, Rules

__all__ = ["GAME", "Decision", "RpgBattleGame", "RpgBattleState"]


def characters_per_seat(num_players: int) -> int:
    """The draft size of rulebook line 9: 3 each for 2 seats, 2 each for 3, 1 each for 4 or more."""
    return 3 if num_players == 2 else 2 if num_players == 3 else 1


class RpgBattleGame(Game):
    """The game object: makes initial states and parses actions."""

    name = "rpg-battle"
    title = "RPG Battle Card Game"
    min_players = 2
    max_players = 8
    action_types = ACTION_TYPES

    def __init__(self) -> None:
        self.db = cards.load()
        self.rules = Rules(self, self.db)

    def physical_cards(self) -> list[str]:
        """The 100 action cards, in database order, copies repeated."""
        return [card.id for card in self.db.cards for _ in range(card.qty)]

    def new_initial_state(self, num_players: int, **options: Any) -> RpgBattleState:
        """A table at the start of the draft. Option: round_cap (int rounds, or None for none)."""
        self.check_num_players(num_players)
        round_cap = options.pop("round_cap", None)
        if options:
            raise GameOptionError(f"unknown rpg-battle options: {', '.join(sorted(options))}")
        if round_cap is not None and (
            not isinstance(round_cap, int) or isinstance(round_cap, bool) or round_cap < 1
        ):
            raise GameOptionError(
                f"round_cap must be a positive number of rounds, not {round_cap!r}"
            )
        state = RpgBattleState(
            self.rules, num_players, Options(characters_per_seat(num_players), round_cap)
        )
        return state


GAME = RpgBattleGame()
