"""RPG Get!'s starter decks against each other: a balance table from greedy games.

    .venv/bin/python scripts/rpg_get_balance.py [--games 1000] [--round-cap 60] [--seed 0]
        [--decks sword-and-sorcery,sky-pirates,ragol-hunters] [--agent greedy]

Two seats, both played by the same agent (`greedy`: the action whose immediate result the
game's evaluation likes best, ai/agents.py). For each pair of decks, `--games` games with the
decks swapping seats every game (so the first seat's edge cancels out) and the seed moving
on; a shared win (the round cap's tie) counts half. Prints a row per deck with its win rate
against each other deck and a 95% interval, and the CPU seconds the run took
(`time.process_time`: the machine may be shared). The issue's bar: no starter deck below
40% against any other over 1,000 games.
"""

from __future__ import annotations

import argparse
import itertools
import math
import time

from ai.agents import make_agent
from p2pcards.dealer import LocalDealer
from p2pcards.games.rpg_get import GAME


def play(decks: tuple[str, str], seed: int, round_cap: int, agent: str) -> list[float]:
    """One game, the decks in seat order; each seat's share of the win."""
    cards = [GAME.deck(d) for d in decks]
    state = GAME.new_initial_state(2, decks=cards, round_cap=round_cap)
    agents = [make_agent(agent, seed * 2 + s) for s in range(2)]
    dealer = LocalDealer(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(dealer.sample(state))
        else:
            seat = state.current_player()
            state.apply_action(agents[seat].act(state.observation(seat)))
    return state.returns()


def main() -> None:
    """Play the table and print it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--games", type=int, default=1000, help="games per pair of decks")
    parser.add_argument("--round-cap", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--decks", default=",".join(GAME.default_decks))
    parser.add_argument("--agent", default="greedy")
    args = parser.parse_args()
    decks = args.decks.split(",")
    wins: dict[tuple[str, str], float] = {}
    started = time.process_time()
    for first, second in itertools.combinations(decks, 2):
        score = 0.0
        for game in range(args.games):
            order = (first, second) if game % 2 == 0 else (second, first)
            shares = play(order, args.seed + game, args.round_cap, args.agent)
            score += shares[order.index(first)]
        wins[first, second] = score / args.games
        wins[second, first] = 1 - score / args.games
    width = max(map(len, decks)) + 2
    print(f"{args.games} {args.agent} games a pair, decks swapping seats, round cap "
          f"{args.round_cap}: the row's win rate against the column (95% interval)")  # fmt: skip
    print(" " * width + "".join(d.ljust(24) for d in decks))
    for row in decks:
        cells = []
        for col in decks:
            if row == col:
                cells.append("-".ljust(24))
                continue
            p = wins[row, col]
            half = 1.96 * math.sqrt(p * (1 - p) / args.games)
            cells.append(f"{p:6.1%} ± {half:4.1%}".ljust(24))
        print(row.ljust(width) + "".join(cells))
    print(f"CPU {time.process_time() - started:.1f} s")


if __name__ == "__main__":
    main()
