"""`p2pcards tournament`: many headless games in parallel, stored in SQLite as they finish."""

from __future__ import annotations

import csv
import json
import math
import os
import signal
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from ai.defaults import DEFAULT_ROUND_CAP
from cli.errors import FAILURE, fail
from cli.options import GameOptionsOpt, agent_specs, game_named, game_options, seat_count

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from ai.ratings import Rating, Sprt
    from ai.results_db import ResultsDatabase, StoredGame
    from ai.tournament import TournamentConfig

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)


def tournament(
    game: Annotated[str, typer.Argument(help="Game name (see `p2pcards games`).")],
    agents: Annotated[
        str,
        typer.Option(
            help='Agents, comma-separated: built-in names with options, cmd:"PROGRAM", '
            "script:FILE.py, or plugin names."
        ),
    ],
    seats: Annotated[int | None, typer.Option(help="Seats at each table.")] = None,
    num_games: Annotated[
        int, typer.Option("--games", min=1, help="Games per pairing (best even: deals are paired).")
    ] = 10,
    format: Annotated[
        str, typer.Option(help="round-robin (every pair) or gauntlet (all against the first).")
    ] = "round-robin",
    jobs: Annotated[
        int | None, typer.Option(min=1, help="Worker processes (default: one per core).")
    ] = None,
    db: Annotated[Path, typer.Option(help="SQLite file that keeps every finished game.")] = Path(
        "tournament.sqlite"
    ),
    resume: Annotated[
        bool, typer.Option("--resume", help="Carry on the tournament stored in --db.")
    ] = False,
    seed: Annotated[int, typer.Option(help="Seed every game's seed derives from.")] = 0,
    as_json: Annotated[
        Path | None, typer.Option("--json", help="Write the standings to this JSON file.")
    ] = None,
    as_csv: Annotated[
        Path | None, typer.Option("--csv", help="Write every game to this CSV file.")
    ] = None,
    move_timeout: Annotated[
        float | None,
        typer.Option(help="Seconds an agent may take for a move; slower loses the game."),
    ] = None,
    round_cap: Annotated[
        int, typer.Option(min=1, help="Rounds before the tie-break decides a game.")
    ] = DEFAULT_ROUND_CAP,
    sprt: Annotated[
        str | None,
        typer.Option(
            help='Stop when decided, two agents only: "elo0=0 elo1=10 alpha=0.05 beta=0.05".'
        ),
    ] = None,
    cluster: Annotated[
        str | None, typer.Option(help="Run the games on this Dask scheduler (tcp://HOST:PORT).")
    ] = None,
    dask_local: Annotated[
        int | None, typer.Option(min=1, help="Run on a local Dask cluster of N worker processes.")
    ] = None,
    option: GameOptionsOpt = None,
) -> None:
    """Play AI-vs-AI games in parallel, seats rotated, every game stored as it finishes."""
    from ai.ratings import Sprt
    from ai.results_db import ResultsDatabase
    from ai.tournament import TournamentConfig, TournamentError, sprt_stop

    g = game_named(game)
    n = seat_count(g, seats)
    options = game_options(g, n, option, round_cap=round_cap)
    specs = agent_specs(agents)
    try:
        config = TournamentConfig(
            g.name, tuple(specs), n, num_games, format, seed, round_cap, move_timeout,
            tuple(sorted(options.items())),
        )  # fmt: skip
        test = Sprt.parse(sprt) if sprt is not None else None
        stop = sprt_stop(config, test) if test is not None else None
    except (TournamentError, ValueError) as exc:
        raise fail(str(exc)) from None
    if cluster and dask_local:
        raise fail("give --cluster or --dask-local, not both")
    database = ResultsDatabase(db)
    try:
        database.begin(config.stored(), resume)
        executor, workers, shut = _executor(jobs, cluster, dask_local)
        total = len(config.schedule())
        # Ctrl-C only sets a flag: the loop stops between games, never halfway through
        # storing one, and the workers are not left to a KeyboardInterrupt of their own.
        interrupted = threading.Event()
        previous = signal.signal(signal.SIGINT, lambda signum, frame: interrupted.set())
        try:
            on_cluster = bool(cluster or dask_local)
            _run(config, database, executor, workers, total, stop, on_cluster, interrupted)
        finally:
            signal.signal(signal.SIGINT, previous)
        if interrupted.is_set():
            shut(True)  # cancel what has not started
            err.print(
                f"\nstopped: {database.count()} of {total} games are stored in {db}; "
                "carry on with the same command and --resume"
            )
            raise typer.Exit(130)
        shut(False)
        games = database.games()
    finally:
        database.close()
    _report(config, games, total, test)
    if as_json is not None:
        _write_json(as_json, config, games, test)
    if as_csv is not None:
        _write_csv(as_csv, games)


Shutdown = Callable[[bool], None]  # argument: cancel what has not started
if TYPE_CHECKING:  # StoredGame is imported when a tournament runs
    StopRule = Callable[[list[StoredGame]], bool] | None


