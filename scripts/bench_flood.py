"""Strangers flooding a host while a real game runs: the game's time and the host's resources.

    .venv/bin/python scripts/bench_flood.py [--seats 3] [--games 3] [--attackers 8]
        [--kinds all|a,b,c,d,e] [--rate 40] [--hold 4] [--same-address]

Each game is real and as a user runs it: `p2pcards host rpg-battle --seats N --port 0
--agent greedy --json --round-cap 60` and N-1 `p2pcards bot INVITE --json` processes on
this machine, TLS, mental-poker dealing, the audit at the end. First `--games` quiet
games, then `--games` games during which attacker coroutines in this script (one event
loop in one thread, so they take at most about one core's worth of Python) hit the host's
port for the whole game, each attacker from its own loopback address (127.0.0.10, .11,
...: strangers on other machines of the LAN; `--same-address` uses the seats' address
instead). Each attacker keeps at most `--hold` connections open and starts at most
`--rate` a second, each of one kind (attacker i does kind i mod the kinds asked for):

    a  TCP connections that never start TLS
    b  a TLS handshake, then nothing
    c  TLS, then a frame header announcing 1 MiB, then a byte every half second
    d  TLS, then a frame of nested empty msgpack arrays (every other one the 64 KiB frame
       "\\xdc\\xff\\xff" + "\\x90" * 65535, the others a 16 KiB one within a stranger's frame
       limit, so the decoder itself must refuse it)
    e  TLS, then a well-formed JOIN (a real certificate) with a wrong invite secret

A last run floods the host while its table still waits for seats (before the roster is
signed, so the host looks at every stranger's JOIN), stops, waits, and then seats the
bots: the table must still form and play.

The host's RSS, open descriptors and CPU time are read from /proc/<pid> every 0.5 s:
the baseline is the last sample before the bots and the flood start, the peak the
largest while the game runs, and "after" the last sample once the flood has stopped
(in the last run; a game's host exits when its game ends).

Targets (issue "Tables that hold"): the flooded game's mean wall time at most 1.2x the
quiet one's; every game finishes and passes its audit; the host's descriptors back to
their baseline after the flood, and its RSS within 10% or 20 MB of it. The machine is
shared by host, bots and attackers: the attackers' own CPU time is printed too, so that
a slowdown from a busy machine can be told from one the host brings on itself.
Exit status 1 if a target is missed, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import secrets
import signal
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from protocol.identity import Identity, certificate_key
from protocol.invite import Invite, InviteError
from protocol.net import _join_proof
from protocol.wire import STRANGER, FrameDecoder, WireError, encode_frame

P2PCARDS = str(Path(sys.executable).with_name("p2pcards"))
KINDS = {
    "a": "TCP, never TLS",
    "b": "TLS, then idle",
    "c": "TLS, 1 MiB header, trickle",
    "d": "TLS, nested arrays",
    "e": "TLS, JOIN, wrong secret",
}
SAMPLE_SECONDS = 0.5
BASELINE_SECONDS = 1.5  # the host idles, waiting for seats, before the bots and the flood
GAME_SECONDS = 120.0  # a greedy 60-round game takes seconds: past this it is stuck
GIVE_UP_SECONDS = 10.0  # an attacker's connection the host has not closed by then: counted
WAITING_FLOOD_SECONDS = 6.0  # the last run's flood: longer than the host's 5 s handshake limit
AFTER_SECONDS = 6.0  # then quiet, for held connections to time out, before the bots come
WAITING_ROUNDS = 2
EXIT_WINDOW = 0.05  # s: a connection closed from this long before the host's report on
# was closed by its shutdown (the report is printed after Node.close(), before the loop ends)
BOT_GONE_SECONDS = 5.0  # a bot has failed: the host has this long to end on its own
RATIO_TARGET = 1.2
RSS_SLACK, RSS_SLACK_KB = 0.10, 20 * 1024
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class BenchError(Exception):
    """A game that did not run as it must; the message says why, in one line."""


# ------------------------------------------------------------------ the host's resources


@dataclass(frozen=True)
class Sample:
    """One look at a process in /proc."""

    t: float
    rss_kb: int
    fds: int
    cpu: float  # user + system seconds so far


def sample(pid: int) -> Sample | None:
    """RSS, descriptors and CPU time of `pid`; None once it has gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        stat = Path(f"/proc/{pid}/stat").read_text()
        fds = len(os.listdir(f"/proc/{pid}/fd"))
    except (FileNotFoundError, ProcessLookupError):
        return None
    rss = next(
        (int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0
    )
    # Fields after the command name (which may hold spaces); utime and stime are 14 and 15.
    ticks = stat.rsplit(")", 1)[1].split()
    return Sample(time.monotonic(), rss, fds, (int(ticks[11]) + int(ticks[12])) / CLOCK_TICKS)


class Sampler:
    """Samples a process every SAMPLE_SECONDS in a thread, until stopped or the process ends."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.samples: list[Sample] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            taken = sample(self.pid)
            if taken is None:
                return
            self.samples.append(taken)
            self._stop.wait(SAMPLE_SECONDS)

    def stop(self) -> None:
        """Stop sampling (and wait for the thread)."""
        self._stop.set()
        self._thread.join()

    def last_before(self, t: float) -> Sample:
        """The last sample taken before `t`."""
        before = [s for s in self.samples if s.t < t]
        return before[-1] if before else self.samples[0]

    def peak(self, start: float, end: float) -> tuple[int, int]:
        """The largest RSS (KiB) and descriptor count sampled between `start` and `end`."""
        during = [s for s in self.samples if start <= s.t <= end] or self.samples[-1:]
        return max(s.rss_kb for s in during), max(s.fds for s in during)


# ------------------------------------------------------------------------ the attackers


@dataclass
class Hit:
    """One attacker connection: its kind, how it ended, after how long."""

    kind: str
    label: str
    seconds: float
    ended: float  # time.monotonic() (asyncio's loop clock is the same clock)


@dataclass
class FloodPlan:
    """Who attacks, how, and where."""

    host: str
    port: int
    kinds: list[str]
    attackers: int
    rate: float
    hold: int
    sources: list[str]
    identity: Identity
    cert_der: bytes


class Flood:
    """Attacker coroutines on an event loop of their own, in a thread, until `stop()`."""

    def __init__(self, plan: FloodPlan) -> None:
        self.plan = plan
        self.hits: list[Hit] = []
        self.cpu = 0.0  # this thread's CPU seconds: what the attackers cost the machine
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self._ready.wait()

    def _run(self) -> None:
        started = time.thread_time()
        asyncio.run(self._main())
        self.cpu = time.thread_time() - started

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        self._ready.set()
        async with asyncio.TaskGroup() as group:
            for index in range(self.plan.attackers):
                group.create_task(self._attacker(index))

    def stop(self) -> list[Hit]:
        """Stop every attacker, closing its connections; every connection's record."""
        assert self._loop is not None and self._stopping is not None
        if self._thread.is_alive():  # stopping twice (at the host's exit, then always) is fine
            self._loop.call_soon_threadsafe(self._stopping.set)
            self._thread.join()
        return self.hits

    async def _attacker(self, index: int) -> None:
        """Start connections of one kind at `rate` a second, at most `hold` open at once."""
        assert self._stopping is not None
        plan = self.plan
        kind = plan.kinds[index % len(plan.kinds)]
        source = plan.sources[index % len(plan.sources)]
        room = asyncio.Semaphore(plan.hold)
        open_: set[asyncio.Task[None]] = set()
        number = 0
        while not self._stopping.is_set():
            try:
                await asyncio.wait_for(room.acquire(), 1.0)  # and look at the stop flag
            except TimeoutError:
                continue
            if self._stopping.is_set():
                room.release()
                break
            task = asyncio.create_task(self._connection(kind, source, number, room))
            open_.add(task)
            task.add_done_callback(open_.discard)
            number += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), 1 / plan.rate)
        for task in list(open_):
            task.cancel()
        await asyncio.gather(*open_, return_exceptions=True)

    async def _connection(
        self, kind: str, source: str, number: int, room: asyncio.Semaphore
    ) -> None:
        """One attacker connection, recorded with how and when it ended."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        label = "?"
        writer: asyncio.StreamWriter | None = None
        try:
            label, writer = await self._attack(kind, source, number)
        except asyncio.CancelledError:
            label = "still open when the flood stopped"
        finally:
            if writer is not None:
                writer.transport.abort()  # no TLS goodbye: an attacker just drops it
            self.hits.append(Hit(kind, label, loop.time() - started, loop.time()))
            room.release()

    async def _attack(
        self, kind: str, source: str, number: int
    ) -> tuple[str, asyncio.StreamWriter | None]:
        """Connect, send this kind's bytes, and wait for the host to close: how it ended."""
        plan = self.plan
        context = None
        if kind != "a":
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
            context.check_hostname = False
            context.verify_mode = ssl.CERT_NONE
        try:
            async with asyncio.timeout(GIVE_UP_SECONDS):
                reader, writer = await asyncio.open_connection(
                    plan.host, plan.port, ssl=context, local_addr=(source, 0)
                )
        except ConnectionRefusedError:
            return "port closed (game over)", None
        except ssl.SSLError as exc:
            return f"TLS failed: {exc.reason or exc}", None
        except (ConnectionError, OSError, EOFError) as exc:
            return f"closed during TLS ({type(exc).__name__})", None
        except TimeoutError:
            return f"no TLS answer in {GIVE_UP_SECONDS:.0f} s", None
        try:
            if kind == "c":
                writer.write((1 << 20).to_bytes(4, "big"))
            elif kind == "d":
                writer.write(nested_arrays(big=number % 2 == 0))
            elif kind == "e":
                writer.write(wrong_join(plan, writer))
            return await until_closed(reader, writer, trickle=kind == "c"), writer
        except ssl.SSLError as exc:
            return f"TLS alert: {exc.reason or exc}", writer
        except (ConnectionError, OSError) as exc:
            return f"reset ({type(exc).__name__})", writer


