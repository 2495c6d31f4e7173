"""Fit a game's evaluation weights to played games, and write ai/weights/<game>.toml.

    .venv/bin/python scripts/tune_weights.py [--game rpg-battle] [--games 1500] [--epsilon 0.1]
                                             [--agent greedy] [--jobs 2] [--out PATH] [--dry-run]

Two agents of `--agent`'s spec (default greedy; issue 28 asks for the current AI's
self-play, e.g. `--agent expectimax:nodes=400`), each move random with probability
--epsilon for variety, play two-seat games; every sampled decision is a sample: the
difference of the two seats' features, and who won. A logistic regression (Newton's method, no
intercept, so swapping the seats negates the prediction) fits the weights for
each candidate of the game's hyperparameter (rpg-battle's hp_scale; Rise of the
Guys has none); the one with the lowest log-loss on held-out games wins (every
fifth game is held out). Positions of one game are alike, so only every fourth
one is kept. The evaluation's unit is then 1/scale of a log-odds step.

What differs by game is one `ai.tuning.Tuning`, in the game's evaluation module, which its
registration names (`GameInfo.tuning`): rpg-battle samples every decision after the draft,
its features read from the complete state; the games of own decks (Rise of the Guys,
Gammasphere: `ai.tuning.OwnDecks`) play their shipped decks, every pairing from each seat
in turn, sample every decision (after the mulligans), and read the features as the
evaluation would on the seat to move's replica (an opponent's face-down Guy is a
`hidden_guys`).
"""

from __future__ import annotations

import argparse
import functools
import math
import os
import random
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from ai.agents import make_agent
from ai.evaluation import WEIGHTS_DIR
from ai.evaluation import weighted as dot
from ai.tuning import Outcome, Tuning
from p2pcards import games
from p2pcards.dealer import LocalDealer
from p2pcards.errors import P2PCardsError

KEEP_EVERY = 4

Sample = tuple[dict[float, list[float]], float]  # features by hyperparameter, seat 0's result


def tuning_of(game: str) -> Tuning:
    """How a game's weights are fitted: what its registration names (`GameInfo.tuning`)."""
    where = games.info(game).tuning
    if where is None:
        raise SystemExit(f"{game} has no weights to fit")
    tuning = games.resolve(where)
    assert isinstance(tuning, Tuning), where
    return tuning


def tunable() -> list[str]:
    """The games whose registration says how to fit their weights."""
    return [name for name in games.names() if games.info(name).tuning is not None]


def play(game: str, epsilon: float, number: int, agent: str = "greedy") -> list[Sample]:
    """Game `number` between two noisy agents of the spec `agent`: its sampled positions."""
    tuning = tuning_of(game)
    state = tuning.start(number)
    agents = [make_agent(agent, seed=number * 2 + seat) for seat in range(2)]
    dealer = LocalDealer(number)
    noise = random.Random(-number)
    positions: list[dict[float, list[float]]] = []
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(dealer.sample(state))
            continue
        seat = state.current_player()
        if tuning.sampled(state):
            decisions += 1
            if decisions % KEEP_EVERY == 0:
                positions.append({h: tuning.difference(state, h) for h in tuning.candidates})
        if noise.random() < epsilon:
            action = noise.choice(state.legal_actions())
        else:
            action = agents[seat].act(state.observation(seat))
        state.apply_action(action)
    result = state.returns()[0]
    return [(p, result) for p in positions]


def play_all(
    game: str, count: int, epsilon: float, jobs: int, agent: str = "greedy"
) -> list[list[Sample]]:
    """Games 0 .. count-1, in `jobs` processes (one: in this one)."""
    one_game = functools.partial(play, game, epsilon, agent=agent)
    if jobs <= 1:
        return [one_game(number) for number in range(count)]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(one_game, range(count)))


def split(played: list[list[Sample]]) -> tuple[list[Sample], list[Sample]]:
    """Training and held-out positions: every fifth game is held out."""
    train = [s for number, game in enumerate(played) if number % 5 for s in game]
    held = [s for number, game in enumerate(played) if not number % 5 for s in game]
    return train, held


