"""The weight tuner (scripts/tune_weights.py) on Rise of the Guys: a few games played, fitted
and written make a weights file the evaluation loads."""

from __future__ import annotations

import dataclasses
import importlib.util
import math
import random
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from ai import guys_eval
from ai.evaluation import WEIGHTS_DIR
from ai.guys_eval import GuysWeights
from ai.rpg_get_eval import RPG_GET_FEATURES
from ai.tuning import SCALE, Outcome

WIDTH = len(RPG_GET_FEATURES)  # the features of a position of RPG Get!
PADDING = [0.0] * (WIDTH - 2)  # a position's features after the first two
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
    loss, hyper, _, w = tune.best_fit(tuning, train, held)
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


def _samples(
    weights: list[float], count: int, seed: int, tied: bool = False
) -> tuple[list[list[float]], list[float]]:
    """Positions of standard normal features (with `tied`, the second feature is the first
    plus a little noise) and results drawn by the logistic model of `weights`."""
    rng = random.Random(seed)
    xs, ys = [], []
    for _ in range(count):
        x = [rng.gauss(0.0, 1.0) for _ in weights]
        if tied:
            x[1] = x[0] + 0.3 * x[1]
        chance = 1 / (1 + math.exp(-sum(w * v for w, v in zip(weights, x, strict=True))))
        xs.append(x)
        ys.append(1.0 if rng.random() < chance else 0.0)
    return xs, ys


def test_a_fit_held_to_signs_recovers_the_weights_that_made_the_results() -> None:
    truth = [1.0, -0.5, 0.3, 0.0]
    xs, ys = _samples(truth, 4000, seed=1)
    signs = ["nonnegative", "nonpositive", "free", "nonnegative"]
    w = tune.fit(xs, ys, tune.Bounded(signs, [0.0] * 4))
    assert w == pytest.approx(truth, abs=0.12)
    assert w[0] >= 0 and w[1] <= 0 and w[3] >= 0
    # No sign binds here (the plain fit's fourth weight is slightly positive): the same fit.
    assert w == pytest.approx(tune.fit(xs, ys), abs=1e-6)


def test_a_weight_the_data_pull_to_its_forbidden_sign_is_held_at_zero() -> None:
    # Two tied features, the second's true weight negative: the plain fit finds it so,
    # the fit that holds it non-negative must return 0, and then the first weight is the
    # fit of the first feature alone (the optimum with the bound active).
    xs, ys = _samples([2.0, -1.0], 3000, seed=2, tied=True)
    plain = tune.fit(xs, ys)
    assert plain[1] < -0.5
    held = tune.fit(xs, ys, tune.Bounded(["free", "nonnegative"], [0.0, 0.0]))
    assert held[1] == 0.0
    alone = tune.fit([[x[0]] for x in xs], ys)
    assert held[0] == pytest.approx(alone[0], abs=1e-6)
    # Held to the sign, it cannot predict the training results better than the plain fit.
    assert tune.log_loss(held, xs, ys) > tune.log_loss(plain, xs, ys)


def test_a_strong_pull_keeps_the_prior_within_its_signs() -> None:
    xs, ys = _samples([1.0, 1.0], 500, seed=3)
    prior = [0.2, 0.3]
    w = tune.fit(xs, ys, tune.Bounded(["free", "nonpositive"], prior, pull=1e8))  # 500 positions
    assert w == pytest.approx([0.2, 0.0], abs=1e-4)
    weak = tune.fit(xs, ys, tune.Bounded(["free", "free"], prior, pull=1e-9))
    assert weak == pytest.approx(tune.fit(xs, ys), abs=1e-4)


