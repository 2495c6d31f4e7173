"""The end-of-game audit: re-derive every step from the disclosed secrets and name who cheated.

Input is one peer's log (`MentalPeer.log`): the operations in the order they
started and every message in the order it was accepted, ending with each seat's
`SecretsReveal`. Every peer runs this on its own log and must reach the same
verdict; the signed transcript is the evidence for anyone else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from protocol.commitments import canonical, opens
from protocol.curve import Point
from protocol.errors import BadPointError, RemoteProtocolError
from protocol.mental import (
    Body,
    Commit,
    KeyShare,
    MaskedPile,
    OpStart,
    SealedKey,
    SecretsReveal,
    ShuffleSecrets,
    mask_and_permute,
    remask,
    turn_order,
)
from protocol.sealed import open_sealed


@dataclass(frozen=True, slots=True)
class Fault:
    """A seat whose contribution does not fit, where, and why."""

    seat: int
    step: int
    reason: str

    def __str__(self) -> str:
        return f"seat {self.seat}, step {self.step}: {self.reason}"


def audit(
    log: Sequence[tuple[int, Body | OpStart]],
    table_id: bytes,
    num_seats: int,
    encryption_keys: Sequence[X25519PublicKey],
) -> list[Fault]:
    """Every fault found in the log, first by step; empty when everyone played fair."""
    return _Auditor(log, table_id, num_seats, encryption_keys).run()


class _Auditor:
    def __init__(
        self,
        log: Sequence[tuple[int, Body | OpStart]],
        table_id: bytes,
        num_seats: int,
        encryption_keys: Sequence[X25519PublicKey],
    ) -> None:
        self.log = log
        self.table_id = table_id
        self.n = num_seats
        self.encryption_keys = encryption_keys
        self.faults: list[Fault] = []
        self.starts = {e.step: e for _, e in log if isinstance(e, OpStart)}
        self.disclosed: dict[int, SecretsReveal] = {
            seat: e for seat, e in log if isinstance(e, SecretsReveal)
        }
        self.shuffles: dict[int, dict[int, ShuffleSecrets]] = {}
        self.card_origin: list[tuple[int, int]] = []  # global card -> (shuffle step, index)

    def fault(self, seat: int, step: int, reason: str) -> None:
        self.faults.append(Fault(seat, step, reason))

    def run(self) -> list[Fault]:
        disclosure = max((s for s, e in self.starts.items() if e.kind == "disclose"), default=-1)
        for seat in range(self.n):
            if seat not in self.disclosed:
                self.fault(seat, disclosure, "did not disclose its secrets")
        self._read_secrets()
        for step in sorted(self.starts):
            start = self.starts[step]
            messages = [
                (seat, e) for seat, e in self.log if not isinstance(e, OpStart) and e.step == step
            ]
            if start.kind == "shuffle":
                self._check_shuffle(start, messages)
            elif start.kind == "reveal":
                self._check_reveal(start, messages)
        return sorted(self.faults, key=lambda f: (f.step, f.seat))

    def _read_secrets(self) -> None:
        for seat, disclosed in self.disclosed.items():
            try:
                public = X25519PrivateKey.from_private_bytes(disclosed.encryption_key).public_key()
            except ValueError:
                public = None
            if (
                public is None
                or public.public_bytes_raw() != self.encryption_keys[seat].public_bytes_raw()
            ):
                self.fault(seat, disclosed.step, "disclosed an encryption key that is not its own")
            for step, *committed in disclosed.shuffles:
                try:
                    secret = ShuffleSecrets.from_committed(committed)
                except BadPointError as exc:
                    self.fault(seat, step, f"disclosed an invalid mask: {exc}")
                    continue
                self.shuffles.setdefault(step, {})[seat] = secret

    def _check_shuffle(self, start: OpStart, messages: list[tuple[int, Body]]) -> None:
        step = start.step
        commits = {seat: m.digest for seat, m in messages if isinstance(m, Commit)}
        piles = {(m.phase, seat): m.cards for seat, m in messages if isinstance(m, MaskedPile)}
        secrets = self.shuffles.get(step, {})
        owner = None if start.seat < 0 else start.seat
        pile: tuple[Point, ...] = start.points
        if owner is not None:
            pile = secrets[owner].deck if owner in secrets else ()
        size = len(piles.get((1, owner if owner is not None else 0), pile))
        for seat, secret in secrets.items():
            if seat in commits and not opens(
                commits[seat], self.table_id, seat, step, secret.committed()
            ):
                self.fault(seat, step, "disclosed shuffle secrets that do not match its commitment")
            if sorted(secret.permutation) != list(range(size)):
                self.fault(seat, step, "its shuffle permutation is not a permutation of the pile")
        for phase, work in ((1, mask_and_permute), (2, remask)):
            for seat in turn_order(self.n, owner if phase == 1 else None):
                sent = piles.get((phase, seat))
                turn_secret = secrets.get(seat)
                if sent is None:
                    break  # the shuffle stopped here (an abort); later turns never came
                if turn_secret is not None and len(turn_secret.permutation) == len(pile):
                    try:
                        expected = work(pile, turn_secret)
                    except (BadPointError, IndexError):
                        expected = ()
                    if expected != sent:
                        what = "masking and permuting" if phase == 1 else "per-card masking"
                        self.fault(seat, step, f"its {what} does not follow from its secrets")
                pile = sent
        if (2, self.n - 1) in piles:
            self.card_origin.extend((step, i) for i in range(size))

    def _committed_key(self, seat: int, card: int) -> bytes | None:
        if card >= len(self.card_origin):
            return None
        step, index = self.card_origin[card]
        secret = self.shuffles.get(step, {}).get(seat)
        return None if secret is None else secret.card_masks[index].forward

    def _check_reveal(self, start: OpStart, messages: list[tuple[int, Body]]) -> None:
        for seat, m in messages:
            if isinstance(m, KeyShare):
                key = m.key
            elif isinstance(m, SealedKey):
                reader_secret = self.disclosed.get(m.reader)
                if reader_secret is None:
                    continue
                header = canonical(["sealed-key", m.step, m.card, seat, m.reader])
                try:
                    key = open_sealed(
                        X25519PrivateKey.from_private_bytes(reader_secret.encryption_key),
                        self.encryption_keys[seat], self.table_id,
                        seat, m.reader, m.step, m.sealed, header,
                    )  # fmt: skip
                except (RemoteProtocolError, ValueError):
                    self.fault(seat, m.step, f"sealed a key for seat {m.reader} that does not open")
                    continue
            else:
                continue
            expected = self._committed_key(seat, m.card)
            if expected is not None and key != expected:
                self.fault(seat, m.step, f"sent a wrong key for card {m.card}")
