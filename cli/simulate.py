"""`p2pcards simulate`: AI-only games one after another, with wins and failures per agent
and per seat.

Also the pieces `tournament` shares with it: agents with labels, the deal book, the
records file and the bot-log folder.
"""

from __future__ import annotations

import json
import signal
from collections.abc import Iterable
from contextlib import nullcontext
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated, Any, Protocol

import typer

from ai.defaults import DEFAULT_ROUND_CAP
from cli.errors import FAILURE, INTERRUPTED, fail
from cli.options import (
    DeckOpt,
    ExplainOpt,
    GameArg,
    GameOptionsOpt,
    SeedOpt,
    check_at_least,
    check_positive,
    chosen_decks,
    chosen_round_cap,
    chosen_seed,
    game_named,
    game_options,
    joined_agents,
    labelled_agents,
    not_both,
    round_cap_option,
    seat_count,
    with_decks,
)
from cli.output import console, progress, whole
from cli.wording import count

if TYPE_CHECKING:
    from ai.agents import Agent
    from ai.clock import TimeControl
    from ai.match import MatchResult, Tally
    from p2pcards.engine import Action, State

out = console(markup=False)  # labels and specs are user text
err = console(stderr=True, markup=False)

# Options simulate and tournament share (docs/cli.md).
MoveTimeoutOpt = Annotated[
    float | None,
    typer.Option(help="Seconds an agent may take for a move (more than 0); slower loses the game."),
]
RecordsOpt = Annotated[
    Path | None,
    typer.Option(
        "--records", help="Write every game to this file, one JSON line each (`replay` reads it)."
    ),
]
LogDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--log-dir", help="Keep each bot program's stderr here, in game-N-seat-S.log files."
    ),
]
TimeControlOpt = Annotated[
    str | None,
    typer.Option(
        "--tc",
        help="A chess clock for each seat, as cutechess writes it: 40/60+0.5 is 60 s for every "
        "40 moves and 0.5 s more a move (60+0.5: one period); a seat out of time loses.",
    ),
]
DealsOpt = Annotated[
    Path | None,
    typer.Option(
        "--deals", help="A deal book: seeds, one per line (# comments), used in order, cycling."
    ),
]


def time_control(text: str | None) -> TimeControl | None:
    """The --tc time control, or None; a usage error in one line for a bad one."""
    from ai.clock import TimeControl

    if text is None:
        return None
    try:
        return TimeControl.parse(text)
    except ValueError as exc:
        raise fail(str(exc)) from None


def deal_book(path: Path | None) -> tuple[int, ...]:
    """The seeds of a --deals file (none without one), or a usage error naming the line."""
    from ai.records import DealBookError, read_deals

    if path is None:
        return ()
    try:
        return read_deals(path)
    except DealBookError as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(f"--deals {path}: {exc.strerror or exc}") from None


def open_records(path: Path | None, append: bool = False) -> IO[str] | None:
    """The --records file, opened to write (to append, when a run carries on); exit 1 if it
    cannot be."""
    if path is None:
        return None
    try:
        return path.open("a" if append else "w", encoding="utf-8")
    except OSError as exc:
        raise fail(f"cannot write --records {path}: {exc.strerror or exc}", FAILURE) from None


def made_log_dir(path: Path | None) -> Path | None:
    """The --log-dir folder, made if missing; exit 1 if it cannot be."""
    if path is None:
        return None
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise fail(f"cannot make --log-dir {path}: {exc.strerror or exc}", FAILURE) from None
    return path.resolve()


def failure_summary(failures: dict[str, dict[str, int]]) -> str:
    """ "fast crash 2, bot timeout 1": the agents that failed, and how often."""
    return ", ".join(
        f"{agent} {status} {count}"
        for agent, by_status in failures.items()
        for status, count in sorted(by_status.items())
    )


class FailedGame(Protocol):
    """What a game that an agent's failure ended says about it (a MatchResult, a StoredGame)."""

    @property
    def agents(self) -> tuple[str, ...]: ...
    @property
    def status(self) -> str: ...
    @property
    def faulty_seat(self) -> int | None: ...
    @property
    def error(self) -> str: ...


SHOWN_REASONS = 3  # of each agent's failures of one kind: a thousand crashes rarely differ


