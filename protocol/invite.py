"""Invite codes: where the table is, whose it is, and the secret that lets you sit down.

Format: ``HOST:PORT/FFFF-FFFF-FFFF-FFFF/SSSS-SSSS`` — the host's address, its identity
fingerprint (pinned: a joiner refuses any other key) and a one-table secret.
"""

from __future__ import annotations

import base64
import re
import secrets
from dataclasses import dataclass

# re.ASCII: without it \d and \s also match other scripts' digits and spaces, which int()
# and strip() accept ('٣' is 3).
_GROUPS = r"[A-Z2-7]{4}(?:-[A-Z2-7]{4})"
_PATTERN = re.compile(
    r"(?P<host>[A-Z0-9._-]{1,253}):(?P<port>[0-9]{1,5})"
    rf"/(?P<fp>{_GROUPS}{{3}})/(?P<secret>{_GROUPS})",
    re.ASCII,
)
FINGERPRINT = re.compile(rf"{_GROUPS}{{3}}", re.ASCII)  # as `identity.fingerprint` prints it
MAX_CODE = 300  # a code is at most 253 + 6 + 20 + 10 characters, and spaces around it


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
        shown = f"{code[:80]!r}{'…' if len(code) > 80 else ''}"
        # Checked before upper(): it turns some non-ASCII letters into ASCII ones ('ﬀ').
        if len(code) > MAX_CODE or not code.isascii():
            raise InviteError(f"{shown} is not an invite code: too long, or not plain ASCII")
        match = _PATTERN.fullmatch(code.strip().upper().replace("LOCALHOST", "127.0.0.1"))
        if not match:
            raise InviteError(
                f"{shown} is not an invite code; expected HOST:PORT/XXXX-XXXX-XXXX-XXXX/XXXX-XXXX"
            )
        port = int(match["port"])
        if not 0 < port < 65536:
            raise InviteError(f"port {port} is out of range")
        return Invite(match["host"].lower(), port, match["fp"], match["secret"])


def new_secret() -> str:
    """A fresh table secret: 8 base32 characters (40 bits), in two groups."""
    code = base64.b32encode(secrets.token_bytes(5)).decode()
    return f"{code[:4]}-{code[4:8]}"
