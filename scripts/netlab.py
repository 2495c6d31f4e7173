"""A network lab: hosts in network namespaces joined by a userspace hub with latency and loss.

The kernel here has no `netem`, so the lab emulates the network itself. Each host is a
network namespace (`p2pc-<pid>-<lab>-<i>`) with loopback up and a TUN device `tun0`
(IFF_TUN | IFF_NO_PI) at 10.77.0.<i+1>/24 with a default route through it. One hub thread
in the calling process holds every TUN's file descriptor (opened inside its namespace,
from a short-lived thread that `setns`es there), reads the IPv4 packets the hosts send, and
writes each to the TUN of the host that owns its destination address:

- after a delay drawn uniformly from [latency - jitter, latency + jitter] (never below 0);
- by default keeping each direction (host A to host B) in order: a packet never overtakes
  an earlier one of the same direction, so it can wait past its own draw. `reorder=True`
  lets jitter reorder, as netem does;
- dropping it with probability `loss` (independent for every packet and every copy);
- dropping everything between partitioned hosts, both when it is sent and when it is due,
  so nothing crosses once `partition()` has returned.

Broadcast (10.77.0.255 and 255.255.255.255) and multicast reach every other host, each copy
delayed and dropped on its own. Anything else (another subnet, IPv6) is dropped and counted.
Real kernel TCP runs in every namespace, so lost segments are really retransmitted.

Use from Python (pytest)::

    with NetLab(hosts=3, latency=0.05, jitter=0.02, loss=0.05) as lab:
        lab.address(0)                                  # "10.77.0.1"
        proc = lab.popen(1, [".venv/bin/p2pcards", "bot", invite], stdout=subprocess.PIPE)
        sock = lab.socket(2)                            # a socket living in host 2's namespace
        lab.partition({0}, {1, 2}, heal_after=10.0)     # or lab.heal() later
        lab.stats()                                     # forwarded / dropped / delayed ...

Leaving the block kills every process in the namespaces (those started with `popen` get
SIGTERM first), stops the hub and deletes the namespaces, on exceptions and Ctrl-C too.
A lab whose process was SIGKILLed leaves its namespaces behind; the next lab removes the
namespaces of dead processes.

From the command line (root; durations as `50ms`, `1.5s` or plain seconds)::

    scripts/netlab.py shell --hosts 3 --latency 50ms --jitter 20ms --loss 0.05
        # prints each host's address and `ip netns exec NAME bash`; then reads commands:
        # `partition 0 | 1 2`, `cut 0 1`, `heal`, `set latency 80ms`, `stats`, `quit`
    scripts/netlab.py run --hosts 2 --latency 50ms --jitter 20ms --loss 0.05 --timeout 120s \\
        --on 0 '.venv/bin/p2pcards host rpg-battle --advertise 10.77.0.1 --agent greedy \\
                --home /tmp/lab-h --json > /tmp/host.json' \\
        --on 1 'sleep 2; .venv/bin/p2pcards bot "$(head -1 /tmp/host.json | cut -d\\" -f4)" \\
                --home /tmp/lab-b --json' \\
        --partition '0|1' --at 6s --for 10s
        # runs each shell command (sh -c) in its host, waits for all (killing them after
        # --timeout), prints the hub's counts; exits with the worst status, 124 on timeout.
        # The hosts share this machine's files, so each p2pcards needs its own --home.
    scripts/netlab.py bench [--seconds 2]
        # UDP floods from host 0 to host 1 at several rates: forwarded packets/s, hub CPU

Measured on this 2-CPU VM (Python 3.11, `scripts/netlab.py bench`: 64-byte UDP datagrams
from a sender process in host 0 to a receiver process in host 1; CPU is the hub thread's
own CPU time, read from its thread clock):

    offered       delivered     hub CPU          per packet   late (mean)
    1000 pkt/s     1000 pkt/s    4% of a core     ~37 µs       0.02 ms
    5000 pkt/s     5000 pkt/s   14% of a core     ~30 µs       0.01 ms
    20000 pkt/s   20000 pkt/s   28% of a core     ~15 µs       0.06 ms
    flat out      40000-100000  ~30% of a core     ~6 µs       0.1-6 ms

(at 50 ± 20 ms and 5% loss the same rates cost the same CPU, with 5% fewer delivered).
Flat out the sender's TUN queue overflows and the three processes share two CPUs, so the
hub is not what limits it. An idle hub sleeps in epoll and costs nothing; a whole 3-seat
rpg-battle game at 50 ± 20 ms and 5% loss (about 1500 packets in 21 s) cost it 0.22 s.

Timing: epoll's timeout is whole milliseconds, so a copy leaves up to 1 ms after its time
(0.5 ms on average when packets are sparse). A TCP echo of small messages measures a median
round trip of 100.7 ms at latency 50 ms; at 50 ± 20 ms about 107 ms in the ordered mode
(a quick ACK and the data right behind it leave with the later of their two draws) and
104 ms with `reorder=True`.

Limits: no bandwidth or queue limit (only delay, jitter, loss and partitions); loss is
independent per packet (no bursts); one /24, so at most 254 hosts; the hub is a thread of
the calling process, so heavy CPU-bound Python in that same process (not in the hosts'
processes) can delay it by the GIL's switch interval (5 ms). Needs root, `ip` (iproute2)
and /dev/net/tun.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import ctypes
import fcntl
import heapq
import itertools
import os
import random
import re
import select
import shlex
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

SUBNET = "10.77.0"
PREFIX = "p2pc"
NETNS_DIR = "/var/run/netns"
TUN_NAME = "tun0"

_CLONE_NEWNET = 0x40000000
_TUNSETIFF = 0x400454CA
_IFF_TUN = 0x0001
_IFF_NO_PI = 0x1000
_BROADCASTS = frozenset({socket.inet_aton(f"{SUBNET}.255"), b"\xff\xff\xff\xff"})
_READ_BATCH = 64  # packets read from one TUN before looking at the others again

_T = TypeVar("_T")
_lab_numbers = itertools.count()
_open_labs: set[NetLab] = set()  # strong: a lab dropped unclosed is still torn down at exit


class NetLabError(RuntimeError):
    """The lab cannot be built or used; the message says what is missing."""


@dataclass(frozen=True)
class Stats:
    """What the hub has done since the lab started."""

    received: int  # packets read from the hosts' TUNs
    forwarded: int  # copies written to a TUN (a broadcast makes one per other host)
    delayed: int  # copies that were held back for a delay above zero
    dropped_loss: int
    dropped_partition: int
    dropped_unroutable: int  # no host owns the destination, or not IPv4
    dropped_write: int  # the receiving kernel refused the packet
    pending: int  # copies still waiting for their time
    late_mean: float  # seconds a forwarded copy was written after its due time, on average
    late_max: float  # and at worst
    cpu_seconds: float  # the hub thread's CPU time
    wall_seconds: float  # since the hub started

    @property
    def dropped(self) -> int:
        """Every copy dropped, for whatever reason."""
        return (
            self.dropped_loss
            + self.dropped_partition
            + self.dropped_unroutable
            + self.dropped_write
        )


def check_environment() -> None:
    """NetLabError, in one line, naming what this machine lacks for a lab."""
    if os.geteuid() != 0:
        raise NetLabError("needs root: it creates network namespaces and TUN devices")
    if shutil.which("ip") is None:
        raise NetLabError("needs the `ip` command (iproute2), which is not on PATH")
    if not os.path.exists("/dev/net/tun"):
        raise NetLabError(
            "/dev/net/tun is missing: load the tun module (modprobe tun) or, in a container, "
            "pass the device in (--device /dev/net/tun)"
        )
    try:
        os.close(os.open("/dev/net/tun", os.O_RDWR))
    except OSError as exc:
        raise NetLabError(f"cannot open /dev/net/tun: {exc.strerror}") from None


def _setns(fd: int) -> None:
    setns: Callable[[int, int], None] | None = getattr(os, "setns", None)
    if setns is not None:
        setns(fd, _CLONE_NEWNET)
        return
    # os.setns arrived in Python 3.12; libc has had it for longer.
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.setns(fd, _CLONE_NEWNET) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))


def in_namespace(name: str, fn: Callable[[], _T]) -> _T:
    """Call `fn` on a fresh thread inside network namespace `name`; what it makes stays there.

    A socket or TUN keeps the namespace it was created in, so it can be used from any thread
    afterwards. Entering it on a throwaway thread leaves the caller's threads untouched.
    """
    result: list[_T] = []
    failure: list[BaseException] = []

    def enter_and_call() -> None:
        try:
            fd = os.open(os.path.join(NETNS_DIR, name), os.O_RDONLY)
            try:
                _setns(fd)
            finally:
                os.close(fd)
            result.append(fn())
        except BaseException as exc:
            failure.append(exc)

    thread = threading.Thread(target=enter_and_call, name=f"netns-{name}")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0]


def _open_tun() -> int:
    fd = os.open("/dev/net/tun", os.O_RDWR | os.O_CLOEXEC)
    try:
        fcntl.ioctl(fd, _TUNSETIFF, struct.pack("16sH", TUN_NAME.encode(), _IFF_TUN | _IFF_NO_PI))
        os.set_blocking(fd, False)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _ip(args: Sequence[str], batch: str | None = None) -> None:
    """Run `ip ARGS` (feeding `batch` to `ip -batch -`); NetLabError with ip's own words."""
    command = ["ip", *args] if batch is None else ["ip", "-force", *args, "-batch", "-"]
    done = subprocess.run(command, input=batch, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        message = " ".join(done.stderr.split()) or f"exit status {done.returncode}"
        raise NetLabError(f"`{shlex.join(command)}` failed: {message}")


def _netns_pids(name: str) -> list[int]:
    done = subprocess.run(
        ["ip", "netns", "pids", name], capture_output=True, text=True, check=False
    )
    return [int(word) for word in done.stdout.split() if word.isdigit()]


def _kill_namespace_processes(name: str) -> None:
    # A killed process may have forked just before; look again until the namespace is empty.
    for _ in range(20):
        pids = _netns_pids(name)
        if not pids:
            return
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.02)