def failure_reasons(games: Iterable[FailedGame], log_dir: Path | None) -> list[str]:
    """Why the agents failed, per agent and kind of failure: how many games, and each reason
    (a bot's exit status or signal and the last line of its stderr, a clock run out, an
    illegal move), the first few of them; then, where a bot's whole stderr would help and
    was not kept, the --log-dir hint."""
    from ai.agents import split_label

    kinds: dict[tuple[str, str], dict[str, int]] = {}
    bots = False
    for game in games:
        if game.faulty_seat is None:
            continue
        label, bare = split_label(game.agents[game.faulty_seat])
        bots = bots or bare.startswith("cmd:")
        reasons = kinds.setdefault((label, game.status), {})
        error = game.error or "no reason given"
        reasons[error] = reasons.get(error, 0) + 1
    lines = []
    for (label, status), reasons in kinds.items():
        lost = count(sum(reasons.values()), "game")
        if len(reasons) == 1:
            lines.append(f"  {label} {status} ({lost}): {next(iter(reasons))}")
            continue
        lines.append(f"  {label} {status} ({lost}), for one:")
        lines += [f"    {error}" for error in list(reasons)[:SHOWN_REASONS]]
        if len(reasons) > SHOWN_REASONS:
            others = len(reasons) - SHOWN_REASONS
            lines.append(f"    and {others} other reasons (--records keeps every one)")
    if bots and log_dir is None:
        lines.append("  (--log-dir DIR keeps each bot's whole stderr, a file per game and seat)")
    return lines


def simulate(
    game: GameArg,
    seats: Annotated[int | None, typer.Option(help="Seats at each table.")] = None,
    agents: Annotated[
        list[str] | None,
        typer.Option(
            help="Agents, comma-separated (or --agents repeated), seated round the table and "
            "rotated each game; name=LABEL in a spec labels it (expectimax:think_ms=50:name=fast)"
            "; default greedy,random.",
            show_default=False,
        ),
    ] = None,
    num_games: Annotated[int, typer.Option("--games", help="How many games.")] = 100,
    seed: SeedOpt = None,
    round_cap: Annotated[
        int, round_cap_option(DEFAULT_ROUND_CAP, "headless games")
    ] = DEFAULT_ROUND_CAP,
    move_timeout: MoveTimeoutOpt = None,
    tc: TimeControlOpt = None,
    records: RecordsOpt = None,
    log_dir: LogDirOpt = None,
    deals: DealsOpt = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the results as JSON (other text on stderr).")
    ] = False,
    explain: ExplainOpt = False,
    option: GameOptionsOpt = None,
    deck: DeckOpt = None,
) -> None:
    """Play AI-only games and report wins and failures per agent and per seat.

    Game i uses seed + i (or the deal book's seeds in order). Exits 1 when an agent failed
    in some game (crashed, timed out, or played an illegal move), after the full report.
    """
    from ai.match import Tally, game_record, labels, seating
    from ai.match import simulate as run_simulation
    from ai.records import write
    from cli.play import explanation
    from cli.views import view_for

    g = game_named(game)
    n = seat_count(g, seats)
    cap = chosen_round_cap(round_cap)
    # Decks stay with their seats while the agents rotate: every agent plays every deck.
    options = with_decks(game_options(g, n, option, round_cap=cap), chosen_decks(g, n, deck))
    specs = labelled_agents(joined_agents(agents) or "greedy,random")
    check_at_least("--games", num_games, 1)
    check_positive("--move-timeout", move_timeout)
    control = time_control(tc)
    not_both("--seed", seed is not None, "--deals", deals is not None,
             "the deal book's seeds are the games' seeds")  # fmt: skip
    book = deal_book(deals)
    seed = chosen_seed(seed)
    view = view_for(g.name)
    logs = made_log_dir(log_dir)
    stream = open_records(records)
    err.print(f"{g.name}: {count(num_games, 'game')}, {n} seats, seed {seed}" + (
        f", {len(book)} deals from {deals}" if book else ""
    ) + ("" if control is None else f", time control {control}"))  # fmt: skip

    def show_thought(number: int, seat: int, obs: State, action: Action, agent: Agent) -> None:
        thought = explanation(agent, obs, view)
        if thought:
            label = labels(seating(specs, n, number - 1))[seat]  # name=LABEL, as reported
            # With --json the results own stdout; explanations go to stderr.
            (err if as_json else out).print(
                f"game {number}, seat {seat} ({label}) {thought}", soft_wrap=True
            )

    tally = Tally()
    failed: list[MatchResult] = []

    # Ctrl-C stops a game at once, but never between counting a game and writing its
    # record: there it waits until both are done, so the report and the file agree.
    counting = False
    pending = False

    def on_sigint(signum: int, frame: object) -> None:
        nonlocal pending
        if counting:
            pending = True
        else:
            raise KeyboardInterrupt

    def on_game(number: int, result: MatchResult) -> None:
        nonlocal counting
        counting = True
        tally.add(result)
        if result.faulty_seat is not None:
            failed.append(result)
        if stream is not None:
            try:
                write(stream, game_record(result, number, g.name, options, cap))
            except OSError as exc:
                raise fail(f"cannot write --records {records}: {exc}", FAILURE) from None
        counting = False
        if pending:
            raise KeyboardInterrupt

    hook = show_thought if explain else None
    interrupted = False
    previous = signal.signal(signal.SIGINT, on_sigint)
    try:
        # The explanations print as the games go: a redrawn progress line would garble them.
        with nullcontext() if explain else progress(err) as bar:
            task = None if bar is None else bar.add_task(_scores(tally, specs), total=num_games)

            def on_each(number: int, result: MatchResult) -> None:
                on_game(number, result)
                if bar is not None and task is not None:
                    bar.update(task, advance=1, description=_scores(tally, specs))

            run_simulation(
                g.name, specs, n, num_games, seed, cap, hook, options, move_timeout, book,
                on_each, record=stream is not None, log_dir=logs, time_control=control,
            )  # fmt: skip
    except KeyboardInterrupt:
        interrupted = True
    finally:
        signal.signal(signal.SIGINT, previous)
        if stream is not None:
            stream.close()
    if tally.games:
        _report(g.name, n, seed, book, num_games, tally, as_json, records)
    if interrupted:
        err.print(f"\nstopped after {tally.games} of {num_games} games (Ctrl-C)")
        raise typer.Exit(INTERRUPTED)
    if tally.failed_games:
        err.print(
            f"{tally.failed_games} of {tally.games} games ended by an agent's failure: "
            f"{failure_summary(tally.failures)}"
        )
        for line in failure_reasons(failed, logs):
            err.print(line, soft_wrap=True)
        raise typer.Exit(FAILURE)


