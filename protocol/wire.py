"""Frames on the wire: a 4-byte big-endian length, then one msgpack object.

Sans-I/O: `FrameDecoder.feed()` takes whatever bytes arrived and returns the
complete objects. Everything a hostile sender controls is bounded *while*
decoding, before any of it is hashed, stored or acted on:

- a length over the limit is refused from the 4-byte header, before the body
  is read, so a connection never buffers more than one frame;
- msgpack unpacks with explicit limits on every string, binary, array and map;
- a budget of containers per frame: a 1 MiB frame of nested empty arrays would
  otherwise cost a quarter of a second to build (measured), so the count is kept
  by the unpacker's hooks and decoding stops the moment it is spent;
- the result is walked once, without recursion, for depth, map keys (text only:
  a map with both text and bytes keys cannot be sorted, so no canonical form)
  and floats (none of our messages has one, and canonical bytes forbid them).

Two sets of limits: a stranger (a connection that has not yet proved the invite
secret or its roster seat) gets small frames; a seated peer gets room for a
shuffled deck or a disclosure. Any violation is a `WireError`: the connection it
came on is closed.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any

import msgpack

from protocol.errors import RemoteProtocolError

_LENGTH = struct.Struct(">I")


@dataclass(frozen=True, slots=True)
class Limits:
    """How much one frame may hold."""

    frame: int  # bytes in one frame
    string: int  # bytes in one text string
    binary: int  # bytes in one binary string
    array: int  # items in one array
    map: int  # entries in one map
    containers: int  # arrays and maps in one frame, all levels together
    depth: int  # nesting of arrays and maps


# The largest message we send is a disclosure: every shuffle's secrets (tens of KiB) and
# one small list per beacon drawn (a long GETGEM game draws hundreds).
PEER = Limits(
    frame=1 << 20, string=4096, binary=1 << 20, array=8192, map=64, containers=16384, depth=8
)
# Before the invite secret or a roster seat is proved: a JOIN (with its certificate) or
# a HELLO, a few hundred bytes each.
STRANGER = Limits(frame=16 << 10, string=512, binary=4096, array=16, map=16, containers=16, depth=4)
MAX_FRAME = PEER.frame


class WireError(RemoteProtocolError):
    """Bytes from a peer that are not a valid frame."""

    def __init__(self, reason: str, seat: int | None = None) -> None:
        super().__init__(seat, reason)


def encode_frame(message: Any) -> bytes:
    """One frame carrying `message`."""
    payload: bytes = msgpack.packb(message, use_bin_type=True)
    if len(payload) > MAX_FRAME:
        raise ValueError(f"message of {len(payload)} bytes is over the {MAX_FRAME}-byte limit")
    return _LENGTH.pack(len(payload)) + payload


class _Budget(Exception):
    """Raised inside the unpacker's hooks when a frame holds too many containers."""


def decode_payload(payload: bytes, limits: Limits = PEER) -> Any:
    """Unpack one frame's payload within `limits`; WireError for anything else."""
    if len(payload) > limits.frame:
        raise WireError(f"a frame of {len(payload)} bytes is over the {limits.frame}-byte limit")
    left = [limits.containers]

    def spend(container: Any) -> Any:
        left[0] -= 1
        if left[0] < 0:
            raise _Budget
        return container

    try:
        value = msgpack.unpackb(
            payload,
            raw=False,
            strict_map_key=True,
            use_list=True,
            list_hook=spend,
            object_hook=spend,
            max_str_len=limits.string,
            max_bin_len=limits.binary,
            max_array_len=limits.array,
            max_map_len=limits.map,
            max_ext_len=0,
        )
    except _Budget:
        raise WireError(f"a frame with over {limits.containers} arrays and maps") from None
    except (ValueError, TypeError, msgpack.UnpackException, msgpack.ExtraData) as exc:
        raise WireError(f"malformed msgpack: {exc or type(exc).__name__}") from None
    check_plain(value, limits.depth)
    return value


def check_plain(value: Any, depth: int = PEER.depth) -> None:
    """Refuse nesting deeper than `depth`, map keys that are not text, and floats.

    Walks with a stack of its own: a hostile value must not be able to exhaust
    Python's recursion limit, here or in anything that later walks it. A container's
    items are looked at by type all at once (`set(map(type, …))`, in C): a shuffled
    pile is a hundred points, and this runs on every message.
    """
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        kind = type(item)
        if kind is dict:
            if set(map(type, item)) - {str}:
                raise WireError("a map key that is not text")
            children: Any = item.values()
        elif kind is list:
            children = item
        elif kind is float:
            raise WireError("a floating-point number")
        else:
            continue
        if level >= depth:
            raise WireError(f"nested deeper than {depth} levels")
        kinds = set(map(type, children))
        if float in kinds:
            raise WireError("a floating-point number")
        if dict in kinds or list in kinds:
            stack.extend((c, level + 1) for c in children if type(c) in _CONTAINERS)


_CONTAINERS = (dict, list)


class FrameDecoder:
    """Turns a byte stream into messages, one frame at a time, within `limits`.

    The buffer never holds more than one frame and one read: a length over the
    limit is refused as soon as its four bytes are in.
    """

    def __init__(self, limits: Limits = PEER) -> None:
        self.limits = limits
        self._buffer = bytearray()
        self.failed: WireError | None = None

    def feed(self, data: bytes) -> list[Any]:
        """Every message completed by `data`. After a bad frame the stream has lost its
        framing: the decoder keeps failing (h11's ERROR state), it never resynchronizes."""
        if self.failed is not None:
            raise self.failed
        self._buffer += data
        messages = []
        try:
            while len(self._buffer) >= _LENGTH.size:
                (length,) = _LENGTH.unpack_from(self._buffer)
                if length > self.limits.frame:
                    raise WireError(
                        f"frame of {length} bytes is over the {self.limits.frame}-byte limit"
                    )
                if len(self._buffer) < _LENGTH.size + length:
                    break
                payload = bytes(self._buffer[_LENGTH.size : _LENGTH.size + length])
                del self._buffer[: _LENGTH.size + length]
                messages.append(decode_payload(payload, self.limits))
        except WireError as exc:
            self.failed = exc
            self._buffer.clear()
            raise
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


def int_field(message: dict[str, Any], name: str, low: int, high: int) -> int:
    """message[name], checked to be an integer in [low, high]; WireError otherwise."""
    value: int = field_of(message, name, int)
    if not low <= value <= high:
        raise WireError(f"field {name!r} is {value}, outside {low}..{high}")
    return value


def text_field(message: dict[str, Any], name: str, longest: int) -> str:
    """message[name], checked to be printable text of at most `longest` characters."""
    value: str = field_of(message, name, str)
    if len(value) > longest or not value.isprintable():
        raise WireError(f"field {name!r} must be printable text of at most {longest} characters")
    return value
