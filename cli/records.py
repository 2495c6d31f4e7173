"""`p2pcards audit FILE` and `p2pcards replay FILE`: checking and reading a saved table."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from cli.errors import FAILURE, fail
from cli.views import view_for
from p2pcards import games
from p2pcards.errors import P2PCardsError
from protocol.audit import audit as audit_log
from protocol.savefile import SavedTable, SaveFileError, load

out = Console(highlight=False)
FileArg = Annotated[
    Path, typer.Argument(help="A saved table (.p2pt), as written by host/join/bot.")
]


def _load(path: Path) -> SavedTable:
    try:
        return load(path)
    except SaveFileError as exc:
        raise fail(str(exc)) from None


def audit(path: FileArg) -> None:
    """Re-check a saved table: signatures, every shuffle and key against the disclosed secrets."""
    saved = _load(path)
    faults = audit_log(saved.log, saved.table_id, saved.num_seats, saved.sealing_keys())
    out.print(
        f"{path}: {saved.roster['game']}, {saved.num_seats} seats, saved by seat {saved.seat}; "
        f"{len(saved.envelopes)} signed messages, all signatures and chains check out."
    )
    if faults:
        out.print("[bold red]The audit names these seats:[/]")
        for fault in faults:
            out.print(f"  {fault}")
        raise typer.Exit(FAILURE)
    out.print("Audit passed: every shuffle and every key follows from the disclosed secrets.")


def replay(path: FileArg) -> None:
    """Show a saved game move by move, as the seat that saved it saw it."""
    saved = _load(path)
    try:
        game = games.load(str(saved.roster["game"]))
        state = game.new_initial_state(saved.num_seats, **saved.roster["options"]).observation(
            saved.seat
        )
        view = view_for(game.name)
        for number, (data, sightings) in enumerate(saved.steps, 1):
            action = game.action_from_json(data)
            state.see(sightings)
            line = view.describe_move(state, action, saved.seat)
            state.apply_action(action)
            if line:
                out.print(f"{number:4}  {line}")
    except (P2PCardsError, TypeError, KeyError) as exc:
        raise fail(f"{path}: the saved moves do not replay: {exc}") from None
    out.print(view.board(state, saved.seat, []))
    if state.is_terminal():
        winners = [s for s, r in enumerate(state.returns()) if r > 0]
        out.print(f"Winner: {', '.join(f'seat {s}' for s in winners)}.")
    else:
        out.print(f"The game stopped after {len(saved.steps)} steps, before its end.")


def register(app: typer.Typer) -> None:
    """Add the record commands."""
    app.command()(audit)
    app.command()(replay)
