"""GETGEM's evaluation and its fit (ai/getgem_eval.py): the Tuning that
scripts/tune_weights.py finds through the registry, on a few two-seat games."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_tune_weights import tune  # the script, loaded once

from ai import getgem_eval
from ai.evaluation import WEIGHTS_DIR
from ai.getgem_eval import GETGEM_FEATURES, GetgemWeights, getgem_features
from ai.tuning import SCALE, Outcome
from p2pcards.games.getgem import GetGemState


def test_a_getgem_position_is_each_seats_complete_features_seat_0_minus_seat_1() -> None:
    state = getgem_eval.TUNING.start(0)
    while state.is_chance_node():  # the deal: four cards each (rulebook line 26)
        state.apply_action(state.chance_outcomes()[0][0])
    assert isinstance(state, GetGemState) and getgem_eval.TUNING.sampled(state)
    mine, theirs = getgem_features(state, 0), getgem_features(state, 1)
    assert getgem_eval.TUNING.difference(state, 0.0) == [
        a - b for a, b in zip(mine, theirs, strict=True)
    ]
    assert mine[GETGEM_FEATURES.index("hand")] == 5.0  # dealt 4, drew 1 (line 37)
    assert mine != theirs


def test_a_fit_of_a_few_getgem_games_writes_weights_the_evaluation_loads(tmp_path: Path) -> None:
    games = 12
    tuning = tune.tuning_of("getgem")  # found through the registry
    assert tuning is getgem_eval.TUNING
    played = tune.play_all("getgem", games, 0.1, jobs=1)
    train, held = tune.split(played)
    assert train and held and {y for _, y in train} >= {0.0, 1.0}
    loss, hyper, _, w = tune.best_fit(tuning, train, held)
    xs, ys = [x[hyper] for x, _ in train], [y for _, y in train]
    _, shipped = tuning.current(WEIGHTS_DIR / "getgem.toml")
    assert len(shipped) == len(GETGEM_FEATURES)
    assert tune.log_loss(w, xs, ys) < tune.log_loss(shipped, xs, ys)

    outcome = Outcome(games, 0.1, "tune_weights.py --game getgem", loss, 0.6)
    out = tmp_path / "getgem.toml"
    out.write_text(tune.render(tuning, outcome, hyper, w), encoding="utf-8")
    loaded = GetgemWeights.load(out)
    assert loaded.vector == pytest.approx(w, abs=1e-6)
    assert loaded.scale == SCALE
    text = out.read_text(encoding="utf-8")
    assert f"{games} two-seat greedy-vs-greedy games" in text
    assert f"held-out log-loss {loss:.4f} (the weights it replaced: 0.6000)" in text
