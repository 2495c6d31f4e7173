"""What the adapters' tests share: the tables every registered game is checked at."""

from typing import Any

import pytest

from p2pcards import games


def tables() -> list[Any]:
    """Every registered game at its fewest and its most seats (default decks)."""
    out = []
    for name in games.names():
        info = games.info(name)
        for seats in sorted({info.min_players, info.max_players}):
            out.append(pytest.param(name, seats, id=f"{name}-{seats}seats"))
    return out
