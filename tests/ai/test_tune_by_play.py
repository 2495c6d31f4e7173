"""The tuner by games won (scripts/tune_by_play.py) on RPG Get!: an iteration perturbs, plays
and moves the weights, keeps their signs and their size, and writes a file the evaluation
loads."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from ai.evaluation import WEIGHTS_DIR
from ai.rpg_get_eval import SENSES, RpgGetWeights

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # tune_by_play imports tune_weights by name, as a script does
    spec.loader.exec_module(module)
    return module


_load("tune_weights")
play = _load("tune_by_play")


def test_a_short_tuning_keeps_each_sign_and_the_size_and_writes_loadable_weights(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "rpg-get.toml"
    # Seed 2's first pair of games is won by one side both times (seeds 1 and 3 split both
    # pairs, and a split moves nothing).
    play.main(
        ["--game", "rpg-get", "--iterations", "2", "--pairs", "1", "--check", "1", "--jobs", "1",
         "--seed", "2", "--out", str(out)]
    )  # fmt: skip
    printed = capsys.readouterr().out
    assert "iteration 2: plus side" in printed and "greedy on them beat" in printed
    nets = [float(n) for n in re.findall(r"plus side ([-+][0-9.]+);", printed)]
    assert len(nets) == 2 and any(nets), nets
    tuned = RpgGetWeights.load(out)
    start = RpgGetWeights.load(WEIGHTS_DIR / "rpg-get.toml")
    for (name, (sign, _)), value in zip(SENSES.items(), tuned.vector, strict=True):
        assert (sign != "nonnegative" or value >= 0) and (sign != "nonpositive" or value <= 0), name
    assert tuned.vector != start.vector  # a won pair moved the weights by a ±30% step
    # Greedy reads only the order of values, so the size (in units of the starting weights)
    # is held where it started.
    units = play.sizes(start.vector)

    def size(w: tuple[float, ...]) -> float:
        return sum(abs(v) / u for v, u in zip(w, units, strict=True))

    assert size(tuned.vector) == pytest.approx(size(start.vector), rel=1e-4)


@pytest.mark.parametrize("flag", ["--iterations", "--pairs", "--check", "--jobs"])
def test_a_count_below_one_is_refused_in_a_line(
    flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        play.main(["--game", "rpg-get", flag, "0", "--dry-run"])
    assert exit_.value.code == 2
    assert f"{flag} must be 1 or more" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("flag", "text", "told"),
    [
        ("--start", "[/]", "cannot read weights"),
        ("--start", "vp = 1", "lack 'counters'"),
        ("--start", "INF", "must all be finite"),  # the shipped weights, vp = 1e400
        ("--positions", "[/]", "line 1 is not a game"),
        ("--positions", "[" * 100_000 + "]" * 100_000, "line 1 is not a game"),
        ("--positions", "", "empty"),
        ("--positions", '{"epsilon": 0.1, "agent": "greedy", "game": "getgem"}', "getgem"),
    ],
)
def test_a_bad_file_is_refused_in_a_line_before_any_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str, text: str, told: str
) -> None:
    if text == "INF":
        shipped = (WEIGHTS_DIR / "rpg-get.toml").read_text(encoding="utf-8")
        text = re.sub(r"^vp = .*$", "vp = 1e400", shipped, flags=re.M)
    bad = tmp_path / "bad"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(SystemExit) as exit_:
        play.main(["--game", "rpg-get", flag, str(bad), "--iterations", "1", "--dry-run"])
    assert exit_.value.code == 2
    err = capsys.readouterr()
    assert told in err.err and "iteration 1" not in err.out