def nested_arrays(big: bool) -> bytes:
    """A frame of one array of empty arrays: 64 KiB (over a stranger's frame limit) or 16 KiB."""
    count = 65535 if big else (16 << 10) - 4 - 3
    payload = b"\xdc" + count.to_bytes(2, "big") + b"\x90" * count
    return len(payload).to_bytes(4, "big") + payload


def wrong_join(plan: FloodPlan, writer: asyncio.StreamWriter) -> bytes:
    """A JOIN as `Node.join` sends it, with a real certificate, proved with a wrong secret."""
    ssl_object = writer.get_extra_info("ssl_object")
    der = ssl_object.getpeercert(binary_form=True) if ssl_object else None
    host_key = certificate_key(der) if der else b""
    identity = plan.identity.public_bytes
    seal, port = secrets.token_bytes(32), 9
    proof = _join_proof("WRNG-SCRT", identity, seal, port, host_key)
    return encode_frame(
        {
            "kind": "join",
            "name": "stranger",
            "identity": identity,
            "seal": seal,
            "port": port,
            "cert": plan.cert_der,
            "proof": proof,
        }
    )


async def until_closed(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, trickle: bool
) -> str:
    """Wait for the host to close the connection (sending a byte every half second when
    `trickle`): what it said first, if anything, else how it closed."""
    decoder = FrameDecoder(STRANGER)
    said = ""
    deadline = asyncio.get_running_loop().time() + GIVE_UP_SECONDS
    while asyncio.get_running_loop().time() < deadline:
        try:
            chunk = await asyncio.wait_for(reader.read(4096), 0.5)
        except TimeoutError:
            if trickle:
                writer.write(b"\x00")
            continue
        if not chunk:
            return f"refused: {said}" if said else "closed without a word"
        if not said:
            with contextlib.suppress(WireError):
                for message in decoder.feed(chunk):
                    if isinstance(message, dict):
                        said = str(message.get("reason", message.get("kind")))[:60]
    return f"still open after {GIVE_UP_SECONDS:.0f} s"


