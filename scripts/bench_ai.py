"""Expectimax against greedy and random: win rate with a 95% interval, move times, depth, speed.

    .venv/bin/python scripts/bench_ai.py [--games 200] [--think-ms 200] [--opponents greedy,random]
                                         [--ai SPEC] [--jobs 2] [--game rpg-battle] [--seats 2]
    .venv/bin/python scripts/bench_ai.py --oracle [--games 400] [--start 0] [--ai SPEC] [--game G]
                                         [--seats 3] [--opponents greedy]
    .venv/bin/python scripts/bench_ai.py --calibrate [--think-ms 200] [--positions 60]
    .venv/bin/python scripts/bench_ai.py --same-moves [--against main] [--game G,...]
                                         [--positions 12] [--nodes 3000] [--playouts 100]
    .venv/bin/python scripts/bench_ai.py --same-moves --instructions [--against main] [--game G]
    .venv/bin/python scripts/bench_ai.py --pair FIRST SECOND

Expectimax in one seat, the opponent's kind in every other, the AI's seat turning
round the table from game to game, each game seeded by its number. Targets (issue
5, two-seat rpg-battle): at least 70% against greedy and 95% against random; p95
move time within 20% of the budget; issue 28: at p99, which the line prints in CPU time (the
move's own process), with the moves over 1.2 times the budget. Issue 7 asks for 3-seat
getgem figures. Games
run in `--jobs` processes, one core each, so move times are those of an unshared
core as long as jobs <= cores. The win rate counts a shared win as its share. A second
line splits the wins by the expectimax seat and, in a game of own decks, its deck, and lists
every game's result in order (1 won, 0 lost, h shared), so that two runs on the same game
numbers compare game by game; `--ai greedy` puts greedy in that seat on the same deals
(the baseline such a comparison needs: what the deals give without a search).

`--oracle` measures what hidden cards cost (issue 28): each game number is played twice on
the same deal and seeds, once by the search as it is (`--ai`) and once by the same search
handed the complete state (an oracle: every hand open, the deck's order still chance),
against the first of `--opponents`; it prints both win rates and the oracle's gap in points
(the mean of the paired differences) with a 95% interval, then each side's line of games
as the plain benchmark prints it. `--ai` may list several specs,
comma-separated: each is paired with the same oracle games (the first spec's search).
Targets: at most 3 points in rpg-battle (2 seats) and 6 in 3-seat GETGEM over 400 pairs or
more. `--start` (here and in the plain benchmark) numbers the games from there, so that
runs of separate numbers pool (each prints its sums).

`--pair FIRST SECOND` compares two runs saved to files (their printed output; a file may
hold several runs of other game numbers, as chunks pooled) on the games both played: each
run's wins and the mean of FIRST minus SECOND, game by game, with a 95% interval. A file
name may end in `@LABEL` to take, from an `--oracle` run's output, the lines of one side
(`oracle`, or a spec as `--ai` gave it); without it a file's unlabelled lines are read
(the plain benchmark's), or, if it has none, its only label's.

`--calibrate` measures what each game's registration holds as `search_rates`
(p2pcards/games/__init__.py, read by `ai.expectimax.node_budget`): the nodes a search
covers per millisecond of CPU time, per game and seat count, in middle-game positions of
greedy games, each searched for `--think-ms` of wall-clock time (`clock=true`). CPU time,
not wall-clock time, so that other work on the machine does not lower the figure.

`--same-moves` guards changes that are only about speed (issue 28): in `--positions`
middle-game positions per game (every game, or `--game`), a seeded expectimax with a
fixed node budget (`--nodes`) picks a move; the script prints, per game, a hash of every
move, depth, node count and root value, the nodes per CPU millisecond, and random playouts
per CPU second with a hash of their final digests. Moves must hash the same before and
after; the speeds say what the change bought. With `--against REF` it runs the same check
on the git revision REF too (extracted to a temporary directory) and says, per game,
whether the hashes match. Both runs use PYTHONHASHSEED=0: a search key that holds strings
hashes differently from process to process, and the search seeds its sampling with it.

`--same-moves --instructions` counts instead of timing, for figures a loaded machine cannot
move: the instructions and estimated cycles a search node costs (valgrind, as
`scripts/bench_engine.py --instructions` counts a game), over the searches of `--positions`
positions (default 4) at `--nodes`, less a run that only finds the positions. With
`--against REF` it counts REF's tree too, with REF's own positions and search, and prints
the change. Each game's two trees take a few minutes.
"""

