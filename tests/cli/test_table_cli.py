"""Bad input to the table commands: one clear line and exit 2, before any table opens."""

import subprocess
from pathlib import Path

import pytest
from lan_helpers import ENV, P2PCARDS


def run(*args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [P2PCARDS, *args], capture_output=True, text=True, env=ENV, timeout=timeout
    )


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["host", "rpg-battle", "--port", "99999"], "--port must be between 0 and 65535"),
        (["host", "rpg-battle", "--port", "-1"], "--port must be between 0 and 65535"),
        (["host", "rpg-battle", "--timeout", "-5"], "--timeout must be between"),
        (["host", "rpg-battle", "--leave-timeout", "-1"], "--leave-timeout must be between"),
        (["host", "rpg-battle", "--round-cap", "-1"], "--round-cap must be between"),
        (["host", "rpg-battle", "--ai-seats", "2"], "--ai-seats must leave"),
        (["host", "rpg-battle", "--ai-seats", "1", "--agents", "nonsense"], "nonsense"),
        (["host", "rpg-battle", "--ai", "1", "--ai-agent", "nonsense"], "nonsense"),  # old names
        (["host", "rpg-battle", "--ai", "1", "--ai-seats", "1"], "not both"),
        (["host", "rpg-battle", "--advertise", "[/]"], "is not an IP address or host name"),
        (["host", "rpg-battle", "--bind", "not an address"], "is not an IP address"),
        (["host", "rpg-battle", "--name", "tab\there"], "--name must be"),
        (["join", "[/]"], "is not an invite code"),
        (["join", "[bold]x[/bold]:1/AAAA-AAAA-AAAA-AAAA/AAAA-AAAA"], "invite"),
        (["tables", "--seconds", "-1"], "--seconds must be between"),
        (["bot", "--cmd", "x", "--script", "y"], "not --cmd and --script"),
        # issue 27, finding 6: an agent and a program for one seat, one of them ignored
        (["bot", "--agent", "greedy", "--cmd", "node bot.js"], "not --agent and --cmd"),
        (["bot", "--agent", "random", "--script", "bot.py"], "not --agent and --script"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str], says: str) -> None:
    done = run(*args, "--home", str(tmp_path)) if args[0] != "tables" else run(*args)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert says in done.stderr
    assert "Traceback" not in done.stderr and "MarkupError" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_a_save_file_that_is_no_save_file_is_refused_cleanly(tmp_path: Path) -> None:
    junk = tmp_path / "junk.p2pt"
    junk.write_bytes(b"\x00\x00\x00\x05[/]ab")
    for command in (["audit", str(junk)], ["replay", str(junk)], ["join", "--resume", str(junk)]):
        done = run(*command)
        assert done.returncode in (1, 2) and "Traceback" not in done.stderr, done.stderr
        assert "junk.p2pt" in done.stderr
