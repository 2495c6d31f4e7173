"""LAN discovery: small UDP beacons that an open table sends while it waits for players.

A beacon says which game, how many seats are free, the host's fingerprint and
the port to join on; never the table secret (the host hands out the invite
code). Beacons are untrusted input: size-capped, magic- and version-checked,
every field checked; anything else is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass

import msgpack

from protocol.invite import FINGERPRINT

MAGIC = b"P2PC"
VERSION = 1
MAX_BEACON = 512
GAME_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,31}", re.ASCII)  # as the game registry names them
MAX_NAME = 40  # characters of the host's name, as `tables` lists it
MAX_SEATS = 16  # as many as a roster holds


class BeaconError(ValueError):
    """A datagram that is not a valid beacon."""


@dataclass(frozen=True)
class Beacon:
    """One open table, as announced."""

    game: str
    seats: int
    free: int
    fingerprint: str
    port: int
    name: str

    def encode(self) -> bytes:
        """The datagram; the host's name is cut to what `decode` accepts."""
        name = "".join(c for c in self.name if c.isprintable())[:MAX_NAME]
        body = [VERSION, self.game, self.seats, self.free, self.fingerprint, self.port, name]
        data: bytes = MAGIC + msgpack.packb(body, use_bin_type=True)
        if len(data) > MAX_BEACON:
            raise ValueError("beacon too large")
        return data

    @staticmethod
    def decode(data: bytes) -> Beacon:
        """Parse a datagram; BeaconError for anything that is not a beacon of ours."""
        if len(data) > MAX_BEACON or not data.startswith(MAGIC):
            raise BeaconError("not a p2pcards beacon")
        try:
            body = msgpack.unpackb(
                data[len(MAGIC) :], raw=False, max_array_len=16, max_str_len=128, max_bin_len=0,
                max_map_len=0, max_ext_len=0,
            )  # fmt: skip
        except (ValueError, msgpack.UnpackException, msgpack.ExtraData) as exc:
            raise BeaconError(f"malformed beacon: {exc or type(exc).__name__}") from None
        if not isinstance(body, list) or len(body) != 7 or type(body[0]) is not int:
            raise BeaconError("not a p2pcards beacon")
        if body[0] != VERSION:
            raise BeaconError("beacon of another version")
        _, game, seats, free, fingerprint, port, name = body
        if not isinstance(game, str) or not GAME_NAME.fullmatch(game):
            raise BeaconError("beacon with a malformed game name")
        if not isinstance(fingerprint, str) or not FINGERPRINT.fullmatch(fingerprint):
            raise BeaconError("beacon with a malformed fingerprint")
        if not isinstance(name, str) or len(name) > MAX_NAME or not name.isprintable():
            raise BeaconError(f"beacon with a host name that is not printable text of {MAX_NAME}")
        seats, free, port = _int(seats), _int(free), _int(port)
        # The host holds seat 0, so at least one seat is taken.
        if not (2 <= seats <= MAX_SEATS and 0 <= free < seats and 0 < port < 65536):
            raise BeaconError("beacon fields out of range")
        return Beacon(game, seats, free, fingerprint, port, name)


def _int(value: object) -> int:
    """`value` if it is an int (not a bool); BeaconError otherwise."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise BeaconError("beacon with a field that is not a whole number")
    return value


def parse_target(text: str) -> tuple[str, int]:
    """ADDR:PORT for beacons; ValueError says what is wrong."""
    host, _, port = text.rpartition(":")
    # ASCII digits only: isdigit() also passes '٣' (which int() reads) and '²' (which not).
    if not host or not re.fullmatch(r"[0-9]{1,5}", port) or not 0 < int(port) < 65536:
        raise ValueError(f"{text!r} is not ADDR:PORT")
    return host, int(port)


async def announce(
    beacon: Callable[[], Beacon], target: tuple[str, int], every: float = 1.5
) -> None:
    """Send the current `beacon()` to `target` every `every` seconds until cancelled."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
    sock.setblocking(False)
    try:
        while True:
            with contextlib.suppress(OSError):
                sock.sendto(beacon().encode(), target)
            await asyncio.sleep(every)
    finally:
        sock.close()


def listen(address: tuple[str, int], seconds: float) -> dict[tuple[str, int], Beacon]:
    """Beacons heard on `address` for `seconds`, by (sender, table port); the latest wins."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(address)
    deadline = time.monotonic() + seconds
    heard: dict[tuple[str, int], Beacon] = {}
    try:
        while (left := deadline - time.monotonic()) > 0:
            sock.settimeout(left)
            try:
                data, sender = sock.recvfrom(MAX_BEACON + 1)
            except TimeoutError:
                break
            with contextlib.suppress(BeaconError):
                beacon = Beacon.decode(data)
                heard[(sender[0], beacon.port)] = beacon
    finally:
        sock.close()
    return heard
