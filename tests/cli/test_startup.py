"""What the program imports to start: each command loads the games, agents and protocol it
uses when it runs, so `--help` and an AI seat's process start cheap (issue 13).

Checked by the modules a fresh interpreter holds, not by a clock: the timings are for
`scripts/bench_startup.py`.
"""

import json
import socket
import subprocess
import sys
from pathlib import Path

# Start-up never needs these: the table machinery, the games, the agents, the search, the
# tournament's database and pool, the terminal views, and rich's markdown and progress bars.
HEAVY = {
    "asyncio", "sqlite3", "multiprocessing", "rich.markdown", "rich.progress",
    "p2pcards.engine", "p2pcards.games.rpg_battle", "p2pcards.games.getgem",
    "protocol.net", "protocol.savefile", "protocol.discovery", "protocol.identity",
    "ai.agents", "ai.expectimax", "ai.match", "ai.tournament", "ai.results_db", "ai.bots",
    "cli.table", "cli.play", "cli.views", "cli.getgem_view", "cli.rpg_battle_view",
}  # fmt: skip
# What a bot needs of those: the table, the protocol and its agent.
BOT_NEEDS = {
    "asyncio", "p2pcards.engine", "protocol.net", "protocol.savefile", "protocol.discovery",
    "protocol.identity", "ai.agents", "cli.table", "cli.play", "cli.views",
}  # fmt: skip


def modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running `code`."""
    program = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    result = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return set(json.loads(result.stdout.splitlines()[-1]))


def test_starting_the_program_imports_none_of_the_heavy_modules() -> None:
    assert modules_after("import cli.app") & HEAVY == set()


def test_a_bot_imports_the_table_and_its_agent_but_not_the_rest(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nobody listens on: the bot fails to reach it
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code = f"127.0.0.1:{port}/AAAA-AAAA-AAAA-AAAA/AAAA-AAAA"
    argv = ["p2pcards", "bot", code, "--agent", "greedy", "--home", str(tmp_path), "--quiet"]
    loaded = modules_after(
        f"import sys\nsys.argv = {argv!r}\nfrom cli.app import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass"
    )
    assert {"protocol.net", "cli.table", "ai.agents"} <= loaded
    # Not the search (a greedy bot), the tournament, the terminal's views or the games.
    assert loaded & (HEAVY - BOT_NEEDS) == set()


def test_ctrl_c_while_the_program_is_still_importing_ends_it_quietly() -> None:
    """Ctrl-C before any command has taken it over (a host interrupted while typer and rich
    load) exits 130 without a traceback, as it does later (it used to print one)."""
    program = (
        "import sys\n"
        "class Interrupted:\n"  # Ctrl-C lands as rich is imported
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'rich':\n"
        "            raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, Interrupted())\n"
        "sys.argv = ['p2pcards', '--help']\n"
        "from cli.entry import main\n"
        "main()\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 130, result.stderr
    assert "Traceback" not in result.stderr and "KeyboardInterrupt" not in result.stderr
