"""Which terminal view draws which game."""

from collections.abc import Sequence
from types import ModuleType
from typing import Protocol, cast

from rich.console import RenderableType

from cli import getgem_view, rpg_battle_view
from p2pcards.engine import Action, State


class GameView(Protocol):
    """What the terminal needs from a game's view module."""

    def board(self, state: State, you: int | None, log: Sequence[str]) -> RenderableType: ...
    def prompt(self, state: State) -> str: ...
    def describe_choice(self, state: State, action: Action) -> str: ...
    def describe_move(self, before: State, action: Action, you: int | None) -> str | None: ...
    def is_reaction(self, state: State) -> bool: ...


_VIEWS: dict[str, ModuleType] = {"getgem": getgem_view, "rpg-battle": rpg_battle_view}


def view_for(game_name: str) -> GameView:
    """The view module of a game."""
    return cast(GameView, _VIEWS[game_name])
