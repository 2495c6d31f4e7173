"""Who may open a connection that has proved nothing yet: counts, rates, eviction, log lines.

Sans-I/O: the network edge (`net.py`) asks `arrive()` with the address, a handle for
the connection and the time, and closes what it is told to. A host listens all game
long, on a LAN where anyone can connect, and each TLS handshake it starts costs it
about half a millisecond of CPU; so before any handshake:

- a connection that has proved nothing (the invite secret, or its roster seat) counts
  against its address and against the total; when either is full, the *oldest* such
  connection is closed to make room, not the newcomer: idle connections cannot lock a
  real player out (a player completes its handshake and JOIN in a few round trips,
  while a flooder's connections sit there), and a flooder's own connections go first;
- new connections from an address come at most `rate` a second (a burst of `burst`);
  once the roster is signed, an address no seat has is held to that, while the seats'
  own addresses (a seat coming back) are not: a flood then costs the host no
  cryptography at all;
- a refusal is logged at most once per address every `quiet` seconds, with the count
  of those not logged, so a flood cannot flood the terminal of the person hosting.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Generic, TypeVar

H = TypeVar("H")

MAX_ADDRESSES = 4096  # addresses whose rate and log lines are remembered


@dataclass
class _Address:
    tokens: float
    seen: float  # when the bucket was last filled up to date
    open: int = 0
    refused_quietly: int = 0
    logged: float = float("-inf")


class StrangerGate(Generic[H]):
    """Admission of connections that have not proved anything yet."""

    def __init__(
        self, total: int = 64, per_address: int = 16, rate: float = 4.0, burst: float = 8.0,
        quiet: float = 10.0,
    ) -> None:  # fmt: skip
        self.total = total
        self.per_address = per_address
        self.rate = rate
        self.burst = burst
        self.quiet = quiet
        self._open: OrderedDict[H, str] = OrderedDict()  # oldest first
        self._addresses: OrderedDict[str, _Address] = OrderedDict()
        self.refused = 0
        self.evicted = 0

    def arrive(self, address: str, handle: H, now: float, known: bool) -> tuple[bool, list[H]]:
        """Whether to take this connection, and which older ones to close to make room.

        `known`: the address of a seat at the table (after the roster), not rate-limited.
        """
        entry = self._entry(address, now)
        if not known:
            entry.tokens = min(self.burst, entry.tokens + (now - entry.seen) * self.rate)
            entry.seen = now
            if entry.tokens < 1:
                self.refused += 1
                return False, []
            entry.tokens -= 1
        evict: list[H] = []
        if entry.open >= self.per_address:
            evict.append(next(h for h, a in self._open.items() if a == address))
        elif len(self._open) >= self.total:
            evict.append(next(iter(self._open)))
        for handle_out in evict:
            self.leave(handle_out)
            self.evicted += 1
        self._open[handle] = address
        entry.open += 1
        return True, evict

    def leave(self, handle: H) -> None:
        """The connection proved itself or closed: it no longer counts."""
        address = self._open.pop(handle, None)
        if address is not None and address in self._addresses:
            self._addresses[address].open -= 1

    def log_now(self, address: str, now: float) -> int | None:
        """Whether to log a refusal from `address` now: the count not logged since the
        last line (0 or more), or None to stay quiet."""
        entry = self._entry(address, now)
        if now - entry.logged < self.quiet:
            entry.refused_quietly += 1
            return None
        entry.logged = now
        quiet, entry.refused_quietly = entry.refused_quietly, 0
        return quiet

    @property
    def waiting(self) -> int:
        """Connections that have not proved anything yet."""
        return len(self._open)

    def _entry(self, address: str, now: float) -> _Address:
        entry = self._addresses.get(address)
        if entry is None:
            entry = self._addresses[address] = _Address(self.burst, now)
            while len(self._addresses) > MAX_ADDRESSES:
                # The least recently seen address without a connection open (at most
                # `total` have one, so one is found among the first total + 1).
                stale = next(a for a, e in self._addresses.items() if not e.open)
                del self._addresses[stale]
        else:
            self._addresses.move_to_end(address)
        return entry
