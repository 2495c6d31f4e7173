"""`p2pcards simulate`: AI-only games one after another, with wins per agent and per seat."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from ai.defaults import DEFAULT_ROUND_CAP
from cli.options import (
    ExplainOpt,
    GameArg,
    GameOptionsOpt,
    agent_specs,
    game_named,
    game_options,
    seat_count,
)

if TYPE_CHECKING:
    from ai.agents import Agent
    from p2pcards.engine import Action, State

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)


def simulate(
    game: GameArg,
    seats: Annotated[int | None, typer.Option(help="Seats at each table.")] = None,
    agents: Annotated[
        str,
        typer.Option(help="Agents, comma-separated; seated round the table and rotated each game."),
    ] = "greedy,random",
    num_games: Annotated[int, typer.Option("--games", min=1, help="How many games.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses seed + i.")] = 0,
    round_cap: Annotated[
        int, typer.Option(min=1, help="Rounds before the tie-break decides the game.")
    ] = DEFAULT_ROUND_CAP,
    as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
    explain: ExplainOpt = False,
    option: GameOptionsOpt = None,
) -> None:
    """Play AI-only games and report wins per agent and per seat."""
    from rich.table import Table

    from ai.match import simulate as run_simulation
    from cli.play import explanation
    from cli.views import view_for

    g = game_named(game)
    n = seat_count(g, seats)
    options = game_options(g, n, option, round_cap=round_cap)
    specs = agent_specs(agents)
    view = view_for(g.name)

    def show_thought(game_seed: int, seat: int, obs: State, action: Action, agent: Agent) -> None:
        thought = explanation(agent, obs, view)
        if thought:
            # With --json the results own stdout; explanations go to stderr.
            (err if as_json else out).print(
                f"game {game_seed}, seat {seat} ({agent.name}) {thought}", soft_wrap=True
            )

    hook = show_thought if explain else None
    tally = run_simulation(g.name, specs, n, num_games, seed, round_cap, hook, options)
    if as_json:
        print(
            json.dumps(
                {
                    "game": g.name,
                    "seats": n,
                    "games": tally.games,
                    "seed": seed,
                    "mean_steps": tally.steps / tally.games,
                    "agents": {
                        spec: {
                            "games": tally.games_by_agent[spec],
                            "wins": tally.wins_by_agent[spec],
                            "wins_by_seat": {
                                str(s): w for s, w in sorted(tally.wins_by_agent_seat[spec].items())
                            },
                        }
                        for spec in sorted(tally.games_by_agent)
                    },
                    "wins_by_seat": {str(s): w for s, w in sorted(tally.wins_by_seat.items())},
                },
                indent=2,
            )
        )
        return
    table = Table(
        title=f"{g.name}: {tally.games} games, {n} seats, seeds {seed}–{seed + num_games - 1}"
    )
    table.add_column("agent")
    table.add_column("games", justify="right")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    for s in range(n):
        table.add_column(f"wins at seat {s}", justify="right")
    for spec in sorted(tally.games_by_agent):
        wins = tally.wins_by_agent[spec]
        played = tally.games_by_agent[spec]
        by_seat = tally.wins_by_agent_seat[spec]
        table.add_row(
            spec, str(played), f"{wins:g}", f"{wins / played:.1%}",
            *(f"{by_seat.get(s, 0.0):g}" for s in range(n)),
        )  # fmt: skip
    out.print(table)
    seat_line = ", ".join(f"seat {s}: {w:g}" for s, w in sorted(tally.wins_by_seat.items()))
    out.print(f"wins by seat — {seat_line}")


def register(app: typer.Typer) -> None:
    """Add the simulate command."""
    app.command()(simulate)