def remove_stale_namespaces(prefix: str = PREFIX) -> list[str]:
    """Delete the namespaces of labs whose process has died (SIGKILL skips teardown)."""
    pattern = re.compile(rf"{re.escape(prefix)}-(\d+)-\d+-\d+")
    removed = []
    with contextlib.suppress(FileNotFoundError):
        for name in sorted(os.listdir(NETNS_DIR)):
            match = pattern.fullmatch(name)
            if match is None or _alive(int(match[1])):
                continue
            _kill_namespace_processes(name)
            with contextlib.suppress(NetLabError):
                _ip(["netns", "del", name])
                removed.append(name)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class _Hub:
    """The forwarding loop: one epoll over every TUN, a heap of copies keyed by due time."""

    def __init__(
        self,
        fds: list[int],
        latency: float,
        jitter: float,
        loss: float,
        reorder: bool,
        seed: int | None,
    ) -> None:
        self.fds = fds
        self.latency = latency
        self.jitter = jitter
        self.loss = loss
        self.reorder = reorder
        self.blocked: frozenset[tuple[int, int]] = frozenset()
        self._rng = random.Random(seed)
        self._owner = {socket.inet_aton(f"{SUBNET}.{i + 1}"): i for i in range(len(fds))}
        self._wake_r, self._wake_w = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._started = time.monotonic()
        self._heap: list[tuple[float, int, int, int, bytes]] = []
        self._sequence = itertools.count()  # ties on due time leave in arrival order
        self._last_due: dict[tuple[int, int], float] = {}
        self.received = self.forwarded = self.delayed = 0
        self.dropped_loss = self.dropped_partition = self.dropped_unroutable = 0
        self.dropped_write = 0
        self.late_max = self.late_total = 0.0

    def start(self) -> None:
        """Run the loop on a daemon thread."""
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self.run, name="netlab-hub", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """End the loop and wait for it; copies still pending are dropped."""
        self._stopping = True
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")
        if self._thread is not None:
            self._thread.join(timeout=5)
        os.close(self._wake_r)
        os.close(self._wake_w)

    def cpu_seconds(self) -> float:
        """CPU time of the hub thread so far."""
        thread = self._thread
        if thread is None or thread.ident is None or not thread.is_alive():
            return 0.0
        with contextlib.suppress(OSError, ProcessLookupError):
            return time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
        return 0.0

    def stats(self) -> Stats:
        """A snapshot of the counters (read without locking; each is a plain int)."""
        return Stats(
            self.received,
            self.forwarded,
            self.delayed,
            self.dropped_loss,
            self.dropped_partition,
            self.dropped_unroutable,
            self.dropped_write,
            len(self._heap),
            self.late_total / max(self.forwarded, 1),
            self.late_max,
            self.cpu_seconds(),
            time.monotonic() - self._started,
        )

    def run(self) -> None:
        """Forward until stop(); the only reader and writer of the TUNs."""
        poller = select.epoll()
        for fd in self.fds:
            poller.register(fd, select.EPOLLIN)
        poller.register(self._wake_r, select.EPOLLIN)
        host_of = {fd: i for i, fd in enumerate(self.fds)}
        heap = self._heap
        try:
            while not self._stopping:
                now = time.monotonic()
                while heap and heap[0][0] <= now:
                    self._deliver(now, *heapq.heappop(heap))
                events = poller.poll(heap[0][0] - now if heap else -1.0)
                now = time.monotonic()
                for fd, _ in events:
                    src = host_of.get(fd)
                    if src is None:
                        with contextlib.suppress(OSError):
                            os.read(fd, 4096)
                    elif not self._receive(fd, src, now):
                        poller.unregister(fd)
        finally:
            poller.close()
            heap.clear()

    def _deliver(self, now: float, due: float, _: int, src: int, dst: int, packet: bytes) -> None:
        if (src, dst) in self.blocked:
            self.dropped_partition += 1
            return
        try:
            os.write(self.fds[dst], packet)
        except OSError:
            self.dropped_write += 1
            return
        self.forwarded += 1
        self.late_total += now - due
        self.late_max = max(self.late_max, now - due)

    def _receive(self, fd: int, src: int, now: float) -> bool:
        """Queue what host `src` has sent; False if its TUN has failed for good."""
        for _ in range(_READ_BATCH):
            try:
                packet = os.read(fd, 65536)
            except (BlockingIOError, InterruptedError):
                return True
            except OSError:
                return False
            self.received += 1
            if len(packet) < 20 or packet[0] >> 4 != 4:
                self.dropped_unroutable += 1
                continue
            destination = packet[16:20]
            dst = self._owner.get(destination)
            if dst is not None:
                self._queue(now, src, dst, packet)
            elif destination in _BROADCASTS or 224 <= packet[16] < 240:
                for other in range(len(self.fds)):
                    if other != src:
                        self._queue(now, src, other, packet)
            else:
                self.dropped_unroutable += 1
        return True

    def _queue(self, now: float, src: int, dst: int, packet: bytes) -> None:
        if (src, dst) in self.blocked:
            self.dropped_partition += 1
            return
        if self.loss and self._rng.random() < self.loss:
            self.dropped_loss += 1
            return
        delay = self.latency
        if self.jitter:
            delay = max(0.0, delay + self._rng.uniform(-self.jitter, self.jitter))
        due = now + delay
        if not self.reorder:
            due = max(due, self._last_due.get((src, dst), 0.0))
            self._last_due[(src, dst)] = due
        if due > now:
            self.delayed += 1
        heapq.heappush(self._heap, (due, next(self._sequence), src, dst, packet))