import argparse
import contextlib
import functools
import hashlib
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from bench_engine import Costs, change_in_per_cent, revision_tree, valgrind_costs

from ai.agents import make_agent
from ai.belief import show_decision
from ai.expectimax import ExpectimaxAgent
from ai.match import DEFAULT_ROUND_CAP
from ai.ratings import wilson
from p2pcards import games
from p2pcards.dealer import LocalDealer
from p2pcards.engine import State

# Issue 28: an expectimax move never exceeds its budget by more than this at p99; counted in
# CPU time, which is what a seeded search's ceiling (ai.expectimax.CPU_CEILING) caps, so that
# other work on the machine does not count against the move.
OVER_BUDGET = 1.2


@dataclass(frozen=True)
class GameFigures:
    """What one game measured, from the expectimax seat's side."""

    score: float
    move_seconds: list[float]  # wall-clock, observation to action
    move_cpu: list[float]  # CPU seconds of the same moves: what a seeded search's ceiling caps
    depths: list[int]
    nodes: int
    searching: float
    seat: int  # the expectimax seat
    deck: str  # its deck in an own-deck game ("" otherwise)


def play(
    ai_spec: str,
    opponent: str,
    game: str,
    num_seats: int,
    decks: tuple[str, ...],
    number: int,
    oracle: bool = False,
) -> GameFigures:
    """Game `number`: expectimax in seat number % seats, everything seeded by the number;
    with two `decks` (a game of own decks), the decks swap seats every other game, so that
    each side plays each deck from each seat. An `oracle` expectimax is handed the complete
    state instead of its seat's observation; any other watches the other seats' decisions."""
    ai = make_agent(ai_spec, seed=number)
    ai_seat = number % num_seats
    seats = [
        ai if s == ai_seat else make_agent(opponent, seed=10_000 * (s + 1) + number)
        for s in range(num_seats)
    ]
    options = {}
    if decks:
        turn = (number // num_seats) % len(decks)
        options["decks"] = [decks[(s + turn) % len(decks)] for s in range(num_seats)]
    state = games.load(game).new_initial_state(num_seats, round_cap=DEFAULT_ROUND_CAP, **options)
    deck = _deck_name(game, options, ai_seat)
    dealer = LocalDealer(number)
    times: list[float] = []
    cpu_times: list[float] = []
    depths: list[int] = []
    nodes = 0
    searching = 0.0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(dealer.sample(state))
            continue
        seat = state.current_player()
        started, cpu_started = time.monotonic(), time.process_time()
        seen = state.clone() if oracle and seat == ai_seat else state.observation(seat)
        action = seats[seat].act(seen)
        searched = ai.last if isinstance(ai, ExpectimaxAgent) else None
        if seat == ai_seat and searched is not None and len(searched.values) > 1:
            times.append(time.monotonic() - started)
            cpu_times.append(time.process_time() - cpu_started)
            depths.append(searched.depth)
            nodes += searched.nodes
            searching += searched.seconds
        if not oracle:
            show_decision(seats, state, action)
        state.apply_action(action)
    score = state.returns()[ai_seat]
    return GameFigures(score, times, cpu_times, depths, nodes, searching, ai_seat, deck)


def _deck_name(game: str, options: dict[str, list[str]], seat: int) -> str:
    """The deck `seat` plays in an own-deck game (its game's default when none is given)."""
    if "decks" in options:
        return options["decks"][seat]
    defaults: tuple[str, ...] = getattr(games.load(game), "default_decks", ())
    return defaults[seat] if seat < len(defaults) else ""


def breakdown(results: list[GameFigures], first: int) -> str:
    """The expectimax seat's wins by its seat and deck, and every game's score in order
    (1 won, 0 lost, h shared), so that two runs on the same game numbers compare game by
    game."""
    groups: dict[tuple[int, str], list[float]] = {}
    for r in results:
        groups.setdefault((r.seat, r.deck), []).append(r.score)
    parts = []
    for (seat, deck), scores in sorted(groups.items()):
        name = f"seat {seat}" + (f" {deck}" if deck else "")
        parts.append(f"{name} {sum(scores):g}/{len(scores)}")
    marks = "".join("1" if r.score == 1 else "0" if r.score == 0 else "h" for r in results)
    return f"  by seat: {', '.join(parts)} | games {first}-: {marks}"


def positions(game: str, num_seats: int, count: int) -> list[State]:
    """`count` decision positions (observations with a choice) from greedy games, every
    third decision of games seeded 0, 1, 2..."""
    found: list[State] = []
    number = 0
    while len(found) < count:
        agents = [make_agent("greedy", seed=number * 10 + s) for s in range(num_seats)]
        state = games.load(game).new_initial_state(num_seats, round_cap=DEFAULT_ROUND_CAP)
        dealer = LocalDealer(number)
        decisions = 0
        while not state.is_terminal() and len(found) < count:
            if state.is_chance_node():
                state.apply_action(dealer.sample(state))
                continue
            seat = state.current_player()
            observation = state.observation(seat)
            if len(observation.legal_actions()) > 1:
                decisions += 1
                if decisions % 3 == 0:
                    found.append(observation)
            state.apply_action(agents[seat].act(observation))
        number += 1
    return found


def calibrate(think_ms: float, count: int, only: str | None = None) -> None:
    """Nodes per CPU millisecond of a `think_ms` search, per game (or `only` one) and seat
    count; then each game's `search_rates` for its registration."""
    table: dict[str, dict[int, int]] = {}
    for game in [only] if only else games.names():
        rates: dict[int, int] = {}
        g = games.load(game)
        for num_seats in range(g.min_players, g.max_players + 1):
            nodes, cpu = 0, 0.0
            for i, observation in enumerate(positions(game, num_seats, count)):
                agent = ExpectimaxAgent(i, think_ms=think_ms, clock=True)
                started = time.process_time()
                agent.act(observation)
                cpu += time.process_time() - started
                assert agent.last is not None
                nodes += agent.last.nodes
            rates[num_seats] = round(nodes / (cpu * 1000))
            print(f"{game}, {num_seats} seats: {rates[num_seats]} nodes per CPU ms", flush=True)
        table[game] = rates
    for game, rates in table.items():
        listed = ", ".join(f"NodeRate({seats}, {rate})" for seats, rate in rates.items())
        print(f"{game}: search_rates=({listed},)")


def same_moves(game: str, count: int, nodes: int, playouts: int) -> dict[str, object]:
    """One game's same-moves figures: a hash of the searches' moves and values in `count`
    positions at `nodes` nodes, their nodes per CPU ms, and `playouts` random games' speed
    with a hash of their final digests."""
    found = positions(game, 2, count)
    searches = []
    nodes_spent, cpu = 0, 0.0
    for i, observation in enumerate(found):
        agent = ExpectimaxAgent(i, nodes=nodes)
        started = time.process_time()
        action = agent.act(observation)
        cpu += time.process_time() - started
        assert agent.last is not None
        nodes_spent += agent.last.nodes
        values = sorted((repr(a), v.hex()) for a, v in agent.last.values.items())
        searches.append([repr(action), agent.last.depth, agent.last.nodes, values])
    bench = games.info(game).bench
    digests = []
    started = time.process_time()
    for seed in range(playouts):
        state = games.load(game).new_initial_state(2, **{bench.cap: bench.limit})
        dealer, rng = LocalDealer(seed), random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(dealer.sample(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        digests.append(state.public_digest())
    playout_cpu = time.process_time() - started
    return {
        "moves": _digest(searches),
        "playouts": _digest(digests),
        "nodes_per_ms": round(nodes_spent / (cpu * 1000), 1),
        "playouts_per_s": round(playouts / playout_cpu, 1) if playouts else 0.0,
    }


def _digest(data: object) -> str:
    return hashlib.sha256(json.dumps(data).encode()).hexdigest()[:16]


def _same_moves_in(root: Path, args: argparse.Namespace) -> dict[str, dict[str, object]]:
    """`same_moves` of every game asked, run in a child process on the code under `root`
    (this script's own figures code, the engine and AI of `root`), PYTHONHASHSEED=0."""
    program = (
        "import json, sys; sys.path.insert(1, sys.argv[1]); import bench_ai; "
        "print(json.dumps({g: bench_ai.same_moves(g, *map(int, sys.argv[3:])) "
        "for g in sys.argv[2].split(',')}))"
    )
    asked = args.game or ",".join(games.names())
    command = [sys.executable, "-c", program, str(Path(__file__).parent), asked]
    command += [str(args.positions), str(args.nodes), str(args.playouts)]
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(root)}
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True)
    if done.returncode != 0:  # an old tree whose engine or AI this script's code cannot drive
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise SystemExit(f"error: the code under {root} cannot run the same-moves check: {last}")
    figures: dict[str, dict[str, object]] = json.loads(done.stdout)
    return figures


def node_costs(root: Path, game: str, args: argparse.Namespace) -> tuple[Costs, int]:
    """What valgrind counts a search node of `game` costs under `root`, and the nodes counted:
    the searches in `--positions` positions less a run that only finds them."""
    # The tree's own `positions` (in every tree since issue 14) and search; the searches are
    # left out of the baseline, which finds the positions alone.
    program = (
        "import sys; sys.path.insert(1, sys.argv[1]); import bench_ai; "
        "from ai.expectimax import ExpectimaxAgent; "
        "game, count, nodes, search = sys.argv[2], *map(int, sys.argv[3:]); spent = 0\n"
        "for i, seen in enumerate(bench_ai.positions(game, 2, count)):\n"
        "    if search:\n"
        "        agent = ExpectimaxAgent(i, nodes=nodes); agent.act(seen)\n"
        "        spent += agent.last.nodes\n"
        "print(spent)"
    )
    scripts = str(root / "scripts")
    runs = [
        valgrind_costs(root, [program, scripts, game, str(args.positions), str(args.nodes), s])
        for s in ("1", "0")
    ]
    (searched, printed), (found, _) = runs
    spent = int(printed)
    return searched.less(found, spent), spent


def check_node_costs(args: argparse.Namespace) -> None:
    """Print what a search node costs in instructions and estimated cycles, per game asked (and
    under `--against`, with the change)."""
    here = Path(__file__).resolve().parent.parent
    with revision_tree(args.against) if args.against else contextlib.nullcontext() as there:
        for game in (args.game or ",".join(games.names())).split(","):
            mine, spent = node_costs(here, game, args)
            line = (
                f"{game}: {mine.instructions / 1e3:.1f}k instructions, {mine.cycles / 1e3:.1f}k "
                f"cycles (est.) a node ({args.positions} positions, {spent} nodes)"
            )
            if there is not None:
                theirs, _ = node_costs(there, game, args)
                fewer = change_in_per_cent(mine.instructions, theirs.instructions)
                line += (
                    f" | {args.against}: {theirs.instructions / 1e3:.1f}k, "
                    f"{theirs.cycles / 1e3:.1f}k; here {fewer} instructions, "
                    f"{change_in_per_cent(mine.cycles, theirs.cycles)} cycles"
                )
            print(line, flush=True)


def check_same_moves(args: argparse.Namespace) -> int:
    """Print the same-moves figures of this tree (and of `--against`); 1 if moves differ."""
    here = _same_moves_in(Path(__file__).resolve().parent.parent, args)
    there: dict[str, dict[str, object]] = {}
    if args.against:
        with revision_tree(args.against) as tree:
            there = _same_moves_in(tree, args)
    differ = 0
    for game, mine in here.items():
        line = f"{game}: moves {mine['moves']} playouts {mine['playouts']} | "
        line += f"{mine['nodes_per_ms']} nodes/CPU ms, {mine['playouts_per_s']} playouts/CPU s"
        theirs = there.get(game)
        if theirs is not None:
            same = theirs["moves"] == mine["moves"] and theirs["playouts"] == mine["playouts"]
            differ += not same
            line += (
                f" | {args.against}: {theirs['nodes_per_ms']} nodes/CPU ms, "
                f"{theirs['playouts_per_s']} playouts/CPU s, "
                + ("the same moves" if same else f"DIFFERENT: moves {theirs['moves']}")
            )
        print(line, flush=True)
    return 1 if differ else 0


def oracle_gap(args: argparse.Namespace, ai_spec: str, decks: tuple[str, ...]) -> None:
    """Print, for each spec of `ai_spec` (comma-separated), the paired oracle-minus-search gap
    with a 95% interval and each side's win rate; the oracle is the first spec's search."""
    opponent = args.opponents.split(",")[0]
    specs = ai_spec.split(",")
    numbers = range(args.start, args.start + args.games)
    started = time.monotonic()
    with ProcessPoolExecutor(args.jobs) as pool:
        runs = [
            pool.map(
                functools.partial(play, spec, opponent, args.game, args.seats, decks),
                numbers,
                [oracle] * len(numbers),
            )
            for spec, oracle in [(specs[0], True)] + [(spec, False) for spec in specs]
        ]
        played = [list(run) for run in runs]
    told = [r.score for r in played[0]]
    searched = [[r.score for r in run] for run in played[1:]]
    for spec, scores in zip(specs, searched, strict=True):
        print(
            f"{args.game}, {args.seats} seats, vs {opponent}, games {numbers.start}-"
            f"{numbers.stop - 1}: {oracle_line(spec, scores, told)} | "
            f"{time.monotonic() - started:.0f} s on {args.jobs} jobs",
            flush=True,
        )
    # Every game's result, so that runs pair game by game with a plain run or another oracle
    # run on the same numbers (the oracle is seeded as the search is).
    for name, run in zip(["oracle", *specs], played, strict=True):
        print(f"  {name}:{breakdown(run, args.start).removeprefix(' ')}", flush=True)
    for spec, scores in zip(specs[1:], searched[1:], strict=True):
        gain, half = paired_mean(searched[0], scores)
        gains = [a - b for a, b in zip(searched[0], scores, strict=True)]
        print(
            f"  {specs[0]} over {spec} on the same deals: {gain * 100:+.1f} points "
            f"[95% {(gain - half) * 100:+.1f}, {(gain + half) * 100:+.1f}] | sums: "
            f"pairs {len(gains)}, gain {sum(gains):g}, gain squared {sum(g * g for g in gains):g}",
            flush=True,
        )


def paired_mean(first: list[float], second: list[float]) -> tuple[float, float]:
    """The mean of `first` minus `second`, pair by pair, and its 95% interval's half-width."""
    gaps = [a - b for a, b in zip(first, second, strict=True)]
    n = len(gaps)
    half = 1.96 * statistics.stdev(gaps) / math.sqrt(n) if n > 1 else math.inf
    return statistics.fmean(gaps), half


def oracle_line(spec: str, searched: list[float], told: list[float]) -> str:
    """The oracle's gap over `spec` in points with its 95% interval, both win rates, and the
    sums that pool runs of other game numbers."""
    n = len(searched)
    gaps = [o - s for s, o in zip(searched, told, strict=True)]
    mean, half = paired_mean(told, searched)
    sides = []
    for name, wins in (("search", sum(searched)), ("oracle", sum(told))):
        low, high = wilson(wins, n)
        sides.append(f"{name} {wins / n:.1%} [95% {low:.1%}, {high:.1%}]")
    return (
        f"{spec}: oracle gap {mean * 100:+.1f} points [95% {(mean - half) * 100:+.1f}, "
        f"{(mean + half) * 100:+.1f}] over {n} pairs | {' | '.join(sides)} | sums: "
        f"searched {sum(searched):g}, oracle {sum(told):g}, "
        f"gap squared {sum(g * g for g in gaps):g}"
    )


_GAMES_LINE = re.compile(
    r"^ {2}(?:(?P<label>.+?): )?by seat: .* \| games (?P<first>\d+)-: (?P<marks>[01h]+)$"
)
_MARK_SCORE = {"1": 1.0, "0": 0.0, "h": 0.5}


class PairError(Exception):
    """A run to pair cannot be read: no file, no line of games, or an ambiguous label."""


def read_run(source: str) -> dict[int, float]:
    """Every game's score in a saved run, by game number, from its `games N-:` lines
    (`source`: a file name, `@LABEL` to choose one side of an `--oracle` run)."""
    path, at, label = source.rpartition("@")
    if not at:
        path, label = source, ""
    try:
        text = Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise PairError(f"cannot read {path}: {exc.strerror or exc}") from None
    found: dict[str | None, list[re.Match[str]]] = {}
    for line in text.splitlines():
        match = _GAMES_LINE.match(line)
        if match is not None:
            found.setdefault(match["label"], []).append(match)
    if not found:
        raise PairError(f"{path} has no line of games (`by seat: ... | games N-: ...`)")
    if label:
        chosen = found.get(label)
        if chosen is None:
            raise PairError(f"{path} has no line of games labelled {label!r} ({_labels(found)})")
    elif None in found:
        chosen = found[None]
    elif len(found) == 1:
        chosen = next(iter(found.values()))
    else:
        raise PairError(f"{path} holds several sides: name one as {path}@LABEL ({_labels(found)})")
    scores: dict[int, float] = {}
    for match in chosen:
        first = int(match["first"])
        for offset, mark in enumerate(match["marks"]):
            number = first + offset
            score = _MARK_SCORE[mark]
            if scores.setdefault(number, score) != score:
                raise PairError(f"{path} gives game {number} two different results")
    return scores


def _labels(found: dict[str | None, list[re.Match[str]]]) -> str:
    """The labels found, for an error message."""
    names = [repr(name) for name in found if name is not None]
    return "labels: " + ", ".join(names) if names else "no labels"


def pair_runs(first: str, second: str) -> str:
    """Two saved runs compared on the games both played: their wins and the paired mean."""
    a, b = read_run(first), read_run(second)
    both = sorted(a.keys() & b.keys())
    if not both:
        raise PairError(f"{first} and {second} played no game number in common")
    gain, half = paired_mean([a[n] for n in both], [b[n] for n in both])
    only_a = sum(1 for n in both if a[n] > b[n])
    only_b = sum(1 for n in both if a[n] < b[n])
    return (
        f"{len(both)} games in common ({both[0]}-{both[-1]}) | {first}: "
        f"{sum(a[n] for n in both):g} | {second}: {sum(b[n] for n in both):g} | first minus "
        f"second {gain * 100:+.1f} points [95% {(gain - half) * 100:+.1f}, "
        f"{(gain + half) * 100:+.1f}] | better in {only_a}, worse in {only_b}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--think-ms", type=float, default=200.0)
    parser.add_argument(
        "--ai", help="the expectimax spec (default expectimax:think_ms=THINK_MS; greedy: no search)"
    )
    parser.add_argument("--opponents", default="greedy,random")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--game", default=None, help="default rpg-battle (calibrate: all)")
    parser.add_argument(
        "--decks", default="", help="own-deck games: two decks, comma-separated, swapped in turn"
    )
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--oracle", action="store_true", help="the gap to a full-state search")
    parser.add_argument("--start", type=int, default=0, help="the first game's number")
    parser.add_argument("--calibrate", action="store_true", help="measure the search rates")
    parser.add_argument("--positions", type=int, default=None, help="per game and seat count")
    parser.add_argument("--same-moves", action="store_true", help="moves and speed, to compare")
    parser.add_argument("--against", help="with --same-moves: a git revision to compare with")
    parser.add_argument("--nodes", type=int, default=3000, help="with --same-moves: per move")
    parser.add_argument("--playouts", type=int, default=100, help="with --same-moves: per game")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="with --same-moves: a node's cost counted by valgrind (default 4 positions)",
    )
    parser.add_argument(
        "--pair", nargs=2, metavar=("FIRST", "SECOND"), help="two saved runs, game by game"
    )
    args = parser.parse_args()
    for name in ("games", "positions", "nodes", "jobs", "seats"):
        value = getattr(args, name)
        if value is not None and value < 1:
            parser.error(f"--{name} must be 1 or more")
    if args.playouts < 0 or args.start < 0 or not args.think_ms > 0:
        parser.error("--playouts and --start must be 0 or more, --think-ms more than 0")
    unknown = [g for g in (args.game or "").split(",") if g and g not in games.names()]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}; known games: {', '.join(games.names())}")
    if args.pair:
        try:
            print(pair_runs(*args.pair))
        except PairError as exc:
            sys.exit(f"bench_ai --pair: {exc}")
        return
    if args.same_moves and args.instructions:
        args.positions = args.positions or 4
        check_node_costs(args)
        return
    if args.same_moves:
        args.positions = args.positions or 12
        sys.exit(check_same_moves(args))
    args.positions = args.positions or 60
    if args.calibrate:
        calibrate(args.think_ms, args.positions, args.game)
        return
    args.game = args.game or "rpg-battle"
    decks = tuple(d for d in args.decks.split(",") if d)
    ai_spec = args.ai or f"expectimax:think_ms={args.think_ms:g}"
    if args.oracle:
        oracle_gap(args, ai_spec, decks)
        return
    with ProcessPoolExecutor(args.jobs) as pool:
        for opponent in args.opponents.split(","):
            started = time.monotonic()
            one_game = functools.partial(play, ai_spec, opponent, args.game, args.seats, decks)
            numbers = range(args.start, args.start + args.games)
            results = list(pool.map(one_game, numbers))
            wins = sum(r.score for r in results)
            times = [t for r in results for t in r.move_seconds]
            cpu = [t for r in results for t in r.move_cpu]
            depths = [d for r in results for d in r.depths]
            nodes = sum(r.nodes for r in results)
            searching = sum(r.searching for r in results)
            if not cpu:  # a spec that does not search (greedy on the same deals)
                print(f"{args.game}, {ai_spec} vs {opponent}: {wins:g}/{args.games}")
                print(breakdown(results, args.start), flush=True)
                continue
            low, high = wilson(wins, args.games)
            p95 = statistics.quantiles(times, n=100)[94] if len(times) > 1 else times[0]
            p99 = statistics.quantiles(cpu, n=100, method="inclusive")[98] if cpu[1:] else cpu[0]
            over = sum(t > OVER_BUDGET * args.think_ms / 1000 for t in cpu)
            print(
                f"{args.game}, {args.seats} seats, {ai_spec} vs {opponent}: "
                f"{wins:g}/{args.games} = {wins / args.games:.1%} [95% {low:.1%}, {high:.1%}]"
                " | move time mean "
                f"{statistics.mean(times) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms | move CPU p99 "
                f"{p99 * 1000:.0f} ms, max {max(cpu) * 1000:.0f} ms, {over}/{len(cpu)} over "
                f"{OVER_BUDGET:g}x | mean depth "
                f"{statistics.mean(depths):.1f} | {nodes / searching:.0f} nodes/s | "
                f"{time.monotonic() - started:.0f} s on {args.jobs} jobs",
                flush=True,
            )
            print(breakdown(results, args.start), flush=True)


if __name__ == "__main__":
    main()
