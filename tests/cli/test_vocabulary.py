"""One vocabulary across the commands (docs/cli.md): help, version, spellings, exit codes."""

import re
from importlib.metadata import version

import pytest
from test_cli import run

COMMANDS = [
    "games", "rules", "play", "host", "join", "bot", "tables", "audit", "replay", "simulate",
    "tournament", "agent-stdio",
]  # fmt: skip


def test_every_command_is_in_the_main_help() -> None:
    listed = run("-h")
    assert listed.returncode == 0
    for command in COMMANDS:
        assert re.search(rf"│ {re.escape(command)}\s", listed.stdout), command


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_takes_dash_h_and_shows_clean_flags(command: str) -> None:
    helped = run(command, "-h")
    assert helped.returncode == 0, helped.stderr
    assert "Usage: p2pcards " + command in " ".join(helped.stdout.split())
    # A flag is one word: no "--x/--no-x" pair, no placeholder after a boolean.
    assert "--no-" not in helped.stdout
    assert "<bool>" not in helped.stdout


def test_version_prints_the_installed_version() -> None:
    shown = run("--version")
    assert shown.returncode == 0
    assert shown.stdout.strip() == f"p2pcards {version('p2pcards')}"


@pytest.mark.parametrize(
    ("command", "old", "args", "says"),
    [
        # play runs: the AI named with the old spelling takes the seat.
        ("play", "--ai", ["random:name=oldie", "--seed", "1"], "AI: oldie,"),
        # host is checked before it opens a table: the old spelling's value is what is
        # judged (and refused), so it was read, not ignored.
        ("host", "--ai", ["5"], "--ai-seats must leave at least the host's seat: 0 to 1"),
        ("host", "--ai-agent", ["nobody"], "unknown agent 'nobody'"),
    ],
)
def test_old_spellings_work_but_are_not_advertised(
    command: str, old: str, args: list[str], says: str
) -> None:
    helped = run(command, "-h")
    assert f"{old} " not in helped.stdout and f"{old}\n" not in helped.stdout
    used = run(command, "getgem", old, *args, stdin="q\n")
    assert says in used.stdout + used.stderr, used.stderr
    assert "No such option" not in used.stderr


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["play", "getgem", "--ai", "greedy", "--agents", "random"], "not both"),
        (["play", "getgem", "--round-cap", "-1"], "--round-cap must be between 0"),
        (["play", "getgem", "--seed", "-3"], "--seed must be between 0"),
        (["play", "getgem", "--agents", "greedy,nobody"], "unknown agent 'nobody'"),
    ],
)
def test_play_rejects_bad_values_in_one_line_with_exit_2(args: list[str], says: str) -> None:
    done = run(*args)
    assert done.returncode == 2, done.stdout
    assert says in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_play_seats_a_list_of_agents_round_the_table_and_prints_the_seed() -> None:
    done = run("play", "getgem", "--seats", "4", "--agents", "greedy,random", stdin="q\n")
    assert done.returncode == 130  # left unfinished
    first = done.stdout.splitlines()[0]
    assert "AI: greedy, random" in first
    assert re.search(r"seed \d+", first)


def test_play_with_round_cap_zero_plays_without_a_cap() -> None:
    # 0 is "no cap" (docs/cli.md); the old meaning of 0 was an error.
    done = run("play", "getgem", "--round-cap", "0", "--seed", "1", stdin="q\n")
    assert done.returncode == 130, done.stderr


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["simulate", "getgem", "--games", "abc"], "'abc' is not a valid int"),
        (["simulate", "getgem", "--bogus"], "No such option: --bogus"),
        (["nosuch"], "No such command 'nosuch'"),
        (["simulate"], "Missing argument"),
        (["play", "getgem", "--seed", "-3"], "--seed must be between 0 and 9223372036854775807"),
    ],
)
def test_usage_errors_are_one_line_naming_the_help_with_exit_2(args: list[str], says: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert says in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr


def test_no_arguments_shows_the_help_and_succeeds() -> None:
    done = run()
    assert done.returncode == 0
    assert "Usage: p2pcards" in done.stdout and "tournament" in done.stdout
