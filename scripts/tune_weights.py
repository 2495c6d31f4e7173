"""Fit a game's evaluation weights to played games, and write ai/weights/<game>.toml.

    .venv/bin/python scripts/tune_weights.py [--game rpg-battle] [--games 1500] [--epsilon 0.1]
                                             [--agent greedy] [--jobs 2] [--pull 0,0.01]
                                             [--out PATH] [--dry-run] [--positions FILE]

Two agents of `--agent`'s spec (default greedy; issue 28 asks for the current AI's
self-play, e.g. `--agent expectimax:nodes=400`), each move random with probability
--epsilon for variety, play two-seat games; every sampled decision is a sample: the
difference of the two seats' features, and who won. A logistic regression (no intercept, so
swapping the seats negates the prediction) fits the weights for each candidate of the game's
hyperparameter (rpg-battle's hp_scale; Rise of the Guys has none); the one with the lowest
log-loss on held-out games wins (every fifth game is held out). Positions of one game are
alike, so only every fourth one is kept. `--positions FILE` keeps them: a refit (other
pulls, signs) reads the file rather than playing the games again. The evaluation's unit is
then 1/scale of a log-odds step.

A game may hold each weight to a sign (`Tuning.signs`: at least 0, at most 0, or free); the
regression is then projected Newton's method, and the script prints the fit without the
signs too, to show what they cost in held-out log-loss. `--pull` tries L2 pulls of those
strengths toward the current weights, scaled by the factor that fits them best (for features
that move together, where the data alone cannot tell the weights apart), keeping the one of
the lowest held-out log-loss. It prints
the current weights' held-out log-loss, as they are and scaled by the one factor that fits
them best (their direction apart from their scale).

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
import json
import math
import os
import random
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import NamedTuple

from ai.agents import make_agent
from ai.evaluation import WEIGHTS_DIR
from ai.evaluation import weighted as dot
from ai.tuning import Outcome, Sign, Tuning
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


def save_played(path: Path, played: list[list[Sample]]) -> None:
    """The played games' samples, as JSON, for refits that need no replay."""
    games_out = [[[{str(h): x for h, x in p.items()}, y] for p, y in game] for game in played]
    path.write_text(json.dumps(games_out), encoding="utf-8")


def load_played(path: Path, width: int) -> list[list[Sample]]:
    """Samples `save_played` wrote, each of `width` features (ValueError: not such a file)."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        played = [
            [({float(h): [float(v) for v in x] for h, x in p.items()}, float(y)) for p, y in g]
            for g in raw
        ]
    except (OSError, ValueError, TypeError, AttributeError) as err:
        raise ValueError(f"{path}: not a positions file ({err})") from None
    if any(len(x) != width for game in played for p, _ in game for x in p.values()):
        raise ValueError(f"{path}: positions of other features than the fit's {width}")
    return played


def split(played: list[list[Sample]]) -> tuple[list[Sample], list[Sample]]:
    """Training and held-out positions: every fifth game is held out."""
    train = [s for number, game in enumerate(played) if number % 5 for s in game]
    held = [s for number, game in enumerate(played) if not number % 5 for s in game]
    return train, held


class Bounded(NamedTuple):
    """What a fit is held to: each weight's sign, and an L2 pull of strength `pull` (on the
    mean log-loss) toward `prior`; a tiny ridge toward 0 keeps Newton's steps finite."""

    signs: Sequence[Sign]
    prior: Sequence[float]
    pull: float = 0.0
    ridge: float = 1e-7


def fit(xs: list[list[float]], ys: list[float], bounds: Bounded | None = None) -> list[float]:
    """Logistic regression without intercept (results may be 0.5), each weight kept to its
    sign: projected Newton's method. A weight at its bound whose gradient points out of
    bounds is held there; Newton's step on the others is projected back into bounds and
    halved until the objective falls enough (Armijo); should it never, a projected gradient
    step is taken instead. The objective is convex, so the point where no weight can move
    is the constrained optimum."""
    k = len(xs[0])
    bounds = bounds or Bounded(["free"] * k, [0.0] * k)
    objective = functools.partial(_objective, xs, ys, bounds)
    w = _project([0.0] * k, bounds.signs)
    value = objective(w)
    for _ in range(100):
        grad, hess = _derivatives(xs, ys, bounds, w)
        moving = [i for i in range(k) if not _held(bounds.signs[i], w[i], grad[i])]
        if max((abs(grad[i]) for i in moving), default=0.0) < 1e-10:
            break
        step = [0.0] * k
        newton = solve([[hess[i][j] for j in moving] for i in moving], [-grad[i] for i in moving])
        for i, s in zip(moving, newton, strict=True):
            step[i] = s
        found = _descend(objective, w, value, grad, step, bounds.signs)
        if found is None:
            gradient_step = [-grad[i] if i in moving else 0.0 for i in range(k)]
            found = _descend(objective, w, value, grad, gradient_step, bounds.signs)
        if found is None:  # nowhere lower within rounding: the optimum
            break
        moved = max(abs(a - b) for a, b in zip(found[0], w, strict=True))
        w, value = found
        if moved < 1e-10:
            break
    return w


