"""A networked table against the same protocol without sockets.

    .venv/bin/python scripts/bench_table.py [--game rpg-battle] [--seats 4,8] [--games 3]
        [--agent greedy]

(Rise of the Guys is for 2 seats: `--game rise-of-the-guys --seats 2`; each seat plays the
game's default deck for it, dealt through the own-deck mental layer.)

    .venv/bin/python scripts/bench_table.py --windows [--game rpg-get] [--seats 2,4,6]
        [--games 3]

What a response window (p2pcards/windows.py) costs at a table where every seat passes: the
toy own-deck game of the tests (tests/p2pcards/toygame), or the game named, played by the
same `TablePeer`s on in-memory links, each seat passing in every window and otherwise playing
at random. Figures: windows, seats asked, signed envelopes sent while a window asked (target:
at most one per seat asked), per seat asked and per window.

Networked: a host and seats-1 bots as separate processes on 127.0.0.1 (TLS,
signatures, mental-poker dealing, the verdict at the end). Without sockets: the
very same `TablePeer`s with the same agents on in-memory links (`TableMesh`).

Figures, per seat count, each the mean over the games:
- envelopes per engine step: every seat's signed messages over the steps applied,
  read from the host's save file (targets, issue 13: at most 2.5 at 4 seats, 4 at 8);
- CPU per step, all seats together: networked, from each seat's `--trace` (its CPU
  seconds at its first and its last applied step, so process start-up, the deck's
  first shuffle, the audit at the end and teardown are left out); without sockets,
  the process's CPU over the same span (target: at most 3 ms networked at 4 seats);
- wall seconds of a networked game, start-up included, and the action latency from
  the moment a seat chose its action to the moment every replica applied it (issue 25's
  target: p95 at most 15 ms at 4 seats; wall-clock, so measure it on an idle machine);
- the CPU critical path of an action, which a loaded machine does not disturb: the acting
  seat's CPU from its choice until its announcement goes out (it applies the step first),
  plus the CPU the busiest other seat spent from the step before to this one applied
  (taking the signed message in, checking and applying the action, the digests);
- set-up CPU per seat, networked: each seat's CPU seconds when it applies its first step
  (process start-up, joining, the deck commitments, masking and shuffles of every deck),
  the largest of the seats (issue 25's target: at most 2 s at 4 seats).
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import msgpack

from ai.agents import make_agent
from p2pcards.engine import Action, Game, State
from protocol.inprocess import TableMesh
from protocol.savefile import load, rebuild

P2PCARDS = str(Path(sys.executable).with_name("p2pcards"))
ROUND_CAP = 100
WINDOW_ROUNDS = 10  # a game of random moves measured for its windows: enough of them
TESTS = Path(__file__).resolve().parent.parent / "tests" / "p2pcards"


@dataclass
class Figures:
    """One game's measurements."""

    steps: int
    envelopes: int
    cpu: float  # seconds, all seats, over the steps
    wall: float = 0.0
    latencies: tuple[float, ...] = ()
    setup: float = 0.0  # the largest seat's CPU seconds before its first step
    critical: tuple[tuple[float, float], ...] = ()  # per action: (actor's, busiest other's) CPU


