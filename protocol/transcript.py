"""Signed, numbered, chained envelopes: who said what, in which order, provably.

Each seat signs every message with its Ed25519 identity key over the table id,
its seat, its sequence number, the hash of its previous envelope and the body.
The body travels as the very bytes that were signed (msgpack), so a receiver
checks the signature before it decodes anything, and nothing is re-encoded to
be checked: no canonical form to rebuild, no recursion over what a peer sent.

A receiver accepts from each seat only the next number chained to the last one
it accepted, so a forged, altered, replayed or reordered message is refused and
the seat it claims to come from is named. It keeps every seat's chain of hashes,
so that it can say what it holds (acknowledgements) and compare what others
say they hold: two different messages signed under one number are proof that
their signer told different seats different things.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import msgpack
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from protocol.errors import LocalProtocolError, RemoteProtocolError
from protocol.wire import PEER, WireError, decode_payload, encode_frame, field_of, int_field

GENESIS = b"\x00" * 32
DOMAIN = b"p2pcards/envelope/2\x00"
MAX_SEATS = 16
MAX_SEQ = (1 << 63) - 1
_NUMBERS = struct.Struct(">HQ")


@dataclass(frozen=True)
class Envelope:
    """One signed message as it travels: `body` is the signed msgpack of a map."""

    seat: int
    seq: int
    prev: bytes
    body: bytes
    signature: bytes

    def signed_bytes(self, table_id: bytes) -> bytes:
        """What the signature covers: fixed-width fields, then the body's bytes."""
        return DOMAIN + table_id + _NUMBERS.pack(self.seat, self.seq) + self.prev + self.body

    def digest(self, table_id: bytes) -> bytes:
        """The hash the seat's next envelope chains to."""
        return hashlib.sha256(self.signed_bytes(table_id) + self.signature).digest()

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

    @cached_property
    def frame(self) -> bytes:
        """The envelope as one frame, encoded once however many links it goes on."""
        return encode_frame(self.to_wire())

    @cached_property
    def packed(self) -> bytes:
        """The envelope as msgpack bytes (without the frame's length): how evidence carries it."""
        return self.frame[4:]

    @staticmethod
    def unpack(data: bytes) -> Envelope:
        """An envelope from `packed` bytes (evidence another seat passed on); WireError."""
        message = decode_payload(data, PEER)
        if not isinstance(message, dict):
            raise WireError("evidence must be a signed message")
        return Envelope.from_wire(message)

    @cached_property
    def message(self) -> dict[str, Any]:
        """The body decoded within the peer limits: a map with a text `kind` (WireError)."""
        value = decode_payload(self.body, PEER)
        if not isinstance(value, dict) or not isinstance(value.get("kind"), str):
            raise WireError("a message body must be a map with a kind", self.seat)
        return value

    @staticmethod
    def from_wire(message: dict[str, Any]) -> Envelope:
        """A wire message as an envelope, every field checked (WireError otherwise)."""
        return Envelope(
            int_field(message, "seat", 0, MAX_SEATS - 1),
            int_field(message, "seq", 0, MAX_SEQ),
            field_of(message, "prev", bytes, 32),
            field_of(message, "body", bytes),
            field_of(message, "sig", bytes, 64),
        )


def pack_body(body: dict[str, Any]) -> bytes:
    """The bytes of a message body as we sign and send it."""
    packed: bytes = msgpack.packb(body, use_bin_type=True)
    return packed


class BrokenChain(RemoteProtocolError):
    """A validly signed message whose `prev` is not the hash of the message we hold before it."""


