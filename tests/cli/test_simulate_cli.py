"""`p2pcards simulate` and `tournament` from the command line: records that `replay` reads,
the same seed giving the same records, bot logs, failures reported, labels, and every
numeric or spec input checked in one line."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

P2PCARDS = str(Path(sys.executable).with_name("p2pcards"))
ENV = {**os.environ, "COLUMNS": "200", "NO_COLOR": "1"}
CRASH = "import sys\nsys.stdin.readline()\nprint('boom', file=sys.stderr)\nsys.exit(3)\n"


def run(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [P2PCARDS, *args], capture_output=True, text=True, timeout=timeout, env=ENV
    )


def records_of(path: Path) -> list[dict[str, Any]]:
    """The records of a file, without the time each game took."""
    lines = path.read_text().splitlines()
    return [{k: v for k, v in json.loads(line).items() if k != "seconds"} for line in lines]


def test_simulate_writes_a_record_per_game_that_replay_shows(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    done = run(
        "simulate", "getgem", "--games", "3", "--seed", "4", "--agents",
        "greedy,random:name=rnd", "--records", str(path), "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = records_of(path)
    assert [r["number"] for r in records] == [1, 2, 3]  # as the seeds 4–6 are counted
    assert [r["seed"] for r in records] == [4, 5, 6]
    assert records[0]["agents"] == ["greedy", "rnd"] and records[1]["agents"] == ["rnd", "greedy"]
    assert records[1]["specs"] == ["random:name=rnd", "greedy"]
    report = json.loads(done.stdout)
    assert report["agents"]["rnd"]["spec"] == "random:name=rnd" and report["failed_games"] == 0
    shown = run("replay", str(path), "--game", "2")
    assert shown.returncode == 0, shown.stderr
    assert "game 2 of 3" in shown.stdout and "seat 0 (rnd)" in shown.stdout
    # Games count from 1 as the seeds do: game 1 is the one of the first seed.
    assert "game 1 of 3, getgem, 2 seats, seed 4;" in run("replay", str(path), "--game", "1").stdout
    assert "Traceback" not in shown.stderr
    missing = run("replay", str(path), "--game", "7")
    assert missing.returncode == 2 and "no game numbered 7" in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1
    first, *rest = path.read_text().splitlines()
    data = json.loads(first)  # the loser's record claims the win
    data["result"]["returns"].reverse()
    data["result"]["winners"] = [s for s, r in enumerate(data["result"]["returns"]) if r > 0]
    path.write_text("\n".join([json.dumps(data), *rest]) + "\n")
    forged = run("replay", str(path))
    assert forged.returncode == 2 and "line 1: the game ends with returns" in forged.stderr


@pytest.mark.parametrize(
    "agents",
    [
        "greedy,random",
        # An expectimax given a time budget plays the same moves for the same seed (exact:
        # its CPU ceiling, which no replay repeats, dropped).
        "expectimax:think_ms=20:samples=2:exact=true,greedy",
    ],
)
def test_the_same_seed_gives_the_same_records(tmp_path: Path, agents: str) -> None:
    def records(name: str) -> list[dict[str, Any]]:
        path = tmp_path / f"{name}.jsonl"
        done = run(
            "simulate", "getgem", "--agents", agents, "--games", "2", "--seed", "21",
            "--round-cap", "15", "--records", str(path), "--json",
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        return records_of(path)

    assert records("one") == records("two")


def test_tournament_records_are_the_same_whatever_the_workers(tmp_path: Path) -> None:
    def records(name: str, jobs: str) -> list[dict[str, Any]]:
        path = tmp_path / f"{name}.jsonl"
        done = run(
            "tournament", "getgem", "--agents", "greedy,random", "--games", "4", "--seed", "8",
            "--round-cap", "15", "--db", str(tmp_path / f"{name}.sqlite"), "--jobs", jobs,
            "--records", str(path),
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        return sorted(records_of(path), key=lambda r: r["number"])

    one = records("one", "1")
    assert [r["number"] for r in one] == [1, 2, 3, 4]
    assert one == records("two", "2")
    assert run("replay", str(tmp_path / "one.jsonl"), "--game", "3").returncode == 0


def test_a_crashing_bot_is_reported_with_its_log_and_exit_1(tmp_path: Path) -> None:
    bot = tmp_path / "crash.py"
    bot.write_text(CRASH)
    logs = tmp_path / "logs"
    done = run(
        "simulate", "getgem", "--agents", f"cmd:{sys.executable} {bot}:name=crasher,random",
        "--games", "2", "--seed", "1", "--log-dir", str(logs),
        "--records", str(tmp_path / "r.jsonl"),
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert "2 of 2 games ended by an agent's failure: crasher crash 2" in done.stderr
    assert "crasher" in done.stdout and "crash 2" in done.stdout  # the table's failures column
    assert sorted(p.name for p in logs.iterdir()) == ["game-1-seat-0.log", "game-2-seat-1.log"]
    assert (logs / "game-2-seat-1.log").read_text() == "boom\n"
    records = records_of(tmp_path / "r.jsonl")
    assert [r["result"]["status"] for r in records] == ["crash", "crash"]
    shown = run("replay", str(tmp_path / "r.jsonl"), "--game", "2")
    assert shown.returncode == 0 and "(crasher) lost by crash" in shown.stdout


def test_agent_names_are_never_cut(tmp_path: Path) -> None:
    long = "expectimax:nodes=40:samples=2:paranoid=true"
    done = run("simulate", "getgem", "--agents", f"{long},{long}:name=tuned", "--games", "2",
               "--round-cap", "10")  # fmt: skip
    assert done.returncode == 0, done.stderr
    table = done.stdout
    assert long in " ".join(table.split()) and "tuned" in table


BAD = [
    (["--games", "0"], "--games must be at least 1"),
    (["--move-timeout", "-1"], "--move-timeout must be more than 0"),
    (["--move-timeout", "0"], "--move-timeout must be more than 0"),
    (["--move-timeout", "nan"], "--move-timeout must be more than 0"),
    (["--round-cap", "-1"], "--round-cap must be between 0"),
    (["--seed", "-5"], "--seed must be between 0"),
    (["--agents", "greedy:name=x,random:name=x"], "two agents are labelled 'x'"),
    (["--agents", "greedy:name="], "name= needs a label"),
    (["--agents", "wizard"], "unknown agent 'wizard'"),
    (["--deals", "DEALS"], "line 2: a seed is a whole number"),
    (["--deals", "MISSING"], "--deals"),
    # Both would be taken and one silently ignored (issue 27, finding 6).
    (["--seed", "3", "--deals", "DEALS"], "give --seed or --deals, not both"),
    (["--tc", "40/"], "--tc is MOVES/SECONDS+INCREMENT as cutechess writes it"),
    (["--tc", "40/0"], "--tc: seconds must be more than 0"),
    (["--agents", "greedy", "--agents", "wizard"], "unknown agent 'wizard'"),  # both are read
]


@pytest.mark.parametrize(("args", "message"), BAD)
def test_simulate_refuses_bad_input_in_one_line(
    tmp_path: Path, args: list[str], message: str
) -> None:
    (tmp_path / "deals.txt").write_text("1\nx\n")
    args = [a.replace("DEALS", str(tmp_path / "deals.txt")) for a in args]
    args = [a.replace("MISSING", str(tmp_path / "none.txt")) for a in args]
    if "--games" not in args:
        args = ["--games", "1", *args]
    done = run("simulate", "getgem", *args)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        *BAD,
        (["--jobs", "0"], "--jobs must be at least 1"),
        (["--dask-local", "0"], "--dask-local must be at least 1"),
        (["--sprt", "elo0=10 elo1=0"], "elo0 below elo1"),
        (["--sprt", "alpha=0"], "alpha and beta between 0 and 1"),
        (["--sprt", "beta=1"], "alpha and beta between 0 and 1"),
        (["--sprt", "elo0=x"], "needs a number"),
        (["--agents", "greedy,random,random:name=r", "--sprt", "elo1=5"], "exactly two agents"),
        (["--format", "swiss"], "round-robin or gauntlet"),
        (["--jobs", "2", "--dask-local", "2"], "give --jobs or --cluster or --dask-local"),
    ],
)
def test_tournament_refuses_bad_input_in_one_line(
    tmp_path: Path, args: list[str], message: str
) -> None:
    (tmp_path / "deals.txt").write_text("1\nx\n")
    args = [a.replace("DEALS", str(tmp_path / "deals.txt")) for a in args]
    args = [a.replace("MISSING", str(tmp_path / "none.txt")) for a in args]
    if "--agents" not in args:
        args = ["--agents", "greedy,random", *args]
    done = run("tournament", "getgem", "--db", str(tmp_path / "t.sqlite"), *args)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_ctrl_c_stops_simulate_with_exit_130_after_reporting_the_games_played(
    tmp_path: Path,
) -> None:
    path = tmp_path / "r.jsonl"
    proc = subprocess.Popen(
        [P2PCARDS, "simulate", "getgem", "--games", "100000", "--records", str(path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while (not path.exists() or path.stat().st_size == 0) and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    played = len(path.read_text().splitlines())
    assert played >= 1 and f"stopped after {played} of 100000 games" in err
    assert "wins by seat" in out and "Traceback" not in err


def test_labels_that_look_like_markup_are_printed_as_typed(tmp_path: Path) -> None:
    # A label is the user's text: "[/]" must print as is in tables, progress, board and replay,
    # never be read as rich markup (which would crash the report).
    path = tmp_path / "games.jsonl"
    agents = "greedy:name=[/]x,random:name=[bold]r"
    for command in (
        ["simulate", "getgem", "--games", "2", "--seed", "1", "--records", str(path)],
        ["tournament", "getgem", "--games", "2", "--seed", "1", "--jobs", "1",
         "--db", str(tmp_path / "t.sqlite")],
    ):  # fmt: skip
        done = run(*command, "--agents", agents)
        assert done.returncode == 0, done.stderr
        assert "[/]x" in done.stdout and "[bold]r" in done.stdout
    replayed = run("replay", str(path), "--game", "1")
    assert replayed.returncode == 0, replayed.stderr
    assert "seat 0 ([bold]r)" in replayed.stdout or "seat 1 ([bold]r)" in replayed.stdout
