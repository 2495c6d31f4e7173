"""What `simulate` and `tournament` report, written to a pipe as a file would get it: every
character of every table, infinite Elos as bounds, the SPRT's counts against the table's,
agents' failures with their reasons, a progress line (issue 27, findings 5 and 8)."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

P2PCARDS = str(Path(sys.executable).with_name("p2pcards"))
# No COLUMNS: a pipe is not a terminal, and rich would lay it out for 80 columns.
ENV = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")} | {"NO_COLOR": "1"}
KILLED = f'cmd:{sys.executable} -c "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"'


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([P2PCARDS, *args], capture_output=True, text=True, timeout=300, env=ENV)


def tournament(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run(
        "tournament", "rpg-battle", "--seed", "1", "--jobs", "1", "--db",
        str(tmp / "t.sqlite"), *args,
    )  # fmt: skip


def test_a_tournament_piped_to_a_file_loses_no_character(tmp_path: Path) -> None:
    done = tournament(tmp_path, "--agents", "greedy,random", "--games", "4")
    assert done.returncode == 0, done.stderr
    assert "…" not in done.stdout + done.stderr
    pairing = next(line for line in done.stdout.splitlines() if "greedy vs random" in line)
    assert re.search(r"\d+\.\d%–\d+\.\d%", pairing), pairing  # the interval, whole
    assert "ptnml(0-2)" in done.stdout
    # The progress line, written once to the pipe, whole too: both agents' scores.
    assert re.search(r"greedy [\d.]+/4 .* random [\d.]+/4", done.stderr), done.stderr


def test_an_infinite_elo_is_shown_as_a_bound_with_its_reason(tmp_path: Path) -> None:
    done = tournament(
        tmp_path, "--agents", "greedy,cmd:/nonexistent/prog", "--games", "2",
        "--standings", str(tmp_path / "s.json"),
    )  # fmt: skip
    assert done.returncode == 1
    assert "inf" not in done.stdout
    assert re.search(r"> \+\d+ \(all won\)", done.stdout), done.stdout
    assert re.search(r"< -\d+ \(all lost\)", done.stdout), done.stdout
    assert "every game won (or lost), which no finite Elo difference predicts" in done.stdout
    greedy = json.loads((tmp_path / "s.json").read_text())["agents"]["greedy"]
    assert greedy["elo"] is None and greedy["elo_limit"] > 150
    # The failure says why, not just "crash 2".
    reason = "cannot start '/nonexistent/prog': No such file or directory"
    assert f"cmd:/nonexistent/prog crash (2 games): {reason}" in done.stderr


def test_the_sprt_says_which_games_of_the_table_it_counted(tmp_path: Path) -> None:
    done = tournament(tmp_path, "--agents", "greedy,random", "--games", "3", "--sprt",
                      "elo0=0 elo1=10")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "of 3 games, 2 seats" in done.stdout  # the table counts all three
    assert "undecided after 2 of the 3 games (paired deals" in done.stdout
    assert "whole paired deals in an unbroken run from game 1: 1 game of the table" in done.stdout


def test_resume_of_a_database_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    done = tournament(tmp_path, "--agents", "greedy,random", "--resume")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"error: --resume: there is no tournament database {tmp_path / 't.sqlite'} to carry on"
    ]
    assert not (tmp_path / "t.sqlite").exists()


def test_a_killed_bot_is_reported_with_its_signal_and_the_log_dir_hint() -> None:
    done = run("simulate", "rpg-battle", "--agents", f"{KILLED}:name=doomed,greedy",
               "--games", "2", "--seed", "1")  # fmt: skip
    assert done.returncode == 1
    killed = f"doomed crash (2 games): {sys.executable} was killed by signal SIGKILL (9)"
    assert killed in done.stderr
    assert "--log-dir DIR keeps each bot's whole stderr" in done.stderr


def test_a_timeout_of_a_built_in_agent_has_no_bot_log_hint() -> None:
    done = run("simulate", "rpg-battle", "--agents", "expectimax:think_ms=2000:clock=true,greedy",
               "--games", "1", "--seed", "1", "--move-timeout", "0.05")  # fmt: skip
    assert done.returncode == 1
    assert "expectimax:think_ms=2000:clock=true timeout (1 game): took" in done.stderr
    assert "--log-dir" not in done.stderr


def test_simulate_shows_a_progress_line_and_counts_games_from_1(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    done = run("simulate", "getgem", "--agents", "greedy,random", "--games", "3", "--seed", "9",
               "--records", str(path))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert re.search(r"greedy [\d.]+/3 · random [\d.]+/3 .* 3/3", done.stderr), done.stderr
    first = json.loads(path.read_text().splitlines()[0])
    assert (first["number"], first["seed"]) == (1, 9)


def test_a_time_control_counts_time_losses_apart_from_crashes(tmp_path: Path) -> None:
    slow = tmp_path / "slow.py"
    slow.write_text("import time\n\ndef choose(state, actions):\n    time.sleep(0.03)\n"
                    "    return 0\n")  # fmt: skip
    done = tournament(tmp_path, "--agents", f"script:{slow}:name=slow,greedy", "--games", "2",
                      "--tc", "0.1")  # fmt: skip
    assert done.returncode == 1
    assert "time control 0.1" in done.stderr
    row = next(line for line in done.stdout.splitlines() if line.startswith("│ slow"))
    assert row.rstrip(" │").endswith("time 2"), row  # not "crash", not "timeout"
    # Each game's clock ran out at its own time: one line says so, the reasons under it.
    assert re.search(r"slow time \(2 games\)(, for one:\n    |: )lost on time: move", done.stderr)


def test_a_cluster_without_dask_says_how_to_install_it_before_storing_anything(
    tmp_path: Path,
) -> None:
    # As in a checkout set up by scripts/p2pcards alone: Dask is not importable.
    argv = ["p2pcards", "tournament", "rpg-battle", "--agents", "greedy,random",
            "--dask-local", "1", "--db", str(tmp_path / "t.sqlite")]  # fmt: skip
    code = (
        "import sys\nsys.modules['dask'] = sys.modules['distributed'] = None\n"
        f"sys.argv = {argv!r}\nfrom cli.app import main\nmain()"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env=ENV)  # fmt: skip
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "error: Dask is not installed: pip install 'p2pcards[cluster]' (in a checkout: "
        "EXTRAS=cluster scripts/p2pcards ..., or scripts/test, installs it)"
    ]
    assert not (tmp_path / "t.sqlite").exists()  # a rerun with Dask needs no --resume
