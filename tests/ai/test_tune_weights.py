"""The weight tuner (scripts/tune_weights.py) on Rise of the Guys: a few games played, fitted
and written make a weights file the evaluation loads."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

from ai import guys_eval
from ai.evaluation import WEIGHTS_DIR
from ai.guys_eval import GuysWeights
from ai.tuning import SCALE, Outcome

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "tune_weights.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tune_weights", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["tune_weights"] = module  # dataclasses look their module up while being made
    spec.loader.exec_module(module)
    return module


tune = _load()


def test_a_fit_of_a_few_rise_of_the_guys_games_writes_weights_the_evaluation_loads(
    tmp_path: Path,
) -> None:
    games = 30
    tuning = tune.tuning_of("rise-of-the-guys")  # found through the registry
    assert tuning is guys_eval.TUNING
    pairings = guys_eval.FIT.pairings
    assert len({pairings[n % 16] for n in range(16)}) == 16  # every deck meets every
    played = tune.play_all("rise-of-the-guys", games, 0.1, jobs=1)
    train, held = tune.split(played)
    assert train and held and {y for _, y in train} >= {0.0, 1.0}
    loss, hyper, w = tune.best_fit(tuning, train, held)
    assert loss == tune.log_loss(w, [x[hyper] for x, _ in held], [y for _, y in held])

    # Newton's method found the training games' best weights: better there than a coin (no
    # weights) and than the shipped ones. (Thirty games are too few for the held-out games or
    # the weights' signs to say anything firm.)
    xs, ys = [x[hyper] for x, _ in train], [y for _, y in train]
    _, shipped = tuning.current(WEIGHTS_DIR / "rise-of-the-guys.toml")
    fitted = tune.log_loss(w, xs, ys)
    coin = tune.log_loss([0.0] * len(w), xs, ys)
    assert coin == pytest.approx(math.log(2))
    assert fitted < coin
    assert fitted < tune.log_loss(shipped, xs, ys)

    outcome = Outcome(games, 0.1, "tune_weights.py --game rise-of-the-guys", loss, 0.7)
    out = tmp_path / "rise-of-the-guys.toml"
    out.write_text(tune.render(tuning, outcome, hyper, w), encoding="utf-8")
    loaded = GuysWeights.load(out)  # every feature's weight, and the scale
    assert loaded.vector == pytest.approx(w, abs=1e-6)
    assert loaded.scale == SCALE
    text = out.read_text(encoding="utf-8")
    assert f"{games} greedy-vs-greedy games" in text
    selfplay = Outcome(games, 0.1, "tune_weights.py", loss, None, "expectimax:nodes=400")
    assert f"{games} expectimax:nodes=400 self-play games" in "\n".join(tuning.header(selfplay))
    assert f"held-out log-loss {loss:.4f} (the weights it replaced: 0.7000)" in text
