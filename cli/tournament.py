"""`p2pcards tournament`: many headless games in parallel, stored in SQLite as they finish.

What it shows follows cutechess-cli and fastchess: every agent's score in the progress
line (and the SPRT's log-likelihood ratio with its bounds), then per agent W-D-L, score,
95% interval, Elo and failures, and per pairing its LOS and the pentanomial counts of its
paired deals.
"""

from __future__ import annotations

import csv
import json
import math
import os
import signal
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console

from ai.defaults import DEFAULT_ROUND_CAP
from cli.errors import FAILURE, INTERRUPTED, fail
from cli.options import (
    DeckOpt,
    GameOptionsOpt,
    SeedOpt,
    check_at_least,
    check_positive,
    chosen_decks,
    chosen_round_cap,
    chosen_seed,
    deck_entries,
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
from cli.simulate import (
    DealsOpt,
    LogDirOpt,
    MoveTimeoutOpt,
    RecordsOpt,
    TimeControlOpt,
    deal_book,
    failure_reasons,
    failure_summary,
    made_log_dir,
    open_records,
    time_control,
)
from cli.wording import count

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from ai.match import MatchResult
    from ai.ratings import Rating, Sprt
    from ai.results_db import ResultsDatabase, StoredGame
    from ai.tournament import (
        GameSpec,
        Keeping,
        SprtStatus,
        SprtTracker,
        Standings,
        TournamentConfig,
    )

out = console(markup=False)  # labels and specs are user text
err = console(stderr=True, markup=False)


def tournament(
    game: Annotated[str, typer.Argument(help="Game name (see `p2pcards games`).")],
    agents: Annotated[
        list[str],
        typer.Option(
            help="Agents, comma-separated (or --agents repeated): built-in names with options, "
            'cmd:"PROGRAM", script:FILE.py, or plugin names; name=LABEL in a spec labels it.'
        ),
    ],
    seats: Annotated[int | None, typer.Option(help="Seats at each table.")] = None,
    num_games: Annotated[
        int, typer.Option("--games", help="Games per pairing (best even: deals are paired).")
    ] = 10,
    format: Annotated[
        str, typer.Option(help="round-robin (every pair) or gauntlet (all against the first).")
    ] = "round-robin",
    jobs: Annotated[
        int | None, typer.Option(help="Worker processes (default: one per core).")
    ] = None,
    db: Annotated[Path, typer.Option(help="SQLite file that keeps every finished game.")] = Path(
        "tournament.sqlite"
    ),
    resume: Annotated[
        bool,
        typer.Option("--resume", help="Carry on the tournament stored in --db (its seed too)."),
    ] = False,
    seed: SeedOpt = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the standings as JSON (other text on stderr).")
    ] = False,
    standings_file: Annotated[
        Path | None, typer.Option("--standings", help="Write the standings to this JSON file.")
    ] = None,
    as_csv: Annotated[
        Path | None, typer.Option("--csv", help="Write every game to this CSV file.")
    ] = None,
    records: RecordsOpt = None,
    log_dir: LogDirOpt = None,
    deals: DealsOpt = None,
    move_timeout: MoveTimeoutOpt = None,
    tc: TimeControlOpt = None,
    round_cap: Annotated[
        int, round_cap_option(DEFAULT_ROUND_CAP, "headless games")
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
        int | None, typer.Option(help="Run on a local Dask cluster of N worker processes.")
    ] = None,
    option: GameOptionsOpt = None,
    deck: DeckOpt = None,
) -> None:
    """Play AI-vs-AI games in parallel, seats rotated, every game stored as it finishes.

    Exits 1 when an agent failed in some game, after the full report; 130 on Ctrl-C (carry
    on with --resume).
    """
    from ai.ratings import Sprt
    from ai.results_db import ResultsDatabase, ResultsDatabaseError
    from ai.tournament import Keeping, SprtTracker, TournamentConfig, TournamentError

    g = game_named(game)
    n = seat_count(g, seats)
    cap = chosen_round_cap(round_cap)
    options = game_options(g, n, option, round_cap=cap)
    specs = labelled_agents(joined_agents(agents) or "")
    deck_agent: str | None = None
    deck_lists: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()
    if deck and len(deck) >= 2 and len(specs) == 1:  # the decks are the entries
        deck_agent, deck_lists = specs[0], deck_entries(g, deck)
        specs = [name for name, _ in deck_lists]
    else:  # each seat's deck, the same in every game
        options = with_decks(options, chosen_decks(g, n, deck))
    check_at_least("--games", num_games, 1)
    if jobs is not None:
        check_at_least("--jobs", jobs, 1)
    if dask_local is not None:
        check_at_least("--dask-local", dask_local, 1)
    check_positive("--move-timeout", move_timeout)
    control = time_control(tc)
    if cluster and dask_local:
        raise fail("give --cluster or --dask-local, not both")
    not_both("--jobs", jobs is not None, "--cluster or --dask-local", bool(cluster or dask_local),
             "a cluster runs as many games at once as it has workers")  # fmt: skip
    not_both("--seed", seed is not None, "--deals", deals is not None,
             "the deal book's seeds are the games' seeds")  # fmt: skip
    book = deal_book(deals)
    try:
        test = Sprt.parse(sprt) if sprt is not None else None
    except ValueError as exc:
        raise fail(str(exc)) from None
    if test is not None and len(specs) != 2:
        raise fail("--sprt compares exactly two agents")
    if cluster or dask_local:  # before the database is begun, so a rerun need not --resume
        from ai.dask_cluster import ClusterError, check_installed

        try:
            check_installed()
        except ClusterError as exc:
            raise fail(str(exc), FAILURE) from None
    if resume and not db.exists():  # carrying on nothing would silently start afresh
        raise fail(f"--resume: there is no tournament database {db} to carry on")
    try:
        database = ResultsDatabase(db)
    except ResultsDatabaseError as exc:
        raise fail(str(exc)) from None
    stream: IO[str] | None = None
    try:
        stored = database.config()
        if seed is None and resume and "seed" in stored:
            seed = int(stored["seed"])  # carrying on: the stored tournament's seed
        if not book and resume and stored.get("deals"):
            book = tuple(int(s) for s in stored["deals"])
        seed = chosen_seed(seed)
        try:
            config = TournamentConfig(
                g.name, tuple(specs), n, num_games, format, seed, cap, move_timeout,
                tuple(sorted(options.items())), book, deck_agent, deck_lists,
                None if control is None else str(control),
            )  # fmt: skip
        except TournamentError as exc:
            raise fail(str(exc)) from None
        try:
            database.begin(config.stored(), resume)
        except ResultsDatabaseError as exc:
            raise fail(str(exc)) from None
        try:  # after begin(): the stored games are this tournament's
            tracker = SprtTracker(config, test, database.games()) if test is not None else None
        except TournamentError as exc:
            raise fail(str(exc)) from None
        logs = made_log_dir(log_dir)
        stream = open_records(records, append=resume)
        keeping = Keeping(stream is not None, None if logs is None else str(logs))
        total = len(config.schedule())
        err.print(
            f"{g.name}: {total} games, {n} seats, {format}, seed {seed}"
            + (f", {len(book)} deals from the deal book" if book else "")
            + ("" if control is None else f", time control {control}")
        )
        executor, workers, shut = _executor(jobs, cluster, dask_local)
        # Ctrl-C only sets a flag: the loop stops between games, never halfway through
        # storing one, and the workers are not left to a KeyboardInterrupt of their own.
        interrupted = threading.Event()
        previous = signal.signal(signal.SIGINT, lambda signum, frame: interrupted.set())
        try:
            on_cluster = bool(cluster or dask_local)
            _run(
                config, database, executor, workers, total, tracker, on_cluster, interrupted,
                keeping, stream,
            )  # fmt: skip
        finally:
            signal.signal(signal.SIGINT, previous)
        if interrupted.is_set():
            shut(True)  # cancel what has not started
            err.print(
                f"\nstopped: {database.count()} of {total} games are stored in {db}; "
                "carry on with the same command and --resume"
            )
            raise typer.Exit(INTERRUPTED)
        shut(False)
        games = database.games()
    finally:
        database.close()
        if stream is not None:
            stream.close()
    from ai.tournament import standings

    table = standings(config, games)
    status = tracker.status() if tracker is not None else None
    _report(config, table, len(games), total, test, status, err if as_json else out)
    data = _standings_json(config, table, len(games), test, status)
    if as_json:
        print(json.dumps(data, indent=2))
    try:
        if standings_file is not None:
            standings_file.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        if as_csv is not None:
            _write_csv(as_csv, games)
    except OSError as exc:
        raise fail(f"cannot write {exc.filename}: {exc.strerror}", FAILURE) from None
    failed = {config.labels()[a]: f for a, f in table.failures.items() if f}
    if failed:
        ended = sum(sum(f.values()) for f in failed.values())
        err.print(
            f"{ended} of {len(games)} games ended by an agent's failure: {failure_summary(failed)}"
        )
        for line in failure_reasons(games, logs):
            err.print(line, soft_wrap=True)
        raise typer.Exit(FAILURE)