def test_rpg_get_declares_a_sign_for_every_weight_and_its_file_says_which_bound() -> None:
    tuning = tune.tuning_of("rpg-get")
    assert set(tuning.signs) == set(tuning.features)
    assert tuning.signs["vp"] == "nonnegative" and tuning.signs["ailments"] == "nonpositive"
    w = [0.5 if sign == "nonnegative" else -0.5 for sign in tuning.sign_list()]
    w[tuning.features.index("counters")] = 0.0
    held = tune.held_at_zero(tuning, w)
    assert held == ("counters",)
    outcome = Outcome(10, 0.1, "tune_weights.py --game rpg-get", 0.6, 0.7, held=held, pull=0.01)
    text = tune.render(tuning, outcome, 0.0, w)
    assert "# Held at 0 by its sign: counters." in text
    assert "# Pulled toward the weights it replaced (best scaled) as by 0.01 positions" in text
    assert "counters = 0.000000" in text


@pytest.mark.parametrize("pull", ["x", "-1", "nan"])
def test_a_pull_that_is_not_a_strength_is_refused_in_one_line(
    pull: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        tune.main(["--game", "rpg-get", "--games", "5", "--pull", f"0,{pull}", "--dry-run"])
    assert stopped.value.code == 2
    assert "--pull" in capsys.readouterr().err


def test_a_sign_for_a_feature_the_fit_lacks_is_refused() -> None:
    tuning = tune.tuning_of("rpg-get")
    with pytest.raises(ValueError, match="ailment"):
        dataclasses.replace(tuning, signs={**tuning.signs, "ailment": "nonpositive"})


@pytest.mark.parametrize(
    ("game", "feature", "sign"),
    [
        ("rise-of-the-guys", "board_health", "nonnegative"),
        ("rise-of-the-guys", "danger", "nonpositive"),
        ("rpg-battle", "mag", "nonnegative"),
    ],
)
def test_shipped_weights_keep_to_the_signs_their_fit_declares(
    game: str, feature: str, sign: str
) -> None:
    # Self-play fits wanted board_health, hidden_guys and MAG below 0 (the evaluations say
    # why they are held); a file that broke a sign would be one no fit of the game could write.
    tuning = tune.tuning_of(game)
    assert tuning.signs[feature] == sign
    _, shipped = tuning.current(WEIGHTS_DIR / f"{game}.toml")
    assert tune.project(shipped, tuning.sign_list()) == shipped


def test_a_positions_file_keeps_each_game_played_and_a_rerun_plays_only_the_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    played: list[int] = []

    def fake_play(game: str, epsilon: float, number: int, agent: str) -> list[tuple[dict, float]]:
        played.append(number)
        return [({0.0: [float(number), -1.5, *PADDING]}, float(number % 2))] * (number % 3)

    monkeypatch.setattr(tune, "play", fake_play)
    store = tmp_path / "positions.jsonl"
    first = tune.play_all("rpg-get", 4, 0.1, jobs=1, agent="greedy", store=store)
    assert played == [0, 1, 2, 3]
    again = tune.play_all("rpg-get", 6, 0.1, jobs=1, agent="greedy", store=store)
    assert played == [0, 1, 2, 3, 4, 5]  # the first four read back, not replayed
    assert again[:4] == first and again[5] == [({0.0: [5.0, -1.5, *PADDING]}, 1.0)] * 2
    # A file played by another agent (or game, or epsilon) is not mixed into this run.
    with pytest.raises(tune.StoreError, match="expectimax"):
        tune.play_all("rpg-get", 6, 0.1, jobs=1, agent="expectimax:nodes=5", store=store)
    store.write_text('{"game": "rpg-get"}\n', encoding="utf-8")
    with pytest.raises(tune.StoreError, match="line 1"):
        tune.play_all("rpg-get", 1, 0.1, jobs=1, agent="greedy", store=store)


@pytest.mark.parametrize(
    ("line", "told"),
    [
        ("[" * 100_000 + "]" * 100_000, "not a game"),  # nested past the decoder's depth
        ('{"number": 1, "result": "[/]"}', "not a game"),
        ('{"number": -5, "result": 1}', "0 or more"),
        ('{"number": 1.0e30, "result": 1}', "whole number"),
        ('{"number": 1, "result": 1e999}', "0 to 1"),
        ('{"number": 1, "result": 1, "positions": [{"0": [1, 2]}]}', f"{WIDTH} finite numbers"),
        ('{"number": 1, "result": 1, "positions": [{"7": ' + str([0] * WIDTH) + "}]}", "by [0.0]"),
    ],
)
def test_a_positions_file_out_of_range_is_refused_in_one_line(
    tmp_path: Path, line: str, told: str
) -> None:
    """Every value read back from a positions file is checked before a fit uses it: a game's
    number, its result, each position's width, hyperparameters and finiteness."""
    record = '{"game": "rpg-get", "epsilon": 0.1, "agent": "greedy", "positions": [], '
    store = tmp_path / "positions.jsonl"
    store.write_text(record + line[1:] + "\n" if line.startswith("{") else line, "utf-8")
    with pytest.raises(tune.StoreError, match=re.escape(told)):
        tune.read_store(store, "rpg-get", 0.1, "greedy")


def test_the_splits_hold_out_whole_games_each_game_once() -> None:
    played = [[({0.0: [float(n), float(i)]}, 1.0) for i in range(3)] for n in range(12)]
    held_games: list[float] = []
    for fold in range(tune.FOLDS):
        train, held = tune.split(played, fold)
        held_numbers = {x[0.0][0] for x, _ in held}
        assert held_numbers.isdisjoint({x[0.0][0] for x, _ in train})
        assert len(held) == 3 * len(held_numbers)  # every position of a held-out game
        held_games += sorted(held_numbers)
    assert sorted(held_games) == [float(n) for n in range(12)]


def test_a_pull_says_the_same_whatever_unit_a_feature_is_counted_in() -> None:
    # The second feature counted in hundredths (its weight 100 times less): a pull of so
    # many positions moves each weight the same part of the way toward the prior.
    xs, ys = _samples([1.0, -0.5], 800, seed=4)
    prior = [0.3, 0.1]
    w = tune.fit(xs, ys, tune.Bounded(["free", "free"], prior, pull=400))
    counted = [[a, 100 * b] for a, b in xs]
    w100 = tune.fit(counted, ys, tune.Bounded(["free", "free"], [0.3, 0.001], pull=400))
    assert w100 == pytest.approx([w[0], w[1] / 100], rel=1e-4)
    plain = tune.fit(xs, ys)
    assert 0.3 < (w[1] - plain[1]) / (prior[1] - plain[1]) < 0.7  # about half way
    # At infinity the pull is the prior itself, within the signs.
    assert tune.fit(xs, ys, tune.Bounded(["free", "nonpositive"], prior, math.inf)) == [0.3, 0.0]


def test_a_cross_validated_pull_is_never_worse_than_the_shipped_weights_best_scaled() -> None:
    tuning = tune.tuning_of("rpg-get")
    hyper, shipped = tuning.current(WEIGHTS_DIR / "rpg-get.toml")
    # Results drawn from the shipped weights' direction at half their scale, bar noise in
    # one weight: the data say little, so the pull toward them must be strong.
    truth = [v / 2 for v in shipped]
    truth[0] *= 3
    rng = random.Random(5)
    played = []
    for _ in range(20):
        game = []
        for _ in range(15):
            x = [rng.gauss(0.0, 2.0) for _ in truth]
            chance = 1 / (1 + math.exp(-sum(w * v for w, v in zip(truth, x, strict=True))))
            game.append(({hyper: x}, 1.0 if rng.random() < chance else 0.0))
        played.append(game)
    pulls = [0.0, 10.0, 100.0, 1e3, 1e4, math.inf]
    best, current = tune.cross_validated(tuning, played, pulls, WEIGHTS_DIR / "rpg-get.toml")
    at_infinity = 0.0
    for fold in range(tune.FOLDS):
        train, held = tune.split(played, fold)
        loss = tune.rescaled(tuning, WEIGHTS_DIR / "rpg-get.toml", train, held)[1]
        at_infinity += loss * len(held) / 300
    assert best.loss <= at_infinity + 1e-12
    assert current is not None and best.loss < current  # unscaled, they are far too sure
    assert best.pull in pulls and all(
        (w >= 0) if sign == "nonnegative" else (w <= 0)
        for w, sign in zip(best.weights, tuning.sign_list(), strict=True)
    )
