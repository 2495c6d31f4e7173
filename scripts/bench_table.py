"""A networked table against the same game in one process.

    .venv/bin/python scripts/bench_table.py [--seats 4] [--games 3] [--agent greedy]

Each networked game is real: a host and seats-1 bots as separate processes on
127.0.0.1, TLS, signatures, mental-poker dealing, the audit at the end. The
local game is the same table (same agents, same round cap) with the local dealer
in one process. Action latency is from the moment a seat has chosen its action
to the moment every replica has applied it, read from the seats' `--trace`
files (CLOCK_MONOTONIC, shared by all processes of the machine).
Targets (issue 4): p95 action latency under 20 ms; the networked game within 3 s
of the local game's time.
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ai.match import play_match

P2PCARDS = str(Path(sys.executable).with_name("p2pcards"))


def networked_game(seats: int, agent: str, workdir: Path) -> tuple[float, list[float], int]:
    """Wall seconds of one game, the action latencies (s), and its number of engine steps."""
    traces = [workdir / f"trace{seat}.jsonl" for seat in range(seats)]
    start = time.monotonic()
    command = [P2PCARDS, "host", "rpg-battle", "--seats", str(seats), "--port", "0"]
    command += ["--agent", agent, "--home", str(workdir / "host"), "--round-cap", "100"]
    command += ["--json", "--trace", str(traces[0])]
    host = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert host.stdout is not None
    invite = json.loads(host.stdout.readline())["invite"]
    bots = [
        subprocess.Popen(
            [
                P2PCARDS,
                "bot",
                invite,
                "--agent",
                agent,
                "--home",
                str(workdir / f"bot{i}"),
                "--quiet",
                "--trace",
                str(traces[i]),
            ],
        )
        for i in range(1, seats)
    ]
    report = json.loads(host.communicate(timeout=300)[0].splitlines()[-1])
    for bot in bots:
        bot.wait(timeout=60)
    wall = time.monotonic() - start
    assert report["audit"] == "passed", report
    acted: dict[int, float] = {}
    applied: dict[int, list[float]] = {}
    for trace in traces:
        for line in trace.read_text().splitlines():
            event = json.loads(line)
            if event["event"] == "act":
                acted[event["step"]] = event["t"]
            else:
                applied.setdefault(event["step"], []).append(event["t"])
    latencies = [max(applied[step]) - t for step, t in acted.items() if len(applied[step]) == seats]
    return wall, latencies, len(applied)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--agent", default="greedy")
    args = parser.parse_args()
    walls, latencies, locals_ = [], [], []
    for game in range(args.games):
        with tempfile.TemporaryDirectory() as tmp:
            wall, lat, steps = networked_game(args.seats, args.agent, Path(tmp))
        start = time.monotonic()
        local = play_match("rpg-battle", [args.agent] * args.seats, seed=game, round_cap=100)
        local_wall = time.monotonic() - start
        walls.append(wall)
        locals_.append(local_wall)
        latencies.extend(lat)
        print(
            f"game {game + 1}: networked {wall:6.2f} s ({steps} steps) | local {local_wall:6.3f} s "
            f"({local.steps} steps)"
        )
    cuts = statistics.quantiles(latencies, n=100)
    net, local_mean = statistics.mean(walls), statistics.mean(locals_)
    print(
        f"{args.seats} seats, {args.agent}: networked {net:.2f} s a game, local {local_mean:.3f} s,"
        " "
        f"ratio {net / local_mean:.0f}x, difference {net - local_mean:.2f} s | action latency "
        f"over {len(latencies)} actions: p50 {cuts[49] * 1000:.1f} ms, p95 {cuts[94] * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