Shutdown = Callable[[bool], None]  # argument: cancel what has not started


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
    tracker: SprtTracker | None,
    on_cluster: bool,
    interrupted: threading.Event,
    keeping: Keeping,
    stream: IO[str] | None,
) -> None:
    from ai.match import game_record
    from ai.records import write
    from ai.tournament import play, points_by_agent

    stored = database.games()
    labels = config.labels()
    points = {agent: 0.0 for agent in config.agents}
    played = {agent: 0 for agent in config.agents}

    def count(game: StoredGame) -> None:
        for agent, value in points_by_agent(game).items():
            points[agent] += value
            played[agent] += 1

    def line() -> str:
        scores = " · ".join(
            f"{labels[a]} {points[a]:g}/{played[a]}"
            + (f" {points[a] / played[a]:.0%}" if played[a] else "")
            for a in config.agents
        )
        return scores + (f" · {tracker.status().line()}" if tracker is not None else "")

    for game in stored:
        count(game)

    def on_result(spec: GameSpec, result: MatchResult) -> None:
        if stream is not None:
            options = config.game_options(spec)
            try:
                write(
                    stream, game_record(result, spec.shown, config.game, options, config.round_cap)
                )
            except OSError as exc:
                raise fail(f"cannot write the records: {exc}", FAILURE) from None

    with progress(err) as bar:
        task = bar.add_task(line(), total=total, completed=len(stored))

        def on_game(game: StoredGame) -> None:
            count(game)
            if tracker is not None:
                tracker.add(game)
            bar.update(task, advance=1, description=line())

        stop = tracker.decided if tracker is not None else None
        if stop is not None and stop():
            return  # decided before this run: nothing to play
        play(
            config, database, executor, workers, on_game, stop, on_cluster, interrupted,
            keeping, on_result,
        )  # fmt: skip


