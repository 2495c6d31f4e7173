"""A seat's saved table: the signed transcript and what its replica did, written as it goes.

The file is a sequence of frames (as on the wire): first the signed roster and
the seat, then, in the order they happened, every operation started (`op`),
every message the mental layer accepted (`msg`), every signed envelope (`env`,
the evidence) and every engine step this seat's replica applied (`step`, with
the card shown before it, if any). `load` checks it all back: the roster's
signatures, every envelope's signature and chain, and that each message is
one a seat signed. Then `audit` re-checks the game, and `replay` shows it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PublicKey

from p2pcards.engine import Sighting
from protocol import codec
from protocol.commitments import canonical
from protocol.errors import ProtocolError, RemoteProtocolError
from protocol.mental import Body, OpStart, ShuffleSecrets
from protocol.roster import Roster, verify_signature
from protocol.table_peer import StepRecord
from protocol.transcript import Envelope, Receiver
from protocol.wire import FrameDecoder, WireError, encode_frame

FORMAT = 1


class SaveFileError(ProtocolError, ValueError):
    """A saved table that is not readable or does not check out."""


@dataclass
class SavedTable:
    """What a save file holds, checked."""

    roster: dict[str, Any]
    signatures: list[bytes]
    seat: int
    sealing_key: bytes = b""
    own_secrets: dict[int, ShuffleSecrets | bytes] = field(default_factory=dict)
    log: list[tuple[int, Body | OpStart]] = field(default_factory=list)
    envelopes: list[Envelope] = field(default_factory=list)
    steps: list[tuple[dict[str, Any], list[Sighting]]] = field(default_factory=list)

    @property
    def table_id(self) -> bytes:
        """The table's id."""
        value: bytes = self.roster["table"]
        return value

    @property
    def num_seats(self) -> int:
        """How many seats the table had."""
        return len(self.roster["members"])

    def sealing_keys(self) -> list[X25519PublicKey]:
        """Every seat's sealing key for this table."""
        return [X25519PublicKey.from_public_bytes(m["seal"]) for m in self.roster["members"]]


def encode_secret(secret: ShuffleSecrets | bytes) -> Any:
    """A seat's secret for one step, as saved: a beacon value, or a shuffle's secrets."""
    return secret if isinstance(secret, bytes) else secret.committed()


def decode_secret(data: Any) -> ShuffleSecrets | bytes:
    """The inverse of `encode_secret`."""
    return data if isinstance(data, bytes) else ShuffleSecrets.from_committed(data)


class SaveWriter:
    """Appends a table's frames to its save file as the game goes."""

    def __init__(self, out: BinaryIO) -> None:
        self.out = out
        self._log_written = 0
        self._envelopes_written = 0
        self._steps_written = 0
        self._secrets_written = 0

    def header(
        self, roster: dict[str, Any], signatures: list[bytes], seat: int, sealing_key: bytes
    ) -> None:
        """The first frame: who sits where, signed by all, which seat saved this, and that
        seat's sealing key for the table (the file is private to its owner)."""
        frame = {"kind": "table", "format": FORMAT, "roster": roster, "signatures": signatures}
        self._write({**frame, "seat": seat, "seal": sealing_key})

    def catch_up(
        self,
        log: list[tuple[int, Body | OpStart]],
        envelopes: list[Envelope],
        steps: Sequence[StepRecord],
        own_secrets: Sequence[tuple[int, ShuffleSecrets | bytes]] = (),
    ) -> None:
        """Write whatever is new in the table's secrets, log, transcript and steps.

        Our secrets come first: a message that commits to them may go out right after,
        and a seat resumed after a crash must redo its steps with the same secrets.
        """
        for step, secret in own_secrets[self._secrets_written :]:
            self._write({"kind": "secret", "step": step, "secret": encode_secret(secret)})
        self._secrets_written = len(own_secrets)
        # Envelopes first: each message must follow the envelope that signs it.
        for envelope in envelopes[self._envelopes_written :]:
            self._write(envelope.to_wire())
        self._envelopes_written = len(envelopes)
        for seat, entry in log[self._log_written :]:
            if isinstance(entry, OpStart):
                self._write({"kind": "op", "op": dataclasses.asdict(entry)})
            else:
                self._write({"kind": "msg", "seat": seat, "body": codec.encode(entry)})
        self._log_written = len(log)
        for record in steps[self._steps_written :]:
            self._write(
                {
                    "kind": "step",
                    "action": record.action.to_json(),
                    "sightings": [list(dataclasses.astuple(s)) for s in record.sightings],
                }
            )
        self._steps_written = len(steps)
        self.out.flush()

    def _write(self, frame: dict[str, Any]) -> None:
        self.out.write(encode_frame(frame))


