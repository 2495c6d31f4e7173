"""Soak: many networked AI games in one process; resources stay flat and no table desyncs.

    .venv/bin/python scripts/soak.py [--games 1000] [--seats 2,3,4] [--game rpg-battle,getgem]
        [--agent greedy] [--round-cap 60] [--report-every 50] [--concurrent 1]
        [--audit-every 10]

Every game is real: each seat is its own `protocol.net.Node` (TLS on 127.0.0.1, the
host's rendezvous, the signed roster, the full mesh, mental-poker dealing, the
disclosure and audit at the end, a save file), and all the seats of a game run in
this one asyncio event loop, so a thousand games cost no process start-ups. Games
cycle through every (game, seat count) pair asked for. Each seat's identity home is
made once, under a temporary directory, and reused by every game; a `Node` is made
per seat per game, as `p2pcards host`/`bot` make one per process.

After every game each seat's outcome must say `finished`, with no fault and no
desync, and all seats' digests must agree. Every `--audit-every` games one seat's
save file is loaded (`protocol.savefile.load`) and replayed (`rebuild`), and the
replay must reach the same finished, fault-free outcome and digest.

Every `--report-every` games, one line: games done, games per minute, and this
process's RSS, open file descriptors, asyncio tasks and threads, and failures so
far. The figures are taken between games (no game in flight) after a garbage
collection, so they show what stays behind, not what a game holds while it runs.

Targets (issue "Tables that hold"): no failed game; RSS at the end within 10% or
20 MB of its value after the first report (the warm-up: caches, imports, the agents'
thread pool); descriptors, tasks and threads at the end no more than then. Exit
status 1 if a game failed or a resource grew, 2 for bad arguments, 130 on Ctrl-C
(every Node is closed and the temporary directory removed on the way out too).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import os
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict, deque
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ai.agents import Agent, make_agent
from ai.errors import AgentSpecError
from p2pcards import games
from p2pcards.engine import Action, State
from p2pcards.errors import P2PCardsError
from protocol.errors import ProtocolError
from protocol.identity import Identity
from protocol.net import Decide, HostedTable, LocalSeat, Node
from protocol.savefile import load, rebuild
from protocol.table_peer import TableOutcome

GAME_SECONDS = 300.0  # a greedy game with capped rounds takes seconds: past this it hangs
RSS_SLACK = 0.10  # RSS may end this much above the warm-up figure...
RSS_SLACK_KB = 20 * 1024  # ...or this many KiB, whichever is larger
POOL_THREADS = min(32, (os.cpu_count() or 1) + 4)  # asyncio's default executor's max_workers


class SoakError(Exception):
    """A game that did not end as it must; the message says why, in one line."""


@dataclass(frozen=True)
class Figures:
    """This process's resources at one moment."""

    games: int
    seconds: float
    rss_kb: int
    fds: int
    tasks: int
    threads: int


@dataclass
class Soak:
    """What the run was asked for, and what it has seen so far."""

    plan: list[tuple[str, int]]
    agent: str
    round_cap: int
    audit_every: int
    homes: list[list[tuple[Identity, Path]]]  # per concurrent slot, per seat
    done: int = 0
    audits: int = 0
    failures: list[str] = field(default_factory=list)
    seconds: dict[tuple[str, int], list[float]] = field(default_factory=lambda: defaultdict(list))
    steps: dict[tuple[str, int], list[int]] = field(default_factory=lambda: defaultdict(list))


