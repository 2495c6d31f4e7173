"""Engine speed: complete random games per second and engine steps per second.

    .venv/bin/python scripts/bench_engine.py [--games N] [--game rpg-battle,...] [--seats 2,4]

Random decisions from a seeded generator, chance nodes from the local dealer,
one process; every game capped at 100 rounds (rpg-battle, Gammasphere) or turns (getgem, Rise
of the Guys); the games of own decks play their default decks (the rulebook's two, or the two
starter decks). Targets: at least 300 two-seat games per second (issue 2; issue 15:
rpg-battle at least 400 on an idle machine, Rise of the Guys 150).
Without --seats, each game runs at 2 seats and at its usual larger table (rpg-battle 4,
getgem 5).
"""

import argparse
import random
import time

from p2pcards import games
from p2pcards.dealer import LocalDealer

CAPS = {
    "rpg-battle": {"round_cap": 100},
    "getgem": {"turn_cap": 100},
    "rise-of-the-guys": {"round_cap": 100},
    "gammasphere": {"round_cap": 100},
}
SEATS = {"rpg-battle": "2,4", "getgem": "2,5"}


def playout(game_name: str, seats: int, seed: int) -> int:
    """Play one random game to the end; return the number of engine steps."""
    state = games.load(game_name).new_initial_state(seats, **CAPS.get(game_name, {}))
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
    parser.add_argument("--game", default="rpg-battle,getgem,rise-of-the-guys,gammasphere")
    args = parser.parse_args()
    for game in args.game.split(","):
        seat_counts = args.seats or SEATS.get(game, "2")
        for seats in (int(s) for s in seat_counts.split(",")):
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
