"""Engine speed: complete random games per second and engine steps per second.

    .venv/bin/python scripts/bench_engine.py [--games N] [--game rpg-battle,...] [--seats 2,4]

Random decisions from a seeded generator, chance nodes from the local dealer,
one process; every game capped as its registration's `bench` says (100 rounds, or getgem's
100 turns); the games of own decks play their default decks (the rulebook's two, or the two
starter decks). Targets: at least 300 two-seat games per second (issue 2; issue 15:
rpg-battle at least 400 on an idle machine, Rise of the Guys 150).
Without --seats, each game runs at the seat counts its registration's `bench` names (2, and
a larger table for rpg-battle and getgem).
"""

import argparse
import random
import time

from p2pcards import games
from p2pcards.dealer import LocalDealer


def playout(game_name: str, seats: int, seed: int) -> int:
    """Play one random game to the end; return the number of engine steps."""
    bench = games.info(game_name).bench
    state = games.load(game_name).new_initial_state(seats, **{bench.cap: bench.limit})
    dealer = LocalDealer(seed)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(dealer.sample(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seats", default=None, help="seat counts (default: per game)")
    parser.add_argument("--game", default=",".join(games.names()), help="default: every game")
    args = parser.parse_args()
    for game in args.game.split(","):
        seat_counts = (
            [int(s) for s in args.seats.split(",")] if args.seats else games.info(game).bench.seats
        )
        for seats in seat_counts:
            bench(game, seats, args.games)


def bench(game: str, seats: int, count: int) -> None:
    playout(game, seats, -1)  # warm caches and imports
    start = time.perf_counter()
    steps = sum(playout(game, seats, seed) for seed in range(count))
    elapsed = time.perf_counter() - start
    print(
        f"{game} {seats} seats: {count / elapsed:8.1f} games/s  "
        f"{steps / elapsed:10.0f} steps/s  ({steps / count:.0f} steps a game, "
        f"{count} games in {elapsed:.2f} s)"
    )


if __name__ == "__main__":
    main()