class NetLab:
    """N hosts in network namespaces, one /24, joined by a hub that delays and drops packets.

    A context manager: `with NetLab(hosts=2, latency=0.05) as lab: ...`. Latency and jitter
    are seconds, one way; `loss` is a probability per packet. `seed` makes the hub's draws
    repeatable (the packets themselves depend on the kernels' timing).
    """

    def __init__(
        self,
        hosts: int = 2,
        latency: float = 0.0,
        jitter: float = 0.0,
        loss: float = 0.0,
        *,
        reorder: bool = False,
        seed: int | None = None,
        prefix: str = PREFIX,
    ) -> None:
        if not 1 <= hosts <= 254:
            raise ValueError(f"hosts must be 1 to 254, not {hosts}")
        _check_link(latency, jitter, loss)
        self.hosts = hosts
        number = next(_lab_numbers)
        self.names = [f"{prefix}-{os.getpid()}-{number}-{i}" for i in range(hosts)]
        self._settings = (latency, jitter, loss, reorder, seed)
        self._prefix = prefix
        self._created: list[str] = []
        self._fds: list[int] = []
        self._hub: _Hub | None = None
        self._processes: list[subprocess.Popen[Any]] = []
        self._timers: list[threading.Timer] = []
        self._generation = 0
        self._lock = threading.Lock()

    def __enter__(self) -> NetLab:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        """Build the namespaces, TUNs and hub; NetLabError (after undoing it all) if it can't."""
        if self._hub is not None:
            raise NetLabError("the lab is already running")
        check_environment()
        remove_stale_namespaces(self._prefix)
        _open_labs.add(self)
        try:
            _ip([], "".join(f"netns add {name}\n" for name in self.names))
            self._created = list(self.names)
            for i, name in enumerate(self.names):
                try:
                    self._fds.append(in_namespace(name, _open_tun))
                except OSError as exc:
                    raise NetLabError(
                        f"cannot make a TUN in namespace {name}: {exc.strerror or exc}"
                    ) from None
                _ip(["-n", name], _host_setup(i))
            latency, jitter, loss, reorder, seed = self._settings
            self._hub = _Hub(self._fds, latency, jitter, loss, reorder, seed)
            self._hub.start()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Kill the hosts' processes, stop the hub, delete the namespaces; safe to repeat."""
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()
        for process in self._processes:
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    process.terminate()
        deadline = time.monotonic() + 2.0
        for process in self._processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=max(0.0, deadline - time.monotonic()))
        for name in self._created:
            _kill_namespace_processes(name)
        for process in self._processes:
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=1.0)
        self._processes.clear()
        if self._hub is not None:
            self._hub.stop()
            self._hub = None
        for fd in self._fds:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._fds.clear()
        if self._created:
            with contextlib.suppress(NetLabError):
                _ip([], "".join(f"netns del {name}\n" for name in self._created))
            self._created.clear()
        _open_labs.discard(self)

    def address(self, host: int) -> str:
        """Host `host`'s IPv4 address, 10.77.0.<host+1>."""
        self._check_host(host)
        return f"{SUBNET}.{host + 1}"

    def namespace(self, host: int) -> str:
        """The name of host `host`'s network namespace (for `ip netns exec NAME ...`)."""
        self._check_host(host)
        return self.names[host]

    def command(self, host: int, args: Sequence[str]) -> list[str]:
        """`args` as a command line that runs inside host `host`'s namespace."""
        return ["ip", "netns", "exec", self.namespace(host), *args]

    def popen(self, host: int, args: Sequence[str], **kwargs: Any) -> subprocess.Popen[Any]:
        """Start `args` inside host `host` (Popen's keywords apply); it is killed on close."""
        if self._hub is None:
            raise NetLabError("the lab is not running")
        process: subprocess.Popen[Any] = subprocess.Popen(self.command(host, args), **kwargs)
        self._processes.append(process)
        return process

    def socket(
        self,
        host: int,
        family: int = socket.AF_INET,
        type: int = socket.SOCK_STREAM,
        proto: int = 0,
    ) -> socket.socket:
        """A new socket in host `host`'s namespace, usable from this process."""
        name = self.namespace(host)
        return in_namespace(name, lambda: socket.socket(family, type, proto))

    def configure(
        self,
        latency: float | None = None,
        jitter: float | None = None,
        loss: float | None = None,
        reorder: bool | None = None,
    ) -> None:
        """Change the link at run time; packets already queued keep their due time."""
        hub = self._running()
        _check_link(
            hub.latency if latency is None else latency,
            hub.jitter if jitter is None else jitter,
            hub.loss if loss is None else loss,
        )
        if latency is not None:
            hub.latency = latency
        if jitter is not None:
            hub.jitter = jitter
        if loss is not None:
            hub.loss = loss
        if reorder is not None:
            hub.reorder = reorder

    def partition(self, *groups: Iterable[int], heal_after: float | None = None) -> None:
        """Cut every host from the hosts in other groups (replacing any partition before).

        Hosts named in no group keep talking to everyone. With `heal_after`, the partition
        heals by itself after that many seconds, unless another has replaced it by then.
        """
        sets = [set(group) for group in groups]
        for group in sets:
            for host in group:
                self._check_host(host)
        if sum(len(group) for group in sets) != len(set().union(*sets)):
            raise ValueError("a host is in two groups")
        pairs = {
            (a, b)
            for i, one in enumerate(sets)
            for j, other in enumerate(sets)
            if i != j
            for a in one
            for b in other
        }
        self._block(frozenset(pairs), heal_after)

    def cut(self, a: int, b: int, heal_after: float | None = None) -> None:
        """Add a cut between hosts `a` and `b` (both ways) to the partition in force.

        With `heal_after`, everything then in force heals after that many seconds, unless the
        partition has changed again by then.
        """
        self._check_host(a)
        self._check_host(b)
        self._block(self._running().blocked | {(a, b), (b, a)}, heal_after)

    def heal(self) -> None:
        """Remove every partition and cut."""
        self._block(frozenset(), None)

    def stats(self) -> Stats:
        """The hub's counts so far."""
        return self._running().stats()

    def _block(self, pairs: frozenset[tuple[int, int]], heal_after: float | None) -> None:
        hub = self._running()
        with self._lock:
            self._generation += 1
            generation = self._generation
            # One assignment: the hub thread sees either the old set or the new one.
            hub.blocked = pairs
        if heal_after is not None:
            timer = threading.Timer(heal_after, self._heal_if, args=(generation,))
            timer.daemon = True
            self._timers.append(timer)
            timer.start()

    def _heal_if(self, generation: int) -> None:
        with self._lock:
            if generation == self._generation and self._hub is not None:
                self._generation += 1
                self._hub.blocked = frozenset()

    def _running(self) -> _Hub:
        if self._hub is None:
            raise NetLabError("the lab is not running")
        return self._hub

    def _check_host(self, host: int) -> None:
        if not 0 <= host < self.hosts:
            raise ValueError(f"no host {host}: the lab has hosts 0 to {self.hosts - 1}")