def _sightings(frame: dict[str, Any]) -> list[Sighting]:
    """A step's sightings; files from before hidden-hand moves name one shown card instead."""
    shown = frame.get("shown")
    if shown is not None:
        seat, position, card = shown
        return [Sighting(int(seat), int(position), str(card))]
    out = []
    for seat, position, card, pinned in frame.get("sightings", []):
        if card is not None and not isinstance(card, str):
            raise TypeError(f"a sighting names card {card!r}")
        out.append(Sighting(int(seat), int(position), card, bool(pinned)))
    return out


def _frames(path: Path, tolerate_cut: bool = False) -> Iterator[dict[str, Any]]:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SaveFileError(f"cannot read {path}: {exc}") from None
    decoder = FrameDecoder()
    try:
        frames = decoder.feed(data)
    except WireError as exc:
        raise SaveFileError(f"{path} is not a p2pcards save file: {exc.reason}") from None
    if decoder.pending() and not tolerate_cut:
        raise SaveFileError(f"{path} ends inside a frame (the saving process stopped mid-write?)")
    for frame in frames:
        if not isinstance(frame, dict):
            raise SaveFileError(f"{path} holds something that is not a frame of ours")
        yield frame


def load(path: Path, tolerate_cut: bool = False) -> SavedTable:
    """Read and check a save file; SaveFileError says what is wrong.

    `tolerate_cut` accepts a last frame cut short, as a killed process leaves it: what
    it held was written before it was sent, so nothing a peer has is lost with it.
    """
    frames = _frames(path, tolerate_cut)
    first = next(frames, None)
    if first is None or first.get("kind") != "table" or first.get("format") != FORMAT:
        raise SaveFileError(f"{path} does not start with a p2pcards table header")
    try:
        saved = SavedTable(
            first["roster"], list(first["signatures"]), int(first["seat"]), first["seal"]
        )
        members = saved.roster["members"]
        verify_keys = [Ed25519PublicKey.from_public_bytes(m["identity"]) for m in members]
        digest = Roster.from_wire(saved.roster).digest()
        for member, signature in zip(members, saved.signatures, strict=True):
            verify_signature(member["identity"], signature, digest, "roster signature")
    except (KeyError, TypeError, ValueError, ProtocolError) as exc:
        raise SaveFileError(f"{path}: the roster does not check out: {exc}") from None
    receiver = Receiver(saved.table_id, verify_keys)
    signed: dict[tuple[int, bytes], int] = {}
    try:
        for frame in frames:
            kind = frame.get("kind")
            if kind == "op":
                op = dict(frame["op"])
                op["points"] = tuple(op["points"])
                op["viewers"] = tuple(op["viewers"])
                saved.log.append((-1, OpStart(**op)))
            elif kind == "msg":
                seat = int(frame["seat"])
                saved.log.append((seat, codec.decode(frame["body"], seat)))
                key = (seat, canonical(frame["body"]))
                if signed.get(key, 0) <= 0:
                    raise SaveFileError(
                        f"{path}: a message of seat {seat} that no envelope carries"
                    )
                signed[key] -= 1
            elif kind == "env":
                envelope = Envelope.from_wire(frame)
                receiver.accept(envelope)
                saved.envelopes.append(envelope)
                key = (envelope.seat, canonical(envelope.body))
                signed[key] = signed.get(key, 0) + 1
            elif kind == "secret":
                saved.own_secrets[int(frame["step"])] = decode_secret(frame["secret"])
            elif kind == "step":
                saved.steps.append((frame["action"], _sightings(frame)))
            else:
                raise SaveFileError(f"{path}: unknown frame kind {kind!r}")
    except SaveFileError:
        raise
    except RemoteProtocolError as exc:
        raise SaveFileError(f"{path}: {exc}") from None
    except (KeyError, TypeError, ValueError, ProtocolError) as exc:
        raise SaveFileError(f"{path}: a malformed frame: {exc}") from None
    return saved
