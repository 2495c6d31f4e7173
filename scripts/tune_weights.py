"""Fit a game's evaluation weights to played games, and write ai/weights/<game>.toml.

    .venv/bin/python scripts/tune_weights.py [--game rpg-battle] [--games 1500] [--epsilon 0.1]
                                             [--jobs 2] [--out PATH] [--dry-run]

Two greedy agents (each move random with probability --epsilon, for variety)
play two-seat games; every sampled decision is a sample: the difference of the
two seats' features, and who won. A logistic regression (Newton's method, no
intercept, so swapping the seats negates the prediction) fits the weights for
each candidate of the game's hyperparameter (rpg-battle's hp_scale; Rise of the
Guys has none); the one with the lowest log-loss on held-out games wins (every
fifth game is held out). Positions of one game are alike, so only every fourth
one is kept. The evaluation's unit is then 1/scale of a log-odds step.

What differs by game is one `Tuning` (TUNINGS): rpg-battle samples every decision
after the draft, its features read from the complete state; the games of own decks
(Rise of the Guys, Gammasphere: `OwnDecks`) play their shipped decks, every pairing
from each seat in turn, sample every decision (after the mulligans), and read the
features as the evaluation would on the seat to move's replica (an opponent's
face-down Guy is a `hidden_guys`).
"""

from __future__ import annotations

import argparse
import functools
import itertools
import math
import os
import random
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ai.agents import make_agent
from ai.evaluation import WEIGHTS_DIR
from ai.evaluation import weighted as dot
from ai.gammasphere_eval import GAMMA_FEATURES, GammaWeights, gamma_features
from ai.guys_eval import GUYS_FEATURES, GuysWeights, guys_features
from ai.match import DEFAULT_ROUND_CAP
from ai.rpg_battle_eval import RPG_BATTLE_FEATURES, RpgBattleWeights, rpg_battle_features
from p2pcards import games
from p2pcards.dealer import LocalDealer
from p2pcards.decks import shipped_decks
from p2pcards.engine import State
from p2pcards.games.rise_of_the_guys import GuysState
from p2pcards.games.rpg_battle import RpgBattleState

HP_SCALES = (4.0, 6.0, 8.0, 12.0, 16.0)
HAND_CAP = 7
SCALE = 100.0
KEEP_EVERY = 4

Sample = tuple[dict[float, list[float]], float]  # features by hyperparameter, seat 0's result


@dataclass(frozen=True)
class Outcome:
    """What a fit found, for the weights file's header."""

    games: int
    epsilon: float
    command: str  # how the script was run
    loss: float  # held-out log-loss of the chosen weights
    current_loss: float | None  # of the weights the file held, on the same held-out games


@dataclass(frozen=True)
class Tuning:
    """What fitting one game's evaluation needs; the rest of the script is the same for all."""

    features: tuple[str, ...]
    hyper: str  # the hyperparameter's name in the weights file, "" for none
    candidates: tuple[float, ...]  # its values to try (one, 0.0, when there is none)
    start: Callable[[int], State]  # game number -> its initial state
    sampled: Callable[[State], bool]  # whether a decision is a position to learn from
    difference: Callable[[State, float], list[float]]  # seat 0's features minus seat 1's
    current: Callable[[Path], tuple[float, list[float]]]  # a file's hyperparameter, log-odds
    settings: Callable[[float], dict[str, float]]  # what follows the weights in the file
    header: Callable[[Outcome], list[str]]
    notes: dict[str, str]  # a comment after a weight, if any


def play(game: str, epsilon: float, number: int) -> list[Sample]:
    """Game `number` between two noisy greedy agents: its sampled positions."""
    tuning = TUNINGS[game]
    state = tuning.start(number)
    agents = [make_agent("greedy", seed=number * 2 + seat) for seat in range(2)]
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