def networked_game(
    game: str, seats: int, agent: str, workdir: Path, seed: int | None = None
) -> Figures:
    """One game among separate processes on 127.0.0.1 (with `seed`, the same deal each
    time, through the insecure test seed: for comparing two versions of the code)."""
    env = dict(os.environ)
    if seed is not None:
        env["P2PCARDS_INSECURE_TEST_SEED"] = str(seed)
    traces = [workdir / f"trace{seat}.jsonl" for seat in range(seats)]
    start = time.monotonic()
    command = [P2PCARDS, "host", game, "--seats", str(seats), "--port", "0"]
    command += ["--agent", agent, "--home", str(workdir / "host"), "--round-cap", str(ROUND_CAP)]
    command += ["--json", "--bind", "127.0.0.1", "--trace", str(traces[0])]
    host = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env
    )
    assert host.stdout is not None
    invite = json.loads(host.stdout.readline())["invite"]
    bots = []
    for i in range(1, seats):
        command = [P2PCARDS, "bot", invite, "--agent", agent, "--home", str(workdir / f"bot{i}")]
        command += ["--bind", "127.0.0.1", "--quiet", "--trace", str(traces[i])]
        bots.append(subprocess.Popen(command, stderr=subprocess.DEVNULL, env=env))
    report = json.loads(host.communicate(timeout=600)[0].splitlines()[-1])
    for bot in bots:
        bot.wait(timeout=60)
    wall = time.monotonic() - start
    assert report["audit"] == "passed", report
    acted: dict[int, float] = {}
    applied: dict[int, list[float]] = {}
    acted_cpu: dict[int, tuple[int, float]] = {}  # step -> (actor, its CPU when it chose)
    applied_cpu: dict[tuple[int, int], float] = {}  # (seat, step) -> its CPU once applied
    cpu = setup = 0.0
    for seat, trace in enumerate(traces):
        events = [json.loads(line) for line in trace.read_text().splitlines()]
        steps = [e for e in events if e["event"] == "applied"]
        cpu += steps[-1]["cpu"] - steps[0]["cpu"]
        setup = max(setup, steps[0]["cpu"])
        for event in events:
            if event["event"] == "act":
                acted[event["step"]] = event["t"]
                acted_cpu[event["step"]] = (seat, event["cpu"])
            else:
                applied.setdefault(event["step"], []).append(event["t"])
                applied_cpu[seat, event["step"]] = event["cpu"]
    latencies = tuple(
        max(applied[step]) - t for step, t in acted.items() if len(applied.get(step, ())) == seats
    )
    critical = []
    for step, (actor, chose) in acted_cpu.items():
        others = [
            applied_cpu[s, step] - applied_cpu[s, step - 1]
            for s in range(seats)
            if s != actor and (s, step) in applied_cpu and (s, step - 1) in applied_cpu
        ]
        if (actor, step) in applied_cpu and others:
            critical.append((applied_cpu[actor, step] - chose, max(others)))
    saved = load(next((workdir / "host" / "tables").glob("*.p2pt")))
    steps = len(rebuild(saved).steps)
    # The CPU figure spans steps 0 to n-1: n-1 steps' worth of work.
    per_steps = cpu * steps / max(1, steps - 1)
    return Figures(steps, len(saved.envelopes), per_steps, wall, latencies, setup, tuple(critical))


def local_game(game: str, seats: int, agent: str, seed: int) -> Figures:
    """The same table's peers in this process, on in-memory links."""
    agents = [make_agent(agent, seed * 100 + s) for s in range(seats)]
    mesh = TableMesh(game, agents, {"round_cap": ROUND_CAP}, seed=seed)
    # The deck's first shuffle and the disclosure and audit at the end are left out, as
    # they are from the networked figure: from every seat's first step to the last.
    while not all(peer.steps for peer in mesh.peers):
        mesh.run(max_deliveries=mesh.delivered + 1)
    start = time.process_time()
    while any(peer.phase == "playing" for peer in mesh.peers):
        mesh.run(max_deliveries=mesh.delivered + 1)
    cpu = time.process_time() - start
    mesh.run()
    steps = len(mesh.peers[0].steps)
    return Figures(steps, len(mesh.peers[0].transcript), cpu * steps / max(1, steps - 1))


@dataclass
class WindowFigures:
    """What the all-pass windows of one game cost."""

    windows: list[tuple[int, int]]  # per window: seats asked, envelopes sent while it asked
    steps: int  # engine steps of the whole game
    envelopes: int  # of the whole game


