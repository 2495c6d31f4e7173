"""Hash commitments bound to a table, a seat and a step, and the canonical bytes they hash."""

import hashlib
import hmac
from typing import Any

import msgpack


def canonical(value: Any) -> bytes:
    """msgpack with map keys sorted, so equal values always pack to equal bytes."""
    packed: bytes = msgpack.packb(_sorted(value), use_bin_type=True)
    return packed


def _sorted(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _sorted(value[k]) for k in sorted(value)}
    if isinstance(value, list | tuple):
        return [_sorted(v) for v in value]
    return value


def commitment(table_id: bytes, seat: int, step: int, secret: Any) -> bytes:
    """SHA-256 over the domain, table, seat, step and the secret (which carries its own nonce)."""
    return hashlib.sha256(canonical(["p2pcards/commit/1", table_id, seat, step, secret])).digest()


def opens(digest: bytes, table_id: bytes, seat: int, step: int, secret: Any) -> bool:
    """Whether `secret` is what was committed to."""
    return hmac.compare_digest(digest, commitment(table_id, seat, step, secret))