class Sender:
    """Signs and numbers one seat's outgoing messages.

    Without a key it can only replay: `expect` gives it the seat's saved envelopes,
    and each message made again must be the very body saved under its number.
    That is how a save file is re-checked without the signing key of its seat.
    """

    def __init__(self, table_id: bytes, seat: int, key: Ed25519PrivateKey | None) -> None:
        self.table_id = table_id
        self.seat = seat
        self._key = key
        self._seq = 0
        self._prev = GENESIS
        self._expected: list[Envelope] = []

    def expect(self, envelopes: list[Envelope]) -> None:
        """Replay: the next messages must come out as these (saved) envelopes."""
        self._expected = list(reversed(envelopes))

    @property
    def replaying(self) -> int:
        """How many saved envelopes are still to be made again."""
        return len(self._expected)

    def wrap(self, body: dict[str, Any]) -> Envelope:
        """The next envelope carrying `body`."""
        packed = pack_body(body)
        if self._expected:
            envelope = self._expected.pop()
            if (envelope.seq, envelope.prev, envelope.body) != (self._seq, self._prev, packed):
                raise ReplayMismatch(
                    f"message {self._seq} of seat {self.seat} comes out differently on replay"
                )
        elif self._key is None:
            raise ReplayMismatch(f"seat {self.seat} says more than its saved messages")
        else:
            unsigned = Envelope(self.seat, self._seq, self._prev, packed, b"")
            signature = self._key.sign(unsigned.signed_bytes(self.table_id))
            envelope = Envelope(self.seat, self._seq, self._prev, packed, signature)
        self._seq += 1
        self._prev = envelope.digest(self.table_id)
        return envelope


class ReplayMismatch(LocalProtocolError):
    """A replayed seat did not say again what its save file says it said."""


class Receiver:
    """Checks incoming envelopes against the roster's keys and keeps each seat's chain."""

    def __init__(self, table_id: bytes, keys: list[Ed25519PublicKey]) -> None:
        self.table_id = table_id
        self.keys = keys
        # chains[s][n]: the hash of seat s's envelope n-1 (chains[s][0] is the genesis),
        # i.e. what an envelope numbered n must chain to.
        self._chains: list[list[bytes]] = [[GENESIS] for _ in keys]

    def next_seq(self, seat: int) -> int:
        """The sequence number we expect next from `seat` (how many of its messages we hold)."""
        return len(self._chains[seat]) - 1

    def chain_hash(self, seat: int, count: int) -> bytes:
        """The hash of `seat`'s chain after its first `count` envelopes (we must hold them)."""
        return self._chains[seat][count]

    def verify(self, envelope: Envelope) -> bytes:
        """Check the signature alone (also for evidence that does not extend a chain);
        the envelope's chain hash."""
        seat = envelope.seat
        if not 0 <= seat < len(self.keys):
            raise RemoteProtocolError(None, f"envelope from unknown seat {seat}")
        signed = envelope.signed_bytes(self.table_id)
        try:
            self.keys[seat].verify(envelope.signature, signed)
        except InvalidSignature:
            raise RemoteProtocolError(seat, "bad signature: forged or altered message") from None
        return hashlib.sha256(signed + envelope.signature).digest()

    def accept(self, envelope: Envelope) -> dict[str, Any]:
        """The decoded body of a valid envelope; RemoteProtocolError naming the seat otherwise.

        The number first (cheap), then the signature, then the chain, then the body is
        decoded: nothing of a message is read before its signer is known, and a message
        that does not chain (`BrokenChain`) is known to be signed, so it proves that its
        seat signed two different histories.
        """
        seat = envelope.seat
        if not 0 <= seat < len(self.keys):
            raise RemoteProtocolError(None, f"envelope from unknown seat {seat}")
        chain = self._chains[seat]
        expected = len(chain) - 1
        if envelope.seq < expected:
            raise RemoteProtocolError(seat, f"replayed message number {envelope.seq}")
        if envelope.seq > expected:
            raise RemoteProtocolError(seat, f"message {envelope.seq} arrived before {expected}")
        digest = self.verify(envelope)
        if envelope.prev != chain[-1]:
            raise BrokenChain(seat, "message does not chain to its previous one")
        message = envelope.message
        chain.append(digest)
        return message

    def accept_own(self, envelope: Envelope) -> None:
        """Extend our own chain with an envelope we just signed (no need to verify it)."""
        self._chains[envelope.seat].append(envelope.digest(self.table_id))
