"""Engine speed: complete random games per CPU second and engine steps per CPU second.

    .venv/bin/python scripts/bench_engine.py [--games N] [--game rpg-battle,...] [--seats 2,4]
        [--repeat R]
    .venv/bin/python scripts/bench_engine.py --instructions [--against REF] [--games 100]
        [--game G,...] [--seats S,...]

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

`--instructions` counts instead of timing, for figures a loaded machine cannot move: the
machine instructions a random game costs, counted by valgrind (`--tool=cachegrind`, the
interpreter and every C extension included) with PYTHONHASHSEED=0, in a child process per
game and seat count that plays a warm-up game and then seeds 0 to N-1 (--games, default
100 here), minus a child that plays the warm-up game alone (start-up, imports and the caches
a first game fills), divided by N. The same seeds play the same games, so two runs of the
same code count the same. The caches a process fills as it plays (the menus' shared action
objects, which name card slots, GETGEM's hands) keep growing over hundreds of games, so the
figure falls as N grows: compare figures of the same N. With `--against REF` it
measures the git revision REF too (extracted to a temporary directory, its own
`scripts/bench_engine.py` playout and engine) and prints the change in per cent. A figure
before and after a change made for speed: `--instructions --against main`. Valgrind runs a
program some fifty times slower: 100 five-seat GETGEM games take about half a minute.

Instructions alone misled once: GETGEM executed 5% fewer after the one dealer and ran 4-7%
slower, its new code reaching more of the interpreter's C (builtins that parse keywords on
every call, generators) and missing the instruction cache 28% more often. So valgrind also
simulates the caches and branch predictor, and the line prints an estimate of cycles:
instructions + 12 per first-level cache miss + 150 per last-level miss + 15 per mispredicted
branch (rough latencies of a current x86 core; what matters is that misses count). That
estimate tracked the CPU time of both GETGEM trees within a point or two.
"""

import argparse
import contextlib
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

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
    parser.add_argument("--games", type=int, default=None, help="default 1000 (100 counting)")
    parser.add_argument("--seats", default=None, help="seat counts (default: per game)")
    parser.add_argument("--game", default=",".join(games.names()), help="default: every game")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each (the best printed)")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="instructions a game, counted by valgrind, not CPU time (how: this file's docstring)",
    )
    parser.add_argument("--against", help="with --instructions: a git revision to compare with")
    args = parser.parse_args()
    with revision_tree(args.against) if args.against else contextlib.nullcontext() as ref_root:
        for game in args.game.split(","):
            seat_counts = (
                [int(s) for s in args.seats.split(",")]
                if args.seats
                else games.info(game).bench.seats
            )
            for seats in seat_counts:
                if args.instructions:
                    count_instructions(game, seats, args.games or 100, args.against, ref_root)
                else:
                    bench(game, seats, args.games or 1000, args.repeat)


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


def count_instructions(
    game: str, seats: int, count: int, ref: str | None, ref_root: Path | None
) -> None:
    """Print the instructions a random game costs here (and under `ref_root`, the tree of
    the git revision `ref`)."""
    here = _per_game(Path(__file__).resolve().parent.parent, game, seats, count)
    line = (
        f"{game} {seats} seats: {here.instructions / 1e6:8.3f}M instructions, "
        f"{here.cycles / 1e6:8.3f}M cycles (est.) a game ({count} games)"
    )
    if ref_root is not None:
        there = _per_game(ref_root, game, seats, count)
        line += (
            f" | {ref}: {there.instructions / 1e6:8.3f}M, {there.cycles / 1e6:8.3f}M; here "
            f"{change_in_per_cent(here.instructions, there.instructions)} instructions, "
            f"{change_in_per_cent(here.cycles, there.cycles)} cycles"
        )
    print(line, flush=True)


def change_in_per_cent(here: float, there: float) -> str:
    """`here` against `there`, as a signed percentage."""
    return f"{100 * (here - there) / there:+.1f}%"