class WarningLog(logging.Handler):
    """Keeps the library's warnings (counted, and the last few) instead of printing them."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.counts: Counter[str] = Counter()
        self.recent: deque[str] = deque(maxlen=5)

    def emit(self, record: logging.LogRecord) -> None:
        """Count one record under its first four words; keep its text among the recent."""
        text = record.getMessage()
        self.counts[" ".join(text.split()[:4])] += 1
        self.recent.append(text)


def figures(games_done: int, started: float) -> Figures:
    """RSS, descriptors, tasks and threads of this process right now."""
    rss_kb = 0
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                rss_kb = int(line.split()[1])
    return Figures(
        games_done,
        time.monotonic() - started,
        rss_kb,
        len(os.listdir("/proc/self/fd")),
        len(asyncio.all_tasks()),
        len(os.listdir("/proc/self/task")),
    )


def by_agent(agent: Agent) -> Decide:
    """A seat's `decide`: the agent's (CPU-bound) choice, made in a worker thread."""

    async def decide(observation: State) -> Action:
        # In a thread, as `p2pcards bot` does: the loop keeps every seat's links read
        # and heartbeats sent while the agent thinks.
        return await asyncio.to_thread(agent.act, observation)

    return decide


async def together(*coroutines: Coroutine[Any, Any, Any]) -> list[Any]:
    """Run coroutines at once; the first failure cancels the rest (gather would leave
    them running on) and is raised as itself, not as an ExceptionGroup."""
    try:
        async with asyncio.TaskGroup() as group:
            tasks = [group.create_task(c) for c in coroutines]
    except BaseExceptionGroup as failed:
        first: BaseException = failed
        while isinstance(first, BaseExceptionGroup):
            first = first.exceptions[0]
        raise first from None
    return [task.result() for task in tasks]


def check_outcomes(outcomes: list[TableOutcome]) -> None:
    """Every seat finished, with no fault and no desync, and all reached the same digest."""
    for seat, outcome in enumerate(outcomes):
        if outcome.ended != "finished":
            raise SoakError(f"seat {seat} ended {outcome.ended!r}: {outcome.faults}")
        if outcome.faults:
            raise SoakError(f"seat {seat} found faults: {'; '.join(map(str, outcome.faults))}")
        if outcome.desync is not None:
            raise SoakError(f"seat {seat} went out of step: {outcome.desync}")
    digests = {outcome.digest for outcome in outcomes}
    if len(digests) != 1:
        raise SoakError(f"the seats' digests differ: {[o.digest[:12] for o in outcomes]}")


def reaudit(path: Path, digest: str) -> None:
    """Load and replay one seat's save file: it must end finished, clean, at `digest`."""
    table = rebuild(load(path))
    outcome = table.outcome
    if outcome is None:
        raise SoakError(f"{path.name} replays to step {len(table.steps)} and stops")
    if outcome.ended != "finished" or outcome.faults or outcome.digest != digest:
        raise SoakError(
            f"{path.name} replays to {outcome.ended!r}, faults {outcome.faults}, "
            f"digest {outcome.digest[:12]} (the table's: {digest[:12]})"
        )


async def play_game(soak: Soak, number: int, slot: int) -> int:
    """Play game `number` with the seats of `slot`: its engine steps; SoakError if it did not
    end cleanly."""
    game_name, seats = soak.plan[number % len(soak.plan)]
    agents = [make_agent(soak.agent, number * 16 + seat) for seat in range(seats)]
    nodes: list[Node] = []
    saves: list[Path] = []
    try:
        for seat, (identity, home) in enumerate(soak.homes[slot][:seats]):
            seat_info = LocalSeat(identity, f"seat{seat}", by_agent(agents[seat]), home)
            node = Node(seat_info, "127.0.0.1", 0)
            node.say = lambda line: None  # "seat N is silent" lines: would be warnings here
            nodes.append(node)
        async with asyncio.timeout(GAME_SECONDS):
            for node in nodes:
                await node.listen()
            host = nodes[0]
            table = HostedTable(game_name, seats, {"round_cap": soak.round_cap})
            invite = host.host(table, "127.0.0.1")
            await together(host.wait_for_seats(), *(node.join(invite) for node in nodes[1:]))
            for node in nodes:
                node.prepare()
            await together(*(node.connect_mesh() for node in nodes))
            for node in nodes:
                assert node.roster is not None
                folder = node.me.home / "tables"
                folder.mkdir(exist_ok=True)
                name = f"{node.roster.session_id[:16].hex()}-seat{node.seat}.p2pt"
                saves.append(folder / name)
            with contextlib.ExitStack() as stack:
                files = [stack.enter_context(path.open("wb")) for path in saves]
                outcomes = await together(
                    *(node.play(save=out) for node, out in zip(nodes, files, strict=True))
                )
        check_outcomes(outcomes)
        if soak.audit_every and number % soak.audit_every == 0:
            reaudit(saves[number % seats], outcomes[0].digest)
            soak.audits += 1
        assert nodes[0].table is not None
        steps = len(nodes[0].table.steps)
    except TimeoutError:
        raise SoakError(f"no end after {GAME_SECONDS:.0f} s") from None
    except (ProtocolError, P2PCardsError, OSError) as exc:
        raise SoakError(f"{type(exc).__name__}: {exc}") from None
    finally:
        unasked = [node.seat for node in nodes if not await close_node(node)]
        for path in saves:
            path.unlink(missing_ok=True)
        for agent in agents:
            close = getattr(agent, "close", None)
            if close is not None:
                close(None)
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        # Ctrl-C arrived while we closed (and close_node swallowed it): go on stopping.
        raise asyncio.CancelledError
    if unasked:
        raise SoakError(
            f"Node.close() of seats {unasked} raised CancelledError though nothing cancelled "
            "it (the game itself ended cleanly)"
        )
    return steps


