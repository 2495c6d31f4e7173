"""Adapter overhead: a random game through the OpenSpiel and PettingZoo adapters against the
engine's own random playout (scripts/bench_engine.py's), in one run.

    nice -n 10 .venv/bin/python scripts/bench_adapters.py [--games N] [--game getgem,...]

Each round plays the same seeds three ways, one after another, and the rounds alternate so
that load on a shared machine falls on all three alike: the engine (legal actions, a random
choice, the local dealer); OpenSpiel (`legal_actions()` ids, `chance_outcomes()` sampled,
`apply_action(id)`); PettingZoo (the usual `agent_iter` loop: `last()` with its observation
tensor and action mask, a random allowed action, `step`). Two seats, games capped as
bench_engine.py caps them (the registration's `bench`). Targets (issue 29): OpenSpiel at most
2x the engine's time a game, PettingZoo at most 3x.
"""

import argparse
import random
import time

import numpy as np
from bench_engine import playout

from p2pcards import games
from p2pcards.adapters import openspiel
from p2pcards.adapters.pettingzoo import env


def openspiel_playout(game: object, seed: int) -> int:
    """One random game through OpenSpiel's API; the steps taken."""
    rng = random.Random(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices(outcomes, [p for _, p in outcomes])[0][0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        steps += 1
    return steps


def pettingzoo_playout(table: object, seed: int) -> int:
    """One random game through PettingZoo's AEC loop; the agent steps taken."""
    table.reset(seed=seed)  # type: ignore[attr-defined]
    rng = np.random.default_rng(seed)
    steps = 0
    for _ in table.agent_iter():  # type: ignore[attr-defined]
        observation, _, terminated, truncated, _ = table.last()  # type: ignore[attr-defined]
        action = None
        if not (terminated or truncated):
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        table.step(action)  # type: ignore[attr-defined]
        steps += 1
    return steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--game", default=",".join(games.names()), help="default: every game")
    args = parser.parse_args()
    for name in args.game.split(","):
        bench = games.info(name).bench
        caps = {"round_cap": 0, bench.cap: bench.limit}  # bench_engine's cap, and no other
        spiel = openspiel.load(name, players=2, **caps)
        zoo = env(name, players=2, **caps)
        runs = {
            "engine": lambda seed, name=name: playout(name, 2, seed),
            "openspiel": lambda seed, spiel=spiel: openspiel_playout(spiel, seed),
            "pettingzoo": lambda seed, zoo=zoo: pettingzoo_playout(zoo, seed),
        }
        seconds = dict.fromkeys(runs, 0.0)
        steps = dict.fromkeys(runs, 0)
        for run in runs.values():
            run(10**6)  # warm caches and imports
        per_round = max(1, args.games // args.rounds)
        for r in range(args.rounds):
            seeds = range(r * per_round, (r + 1) * per_round)
            for label, run in runs.items():
                start = time.process_time()
                steps[label] += sum(run(seed) for seed in seeds)
                seconds[label] += time.process_time() - start
        played = per_round * args.rounds
        base = seconds["engine"] / played
        line = [f"{name} 2 seats, {played} games: engine {base * 1000:.2f} ms a game"]
        for label in ("openspiel", "pettingzoo"):
            each = seconds[label] / played
            line.append(f"{label} {each * 1000:.2f} ms ({each / base:.2f}x)")
        print("; ".join(line), f"[agent steps a game: {steps['pettingzoo'] / played:.0f}]")


if __name__ == "__main__":
    main()
