"""RPG Get! at the command line, run as real subprocesses: its decks (`deck list`, `deck
validate`), `rules rpg-get`, `simulate` at 3 seats with records that `replay`, a tournament
at 4 seats, a person playing through stdin at 2 to 5 seats, and `agent-stdio` with the
JavaScript bot of the bot protocol."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

P2PCARDS = str(Path(sys.executable).with_name("p2pcards"))
ROOT = Path(__file__).parents[2]
DECKS = ROOT / "p2pcards" / "games" / "rpg_get" / "decks"
BOT_JS = ROOT / "scripts" / "examples" / "bot.js"
ENV = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1"}

assert shutil.which("node"), "the bot-protocol test needs Node.js (scripts/test installs it)"


def run(*args: str, stdin: str = "", timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [P2PCARDS, *args], input=stdin, capture_output=True, text=True, timeout=timeout, env=ENV
    )


def test_the_starter_decks_are_listed_and_valid_and_a_broken_one_is_named(tmp_path: Path) -> None:
    listed = run("deck", "list", "rpg-get", "--json")
    assert listed.returncode == 0, listed.stderr
    shipped = {deck.stem for deck in DECKS.glob("*.toml")}
    assert {"sky-pirates", "sword-and-sorcery", "ragol-hunters"} <= shipped
    assert {d["deck"] for d in json.loads(listed.stdout)} == shipped
    good = run("deck", "validate", str(DECKS / "sky-pirates.toml"))
    assert good.returncode == 0 and "legal (80 cards)" in good.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "Bad"\ngame = "rpg-get"\n[cards]\nryudo = 30\nno-such-card = 2\n')
    result = run("deck", "validate", str(bad), "--json")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    problems = " ".join(json.loads(result.stdout)["problems"])
    assert "no-such-card" in problems and "80 cards needed" in problems


def test_the_rules_page_and_the_games_list() -> None:
    rules = run("rules", "rpg-get")
    assert rules.returncode == 0 and "mission attempt" in " ".join(rules.stdout.split())
    listed = run("games")
    assert "rpg-get" in listed.stdout and "2–5" in listed.stdout


def test_simulate_at_three_seats_with_chosen_decks_writes_records_that_replay(
    tmp_path: Path,
) -> None:
    records = tmp_path / "games.jsonl"
    result = run(
        "simulate", "rpg-get", "--seats", "3", "--games", "2", "--seed", "4",
        "--agents", "greedy,random,greedy", "--records", str(records),
        "--deck", "sky-pirates", "--deck", "sword-and-sorcery", "--deck", "sky-pirates",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "rpg-get: 2 games, 3 seats" in result.stdout + result.stderr
    first = json.loads(records.read_text().splitlines()[0])
    assert len(first["options"]["decks"]) == 3
    assert all(sum(deck.values()) == 80 for deck in first["options"]["decks"])
    replay = run("replay", str(records), "--game", "2")
    assert replay.returncode == 0, replay.stderr
    assert "Game over" in replay.stdout and "mission" in replay.stdout


def test_a_tournament_at_four_seats(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    result = run(
        "tournament", "rpg-get", "--seats", "4", "--agents", "greedy,random", "--games", "2",
        "--jobs", "1", "--db", str(db), "--seed", "3", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert set(report["agents"]) == {"greedy", "random"}
    assert all(a["failures"] == {} for a in report["agents"].values())
    with sqlite3.connect(db) as con:
        assert con.execute("select count(*) from games").fetchone()[0] == 2


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_a_person_plays_rpg_get_through_stdin(seats: int) -> None:
    """A person who tries the lines in turn (1 to 9, then again) plays a capped game against
    AIs to its end, reading the board, the attempt and the hand."""
    result = run(
        "play", "rpg-get", "--seats", str(seats), "--seed", str(seats), "--round-cap", "4",
        "--agents", "greedy", stdin="".join(f"{n}\n" for n in range(1, 10)) * 2000,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    out = result.stdout
    assert "Game over" in out and "your hand:" in out and "Traceback" not in result.stderr
    assert "mission:" in out and "active party (PP" in out  # an attempt was drawn
    assert all(f"seat {s}" in out for s in range(1, seats))


def test_agent_stdio_plays_rpg_get_with_the_javascript_bot(tmp_path: Path) -> None:
    """The bot protocol at a 3-seat RPG Get! table: the bot plays seat 1 of two games and is
    sent no error."""
    log = tmp_path / "bot.log"
    node = subprocess.Popen(
        ["node", str(BOT_JS), "--log", str(log)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    agent = subprocess.Popen(
        [P2PCARDS, "agent-stdio", "rpg-get", "--seats", "3", "--seat", "1", "--games", "2",
         "--agents", "greedy,random", "--seed", "5", "--round-cap", "6"],
        stdin=node.stdout, stdout=node.stdin, stderr=subprocess.PIPE, text=True, env=ENV,
    )  # fmt: skip
    assert node.stdin is not None and node.stdout is not None
    node.stdin.close()  # each end now belongs to the other process alone
    node.stdout.close()
    errors = ""

    def read_errors() -> None:
        nonlocal errors
        assert agent.stderr is not None
        errors = agent.stderr.read()

    reader = threading.Thread(target=read_errors)
    reader.start()
    assert agent.wait(timeout=300) == 0
    reader.join()
    node.wait(timeout=30)
    assert "seed 5" in errors, errors
    said = [json.loads(line[2:]) for line in log.read_text().splitlines()]
    newgames = [m for m in said if m["type"] == "newgame"]
    assert len(newgames) == 2 and all(m["seat"] == 1 and m["seats"] == 3 for m in newgames)
    results = [m for m in said if m["type"] == "result"]
    assert len(results) == 2 and all(len(r["returns"]) == 3 for r in results)
    assert not [m for m in said if m["type"] == "error"]
    assert any(m["type"] == "act" for m in said)  # the bot decided