def _check_link(latency: float, jitter: float, loss: float) -> None:
    if latency < 0 or jitter < 0:
        raise ValueError("latency and jitter must not be negative")
    if not 0 <= loss <= 1:
        raise ValueError(f"loss is a probability, 0 to 1, not {loss}")


def _host_setup(host: int) -> str:
    # addrgenmode none: no IPv6 link-local address, so the kernel sends no IPv6 chatter the
    # hub would only drop. The default route carries 255.255.255.255 out through the TUN.
    return (
        "link set lo up\n"
        f"link set {TUN_NAME} addrgenmode none\n"
        f"addr add {SUBNET}.{host + 1}/24 brd + dev {TUN_NAME}\n"
        f"link set {TUN_NAME} up\n"
        f"route add default dev {TUN_NAME}\n"
    )


def _close_open_labs() -> None:
    for lab in list(_open_labs):
        lab.close()


atexit.register(_close_open_labs)


# --- the command line ---------------------------------------------------------------------


def parse_duration(text: str) -> float:
    """Seconds from `50ms`, `1.5s` or `2`; ValueError says what is wrong."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*(ms|s)?\s*", text)
    if match is None:
        raise ValueError(f"{text!r} is not a duration (like 50ms, 1.5s or 2)")
    value = float(match[1])
    return value / 1000 if match[2] == "ms" else value


def parse_groups(text: str) -> list[set[int]]:
    """`0|1,2` or `0 | 1 2` as host groups; ValueError says what is wrong."""
    groups = []
    for part in text.split("|"):
        words = part.replace(",", " ").split()
        if not words or not all(word.isdigit() for word in words):
            raise ValueError(f"{text!r} is not host groups like '0|1,2'")
        groups.append({int(word) for word in words})
    if len(groups) < 2:
        raise ValueError(f"{text!r} names one group; a partition needs two or more, '0|1,2'")
    return groups


def _duration(text: str) -> float:
    try:
        return parse_duration(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _probability(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a probability from 0 to 1")
    return value


def _groups(text: str) -> list[set[int]]:
    try:
        return parse_groups(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="netlab.py", description="Hosts in network namespaces joined by a lossy, slow hub."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    hosts = argparse.ArgumentParser(add_help=False)
    hosts.add_argument("--hosts", type=int, default=2, help="hosts (namespaces), 1 to 254")
    lab = argparse.ArgumentParser(add_help=False)
    lab.add_argument("--latency", type=_duration, default=0.0, help="one way, e.g. 50ms")
    lab.add_argument("--jitter", type=_duration, default=0.0, help="± around the latency")
    lab.add_argument("--loss", type=_probability, default=0.0, help="drop probability")
    lab.add_argument("--reorder", action="store_true", help="let jitter reorder packets")
    lab.add_argument("--seed", type=int, default=None, help="seed for the hub's draws")
    timed = argparse.ArgumentParser(add_help=False)
    timed.add_argument("--partition", type=_groups, help="groups to cut apart, e.g. '0|1,2'")
    timed.add_argument("--at", type=_duration, default=0.0, help="when the partition starts")
    timed.add_argument("--for", dest="lasting", type=_duration, help="how long it lasts")
    commands.add_parser(
        "shell", parents=[hosts, lab, timed], help="build a lab, print how to enter it, take orders"
    )
    run = commands.add_parser(
        "run", parents=[hosts, lab, timed], help="run shell commands in hosts and wait for them"
    )
    run.add_argument(
        "--timeout", type=_duration, default=None, help="kill the commands after this long"
    )
    run.add_argument(
        "--on",
        nargs=2,
        action="append",
        metavar=("HOST", "CMD"),
        required=True,
        help="run CMD (with sh -c) in host HOST; repeatable",
    )
    bench = commands.add_parser(
        "bench", parents=[lab], help="measure the hub's throughput and CPU (2 hosts)"
    )
    bench.add_argument("--seconds", type=_duration, default=2.0, help="per offered rate")
    return parser


def _schedule_partition(lab: NetLab, args: argparse.Namespace) -> threading.Timer | None:
    if args.partition is None:
        return None
    groups: list[set[int]] = args.partition
    timer = threading.Timer(args.at, lambda: lab.partition(*groups, heal_after=args.lasting))
    timer.daemon = True
    timer.start()
    return timer


def _print_stats(stats: Stats, out: Any = sys.stderr) -> None:
    print(
        f"received {stats.received}, forwarded {stats.forwarded}, delayed {stats.delayed}, "
        f"dropped {stats.dropped} (loss {stats.dropped_loss}, partition "
        f"{stats.dropped_partition}, unroutable {stats.dropped_unroutable}, write "
        f"{stats.dropped_write}), pending {stats.pending}, late {stats.late_mean * 1000:.2f} ms "
        f"on average and {stats.late_max * 1000:.1f} ms at worst, hub CPU "
        f"{stats.cpu_seconds:.2f} s in {stats.wall_seconds:.1f} s",
        file=out,
    )


def _shell(lab: NetLab) -> int:
    for host in range(lab.hosts):
        print(f"host {host}  {lab.address(host):<11}  ip netns exec {lab.namespace(host)} bash")
    print(
        "commands: partition 0 | 1 2 [for 10s], cut A B, heal, "
        "set latency|jitter|loss VALUE, stats, quit"
    )
    for line in sys.stdin:
        words = line.split()
        try:
            if not words:
                continue
            if words[0] in ("quit", "exit"):
                break
            if words[0] == "stats":
                _print_stats(lab.stats(), sys.stdout)
                continue
            if words[0] == "heal":
                lab.heal()
            elif words[0] == "cut" and len(words) == 3:
                lab.cut(int(words[1]), int(words[2]))
            elif words[0] == "partition":
                text, _, lasting = line.split(maxsplit=1)[1].partition(" for ")
                heal = parse_duration(lasting) if lasting else None
                lab.partition(*parse_groups(text), heal_after=heal)
            elif words[0] == "set" and len(words) == 3 and words[1] == "latency":
                lab.configure(latency=parse_duration(words[2]))
            elif words[0] == "set" and len(words) == 3 and words[1] == "jitter":
                lab.configure(jitter=parse_duration(words[2]))
            elif words[0] == "set" and len(words) == 3 and words[1] == "loss":
                lab.configure(loss=float(words[2]))
            else:
                print(f"unknown command: {line.strip()}")
                continue
            print("ok")
        except ValueError as exc:
            print(f"error: {exc}")
        sys.stdout.flush()
    return 0


def _run(lab: NetLab, on: list[list[str]], timeout: float | None) -> int:
    processes = [lab.popen(int(host), ["sh", "-c", command]) for host, command in on]
    deadline = None if timeout is None else time.monotonic() + timeout
    try:
        codes = [
            process.wait(None if deadline is None else max(0.0, deadline - time.monotonic()))
            for process in processes
        ]
    except subprocess.TimeoutExpired:
        print(f"netlab: the commands were still running after {timeout:g} s", file=sys.stderr)
        _print_stats(lab.stats())
        return 124
    _print_stats(lab.stats())
    return max(codes, key=abs)


_BENCH_SENDER = """
import socket, sys, time
address, rate, seconds = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
payload, sent, start = b"x" * 36, 0, time.monotonic()
while (now := time.monotonic()) - start < seconds:
    due = sent / rate if rate else 0.0
    if now - start < due:
        time.sleep(min(due - (now - start), 0.001))
        continue
    try:
        s.sendto(payload, (address, 9999))
        sent += 1
    except OSError:
        time.sleep(0.0002)
