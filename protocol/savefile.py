"""A seat's saved table: the signed transcript, and the seat's own secrets and decisions.

The file is a sequence of frames (as on the wire): first the signed roster, the
seat and its sealing key for the table, then, as the game goes, the seat's own
secrets (`secret`) and decisions (`decision`), every signed envelope it
accepted, its own included (`env`), every one it refused and accused its seat for
(`refused`), in the order they came, where a seat that came back from another
address listens now (`moved`: a resume of ours dials it there), and at the end the
verdict it reached (`verdict`).

Only the envelopes are evidence. Everything else in the file is the seat's own
private record, and is believed only as far as it reproduces the signed
messages: `protocol.replay` plays the transcript through a fresh `TablePeer`,
which must make each of the seat's own messages again, byte for byte, from
those secrets and decisions. So a file with evidence removed does not replay
to its end, and says what is missing; nothing unsigned decides a verdict.

`load` checks everything it reads before it keeps it: the roster's signatures,
each envelope's signature and chain, and the type, size and range of every
other field. Any problem is a `SaveFileError` naming the file and the frame.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from p2pcards import games
from p2pcards.engine import Action, State
from p2pcards.errors import P2PCardsError
from protocol.audit import Fault
from protocol.errors import ProtocolError
from protocol.mental import ShuffleSecrets
from protocol.roster import Roster, check_host, verify_signature
from protocol.table_peer import Ended, TableKeys, TableOutcome, TablePeer, Taken
from protocol.transcript import Envelope, Receiver
from protocol.wire import FrameDecoder, WireError, encode_frame

FORMAT = 4  # 4: rpg-battle's and GETGEM's actions name the slots of the cards they use
READABLE_FORMATS = (2, 3, 4)  # 2: before session ids and one dealer, replayed as it was played
# 3: an announcement names hand positions only when it uses any.
SLOTS_SINCE = {"rpg-battle": 4, "getgem": 4}
"""The save format from which a game's actions name the slots of the cards they use: the
game's older saves announced cards by kind and hand positions, which this version's actions
cannot say, so they are read (roster, verdict) but refused to replay, resume or audit."""
_KINDS = ("cheat", "silent", "left")


class SaveFileError(ProtocolError, ValueError):
    """A saved table that is not readable or does not check out."""


class NotASaveFile(SaveFileError):
    """No save file at all: missing, unreadable, or not one of ours (the user's input to
    mend, as opposed to a save whose evidence does not check out)."""


@dataclass
class SavedTable:
    """What a save file holds, checked."""

    roster: Roster
    signatures: list[bytes]
    seat: int
    sealing_key: bytes
    format: int = FORMAT
    own_secrets: dict[int, ShuffleSecrets | bytes] = field(default_factory=dict)
    decisions: list[dict[str, Any]] = field(default_factory=list)  # action JSON, ours
    envelopes: list[Envelope] = field(default_factory=list)  # accepted: the evidence
    record: list[Envelope] = field(default_factory=list)  # accepted and refused, in order
    verdict: dict[str, Any] | None = None  # what the seat concluded, as it wrote it
    # Seats that came back from another address than the roster's: (host, port) now.
    addresses: dict[int, tuple[str, int]] = field(default_factory=dict)

    @property
    def table_id(self) -> bytes:
        """What every signature at the table is bound to (`Roster.session_id`)."""
        return self.roster.session_id

    @property
    def num_seats(self) -> int:
        """How many seats the table had."""
        return len(self.roster.members)

    def sealing_keys(self) -> list[X25519PublicKey]:
        """Every seat's sealing key for this table."""
        return [X25519PublicKey.from_public_bytes(m.seal) for m in self.roster.members]

    def verify_keys(self) -> list[Ed25519PublicKey]:
        """Every seat's identity key."""
        return [Ed25519PublicKey.from_public_bytes(m.identity) for m in self.roster.members]


def encode_secret(secret: ShuffleSecrets | bytes) -> Any:
    """A seat's secret for one step, as saved: a beacon value, or a shuffle's secrets."""
    return secret if isinstance(secret, bytes) else secret.committed()


def decode_secret(data: Any) -> ShuffleSecrets | bytes:
    """The inverse of `encode_secret`, every field checked (ValueError)."""
    if isinstance(data, bytes):
        if len(data) != 32:
            raise ValueError("a beacon value is 32 bytes")
        return data
    if not isinstance(data, list) or len(data) != 5:
        raise ValueError("a shuffle's secrets are five fields")
    pile_mask, permutation, card_masks, nonce, deck = data
    if not isinstance(permutation, list) or not isinstance(card_masks, list):
        raise ValueError("a permutation and card masks must be lists")
    if not isinstance(deck, list) or not isinstance(nonce, bytes) or len(nonce) != 16:
        raise ValueError("a deck must be a list and a nonce 16 bytes")
    if not all(isinstance(p, int) and not isinstance(p, bool) for p in permutation):
        raise ValueError("a permutation holds positions")
    if len(permutation) != len(card_masks) or sorted(permutation) != list(range(len(card_masks))):
        raise ValueError("the permutation is not one of the pile")
    if not all(isinstance(p, bytes) and len(p) == 32 for p in deck):
        raise ValueError("deck cards must be 32-byte points")
    return ShuffleSecrets.from_committed([pile_mask, permutation, card_masks, nonce, deck])


