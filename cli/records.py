"""`p2pcards audit FILE` and `p2pcards replay FILE`: checking and reading a saved table.

Both play the saved table through again from its signed messages (`savefile.rebuild`):
what is shown and judged is what the evidence gives, never an unsigned record.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

import typer
from rich.markup import escape
from rich.text import Text

from cli.errors import FAILURE, USAGE, fail
from cli.output import console

if TYPE_CHECKING:
    from cli.views import GameView
    from cli.wording import Seats
    from p2pcards.engine import State
    from protocol.savefile import SavedTable
    from protocol.table_peer import TablePeer

out = console()
ReplayArg = Annotated[
    Path,
    typer.Argument(
        help="A saved table (.p2pt), as written by host/join/bot, or a records file (.jsonl) "
        "of simulate or tournament --records."
    ),
]


def _rebuilt(path: Path) -> tuple[SavedTable, TablePeer]:
    from protocol.savefile import NotASaveFile, SaveFileError, load, rebuild

    try:
        saved = load(path, tolerate_cut=True)
        return saved, rebuild(saved)
    except NotASaveFile as exc:
        raise fail(str(exc), USAGE) from None
    except SaveFileError as exc:
        raise fail(str(exc), FAILURE) from None


def _where_it_stops(table: TablePeer) -> str:
    if table.wants_action():
        return f"after {len(table.steps)} steps, at this seat's own move"
    waiting = sorted(table.waiting_for())
    who = ", ".join(f"seat {s}" for s in waiting) or "no seat"
    return f"after {len(table.steps)} steps, waiting for messages of {who}"


class _Audited(NamedTuple):
    """One save's audit: its verdict word, the lines for a person, and the JSON fields."""

    verdict: str
    lines: list[str]
    fields: dict[str, Any]


def _audit_one(path: Path, saved: SavedTable, table: TablePeer) -> _Audited:
    from protocol.savefile import faults_of

    lines = [
        f"{escape(str(path))}: {saved.roster.game}, {saved.num_seats} seats, saved by seat "
        f"{saved.seat}; {len(saved.envelopes)} signed messages, every signature and chain "
        "checks out, and the game replays from them."
    ]
    outcome = table.outcome
    faults = [] if outcome is None else outcome.faults
    notes = [] if outcome is None else outcome.notes
    if outcome is None and saved.verdict is not None:
        verdict = "evidence-missing"
        lines.append(
            f"[bold red]Evidence missing:[/] the file says the game ended "
            f"({escape(str(saved.verdict['ended']))}), but its signed messages stop "
            f"{_where_it_stops(table)}."
        )
    elif outcome is None:
        verdict = "unfinished"
        lines.append(
            f"Unfinished: the game stopped {_where_it_stops(table)}. What was played checks "
            "out so far; the shuffles are checked once the secrets are disclosed."
        )
    elif saved.verdict is not None and set(faults_of(saved.verdict)) != set(outcome.faults):
        verdict = "verdict-mismatch"
        lines.append(
            "[bold red]The verdict saved in the file is not the one the evidence gives.[/]"
        )
    else:
        labels = {"cheat": "cheated", "silent": "silent", "left": "left"}
        lines += [f"  {labels[fault.kind]}: {escape(str(fault))}" for fault in faults]
        lines += [f"  unchecked: {escape(note)}" for note in notes]
        if outcome.cheaters or outcome.ended == "aborted":
            verdict = "fault"
            lines.append(f"[bold red]The table stopped on a fault[/] ({outcome.ended}).")
        else:
            verdict = "passed"
            ended = {
                "finished": "The game ended",
                "forfeit": "The table ended by forfeit",
                "abandoned": "The table ended without a result (a seat fell silent)",
                "undecided": "This seat cannot know how the table ended (see below)",
            }.get(outcome.ended, outcome.ended)
            lines.append(f"{ended}. Audit passed: every move, shuffle and key checks out.")
    fields = {
        "file": str(path), "game": saved.roster.game, "seats": saved.num_seats,
        "saved_by": saved.seat, "messages": len(saved.envelopes),
        "verdict": verdict,
        "ended": None if outcome is None else outcome.ended,
        "returns": None if outcome is None else outcome.returns,
        "faults": [
            {"seat": f.seat, "step": f.step, "kind": f.kind, "reason": f.reason}
            for f in faults
        ],
        "unchecked": list(notes),
    }  # fmt: skip
    return _Audited(verdict, lines, fields)


