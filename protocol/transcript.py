"""Signed, numbered, chained envelopes: who said what, in which order, provably.

Each seat signs every message with its Ed25519 identity key over the table id,
its seat, its sequence number, the hash of its previous envelope and the body.
A receiver accepts from each seat only the next number chained to the last one
it accepted, so a forged, altered, replayed or reordered message is refused and
the seat it claims to come from is named.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from protocol.commitments import canonical
from protocol.errors import RemoteProtocolError
from protocol.wire import field_of

GENESIS = b"\x00" * 32


@dataclass(frozen=True, slots=True)
class Envelope:
    """One signed message as it travels."""

    seat: int
    seq: int
    prev: bytes
    body: dict[str, Any]
    signature: bytes

    def signed_bytes(self, table_id: bytes) -> bytes:
        """What the signature covers."""
        return canonical(
            ["p2pcards/envelope/1", table_id, self.seat, self.seq, self.prev, self.body]
        )

    def to_wire(self) -> dict[str, Any]:
        """The envelope as a wire message (and a save-file frame)."""
        return {
            "kind": "env",
            "seat": self.seat,
            "seq": self.seq,
            "prev": self.prev,
            "body": self.body,
            "sig": self.signature,
        }

    @staticmethod
    def from_wire(message: dict[str, Any]) -> Envelope:
        """A wire message as an envelope, every field checked (WireError otherwise)."""
        return Envelope(
            field_of(message, "seat", int),
            field_of(message, "seq", int),
            field_of(message, "prev", bytes, 32),
            field_of(message, "body", dict),
            field_of(message, "sig", bytes, 64),
        )

    def digest(self, table_id: bytes) -> bytes:
        """The hash the seat's next envelope chains to."""
        return hashlib.sha256(self.signed_bytes(table_id) + self.signature).digest()


class Sender:
    """Signs and numbers one seat's outgoing messages."""

    def __init__(self, table_id: bytes, seat: int, key: Ed25519PrivateKey) -> None:
        self.table_id = table_id
        self.seat = seat
        self._key = key
        self._seq = 0
        self._prev = GENESIS

    def wrap(self, body: dict[str, Any]) -> Envelope:
        """The next envelope carrying `body`."""
        unsigned = Envelope(self.seat, self._seq, self._prev, body, b"")
        envelope = Envelope(
            self.seat,
            self._seq,
            self._prev,
            body,
            self._key.sign(unsigned.signed_bytes(self.table_id)),
        )
        self._seq += 1
        self._prev = envelope.digest(self.table_id)
        return envelope


class Receiver:
    """Checks incoming envelopes against the roster's keys and each seat's chain."""

    def __init__(self, table_id: bytes, keys: list[Ed25519PublicKey]) -> None:
        self.table_id = table_id
        self.keys = keys
        self._next = [0] * len(keys)
        self._prev = [GENESIS] * len(keys)

    def next_seq(self, seat: int) -> int:
        """The sequence number we expect next from `seat` (how many of its messages we hold)."""
        return self._next[seat]

    def accept(self, envelope: Envelope) -> dict[str, Any]:
        """The body of a valid envelope; RemoteProtocolError naming the seat otherwise."""
        seat = envelope.seat
        if not 0 <= seat < len(self.keys):
            raise RemoteProtocolError(None, f"envelope from unknown seat {seat}")
        try:
            self.keys[seat].verify(envelope.signature, envelope.signed_bytes(self.table_id))
        except InvalidSignature:
            raise RemoteProtocolError(seat, "bad signature: forged or altered message") from None
        if envelope.seq < self._next[seat]:
            raise RemoteProtocolError(seat, f"replayed message number {envelope.seq}")
        if envelope.seq > self._next[seat]:
            raise RemoteProtocolError(
                seat, f"message {envelope.seq} arrived before {self._next[seat]}"
            )
        if envelope.prev != self._prev[seat]:
            raise RemoteProtocolError(seat, "message does not chain to its previous one")
        self._next[seat] += 1
        self._prev[seat] = envelope.digest(self.table_id)
        return envelope.body