# ----------------------------------------------------------------------------- the games


@dataclass
class Game:
    """One game's figures."""

    wall: float
    host_cpu: float
    baseline: Sample
    peak_rss_kb: int
    peak_fds: int
    host_refusals: int  # "refused a connection" lines in the host's log
    hits: list[Hit] = field(default_factory=list)
    attacker_cpu: float = 0.0
    afters: list[Sample] = field(default_factory=list)  # after each round of a flood


@dataclass
class Bench:
    """What was asked for, and where the homes are."""

    seats: int
    kinds: list[str]
    attackers: int
    rate: float
    hold: int
    same_address: bool
    workdir: Path
    identity: Identity
    cert_der: bytes


def start_host(bench: Bench, log: IO[str]) -> tuple[subprocess.Popen[str], Invite]:
    """The host process, and its invite once it listens."""
    command = [P2PCARDS, "host", "rpg-battle", "--seats", str(bench.seats), "--port", "0"]
    command += ["--agent", "greedy", "--json", "--home", str(bench.workdir / "host")]
    command += ["--round-cap", "60"]
    host = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True)
    assert host.stdout is not None
    line = host.stdout.readline()
    try:
        return host, Invite.parse(json.loads(line)["invite"])
    except (ValueError, KeyError, InviteError):
        host.kill()
        host.wait()
        raise BenchError(f"the host printed no invite code ({line.strip()[:80]!r})") from None


