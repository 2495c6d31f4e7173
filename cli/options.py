"""Checks of command-line input shared by the commands: games, seat counts, agent specs."""

from ai.agents import make_agent, split_specs
from ai.errors import AgentSpecError
from cli.errors import fail
from p2pcards import games
from p2pcards.engine import Game
from p2pcards.errors import UnknownGameError


def game_named(name: str) -> Game:
    """The game, or a usage error listing the known ones."""
    try:
        return games.load(name)
    except UnknownGameError as exc:
        raise fail(str(exc)) from None


def seat_count(game: Game, seats: int | None) -> int:
    """The seat count asked for (the game's least by default), checked against its range."""
    n = game.min_players if seats is None else seats
    if not game.min_players <= n <= game.max_players:
        raise fail(f"{game.name} is for {game.min_players} to {game.max_players} seats, not {n}")
    return n


def agent_specs(text: str) -> list[str]:
    """Comma-separated agent specs, each checked by making the agent once."""
    specs = split_specs(text)
    if not specs:
        raise fail("give at least one agent, e.g. --agents greedy,random")
    for spec in specs:
        try:
            agent = make_agent(spec)
        except AgentSpecError as exc:
            raise fail(str(exc)) from None
        close = getattr(agent, "close", None)
        if close is not None:
            close(None)
    return specs
