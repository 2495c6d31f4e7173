"""A PettingZoo loop over one of our games: every agent picks uniformly among the actions its
`action_mask` allows (waiting when its seat has no decision), until the game ends.

    .venv/bin/python scripts/examples/pettingzoo_random_policy.py [GAME] [--players N] [--seed S]

Needs the pettingzoo extra (pip install 'p2pcards[pettingzoo]'). Prints each seat's reward
and the final board, as the game's terminal view draws it (render_mode="ansi").
"""

import argparse

import numpy as np

from p2pcards.adapters.pettingzoo import env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="getgem")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    table = env(args.game, players=args.players, render_mode="ansi")
    table.reset(seed=args.seed)
    rng = np.random.default_rng(args.seed)
    totals = dict.fromkeys(table.possible_agents, 0.0)
    steps = 0
    for agent in table.agent_iter():
        observation, reward, terminated, truncated, _ = table.last()
        totals[agent] += reward
        if terminated or truncated:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        table.step(action)
        steps += 1
    print(table.render())
    print(f"{args.game}, {args.players} seats, {steps} agent steps")
    for agent, total in totals.items():
        print(f"{agent}: {total:g}")


if __name__ == "__main__":
    main()
