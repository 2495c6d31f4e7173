"""Adapter overhead: a random game through the OpenSpiel and PettingZoo adapters against the
engine's own random playout (scripts/bench_engine.py's), in one run.

    nice -n 10 .venv/bin/python scripts/bench_adapters.py [--games N] [--game getgem,...]

Each round plays the same seeds four ways, one after another, and the rounds alternate so
that load on a shared machine falls on all alike (CPU time, `time.process_time`): the engine
(legal actions, a random choice, the local dealer); OpenSpiel (`legal_actions()` ids,
`chance_outcomes()` sampled, `apply_action(id)`); PettingZoo (the usual `agent_iter` loop:
`last()`, a random action the mask allows, `step`), once looking at the mask alone and once
reading the observation's tensor at every agent step as a learner would ("+tensor"). Two
seats, games capped as bench_engine.py caps them (the registration's `bench`). Every random
choice is Python's `random`, as the engine's playout makes it.

The figures: CPU time a game, and each adapter's against the engine's; for OpenSpiel also per
engine step (the games differ: ids in another order make other random choices, so per step
is the steadier comparison). Targets (issue 29): OpenSpiel at most 2x the engine, PettingZoo
at most 3x.
"""

import argparse
import random
import time

from bench_engine import playout

from p2pcards import games
from p2pcards.adapters import openspiel
from p2pcards.adapters.pettingzoo import env


def sample(outcomes: list[tuple[int, float]], rng: random.Random) -> int:
    """An outcome drawn by its probability, as the engine's local dealer draws one (the
    same sampling code on both sides: it is not the adapter's cost)."""
    if len(outcomes) == 1:
        return outcomes[0][0]
    x = rng.random()
    for outcome, probability in outcomes:
        x -= probability
        if x < 0:
            return outcome
    return outcomes[-1][0]


def openspiel_playout(game: object, seed: int) -> int:
    """One random game through OpenSpiel's API; the steps taken."""
    rng = random.Random(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample(state.chance_outcomes(), rng)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        steps += 1
    return steps


def pettingzoo_playout(table: object, seed: int, tensor: bool = False) -> int:
    """One random game through PettingZoo's AEC loop (reading each observation's tensor if
    `tensor`); the agent steps taken."""
    table.reset(seed=seed)  # type: ignore[attr-defined]
    rng = random.Random(seed)
    steps = 0
    total = 0.0
    for _ in table.agent_iter():  # type: ignore[attr-defined]
        observation, _, terminated, truncated, _ = table.last()  # type: ignore[attr-defined]
        action = None
        if not (terminated or truncated):
            allowed = observation["action_mask"].nonzero()[0]
            action = int(allowed[rng.randrange(len(allowed))])
        if tensor:
            total += observation["observation"][0]
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
            "pettingzoo+tensor": lambda seed, zoo=zoo: pettingzoo_playout(zoo, seed, True),
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
        for label in ("openspiel", "pettingzoo", "pettingzoo+tensor"):
            each = seconds[label] / played
            line.append(f"{label} {each * 1000:.2f} ms ({each / base:.2f}x)")
        per_step = {k: seconds[k] / steps[k] for k in ("engine", "openspiel")}
        line.append(f"OpenSpiel a step {per_step['openspiel'] / per_step['engine']:.2f}x")
        agent_steps = steps["pettingzoo"] / played
        print("; ".join(line), f"[PettingZoo agent steps a game: {agent_steps:.0f}]")


if __name__ == "__main__":
    main()
