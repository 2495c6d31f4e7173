"""Engine speed: complete random rpg-battle games per second and engine steps per second.

    .venv/bin/python scripts/bench_engine.py [--games N] [--seats 2,4]

Random decisions from a seeded generator, chance nodes from the local dealer,
one process. Target (issue 2): at least 300 two-seat games per second.
"""

import argparse
import random
import time

from p2pcards import games
from p2pcards.dealer import LocalDealer


def playout(game_name: str, seats: int, seed: int) -> int:
    """Play one random game to the end; return the number of engine steps."""
    state = games.load(game_name).new_initial_state(seats, round_cap=100)
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
    parser.add_argument("--seats", default="2,4")
    parser.add_argument("--game", default="rpg-battle")
    args = parser.parse_args()
    for seats in (int(s) for s in args.seats.split(",")):
        playout(args.game, seats, -1)  # warm caches and imports
        start = time.perf_counter()
        steps = sum(playout(args.game, seats, seed) for seed in range(args.games))
        elapsed = time.perf_counter() - start
        print(
            f"{args.game} {seats} seats: {args.games / elapsed:8.1f} games/s  "
            f"{steps / elapsed:10.0f} steps/s  ({steps / args.games:.0f} steps a game, "
            f"{args.games} games in {elapsed:.2f} s)"
        )


if __name__ == "__main__":
    main()
