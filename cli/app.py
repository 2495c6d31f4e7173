"""The `p2pcards` command line.

Start-up imports only typer, rich and the light modules the commands' signatures need
(their defaults and help): each command imports the games, agents and protocol it uses
when it runs, so `p2pcards --help` and a bot's start stay cheap.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from ai.defaults import AGENTS
from cli.agent_stdio import register as register_agent_stdio_command
from cli.decks import register as register_deck_commands
from cli.errors import INTERRUPTED, USAGE, fail
from cli.lan import register as register_table_commands
from cli.options import (
    DeckOpt,
    ExplainOpt,
    GameArg,
    GameOptionsOpt,
    SeedOpt,
    agent_specs,
    agents_option,
    alias,
    chosen_decks,
    chosen_round_cap,
    chosen_seed,
    game_named,
    game_options,
    round_cap_option,
    seat_count,
    with_decks,
)
from cli.records import register as register_record_commands
from cli.simulate import register as register_simulate_command
from cli.tournament import register as register_tournament_command

app = typer.Typer(
    name="p2pcards",
    help="Card games peer to peer: play in the terminal or on a LAN, and run AI games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
out = Console(highlight=False)
err = Console(stderr=True, highlight=False)


def _show_version(asked: bool) -> None:
    if asked:
        from importlib.metadata import version

        out.print(f"p2pcards {version('p2pcards')}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", help="Show the version and exit.", callback=_show_version, is_eager=True
        ),
    ] = False,
) -> None:
    """Card games peer to peer: play in the terminal or on a LAN, and run AI games."""


@app.command("games")
def list_games() -> None:
    """List the games p2pcards plays, with their seat ranges."""
    from rich.table import Table

    from p2pcards import games

    table = Table("game", "title", "seats")
    for name in games.names():  # from the registry: no game is imported
        game = games.info(name)
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
    agents: Annotated[
        str,
        agents_option(
            f"AIs for the other seats, round the table: {', '.join(AGENTS)} (with options, "
            "e.g. expectimax:think_ms=500)."
        ),
    ] = "expectimax",
    seed: SeedOpt = None,
    round_cap: Annotated[int, round_cap_option(0, "a person plays to the rulebook's end")] = 0,
    explain: ExplainOpt = False,
    option: GameOptionsOpt = None,
    deck: DeckOpt = None,
    ai: Annotated[str | None, typer.Option("--ai", hidden=True)] = None,
) -> None:
    """Play a game in the terminal: you at seat 0, AI in the other seats."""
    from ai.agents import make_agent
    from ai.match import seating
    from cli.play import Quit, run_local_game
    from cli.views import view_for
    from p2pcards.dealer import LocalDealer

    g = game_named(game)
    n = seat_count(g, seats)
    cap = chosen_round_cap(round_cap)
    options = with_decks(game_options(g, n, option, round_cap=cap), chosen_decks(g, n, deck))
    specs = seating(agent_specs(alias(agents, "expectimax", ai, "--agents", "--ai")), n - 1, 0)
    seed = chosen_seed(seed)
    shown = ", ".join(dict.fromkeys(specs))
    out.print(
        f"[bold]{g.title}[/] — {n} seats, you are seat 0, AI: {escape(shown)}, seed {seed}. "
        "Type ? for help."
    )
    state = g.new_initial_state(n, round_cap=cap, **options)
    agents_by_seat = {s: make_agent(spec, seed * 1000 + s) for s, spec in enumerate(specs, 1)}
    try:
        run_local_game(  # it ends with the final board and who won, and why
            state, view_for(g.name), agents_by_seat, LocalDealer(seed), out, out.input,
            explain=explain,
        )  # fmt: skip
    except (Quit, KeyboardInterrupt):
        out.print(f"\nYou left the table. Replay this deal with --seed {seed}.")
        raise typer.Exit(INTERRUPTED) from None


register_table_commands(app)
register_record_commands(app)
register_simulate_command(app)
register_tournament_command(app)
register_agent_stdio_command(app)
register_deck_commands(app)


def main() -> None:
    """Console-script entry point: usage errors exit 2, failures 1, never a traceback."""
    # Typer from 0.24 carries its own copy of click; older ones use click itself.
    try:
        from typer._click import exceptions as click_errors
    except ImportError:  # pragma: no cover - the pinned typer has it
        from click import exceptions as click_errors  # type: ignore[no-redef]

    try:
        code = app(standalone_mode=False)
    except click_errors.NoArgsIsHelpError:  # plain `p2pcards`: rich printed the help making it
        raise SystemExit(0) from None
    except click_errors.UsageError as exc:
        # One line, like every other bad input (docs/cli.md), not click's box.
        command = exc.ctx.command_path if exc.ctx is not None else "p2pcards"
        fail(f"{exc.format_message()} (see: {command} -h)")
        raise SystemExit(USAGE) from None
    except typer.Abort:  # end of input at a prompt
        raise SystemExit(INTERRUPTED) from None
    except click_errors.ClickException as exc:
        fail(exc.format_message(), exc.exit_code)
        raise SystemExit(exc.exit_code) from None
    except Exception as exc:
        from p2pcards.errors import P2PCardsError  # imported already by whatever raised it

        if not isinstance(exc, P2PCardsError):
            raise
        fail(str(exc), code=USAGE if isinstance(exc, ValueError) else 1)
        raise SystemExit(USAGE if isinstance(exc, ValueError) else 1) from None
    raise SystemExit(code if isinstance(code, int) else 0)
