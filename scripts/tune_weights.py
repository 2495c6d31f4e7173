"""Fit the rpg-battle evaluation's weights to played games, and write ai/weights/rpg-battle.toml.

    .venv/bin/python scripts/tune_weights.py [--games 1500] [--epsilon 0.1] [--dry-run]

Two greedy agents (each move random with probability --epsilon, for variety)
play two-seat games; every decision after the draft is a sample: the difference
of the two seats' features, and who won. A logistic regression (Newton's method,
no intercept, so swapping the seats negates the prediction) fits the weights for
each candidate hp_scale; the one with the lowest log-loss on held-out games wins
(every fifth game is held out). Positions of one game are alike, so only every
fourth one is kept. The evaluation's unit is then 1/scale of a log-odds step.
"""

import argparse
import math
import random
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from ai.agents import make_agent
from ai.evaluation import WEIGHTS_DIR
from ai.evaluation import weighted as dot
from ai.match import DEFAULT_ROUND_CAP
from ai.rpg_battle_eval import RPG_BATTLE_FEATURES, RpgBattleWeights, rpg_battle_features
from p2pcards import games
from p2pcards.dealer import LocalDealer
from p2pcards.games.rpg_battle import RpgBattleState

HP_SCALES = (4.0, 6.0, 8.0, 12.0, 16.0)
HAND_CAP = 7
SCALE = 100.0
KEEP_EVERY = 4

Sample = tuple[dict[float, list[float]], float]  # features by hp_scale, seat 0's result


def play(number: int, epsilon: float) -> list[Sample]:
    """Game `number` between two noisy greedy agents: its sampled positions."""
    state = games.load("rpg-battle").new_initial_state(2, round_cap=DEFAULT_ROUND_CAP)
    assert isinstance(state, RpgBattleState)
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
        if state.decision().kind != "pick":
            decisions += 1
            if decisions % KEEP_EVERY == 0:
                positions.append({s: difference(state, s) for s in HP_SCALES})
        if noise.random() < epsilon:
            action = noise.choice(state.legal_actions())
        else:
            action = agents[seat].act(state.observation(seat))
        state.apply_action(action)
    result = state.returns()[0]
    return [(p, result) for p in positions]


def difference(state: RpgBattleState, hp_scale: float) -> list[float]:
    """Seat 0's features minus seat 1's."""
    mine = rpg_battle_features(state, 0, hp_scale, HAND_CAP)
    theirs = rpg_battle_features(state, 1, hp_scale, HAND_CAP)
    return [a - b for a, b in zip(mine, theirs, strict=True)]


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--epsilon", type=float, default=0.1)
    parser.add_argument("--out", type=Path, default=WEIGHTS_DIR / "rpg-battle.toml")
    parser.add_argument("--dry-run", action="store_true", help="print, do not write")
    args = parser.parse_args()
    with ProcessPoolExecutor() as pool:
        played = list(pool.map(play, range(args.games), [args.epsilon] * args.games))
    train = [s for number, game in enumerate(played) if number % 5 for s in game]
    held = [s for number, game in enumerate(played) if not number % 5 for s in game]
    print(f"{args.games} games: {len(train)} training positions, {len(held)} held out")
    current = RpgBattleWeights.load(args.out)
    cur_x = [x[current.hp_scale] for x, _ in held] if current.hp_scale in HP_SCALES else None
    if cur_x is not None:
        cur_w = [v * current.scale / SCALE for v in current.vector()]
        print(
            f"current weights: held-out log-loss {log_loss(cur_w, cur_x, [y for _, y in held]):.4f}"
        )
    best: tuple[float, float, list[float]] | None = None
    for hp_scale in HP_SCALES:
        w = fit([x[hp_scale] for x, _ in train], [y for _, y in train])
        loss = log_loss(w, [x[hp_scale] for x, _ in held], [y for _, y in held])
        print(f"hp_scale {hp_scale:>4}: held-out log-loss {loss:.4f}  weights {fmt(w)}")
        if best is None or loss < best[0]:
            best = (loss, hp_scale, w)
    assert best is not None
    loss, hp_scale, w = best
    lines = [
        "# Weights of the rpg-battle evaluation (ai/rpg_battle_eval.py), in log-odds of winning",
        "# per unit of each feature, times `scale`. Written by scripts/tune_weights.py from",
        f"# {args.games} greedy-vs-greedy games (epsilon {args.epsilon}); "
        f"held-out log-loss {loss:.4f}.",
        *(f"{name} = {value:.6f}" for name, value in zip(RPG_BATTLE_FEATURES, w, strict=True)),
        f"hp_scale = {hp_scale}",
        f"hand_cap = {HAND_CAP}",
        f"scale = {SCALE}",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.dry_run:
        args.out.write_text(text, encoding="utf-8")
        print(f"wrote {args.out}")


def fmt(w: list[float]) -> str:
    """Weights as name=value."""
    return " ".join(f"{n}={v:.4f}" for n, v in zip(RPG_BATTLE_FEATURES, w, strict=True))


if __name__ == "__main__":
    main()