def _executor(
    jobs: int | None, cluster: str | None, dask_local: int | None
) -> tuple[Executor, int, Shutdown]:
    """The executor, how many games it runs at once, and how to shut it down."""
    from ai.dask_cluster import ClusterError, connect
    from ai.tournament import local_executor

    if not cluster and not dask_local:
        workers = jobs or os.cpu_count() or 1
        pool = local_executor(workers)
        return pool, workers, lambda cancel: pool.shutdown(wait=not cancel, cancel_futures=cancel)
    try:
        executor, workers, close = connect(cluster, dask_local)
    except ClusterError as exc:
        raise fail(str(exc), FAILURE) from None
    return executor, workers, lambda cancel: close()


def _run(
    config: TournamentConfig,
    database: ResultsDatabase,
    executor: Executor,
    workers: int,
    total: int,
    stop: StopRule,
    on_cluster: bool,
    interrupted: threading.Event,
) -> None:
    from rich.progress import (
        BarColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from ai.tournament import play, points_by_agent

    stored = database.games()
    first = config.agents[0]
    points = [points_by_agent(game).get(first) for game in stored]
    columns = (
        TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
    )  # fmt: skip
    with Progress(*columns, console=err, transient=False) as progress:
        task = progress.add_task(_running(first, points), total=total, completed=len(stored))

        def on_game(game: StoredGame) -> None:
            points.append(points_by_agent(game).get(first))
            progress.update(task, advance=1, description=_running(first, points))

        play(config, database, executor, workers, on_game, stop, on_cluster, interrupted)


def _running(first: str, points: list[float | None]) -> str:
    mine = [p for p in points if p is not None]
    if not mine:
        return f"{first}: -"
    return f"{first}: {sum(mine):g}/{len(mine)} ({sum(mine) / len(mine):.0%})"


def _elo(rating: Rating) -> str:
    value, error = rating.elo, rating.elo_error
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f} ± {error:.0f}" if math.isfinite(error) else f"{value:+.0f} ± inf"


def _report(
    config: TournamentConfig, games: list[StoredGame], total: int, test: Sprt | None
) -> None:
    from rich.table import Table

    from ai.tournament import sprt_decision, standings

    table = standings(config, games)
    title = f"{config.game}: {len(games)} of {total} games, {config.seats} seats, {config.format}"
    by_agent = Table(title=title)
    by_agent.add_column("agent", overflow="fold")
    for column in ("games", "W-D-L", "score", "95% interval", "Elo", "failures"):
        by_agent.add_column(column, justify="right")
    for agent, rating in sorted(table.agents.items(), key=lambda ar: -ar[1].score.rate):
        s = rating.score
        failed = ", ".join(f"{k} {v}" for k, v in sorted(table.failures[agent].items())) or "-"
        by_agent.add_row(
            agent, str(s.games), f"{s.wins}-{s.draws}-{s.losses}", f"{s.rate:.1%}",
            f"{rating.low:.1%}–{rating.high:.1%}", _elo(rating), failed,
        )  # fmt: skip
    out.print(by_agent)
    pairs = Table(title="pairings (score of the first)")
    pairs.add_column("pairing", overflow="fold")
    for column in ("games", "W-D-L", "score", "95% interval", "Elo"):
        pairs.add_column(column, justify="right")
    for (a, b), rating in table.pairings.items():
        s = rating.score
        pairs.add_row(
            f"{a} vs {b}", str(s.games), f"{s.wins}-{s.draws}-{s.losses}", f"{s.rate:.1%}",
            f"{rating.low:.1%}–{rating.high:.1%}", _elo(rating),
        )  # fmt: skip
    out.print(pairs)
    if test is not None:
        decision = sprt_decision(config, test, games)
        verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "undecided"}[decision]
        out.print(f"SPRT elo0={test.elo0:g} elo1={test.elo1:g}: {verdict}")


def _write_json(
    path: Path, config: TournamentConfig, games: list[StoredGame], test: Sprt | None
) -> None:
    from ai.tournament import sprt_decision, standings

    table = standings(config, games)

    def rated(rating: Rating) -> dict[str, Any]:
        s = rating.score
        return {
            "games": s.games, "wins": s.wins, "draws": s.draws, "losses": s.losses,
            "score": s.rate, "interval95": [rating.low, rating.high],
            "elo": _finite(rating.elo), "elo_error": _finite(rating.elo_error),
        }  # fmt: skip

    data = {
        "config": config.stored(),
        "games": len(games),
        "agents": {
            agent: {**rated(rating), "failures": table.failures[agent]}
            for agent, rating in table.agents.items()
        },
        "pairings": [
            {"agents": [a, b], **rated(rating)} for (a, b), rating in table.pairings.items()
        ],
        "sprt": None if test is None else sprt_decision(config, test, games),
    }
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def _write_csv(path: Path, games: list[StoredGame]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(
            ["number", "pairing", "seed", "agents", "returns", "status", "faulty_seat", "error",
             "steps", "seconds"]
        )  # fmt: skip
        for game in games:
            writer.writerow(
                [game.number, game.pairing, game.seed, " | ".join(game.agents),
                 " ".join(f"{r:g}" for r in game.returns), game.status,
                 "" if game.faulty_seat is None else game.faulty_seat, game.error, game.steps,
                 f"{game.seconds:.3f}"]
            )  # fmt: skip


def register(app: typer.Typer) -> None:
    """Add the tournament command."""
    app.command()(tournament)
