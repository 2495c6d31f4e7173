"""`p2pcards host`, `join`, `bot` and `tables`: their options and the checks of what they
are given. The table itself (`cli.table`, the protocol) is imported when a command runs,
not when the program starts.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape

from cli.errors import fail
from cli.options import (
    GameOptionsOpt,
    agent_specs,
    agents_option,
    alias,
    check_range,
    chosen_decks,
    chosen_round_cap,
    game_options,
    round_cap_option,
)
from protocol.defaults import DEFAULT_TARGET, LEAVE_SECONDS, SILENT_SECONDS

if TYPE_CHECKING:
    from protocol.invite import Invite
    from protocol.savefile import SavedTable

out = Console(highlight=False)

HomeOpt = Annotated[
    Path | None,
    typer.Option(help="Directory for this player's identity key (default: config dir)."),
]
NameOpt = Annotated[str | None, typer.Option(help="Your name at the table.")]
AgentOpt = Annotated[
    str | None,
    typer.Option(help="Let an AI play this seat (e.g. greedy); default: you, in the terminal."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print the result as one JSON line.")]
TimeoutOpt = Annotated[
    float,
    typer.Option(
        help="Seconds without a word from a seat (no heartbeat, or a due share not sent) "
        "before it counts as silent."
    ),
]
LeaveTimeoutOpt = Annotated[
    float,
    typer.Option(
        help="Seconds to wait for a seat that left, hung up or fell silent to come back; "
        "then the table ends with it forfeiting."
    ),
]
TraceOpt = Annotated[
    Path | None,
    typer.Option(help="Append when this seat acts and applies each step to FILE (JSON lines)."),
]


SeatDeckOpt = Annotated[
    str | None,
    typer.Option(
        "--deck",
        help="Your own deck, in a game of own decks: a shipped deck's name (see `p2pcards deck "
        "list`) or a deck file. It stays secret; the others learn it card by card.",
    ),
]


def check_deck_file(spec: str) -> None:
    """A deck file given to join or bot is read now, and checked against the rules of the
    game it names: a missing, broken or illegal deck is a usage error before any connection.
    (A shipped deck's name is checked once the host says which game the table plays,
    before the seat counts.)"""
    from p2pcards import games
    from p2pcards.decks import DeckError, load_deck, seat_deck
    from p2pcards.errors import P2PCardsError

    if spec.endswith(".toml") or "/" in spec or Path(spec).exists():
        try:
            deck = load_deck(spec)
        except DeckError as exc:
            raise fail(f"--deck {spec}: {exc}") from None
        try:
            if deck.game:
                seat_deck(games.load(deck.game), spec)  # its message names the --deck
        except (DeckError, P2PCardsError) as exc:
            raise fail(str(exc)) from None


def host(
    game: Annotated[str, typer.Argument(help="Game name (see `p2pcards games`).")],
    seats: Annotated[int, typer.Option(help="Seats at the table, yours included.")] = 2,
    port: Annotated[int, typer.Option(help="Port to listen on (0: any free port).")] = 7777,
    bind: Annotated[
        str, typer.Option(help="Address to listen on (the AI seats listen there too).")
    ] = "0.0.0.0",
    advertise: Annotated[
        str | None,
        typer.Option(
            help="Address others reach this machine at (goes in the invite code); "
            "default: the address of this machine's LAN."
        ),
    ] = None,
    name: NameOpt = None,
    ai_seats: Annotated[
        int, typer.Option(help="Fill this many seats with AI peers (separate processes).")
    ] = 0,
    agents: Annotated[
        str, agents_option("Agents for the --ai-seats, comma-separated, round those seats.")
    ] = "expectimax",
    agent: AgentOpt = None,
    round_cap: Annotated[int, round_cap_option(0, "people play to the rulebook's end")] = 0,
    home: HomeOpt = None,
    timeout: TimeoutOpt = SILENT_SECONDS,
    leave_timeout: LeaveTimeoutOpt = LEAVE_SECONDS,
    as_json: JsonOpt = False,
    trace: TraceOpt = None,
    announce: Annotated[
        bool,
        typer.Option(
            "--announce", help="Announce the table on the LAN (UDP broadcast) while it waits."
        ),
    ] = False,
    beacon: Annotated[
        str | None,
        typer.Option(help="Send the announcements to ADDR:PORT instead (implies --announce)."),
    ] = None,
    option: GameOptionsOpt = None,
    ai: Annotated[int | None, typer.Option("--ai", hidden=True)] = None,
    ai_agent: Annotated[str | None, typer.Option("--ai-agent", hidden=True)] = None,
    deck: SeatDeckOpt = None,
) -> None:
    """Open a table and print its invite code; play when every seat is taken."""
    import asyncio

    from cli.table import (
        HostPlan,
        advertised_address,
        check_address,
        check_name,
        decider,
        insecure_test_seed,
        leave_cleanly,
        load_identity,
        run_host,
        seat_plan,
        trace_file,
    )
    from p2pcards import games
    from p2pcards.errors import P2PCardsError, UnknownGameError
    from protocol.discovery import parse_target
    from protocol.net import LocalSeat

    try:
        g = games.load(game)
        g.check_num_players(seats)
    except (UnknownGameError, P2PCardsError) as exc:
        raise fail(str(exc)) from None
    check_range("--port", port, 0, 65535)
    cap = chosen_round_cap(round_cap)
    capped = {} if cap is None else {"round_cap": cap}
    options = {**capped, **game_options(g, seats, option, **capped)}
    ai_seats = alias(ai_seats, 0, ai, "--ai-seats", "--ai")
    if not 0 <= ai_seats < seats:
        raise fail(f"--ai-seats must leave at least the host's seat: 0 to {seats - 1}")
    # A bad agent is a usage error now, not a seat that never comes.
    ai_specs = agent_specs(alias(agents, "expectimax", ai_agent, "--agents", "--ai-agent"))
    plan_seat = seat_plan(timeout, leave_timeout, as_json, False)
    target: tuple[str, int] | None = None
    if beacon is not None or announce:
        try:
            target = parse_target(beacon) if beacon is not None else DEFAULT_TARGET
        except ValueError as exc:
            raise fail(str(exc)) from None
    bind = check_address("--bind", bind)
    advertised = advertised_address(bind, advertise)
    identity, directory = load_identity(home)
    if deck is not None:
        chosen_decks(g, seats, [deck])  # a bad deck is a usage error now, before any seat comes
    seating = decider(agent, 0)
    seat = LocalSeat(
        identity, check_name(name or "host"), seating.decide, directory, watch=seating.watch,
        watch_replayed=seating.replayed, finish=seating.finish, test_seed=insecure_test_seed(),
        deck=deck,
    )  # fmt: skip
    plan = HostPlan(
        g.name, seats, options, bind, port, advertised, ai_seats, tuple(ai_specs), plan_seat,
        target,
    )  # fmt: skip
    with trace_file(trace) as trace_out:
        code = leave_cleanly(lambda: asyncio.run(run_host(plan, seat, trace_out)))
    raise typer.Exit(code)


BindOpt = Annotated[str, typer.Option(help="Address to listen on for the other seats.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", help="Print nothing but errors.")]
ResumeOpt = Annotated[
    Path | None,
    typer.Option(help="Take your seat again after a crash, from the save file it left."),
]


def join(
    code: Annotated[str | None, typer.Argument(help="The invite code the host printed.")] = None,
    name: NameOpt = None,
    agent: AgentOpt = None,
    home: HomeOpt = None,
    bind: BindOpt = "0.0.0.0",
    timeout: TimeoutOpt = SILENT_SECONDS,
    leave_timeout: LeaveTimeoutOpt = LEAVE_SECONDS,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
    trace: TraceOpt = None,
    resume: ResumeOpt = None,
    deck: SeatDeckOpt = None,
) -> None:
    """Take a seat at a table with its invite code (or again, with --resume FILE)."""
    import asyncio

    from cli.table import (
        check_address,
        check_name,
        decider,
        insecure_test_seed,
        leave_cleanly,
        load_identity,
        run_join,
        seat_plan,
        trace_file,
    )
    from protocol.invite import Invite, InviteError
    from protocol.net import LocalSeat
    from protocol.savefile import SaveFileError
    from protocol.savefile import load as load_saved

    plan = seat_plan(timeout, leave_timeout, as_json, quiet)
    bind = check_address("--bind", bind)
    target: Invite | SavedTable
    if resume is not None:
        try:
            target = load_saved(resume, tolerate_cut=True)
        except SaveFileError as exc:
            raise fail(str(exc)) from None
        if target.verdict is not None:
            raise fail(
                f"{resume!s}: that game is over ({target.verdict['ended']}); "
                f"see it with: p2pcards replay {resume!s}"
            )
    elif code is None:
        raise fail("give the invite code, or --resume FILE to take your seat again")
    else:
        try:
            target = Invite.parse(code)
        except InviteError as exc:
            raise fail(str(exc)) from None
    if deck is not None and resume is not None:
        raise fail("--resume takes the deck the save file holds: no --deck")
    if deck is not None:
        check_deck_file(deck)
    identity, directory = load_identity(home)
    seating = decider(agent, 1)
    seat = LocalSeat(
        identity, check_name(name or "player"), seating.decide, directory, watch=seating.watch,
        watch_replayed=seating.replayed, finish=seating.finish, test_seed=insecure_test_seed(),
        deck=deck,
    )  # fmt: skip
    with trace_file(trace) as trace_out:
        code_ = leave_cleanly(lambda: asyncio.run(run_join(target, seat, bind, plan, trace_out)))
    raise typer.Exit(code_)


def bot(
    code: Annotated[str | None, typer.Argument(help="The invite code the host printed.")] = None,
    agent: Annotated[
        str | None, typer.Option(help="Agent that plays the seat (default: greedy).")
    ] = None,
    cmd: Annotated[
        str | None,
        typer.Option(help='A program speaking the bot protocol plays the seat: "node mybot.js".'),
    ] = None,
    script: Annotated[
        str | None,
        typer.Option(help="A Python file defining choose(state, actions) plays the seat."),
    ] = None,
    name: NameOpt = None,
    home: HomeOpt = None,
    bind: BindOpt = "0.0.0.0",
    timeout: TimeoutOpt = SILENT_SECONDS,
    leave_timeout: LeaveTimeoutOpt = LEAVE_SECONDS,
    as_json: JsonOpt = False,
    quiet: QuietOpt = False,
    trace: TraceOpt = None,
    resume: ResumeOpt = None,
    deck: SeatDeckOpt = None,
) -> None:
    """Fill a seat at a table with an AI or a bot (or take it again, with --resume FILE)."""
    from protocol.roster import MAX_NAME

    given = [f"--{flag}" for flag, value in (("agent", agent), ("cmd", cmd), ("script", script))
             if value is not None]  # fmt: skip
    if len(given) > 1:
        raise fail(f"one of --agent, --cmd or --script plays the seat, not {' and '.join(given)}")
    spec = (
        f"cmd:{cmd}" if cmd is not None
        else f"script:{script}" if script is not None
        else agent or "greedy"
    )  # fmt: skip
    join(
        code, (name or spec)[:MAX_NAME], spec, home, bind, timeout, leave_timeout, as_json,
        quiet, trace, resume, deck,
    )  # fmt: skip


def tables(
    listen: Annotated[
        str, typer.Option(help="ADDR:PORT to listen for announcements on.")
    ] = f"0.0.0.0:{DEFAULT_TARGET[1]}",
    seconds: Annotated[float, typer.Option(help="How long to listen.")] = 3.0,
    as_json: JsonOpt = False,
) -> None:
    """List the open tables announcing themselves on the LAN."""
    from rich.table import Table

    from protocol.discovery import listen as listen_for_tables
    from protocol.discovery import parse_target

    check_range("--seconds", seconds, 0.1, 3600)
    try:
        address = parse_target(listen)
        heard = listen_for_tables(address, seconds)
    except (ValueError, OSError) as exc:
        raise fail(f"cannot listen on {listen}: {exc!s}") from None
    rows = [
        {
            "address": f"{sender}:{b.port}",
            "game": b.game,
            "free": b.free,
            "seats": b.seats,
            "host": b.name,
            "fingerprint": b.fingerprint,
        }
        for (sender, _), b in sorted(heard.items())
    ]
    if as_json:
        print(json.dumps(rows))
        return
    if not rows:
        out.print(f"No open tables heard in {seconds:g} s.")
        return
    table = Table("address", "game", "free seats", "host", "fingerprint")
    for row in rows:
        table.add_row(
            escape(str(row["address"])), escape(str(row["game"])),
            f"{row['free']}/{row['seats']}", escape(str(row["host"])),
            escape(str(row["fingerprint"])),
        )  # fmt: skip
    out.print(table)
    out.print("Ask the host for the invite code to join.")


def register(app: typer.Typer) -> None:
    """Add the table commands to the application."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    app.command()(host)
    app.command()(join)
    app.command()(bot)
    app.command()(tables)
