"""Tune a game's evaluation weights by the games they win (SPSA), and write them.

    .venv/bin/python scripts/tune_by_play.py --game rpg-get [--iterations 60] [--pairs 50]
                                             [--jobs 1] [--check 500] [--positions PATH]
                                             [--seed 1] [--start PATH] [--out PATH]
                                             [--dry-run]

`scripts/tune_weights.py` fits weights that predict who wins a position; a fit that predicts
well can still choose badly, because what comes with winning (a party spent on missions) is
not what makes a win. This script fits them to the games they win instead, as engine
tuners do (simultaneous perturbation stochastic approximation): each iteration perturbs
every weight at once by a random sign times its step, has greedy on the weights plus the
steps play greedy on the weights minus them (`--pairs` deals, each played from both seats),
and moves every weight along its sign by how much the plus side won. Greedy picks by the
order of values only, so the weights' overall size is held where it started (their sum in
units of each starting weight); with `--positions` (a positions file of
`scripts/tune_weights.py`) the size is then fitted to those games' positions by log-loss,
so that the search, which sets values beside certain wins and losses, reads them as odds.
Each weight stays within the sign the game's tuning gives it. At the end greedy on the
result plays greedy on the starting weights over `--check` deals from both seats.

The games are the tuning's (`ai.tuning.Tuning.start`): for own-deck games every pairing of
the shipped decks in turn. Iteration k plays game numbers from k * pairs on, so a rerun with
the same seed and arguments plays the same games and finds the same weights.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import NamedTuple

from tune_weights import (
    Sample,
    StoreError,
    best_factor,
    project,
    read_store,
    render_weights,
    tunable,
    tuning_of,
)

from ai.agents import make_agent
from ai.evaluation import WEIGHTS_DIR
from ai.ratings import wilson
from ai.tuning import Tuning
from p2pcards.dealer import LocalDealer
from p2pcards.errors import P2PCardsError

STEP = 0.3
"""How far a weight is perturbed, as a share of its starting size."""
GAIN = 4.0
"""How far a weight moves per point of the plus side's net win share, in its steps."""
DECAY = 0.602, 10
"""The gain's decay over iterations, (k + 10) ** -0.602: SPSA's usual schedule."""


class Duel(NamedTuple):
    """One deal played from both seats: the game's number and the two weights files."""

    number: int
    first: str
    second: str


def duel(game: str, match: Duel) -> float:
    """`first`'s points over the deal played twice, seats swapped (0 to 2; a shared win
    counts its share)."""
    tuning = tuning_of(game)
    points = 0.0
    for first_seat in (0, 1):
        files = [match.first, match.second] if first_seat == 0 else [match.second, match.first]
        state = tuning.start(match.number)
        agents = [
            make_agent(f"greedy:weights={files[seat]}", seed=match.number * 2 + seat)
            for seat in range(2)
        ]
        dealer = LocalDealer(match.number)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(dealer.sample(state))
            else:
                seat = state.current_player()
                state.apply_action(agents[seat].act(state.observation(seat)))
        points += state.returns()[first_seat]
    return points


def play(game: str, matches: list[Duel], jobs: int) -> float:
    """The first side's points over `matches`."""
    if jobs <= 1:
        return sum(duel(game, m) for m in matches)
    with ProcessPoolExecutor(jobs) as pool:
        return sum(pool.map(duel, [game] * len(matches), matches))


