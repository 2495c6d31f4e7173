"""The `p2pcards` command line.

Start-up imports only typer, rich and the light modules the commands' signatures need
(their defaults and help): each command imports the games, agents and protocol it uses
when it runs, so `p2pcards --help` and a bot's start stay cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from ai.defaults import AGENTS
from cli.agent_stdio import register as register_agent_stdio_command
from cli.errors import USAGE, fail
from cli.lan import register as register_table_commands
from cli.options import (
    ExplainOpt,
    GameArg,
    GameOptionsOpt,
    agent_specs,
    game_named,
    game_options,
    seat_count,
)
from cli.records import register as register_record_commands
from cli.simulate import register as register_simulate_command
from cli.tournament import register as register_tournament_command

if TYPE_CHECKING:
    pass

app = typer.Typer(
    name="p2pcards",
    help="Card games peer to peer: play in the terminal, simulate AI games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

SeedOpt = Annotated[
    int | None, typer.Option(help="Seed for the deal and the AIs; the same seed replays the game.")
]


@app.command("games")
def list_games() -> None:
    """List the games p2pcards plays, with their seat ranges."""
    from rich.table import Table

    from p2pcards import games

    table = Table("game", "title", "seats")
    for name in games.names():
        game = games.load(name)
        table.add_row(name, game.title, f"{game.min_players}–{game.max_players}")
    out.print(table)


@app.command()
def rules(game: GameArg) -> None:
    """Show a game's rules in English, with the choices p2pcards made where the rulebook is open."""
    from importlib import resources

    g = game_named(game)
    package = type(g).__module__
    try:
        text = resources.files(package).joinpath("rules.md").read_text(encoding="utf-8")
    except OSError as exc:
        raise fail(f"the rules of {g.name} are missing from this installation: {exc}") from None
    from rich.markdown import Markdown

    out.print(Markdown(text))


@app.command()
def play(
    game: GameArg,
    seats: Annotated[int | None, typer.Option(help="Seats at the table (you are seat 0).")] = None,
    ai: Annotated[
        str, typer.Option(help=f"AI for the other seats: {', '.join(AGENTS)}.")
    ] = "expectimax",
    seed: SeedOpt = None,
    round_cap: Annotated[
        int | None, typer.Option(help="End the game after this many rounds (default: no cap).")
    ] = None,
    explain: ExplainOpt = False,
    option: GameOptionsOpt = None,
) -> None:
    """Play a game in the terminal: you at seat 0, AI in the other seats."""
    import secrets

    from ai.agents import make_agent
    from cli.play import Quit, run_local_game
    from cli.views import view_for
    from p2pcards.dealer import LocalDealer

    g = game_named(game)
    n = seat_count(g, seats)
    options = game_options(g, n, option, round_cap=round_cap)
    spec = agent_specs(ai)[0]
    seed = secrets.randbelow(10**9) if seed is None else seed
    out.print(
        f"[bold]{g.title}[/] — {n} seats, you are seat 0, AI: {spec}, seed {seed}. Type ? for help."
    )
    state = g.new_initial_state(n, round_cap=round_cap, **options)
    agents = {s: make_agent(spec, seed * 1000 + s) for s in range(1, n)}
    try:
        final = run_local_game(
            state, view_for(g.name), agents, LocalDealer(seed), out, out.input, explain=explain
        )
    except (Quit, KeyboardInterrupt):
        out.print(f"\nYou left the table. Replay this deal with --seed {seed}.")
        return
    winners = [s for s, r in enumerate(final.returns()) if r > 0]
    if winners == [0]:
        out.print("[bold green]You win![/]")
    else:
        names = ", ".join("you" if s == 0 else f"seat {s}" for s in winners)
        out.print(f"[bold]Game over.[/] Winner: {names}.")


register_table_commands(app)
register_record_commands(app)
register_simulate_command(app)
register_tournament_command(app)
register_agent_stdio_command(app)


def main() -> None:
    """Console-script entry point: usage errors exit 2, failures 1, never a traceback."""
    try:
        app()
    except Exception as exc:
        from p2pcards.errors import P2PCardsError  # imported already by whatever raised it

        if not isinstance(exc, P2PCardsError):
            raise
        fail(str(exc), code=USAGE if isinstance(exc, ValueError) else 1)
        raise SystemExit(USAGE if isinstance(exc, ValueError) else 1) from None