def _scores(tally: Tally, specs: list[str]) -> str:
    """ "greedy 7/10 · random 3/10": every agent's wins of its games so far."""
    from ai.match import labels

    names = dict.fromkeys(labels(specs))
    return " · ".join(
        f"{label} {tally.wins_by_agent.get(label, 0.0):g}/{tally.games_by_agent.get(label, 0)}"
        for label in names
    )


def _report(
    game: str,
    seats: int,
    seed: int,
    book: tuple[int, ...],
    num_games: int,
    tally: Tally,
    as_json: bool,
    records: Path | None,
) -> None:
    from rich.table import Table

    if as_json:
        data: dict[str, Any] = {
            "game": game,
            "seats": seats,
            "games": tally.games,
            "seed": seed,
            "deals": list(book) or None,
            "mean_steps": tally.steps / tally.games,
            "agents": {
                label: {
                    "spec": tally.specs[label],
                    "games": tally.games_by_agent[label],
                    "wins": tally.wins_by_agent[label],
                    "wins_by_seat": {
                        str(s): w for s, w in sorted(tally.wins_by_agent_seat[label].items())
                    },
                    "failures": tally.failures[label],
                }
                for label in sorted(tally.games_by_agent)
            },
            "wins_by_seat": {str(s): w for s, w in sorted(tally.wins_by_seat.items())},
            "failed_games": tally.failed_games,
            "records": None if records is None else str(records),
        }
        print(json.dumps(data, indent=2))
        return
    seeds = f"deal book of {len(book)}" if book else f"seeds {seed}–{seed + num_games - 1}"
    table = Table(title=f"{game}: {tally.games} games, {seats} seats, {seeds}")
    table.add_column("agent", overflow="fold")
    table.add_column("games", justify="right")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    for s in range(seats):
        table.add_column(f"wins at seat {s}", justify="right")
    table.add_column("failures", justify="right")
    for label in sorted(tally.games_by_agent):
        wins = tally.wins_by_agent[label]
        played = tally.games_by_agent[label]
        by_seat = tally.wins_by_agent_seat[label]
        failed = failure_summary({"": tally.failures[label]}).strip() or "-"
        table.add_row(
            label, str(played), f"{wins:g}", f"{wins / played:.1%}",
            *(f"{by_seat.get(s, 0.0):g}" for s in range(seats)), failed,
        )  # fmt: skip
    out.print(whole(table))
    seat_line = ", ".join(f"seat {s}: {w:g}" for s, w in sorted(tally.wins_by_seat.items()))
    out.print(f"wins by seat — {seat_line}")
    labelled = {label: spec for label, spec in tally.specs.items() if label != spec}
    for label, spec in sorted(labelled.items()):
        out.print(f"{label} = {spec}", soft_wrap=True)


def register(app: typer.Typer) -> None:
    """Add the simulate command."""
    app.command()(simulate)
