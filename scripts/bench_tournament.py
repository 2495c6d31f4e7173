"""Tournament throughput: worker processes (1 and 2) and a 2-worker Dask LocalCluster.

    .venv/bin/python scripts/bench_tournament.py [--games 400]

greedy against random at rpg-battle, stored in SQLite as in `p2pcards tournament`.
Targets (issue 6): speed-up of 2 processes over 1 at least 1.8 (on 2 cores); the Dask
cluster at most 15% slower than 2 processes. All three runs must store the same games.
"""

import argparse
import tempfile
import time
from concurrent.futures import Executor
from pathlib import Path

from ai.results_db import ResultsDatabase
from ai.tournament import TournamentConfig, local_executor, play


def timed(
    config: TournamentConfig, executor: Executor, workers: int, db: Path
) -> tuple[float, list]:
    """Seconds to play the whole tournament, and its games (without their times)."""
    database = ResultsDatabase(db)
    database.begin(config.stored(), resume=False)
    started = time.perf_counter()
    play(config, database, executor, in_flight=2 * workers)
    seconds = time.perf_counter() - started
    games = [(g.number, g.seed, g.returns, g.steps) for g in database.games()]
    database.close()
    return seconds, games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    args = parser.parse_args()
    config = TournamentConfig("rpg-battle", ("greedy", "random"), games=args.games)
    with tempfile.TemporaryDirectory() as tmp:
        runs = {}
        for jobs in (1, 2):
            with local_executor(jobs) as pool:
                pool.submit(int).result()  # workers started before the clock
                runs[f"{jobs} process{'es' if jobs > 1 else ''}"] = timed(
                    config, pool, jobs, Path(tmp) / f"jobs{jobs}.sqlite"
                )
        from distributed import Client, LocalCluster

        with LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address=None,
        ) as cluster, Client(cluster) as client:  # fmt: skip
            client.submit(int).result()
            runs["dask, 2 workers"] = timed(
                config, client.get_executor(pure=False), 2, Path(tmp) / "dask.sqlite"
            )
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