def start_bots(bench: Bench, invite: Invite) -> list[subprocess.Popen[str]]:
    """The other seats, as `p2pcards bot` processes with homes of their own."""
    return [
        subprocess.Popen(
            [P2PCARDS, "bot", str(invite), "--home", str(bench.workdir / f"bot{i}"), "--json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(1, bench.seats)
    ]


@dataclass
class HostExit:
    """How the host process ended."""

    out: str
    cpu: float  # user + system seconds over its whole life
    reported: float  # time.monotonic() when it printed its result: its Node was closed


def wait_host(host: subprocess.Popen[str]) -> HostExit:
    """The host's output, CPU seconds and when it reported, once it has exited.

    Reaped with wait4 ourselves: its resource usage is exact, where /proc stops being
    readable up to a sample's interval before the end (the audit's CPU, say).
    """
    assert host.stdout is not None
    lines, reported = [], float("inf")
    for line in host.stdout:
        lines.append(line)
        if line.startswith('{"seat"'):
            reported = time.monotonic()
    try:
        _, status, usage = os.wait4(host.pid, 0)
    except ChildProcessError:  # reaped by Popen on the way out (Ctrl-C): no usage then
        host.wait()
        return HostExit("".join(lines), float("nan"), reported)
    host.returncode = os.waitstatus_to_exitcode(status)
    return HostExit("".join(lines), usage.ru_utime + usage.ru_stime, reported)


def last_words(text: str) -> str:
    """The last line of a process's stderr, with where it was raised if it is a traceback."""
    lines = text.strip().splitlines() or ["(nothing on stderr)"]
    # The innermost frame of the project's own code, not of the standard library's.
    where = [
        line.strip()
        for line in lines
        if line.strip().startswith("File ") and "/lib/python" not in line
    ]
    if "Traceback" in text and where:
        return f"{lines[-1][:120]} ({where[-1][:120]})"
    return lines[-1][:200]


def finish(
    host: subprocess.Popen[str],
    bots: list[subprocess.Popen[str]],
    log: Path,
    host_ended: Callable[[], object] = lambda: None,
) -> tuple[float, HostExit]:
    """Wait for every process (calling `host_ended` once the host has exited): when the
    last one ended, and how the host ended. BenchError unless every seat finished and
    passed its audit, at the same digest; a bot that fails first stops the host."""
    host_done: list[HostExit] = []
    waiter = threading.Thread(target=lambda: host_done.append(wait_host(host)), daemon=True)
    waiter.start()
    deadline = time.monotonic() + GAME_SECONDS
    failed: list[subprocess.Popen[str]] = []
    try:
        while waiter.is_alive():
            if not failed:
                failed = [bot for bot in bots if bot.poll() not in (None, 0)]
                if failed:  # the host may be ending anyway; else it would wait minutes
                    deadline = min(deadline, time.monotonic() + BOT_GONE_SECONDS)
            if time.monotonic() > deadline:
                # Not Popen.kill(): it may reap the host itself, and the waiter's wait4 too.
                with contextlib.suppress(ProcessLookupError):
                    os.kill(host.pid, signal.SIGKILL)
                waiter.join()
                if failed:
                    raise BenchError(f"a bot exited {failed[0].returncode}: {bot_error(failed[0])}")
                raise BenchError(f"the game did not end in {GAME_SECONDS:.0f} s")
            waiter.join(0.05)
        host_ended()
        exit_ = host_done[0]
        if host.returncode != 0:
            raise BenchError(f"the host exited {host.returncode}: {last_words(log.read_text())}")
        reports = [report_in(exit_.out)]
        for bot in bots:
            bot_out, bot_err = bot.communicate(timeout=max(1.0, deadline - time.monotonic()))
            if bot.returncode != 0:
                raise BenchError(f"a bot exited {bot.returncode}: {last_words(bot_err)}")
            reports.append(report_in(bot_out))
        ended = time.monotonic()
    except subprocess.TimeoutExpired:
        raise BenchError(f"a bot did not end in {GAME_SECONDS:.0f} s") from None
    finally:
        for proc in [host, *bots]:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    if any(r.get("audit") != "passed" for r in reports):
        raise BenchError(f"an audit did not pass: {[r.get('audit') for r in reports]}")
    if len({r.get("digest") for r in reports}) != 1:
        raise BenchError("the seats' digests differ")
    return ended, exit_


def bot_error(bot: subprocess.Popen[str]) -> str:
    """What a bot that has exited said last."""
    _, err = bot.communicate()
    return last_words(err)


def report_in(out: str) -> dict[str, Any]:
    """The seat's JSON report, the last `{"seat": ...}` line of its output."""
    lines = [line for line in out.splitlines() if line.startswith('{"seat"')]
    return dict(json.loads(lines[-1])) if lines else {}


def flood_plan(bench: Bench, invite: Invite) -> FloodPlan:
    """Attack the host's port from the attackers' own addresses (or from the seats')."""
    sources = (
        [invite.host if invite.host != "0.0.0.0" else "127.0.0.1"]
        if bench.same_address
        else [f"127.0.0.{10 + i}" for i in range(bench.attackers)]
    )
    target = invite.host if bench.same_address else "127.0.0.1"
    return FloodPlan(
        target, invite.port, bench.kinds, bench.attackers, bench.rate, bench.hold, sources,
        bench.identity, bench.cert_der,
    )  # fmt: skip


def play(bench: Bench, flooded: bool) -> Game:
    """One game, quiet or under the flood from the moment the bots start until it ends."""
    log_path = bench.workdir / "host.log"
    with log_path.open("w") as log:
        host, invite = start_host(bench, log)
        sampler = Sampler(host.pid)
        bots: list[subprocess.Popen[str]] = []
        flood = None
        try:
            time.sleep(BASELINE_SECONDS)
            started = time.monotonic()
            flood = Flood(flood_plan(bench, invite)) if flooded else None
            bots = start_bots(bench, invite)
            ended, exit_ = finish(host, bots, log_path, lambda: flood and flood.stop())
        finally:
            hits = flood.stop() if flood is not None else []
            sampler.stop()
            for proc in [host, *bots]:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
    for hit in hits:
        # Connections still open when the host's game ended were cut as its event loop
        # shut down: that is no refusal, and its time says nothing of the host's.
        with_host = hit.ended >= exit_.reported - EXIT_WINDOW
        if with_host and not hit.label.startswith(("refused", "port closed")):
            hit.label = "open until the host exited"
    baseline = sampler.last_before(started)
    rss, fds = sampler.peak(started, ended)
    return Game(
        ended - started,
        exit_.cpu - baseline.cpu,
        baseline,
        rss,
        fds,
        log_path.read_text().count("refused a connection"),
        hits,
        flood.cpu if flood is not None else 0.0,
    )


def flood_while_waiting(bench: Bench) -> Game:
    """Flood a table that waits for its seats, then let it rest; twice (a second round
    tells memory kept for reuse from a leak); then seat the bots and play."""
    log_path = bench.workdir / "host-waiting.log"
    hits: list[Hit] = []
    attacker_cpu = 0.0
    afters: list[Sample] = []
    with log_path.open("w") as log:
        host, invite = start_host(bench, log)
        sampler = Sampler(host.pid)
        bots: list[subprocess.Popen[str]] = []
        try:
            time.sleep(BASELINE_SECONDS)
            started = time.monotonic()
            for _ in range(WAITING_ROUNDS):
                flood = Flood(flood_plan(bench, invite))
                time.sleep(WAITING_FLOOD_SECONDS)
                hits += flood.stop()
                attacker_cpu += flood.cpu
                time.sleep(AFTER_SECONDS)
                afters.append(sampler.last_before(time.monotonic()))
            flooded_until = time.monotonic()
            bots = start_bots(bench, invite)
            finish(host, bots, log_path)
        finally:
            sampler.stop()
            for proc in [host, *bots]:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
    baseline = sampler.last_before(started)
    rss, fds = sampler.peak(started, flooded_until)
    return Game(
        WAITING_ROUNDS * WAITING_FLOOD_SECONDS,
        afters[-1].cpu - baseline.cpu,
        baseline,
        rss,
        fds,
        log_path.read_text().count("refused a connection"),
        hits,
        attacker_cpu,
        afters,
    )


# ----------------------------------------------------------------------------- the report


def kind_rows(hits: list[Hit], seconds: float) -> list[str]:
    """Per kind: connections, how they ended, and how long the host took to close them."""
    rows = []
    by_kind: dict[str, list[Hit]] = defaultdict(list)
    for hit in hits:
        by_kind[hit.kind].append(hit)
    for kind in sorted(by_kind):
        kind_hits = by_kind[kind]
        # Only connections the host itself ended: not those cut by the attacker at the
        # end, nor those that found the port closed once the game was over.
        times = sorted(
            h.seconds
            for h in kind_hits
            if not any(word in h.label for word in ("still open", "port", "until the host"))
        )
        labels = Counter(h.label for h in kind_hits).most_common(2)
        ended = "; ".join(f"{n} {label}" for label, n in labels)
        if times:
            p50, p95 = times[len(times) // 2], times[min(len(times) - 1, len(times) * 95 // 100)]
            closing = f"{p50 * 1000:6.0f} {p95 * 1000:7.0f}"
        else:
            closing = f"{'-':>6s} {'-':>7s}"
        rows.append(
            f"  {kind} {KINDS[kind]:27s} {len(kind_hits):6d} {len(kind_hits) / seconds:6.0f}/s "
            f"{closing}  {ended}"
        )
    return rows


def report(
    bench: Bench, quiet: list[Game], flooded: list[Game], waiting: Game | None, load: float
) -> int:
    """Print the table of figures; 1 if a target was missed."""
    missed = []
    print()
    # Host, bots and attackers share this machine's CPUs, and so does anything else running.
    print(
        f"load average (1 min) {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end, "
        f"on {os.cpu_count()} CPUs"
    )
    print(
        f"rpg-battle, {bench.seats} seats, greedy, round cap 60; {bench.attackers} attackers "
        f"({','.join(bench.kinds)}), at most {bench.rate:g} new and {bench.hold} open "
        f"connections each, from "
        f"{'the seats’ address' if bench.same_address else 'addresses of their own'}"
    )
    print(
        f"{'':26s}{'games':>6s}{'wall s':>8s}{'host CPU s':>11s}{'host RSS MB':>20s}"
        f"{'host fds':>14s}{'refusals':>9s}{'attacker CPU s':>15s}"
    )
    print(f"{'':26s}{'':6s}{'(mean)':>8s}{'(mean)':>11s}{'base → peak':>20s}{'base → peak':>14s}")
    for name, games_ in (("quiet", quiet), ("flooded", flooded)):
        if not games_:
            print(f"{name:26s}{0:6d}   (no game finished)")
            continue
        print(
            f"{name:26s}{len(games_):6d}{statistics.mean(g.wall for g in games_):8.2f}"
            f"{statistics.mean(g.host_cpu for g in games_):11.2f}"
            f"{max(g.baseline.rss_kb for g in games_) / 1024:12.1f} → "
            f"{max(g.peak_rss_kb for g in games_) / 1024:5.1f}"
            f"{max(g.baseline.fds for g in games_):8d} → {max(g.peak_fds for g in games_):3d}"
            f"{statistics.mean(g.host_refusals for g in games_):9.0f}"
            f"{statistics.mean(g.attacker_cpu for g in games_):15.2f}"
        )
    if quiet and flooded:
        ratio = statistics.mean(g.wall for g in flooded) / statistics.mean(g.wall for g in quiet)
        verdict = "met" if ratio <= RATIO_TARGET else "MISSED"
        print(f"flooded / quiet wall time: {ratio:.2f}x (target ≤ {RATIO_TARGET}: {verdict})")
        if ratio > RATIO_TARGET:
            missed.append("wall-time ratio")
    if flooded:
        seconds = sum(g.wall for g in flooded)
        print(
            "attacks during the flooded games: kind, connections, rate, time to close "
            "(p50 / p95 ms), how the first two ways they ended:"
        )
        for row in kind_rows([h for g in flooded for h in g.hits], seconds):
            print(row)
    if waiting is not None and waiting.afters:
        base, after = waiting.baseline, waiting.afters[-1]
        rss_ok = after.rss_kb - base.rss_kb <= max(base.rss_kb * RSS_SLACK, RSS_SLACK_KB)
        fds_ok = after.fds <= base.fds
        rounds = " / ".join(f"{a.rss_kb / 1024:.1f}" for a in waiting.afters)
        fds_after = " / ".join(str(a.fds) for a in waiting.afters)
        print(
            f"{WAITING_ROUNDS} rounds of {WAITING_FLOOD_SECONDS:.0f} s of flood while the table "
            f"waits for seats, each followed by {AFTER_SECONDS:.0f} s quiet:"
        )
        print(
            f"  host RSS {base.rss_kb / 1024:.1f} MB → peak {waiting.peak_rss_kb / 1024:.1f} → "
            f"after each round {rounds} ({'back' if rss_ok else 'NOT back'}); fds {base.fds} → "
            f"peak {waiting.peak_fds} → after {fds_after} ({'back' if fds_ok else 'NOT back'})"
        )
        print(
            f"  host CPU {waiting.host_cpu:.2f} s, {waiting.host_refusals} refusals logged, "
            f"attackers' CPU {waiting.attacker_cpu:.2f} s; then the bots sat down and the "
            "game passed its audit"
        )
        for row in kind_rows(waiting.hits, waiting.wall):
            print(row)
        if not rss_ok:
            missed.append("RSS after the flood")
        if not fds_ok:
            missed.append("descriptors after the flood")
    return 1 if missed else 0


def main() -> int:
    """Parse the arguments, play the quiet and the flooded games, report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--attackers", type=int, default=8)
    parser.add_argument("--kinds", default="all", help="all, or some of a,b,c,d,e")
    parser.add_argument("--rate", type=float, default=40, help="new connections/s per attacker")
    parser.add_argument("--hold", type=int, default=4, help="open connections per attacker")
    parser.add_argument(
        "--same-address", action="store_true", help="attack from the seats' own address"
    )
    args = parser.parse_args()
    kinds = sorted(KINDS) if args.kinds == "all" else sorted(set(args.kinds.split(",")))
    if not kinds or not set(kinds) <= set(KINDS):
        parser.exit(
            2, f"bench_flood.py: --kinds takes all or some of a,b,c,d,e, not {args.kinds!r}\n"
        )
    for option, value, low, high in [
        ("--seats", args.seats, 2, 8),
        ("--games", args.games, 1, 100),
        ("--attackers", args.attackers, 1, 200),
        ("--rate", args.rate, 0.1, 10_000),
        ("--hold", args.hold, 1, 1000),
    ]:
        if not low <= value <= high:
            parser.exit(2, f"bench_flood.py: {option} must be {low:g} to {high:g}, not {value:g}\n")
    # The attackers' failed handshakes are what they are for: asyncio need not report them.
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    load = os.getloadavg()[0]
    quiet: list[Game] = []
    flooded: list[Game] = []
    waiting = None
    failures = []
    with tempfile.TemporaryDirectory(prefix="p2pcards-flood-") as tmp:
        workdir = Path(tmp)
        identity = Identity.load_or_create(workdir / "stranger")
        identity.certificate_files(workdir / "stranger" / "tls")
        bench = Bench(
            args.seats, kinds, args.attackers, args.rate, args.hold, args.same_address, workdir,
            identity, identity.certificate_der(workdir / "stranger" / "tls"),
        )  # fmt: skip
        try:
            for flooding, games_ in ((False, quiet), (True, flooded)):
                for number in range(args.games):
                    name = "flooded" if flooding else "quiet"
                    try:
                        game = play(bench, flooding)
                    except BenchError as exc:
                        failures.append(f"{name} game {number + 1}: {exc}")
                        print(f"{name} game {number + 1}: FAILED: {exc}", flush=True)
                        continue
                    games_.append(game)
                    print(
                        f"{name} game {number + 1}: {game.wall:.2f} s, host CPU "
                        f"{game.host_cpu:.2f} s, {len(game.hits)} attacker connections",
                        flush=True,
                    )
            try:
                waiting = flood_while_waiting(bench)
            except BenchError as exc:
                failures.append(f"the table flooded while it waited: {exc}")
                print(f"flood while waiting: FAILED: {exc}", flush=True)
        except KeyboardInterrupt:
            print("\ninterrupted", file=sys.stderr)
            return 130
    code = report(bench, quiet, flooded, waiting, load)
    for failure in failures:
        print(f"FAILED {failure}")
    return 1 if failures else code


if __name__ == "__main__":
    sys.exit(main())
