"""The `p2pcards` command line.

Start-up imports only typer, rich and the light modules the commands' signatures need
(their defaults and help): each command imports the games, agents and protocol it uses
when it runs, so `p2pcards --help` and a bot's start stay cheap.
"""

from __future__ import annotations

import json
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
    agents_option,
    alias,
    chosen_decks,
    chosen_round_cap,
    chosen_seed,
    game_named,
    game_options,
    joined_agents,
    labelled_agents,
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
def list_games(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON on stdout.")] = False,
) -> None:
    """List the games p2pcards plays, with their seat ranges."""
    from rich.table import Table

    from cli.output import console, whole
    from p2pcards import games
    from p2pcards.engine import seat_range

    found = [games.info(name) for name in games.names()]  # the registry: no game imported
    if as_json:
        rows = [{"game": g.name, "title": g.title, "min_seats": g.min_players,
                 "max_seats": g.max_players} for g in found]  # fmt: skip
        typer.echo(json.dumps(rows))
        return
    table = Table("game", "title", "seats")
    for g in found:
        table.add_row(g.name, g.title, seat_range(g.min_players, g.max_players))
    console().print(whole(table))


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

    from cli.rules_text import fitted

    out.print(Markdown(fitted(text, out.width)))


@app.command()
def play(
    game: GameArg,
    seats: Annotated[int | None, typer.Option(help="Seats at the table (you are seat 0).")] = None,
    agents: Annotated[
        list[str] | None,
        agents_option(
            f"AIs for the other seats, round the table, comma-separated (or --agents repeated)"
            f": {', '.join(AGENTS)} (with options, e.g. expectimax:think_ms=500, and "
            "name=LABEL); default expectimax."
        ),
    ] = None,
    seed: SeedOpt = None,
    round_cap: Annotated[int, round_cap_option(0, "a person plays to the rulebook's end")] = 0,
    explain: ExplainOpt = False,
    option: GameOptionsOpt = None,
    deck: DeckOpt = None,
    ai: Annotated[str | None, typer.Option("--ai", hidden=True)] = None,
) -> None:
    """Play a game in the terminal: you at seat 0, AI in the other seats."""
    from ai.agents import make_agent
    from ai.match import labels, seating
    from cli.play import Quit, run_local_game
    from cli.views import view_for
    from p2pcards.dealer import LocalDealer

    g = game_named(game)
    n = seat_count(g, seats)
    cap = chosen_round_cap(round_cap)
    options = with_decks(game_options(g, n, option, round_cap=cap), chosen_decks(g, n, deck))
    given = alias(joined_agents(agents), None, ai, "--agents", "--ai") or "expectimax"
    specs = seating(labelled_agents(given), n - 1, 0)
    seed = chosen_seed(seed)
    names = labels(specs)
    out.print(
        f"[bold]{g.title}[/] — {n} seats, you are seat 0, "
        f"AI: {escape(', '.join(dict.fromkeys(names)))}, seed {seed}. Type ? for help."
    )
    state = g.new_initial_state(n, round_cap=cap, **options)
    agents_by_seat = {}
    for s, (spec, name) in enumerate(zip(specs, names, strict=True), 1):
        agent = make_agent(spec, seed * 1000 + s)
        if name != spec:  # name=LABEL: the board and the log call the seat so
            agent.name = name
        agents_by_seat[s] = agent
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
