"""scripts/bench_ai.py: --pair compares two saved benchmark runs game by game; bad arguments
are refused in a line."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = [sys.executable, str(ROOT / "scripts" / "bench_ai.py")]


def bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*BENCH, *args], capture_output=True, text=True, cwd=ROOT, timeout=300, check=False
    )


def test_an_oracle_run_pairs_with_plain_runs_of_the_same_games(tmp_path: Path) -> None:
    # The oracle run prints each side's line of games; a plain run of the same numbers, saved
    # in two chunks, pairs with either side, game by game.
    common = ["--game", "getgem", "--seats", "3", "--opponents", "greedy", "--jobs", "1"]
    oracle = bench(*common, "--oracle", "--games", "4", "--ai", "expectimax:nodes=60,greedy")
    assert oracle.returncode == 0, oracle.stderr
    (tmp_path / "oracle.txt").write_text(oracle.stdout)
    chunks = [bench(*common, "--games", "2", "--start", str(s), "--ai", "greedy") for s in (0, 2)]
    (tmp_path / "greedy.txt").write_text("".join(c.stdout for c in chunks))

    same = bench("--pair", f"{tmp_path}/oracle.txt@greedy", f"{tmp_path}/greedy.txt")
    assert same.returncode == 0, same.stderr
    assert "4 games in common (0-3)" in same.stdout
    assert "+0.0 points" in same.stdout and "better in 0, worse in 0" in same.stdout

    told = bench("--pair", f"{tmp_path}/oracle.txt@oracle", f"{tmp_path}/greedy.txt")
    wins = oracle.stdout.split("  oracle: ")[1].split("games 0-: ")[1].split()[0].count("1")
    assert f"oracle.txt@oracle: {wins} |" in told.stdout


def test_runs_that_cannot_be_paired_say_why(tmp_path: Path) -> None:
    line = "  {}by seat: seat 0 1/2 | games {}-: {}\n"
    (tmp_path / "two.txt").write_text(
        line.format("oracle: ", 0, "10") + line.format("x: ", 0, "11")
    )
    (tmp_path / "clash.txt").write_text(line.format("", 0, "10") + line.format("", 1, "1"))
    (tmp_path / "far.txt").write_text(line.format("", 50, "1"))
    (tmp_path / "none.txt").write_text("nothing here\n")
    for first, message in [
        ("two.txt", "holds several sides: name one as"),
        ("two.txt@y", "no line of games labelled 'y'"),
        ("clash.txt", "gives game 1 two different results"),
        ("far.txt", "played no game number in common"),
        ("none.txt", "has no line of games"),
        ("missing.txt", "cannot read"),
    ]:
        done = bench("--pair", f"{tmp_path}/{first}", f"{tmp_path}/two.txt@oracle")
        assert done.returncode == 1 and message in done.stderr, (first, done.stderr)
        assert "Traceback" not in done.stderr


def test_counts_and_games_it_cannot_run_are_refused_in_a_line() -> None:
    # Before any work: --positions -1 once divided by the zero nodes it searched.
    for args, told in [
        (["--same-moves", "--instructions", "--positions", "-1"], "--positions must be 1 or more"),
        (["--same-moves", "--nodes", "0"], "--nodes must be 1 or more"),
        (["--game", "nosuch", "--games", "1"], "unknown game 'nosuch'"),
        (["--think-ms", "nan"], "--think-ms more than 0"),
    ]:
        done = bench(*args)
        assert done.returncode == 2 and told in done.stderr, (args, done.stderr)
        assert "Traceback" not in done.stderr