print(sent)
"""

_BENCH_RECEIVER = """
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
s.bind(("0.0.0.0", 9999))
print("ready", flush=True)
s.settimeout(1.0)
got = 0
try:
    while True:
        s.recv(2048)
        got += 1
except TimeoutError:
    pass
print(got)
"""


def _bench(args: argparse.Namespace) -> int:
    print(
        f"latency {args.latency * 1000:g} ms, jitter {args.jitter * 1000:g} ms, loss {args.loss:g}"
        f"; 64-byte UDP datagrams from host 0 to host 1 for {args.seconds:g} s"
    )
    print("offered pkt/s  sent pkt/s  delivered pkt/s  hub CPU  µs/packet  late: mean  max")
    for rate in (1000.0, 5000.0, 20000.0, 0.0):
        with NetLab(
            2, args.latency, args.jitter, args.loss, reorder=args.reorder, seed=args.seed
        ) as lab:
            receiver = lab.popen(
                1, [sys.executable, "-c", _BENCH_RECEIVER], stdout=subprocess.PIPE, text=True
            )
            assert receiver.stdout is not None
            receiver.stdout.readline()
            before = lab.stats()
            command = [sys.executable, "-c", _BENCH_SENDER, lab.address(1), str(rate)]
            sender = lab.popen(0, [*command, str(args.seconds)], stdout=subprocess.PIPE, text=True)
            sent = int(sender.communicate()[0])
            # Let the last packets through before reading the hub's clock.
            time.sleep(args.latency + args.jitter + 0.05)
            after = lab.stats()
            delivered = int(receiver.communicate()[0].split()[-1])
            handled = after.received - before.received
            cpu = after.cpu_seconds - before.cpu_seconds
            wall = after.wall_seconds - before.wall_seconds
            offered = f"{rate:.0f}" if rate else "flat out"
            print(
                f"{offered:>13}  {sent / args.seconds:>10.0f}  "
                f"{delivered / args.seconds:>15.0f}  {cpu / wall:>7.0%}  "
                f"{cpu / max(handled, 1) * 1e6:>9.1f}  {after.late_mean * 1000:>7.2f} ms  "
                f"{after.late_max * 1000:.1f} ms"
            )
    return 0


def _check_args(args: argparse.Namespace) -> str | None:
    """What is wrong with the hosts the arguments name, before anything is built."""
    if not 1 <= args.hosts <= 254:
        return f"--hosts must be 1 to 254, not {args.hosts}"
    groups: list[set[int]] = getattr(args, "partition", None) or []
    named = [host for group in groups for host in group]
    named += [int(host) if host.isdigit() else -1 for host, _ in getattr(args, "on", None) or []]
    wrong = [host for host in named if not 0 <= host < args.hosts]
    if wrong:
        return f"no host {wrong[0]}: the lab has hosts 0 to {args.hosts - 1}"
    if sum(map(len, groups)) != len(set().union(*groups)):
        return "--partition names a host in two groups"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; see the module docstring."""
    args = _parser().parse_args(argv)
    # SIGTERM and SIGHUP unwind like Ctrl-C, so the lab is torn down.
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, lambda number, _frame: sys.exit(128 + number))
    try:
        if args.command == "bench":
            return _bench(args)
        problem = _check_args(args)
        if problem:
            print(f"netlab: {problem}", file=sys.stderr)
            return 2
        with NetLab(
            args.hosts,
            args.latency,
            args.jitter,
            args.loss,
            reorder=args.reorder,
            seed=args.seed,
        ) as lab:
            timer = _schedule_partition(lab, args)
            try:
                return _shell(lab) if args.command == "shell" else _run(lab, args.on, args.timeout)
            finally:
                if timer is not None:
                    timer.cancel()
    except NetLabError as exc:
        print(f"netlab: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
