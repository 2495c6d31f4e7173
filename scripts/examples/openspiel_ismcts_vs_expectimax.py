"""A short tournament: OpenSpiel's ISMCTS against our expectimax, at the same thinking time a
move, in each game; seats turned round on the same deals, 95% intervals.

    .venv/bin/python scripts/examples/openspiel_ismcts_vs_expectimax.py \
        [--games 4] [--think-ms 50] [--game getgem,rpg-battle] [--jobs 2] [--round-cap 100]

Needs the openspiel extra (pip install 'p2pcards[openspiel]'). Both time their moves by the
wall clock (expectimax's `clock=true`), so "equal time" means equal milliseconds here. The
same tournament from the command line:

    p2pcards tournament getgem \
        --agents "openspiel:ismcts:think_ms=50,expectimax:think_ms=50:clock=true"
"""

import argparse
import tempfile
from pathlib import Path

from ai.results_db import ResultsDatabase
from ai.tournament import TournamentConfig, local_executor, play, standings
from p2pcards import games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per game (even: paired deals)")
    parser.add_argument("--think-ms", type=float, default=50)
    parser.add_argument("--game", default=",".join(games.names()))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--round-cap", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    ismcts = f"openspiel:ismcts:think_ms={args.think_ms:g}"
    expectimax = f"expectimax:think_ms={args.think_ms:g}:clock=true"
    print(f"{'game':18} {'games':>5}  ISMCTS score  95% interval    (against {expectimax})")
    for game in args.game.split(","):
        config = TournamentConfig(
            game, (ismcts, expectimax), games=args.games, seed=args.seed,
            round_cap=args.round_cap or None,
        )  # fmt: skip
        with tempfile.TemporaryDirectory() as folder:
            database = ResultsDatabase(Path(folder) / "results.sqlite")
            database.begin(config.stored(), resume=False)
            with local_executor(args.jobs) as pool:
                play(config, database, pool, args.jobs)
            played = database.games()
            database.close()
        rating = standings(config, played).pairings[(ismcts, expectimax)]
        print(
            f"{game:18} {rating.score.games:5}  {rating.score.rate:11.1%}  "
            f"[{rating.low:.1%}, {rating.high:.1%}]"
        )


if __name__ == "__main__":
    main()
