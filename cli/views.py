"""Which terminal view draws which game."""

import importlib
from collections.abc import Sequence
from typing import Protocol, cast

from rich.console import RenderableType

from p2pcards.engine import Action, State


class GameView(Protocol):
    """What the terminal needs from a game's view module."""

    def board(self, state: State, you: int | None, log: Sequence[str]) -> RenderableType: ...
    def prompt(self, state: State) -> str: ...
    def describe_choice(self, state: State, action: Action) -> str: ...
    def describe_move(self, before: State, action: Action, you: int | None) -> str | None: ...
    def is_reaction(self, state: State) -> bool: ...


# game name -> its view module, imported on first use (each loads its game's cards).
_VIEWS: dict[str, str] = {"getgem": "cli.getgem_view", "rpg-battle": "cli.rpg_battle_view"}


def view_for(game_name: str) -> GameView:
    """The view module of a game."""
    return cast(GameView, importlib.import_module(_VIEWS[game_name]))