def _elo_limit(rating: Rating) -> float | None:
    """For an infinite Elo (every game won, or lost), the finite bound half a point gives:
    the Elo of the score one half-point short of perfect (or above nothing); else None."""
    from ai.ratings import elo

    if not math.isinf(rating.elo):
        return None
    half = 0.5 / rating.score.games
    return elo(1 - half) if rating.elo > 0 else elo(half)


def _elo(rating: Rating) -> str:
    value, error = rating.elo, rating.elo_error
    limit = _elo_limit(rating)
    if limit is not None:
        return f"> {limit:+.0f} (all won)" if value > 0 else f"< {limit:+.0f} (all lost)"
    return f"{value:+.0f} ± {error:.0f}" if math.isfinite(error) else f"{value:+.0f} ± inf"


INFINITE_ELO = (
    "Elo > or <: every game won (or lost), which no finite Elo difference predicts; the bound "
    "is the Elo of half a point less (or more)."
)


def _report(
    config: TournamentConfig,
    table: Standings,
    played: int,
    total: int,
    test: Sprt | None,
    status: SprtStatus | None,
    to: Console,
) -> None:
    from rich.table import Table

    labels = config.labels()
    title = f"{config.game}: {played} of {total} games, {config.seats} seats, {config.format}"
    by_agent = Table(title=title)
    by_agent.add_column("agent", overflow="fold")
    for column in ("games", "W-D-L", "score", "95% interval", "Elo", "failures"):
        by_agent.add_column(column, justify="right")
    for agent, rating in sorted(table.agents.items(), key=lambda ar: -ar[1].score.rate):
        s = rating.score
        failed = ", ".join(f"{k} {v}" for k, v in sorted(table.failures[agent].items())) or "-"
        by_agent.add_row(
            labels[agent], str(s.games), f"{s.wins}-{s.draws}-{s.losses}", f"{s.rate:.1%}",
            f"{rating.low:.1%}–{rating.high:.1%}", _elo(rating), failed,
        )  # fmt: skip
    to.print(whole(by_agent))
    pairs = Table(title="pairings (score of the first; ptnml: paired deals scoring 0, ½, 1, 1½, 2)")
    pairs.add_column("pairing", overflow="fold")
    for column in ("games", "W-D-L", "score", "95% interval", "Elo", "LOS", "ptnml(0-2)"):
        pairs.add_column(column, justify="right")
    for (a, b), rating in table.pairings.items():
        s = rating.score
        extra = table.paired.get((a, b))
        pairs.add_row(
            f"{labels[a]} vs {labels[b]}", str(s.games), f"{s.wins}-{s.draws}-{s.losses}",
            f"{s.rate:.1%}", f"{rating.low:.1%}–{rating.high:.1%}", _elo(rating),
            "-" if extra is None else f"{extra.los:.1%}",
            "-" if extra is None else " ".join(map(str, extra.pentanomial)),
        )  # fmt: skip
    to.print(whole(pairs))
    ratings = [*table.agents.values(), *table.pairings.values()]
    if any(_elo_limit(rating) is not None for rating in ratings):
        to.print(INFINITE_ELO)
    for label, spec in sorted((labels[a], a) for a in config.agents if labels[a] != a):
        to.print(f"{label} = {spec}", soft_wrap=True)
    if test is not None and status is not None:
        verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "undecided"}[status.decision]
        counted = "paired deals" if status.paired else "games"
        to.print(
            f"SPRT elo0={test.elo0:g} elo1={test.elo1:g} alpha={test.alpha:g} "
            f"beta={test.beta:g}: LLR {status.llr:.2f} [{status.lower:.2f}, {status.upper:.2f}]"
            f" — {verdict} after {status.games} of the {played} games ({counted} "
            f"{' '.join(map(str, status.counts))})"
        )
        if status.games < played:  # the table counts them all: say why the test does not
            left = played - status.games
            whole_deals = "whole paired deals " if status.paired else ""
            to.print(
                f"The SPRT counts only {whole_deals}in an unbroken run from game 1: "
                f"{count(left, 'game')} of the table {'is' if left == 1 else 'are'} not in it."
            )


