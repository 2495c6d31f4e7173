"""`p2pcards tournament`, `agent-stdio` and bot specs, run as real subprocesses."""

import csv
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

P2PCARDS = str(Path(sys.executable).with_name("p2pcards"))
EXAMPLES = Path(__file__).resolve().parents[2] / "scripts" / "examples"
ENV = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1"}
# Deterministic agents (a node budget, not a clock), quick enough for 40 games.
AGENTS = "greedy,expectimax:nodes=80:samples=2"
GAMES = "20"  # per pairing: 20 games in all


def tournament(tmp: Path, name: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [P2PCARDS, "tournament", "rpg-battle", "--agents", AGENTS, "--games", GAMES, "--seed",
         "5", "--db", str(tmp / f"{name}.sqlite"), "--csv", str(tmp / f"{name}.csv"), *extra],
        capture_output=True, text=True, timeout=600, env=ENV,
    )  # fmt: skip


def games_in(path: Path) -> list[dict[str, str]]:
    """The CSV rows without the time each game took."""
    with path.open() as f:
        return [{k: v for k, v in row.items() if k != "seconds"} for row in csv.DictReader(f)]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, str]]:
    """The reference run: one worker, never stopped."""
    tmp = tmp_path_factory.mktemp("reference")
    done = tournament(tmp, "reference", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    return games_in(tmp / "reference.csv")


def test_the_reference_run_reports_standings(uninterrupted: list[dict[str, str]]) -> None:
    assert len(uninterrupted) == 20 and {row["status"] for row in uninterrupted} == {"ok"}


def stop_midway(tmp: Path, name: str, how: signal.Signals) -> subprocess.Popen[str]:
    """Start a two-worker run and send it `how` once a few games are stored."""
    db = tmp / f"{name}.sqlite"
    proc = subprocess.Popen(
        [P2PCARDS, "tournament", "rpg-battle", "--agents", AGENTS, "--games", GAMES, "--seed",
         "5", "--db", str(db), "--jobs", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
        start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while stored(db) < 4 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert proc.poll() is None, "the run finished before it could be stopped"
    if how == signal.SIGKILL:
        os.killpg(proc.pid, how)  # the whole run, workers included
    else:
        proc.send_signal(how)  # Ctrl-C
    return proc


def stored(db: Path) -> int:
    """Games in the database so far (0 before it exists)."""
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db) as peek:
            return int(peek.execute("SELECT COUNT(*) FROM games").fetchone()[0])
    except sqlite3.OperationalError:
        return 0  # the schema is not there yet


def test_a_run_killed_with_sigkill_resumes_to_exactly_the_uninterrupted_games(
    tmp_path: Path, uninterrupted: list[dict[str, str]]
) -> None:
    proc = stop_midway(tmp_path, "killed", signal.SIGKILL)
    proc.communicate(timeout=60)
    assert 4 <= stored(tmp_path / "killed.sqlite") < 20
    resumed = tournament(tmp_path, "killed", "--jobs", "2", "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert games_in(tmp_path / "killed.csv") == uninterrupted


def test_ctrl_c_stops_at_once_keeping_the_finished_games(
    tmp_path: Path, uninterrupted: list[dict[str, str]]
) -> None:
    proc = stop_midway(tmp_path, "stopped", signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    kept = stored(tmp_path / "stopped.sqlite")
    assert proc.returncode == 130 and 4 <= kept < 20
    assert f"{kept} of 20 games are stored" in " ".join(err.split()) and "--resume" in err
    resumed = tournament(tmp_path, "stopped", "--jobs", "1", "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert games_in(tmp_path / "stopped.csv") == uninterrupted


def test_a_dask_local_cluster_gives_the_same_results(
    tmp_path: Path, uninterrupted: list[dict[str, str]]
) -> None:
    done = tournament(tmp_path, "dask", "--dask-local", "2")
    assert done.returncode == 0, done.stderr
    assert games_in(tmp_path / "dask.csv") == uninterrupted


def test_standings_json_and_the_table(tmp_path: Path) -> None:
    done = tournament(tmp_path, "json", "--standings", str(tmp_path / "s.json"))
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "s.json").read_text())
    assert data["games"] == 20 and data["config"]["agents"] == AGENTS.split(",")
    agents = data["agents"]
    assert sum(a["wins"] + a["draws"] / 2 for a in agents.values()) == pytest.approx(20)
    for rating in agents.values():
        low, high = rating["interval95"]
        assert low <= rating["score"] <= high
    assert "W-D-L" in done.stdout and "pairings" in done.stdout and "Elo" in done.stdout


def test_an_existing_database_needs_resume_and_a_foreign_one_is_refused(tmp_path: Path) -> None:
    (tmp_path / "junk.sqlite").write_bytes(b"junk" * 1000)
    junk = tournament(tmp_path, "junk")
    assert junk.returncode == 2 and "not a tournament database" in junk.stderr
    assert "Traceback" not in junk.stderr
    quick = ["--games", "2"]
    first = tournament(tmp_path, "again", *quick)
    assert first.returncode == 0, first.stderr
    again = tournament(tmp_path, "again", *quick)
    assert again.returncode == 2 and "--resume" in again.stderr
    other = tournament(tmp_path, "again", "--games", "4", "--resume")
    assert other.returncode == 2 and "different tournament" in other.stderr


def test_sprt_stops_once_decided(tmp_path: Path) -> None:
    done = subprocess.run(
        [P2PCARDS, "tournament", "rpg-battle", "--agents", "greedy,random", "--games", "400",
         "--db", str(tmp_path / "sprt.sqlite"), "--standings", str(tmp_path / "sprt.json"),
         "--sprt", "elo0=0 elo1=200 alpha=0.05 beta=0.05"],
        capture_output=True, text=True, timeout=600, env=ENV,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "sprt.json").read_text())
    assert data["sprt"]["decision"] == "H1" and data["games"] < 400
    low, high = data["sprt"]["bounds"]
    assert data["sprt"]["llr"] >= high > 0 > low and data["sprt"]["paired"]
    assert sum(data["sprt"]["counts"]) * 2 == data["sprt"]["games"] <= data["games"]
    assert "H1 accepted" in done.stdout and "LLR" in done.stdout


def test_the_javascript_example_bot_plays_a_tournament(tmp_path: Path) -> None:
    spec = f'cmd:"node {EXAMPLES / "bot.js"}"'
    done = subprocess.run(
        [P2PCARDS, "tournament", "rpg-battle", "--agents", f"{spec},random", "--games", "10",
         "--db", str(tmp_path / "js.sqlite"), "--standings", str(tmp_path / "js.json"),
         "--move-timeout", "10"],
        capture_output=True, text=True, timeout=600, env=ENV,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads((tmp_path / "js.json").read_text())
    bot = data["agents"][spec]
    assert bot["failures"] == {} and bot["games"] == 10
    assert bot["score"] > 0.5  # a plan beats no plan


def test_a_python_script_bot_plays(tmp_path: Path) -> None:
    done = subprocess.run(
        [P2PCARDS, "simulate", "rpg-battle", "--agents",
         f"script:{EXAMPLES / 'bot_script.py'},random", "--games", "4", "--json"],
        capture_output=True, text=True, timeout=300, env=ENV,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 4


def test_a_missing_script_or_command_is_a_clear_error(tmp_path: Path) -> None:
    done = subprocess.run(
        [P2PCARDS, "tournament", "rpg-battle", "--agents", "script:nowhere.py,random",
         "--db", str(tmp_path / "x.sqlite")],
        capture_output=True, text=True, timeout=60, env=ENV,
    )  # fmt: skip
    assert done.returncode == 2 and "no bot script 'nowhere.py'" in done.stderr


def test_a_plugin_agent_is_found_through_its_entry_point(tmp_path: Path) -> None:
    # A real installed-package layout: a module and a dist-info with entry_points.txt.
    (tmp_path / "firstmove.py").write_text(
        "class FirstMove:\n"
        "    name = 'first'\n"
        "    def __init__(self, seed=None, skip=0):\n"
        "        self.skip = skip\n"
        "    def act(self, observation):\n"
        "        actions = observation.legal_actions()\n"
        "        return actions[min(self.skip, len(actions) - 1)]\n"
    )
    info = tmp_path / "firstmove-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: firstmove\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[p2pcards.agents]\nfirst = firstmove:FirstMove\n")
    env = {**ENV, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(
        [P2PCARDS, "simulate", "rpg-battle", "--agents", "first:skip=1,random", "--games", "2",
         "--json"],
        capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "first:skip=1" in json.loads(done.stdout)["agents"]
    unknown = subprocess.run(
        [P2PCARDS, "simulate", "rpg-battle", "--agents", "second,random"],
        capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    assert unknown.returncode == 2 and "first" in unknown.stderr  # the plugin is listed


def test_agent_stdio_plays_a_seat_over_json_lines_and_forgives_a_bad_line() -> None:
    proc = subprocess.Popen(
        [P2PCARDS, "agent-stdio", "rpg-battle", "--seat", "1", "--seed", "3",
         "--agents", "greedy"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    observed = errors = 0
    sent_garbage = False
    result = None
    for line in proc.stdout:
        message = json.loads(line)
        if message["type"] == "observe":
            observed += 1
            assert message["seat"] == 1 and message["state"]["viewer"] == 1
            hands = message["state"]["hands"]
            if message["state"]["round"] == 1:  # before any Steal could show one of them,
                assert all(card is None for card in hands[0])  # seat 0's cards are hidden
            if not sent_garbage:
                proc.stdin.write("this is not json\n")
                sent_garbage = True
            proc.stdin.write(json.dumps({"type": "act", "action": len(message["actions"]) - 1}))
            proc.stdin.write("\n")
            proc.stdin.flush()
        elif message["type"] == "error":
            errors += 1
        elif message["type"] == "result":
            result = message
    proc.wait(timeout=60)
    assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""
    assert errors == 1 and observed > 10
    assert result is not None and result["seat"] == 1 and sum(result["returns"]) == 1


def test_json_on_stdout_a_deal_book_and_resume_taking_the_stored_seed(tmp_path: Path) -> None:
    book = tmp_path / "deals.txt"
    book.write_text("# two deals\n11\n12\n")
    args = [P2PCARDS, "tournament", "getgem", "--agents", "greedy,random:name=rnd", "--games",
            "4", "--db", str(tmp_path / "t.sqlite"), "--round-cap", "15", "--jobs",
            "1"]  # fmt: skip
    first = subprocess.run(
        [*args, "--deals", str(book), "--json", "--records",
         str(tmp_path / "r.jsonl")],
        capture_output=True, text=True, timeout=300, env=ENV,
    )  # fmt: skip
    assert first.returncode == 0, first.stderr
    data = json.loads(first.stdout)  # stdout is the JSON alone; the tables went to stderr
    assert "W-D-L" in first.stderr and "2 deals from the deal book" in first.stderr
    assert (
        data["config"]["deals"] == [11, 12] and data["agents"]["rnd"]["spec"] == "random:name=rnd"
    )
    (pairing,) = data["pairings"]
    assert pairing["agents"] == ["greedy", "rnd"] and sum(pairing["pentanomial"]) == 2
    assert 0 <= pairing["los"] <= 1
    seeds = [json.loads(line)["seed"] for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert sorted(seeds) == [11, 11, 12, 12]
    # Carrying on without --deals takes the stored ones: nothing is left to play.
    again = subprocess.run([*args, "--resume"], capture_output=True, text=True, timeout=300,
                           env=ENV)  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert "2 deals from the deal book" in again.stderr and "4 of 4 games" in again.stdout


def test_the_progress_line_shows_every_agents_score_and_the_llr(tmp_path: Path) -> None:
    done = subprocess.run(
        [P2PCARDS, "tournament", "getgem", "--agents", "greedy:name=g,random", "--games", "6",
         "--db", str(tmp_path / "p.sqlite"), "--round-cap", "15", "--jobs", "1",
         "--sprt", "elo0=0 elo1=400"],
        capture_output=True, text=True, timeout=300, env=ENV,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    progress = [line for line in done.stderr.splitlines() if "LLR" in line]
    assert progress and " g " in f" {progress[-1]}" and "random" in progress[-1]
    assert "[-2.94, 2.94]" in progress[-1]
    assert "SPRT elo0=0 elo1=400" in done.stdout and "LLR" in done.stdout
