"""Frames, invite codes and identities: the parts of the network layer that need no socket."""

import random

import msgpack
import pytest

from protocol.identity import Identity, fingerprint
from protocol.invite import Invite, InviteError, new_secret
from protocol.wire import (
    MAX_FRAME,
    PEER,
    STRANGER,
    FrameDecoder,
    Limits,
    WireError,
    decode_payload,
    encode_frame,
)


def test_frames_survive_any_split() -> None:
    messages = [{"kind": "env", "n": i, "data": bytes(range(i))} for i in range(20)]
    stream = b"".join(encode_frame(m) for m in messages)
    for size in (1, 3, 7, 64, len(stream)):
        decoder = FrameDecoder()
        got = []
        for i in range(0, len(stream), size):
            got.extend(decoder.feed(stream[i : i + size]))
        assert got == messages
        assert decoder.pending() == 0


def test_an_oversized_length_is_refused_before_the_body_arrives() -> None:
    with pytest.raises(WireError, match="over the"):
        FrameDecoder().feed((MAX_FRAME + 1).to_bytes(4, "big"))


@pytest.mark.parametrize(
    "payload",
    [
        b"\xc1",  # a byte msgpack never uses
        msgpack.packb([1, 2]) + b"\x01",  # trailing data
        msgpack.packb({1: "int key"}),  # map keys must be strings
        msgpack.packb(list(range(9000))),  # more items than the limit
        msgpack.packb({f"k{i}": i for i in range(100)}),  # a map over the limit
    ],
)
def test_malformed_payloads_are_refused(payload: bytes) -> None:
    with pytest.raises(WireError):
        FrameDecoder().feed(len(payload).to_bytes(4, "big") + payload)


def nested(depth: int) -> bytes:
    """msgpack of a list nested `depth` deep, built by hand (packb itself recurses)."""
    return b"\x91" * depth + b"\xc0"


@pytest.mark.parametrize(
    ("payload", "why"),
    [
        (nested(500), "deeper than"),  # the canonical encoding used to recurse on it
        (msgpack.packb({"a": 1, b"b": 2}), "not text"),  # text and bytes keys: unsortable
        (msgpack.packb({"x": [1.5]}), "floating-point"),
        (msgpack.packb([float("inf")]), "floating-point"),
    ],
)
def test_values_no_message_of_ours_holds_are_refused_before_use(payload: bytes, why: str) -> None:
    with pytest.raises(WireError, match=why):
        decode_payload(payload)


def test_a_frame_of_many_containers_is_refused_while_decoding() -> None:
    """A 1 MiB frame of empty arrays took a quarter of a second to build; the container
    budget stops the decoder early, whatever the frame's size."""
    inner = b"\xdc" + (4096).to_bytes(2, "big") + b"\x90" * 4096  # 4097 arrays
    payload = b"\x94" + inner * 4  # 16389, over the budget; each array within its limit
    assert PEER.containers < 1 + 4 * 4097
    with pytest.raises(WireError, match="arrays and maps"):
        decode_payload(payload)


def test_a_stranger_gets_small_frames() -> None:
    frame = encode_frame({"kind": "join", "cert": bytes(STRANGER.frame)})
    with pytest.raises(WireError, match="over the"):
        FrameDecoder(STRANGER).feed(frame)
    assert FrameDecoder(PEER).feed(frame)[0]["kind"] == "join"


def random_value(rng: random.Random, depth: int) -> object:
    """A plain value of the kinds messages hold, nested up to `depth`."""
    kind = rng.randrange(6 if depth else 4)
    if kind == 0:
        return rng.randint(-(2**40), 2**40)
    if kind == 1:
        return "".join(rng.choice("kindseatxyé") for _ in range(rng.randint(0, 12)))
    if kind == 2:
        return rng.randbytes(rng.randint(0, 40))
    if kind == 3:
        return rng.choice([None, True, False])
    if kind == 4:
        return [random_value(rng, depth - 1) for _ in range(rng.randint(0, 5))]
    return {f"k{i}": random_value(rng, depth - 1) for i in range(rng.randint(0, 5))}


@pytest.mark.parametrize("limits", [STRANGER, PEER], ids=["stranger", "peer"])
def test_random_bytes_give_messages_or_a_wire_error_nothing_else(limits: Limits) -> None:
    """Random payloads under a length within the limit, so that they reach the decoder (64
    random bytes used to stop at the length check, every one: their first four bytes say
    gigabytes), and some random streams with their own lengths too."""
    decoded = refused_inside = 0
    for seed in range(500):
        rng = random.Random(seed)
        payload = bytearray(msgpack.packb(random_value(rng, 3)))
        for _ in range(seed % 3):  # a third whole, the rest with a byte or two changed
            payload[rng.randrange(len(payload))] = rng.randrange(256)
        if seed % 7 == 0:
            payload = bytearray(rng.randbytes(rng.randint(0, 64)))
        data = len(payload).to_bytes(4, "big") + payload if seed % 11 else rng.randbytes(64)
        try:  # any other exception than WireError fails the test
            decoded += len(FrameDecoder(limits).feed(data))
        except WireError as exc:
            refused_inside += "-byte limit" not in exc.reason
    assert decoded > 50 and refused_inside > 50  # the decoder was reached, both ways


def test_a_truncated_frame_is_pending_not_delivered() -> None:
    frame = encode_frame({"kind": "hello"})
    decoder = FrameDecoder()
    assert decoder.feed(frame[:-1]) == []
    assert decoder.pending() == len(frame) - 1


def test_invite_codes_round_trip_and_bad_ones_are_explained() -> None:
    code = Invite("192.168.1.20", 7777, "K7QD-MX2P-Q4ZT-W7AB", new_secret())
    assert Invite.parse(str(code)) == code
    assert Invite.parse(str(code).lower()) == code
    for bad in ("", "192.168.1.20:7777", "host:99999/K7QD-MX2P-Q4ZT-W7AB/AAAA-BBBB", "x:1/Z/Z"):
        with pytest.raises(InviteError):
            Invite.parse(bad)


def test_identity_is_kept_in_its_home_and_readable_only_by_its_owner(tmp_path: object) -> None:
    home = tmp_path / "home"  # type: ignore[operator]
    first = Identity.load_or_create(home)
    again = Identity.load_or_create(home)
    assert first.public_bytes == again.public_bytes
    assert (home / "identity.pem").stat().st_mode & 0o777 == 0o600
    assert first.fingerprint == fingerprint(first.public_bytes)
    assert len(first.fingerprint) == 19 and first.fingerprint.count("-") == 3
    other = Identity.load_or_create(tmp_path / "other")  # type: ignore[operator]
    assert other.fingerprint != first.fingerprint


def test_a_decoder_that_met_a_bad_frame_stays_failed() -> None:
    decoder = FrameDecoder()
    with pytest.raises(WireError):
        decoder.feed(b"\x00\x00\x00\x01\xc1")
    with pytest.raises(WireError):
        decoder.feed(encode_frame({"kind": "ping"}))  # good bytes after bad: still refused
