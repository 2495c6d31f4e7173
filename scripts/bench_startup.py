"""Start-up time: the median wall and CPU time of starting the program, over N runs each.

    .venv/bin/python scripts/bench_startup.py [--runs N]

Each command runs as a fresh process, as a person or a host starting an AI seat runs it;
CPU is the child's user + system time, which other load on the machine disturbs less than
the wall clock. Target (issue 13): `p2pcards --help` in at most 0.3 s. The interpreter's
own start is shown for scale.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

PYTHON = sys.executable
P2PCARDS = str(Path(PYTHON).with_name("p2pcards"))
COMMANDS = {
    "p2pcards --help": [P2PCARDS, "--help"],
    "p2pcards host --help": [P2PCARDS, "host", "--help"],
    'python -c "import cli.app"': [PYTHON, "-c", "import cli.app"],
    "python -c pass (the interpreter)": [PYTHON, "-c", "pass"],
}
TARGET = ("p2pcards --help", 0.3)


QUIET = [(os.POSIX_SPAWN_OPEN, fd, os.devnull, os.O_WRONLY, 0) for fd in (1, 2)]


def run_once(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one run of `command`."""
    start = time.perf_counter()
    pid = os.posix_spawn(command[0], command, os.environ, file_actions=QUIET)
    _, status, usage = os.wait4(pid, 0)  # the child's own CPU time, as it ends
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"{' '.join(command)} exited {code}")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="runs of each command")
    args = parser.parse_args()
    medians = {}
    for name, command in COMMANDS.items():
        run_once(command)  # warm the file cache and the bytecode
        walls, cpus = zip(*(run_once(command) for _ in range(args.runs)), strict=True)
        medians[name] = statistics.median(walls)
        print(
            f"{name:34} wall {medians[name] * 1000:6.0f} ms (min {min(walls) * 1000:4.0f})  "
            f"cpu {statistics.median(cpus) * 1000:6.0f} ms (min {min(cpus) * 1000:4.0f})  "
            f"over {args.runs} runs"
        )
    name, limit = TARGET
    verdict = "met" if medians[name] <= limit else "MISSED (is the machine busy?)"
    print(f"target: {name} in at most {limit:g} s: {verdict}")


if __name__ == "__main__":
    main()
