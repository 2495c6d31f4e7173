"""Rise of the Guys at the command line, run as real subprocesses: `deck validate` and
`deck list`, `--deck` on play, simulate and tournament, and a whole game played by a person
through stdin, read as a player reads it."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

P2PCARDS = str(Path(sys.executable).with_name("p2pcards"))
DECKS = Path(__file__).parents[2] / "p2pcards" / "games" / "rise_of_the_guys" / "decks"


def run(*args: str, stdin: str = "", timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1"}
    return subprocess.run(
        [P2PCARDS, *args], input=stdin, capture_output=True, text=True, timeout=timeout, env=env
    )


def test_deck_validate_accepts_a_shipped_deck() -> None:
    result = run("deck", "validate", str(DECKS / "tempo-machine.toml"))
    assert result.returncode == 0, result.stderr
    assert "legal (40 cards, classes doodad, madlad)" in result.stdout


def test_deck_validate_names_every_broken_rule_and_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "Bad"\ngame = "rise-of-the-guys"\n[cards]\nrobutt = 5\nchicken = 1\n')
    result = run("deck", "validate", str(bad), "--json")
    assert result.returncode == 2
    report = json.loads(result.stdout)
    assert report["legal"] is False
    assert "robutt: 5 copies, at most 4" in report["problems"]
    assert "chicken is a token: tokens cannot be put in decks" in report["problems"]
    assert "40 cards needed, this deck has 6" in report["problems"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('name = "x', "not valid TOML"),
        ('name = "x"\n[cards]\nrobutt = -1\n', "copies must be a whole number"),
    ],
)
def test_a_broken_deck_file_is_one_line_and_exit_2(
    tmp_path: Path, content: str, message: str
) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(content)
    result = run("deck", "validate", str(bad), "--game", "rise-of-the-guys")
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_deck_list_shows_the_shipped_decks() -> None:
    result = run("deck", "list", "--json")
    assert result.returncode == 0
    decks = {d["deck"]: d for d in json.loads(result.stdout)}
    assert decks["tempo-machine"]["source"] == "rulebook"
    assert decks["aggro-historical"]["archetype"] == "aggro"
    assert len(decks) >= 4
    assert run("deck", "list", "getgem").returncode == 2


def test_deck_list_without_a_game_lists_every_game_of_own_decks() -> None:
    listed = run("deck", "list", "--json")
    assert listed.returncode == 0, listed.stderr
    games = {(d["game"], d["deck"]) for d in json.loads(listed.stdout)}
    assert ("rise-of-the-guys", "tempo-machine") in games
    assert ("gammasphere", "saiyan-power-level") in games
    table = run("deck", "list").stdout
    assert "game" in table.splitlines()[1] and "gammasphere" in table


def test_a_deck_for_another_game_says_so_in_one_line(tmp_path: Path) -> None:
    deck = str(DECKS / "control.toml")
    played = run("play", "gammasphere", "--deck", deck, "--seed", "1")
    assert played.returncode == 2
    assert played.stderr.strip().splitlines() == [
        f"error: --deck {deck}: deck 'Comrade Control' is for rise-of-the-guys, not gammasphere"
    ]


def test_game_fills_a_missing_game_line(tmp_path: Path) -> None:
    text = (DECKS / "tempo-machine.toml").read_text()
    lines = [line for line in text.splitlines() if not line.startswith(("game ", "name "))]
    bare = tmp_path / "bare.toml"
    bare.write_text("\n".join(lines) + "\n")
    result = run("deck", "validate", str(bare), "--game", "rise-of-the-guys")
    assert result.returncode == 0, result.stderr
    assert "legal (40 cards" in result.stdout
    unsaid = run("deck", "validate", str(bare))
    assert unsaid.returncode == 2
    assert "has no `game` line: say which game with --game GAME" in unsaid.stderr
    played = run("simulate", "rise-of-the-guys", "--deck", str(bare), "--games", "1",
                 "--agents", "random")  # fmt: skip
    assert played.returncode == 0, played.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", "rise-of-the-guys", "--deck", "nope"], "no shipped deck called 'nope'"),
        (["play", "getgem", "--deck", "control"], "one shared deck"),
        (
            ["simulate", "rise-of-the-guys", "--deck", "control", "--deck", "control",
             "--deck", "control"],
            "3 decks for 2 seats",
        ),
    ],
)  # fmt: skip
def test_bad_deck_options_are_usage_errors(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_simulate_with_decks_writes_records_that_replay(tmp_path: Path) -> None:
    records = tmp_path / "games.jsonl"
    result = run(
        "simulate", "rise-of-the-guys", "--agents", "greedy,random", "--games", "2",
        "--seed", "4", "--deck", "control", "--deck", "sneaky-stinky",
        "--records", str(records), "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    first = json.loads(records.read_text().splitlines()[0])
    assert len(first["options"]["decks"]) == 2
    assert sum(first["options"]["decks"][0].values()) == 40
    replay = run("replay", str(records), "--game", "1")
    assert replay.returncode == 0, replay.stderr
    assert "Game over" in replay.stdout


def test_a_tournament_between_decks_ranks_the_decks(tmp_path: Path) -> None:
    """Issue 15: a tournament between decks as well as agents."""
    db = tmp_path / "t.sqlite"
    result = run(
        "tournament", "rise-of-the-guys", "--agents", "greedy", "--deck", "tempo-machine",
        "--deck", "aggro-historical", "--deck", "control", "--games", "2", "--jobs", "2",
        "--db", str(db), "--seed", "3", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert set(report["agents"]) == {"tempo-machine", "aggro-historical", "control"}
    assert report["config"]["deck_agent"] == "greedy"
    assert sum(a["games"] for a in report["agents"].values()) == 2 * 6
    with sqlite3.connect(db) as con:
        assert con.execute("select count(*) from games").fetchone()[0] == 6


def test_a_person_plays_a_whole_game_through_stdin() -> None:
    """`p2pcards play rise-of-the-guys` with no option: the rulebook's two decks; the person
    answers 1, 2, … 9, then again, until the game ends (a number that is no choice, such as
    a card that cannot be played now, is asked again)."""
    result = run(
        "play", "rise-of-the-guys", "--agents", "greedy", "--seed", "5", "--round-cap", "12",
        stdin="".join(f"{n}\n" for n in range(1, 10)) * 300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    out = result.stdout
    assert "Rise of the Guys" in out and "lane 1" in out
    assert "your hand:" in out and "Game over" in out
    assert "Combat" in out
