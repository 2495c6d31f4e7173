"""Fit a game's evaluation weights to played games, and write ai/weights/<game>.toml.

    .venv/bin/python scripts/tune_weights.py [--game rpg-battle] [--games 1500] [--epsilon 0.1]
                                             [--agent greedy] [--jobs 2] [--pull 0,1e3,inf]
                                             [--cross-validate] [--positions PATH]
                                             [--out PATH] [--dry-run]

Two agents of `--agent`'s spec (default greedy; issue 28 asks for the current AI's
self-play, e.g. `--agent expectimax:nodes=400`), each move random with probability
--epsilon for variety, play two-seat games; every sampled decision is a sample: the
difference of the two seats' features, and who won. A logistic regression (no intercept, so
swapping the seats negates the prediction) fits the weights for each candidate of the game's
hyperparameter (rpg-battle's hp_scale; Rise of the Guys has none); the one with the lowest
log-loss on held-out games wins (every fifth game is held out). Positions of one game are
alike, so only every fourth one is kept. The evaluation's unit is then 1/scale of a
log-odds step. `--positions` keeps the games' positions in a file (one line a game, added
as each ends), so that a run stopped half-way keeps what it played and a refit plays
nothing again.

A game may hold each weight to a sign (`Tuning.signs`: at least 0, at most 0, or free); the
regression is then projected Newton's method, and the script prints the fit without the
signs too, to show what they cost in held-out log-loss. `--pull` tries L2 pulls toward the
current weights, scaled by the factor that fits them best (for features that move together,
where the data alone cannot tell the weights apart), keeping the one of the lowest held-out
log-loss. A pull's strength counts positions: a pull of 1000 weighs like 1000 positions at
even odds (each weight's pull scaled by its feature's spread, so that HP and cards count
alike), and `inf` is the current weights best scaled, so that a choice among pulls up to
`inf` is never worse held out than they. `--cross-validate` chooses the pull by every game
held out once (five splits by game) rather than the first fifth alone, which holds out too
few games of expensive self-play to tell pulls apart. It prints the current weights'
held-out log-loss, as they are and scaled by the one factor that fits them best (their
direction apart from their scale).

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
from collections.abc import Callable, Iterable, Sequence
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
    game: str,
    count: int,
    epsilon: float,
    jobs: int,
    agent: str = "greedy",
    store: Path | None = None,
) -> list[list[Sample]]:
    """Games 0 .. count-1, in `jobs` processes (one: in this one). With a `store`, the games
    it holds are read rather than played, and each game played is appended to it as it ends,
    so a long run stopped half-way keeps what it played and a refit replays nothing."""
    kept = read_store(store, game, epsilon, agent) if store is not None else {}
    missing = [number for number in range(count) if number not in kept]
    one_game = functools.partial(play, game, epsilon, agent=agent)
    if jobs <= 1:
        results: Iterable[list[Sample]] = map(one_game, missing)
        played = _keep(store, game, epsilon, agent, missing, results)
    else:
        with ProcessPoolExecutor(jobs) as pool:
            results = pool.map(one_game, missing)
            played = _keep(store, game, epsilon, agent, missing, results)
    kept.update(played)
    return [kept[number] for number in range(count)]


class StoreError(P2PCardsError, ValueError):
    """A positions file that is unreadable or was played otherwise than this run asks."""


def read_store(store: Path, game: str, epsilon: float, agent: str) -> dict[int, list[Sample]]:
    """The games a positions file holds, by number; a file of another game, epsilon or agent
    is refused (its positions would be mixed with this run's without a word)."""
    kept: dict[int, list[Sample]] = {}
    if not store.exists():
        return kept
    try:
        lines = store.read_text(encoding="utf-8").splitlines()
    except OSError as err:
        raise StoreError(f"cannot read positions {store}: {err}") from None
    tuning = tuning_of(game)
    for line_number, line in enumerate(lines, 1):
        where = f"positions {store} line {line_number}"
        try:
            record = json.loads(line)
            played = (record["game"], record["epsilon"], record["agent"])
            number, result = record["number"], float(record["result"])
            positions = [
                {float(h): [float(v) for v in x] for h, x in p.items()} for p in record["positions"]
            ]
        except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as err:
            raise StoreError(f"{where}: not a game ({err})") from None
        wanted = (game, epsilon, agent)
        if played != wanted:
            raise StoreError(f"{where} are of {played}, not {wanted}")
        problem = _store_problem(number, result, positions, tuning)
        if problem:
            raise StoreError(f"{where}: {problem}")
        kept[number] = [(p, result) for p in positions]
    return kept


def _store_problem(
    number: object, result: float, positions: list[dict[float, list[float]]], tuning: Tuning
) -> str:
    """What is wrong with a stored game's values ("" if nothing): a file edited or written by
    other code must not put a game out of range, nor a vector the fit would misread."""
    if not isinstance(number, int) or isinstance(number, bool) or number < 0:
        return f"a game's number is a whole number 0 or more, not {number!r}"
    if not 0.0 <= result <= 1.0:
        return f"a result is 0 to 1, not {result!r}"
    width, candidates = len(tuning.features), set(tuning.candidates)
    for p in positions:
        if set(p) != candidates:
            return f"positions are by {sorted(candidates)}, not {sorted(p)}"
        for vector in p.values():
            if len(vector) != width or not all(math.isfinite(v) for v in vector):
                return f"a position is {width} finite numbers, not {vector!r:.60}"
    return ""


def _keep(
    store: Path | None,
    game: str,
    epsilon: float,
    agent: str,
    numbers: list[int],
    results: Iterable[list[Sample]],
) -> dict[int, list[Sample]]:
    """The games as they come, each appended to `store` (if any) as it ends."""
    played: dict[int, list[Sample]] = {}
    for number, samples in zip(numbers, results, strict=True):
        played[number] = samples
        if store is None:
            continue
        result = samples[0][1] if samples else 0.5
        record = {
            "game": game,
            "epsilon": epsilon,
            "agent": agent,
            "number": number,
            "result": result,
            "positions": [{str(h): x for h, x in p.items()} for p, _ in samples],
        }
        with store.open("a", encoding="utf-8") as out:
            out.write(json.dumps(record) + "\n")
    return played


FOLDS = 5


def split(played: list[list[Sample]], fold: int = 0) -> tuple[list[Sample], list[Sample]]:
    """Training and held-out positions: every fifth game is held out (of the numbers
    `fold` modulo 5), whole games, for the positions of one game are alike."""
    train = [s for number, game in enumerate(played) if number % FOLDS != fold for s in game]
    held = [s for number, game in enumerate(played) if number % FOLDS == fold for s in game]
    return train, held


class Bounded(NamedTuple):
    """What a fit is held to: each weight's sign, and an L2 pull toward `prior` as strong as
    `pull` positions at even odds would be (each weight's pull scaled by its feature's
    Fisher information there, mean x*x/4, so that it says the same for a feature counted
    in tens of HP as for one counted in cards; `inf`: the prior itself, within the signs);
    a tiny ridge toward 0 keeps Newton's steps finite."""

    signs: Sequence[Sign]
    prior: Sequence[float]
    pull: float = 0.0
    ridge: float = 1e-7

    def stiffness(self, xs: list[list[float]]) -> list[float]:
        """Each weight's pull on the mean log-loss of the positions `xs`."""
        if not self.pull:
            return [0.0] * len(self.prior)
        n = len(xs)
        return [
            self.pull / n * sum(x[i] * x[i] for x in xs) / n / 4 for i in range(len(self.prior))
        ]


def fit(xs: list[list[float]], ys: list[float], bounds: Bounded | None = None) -> list[float]:
    """Logistic regression without intercept (results may be 0.5), each weight kept to its
    sign: projected Newton's method. A weight at its bound whose gradient points out of
    bounds is held there; Newton's step on the others is projected back into bounds and
    halved until the objective falls enough (Armijo); should it never, a projected gradient
    step is taken instead. The objective is convex, so the point where no weight can move
    is the constrained optimum."""
    k = len(xs[0])
    bounds = bounds or Bounded(["free"] * k, [0.0] * k)
    if math.isinf(bounds.pull):
        return project(bounds.prior, bounds.signs)
    stiff = bounds.stiffness(xs)
    objective = functools.partial(_objective, xs, ys, bounds, stiff)
    w = project([0.0] * k, bounds.signs)
    value = objective(w)
    for _ in range(100):
        grad, hess = _derivatives(xs, ys, bounds, stiff, w)
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


def project(w: Sequence[float], signs: Sequence[Sign]) -> list[float]:
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
        trial = project([a + t * d for a, d in zip(w, step, strict=True)], signs)
        change = sum(g * (b - a) for g, a, b in zip(grad, w, trial, strict=True))
        if change < 0:
            trial_value = objective(trial)
            if trial_value <= value + 1e-4 * change:
                return trial, trial_value
        t /= 2
    return None


def _objective(
    xs: list[list[float]], ys: list[float], bounds: Bounded, stiff: list[float], w: list[float]
) -> float:
    """The mean log-loss plus the pull (each weight's `stiff`ness) and the ridge."""
    pulled = sum(s * (a - b) ** 2 for s, a, b in zip(stiff, w, bounds.prior, strict=True))
    return log_loss(w, xs, ys) + pulled / 2 + bounds.ridge / 2 * sum(a * a for a in w)


def _derivatives(
    xs: list[list[float]], ys: list[float], bounds: Bounded, stiff: list[float], w: list[float]
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
        grad[i] = grad[i] / n + stiff[i] * (w[i] - bounds.prior[i]) + bounds.ridge * w[i]
        for j in range(i + 1):
            hess[i][j] /= n
            hess[j][i] = hess[i][j]
        hess[i][i] += stiff[i] + bounds.ridge
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


def best_factor(tuning: Tuning, path: Path, train: list[Sample]) -> float | None:
    """The factor that fits the weights in `path` best to the training positions, all in
    proportion (None if their hyperparameter was not tried)."""
    hyper, w = tuning.current(path)
    if hyper not in tuning.candidates:
        return None
    along = [[dot(w, x[hyper])] for x, _ in train]
    return fit(along, [y for _, y in train], Bounded(["nonnegative"], [0.0]))[0]


def rescaled(
    tuning: Tuning, path: Path, train: list[Sample], held: list[Sample]
) -> tuple[float, float] | None:
    """The factor that fits the weights in `path` best to the training positions, and
    their held-out log-loss so scaled: how good their direction is, apart from their scale
    (hand-set weights are seldom in log-odds)."""
    factor = best_factor(tuning, path, train)
    if factor is None:
        return None
    hyper, w = tuning.current(path)
    scaled = [factor * v for v in w]
    return factor, log_loss(scaled, [x[hyper] for x, _ in held], [y for _, y in held])


def scaled_prior(tuning: Tuning, path: Path, train: list[Sample]) -> list[float]:
    """What a pull pulls toward: the weights in `path` times the factor that fits them
    best. Hand-set weights are seldom in log-odds, and a pull toward their own scale would
    shrink or swell every weight alike, which is no part of what they say."""
    factor = best_factor(tuning, path, train)
    return [(1.0 if factor is None else factor) * v for v in tuning.current(path)[1]]


class Fitted(NamedTuple):
    """The chosen fit: its held-out log-loss, hyperparameter, pull and weights."""

    loss: float
    hyper: float
    pull: float
    weights: list[float]


class Trial(NamedTuple):
    """One fit tried: the hyperparameter, the pull (None: neither pull nor signs), its
    held-out log-loss and its weights."""

    hyper: float
    pull: float | None
    loss: float
    weights: list[float]

    def label(self, tuning: Tuning) -> str:
        """What was tried, in words."""
        label = f"{tuning.hyper} {self.hyper:>4}" if tuning.hyper else "fit"
        if self.pull is None:
            return f"{label} without signs"
        return f"{label}, pull {self.pull:g}" if self.pull else label


def trials(
    tuning: Tuning,
    train: list[Sample],
    held: list[Sample],
    pulls: Sequence[float],
    prior: Sequence[float],
) -> list[Trial]:
    """A fit for each of the game's hyperparameter's candidates and each of the `pulls`
    toward `prior`, held to the signs; a game that declares signs is fitted without them
    too, to show what they cost."""
    signs = tuning.sign_list()
    tried = []
    for h in tuning.candidates:
        xs, ys = [x[h] for x, _ in train], [y for _, y in train]
        held_xs, held_ys = [x[h] for x, _ in held], [y for _, y in held]
        bounds: list[Bounded | None] = [Bounded(signs, prior, pull) for pull in pulls]
        if any(sign != "free" for sign in signs):
            bounds.insert(0, None)
        for bound in bounds:
            w = fit(xs, ys, bound)
            pull = None if bound is None else bound.pull
            tried.append(Trial(h, pull, log_loss(w, held_xs, held_ys), w))
    return tried


def best_fit(
    tuning: Tuning,
    train: list[Sample],
    held: list[Sample],
    pulls: Sequence[float] = (0.0,),
    prior: Sequence[float] | None = None,
) -> Fitted:
    """The fit of the lowest held-out log-loss over the game's hyperparameter's candidates
    and the `pulls` toward `prior` (default none), each weight held to its sign."""
    prior = list(prior) if prior is not None else [0.0] * len(tuning.features)
    tried = trials(tuning, train, held, pulls, prior)
    for trial in tried:
        print(
            f"{trial.label(tuning)}: held-out log-loss {trial.loss:.4f}  "
            f"weights {fmt(tuning, trial.weights)}"
        )
    best = min((t for t in tried if t.pull is not None), key=lambda t: t.loss)
    assert best.pull is not None
    return Fitted(best.loss, best.hyper, best.pull, best.weights)


def cross_validated(
    tuning: Tuning, played: list[list[Sample]], pulls: Sequence[float], shipped: Path
) -> tuple[Fitted, float | None]:
    """The hyperparameter and pull of the lowest log-loss over the FOLDS splits by game
    (each game held out once, the pull toward the shipped weights scaled best on each
    split's training games), fitted then to every game; its loss is the cross-validated
    one, returned with the shipped weights' own. A pull of `inf` is the shipped weights best
    scaled, so the choice can be no worse than they, cross-validated."""
    totals: dict[tuple[float, float | None], float] = {}
    current_total: float | None = 0.0
    count = 0
    for fold in range(FOLDS):
        train, held = split(played, fold)
        current = current_loss(tuning, shipped, held)
        if current is None or current_total is None:
            current_total = None
        else:
            current_total += current * len(held)
        prior = scaled_prior(tuning, shipped, train)
        for trial in trials(tuning, train, held, pulls, prior):
            key = (trial.hyper, trial.pull)
            totals[key] = totals.get(key, 0.0) + trial.loss * len(held)
        count += len(held)
    current_cv = None if current_total is None else current_total / count
    print(f"cross-validated over {FOLDS} splits by game, each game held out once")
    if current_cv is not None:
        print(f"current weights: cross-validated log-loss {current_cv:.4f}")
    for (h, pull), total in totals.items():
        label = Trial(h, pull, 0.0, []).label(tuning)
        print(f"{label}: cross-validated log-loss {total / count:.4f}")
    (h, pull), total = min(
        ((key, total) for key, total in totals.items() if key[1] is not None),
        key=lambda item: item[1],
    )
    assert pull is not None
    every = [sample for game in played for sample in game]
    prior = scaled_prior(tuning, shipped, every)
    bounds = Bounded(tuning.sign_list(), prior, pull)
    w = fit([x[h] for x, _ in every], [y for _, y in every], bounds)
    return Fitted(total / count, h, pull, w), current_cv


def held_at_zero(tuning: Tuning, w: Sequence[float]) -> tuple[str, ...]:
    """The features of a sign whose fitted weight is 0: their sign bound."""
    return tuple(
        name
        for name, sign, value in zip(tuning.features, tuning.sign_list(), w, strict=True)
        if sign != "free" and value == 0.0
    )


def render(tuning: Tuning, outcome: Outcome, hyper: float, w: Sequence[float]) -> str:
    """The weights file."""
    return "\n".join(tuning.header(outcome)) + "\n" + render_weights(tuning, hyper, w)


def render_weights(tuning: Tuning, hyper: float, w: Sequence[float]) -> str:
    """A weights file's weights and settings, without its comment."""
    lines = []
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
        "--cross-validate",
        action="store_true",
        help=f"choose the pull by the log-loss over all {FOLDS} splits by game (each game "
        "held out once), then fit it to every game",
    )
    parser.add_argument(
        "--positions",
        type=Path,
        help="a file of played games' positions: the games it holds are read, not replayed, "
        "and each game played is appended to it",
    )
    parser.add_argument(
        "--pull",
        default="0",
        help="strengths of an L2 pull toward the current weights (best scaled), comma-separated, "
        "in positions (inf: those weights); the one of the lowest held-out log-loss is kept",
    )
    args = parser.parse_args(argv)
    try:
        pulls = [float(text) for text in args.pull.split(",")]
    except ValueError:
        parser.error(f"--pull takes numbers, comma-separated, not {args.pull!r}")
    if not all(pull >= 0 for pull in pulls):  # nan is not
        parser.error(f"--pull strengths must be 0 or more, not {args.pull!r}")
    tuning = tuning_of(args.game)
    try:
        make_agent(args.agent)
    except P2PCardsError as err:
        parser.error(str(err))  # exits 2
    out: Path = args.out or WEIGHTS_DIR / f"{args.game}.toml"
    try:
        played = play_all(
            args.game, args.games, args.epsilon, args.jobs, args.agent, args.positions
        )
    except StoreError as err:
        parser.error(str(err))
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
    if args.cross_validate:
        best, current = cross_validated(tuning, played, pulls, shipped)
    else:
        best = best_fit(tuning, train, held, pulls, scaled_prior(tuning, shipped, train))
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