async def close_node(node: Node) -> bool:
    """Close a Node; False if `Node.close()` raised a CancelledError nobody asked for.

    Before a85d8e7 it did, now and then: a link closed a second time, whose first close
    had timed out waiting for the peer's TLS close, awaited the stream's close future that
    the timeout had cancelled. The check stays, to catch that coming back. Either way we
    finish what close() left undone, so that nothing leaks into the next game's figures; a
    real cancellation (Ctrl-C) is seen by the caller in `Task.cancelling()`.
    """
    try:
        await node.close()
        return True
    except asyncio.CancelledError:
        pass
    # Node has no public way to finish a close that failed half-way: reach in.
    for conn in [*node.links.values(), *(joiner.conn for joiner in node._joiners)]:
        conn.writer.close()
    if node.server is not None:
        node.server.close()
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


async def run(soak: Soak, total: int, report_every: int, concurrent: int, log: WarningLog) -> int:
    """Play `total` games, `concurrent` at a time, reporting as we go; the exit status."""
    started = time.monotonic()
    start = figures(0, started)
    print(
        f"start: RSS {start.rss_kb / 1024:.1f} MB, {start.fds} fds, {start.tasks} tasks, "
        f"{start.threads} threads",
        flush=True,
    )
    reports: list[Figures] = []

    async def worker(slot: int, numbers: Iterator[int]) -> None:
        """Play games off the iterator the workers share, until it runs out."""
        for number in numbers:
            began = time.monotonic()
            game_name, seats = soak.plan[number % len(soak.plan)]
            try:
                steps = await play_game(soak, number, slot)
                soak.seconds[(game_name, seats)].append(time.monotonic() - began)
                soak.steps[(game_name, seats)].append(steps)
            except SoakError as exc:
                soak.failures.append(f"game {number + 1} ({game_name}, {seats} seats): {exc}")
                print(f"FAILED {soak.failures[-1]}", flush=True)
                for line in log.recent:
                    print(f"    warning: {line}", flush=True)
            soak.done += 1

    while soak.done < total:
        # The workers share the games up to the next report and stop there, so the
        # figures are taken with no game in flight: they show what games leave behind.
        numbers = iter(range(soak.done, min(total, soak.done + report_every)))
        await asyncio.gather(*(worker(slot, numbers) for slot in range(concurrent)))
        gc.collect()
        now = figures(soak.done, started)
        reports.append(now)
        rate = soak.done / now.seconds * 60
        print(
            f"{soak.done:5d} games | {rate:5.1f} games/min | RSS {now.rss_kb / 1024:6.1f} MB | "
            f"{now.fds:3d} fds | {now.tasks:2d} tasks | {now.threads:2d} threads | "
            f"{len(soak.failures)} failed",
            flush=True,
        )
    return summarize(soak, start, reports, log)


def summarize(soak: Soak, start: Figures, reports: list[Figures], log: WarningLog) -> int:
    """Print the summary; 1 if a game failed or a resource grew, else 0."""
    base = reports[0] if len(reports) > 1 else start
    last = reports[-1]
    rss_room = max(base.rss_kb * RSS_SLACK, RSS_SLACK_KB)
    checks = {
        "RSS": last.rss_kb - base.rss_kb <= rss_room,
        "fds": last.fds <= base.fds,
        "tasks": last.tasks <= base.tasks,
        # asyncio's default executor starts its threads lazily, one whenever none is idle,
        # up to its max_workers: a new one later in the run is the pool filling, not a leak.
        "threads": last.threads <= max(base.threads, 1 + POOL_THREADS),
    }
    print(f"\n{soak.done} games in {last.seconds:.0f} s ({soak.done / last.seconds * 60:.1f}/min)")
    for (game_name, seats), times in sorted(soak.seconds.items()):
        print(
            f"  {game_name:10s} {seats} seats: {len(times):4d} games, "
            f"mean {statistics.mean(times):.2f} s, max {max(times):.2f} s, "
            f"mean {statistics.mean(soak.steps[(game_name, seats)]):.0f} engine steps"
        )
    print(f"save files re-audited: {soak.audits}")
    print(f"{'':8s}{'start':>10s}{f'after {base.games}':>12s}{f'after {last.games}':>12s}")
    print(
        f"{'RSS MB':8s}{start.rss_kb / 1024:10.1f}{base.rss_kb / 1024:12.1f}"
        f"{last.rss_kb / 1024:12.1f}   {'flat' if checks['RSS'] else 'GREW'} "
        f"({(last.rss_kb - base.rss_kb) / 1024:+.1f} MB, allowed {rss_room / 1024:.1f})"
    )
    for name in ("fds", "tasks", "threads"):
        first, then, now = (getattr(f, name) for f in (start, base, last))
        verdict = "flat" if checks[name] else "GREW"
        if name == "threads" and checks[name] and now > then:
            verdict += f" (the agents' pool filling up: at most 1 + {POOL_THREADS})"
        print(f"{name:8s}{first:10d}{then:12d}{now:12d}   {verdict}")
    if log.counts:
        print("warnings logged (by p2pcards and asyncio), by their first words:")
        for words, count in log.counts.most_common(8):
            print(f"  {count:6d}  {words} …")
    else:
        print("warnings logged (by p2pcards and asyncio): none")
    print(f"failed games: {len(soak.failures)}")
    for failure in soak.failures[:20]:
        print(f"  {failure}")
    grew = [name for name, ok in checks.items() if not ok]
    if grew:
        print(f"resources grew: {', '.join(grew)}")
    return 1 if soak.failures or grew else 0


