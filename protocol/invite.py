"""Invite codes: where the table is, whose it is, and the secret that lets you sit down.

Format: ``HOST:PORT/FFFF-FFFF-FFFF-FFFF/SSSS-SSSS`` — the host's address, its identity
fingerprint (pinned: a joiner refuses any other key) and a one-table secret.
"""

from __future__ import annotations

import base64
import re
import secrets
from dataclasses import dataclass

_GROUPS = r"[A-Z2-7]{4}(?:-[A-Z2-7]{4})"
_PATTERN = re.compile(
    rf"^(?P<host>[^/\s:]+):(?P<port>\d{{1,5}})/(?P<fp>{_GROUPS}{{3}})/(?P<secret>{_GROUPS})$"
)


class InviteError(ValueError):
    """A malformed invite code."""


@dataclass(frozen=True)
class Invite:
    """A parsed invite code."""

    host: str
    port: int
    fingerprint: str
    secret: str

    def __str__(self) -> str:
        return f"{self.host}:{self.port}/{self.fingerprint}/{self.secret}"

    @staticmethod
    def parse(code: str) -> Invite:
        """Parse a code as printed by `p2pcards host`; InviteError says what is wrong."""
        match = _PATTERN.match(code.strip().upper().replace("LOCALHOST", "127.0.0.1"))
        if not match:
            raise InviteError(
                f"{code!r} is not an invite code; expected HOST:PORT/XXXX-XXXX-XXXX-XXXX/XXXX-XXXX"
            )
        port = int(match["port"])
        if not 0 < port < 65536:
            raise InviteError(f"port {port} is out of range")
        return Invite(match["host"].lower(), port, match["fp"], match["secret"])


def new_secret() -> str:
    """A fresh table secret: 8 base32 characters (40 bits), in two groups."""
    code = base64.b32encode(secrets.token_bytes(5)).decode()
    return f"{code[:4]}-{code[4:8]}"
