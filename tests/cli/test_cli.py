"""The command line, run as a real subprocess through the installed console script."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

P2PCARDS = str(Path(sys.executable).with_name("p2pcards"))
ROOT = Path(__file__).resolve().parents[2]


def run(
    *args: str, stdin: str = "", timeout: float = 120, columns: int = 100
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": str(columns), "NO_COLOR": "1"}
    return subprocess.run(
        [P2PCARDS, *args], input=stdin, capture_output=True, text=True, timeout=timeout, env=env
    )


def test_games_lists_rpg_battle_with_its_seat_range() -> None:
    result = run("games")
    assert result.returncode == 0
    assert "rpg-battle" in result.stdout
    assert "2–8" in result.stdout


def test_rules_shows_the_rules_and_our_choices() -> None:
    result = run("rules", "rpg-battle")
    assert result.returncode == 0
    assert "Quick Actions" in result.stdout
    assert "Our choices" in result.stdout


@pytest.mark.parametrize(
    "game", ["rise-of-the-guys", "gammasphere", "getgem", "rpg-battle", "rpg-get"]
)
def test_rules_lose_no_character_at_80_columns(game: str) -> None:
    result = run("rules", game, columns=80)
    assert result.returncode == 0, result.stderr
    source = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    shown = " ".join(result.stdout.split())
    assert shown.count("…") == source.count("…")  # none added: no cell cut short
    assert max(map(len, result.stdout.splitlines())) <= 80
    # Every cell of every table's rows, whole: each card's name and text among them.
    lines = source.splitlines()
    for line, under in zip(lines, [*lines[1:], ""], strict=True):
        if line.startswith("|") and not line.startswith("|--") and not under.startswith("|--"):
            for cell in (c.strip() for c in line.strip("|").split("|")):
                assert " ".join(cell.replace("**", "").replace("`", "").split()) in shown, cell


OUTSIDE = ("../shared", "shared/seeds", "DESIGN.md", "DESIGN §")  # the workshop, not the project


def test_the_docs_name_no_path_outside_the_repository() -> None:
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    pages += sorted((ROOT / "p2pcards" / "games").glob("*/cards.toml"))
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for outside in OUTSIDE:
            assert outside not in text, f"{page.relative_to(ROOT)} names {outside}"


@pytest.mark.parametrize("game", ["rise-of-the-guys", "gammasphere", "getgem", "rpg-battle"])
def test_rules_point_to_the_projects_own_rules_page(game: str) -> None:
    shown = " ".join(run("rules", game).stdout.split())
    assert f"docs/rules/{game}.md is the same file" in shown
    assert "line numbers below are its lines" in shown and "in our words" in shown
    assert not any(outside in shown for outside in OUTSIDE)


@pytest.mark.parametrize("command", [["rules", "chess"], ["play", "chess"], ["simulate", "chess"]])
def test_an_unknown_game_lists_the_known_ones_and_exits_2(command: list[str]) -> None:
    result = run(*command)
    assert result.returncode == 2
    assert "unknown game 'chess'" in result.stderr
    assert "rpg-battle" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("seats", ["1", "9"])
def test_seats_out_of_range_say_the_range(seats: str) -> None:
    result = run("simulate", "rpg-battle", "--seats", seats, "--games", "1")
    assert result.returncode == 2
    assert "2 to 8 seats" in result.stderr


def test_an_unknown_agent_is_a_usage_error() -> None:
    result = run("simulate", "rpg-battle", "--agents", "greedy,wizard", "--games", "1")
    assert result.returncode == 2
    assert "unknown agent 'wizard'" in result.stderr


def test_simulate_json_counts_every_game_and_rotates_seats() -> None:
    result = run(
        "simulate", "rpg-battle", "--seats", "3", "--agents", "greedy,random",
        "--games", "6", "--seed", "11", "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["games"] == 6
    wins = sum(a["wins"] for a in report["agents"].values())
    assert wins == pytest.approx(6.0)
    # Three seats, two agents rotated: 18 seatings, 9 each.
    assert {name: a["games"] for name, a in report["agents"].items()} == {"greedy": 9, "random": 9}
    assert sum(report["wins_by_seat"].values()) == pytest.approx(6.0)


def test_simulate_is_reproducible_from_its_seed() -> None:
    args = ("simulate", "rpg-battle", "--games", "4", "--seed", "3", "--json")
    first, second = run(*args), run(*args)
    # Two identical crashes would agree too: both runs must succeed and report the games.
    assert first.returncode == second.returncode == 0, first.stderr
    report = json.loads(first.stdout)
    assert report["games"] == 4 and report["seed"] == 3 and report["failed_games"] == 0
    assert sum(agent["wins"] for agent in report["agents"].values()) == pytest.approx(4.0)
    assert first.stdout == second.stdout


def test_a_game_of_one_seat_count_says_so_in_plain_words() -> None:
    result = run("simulate", "gammasphere", "--seats", "3", "--games", "1")
    assert result.returncode == 2
    assert result.stderr.strip() == "error: gammasphere is for 2 seats, not 3"
    listed = run("games", "--json")
    assert listed.returncode == 0, listed.stderr
    seats = {g["game"]: (g["min_seats"], g["max_seats"]) for g in json.loads(listed.stdout)}
    assert seats["gammasphere"] == (2, 2) and seats["rpg-battle"] == (2, 8)
    shown = run("games").stdout
    assert re.search(r"gammasphere .* 2 ", shown) and "2–2" not in shown and "2–8" in shown


def test_the_last_page_of_the_log_says_it_is_the_last() -> None:
    result = run("play", "rpg-battle", "--seed", "1", stdin="l\nl\nq\n")
    assert "The game so far, page 1 of 1 (the last page)" in result.stdout
    assert "(l: next page)" not in result.stdout
    # A second l does not go round to page 1 again as if it were the next page.
    assert "That was the last page (1); l 1 goes back to the first." in result.stdout
    assert result.stdout.count("The game so far, page") == 1


def test_repeated_agents_add_up_and_a_label_names_the_seat() -> None:
    # --agents twice: both lists seated, as --deck repeats (issue 27, finding 6).
    result = run("simulate", "rpg-battle", "--games", "2", "--seed", "1", "--json",
                 "--agents", "greedy", "--agents", "random:name=Bob")  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert set(json.loads(result.stdout)["agents"]) == {"greedy", "Bob"}
    played = run("play", "getgem", "--seats", "3", "--seed", "1", "--agents",
                 "greedy:name=Alice", "--agents", "random:name=Bob", stdin="q\n")  # fmt: skip
    assert played.returncode == 130
    assert "AI: Alice, Bob, seed 1" in played.stdout
    assert "seat 1 (Alice)" in played.stdout and "seat 2 (Bob)" in played.stdout


def test_simulate_table_reports_wins_per_agent_and_seat() -> None:
    result = run("simulate", "rpg-battle", "--games", "4", "--agents", "random")
    assert result.returncode == 0
    assert "wins at seat 1" in result.stdout
    assert "random" in result.stdout


def test_play_to_the_end_through_stdin() -> None:
    # Answer "2" (the first card on offer when there is one), then "1": when "2" is not a
    # choice the prompt asks again and gets "1". With a round cap the game must end.
    result = run(
        "play", "rpg-battle", "--agents", "greedy", "--seed", "7", "--round-cap", "30",
        stdin="2\n1\n" * 5000,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "Game over" in result.stdout or "You win!" in result.stdout
    assert re.search(r"\bYour \w+ plays ", result.stdout)
    assert "Traceback" not in result.stderr


def test_play_asks_again_after_an_invalid_choice_and_quits_on_q() -> None:
    result = run("play", "rpg-battle", "--seed", "1", stdin="0\nabc\n?\nq\n")
    assert result.returncode == 130  # docs/cli.md: leaving a game unfinished is an interruption
    assert result.stdout.count("Please type a number from 1 to") == 2
    assert "Type the number of a choice" in result.stdout  # the ? help
    assert "You left the table" in result.stdout
    assert "--seed 1" in result.stdout


def test_play_leaves_cleanly_at_end_of_input() -> None:
    result = run("play", "rpg-battle", "--seed", "2", stdin="1\n")
    assert result.returncode == 130
    assert "You left the table" in result.stdout


def test_play_explain_shows_the_ai_search_after_its_moves() -> None:
    # Seat 0 picks a character first, then the AI (seat 1) searches its own pick.
    result = run(
        "play", "rpg-battle", "--ai", "expectimax:nodes=400", "--seed", "4", "--explain",
        stdin="1\nq\n",
    )  # fmt: skip
    assert result.returncode == 130, result.stderr
    thought = result.stdout[result.stdout.index("seat 1 depth") :]
    assert "<- chosen" in thought and "samples" in thought and "nodes" in thought


def test_simulate_explain_keeps_stdout_json_and_explains_on_stderr() -> None:
    result = run(
        "simulate", "rpg-battle", "--agents", "expectimax:nodes=300:name=deep,greedy", "--games",
        "1", "--json", "--explain",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["games"] == 1
    lines = result.stderr.splitlines()
    explained = [line for line in lines if line.startswith("game 1, seat 0 (deep) depth")]
    assert explained and sum("<- chosen" in line for line in lines) == len(explained)
    assert "(greedy)" not in result.stderr  # greedy does not search: nothing to explain