def _held(sign: Sign, weight: float, slope: float) -> bool:
    """Whether a weight sits at its sign's bound with the objective falling beyond it."""
    if sign == "nonnegative":
        return weight <= 0.0 and slope > 0.0
    if sign == "nonpositive":
        return weight >= 0.0 and slope < 0.0
    return False


def _project(w: Sequence[float], signs: Sequence[Sign]) -> list[float]:
    """The nearest weights of the right signs."""
    return [
        max(0.0, v) if sign == "nonnegative" else min(0.0, v) if sign == "nonpositive" else v
        for v, sign in zip(w, signs, strict=True)
    ]


def _descend(
    objective: Callable[[list[float]], float],
    w: list[float],
    value: float,
    grad: list[float],
    step: list[float],
    signs: Sequence[Sign],
) -> tuple[list[float], float] | None:
    """The first of w + step, w + step/2, ... (projected) where the objective falls by the
    Armijo margin, with its value; None if none does."""
    t = 1.0
    for _ in range(40):
        trial = _project([a + t * d for a, d in zip(w, step, strict=True)], signs)
        change = sum(g * (b - a) for g, a, b in zip(grad, w, trial, strict=True))
        if change < 0:
            trial_value = objective(trial)
            if trial_value <= value + 1e-4 * change:
                return trial, trial_value
        t /= 2
    return None


def _objective(xs: list[list[float]], ys: list[float], bounds: Bounded, w: list[float]) -> float:
    """The mean log-loss plus the pull and the ridge."""
    return log_loss(w, xs, ys) + _penalty(bounds, w)


def _penalty(bounds: Bounded, w: Sequence[float]) -> float:
    pulled = sum((a - b) ** 2 for a, b in zip(w, bounds.prior, strict=True))
    return bounds.pull / 2 * pulled + bounds.ridge / 2 * sum(a * a for a in w)


def _derivatives(
    xs: list[list[float]], ys: list[float], bounds: Bounded, w: list[float]
) -> tuple[list[float], list[list[float]]]:
    """The objective's gradient and Hessian at w."""
    k, n = len(w), len(xs)
    grad = [0.0] * k
    hess = [[0.0] * k for _ in range(k)]
    for x, y in zip(xs, ys, strict=True):
        p = 1 / (1 + math.exp(-max(-30.0, min(30.0, dot(w, x)))))
        r, c = p - y, p * (1 - p)
        for i in range(k):
            grad[i] += r * x[i]
            ci = c * x[i]
            row = hess[i]
            for j in range(i + 1):
                row[j] += ci * x[j]
    for i in range(k):
        grad[i] = grad[i] / n + bounds.pull * (w[i] - bounds.prior[i]) + bounds.ridge * w[i]
        for j in range(i + 1):
            hess[i][j] /= n
            hess[j][i] = hess[i][j]
        hess[i][i] += bounds.pull + bounds.ridge
    return grad, hess


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


def rescaled(
    tuning: Tuning, path: Path, train: list[Sample], held: list[Sample]
) -> tuple[float, float] | None:
    """The factor that fits the weights in `path` best to the training positions, all in
    proportion, and their held-out log-loss so scaled: how good their direction is, apart
    from their scale (hand-set weights are seldom in log-odds)."""
    hyper, w = tuning.current(path)
    if hyper not in tuning.candidates:
        return None
    along = [[dot(w, x[hyper])] for x, _ in train]
    factor = fit(along, [y for _, y in train], Bounded(["nonnegative"], [0.0]))[0]
    scaled = [factor * v for v in w]
    return factor, log_loss(scaled, [x[hyper] for x, _ in held], [y for _, y in held])


class Fitted(NamedTuple):
    """The chosen fit: its held-out log-loss, hyperparameter, pull and weights."""

    loss: float
    hyper: float
    pull: float
    weights: list[float]