def sizes(start: Sequence[float]) -> list[float]:
    """Each weight's unit of steps: its starting size, or for a weight starting at 0 the
    median size of the others (a feature's unit is then a guess)."""
    nonzero = sorted(abs(v) for v in start if v)
    middle = nonzero[len(nonzero) // 2] if nonzero else 1.0
    return [abs(v) or middle for v in start]


def resized(w: Sequence[float], unit: Sequence[float], total: float) -> list[float]:
    """`w` scaled so that its size in units (the sum of |w_i| / unit_i) is `total`."""
    size = sum(abs(v) / u for v, u in zip(w, unit, strict=True))
    return [v * total / size for v in w] if size else list(w)


class Tuner:
    """The SPSA iterations, their weights files written in a scratch folder."""

    def __init__(
        self, game: str, hyper: float, folder: Path, jobs: int, pairs: int, seed: int
    ) -> None:
        """`hyper`: the evaluation's hyperparameter (rpg-battle's hp_scale), kept as it is."""
        self.game, self.hyper, self.folder, self.jobs, self.pairs = game, hyper, folder, jobs, pairs
        self.tuning = tuning_of(game)
        self.rng = random.Random(seed)
        self.written = 0

    def write(self, w: Sequence[float], out: Path | None = None) -> Path:
        """A weights file of `w` (log-odds) for greedy to read."""
        if out is None:
            self.written += 1
            out = self.folder / f"w{self.written}.toml"
        out.write_text(render_weights(self.tuning, self.hyper, w), encoding="utf-8")
        return out

    def step(self, k: int, w: list[float], unit: list[float]) -> tuple[list[float], float]:
        """Iteration `k` from `w`: the new weights and the plus side's net win share."""
        signs = [self.rng.choice((-1.0, 1.0)) for _ in w]

        def along(by: float) -> list[float]:
            """`w` moved `by` steps along the signs, within the tuning's signs."""
            moved = [v + by * u * s for v, u, s in zip(w, unit, signs, strict=True)]
            return project(moved, self.tuning.sign_list())

        first, second = str(self.write(along(STEP))), str(self.write(along(-STEP)))
        matches = [Duel(k * self.pairs + j, first, second) for j in range(self.pairs)]
        net = play(self.game, matches, self.jobs) / self.pairs - 1  # points are 0 to 2 a deal
        gain = GAIN * ((1 + DECAY[1]) / (k + 1 + DECAY[1])) ** DECAY[0]
        return along(gain * STEP * net), net


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=tunable(), required=True)
    parser.add_argument("--iterations", type=int, default=60)
    parser.add_argument("--pairs", type=int, default=50, help="deals an iteration, each twice")
    parser.add_argument("--check", type=int, default=500, help="deals of the final check")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--positions", type=Path, help="a tune_weights.py positions file to fit the size to"
    )
    parser.add_argument(
        "--start", type=Path, help="the weights to start from; default the shipped ones"
    )
    parser.add_argument("--out", type=Path, help="default ai/weights/<game>.toml")
    parser.add_argument("--dry-run", action="store_true", help="print, do not write")
    args = parser.parse_args(argv)
    for name in ("iterations", "pairs", "check", "jobs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be 1 or more")
    shipped = WEIGHTS_DIR / f"{args.game}.toml"
    begun: Path = args.start or shipped
    out: Path = args.out or shipped
    # Both files are read before any game is played, so that a bad one costs a line, not
    # the run.
    try:
        hyper, start = tuning_of(args.game).current(begun)
        samples = None if args.positions is None else positions_of(args.positions, args.game)
    except P2PCardsError as err:
        parser.error(str(err))  # exits 2
    with tempfile.TemporaryDirectory(prefix="tune-by-play-") as scratch:
        tuner = Tuner(args.game, hyper, Path(scratch), args.jobs, args.pairs, args.seed)
        unit = sizes(start)
        total = sum(abs(v) / u for v, u in zip(start, unit, strict=True))
        w = list(start)
        for k in range(args.iterations):
            w, net = tuner.step(k, w, unit)
            w = resized(w, unit, total)
            print(f"iteration {k + 1}: plus side {net:+.2f}; " + fmt_short(tuner.tuning, w))
        tuned = tuner.write(w)
        # Game numbers apart from the tuning's, so the check is on deals it never saw.
        check = [Duel(10**6 + j, str(tuned), str(begun)) for j in range(args.check)]
        points = play(args.game, check, args.jobs)
        low, high = wilson(points, 2 * args.check)
        versus = (
            f"greedy on them beat greedy on the weights they started from {points:g}/"
            f"{2 * args.check} = {points / (2 * args.check):.1%} [95% {low:.1%}, {high:.1%}]"
            + ("" if args.start is None else f" ({args.start})")
        )
        print(versus)
        factor = None
        if samples is not None:
            factor = best_factor(tuner.tuning, tuned, samples)
            if factor is not None and factor > 0:
                w = [v * factor for v in w]
    words = sys.argv[1:] if argv is None else list(argv)
    header = [
        f"# Weights of the {args.game} evaluation, tuned by the games they win:",
        "#     " + " ".join([".venv/bin/python scripts/tune_by_play.py", *words]),
        f"# ({args.iterations} SPSA iterations of {2 * args.pairs} greedy games; "
        + versus[0].lower()
        + versus[1:]
        + " over deals apart from the tuning's).",
    ]
    if factor is not None:
        header.append(
            f"# Their size fitted by log-loss to the positions of {args.positions}: x{factor:.3f}."
        )
    text = "\n".join(header) + "\n" + render_weights(tuner.tuning, hyper, w)
    print(text)
    if not args.dry_run:
        out.write_text(text, encoding="utf-8")
        print(f"wrote {out}")


def fmt_short(tuning: Tuning, w: Sequence[float]) -> str:
    """Weights as name=value, three figures."""
    return " ".join(f"{n}={v:.3g}" for n, v in zip(tuning.features, w, strict=True))


def positions_of(path: Path, game: str) -> list[Sample]:
    """The positions a `scripts/tune_weights.py` positions file holds, whatever epsilon and
    agent played them (its first line says which); StoreError if it holds none of `game`."""
    try:
        with path.open(encoding="utf-8") as lines:
            first = json.loads(next(lines))
        epsilon, agent = float(first["epsilon"]), str(first["agent"])
    except StopIteration:
        raise StoreError(f"positions {path}: empty") from None
    except OSError as err:
        raise StoreError(f"cannot read positions {path}: {err}") from None
    except (ValueError, KeyError, TypeError, RecursionError) as err:
        raise StoreError(f"cannot read positions {path}: line 1 is not a game ({err})") from None
    return [s for played in read_store(path, game, epsilon, agent).values() for s in played]


if __name__ == "__main__":
    main()
