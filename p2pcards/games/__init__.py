"""The registry of games: `load(name)` and `names()`."""

import importlib

from p2pcards.engine import Game
from p2pcards.errors import UnknownGameError

# name -> module that defines GAME; modules are imported on first use so the
# registry stays cheap to import.
_MODULES: dict[str, str] = {
    "getgem": "p2pcards.games.getgem",
    "rpg-battle": "p2pcards.games.rpg_battle",
}
_LOADED: dict[str, Game] = {}


def names() -> list[str]:
    """Names of every game, sorted."""
    return sorted(_MODULES)


def load(name: str) -> Game:
    """The game called `name`; UnknownGameError lists the known ones."""
    game = _LOADED.get(name)
    if game is None:
        module_name = _MODULES.get(name)
        if module_name is None:
            raise UnknownGameError(name, names())
        game = importlib.import_module(module_name).GAME
        if not isinstance(game, Game):
            raise TypeError(f"{module_name}.GAME is not a Game")
        _LOADED[name] = game
    return game