def best_fit(
    tuning: Tuning,
    train: list[Sample],
    held: list[Sample],
    pulls: Sequence[float] = (0.0,),
    prior: Sequence[float] | None = None,
) -> Fitted:
    """The fit of the lowest held-out log-loss over the game's hyperparameter's candidates
    and the `pulls` toward `prior` (default none), each weight held to its sign; a game
    that declares signs is fitted without them too, to show what they cost."""
    signs = tuning.sign_list()
    prior = list(prior) if prior is not None else [0.0] * len(signs)
    best: Fitted | None = None
    for h in tuning.candidates:
        xs, ys = [x[h] for x, _ in train], [y for _, y in train]
        held_xs, held_ys = [x[h] for x, _ in held], [y for _, y in held]
        label = f"{tuning.hyper} {h:>4}" if tuning.hyper else "fit"
        if any(sign != "free" for sign in signs):
            w = fit(xs, ys)
            loss = log_loss(w, held_xs, held_ys)
            print(f"{label} without signs: held-out log-loss {loss:.4f}  weights {fmt(tuning, w)}")
        for pull in pulls:
            w = fit(xs, ys, Bounded(signs, prior, pull))
            loss = log_loss(w, held_xs, held_ys)
            pulled = f", pull {pull:g}" if pull else ""
            print(f"{label}{pulled}: held-out log-loss {loss:.4f}  weights {fmt(tuning, w)}")
            if best is None or loss < best.loss:
                best = Fitted(loss, h, pull, w)
    assert best is not None
    return best


def held_at_zero(tuning: Tuning, w: Sequence[float]) -> tuple[str, ...]:
    """The features of a sign whose fitted weight is 0: their sign bound."""
    return tuple(
        name
        for name, sign, value in zip(tuning.features, tuning.sign_list(), w, strict=True)
        if sign != "free" and value == 0.0
    )


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
    parser.add_argument(
        "--positions",
        type=Path,
        help="the played positions: read from this file if it exists (no game played), "
        "else played and written to it",
    )
    parser.add_argument(
        "--pull",
        default="0",
        help="strengths of an L2 pull toward the current weights (best scaled), comma-separated; "
        "the one of the lowest held-out log-loss is kept",
    )
    args = parser.parse_args(argv)
    try:
        pulls = [float(text) for text in args.pull.split(",")]
    except ValueError:
        parser.error(f"--pull takes numbers, comma-separated, not {args.pull!r}")
    if not all(math.isfinite(pull) and pull >= 0 for pull in pulls):
        parser.error(f"--pull strengths must be 0 or more, not {args.pull!r}")
    tuning = tuning_of(args.game)
    try:
        make_agent(args.agent)
    except P2PCardsError as err:
        parser.error(str(err))  # exits 2
    out: Path = args.out or WEIGHTS_DIR / f"{args.game}.toml"
    if args.positions is not None and args.positions.exists():
        try:
            played = load_played(args.positions, len(tuning.features))
        except ValueError as err:
            parser.error(str(err))  # exits 2
    else:
        played = play_all(args.game, args.games, args.epsilon, args.jobs, args.agent)
        if args.positions is not None:
            save_played(args.positions, played)
    train, held = split(played)
    print(f"{args.games} games: {len(train)} training positions, {len(held)} held out")
    shipped = WEIGHTS_DIR / f"{args.game}.toml"
    current = current_loss(tuning, shipped, held)
    scaled = rescaled(tuning, shipped, train, held)
    if current is not None and scaled is not None:
        print(
            f"current weights: held-out log-loss {current:.4f}; times {scaled[0]:.3f}, "
            f"the factor that fits them best: {scaled[1]:.4f}"
        )
    # The pull is toward the current weights' direction, at the scale that fits them best:
    # hand-set weights are seldom in log-odds, and a pull toward their scale would shrink or
    # swell every weight alike, which is no part of what they say.
    factor = 1.0 if scaled is None else scaled[0]
    prior = [factor * v for v in tuning.current(shipped)[1]]
    best = best_fit(tuning, train, held, pulls, prior)
    words = sys.argv[1:] if argv is None else list(argv)
    command = " ".join([".venv/bin/python scripts/tune_weights.py", *words])
    outcome = Outcome(
        args.games,
        args.epsilon,
        command,
        best.loss,
        current,
        args.agent,
        held_at_zero(tuning, best.weights),
        best.pull,
    )
    text = render(tuning, outcome, best.hyper, best.weights)
    print(text)
    if not args.dry_run:
        out.write_text(text, encoding="utf-8")
        print(f"wrote {out}")


if __name__ == "__main__":
    main()