def audit(
    paths: Annotated[
        list[Path],
        typer.Argument(
            help="Saved tables (.p2pt), as written by host/join/bot. Several seats' saves of "
            "one table are also compared: they must tell one history and one outcome."
        ),
    ],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the verdict as one JSON object.")
    ] = False,
) -> None:
    """Re-check a saved table from its signed messages: every signature and chain, every
    move, shuffle and key against the disclosed secrets, and who (if anyone) cheated. Given
    several seats' saves of one table, also report where they disagree, and who signed both
    sides."""
    from protocol.agreement import DifferentTables, SeatSave, compare

    loaded = [(path, *_rebuilt(path)) for path in paths]
    audited = [_audit_one(path, saved, table) for path, saved, table in loaded]
    failed = any(a.verdict not in ("passed", "unfinished") for a in audited)
    if len(paths) == 1:
        if as_json:
            print(json.dumps(audited[0].fields))
        else:
            for line in audited[0].lines:
                out.print(line)
        # An unfinished game is no failure: what was played checks out so far.
        if failed:
            raise typer.Exit(FAILURE)
        return
    # Short names where they tell the files apart: the lines stay readable.
    names = [p.name for p in paths] if len({p.name for p in paths}) == len(paths) else paths
    saves = [
        SeatSave(str(name), saved.seat, saved.table_id, saved.envelopes, table.outcome)
        for name, (_, saved, table) in zip(names, loaded, strict=True)
    ]
    try:
        parted = compare(saves, max(saved.num_seats for _, saved, _ in loaded))
    except DifferentTables as exc:
        raise fail(f"{exc}: give the saves of one table") from None
    if as_json:
        print(
            json.dumps(
                {
                    "saves": [a.fields for a in audited],
                    "agree": not parted,
                    "disagreements": [
                        {"kind": d.kind, "files": list(d.files), "signers": list(d.signers),
                         "text": d.text}
                        for d in parted
                    ],
                }
            )
        )  # fmt: skip
    else:
        for audited_one in audited:
            for line in audited_one.lines:
                out.print(line)
        if parted:
            out.print(f"[bold red]The {len(saves)} saves do not tell one history:[/]")
            for disagreement in parted:
                signers = ", ".join(f"seat {s}" for s in disagreement.signers) or "no seat"
                out.print(f"  {escape(disagreement.text)} Signed both sides: {signers}.")
        else:
            out.print(
                f"The {len(saves)} saves tell one history: every message both hold is the "
                "same, and every finished save names the same outcome."
            )
    if parted or failed:
        raise typer.Exit(FAILURE)


def replay(
    path: ReplayArg,
    game_number: Annotated[
        int | None,
        typer.Option("--game", help="Which game of a records file (its number; default: first)."),
    ] = None,
    looks: Annotated[
        list[str] | None,
        typer.Option(
            "--look",
            "-i",
            help="At the end, a card you can see in full, as i at the table: a number of the "
            "list `--look list` shows, or a name. Repeatable.",
        ),
    ] = None,
) -> None:
    """Show a saved game move by move, as the seat that saved it saw it; or a game of a
    records file, every card in the open."""
    from cli.narration import Narrator
    from cli.views import view_for
    from cli.wording import Seats
    from p2pcards import games
    from p2pcards.errors import P2PCardsError

    if _is_records(path):
        _replay_record(path, game_number, looks or [])
        return
    if game_number is not None:
        raise fail("--game picks a game of a records file; a saved table holds one game")
    saved, table = _rebuilt(path)
    try:
        game = games.load(saved.roster.game)
        state = table.fresh_replica()
        view = view_for(game.name)
        seats = Seats(saved.seat, [member.name for member in saved.roster.members], by_name=True)
        narrator = Narrator(view, seats)
        for record in table.steps:
            state.see(list(record.sightings))
            narrator.watch(state, record.action)
            state.apply_action(record.action)
    except (P2PCardsError, TypeError, KeyError) as exc:
        raise fail(f"{path}: the saved moves do not replay: {exc}", FAILURE) from None
    for number, line in enumerate(narrator.news(), 1):
        out.print(f"{number:4}  {escape(line)}")
    out.print(view.board(state, seats))
    outcome = table.outcome
    if state.is_terminal():
        winners = [s for s, r in enumerate(state.returns()) if r > 0]
        out.print(f"Winner: {', '.join(f'seat {s}' for s in winners)}.")
    elif outcome is not None:
        out.print(f"The table ended early ({outcome.ended}) after {len(table.steps)} steps.")
    else:
        out.print(f"The game stopped {_where_it_stops(table)}, before its end.")
    _look(view, state, seats, looks or [])


def _look(view: GameView, state: State, seats: Seats, looks: list[str]) -> None:
    """Each `--look`: what `i` shows at the table ('list': the numbered list)."""
    from cli.look import look

    for asked in looks:
        out.print(Text(look(view, state, seats, "" if asked == "list" else asked)))


def _is_records(path: Path) -> bool:
    """Whether a file is a records file (JSON lines), not a saved table (binary frames)."""
    if path.suffix in (".jsonl", ".json"):
        return True
    try:
        with path.open("rb") as f:
            return f.read(1) == b"{"
    except OSError:
        return False  # the saved table's reader reports it


def _replay_record(path: Path, number: int | None, looks: list[str]) -> None:
    """Show one game of a records file: each action as a spectator's log tells it (every
    card is in the record), then the final board and the result."""
    from ai.records import RecordError, pick
    from cli.narration import Narrator
    from cli.views import view_for
    from cli.wording import Seats

    try:
        record, count = pick(path, number)
    except RecordError as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(f"cannot read {path}: {exc.strerror or exc}") from None
    seated = ", ".join(f"{s} {label}" for s, label in enumerate(record.agents))
    out.print(
        f"{escape(str(path))}: game {record.number} of {count}, {record.game}, "
        f"{record.seats} seats, seed {record.seed}; seats: {escape(seated)}"
        + ("" if count == 1 or number is not None else " (--game N shows another)")
    )
    view = view_for(record.game)
    seats = Seats(None, record.agents)
    narrator = Narrator(view, seats)
    state = record.new_state()  # the record replayed when it was read: these steps apply
    for event in record.actions:
        narrator.watch(state, event.action)
        state.apply_action(event.action)
    for number, line in enumerate(narrator.news(), 1):
        out.print(f"{number:4}  {escape(line)}")
    out.print(view.board(state, seats))
    if record.status == "ok":
        out.print(escape(view.result(state, seats)))
    else:
        assert record.faulty_seat is not None
        label = record.agents[record.faulty_seat]
        out.print(
            f"Seat {record.faulty_seat} ({escape(label)}) lost by {record.status}: "
            f"{escape(record.error)}"
        )
    _look(view, state, seats, looks)


def register(app: typer.Typer) -> None:
    """Add the record commands."""
    app.command()(audit)
    app.command()(replay)
