"""Frames on the wire: a 4-byte big-endian length, then one msgpack object.

Sans-I/O: `FrameDecoder.feed()` takes whatever bytes arrived and returns the
complete objects; it refuses a length over the limit before reading the body,
and unpacks with explicit limits so a hostile peer cannot make us allocate
much. Any violation is a `WireError`: the connection it came on is closed.
"""

from __future__ import annotations

import struct
from typing import Any

import msgpack

from protocol.errors import RemoteProtocolError

MAX_FRAME = 1 << 20  # the largest message we send is a disclosure, a few tens of KiB
_LENGTH = struct.Struct(">I")


class WireError(RemoteProtocolError):
    """Bytes from a peer that are not a valid frame."""

    def __init__(self, reason: str) -> None:
        super().__init__(None, reason)


def encode_frame(message: Any) -> bytes:
    """One frame carrying `message`."""
    payload: bytes = msgpack.packb(message, use_bin_type=True)
    if len(payload) > MAX_FRAME:
        raise ValueError(f"message of {len(payload)} bytes is over the {MAX_FRAME}-byte limit")
    return _LENGTH.pack(len(payload)) + payload


def decode_payload(payload: bytes) -> Any:
    """Unpack one frame's payload with limits on every container and string."""
    try:
        return msgpack.unpackb(
            payload,
            raw=False,
            strict_map_key=True,
            use_list=True,
            max_str_len=4096,
            max_bin_len=MAX_FRAME,
            max_array_len=8192,
            max_map_len=64,
            max_ext_len=0,
        )
    except (ValueError, TypeError, msgpack.UnpackException, msgpack.ExtraData) as exc:
        raise WireError(f"malformed msgpack: {exc or type(exc).__name__}") from None


class FrameDecoder:
    """Turns a byte stream into messages, one frame at a time."""

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self.max_frame = max_frame
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[Any]:
        """Every message completed by `data`."""
        self._buffer += data
        messages = []
        while len(self._buffer) >= _LENGTH.size:
            (length,) = _LENGTH.unpack_from(self._buffer)
            if length > self.max_frame:
                raise WireError(f"frame of {length} bytes is over the {self.max_frame}-byte limit")
            if len(self._buffer) < _LENGTH.size + length:
                break
            payload = bytes(self._buffer[_LENGTH.size : _LENGTH.size + length])
            del self._buffer[: _LENGTH.size + length]
            messages.append(decode_payload(payload))
        return messages

    def pending(self) -> int:
        """Bytes received that do not yet make a whole frame (a truncated frame at EOF)."""
        return len(self._buffer)


def field_of(message: dict[str, Any], name: str, kind: type, size: int | None = None) -> Any:
    """message[name], checked to be a `kind` (of `size` bytes); WireError otherwise."""
    value = message.get(name)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise WireError(f"field {name!r} missing or of the wrong type")
    if size is not None and isinstance(value, bytes | str) and len(value) != size:
        raise WireError(f"field {name!r} must be {size} bytes")
    return value