def _standings_json(
    config: TournamentConfig,
    table: Standings,
    played: int,
    test: Sprt | None,
    status: SprtStatus | None,
) -> dict[str, Any]:
    labels = config.labels()

    def rated(rating: Rating) -> dict[str, Any]:
        s = rating.score
        return {
            "games": s.games, "wins": s.wins, "draws": s.draws, "losses": s.losses,
            "score": s.rate, "interval95": [rating.low, rating.high],
            "elo": _finite(rating.elo), "elo_error": _finite(rating.elo_error),
            "elo_limit": _elo_limit(rating),
        }  # fmt: skip

    def pairing(a: str, b: str, rating: Rating) -> dict[str, Any]:
        extra = table.paired.get((a, b))
        return {
            "agents": [labels[a], labels[b]],
            **rated(rating),
            "los": None if extra is None else extra.los,
            "pentanomial": None if extra is None else list(extra.pentanomial),
        }

    sprt: dict[str, Any] | None = None
    if test is not None and status is not None:
        sprt = {
            "elo0": test.elo0, "elo1": test.elo1, "alpha": test.alpha, "beta": test.beta,
            "llr": status.llr, "bounds": [status.lower, status.upper],
            "decision": status.decision, "games": status.games, "paired": status.paired,
            "counts": list(status.counts),
        }  # fmt: skip
    return {
        "config": config.stored(),
        "games": played,
        "agents": {
            labels[agent]: {"spec": agent, **rated(rating), "failures": table.failures[agent]}
            for agent, rating in table.agents.items()
        },
        "pairings": [pairing(a, b, rating) for (a, b), rating in table.pairings.items()],
        "sprt": sprt,
    }


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
                # Games count from 1, as in the records; the database counts from 0.
                [game.number + 1, game.pairing, game.seed, " | ".join(game.agents),
                 " ".join(f"{r:g}" for r in game.returns), game.status,
                 "" if game.faulty_seat is None else game.faulty_seat, game.error, game.steps,
                 f"{game.seconds:.3f}"]
            )  # fmt: skip


def register(app: typer.Typer) -> None:
    """Add the tournament command."""
    app.command()(tournament)
