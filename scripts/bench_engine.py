"""Engine speed: complete random games per CPU second and engine steps per CPU second.

    .venv/bin/python scripts/bench_engine.py [--games N] [--game rpg-battle,...] [--seats 2,4]
        [--repeat R]

Random decisions from a seeded generator, chance nodes from the local dealer,
one process; every game capped as its registration's `bench` says (100 rounds, or getgem's
100 turns); the games of own decks play their default decks (the rulebook's two, or the two
starter decks). Targets: at least 300 two-seat games per second (issue 2; issue 15:
rpg-battle at least 400 on an idle machine, Rise of the Guys 150).
Without --seats, each game runs at the seat counts its registration's `bench` names (2, and
a larger table for rpg-battle and getgem).

Time is the process's CPU time (`time.process_time`), not the wall clock: the machine is
shared, and another process's work would count as this one's. Even so, a busy machine slows
a process down (caches, a shared core), so --repeat R runs each measurement R times and
prints the best, the run least disturbed.
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
    parser.add_argument("--repeat", type=int, default=1, help="runs of each (the best printed)")
    args = parser.parse_args()
    for game in args.game.split(","):
        seat_counts = (
            [int(s) for s in args.seats.split(",")] if args.seats else games.info(game).bench.seats
        )
        for seats in seat_counts:
            bench(game, seats, args.games, args.repeat)


def bench(game: str, seats: int, count: int, repeat: int) -> None:
    """Print the best of `repeat` runs of `count` seeded random games."""
    playout(game, seats, -1)  # warm caches and imports
    elapsed = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        steps = sum(playout(game, seats, seed) for seed in range(count))
        elapsed = min(elapsed, time.process_time() - start)
    print(
        f"{game} {seats} seats: {count / elapsed:8.1f} games/CPU s  "
        f"{steps / elapsed:10.0f} steps/CPU s  ({steps / count:.0f} steps a game, "
        f"{count} games in {elapsed:.2f} CPU s, best of {repeat})"
    )


if __name__ == "__main__":
    main()