def parse_plan(game_names: str, seat_counts: str) -> list[tuple[str, int]]:
    """Every (game, seats) pair to cycle through; ValueError saying what is wrong."""
    try:
        seats = [int(s) for s in seat_counts.split(",") if s.strip()]
    except ValueError:
        raise ValueError(f"--seats takes numbers like 2,3,4, not {seat_counts!r}") from None
    plan = []
    for name in (n.strip() for n in game_names.split(",") if n.strip()):
        try:
            game = games.load(name)
            for count in seats:
                game.check_num_players(count)
        except P2PCardsError as exc:
            raise ValueError(str(exc)) from None
        plan += [(game.name, count) for count in seats]
    if not plan:
        raise ValueError("give at least one game and one seat count")
    return plan


def main() -> int:
    """Parse the arguments, make the seats' homes, soak, and clean up whatever happens."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seats", default="2,3,4")
    parser.add_argument("--game", default="rpg-battle,getgem")
    parser.add_argument("--agent", default="greedy")
    parser.add_argument("--round-cap", type=int, default=60)
    parser.add_argument("--report-every", type=int, default=50)
    parser.add_argument("--concurrent", type=int, default=1, help="games at once (1 or 2)")
    parser.add_argument("--audit-every", type=int, default=10, help="re-audit a save file")
    args = parser.parse_args()
    for option, value, low in [
        ("--games", args.games, 1),
        ("--round-cap", args.round_cap, 1),
        ("--report-every", args.report_every, 1),
        ("--concurrent", args.concurrent, 1),
        ("--audit-every", args.audit_every, 0),
    ]:
        if value < low:
            parser.exit(2, f"soak.py: {option} must be at least {low}, not {value}\n")
    try:
        plan = parse_plan(args.game, args.seats)
    except ValueError as exc:
        parser.exit(2, f"soak.py: {exc}\n")
    try:
        make_agent(args.agent)
    except AgentSpecError as exc:
        parser.exit(2, f"soak.py: {exc}\n")
    log = WarningLog()
    # Counted, not printed: a refused dial would otherwise print mid-report. asyncio's own
    # reports (a task's exception never retrieved, a callback that raised) count too.
    for name in ("p2pcards", "asyncio"):
        logger = logging.getLogger(name)
        logger.addHandler(log)
        logger.propagate = False
    most = max(seats for _, seats in plan)
    print(
        f"soak: {args.games} games of {', '.join(f'{g}/{s}' for g, s in plan)}, "
        f"agent {args.agent}, round cap {args.round_cap}, {args.concurrent} at a time",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="p2pcards-soak-") as root:
        homes = [
            [
                (Identity.load_or_create(home), home)
                for home in (Path(root) / f"slot{slot}-seat{seat}" for seat in range(most))
            ]
            for slot in range(args.concurrent)
        ]
        soak = Soak(plan, args.agent, args.round_cap, args.audit_every, homes)
        try:
            return asyncio.run(run(soak, args.games, args.report_every, args.concurrent, log))
        except KeyboardInterrupt:
            # asyncio.run has cancelled the games: their `finally` closed every Node.
            print(
                f"\ninterrupted after {soak.done} games, {len(soak.failures)} failed",
                file=sys.stderr,
            )
            return 130


if __name__ == "__main__":
    sys.exit(main())
