"""Gammasphere at the command line, run as real subprocesses: its decks (`deck validate`,
`deck list`), `--deck` on simulate, `rules gammasphere`, and a person playing through stdin."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

P2PCARDS = str(Path(sys.executable).with_name("p2pcards"))
DECKS = Path(__file__).parents[2] / "p2pcards" / "games" / "gammasphere" / "decks"


def run(*args: str, stdin: str = "", timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1"}
    return subprocess.run(
        [P2PCARDS, *args], input=stdin, capture_output=True, text=True, timeout=timeout, env=env
    )


def test_the_starter_decks_are_listed_and_valid_and_a_broken_one_is_named(tmp_path: Path) -> None:
    listed = run("deck", "list", "gammasphere", "--json")
    assert listed.returncode == 0, listed.stderr
    assert {d["deck"] for d in json.loads(listed.stdout)} == {
        "protoss-pylon-rush", "saiyan-power-level",
    }  # fmt: skip
    good = run("deck", "validate", str(DECKS / "saiyan-power-level.toml"))
    assert good.returncode == 0 and "legal (40 cards)" in good.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "Bad"\ngame = "gammasphere"\n[cards]\nzealot = 5\npylon = 30\n')
    result = run("deck", "validate", str(bad), "--json")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    problems = json.loads(result.stdout)["problems"]
    assert "zealot: 5 copies, at most 4" in problems
    assert "40 cards needed, this deck has 35" in problems


def test_simulate_with_chosen_decks_and_the_rules_page() -> None:
    result = run(
        "simulate", "gammasphere", "--games", "2", "--seed", "3", "--agents", "greedy,random",
        "--deck", "saiyan-power-level", "--deck", "protoss-pylon-rush",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "gammasphere: 2 games" in result.stdout + result.stderr
    rules = run("rules", "gammasphere")
    assert rules.returncode == 0 and "Power Level" in rules.stdout


def test_a_person_plays_gammasphere_through_stdin() -> None:
    """A person who tries the lines in turn (1 to 9, then again) plays a capped game to its
    end, reading the board and its hand at every turn (a card that cannot be played now is
    a line but no choice: its number is asked again)."""
    result = run(
        "play", "gammasphere", "--seed", "5", "--round-cap", "6", "--agents", "greedy",
        stdin="".join(f"{n}\n" for n in range(1, 10)) * 1000,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Game over" in result.stdout and "your hand:" in result.stdout
    assert "Traceback" not in result.stderr
