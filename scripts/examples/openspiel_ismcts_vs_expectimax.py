"""A tournament: OpenSpiel's ISMCTS against our expectimax at equal CPU time a move, in each
game; seats turned round on the same deals, 95% intervals.

    nice -n 10 .venv/bin/python scripts/examples/openspiel_ismcts_vs_expectimax.py \
        [--games 4] [--think-ms 50] [--game getgem,rpg-battle] [--jobs 2] [--round-cap 100] \
        [--rates getgem=0.39,...] [--results DIR]

Needs the openspiel extra (pip install 'p2pcards[openspiel]'). "Equal time" is equal CPU
time, by measured rates, so that load on a shared machine changes neither side's budget nor
the results (both agents are seeded, so a run replays): expectimax gets `think_ms`, which a
seeded expectimax turns into nodes at its game's calibrated rate (nodes per CPU millisecond,
the registration's `search_rates`); ISMCTS gets as many simulations as it runs in
`think_ms` of CPU time, measured here first (`--rates` gives them instead): the CPU time of
a fixed number of simulations in decision positions of greedy games. `--results` keeps each
game's database there, so a run stopped part-way resumes.
"""

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from ai.agents import make_agent
from ai.openspiel_agents import ISMCTSAgent
from ai.results_db import ResultsDatabase
from ai.tournament import TournamentConfig, local_executor, play, standings
from p2pcards import games
from p2pcards.dealer import LocalDealer
from p2pcards.engine import State

CALIBRATION_SIMULATIONS = 24


def positions(game: str, count: int, round_cap: int) -> list[State]:
    """Decision positions (more than one legal action) of greedy two-seat games, as the
    deciding seat sees them."""
    found: list[State] = []
    seed = 0
    while len(found) < count:
        state = games.load(game).new_initial_state(2, round_cap=round_cap)
        greedy, dealer, rng = make_agent("greedy", seed), LocalDealer(seed), random.Random(seed)
        while not state.is_terminal() and len(found) < count:
            if state.is_chance_node():
                state.apply_action(dealer.sample(state))
                continue
            view = state.observation(state.current_player())
            if len(state.legal_actions()) > 1 and rng.random() < 0.25:
                found.append(view)
            state.apply_action(greedy.act(view))
        seed += 1
    return found


def simulation_rate(game: str, round_cap: int, count: int = 24) -> float:
    """ISMCTS simulations per CPU millisecond in `game`: the median over `count` positions."""
    rates = []
    for view in positions(game, count, round_cap):
        agent = ISMCTSAgent(seed=1, simulations=CALIBRATION_SIMULATIONS)
        start = time.process_time()
        agent.act(view)
        rates.append(CALIBRATION_SIMULATIONS / ((time.process_time() - start) * 1000))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per game (even: paired deals)")
    parser.add_argument("--think-ms", type=float, default=50, help="CPU milliseconds a move")
    parser.add_argument("--game", default=",".join(games.names()))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--round-cap", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rates", default="", help="ISMCTS simulations per CPU ms: g=r,...")
    parser.add_argument("--results", type=Path, help="keep each game's results database here")
    args = parser.parse_args()
    given = {k: float(v) for k, _, v in (p.partition("=") for p in args.rates.split(",") if p)}

    expectimax = f"expectimax:think_ms={args.think_ms:g}:exact=true"
    print(f"{'game':18} {'games':>5}  ISMCTS score  95% interval    budgets at {args.think_ms:g}"
          " CPU ms a move")  # fmt: skip
    for game in args.game.split(","):
        rate = given.get(game) or simulation_rate(game, args.round_cap)
        simulations = max(2, round(rate * args.think_ms))
        ismcts = f"openspiel:ismcts:simulations={simulations}"
        config = TournamentConfig(
            game, (ismcts, expectimax), games=args.games, seed=args.seed,
            round_cap=args.round_cap or None,
        )  # fmt: skip
        with tempfile.TemporaryDirectory() as scratch:
            folder = args.results or Path(scratch)
            folder.mkdir(parents=True, exist_ok=True)
            database = ResultsDatabase(folder / f"{game}.sqlite")
            database.begin(config.stored(), resume=True)
            with local_executor(args.jobs) as pool:
                play(config, database, pool, args.jobs)
            played = database.games()
            database.close()
        rating = standings(config, played).pairings[(ismcts, expectimax)]
        print(
            f"{game:18} {rating.score.games:5}  {rating.score.rate:11.1%}  "
            f"[{rating.low:.1%}, {rating.high:.1%}]  ISMCTS {simulations} simulations "
            f"({rate:.3f} a CPU ms), {expectimax}",
            flush=True,
        )


if __name__ == "__main__":
    main()
