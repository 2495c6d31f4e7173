"""The network lab (scripts/netlab.py): real kernel TCP and UDP across namespaces via its hub.

These need root and /dev/net/tun. Where the lab cannot be built the tests fail and say what
is missing; they are never skipped.
"""

from __future__ import annotations

import os
import random
import socket
import statistics
import struct
import subprocess
import sys
import threading
import time
from typing import Any

import pytest
from lab_helpers import SCRIPT, lab

PORT = 9000

# Runs inside a host: echoes every connection back, one thread each.
ECHO_SERVER = f"""
import socket, threading
def echo(conn):
    with conn:
        while data := conn.recv(65536):
            conn.sendall(data)
server = socket.create_server(("0.0.0.0", {PORT}), reuse_port=True)
print("listening", flush=True)
while True:
    conn, _ = server.accept()
    threading.Thread(target=echo, args=(conn,), daemon=True).start()
"""


def start_echo(net: Any, host: int) -> subprocess.Popen[str]:
    """An echo server in `host`, a separate process, listening when this returns."""
    server: subprocess.Popen[str] = net.popen(
        host, [sys.executable, "-c", ECHO_SERVER], stdout=subprocess.PIPE, text=True
    )
    assert server.stdout is not None
    assert server.stdout.readline().strip() == "listening", "the echo server did not start"
    return server


def connect(net: Any, host: int, to: int, timeout: float = 15.0) -> socket.socket:
    """A TCP connection from `host` to the echo server in host `to`."""
    client: socket.socket = net.socket(host)
    client.settimeout(timeout)
    client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    client.connect((net.address(to), PORT))
    return client


def receive(sock: socket.socket, size: int) -> bytes:
    """Exactly `size` bytes (or fewer if the peer closes)."""
    chunks, got = [], 0
    while got < size:
        chunk = sock.recv(size - got)
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def round_trip(sock: socket.socket, message: bytes) -> float:
    """Seconds for `message` to come back from the echo server."""
    start = time.monotonic()
    sock.sendall(message)
    assert receive(sock, len(message)) == message
    return time.monotonic() - start


def total_retransmits(sock: socket.socket) -> int:
    """tcpi_total_retrans from the kernel's struct tcp_info: segments TCP sent again."""
    info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 104)
    return int(struct.unpack_from("I", info, 100)[0])


def test_tcp_through_a_slow_lossy_hub_is_intact_retransmitted_and_takes_the_latency() -> None:
    latency, jitter = 0.05, 0.02
    with lab(hosts=2, latency=latency, jitter=jitter, loss=0.05, seed=7) as net:
        start_echo(net, 1)
        with connect(net, 0, 1) as client:
            rtts = [round_trip(client, b"ping %02d" % i) for i in range(25)]
            # Two one-way trips, each latency ± jitter, put the median near 2 × latency. One
            # ping in ten loses a packet and waits for TCP to send it again, and a quick ACK
            # holds back the data right behind it (the hub keeps each direction in order):
            # both pull the median up a little (measured 100-118 ms over eight seeds).
            median = statistics.median(rtts)
            assert 2 * latency - jitter <= median <= 2 * latency + 1.5 * jitter, rtts
            assert min(rtts) >= 2 * (latency - jitter) - 0.002, rtts

            payload = random.Random(1).randbytes(192 * 1024)
            sender = threading.Thread(target=client.sendall, args=(payload,))
            sender.start()
            echoed = receive(client, len(payload))
            sender.join()
            assert echoed == payload
            assert total_retransmits(client) > 0, "5% loss cost TCP no retransmission"
        stats = net.stats()
        carried = stats.forwarded + stats.dropped_loss
        assert 0.02 <= stats.dropped_loss / carried <= 0.09, stats
        assert stats.dropped_partition == stats.dropped_unroutable == 0, stats


def test_a_partition_stalls_a_connection_and_healing_lets_the_same_one_carry_on() -> None:
    with lab(hosts=3, latency=0.005) as net:
        start_echo(net, 1)
        with connect(net, 0, 1) as cut_off, connect(net, 2, 1) as same_side:
            assert round_trip(cut_off, b"before") < 0.1
            net.partition({0}, {1, 2})
            # Hosts on the same side still talk; across the cut nothing comes back.
            assert round_trip(same_side, b"still here") < 0.1
            cut_off.sendall(b"across the cut")
            cut_off.settimeout(1.5)
            with pytest.raises(TimeoutError):
                cut_off.recv(100)
            blocked = net.stats().dropped_partition
            assert blocked > 0
            net.heal()
            cut_off.settimeout(10)
            assert receive(cut_off, 14) == b"across the cut"
            assert round_trip(cut_off, b"after") < 0.1

            net.cut(0, 1, heal_after=1.5)
            start = time.monotonic()
            cut_off.sendall(b"heals by itself")
            assert receive(cut_off, 15) == b"heals by itself"
            assert time.monotonic() - start >= 1.5
            assert net.stats().dropped_partition > blocked


def test_a_udp_broadcast_reaches_every_other_host_and_nothing_else_leaks() -> None:
    with lab(hosts=3, latency=0.01) as net:
        listeners = []
        for host in (1, 2):
            listener: socket.socket = net.socket(host, type=socket.SOCK_DGRAM)
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind(("", 7778))
            listener.settimeout(3)
            listeners.append(listener)
        sender: socket.socket = net.socket(0, type=socket.SOCK_DGRAM)
        sender.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        for target in ("10.77.0.255", "255.255.255.255"):
            sender.sendto(target.encode(), (target, 7778))
            for listener in listeners:
                data, (address, _) = listener.recvfrom(100)
                assert (data, address) == (target.encode(), net.address(0))
        # An address outside the lab goes nowhere: dropped and counted, not delivered.
        sender.sendto(b"elsewhere", ("192.0.2.1", 7778))
        deadline = time.monotonic() + 2
        while net.stats().dropped_unroutable == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert net.stats().dropped_unroutable == 1
        for sock in (sender, *listeners):
            sock.close()


def test_closing_the_lab_kills_its_processes_and_deletes_its_namespaces() -> None:
    with lab(hosts=2) as net:
        sleeper = net.popen(1, ["sleep", "60"])
        names = list(net.names)
        assert all(os.path.exists(f"/var/run/netns/{name}") for name in names)
    assert sleeper.wait(timeout=5) != 0
    assert not any(os.path.exists(f"/var/run/netns/{name}") for name in names)


def test_the_command_line_refuses_bad_input_in_one_line() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "run", "--latency", "fast", "--on", "0", "true"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "'fast' is not a duration" in done.stderr
    assert "Traceback" not in done.stderr