def play_all(game: str, count: int, epsilon: float, jobs: int) -> list[list[Sample]]:
    """Games 0 .. count-1, in `jobs` processes (one: in this one)."""
    one_game = functools.partial(play, game, epsilon)
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
    parser.add_argument("--game", choices=sorted(TUNINGS), default="rpg-battle")
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", type=Path, help="default ai/weights/<game>.toml")
    parser.add_argument("--dry-run", action="store_true", help="print, do not write")
    args = parser.parse_args(argv)
    tuning = TUNINGS[args.game]
    out: Path = args.out or WEIGHTS_DIR / f"{args.game}.toml"
    played = play_all(args.game, args.games, args.epsilon, args.jobs)
    train, held = split(played)
    print(f"{args.games} games: {len(train)} training positions, {len(held)} held out")
    current = current_loss(tuning, WEIGHTS_DIR / f"{args.game}.toml", held)  # the shipped ones
    if current is not None:
        print(f"current weights: held-out log-loss {current:.4f}")
    loss, hyper, w = best_fit(tuning, train, held)
    words = sys.argv[1:] if argv is None else list(argv)
    command = " ".join([".venv/bin/python scripts/tune_weights.py", *words])
    text = render(tuning, Outcome(args.games, args.epsilon, command, loss, current), hyper, w)
    print(text)
    if not args.dry_run:
        out.write_text(text, encoding="utf-8")
        print(f"wrote {out}")


# rpg-battle: features of the complete state, a choice of hp_scale.


def rpg_start(number: int) -> State:
    """A two-seat rpg-battle game."""
    return games.load("rpg-battle").new_initial_state(2, round_cap=DEFAULT_ROUND_CAP)


def rpg_sampled(state: State) -> bool:
    """Every decision after the draft."""
    assert isinstance(state, RpgBattleState)
    return state.decision().kind != "pick"


def rpg_difference(state: State, hp_scale: float) -> list[float]:
    """Seat 0's features minus seat 1's."""
    assert isinstance(state, RpgBattleState)
    mine = rpg_battle_features(state, 0, hp_scale, HAND_CAP)
    theirs = rpg_battle_features(state, 1, hp_scale, HAND_CAP)
    return [a - b for a, b in zip(mine, theirs, strict=True)]


def rpg_current(path: Path) -> tuple[float, list[float]]:
    """The file's hp_scale and weights in log-odds."""
    current = RpgBattleWeights.load(path)
    return current.hp_scale, [v * current.scale / SCALE for v in current.vector()]


def rpg_header(outcome: Outcome) -> list[str]:
    """The rpg-battle file's comment."""
    return [
        "# Weights of the rpg-battle evaluation (ai/rpg_battle_eval.py), in log-odds of winning",
        "# per unit of each feature, times `scale`. Written by scripts/tune_weights.py from",
        f"# {outcome.games} greedy-vs-greedy games (epsilon {outcome.epsilon}); "
        f"held-out log-loss {outcome.loss:.4f}.",
    ]


# Games of own decks: the shipped decks paired in turn, features of the replica of the seat
# to move, no hyperparameter; one description serves Rise of the Guys and Gammasphere.


