"""Bot protocol v2 with a bot in another language (the JavaScript example, under Node.js)
as real subprocesses: a tournament, a LAN table, agent-stdio over several games, and a
spec's options checked against the bot's hello."""

import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from lan_helpers import bot, open_table, result

P2PCARDS = str(Path(sys.executable).with_name("p2pcards"))
BOT_JS = Path(__file__).resolve().parents[2] / "scripts" / "examples" / "bot.js"
ENV = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1"}

# No skip without Node.js: scripts/test installs it, and a missing runtime must fail loudly.
assert shutil.which("node"), "the bot-protocol tests need Node.js (scripts/test installs it)"


def conversation(log: Path) -> list[tuple[str, dict[str, Any]]]:
    """The bot's --log: (direction, message) per line, "<" to the bot, ">" from it."""
    return [(line[0], json.loads(line[2:])) for line in log.read_text().splitlines()]


def test_the_javascript_bot_plays_a_tournament_in_one_process_per_worker(tmp_path: Path) -> None:
    log = tmp_path / "bot.log"
    spec = f'cmd:"node {BOT_JS} --log {log}":heal_below=0.4'
    done = subprocess.run(
        [P2PCARDS, "tournament", "rpg-battle", "--agents", f"{spec},random", "--games", "6",
         "--jobs", "2", "--seed", "4", "--move-timeout", "10", "--db", str(tmp_path / "t.sqlite"),
         "--json"],
        capture_output=True, text=True, timeout=600, env=ENV,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    bot = json.loads(done.stdout)["agents"][spec]
    assert bot["games"] == 6 and bot["failures"] == {}
    said = conversation(log)
    hellos = [m for d, m in said if d == "<" and m["type"] == "hello"]
    newgames = [m for d, m in said if m["type"] == "newgame"]
    # One start to check the options, then at most one process per worker for six games.
    assert len(newgames) == 6 and 1 <= len(hellos) <= 3
    assert {"type": "setoption", "name": "heal_below", "value": 0.4} in [m for _, m in said]
    assert all(m["time_ms"] == 10_000 for d, m in said if m["type"] == "observe")
    assert sum(m["type"] == "result" for _, m in said) == 6


def test_a_bad_option_for_the_javascript_bot_is_a_usage_error(tmp_path: Path) -> None:
    done = subprocess.run(
        [P2PCARDS, "simulate", "rpg-battle", "--agents", f'cmd:"node {BOT_JS}":heal=1,random',
         "--games", "1"],
        capture_output=True, text=True, timeout=120, env=ENV,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "has no option 'heal'; it offers heal_below (float, 0 to 1" in done.stderr
    assert "Traceback" not in done.stderr


def test_the_javascript_bot_takes_a_seat_at_a_lan_table_and_is_told_the_events(
    tmp_path: Path,
) -> None:
    log = tmp_path / "bot.log"
    host, invite = open_table(tmp_path, 2)
    js = bot(tmp_path, invite, 1, "--cmd", f"node {BOT_JS} --log {log}")
    for code, report, err in (result(js), result(host)):
        assert code == 0, err
        assert report["audit"] == "passed"
    said = conversation(log)
    kinds = [m["type"] for _, m in said]
    assert kinds[:4] == ["hello", "hello", "newgame", "isready"] and "readyok" in kinds
    observes = [m for d, m in said if m["type"] == "observe"]
    assert observes and all(m["seat"] == 1 and m["time_ms"] is None for m in observes)
    events = [e for m in observes for e in m["events"]]
    assert events[0]["seat"] is None or events[0]["seat"] == 0  # from the start of the game
    # The host's cards, dealt to seat 0, are hidden from this seat; its own are shown.
    dealt = [e for e in events if e["seat"] is None and e["action"]["kind"] == "deal"]
    assert {e["to"] for e in dealt} == {0, 1}
    assert all((e["action"]["card"] is None) == (e["to"] == 0) for e in dealt)
    # The game over, the bot is told the result, as in a tournament: who won, from the host's
    # report, and its seat.
    results = [m for d, m in said if m["type"] == "result"]
    assert len(results) == 1 and results[0]["seat"] == 1
    assert results[0]["winners"] == result(host)[1]["winners"]


def test_agent_stdio_plays_several_games_with_the_javascript_bot(tmp_path: Path) -> None:
    log = tmp_path / "bot.log"
    node = subprocess.Popen(
        ["node", str(BOT_JS), "--log", str(log)], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    agent = subprocess.Popen(
        [P2PCARDS, "agent-stdio", "getgem", "--seats", "3", "--seat", "2", "--games", "3",
         "--agents", "random,greedy", "--seed", "9"],
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
    assert "seed 9" in errors and "bot: example-js 2.0 by p2pcards" in errors
    said = conversation(log)
    newgames = [m for _, m in said if m["type"] == "newgame"]
    assert [m["seed"] for m in newgames] == [9, 10, 11]
    assert all(m["seat"] == 2 and m["seats"] == 3 for m in newgames)
    results = [m for _, m in said if m["type"] == "result"]
    assert len(results) == 3 and all(len(r["returns"]) == 3 for r in results)
    assert not [m for _, m in said if m["type"] == "error"]