class Passer:
    """Passes whenever a window asks; otherwise a random legal action."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, observation: State) -> Action:
        actions = observation.legal_actions()
        if getattr(observation, "windows", None):
            return next(a for a in actions if a.kind == "pass")
        return self.rng.choice(actions)


def window_game(game: str | None, seats: int, seed: int) -> WindowFigures:
    """One game (None: the toy) at a table of `TablePeer`s; its windows' envelopes, each
    envelope put to the engine step its sender was at (its `sync` carries the steps it had
    applied)."""
    played: str | Game = game or ""
    options = {"round_cap": WINDOW_ROUNDS}
    if game is None:
        sys.path.insert(0, str(TESTS))
        from toygame import GAME

        played, options = GAME, {}
    agents = [Passer(seed * 100 + s) for s in range(seats)]
    mesh = TableMesh(played, agents, options, seed=seed)
    asking: list[int] = []  # per engine step: the window that asked it, or -1
    opened = 0

    def note(replica: State, action: Action) -> None:
        nonlocal opened
        asked = bool(getattr(replica, "windows", ())) and replica.current_player() >= 0
        # Every seat passes, so no window opens inside another: a window asks the steps
        # from the first after a step that was no window's till the next step that is not.
        if asked and (not asking or asking[-1] < 0):
            opened += 1
        asking.append(opened - 1 if asked else -1)

    mesh.peers[0].on_step = note
    mesh.run()
    peer = mesh.peers[0]
    assert peer.outcome is not None and not peer.outcome.faults, "the table did not end clean"
    by_step = Counter(msgpack.unpackb(e.body)["sync"][0] for e in peer.transcript)
    windows = [(0, 0)] * opened
    for step, window in enumerate(asking):
        if window >= 0:
            asked, sent = windows[window]
            windows[window] = (asked + 1, sent + by_step[step])
    return WindowFigures(windows, len(asking), len(peer.transcript))


def bench_windows(game_name: str | None, seat_counts: list[int], games: int) -> None:
    """Print what an all-pass window costs at each seat count, and by the seats it asked."""
    for seats in seat_counts:
        figures = [window_game(game_name, seats, game) for game in range(games)]
        windows = [w for f in figures for w in f.windows]
        asked = sum(a for a, _ in windows)
        sent = sum(e for _, e in windows)
        steps = sum(f.steps for f in figures)
        by_asked: dict[int, list[int]] = {}
        for a, e in windows:
            by_asked.setdefault(a, []).append(e)
        breakdown = ", ".join(
            f"{a} asked: {len(es)} windows, {statistics.mean(es):.2f} envelopes each"
            for a, es in sorted(by_asked.items(), reverse=True)
        )
        print(
            f"{game_name or 'toy-brawl'}, {seats} seats, {games} games: {len(windows)} windows "
            "where every seat "
            f"passed, {asked} seats asked, {sent} envelopes sent while a window asked: "
            f"{sent / asked:.2f} per seat asked, {sent / len(windows):.2f} per window "
            f"({breakdown}) | the whole games: "
            f"{sum(f.envelopes for f in figures) / steps:.2f} envelopes a step"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", help="default rpg-battle (--windows: the toy game)")
    parser.add_argument("--seats", default="4,8")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--agent", default="greedy")
    parser.add_argument(
        "--same-deals", action="store_true",
        help="deal game i from test seed i (insecure, for comparing two versions of the code)",
    )  # fmt: skip
    parser.add_argument(
        "--windows", action="store_true",
        help="what a window where every seat passes costs (the toy game of the tests)",
    )  # fmt: skip
    args = parser.parse_args()
    if args.windows:
        bench_windows(args.game, [int(s) for s in args.seats.split(",")], args.games)
        return
    args.game = args.game or "rpg-battle"
    for seats in (int(s) for s in args.seats.split(",")):
        networked: list[Figures] = []
        local: list[Figures] = []
        for game in range(args.games):
            with tempfile.TemporaryDirectory() as tmp:
                seed = game if args.same_deals else None
                networked.append(networked_game(args.game, seats, args.agent, Path(tmp), seed))
            local.append(local_game(args.game, seats, args.agent, game))
            n, m = networked[-1], local[-1]
            print(
                f"  game {game + 1}: networked {n.steps} steps, {n.wall:5.2f} s, "
                f"{n.envelopes / n.steps:4.2f} envelopes and {n.cpu / n.steps * 1000:5.2f} ms "
                f"CPU a step | no sockets {m.steps} steps, {m.envelopes / m.steps:4.2f} envelopes"
                f" and {m.cpu / m.steps * 1000:5.2f} ms CPU a step"
            )
        steps = sum(f.steps for f in networked)
        per_step = sum(f.cpu for f in networked) / steps * 1000
        local_steps = sum(f.steps for f in local)
        local_per_step = sum(f.cpu for f in local) / local_steps * 1000
        latencies = [x for f in networked for x in f.latencies]
        cuts = statistics.quantiles(latencies, n=100)
        critical = [c for f in networked for c in f.critical]
        paths = statistics.quantiles([a + b for a, b in critical], n=100)
        actor = statistics.quantiles([a for a, _ in critical], n=100)
        other = statistics.quantiles([b for _, b in critical], n=100)
        print(
            f"{args.game}, {seats} seats, {args.agent}, {args.games} games: envelopes a step "
            f"{sum(f.envelopes for f in networked) / steps:.2f} networked, "
            f"{sum(f.envelopes for f in local) / local_steps:.2f} without sockets | CPU a step "
            f"(all seats) {per_step:.2f} ms networked, {local_per_step:.2f} ms without sockets "
            f"(ratio {per_step / local_per_step:.1f}) | a networked game "
            f"{statistics.mean(f.wall for f in networked):.2f} s | action latency over "
            f"{len(latencies)} actions: p50 {cuts[49] * 1000:.1f} ms, p95 {cuts[94] * 1000:.1f} ms,"
            f" p99 {cuts[98] * 1000:.1f} ms (wall clock: on an idle machine only) | its CPU "
            f"critical path over {len(critical)} actions: p50 {paths[49] * 1000:.1f} ms, p95 "
            f"{paths[94] * 1000:.1f} ms (the actor until it announces: p50 {actor[49] * 1000:.1f},"
            f" p95 {actor[94] * 1000:.1f}; the busiest other seat: p50 {other[49] * 1000:.1f}, "
            f"p95 {other[94] * 1000:.1f}) | set-up CPU of the busiest seat "
            f"{max(f.setup for f in networked):.2f} s"
        )


if __name__ == "__main__":
    main()
