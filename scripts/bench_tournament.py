"""Tournament throughput: worker processes (1 and 2) and a 2-worker Dask LocalCluster.

    .venv/bin/python scripts/bench_tournament.py [--games 400]

greedy against random at rpg-battle, stored in SQLite as in `p2pcards tournament`.
Every worker has imported the game and the agents before the clock starts (a one-off
cost, the same for processes and Dask), so the figures are the steady state; each run is
repeated (--repeat) and the fastest counts, as runs of a few seconds vary by 10% or so.
Targets (issue 6): speed-up of 2 processes over 1 at least 1.8 (on 2 cores); the Dask
cluster at most 15% slower than 2 processes. All three runs must store the same games.
"""

import argparse
import tempfile
import time
from concurrent.futures import Executor
from pathlib import Path

from ai.dask_cluster import connect
from ai.results_db import ResultsDatabase
from ai.tournament import TournamentConfig, local_executor, play, run_games


def timed(
    config: TournamentConfig, executor: Executor, workers: int, db: Path, batched: bool
) -> tuple[float, list[tuple[object, ...]]]:
    """Seconds to play the whole tournament, and its games (without their times)."""
    database = ResultsDatabase(db)
    database.begin(config.stored(), resume=False)
    started = time.perf_counter()
    play(config, database, executor, workers, batched=batched)
    seconds = time.perf_counter() - started
    games = [(g.number, g.seed, g.returns, g.steps) for g in database.games()]
    database.close()
    return seconds, games


def best(
    config: TournamentConfig, executor: Executor, workers: int, stem: Path, repeat: int,
    batched: bool = False,
) -> tuple[float, list[tuple[object, ...]]]:  # fmt: skip
    """The fastest of `repeat` runs, each into a new database."""
    runs = [
        timed(config, executor, workers, stem.with_name(f"{stem.name}-{i}.sqlite"), batched)
        for i in range(repeat)
    ]
    return min(runs, key=lambda run: run[0])


def warm_up(config: TournamentConfig) -> None:
    """Import and load everything a game needs, in this worker."""
    run_games(config, ())
    time.sleep(0.3)  # so that each worker of a pool takes one warm-up


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    config = TournamentConfig("rpg-battle", ("greedy", "random"), games=args.games)
    with tempfile.TemporaryDirectory() as tmp:
        runs = {}
        for jobs in (1, 2):
            with local_executor(jobs) as pool:
                list(pool.map(warm_up, [config] * jobs))
                runs[f"{jobs} process{'es' if jobs > 1 else ''}"] = best(
                    config, pool, jobs, Path(tmp) / f"jobs{jobs}", args.repeat
                )
        executor, workers, close = connect(None, 2)
        try:
            list(executor.map(warm_up, [config] * workers))
            # As `p2pcards tournament --cluster` does: batches of games per task on Dask.
            runs["dask, 2 workers"] = best(
                config, executor, workers, Path(tmp) / "dask", args.repeat, batched=True
            )
        finally:
            close()
    one, two, dask = (runs[k][0] for k in runs)
    for name, (seconds, _) in runs.items():
        rate = args.games / seconds
        print(f"{name:>16}: {args.games} games in {seconds:6.2f} s = {rate:6.1f} games/s")
    print(f"speed-up of 2 processes over 1: {one / two:.2f} (target >= 1.8)")
    print(f"Dask overhead against 2 processes: {(dask / two - 1):+.1%} (target <= +15%)")
    same = len({tuple(games) for _, games in runs.values()}) == 1
    print(f"same games in all three runs: {same}")


if __name__ == "__main__":
    main()