def verdict_frame(outcome: TableOutcome) -> dict[str, Any]:
    """The last frame: what this seat concluded (for people; `audit` re-derives it)."""
    return {
        "kind": "verdict",
        "ended": outcome.ended,
        "returns_x1000": [round(r * 1000) for r in outcome.returns],
        "faults": [[f.seat, f.step, f.reason, f.kind] for f in outcome.faults],
        "notes": list(outcome.notes),
    }


def faults_of(verdict: dict[str, Any]) -> list[Fault]:
    """The faults a verdict frame lists (already checked by `load`)."""
    return [Fault(seat, step, reason, kind) for seat, step, reason, kind in verdict["faults"]]


class SaveWriter:
    """Appends a table's frames to its save file as the game goes."""

    def __init__(self, out: BinaryIO) -> None:
        self.out = out
        self._envelopes = 0
        self._secrets = 0
        self._decisions = 0
        self._ended = False

    def header(
        self, roster: Roster, signatures: list[bytes], seat: int, sealing_key: bytes
    ) -> None:
        """The first frame: who sits where, signed by all, which seat saved this, and that
        seat's sealing key for the table (the file is private to its owner)."""
        frame = {"kind": "table", "format": FORMAT, "roster": roster.to_wire()}
        self._write({**frame, "signatures": signatures, "seat": seat, "seal": sealing_key})

    def catch_up(
        self,
        record: Sequence[Taken],
        own_secrets: Sequence[tuple[int, ShuffleSecrets | bytes]],
        decisions: Sequence[Any],
        outcome: TableOutcome | None = None,
        flush: bool = True,
    ) -> None:
        """Write whatever is new. Our secrets and decisions come before the envelopes that
        follow from them: a seat resumed after a crash redoes its steps with them."""
        new = (
            len(own_secrets) - self._secrets
            + len(decisions) - self._decisions
            + len(record) - self._envelopes
            + (outcome is not None and not self._ended)
        )  # fmt: skip
        if not new:
            if flush:
                self.out.flush()
            return
        for step, secret in own_secrets[self._secrets :]:
            self._write({"kind": "secret", "step": step, "secret": encode_secret(secret)})
        self._secrets = len(own_secrets)
        for action in decisions[self._decisions :]:
            self._write({"kind": "decision", "action": action.to_json()})
        self._decisions = len(decisions)
        for envelope, refused in record[self._envelopes :]:
            if refused:
                self._write({"kind": "refused", "envelope": envelope.packed})
            else:
                self.out.write(envelope.frame)
        self._envelopes = len(record)
        if outcome is not None and not self._ended:
            self._write(verdict_frame(outcome))
            self._ended = True
        if flush:
            self.out.flush()

    def moved(self, seat: int, host: str, port: int) -> None:
        """A seat listens somewhere new: a resume of ours must dial it there."""
        self._write({"kind": "moved", "seat": seat, "host": host, "port": port})
        self.out.flush()

    def _write(self, frame: dict[str, Any]) -> None:
        self.out.write(encode_frame(frame))


def _frames(path: Path, tolerate_cut: bool) -> Iterator[dict[str, Any]]:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise NotASaveFile(f"cannot read {path}: {exc.strerror or exc}") from None
    decoder = FrameDecoder()
    try:
        frames = decoder.feed(data)
    except WireError as exc:
        raise NotASaveFile(f"{path} is not a p2pcards save file: {exc.reason}") from None
    if decoder.pending() and not tolerate_cut:
        raise SaveFileError(f"{path} ends inside a frame (the saving process stopped mid-write?)")
    for frame in frames:
        if not isinstance(frame, dict):
            raise NotASaveFile(f"{path} holds something that is not a frame of ours")
        yield frame


def _header(path: Path, first: dict[str, Any] | None) -> SavedTable:
    if first is None or first.get("kind") != "table":
        raise NotASaveFile(f"{path} is not a p2pcards save file (no table header)")
    fmt = first.get("format")
    if fmt not in READABLE_FORMATS:
        *older, newest = map(str, READABLE_FORMATS)
        raise SaveFileError(
            f"{path} was saved in format {fmt!r}; this version reads formats "
            f"{', '.join(older)} and {newest}"
        )
    try:
        roster = Roster.from_wire(first.get("roster"))
        signatures, seat, seal = first.get("signatures"), first.get("seat"), first.get("seal")
        if not isinstance(signatures, list) or len(signatures) != len(roster.members):
            raise ValueError("it needs one roster signature per seat")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(signatures):
            raise ValueError("the seat that saved it is not at the table")
        if not isinstance(seal, bytes) or len(seal) != 32:
            raise ValueError("the sealing key must be 32 bytes")
        public = X25519PrivateKey.from_private_bytes(seal).public_key().public_bytes_raw()
        if public != roster.members[seat].seal:
            raise ValueError("the sealing key is not the one the roster gives that seat")
        digest = roster.digest()
        for member, signature in zip(roster.members, signatures, strict=True):
            if not isinstance(signature, bytes):
                raise ValueError("a roster signature must be bytes")
            verify_signature(member.identity, signature, digest, "roster signature")
    except (ValueError, ProtocolError) as exc:
        raise SaveFileError(f"{path}: the table header does not check out: {exc}") from None
    return SavedTable(roster, signatures, seat, seal, fmt)


