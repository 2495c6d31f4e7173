"""Starting the real program as separate processes, for the LAN tests."""

import json
import os
import subprocess
import sys
from pathlib import Path

P2PCARDS = str(Path(sys.executable).with_name("p2pcards"))
ENV = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1"}


def start(
    *args: str, stdin: bool = False, env: dict[str, str] = ENV, cwd: Path | None = None
) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [P2PCARDS, *args],
        cwd=cwd,
        stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def open_table(
    tmp: Path,
    seats: int,
    *extra: str,
    env: dict[str, str] = ENV,
    game: str = "rpg-battle",
    cwd: Path | None = None,
) -> tuple[subprocess.Popen[str], str]:
    host = start(
        "host", game, "--seats", str(seats), "--port", "0", "--agent", "greedy",
        "--home", str(tmp / "host"), "--round-cap", "60", "--json", *extra, env=env, cwd=cwd,
    )  # fmt: skip
    assert host.stdout is not None
    invite = json.loads(host.stdout.readline())["invite"]
    return host, invite


def result(proc: subprocess.Popen[str], timeout: float = 120) -> tuple[int, dict[str, object], str]:
    out, err = proc.communicate(timeout=timeout)
    lines = [json.loads(line) for line in out.splitlines() if line.startswith('{"seat"')]
    return proc.returncode, (lines[-1] if lines else {}), err


def bot(
    tmp: Path, invite: str, index: int, *extra: str, env: dict[str, str] = ENV
) -> subprocess.Popen[str]:
    return start("bot", invite, "--home", str(tmp / f"bot{index}"), "--json", *extra, env=env)


def in_another_interpreter(program: str) -> str:
    """What `program` prints in a fresh interpreter with another hash seed than ours: a value
    made there must not depend on anything of this process (a cache, set or dict order)."""
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout.strip()
