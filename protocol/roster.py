"""The roster: who sits where at a table, signed by every seat."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from protocol.commitments import canonical
from protocol.errors import ProtocolError
from protocol.identity import certificate_key
from protocol.wire import WireError, field_of


class TableSetupError(ProtocolError):
    """The table could not be formed (refused, wrong code, roster mismatch)."""


@dataclass
class Member:
    """A seat in the roster."""

    name: str
    identity: bytes
    seal: bytes
    host: str
    port: int
    cert: bytes  # its TLS certificate (DER), self-signed with its identity key

    def to_wire(self) -> dict[str, Any]:
        """As a map."""
        return {
            "name": self.name,
            "identity": self.identity,
            "seal": self.seal,
            "host": self.host,
            "port": self.port,
            "cert": self.cert,
        }

    @staticmethod
    def from_wire(data: Any) -> Member:
        """From a map, checked."""
        if not isinstance(data, dict):
            raise WireError("a roster member must be a map")
        member = Member(
            field_of(data, "name", str),
            field_of(data, "identity", bytes, 32),
            field_of(data, "seal", bytes, 32),
            field_of(data, "host", str),
            field_of(data, "port", int),
            field_of(data, "cert", bytes),
        )
        if certificate_key(member.cert) != member.identity:
            raise WireError(f"{member.name!r}'s certificate does not carry its identity key")
        return member


@dataclass
class Roster:
    """Who sits where, and what game they play."""

    table_id: bytes
    game: str
    options: dict[str, Any]
    members: list[Member]

    def to_wire(self) -> dict[str, Any]:
        """As a map."""
        return {
            "table": self.table_id,
            "game": self.game,
            "options": self.options,
            "members": [m.to_wire() for m in self.members],
        }

    @staticmethod
    def from_wire(data: Any) -> Roster:
        """From a map, checked."""
        if not isinstance(data, dict):
            raise WireError("the roster must be a map")
        members = data.get("members")
        if not isinstance(members, list) or not 2 <= len(members) <= 16:
            raise WireError("the roster must list 2 to 16 members")
        options = field_of(data, "options", dict)
        return Roster(
            field_of(data, "table", bytes, 16),
            field_of(data, "game", str),
            options,
            [Member.from_wire(m) for m in members],
        )

    def digest(self) -> bytes:
        """What every seat signs."""
        return hashlib.sha256(canonical(["p2pcards/roster/1", self.to_wire()])).digest()


def verify_signature(identity: bytes, signature: bytes, data: bytes, what: str) -> None:
    """Raise TableSetupError unless `signature` is `identity`'s over `data`."""
    try:
        Ed25519PublicKey.from_public_bytes(identity).verify(signature, data)
    except (InvalidSignature, ValueError):
        raise TableSetupError(f"bad {what}") from None
