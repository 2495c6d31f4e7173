"""Mental-poker messages to and from plain maps (for msgpack), with every field checked.

Decoding checks each field's type, size and range before a message object is
made: whatever the sender put in a map, what comes out is a well-formed
message (whether it is *right* is the mental peer's and the audit's business).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, TypeVar

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
MAX_PILE = 4096  # cards in one shuffled pile
MAX_STEP = (1 << 31) - 1  # operations in one game
MAX_SEATS = 16
MAX_SHUFFLES = 1024  # shuffles one seat took part in (a disclosure)
MAX_BEACONS = 8192

T = TypeVar("T")


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


def _int(value: Any, low: int = 0, high: int = MAX_STEP) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ValueError(f"expected an integer in {low}..{high}")
    return value


def _seq(value: Any, limit: int, each: Callable[[Any], T]) -> tuple[T, ...]:
    if not isinstance(value, list | tuple) or len(value) > limit:
        raise ValueError(f"expected a list of at most {limit} items")
    return tuple(each(v) for v in value)


def _point(value: Any) -> bytes:
    return _bytes(value, 32)


def _position(value: Any) -> int:
    return _int(value, 0, MAX_PILE - 1)


def _shuffle_secrets(
    value: Any,
) -> tuple[int, bytes, tuple[int, ...], tuple[bytes, ...], bytes, tuple[bytes, ...]]:
    if not isinstance(value, list | tuple) or len(value) != 6:
        raise ValueError("a shuffle's secrets are six fields")
    step, pile_mask, permutation, card_masks, nonce, deck = value
    return (
        _int(step),
        _point(pile_mask),
        _seq(permutation, MAX_PILE, _position),
        _seq(card_masks, MAX_PILE, _point),
        _bytes(nonce, 16),
        _seq(deck, MAX_PILE, _point),
    )


def _beacon_secret(value: Any) -> tuple[int, bytes]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ValueError("a beacon's secret is a step and a value")
    return _int(value[0]), _bytes(value[1], 32)


def decode(data: Any, sender: int | None = None) -> Body:
    """Parse a message map; a malformed one is the sender's fault."""
    try:
        if not isinstance(data, dict):
            raise ValueError("a message must be a map")
        kind = data.get("kind")
        if not isinstance(kind, str) or kind not in KINDS:
            raise ValueError(f"unknown message kind {str(kind)[:40]!r}")
        step = _int(data.get("step"))
        if kind == "commit":
            return Commit(step, _bytes(data.get("digest"), 32))
        if kind == "masked-pile":
            phase = _int(data.get("phase"), 1, 2)
            return MaskedPile(step, phase, _seq(data.get("cards"), MAX_PILE, _point))
        if kind == "key":
            return KeyShare(step, _int(data.get("card")), _bytes(data.get("key"), 32))
        if kind == "sealed-key":
            return SealedKey(
                step,
                _int(data.get("card")),
                _int(data.get("reader"), 0, MAX_SEATS - 1),
                _bytes(data.get("sealed"), 48),
            )
        if kind == "announce":
            payload = data.get("payload")
            if not isinstance(payload, dict):
                raise ValueError("an announcement's payload must be a map")
            return Announcement(step, payload)
        if kind == "beacon-reveal":
            return BeaconReveal(step, _bytes(data.get("value"), 32))
        return SecretsReveal(
            step,
            _bytes(data.get("encryption_key"), 32),
            _seq(data.get("shuffles"), MAX_SHUFFLES, _shuffle_secrets),
            _seq(data.get("beacons"), MAX_BEACONS, _beacon_secret),
        )
    except ValueError as exc:
        raise RemoteProtocolError(sender, f"malformed message: {exc}") from None
