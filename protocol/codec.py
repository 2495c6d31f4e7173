"""Mental-poker messages to and from plain maps (for msgpack), with every field checked."""

from __future__ import annotations

import dataclasses
from typing import Any

from protocol.errors import RemoteProtocolError
from protocol.mental import (
    Announcement,
    BeaconReveal,
    Body,
    Commit,
    KeyShare,
    MaskedPile,
    SealedKey,
    SecretsReveal,
)

KINDS: dict[str, type[Body]] = {
    "commit": Commit,
    "masked-pile": MaskedPile,
    "key": KeyShare,
    "sealed-key": SealedKey,
    "beacon-reveal": BeaconReveal,
    "secrets": SecretsReveal,
    "announce": Announcement,
}
_NAMES = {cls: name for name, cls in KINDS.items()}
MAX_PILE = 4096


def encode(body: Body) -> dict[str, Any]:
    """The map form of a message: its kind plus its fields."""
    out: dict[str, Any] = {"kind": _NAMES[type(body)]}
    for f in dataclasses.fields(body):
        out[f.name] = getattr(body, f.name)
    return out


def _bytes(value: Any, size: int | None = None) -> bytes:
    if not isinstance(value, bytes) or (size is not None and len(value) != size):
        raise ValueError(f"expected {size or 'some'} bytes")
    return value


def _int(value: Any, low: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise ValueError("expected a non-negative integer")
    return value


def _seq(value: Any, limit: int = MAX_PILE) -> list[Any]:
    if not isinstance(value, list | tuple) or len(value) > limit:
        raise ValueError("expected a list")
    return list(value)


def decode(data: Any, sender: int | None = None) -> Body:
    """Parse a message map; a malformed one is the sender's fault."""
    try:
        if not isinstance(data, dict):
            raise ValueError("a message must be a map")
        kind = data.get("kind")
        if kind not in KINDS:
            raise ValueError(f"unknown message kind {kind!r}")
        step = _int(data.get("step"))
        if kind == "commit":
            return Commit(step, _bytes(data.get("digest"), 32))
        if kind == "masked-pile":
            phase = _int(data.get("phase"), 1)
            if phase > 2:
                raise ValueError("phase must be 1 or 2")
            return MaskedPile(step, phase, tuple(_bytes(p, 32) for p in _seq(data.get("cards"))))
        if kind == "key":
            return KeyShare(step, _int(data.get("card")), _bytes(data.get("key"), 32))
        if kind == "sealed-key":
            return SealedKey(
                step,
                _int(data.get("card")),
                _int(data.get("reader")),
                _bytes(data.get("sealed"), 48),
            )
        if kind == "announce":
            payload = data.get("payload")
            if not isinstance(payload, dict):
                raise ValueError("an announcement's payload must be a map")
            return Announcement(step, payload)
        if kind == "beacon-reveal":
            return BeaconReveal(step, _bytes(data.get("value"), 32))
        shuffles = tuple(
            (
                _int(s[0]),
                _bytes(s[1], 32),
                tuple(_int(i) for i in _seq(s[2])),
                tuple(_bytes(m, 32) for m in _seq(s[3])),
                _bytes(s[4]),
                tuple(_bytes(p, 32) for p in _seq(s[5])),
            )
            for s in (_seq(x, 6) for x in _seq(data.get("shuffles")))
        )
        beacons = tuple(
            (_int(b[0]), _bytes(b[1], 32)) for b in (_seq(x, 2) for x in _seq(data.get("beacons")))
        )
        return SecretsReveal(step, _bytes(data.get("encryption_key"), 32), shuffles, beacons)
    except (ValueError, IndexError, TypeError) as exc:
        raise RemoteProtocolError(sender, f"malformed message: {exc}") from None