class Costs(NamedTuple):
    """What valgrind counted and simulated for a run (or a game: a difference of runs)."""

    instructions: float
    l1_misses: float  # first-level instruction and data cache misses
    ll_misses: float  # last-level cache misses
    mispredicts: float  # mispredicted branches, conditional and indirect

    def less(self, baseline: "Costs", per: int) -> "Costs":
        """What this run cost beyond `baseline` (a run that only sets up), per unit of `per`
        (games, search nodes)."""
        return Costs(*((a - b) / per for a, b in zip(self, baseline, strict=True)))

    @property
    def cycles(self) -> float:
        """A rough estimate of the cycles spent (the module's docstring gives the weights)."""
        misses = 12 * self.l1_misses + 150 * self.ll_misses
        return self.instructions + misses + 15 * self.mispredicts


def _per_game(root: Path, game: str, seats: int, count: int) -> Costs:
    """Costs a game of `count` seeded random games, played by the code under `root`."""
    runs = _costs(root, game, seats, count), _costs(root, game, seats, 0)
    return runs[0].less(runs[1], count)


def _costs(root: Path, game: str, seats: int, count: int) -> Costs:
    """Costs valgrind counts and simulates in a child that plays the warm-up game and `count`
    seeded games with `root`'s own engine and `scripts/bench_engine.py` playout."""
    program = (
        "import sys; sys.path.insert(1, sys.argv[1]); import bench_engine; "
        "game, seats, count = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]); "
        "[bench_engine.playout(game, seats, seed) for seed in range(-1, count)]"
    )
    return valgrind_costs(root, [program, str(root / "scripts"), game, str(seats), str(count)])[0]


def valgrind_costs(root: Path, arguments: list[str]) -> tuple[Costs, str]:
    """Costs valgrind counts and simulates in `python -c *arguments` run on the code under
    `root` with PYTHONHASHSEED=0, and what the child printed."""
    if shutil.which("valgrind") is None:
        sys.exit("error: counting instructions needs valgrind (apt install valgrind)")
    command = [sys.executable, "-c", *arguments]
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(root)}
    # A first run compiles the tree's modules, so that every counted run loads the same files;
    # it runs the program as counted, as the program's own arguments say what it loads.
    for counted in (False, True):
        valgrind = ["valgrind", "--tool=cachegrind", "--cache-sim=yes", "--branch-sim=yes"]
        valgrind.append("--cachegrind-out-file=/dev/null")
        run = valgrind + command if counted else command
        done = subprocess.run(run, cwd=root, env=env, capture_output=True, text=True)
        if done.returncode != 0:  # an old tree that cannot play what is asked, say
            last = (done.stderr.strip().splitlines() or ["no message"])[-1]
            sys.exit(f"error: the code under {root} cannot run the count: {last}")
    counts = {}
    for name in ("I   refs", "I1  misses", "D1  misses", "LL misses", "Mispredicts"):
        found = re.search(name + r":\s+([\d,]+)", done.stderr)
        if found is None:
            sys.exit(f"valgrind printed no {name.split()[0]} count: {done.stderr[-500:]}")
        counts[name] = int(found.group(1).replace(",", ""))
    costs = Costs(
        counts["I   refs"],
        counts["I1  misses"] + counts["D1  misses"],
        counts["LL misses"],
        counts["Mispredicts"],
    )
    return costs, done.stdout


@contextlib.contextmanager
def revision_tree(ref: str) -> Iterator[Path]:
    """The files of git revision `ref`, in a temporary directory while the block runs."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "archive", ref], capture_output=True)
        if archive.returncode != 0:
            told = archive.stderr.decode(errors="replace").strip().splitlines() or ["no message"]
            sys.exit(f"error: cannot read the git revision {ref!r}: {told[-1]}")
        Path(tmp, "tree.tar").write_bytes(archive.stdout)
        with tarfile.open(Path(tmp, "tree.tar")) as tar:
            tar.extractall(tmp, filter="data")
        yield Path(tmp)


if __name__ == "__main__":
    main()