def _verdict(frame: dict[str, Any], seats: int) -> dict[str, Any]:
    faults, notes = frame.get("faults"), frame.get("notes")
    if frame.get("ended") not in typing.get_args(Ended):
        raise ValueError("a verdict says how the game ended")
    if not isinstance(faults, list) or not isinstance(notes, list) or len(faults) > 256:
        raise ValueError("a verdict lists faults and notes")
    for fault in faults:
        if (
            not isinstance(fault, list)
            or len(fault) != 4
            or not isinstance(fault[0], int)
            or not 0 <= fault[0] < seats
            or not isinstance(fault[1], int)
            or not isinstance(fault[2], str)
            or fault[3] not in _KINDS
        ):
            raise ValueError("a fault is [seat, step, reason, kind]")
    if not all(isinstance(n, str) for n in notes):
        raise ValueError("notes are text")
    return frame


def load(path: Path, tolerate_cut: bool = False) -> SavedTable:
    """Read and check a save file; SaveFileError says what is wrong.

    `tolerate_cut` accepts a last frame cut short, as a killed process leaves it: what
    it held was written before it was sent, so nothing a peer has is lost with it.
    """
    frames = _frames(path, tolerate_cut)
    saved = _header(path, next(frames, None))
    receiver = Receiver(saved.table_id, saved.verify_keys())
    for number, frame in enumerate(frames, 2):
        kind = frame.get("kind")
        try:
            if kind == "env":
                envelope = Envelope.from_wire(frame)
                receiver.accept(envelope)
                saved.envelopes.append(envelope)
                saved.record.append(envelope)
            elif kind == "refused":
                packed = frame.get("envelope")
                if not isinstance(packed, bytes):
                    raise ValueError("a refused message is a packed envelope")
                saved.record.append(Envelope.unpack(packed))
            elif kind == "secret":
                step = frame.get("step")
                if not isinstance(step, int) or isinstance(step, bool) or step < 0:
                    raise ValueError("a secret's step must be a non-negative integer")
                saved.own_secrets[step] = decode_secret(frame.get("secret"))
            elif kind == "decision":
                action = frame.get("action")
                if not isinstance(action, dict):
                    raise ValueError("a decision is an action's map")
                saved.decisions.append(action)
            elif kind == "moved":
                seat, host, port = frame.get("seat"), frame.get("host"), frame.get("port")
                if type(seat) is not int or not 0 <= seat < saved.num_seats:
                    raise ValueError("a moved seat must be a seat of the table")
                if type(port) is not int or not 1 <= port <= 65535 or not isinstance(host, str):
                    raise ValueError("a seat's new address is a host and a port 1-65535")
                saved.addresses[seat] = (check_host(host), port)
            elif kind == "verdict":
                saved.verdict = _verdict(frame, saved.num_seats)
            else:
                raise ValueError(f"unknown frame kind {str(kind)[:40]!r}")
        except (ValueError, ProtocolError) as exc:
            raise SaveFileError(f"{path}, frame {number}: {exc}") from None
    return saved


def rebuild(
    saved: SavedTable,
    signing: Ed25519PrivateKey | None = None,
    test_seed: int | None = None,
    on_step: Callable[[State, Action], None] | None = None,
) -> TablePeer:
    """The saving seat's `TablePeer`, played through again from the file's signed messages
    (`on_step` sees each step of it: a resumed agent learns the game so far).

    With its `signing` key it can play on (a resumed seat); without, it is the check of
    the evidence that `audit` and `replay` make. SaveFileError if it does not replay.
    """
    since = SLOTS_SINCE.get(saved.roster.game, 0)
    if saved.format < since:
        raise SaveFileError(
            f"this save is format {saved.format}, written by an older p2pcards; "
            f"{saved.roster.game}'s moves name their cards' slots since format {since}, so "
            "this version cannot play it through again"
        )
    try:
        game = games.load(saved.roster.game)
        decisions = [game.action_from_json(action) for action in saved.decisions]
        keys = TableKeys(
            signing,
            X25519PrivateKey.from_private_bytes(saved.sealing_key),
            saved.verify_keys(),
            saved.sealing_keys(),
        )
        return TablePeer.restore(
            game, saved.roster.options, saved.table_id, saved.seat, keys,
            saved.own_secrets, saved.record, decisions, test_seed,
            judged_round=saved.roster.fresh,  # a table of before ended without that round
            on_step=on_step,
        )  # fmt: skip
    except (P2PCardsError, ProtocolError, TypeError) as exc:
        raise SaveFileError(f"the saved table does not replay: {exc}") from None