def fit(xs: list[list[float]], ys: list[float], ridge: float = 1e-3) -> list[float]:
    """Logistic regression without intercept by Newton's method (results may be 0.5)."""
    k = len(xs[0])
    w = [0.0] * k
    for _ in range(25):
        grad = [-ridge * wi for wi in w]
        hess = [[ridge if i == j else 0.0 for j in range(k)] for i in range(k)]
        for x, y in zip(xs, ys, strict=True):
            p = 1 / (1 + math.exp(-max(-30.0, min(30.0, dot(w, x)))))
            for i in range(k):
                grad[i] += (y - p) * x[i]
                for j in range(k):
                    hess[i][j] += p * (1 - p) * x[i] * x[j]
        step = solve(hess, grad)
        w = [wi + si for wi, si in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return w


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve a x = b by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[col][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def log_loss(w: list[float], xs: list[list[float]], ys: list[float]) -> float:
    """Mean negative log-likelihood of the results under weights w."""
    total = 0.0
    for x, y in zip(xs, ys, strict=True):
        z = max(-30.0, min(30.0, dot(w, x)))
        p = 1 / (1 + math.exp(-z))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(xs)


def current_loss(tuning: Tuning, path: Path, held: list[Sample]) -> float | None:
    """The held-out log-loss of the weights in `path`, if its hyperparameter was tried."""
    hyper, w = tuning.current(path)
    if hyper not in tuning.candidates:
        return None
    return log_loss(w, [x[hyper] for x, _ in held], [y for _, y in held])


def best_fit(
    tuning: Tuning, train: list[Sample], held: list[Sample]
) -> tuple[float, float, list[float]]:
    """The held-out log-loss, hyperparameter and weights of the best candidate's fit."""
    best: tuple[float, float, list[float]] | None = None
    for h in tuning.candidates:
        w = fit([x[h] for x, _ in train], [y for _, y in train])
        loss = log_loss(w, [x[h] for x, _ in held], [y for _, y in held])
        label = f"{tuning.hyper} {h:>4}" if tuning.hyper else "fit"
        print(f"{label}: held-out log-loss {loss:.4f}  weights {fmt(tuning, w)}")
        if best is None or loss < best[0]:
            best = (loss, h, w)
    assert best is not None
    return best


def render(tuning: Tuning, outcome: Outcome, hyper: float, w: Sequence[float]) -> str:
    """The weights file."""
    lines = [*tuning.header(outcome)]
    for name, value in zip(tuning.features, w, strict=True):
        line = f"{name} = {value:.6f}"
        lines.append(f"{line:<24}  # {tuning.notes[name]}" if name in tuning.notes else line)
    lines += [f"{name} = {value}" for name, value in tuning.settings(hyper).items()]
    return "\n".join(lines) + "\n"


def fmt(tuning: Tuning, w: list[float]) -> str:
    """Weights as name=value."""
    return " ".join(f"{n}={v:.4f}" for n, v in zip(tuning.features, w, strict=True))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=tunable(), default="rpg-battle")
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--agent", default="greedy", help="the spec of the agent that plays")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", type=Path, help="default ai/weights/<game>.toml")
    parser.add_argument("--dry-run", action="store_true", help="print, do not write")
    args = parser.parse_args(argv)
    tuning = tuning_of(args.game)
    try:
        make_agent(args.agent)
    except P2PCardsError as err:
        parser.error(str(err))  # exits 2
    out: Path = args.out or WEIGHTS_DIR / f"{args.game}.toml"
    played = play_all(args.game, args.games, args.epsilon, args.jobs, args.agent)
    train, held = split(played)
    print(f"{args.games} games: {len(train)} training positions, {len(held)} held out")
    current = current_loss(tuning, WEIGHTS_DIR / f"{args.game}.toml", held)  # the shipped ones
    if current is not None:
        print(f"current weights: held-out log-loss {current:.4f}")
    loss, hyper, w = best_fit(tuning, train, held)
    words = sys.argv[1:] if argv is None else list(argv)
    command = " ".join([".venv/bin/python scripts/tune_weights.py", *words])
    outcome = Outcome(args.games, args.epsilon, command, loss, current, args.agent)
    text = render(tuning, outcome, hyper, w)
    print(text)
    if not args.dry_run:
        out.write_text(text, encoding="utf-8")
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
