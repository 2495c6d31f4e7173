"""GETGEM from the command line: rules, play through stdin, simulate and a tournament."""

import json
from pathlib import Path

from test_cli import run


def test_rules_getgem_shows_the_rules_in_english_with_our_choices() -> None:
    result = run("rules", "getgem")
    assert result.returncode == 0, result.stderr
    assert "Our choices" in result.stdout
    assert "Barrier" in result.stdout and "Composition" in result.stdout


def test_play_getgem_to_the_end_through_stdin() -> None:
    # The lines tried in turn, 1 to 9 and again: a card that cannot be played now, or a
    # number past the menu, is asked again. A round cap makes sure the game ends.
    result = run(
        "play", "getgem", "--seats", "3", "--agents", "greedy", "--seed", "3", "--round-cap", "40",
        stdin="".join(f"{n}\n" for n in range(1, 10)) * 700,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Game over" in result.stdout or "You win!" in result.stdout
    assert "your hand:" in result.stdout and "You play" in result.stdout
    assert "Traceback" not in result.stderr


def test_simulate_getgem_with_expectimax_at_three_seats() -> None:
    result = run(
        "simulate", "getgem", "--seats", "3", "--agents", "expectimax:nodes=200,greedy,random",
        "--games", "3", "--seed", "5", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["games"] == 3
    assert sum(a["wins"] for a in report["agents"].values()) == 3


def test_a_getgem_tournament_stores_every_game(tmp_path: Path) -> None:
    db = tmp_path / "gg.sqlite"
    result = run(
        "tournament", "getgem", "--agents", "greedy,random", "--seats", "3", "--games", "4",
        "--jobs", "1", "--db", str(db), "--standings", str(tmp_path / "out.json"),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads((tmp_path / "out.json").read_text())
    assert sum(p["games"] for p in report["pairings"]) == 4


def test_game_options_reach_the_game_match_and_characters() -> None:
    """The match rule (line 69-73) and the character expansion (line 64-68), from the
    command line: a whole match with characters drafted ends with one winner per match."""
    result = run(
        "simulate", "getgem", "--seats", "3", "--agents", "greedy,random", "--games", "2",
        "-o", "match=true", "--option", "characters=yes", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["games"] == 2


def test_bad_game_options_are_usage_errors() -> None:
    for args, message in [
        (["-o", "match=maybe"], "match must be true or false"),
        (["-o", "colour=red"], "unknown getgem options: colour"),
        (["-o", "nonsense"], "--option takes KEY=VALUE"),
    ]:
        for command in (["simulate", "getgem"], ["host", "getgem", "--seats", "3"]):
            result = run(*command, *args)
            assert result.returncode == 2, (command, args)
            assert message in result.stderr and "Traceback" not in result.stderr
