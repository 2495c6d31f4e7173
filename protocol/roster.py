"""The roster: who sits where at a table, signed by every seat.

A roster arrives from the host (or a save file) before anything else is known
to be honest, so every field is checked for type, size and range before it is
kept: names and addresses are short printable text, ports are ports, the game
options a flat map of plain values (they are hashed canonically, and passed to
the game as keyword arguments).

A table is one history: every seat puts a fresh nonce of its own into the roster,
and everything signed at the table is bound to the table's session id, a hash of
the roster's seats and keys with every seat's nonce (`Roster.session_id`). So nothing
signed at one table verifies at another, even one with the same host, the same
people and the same table id the host chose; no seat has to trust the others to
make its table new.
"""

from __future__ import annotations

import hashlib
import ipaddress
import re
from dataclasses import dataclass
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from p2pcards import games
from p2pcards.fingerprint import FINGERPRINT_BYTES, rules_fingerprint
from protocol.commitments import canonical
from protocol.errors import ProtocolError
from protocol.identity import certificate_key
from protocol.wire import WireError, field_of, int_field, text_field

MAX_NAME = 40
MAX_CERT = 4096
MAX_OPTIONS = 16
NONCE_BYTES = 16
MIN_SEATS, MAX_SEATS = 2, 16
_HOSTNAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$")
_GAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")
_OPTION = re.compile(r"^[a-z_][a-z0-9_]{0,31}$")


class TableSetupError(ProtocolError):
    """The table could not be formed (refused, wrong code, roster mismatch)."""


def check_host(host: str) -> str:
    """An address a peer can be reached at: an IP address or a host name (WireError)."""
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        pass
    if not _HOSTNAME.match(host):
        raise WireError(f"{host[:60]!r} is neither an IP address nor a host name")
    return host


def check_options(options: Any) -> dict[str, Any]:
    """Game options as a roster may carry them: a flat map of plain values (WireError)."""
    if not isinstance(options, dict) or len(options) > MAX_OPTIONS:
        raise WireError(f"game options must be a map of at most {MAX_OPTIONS} entries")
    for key, value in options.items():
        if not isinstance(key, str) or not _OPTION.match(key):
            raise WireError("a game option's name must be a short lowercase word")
        plain = value is None or isinstance(value, bool | str)
        if isinstance(value, int) and not isinstance(value, bool):
            plain = -(1 << 31) <= value < 1 << 31
        if not plain or (isinstance(value, str) and len(value) > 64):
            raise WireError(f"game option {key!r} must be a short plain value")
    return dict(options)


@dataclass
class Member:
    """A seat in the roster."""

    name: str
    identity: bytes
    seal: bytes
    host: str
    port: int
    cert: bytes  # its TLS certificate (DER), self-signed with its identity key
    # Fresh randomness of its own for this table (b"": a roster saved before seats gave one).
    nonce: bytes = b""

    def to_wire(self) -> dict[str, Any]:
        """As a map (a member of before the nonces, saved so, keeps its bytes)."""
        wire = {
            "name": self.name,
            "identity": self.identity,
            "seal": self.seal,
            "host": self.host,
            "port": self.port,
            "cert": self.cert,
        }
        return {**wire, "nonce": self.nonce} if self.nonce else wire

    @staticmethod
    def from_wire(data: Any) -> Member:
        """From a map, checked."""
        if not isinstance(data, dict):
            raise WireError("a roster member must be a map")
        cert = field_of(data, "cert", bytes)
        if len(cert) > MAX_CERT:
            raise WireError(f"a certificate of over {MAX_CERT} bytes")
        member = Member(
            text_field(data, "name", MAX_NAME),
            field_of(data, "identity", bytes, 32),
            field_of(data, "seal", bytes, 32),
            check_host(text_field(data, "host", 253)),
            int_field(data, "port", 1, 65535),
            cert,
            field_of(data, "nonce", bytes, NONCE_BYTES) if "nonce" in data else b"",
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
    rules: bytes = b""  # the host's engine for the game (p2pcards.fingerprint); b"": not given

    def to_wire(self) -> dict[str, Any]:
        """As a map (a roster of before the rules were named, saved so, keeps its bytes)."""
        wire = {
            "table": self.table_id,
            "game": self.game,
            "options": self.options,
            "members": [m.to_wire() for m in self.members],
        }
        return {**wire, "rules": self.rules} if self.rules else wire

    @staticmethod
    def from_wire(data: Any) -> Roster:
        """From a map, checked."""
        if not isinstance(data, dict):
            raise WireError("the roster must be a map")
        members = data.get("members")
        if not isinstance(members, list) or not MIN_SEATS <= len(members) <= MAX_SEATS:
            raise WireError(f"the roster must list {MIN_SEATS} to {MAX_SEATS} members")
        game = text_field(data, "game", 32)
        if not _GAME.match(game):
            raise WireError("the game's name must be a short lowercase word")
        roster = Roster(
            field_of(data, "table", bytes, 16),
            game,
            check_options(data.get("options")),
            [Member.from_wire(m) for m in members],
            field_of(data, "rules", bytes, FINGERPRINT_BYTES) if "rules" in data else b"",
        )
        if len({m.identity for m in roster.members}) != len(roster.members):
            raise WireError("the roster seats one identity twice")
        if len({bool(m.nonce) for m in roster.members}) != 1:
            raise WireError("the roster gives some seats a nonce and others none")
        return roster

    def digest(self) -> bytes:
        """What every seat signs."""
        return hashlib.sha256(canonical(["p2pcards/roster/1", self.to_wire()])).digest()

    @property
    def fresh(self) -> bool:
        """Whether every seat gave the roster a nonce of its own (every table formed since)."""
        return all(m.nonce for m in self.members)

    @property
    def session_id(self) -> bytes:
        """What every signature, commitment and sealed message at this table is bound to.

        A hash of the roster's seats, keys, game and every seat's fresh nonce: an honest
        seat's own nonce makes it new, whatever the others chose. A roster saved before seats
        gave nonces is read as it was signed then, bound to its host's table id alone
        (such a table is not formed any more: a joiner refuses a roster without its nonce).
        """
        if not self.fresh:
            return self.table_id
        # Who sits where, with which keys and nonces, playing what: not names or addresses,
        # which say how to reach a seat (a seat may come back from another address).
        seats = [[m.identity, m.seal, m.nonce] for m in self.members]
        bound = [self.table_id, self.game, self.options, self.rules, seats]
        return hashlib.sha256(canonical(["p2pcards/session/1", *bound])).digest()


def check_same_rules(roster: Roster) -> None:
    """TableSetupError unless we play the roster's game by the host's very rules: another
    engine would part ways with the table at the first move it judged otherwise, and name
    an honest seat a cheater for it."""
    if roster.game not in games.names():
        raise TableSetupError(f"the host plays {roster.game}, a game this p2pcards does not have")
    ours = rules_fingerprint(roster.game)
    if roster.rules != ours:
        theirs = roster.rules.hex()[:12] or "not given"
        raise TableSetupError(
            f"the host plays {roster.game} by other rules or cards than ours (its engine "
            f"{theirs}, ours {ours.hex()[:12]}): every seat needs the same p2pcards"
        )


def verify_signature(identity: bytes, signature: bytes, data: bytes, what: str) -> None:
    """Raise TableSetupError unless `signature` is `identity`'s over `data`."""
    try:
        Ed25519PublicKey.from_public_bytes(identity).verify(signature, data)
    except (InvalidSignature, ValueError):
        raise TableSetupError(f"bad {what}") from None