@dataclass(frozen=True)
class OwnDecks:
    """What fitting a game of own decks needs besides the common part."""

    game: str
    title: str
    module: str  # the evaluation's module, for the file's comment
    features: Callable[[State, int], Sequence[float]]
    weights: Callable[[Path], tuple[float, tuple[float, ...]]]  # a file's scale and weights
    sampled: Callable[[State], bool]  # whether a decision is a position to learn from

    @functools.cached_property
    def pairings(self) -> tuple[tuple[str, str], ...]:
        """Every shipped deck against every one (mirrors too) from each seat; with every
        fifth game held out, the held-out games cover them all alike."""
        decks = sorted(d.id for d in shipped_decks(type(games.load(self.game)).__module__))
        return tuple(itertools.product(decks, repeat=2))

    def start(self, number: int) -> State:
        """A game of the number's pairing of shipped decks."""
        decks = list(self.pairings[number % len(self.pairings)])
        return games.load(self.game).new_initial_state(2, decks=decks, round_cap=DEFAULT_ROUND_CAP)

    def difference(self, state: State, _: float) -> list[float]:
        """Seat 0's features minus seat 1's, as the seat to move's replica sees them."""
        seen = state.observation(state.current_player())
        mine, theirs = self.features(seen, 0), self.features(seen, 1)
        return [a - b for a, b in zip(mine, theirs, strict=True)]

    def current(self, path: Path) -> tuple[float, list[float]]:
        """The file's weights in log-odds (no hyperparameter)."""
        scale, vector = self.weights(path)
        return 0.0, [v * scale / SCALE for v in vector]

    def header(self, outcome: Outcome) -> list[str]:
        """The weights file's comment."""
        replaced = outcome.current_loss
        before = "" if replaced is None else f" (the weights it replaced: {replaced:.4f})"
        return [
            f"# Weights of the {self.title} evaluation ({self.module}), in log-odds of winning",
            "# per unit of each feature, times `scale`. Fitted by scripts/tune_weights.py",
            f"#     {outcome.command}",
            f"# to {outcome.games} greedy-vs-greedy games (epsilon {outcome.epsilon}), each "
            f"pairing of the {len(self.pairings) ** 0.5:.0f} shipped",
            "# decks from each seat in turn, positions as the seat to move's replica sees them;",
            f"# held-out log-loss {outcome.loss:.4f}{before}.",
        ]

    def tuning(self, names: tuple[str, ...], notes: dict[str, str]) -> Tuning:
        """The game's Tuning."""
        return Tuning(
            features=names,
            hyper="",
            candidates=(0.0,),
            start=self.start,
            sampled=self.sampled,
            difference=self.difference,
            current=self.current,
            settings=lambda _: {"scale": SCALE},
            header=self.header,
            notes=notes,
        )


def _guys_weights(path: Path) -> tuple[float, tuple[float, ...]]:
    w = GuysWeights.load(path)
    return w.scale, w.vector


def _gamma_weights(path: Path) -> tuple[float, tuple[float, ...]]:
    w = GammaWeights.load(path)
    return w.scale, w.vector


GUYS = OwnDecks(
    "rise-of-the-guys", "Rise of the Guys", "ai/guys_eval.py",
    lambda st, seat: guys_features(st, seat),  # type: ignore[arg-type]
    _guys_weights, lambda st: isinstance(st, GuysState) and st.phase() != "mulligan",
)  # fmt: skip
GAMMA = OwnDecks(
    "gammasphere", "Gammasphere", "ai/gammasphere_eval.py",
    lambda st, seat: gamma_features(st, seat),  # type: ignore[arg-type]
    _gamma_weights, lambda st: True,
)  # fmt: skip
GUYS_PAIRINGS = GUYS.pairings


TUNINGS = {
    "rpg-battle": Tuning(
        features=RPG_BATTLE_FEATURES,
        hyper="hp_scale",
        candidates=HP_SCALES,
        start=rpg_start,
        sampled=rpg_sampled,
        difference=rpg_difference,
        current=rpg_current,
        settings=lambda hp_scale: {"hp_scale": hp_scale, "hand_cap": HAND_CAP, "scale": SCALE},
        header=rpg_header,
        notes={},
    ),
    "rise-of-the-guys": GUYS.tuning(
        GUYS_FEATURES,
        {
            "life": "per point of life",
            "danger": "per point of life below 6, on top of `life`",
            "board_attack": "attack of face-up Guys",
            "board_health": "health left of face-up Guys",
            "hidden_guys": "a face-down Guy whose card this state does not know",
            "pressure": "attack of unopposed, unprepared Guys: damage at the next combat",
            "hand": "cards in hand",
            "deck": "cards left in the deck (running out loses)",
            "vest": "a Pin in the Vest",
        },
    ),
    "gammasphere": GAMMA.tuning(
        GAMMA_FEATURES,
        {
            "power": "per 1000 Power Level",
            "danger": "per 1000 Power Level under 3000, on top of `power`",
            "attack": "per 1000 attack of characters in Attack Mode",
            "defense": "per 1000 defense of characters",
            "buildings": "per 1000 defense of buildings",
            "pylons": "per Pylon",
            "gas": "per 1000 gas",
            "hand": "per card in hand",
            "deck": "per card left in the deck (running out loses)",
        },
    ),
}


if __name__ == "__main__":
    main()
