"""The audit: re-derive every step from the disclosed secrets and name who cheated.

Input is one peer's log (`MentalPeer.log`): the operations in the order they
started and every message in the order it was accepted, with each seat's
`SecretsReveal` wherever it came. Every peer runs this on its own log and must
reach the same verdict; the signed transcript is the evidence for anyone else.

Nothing a disclosure says is trusted for its shape: a permutation of the wrong
length, a card mask short, secrets missing for a shuffle the seat committed
to, are each that seat's fault, named as such, never an IndexError. The log is
read once, grouped by step, so the audit's time grows with the game's length,
not with its square.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from protocol.commitments import canonical, opens
from protocol.curve import Point
from protocol.errors import BadPointError, RemoteProtocolError
from protocol.mental import (
    BeaconReveal,
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

FaultKind = Literal["cheat", "silent", "left"]


@dataclass(frozen=True, slots=True)
class DeckAudit:
    """How to judge a committed own deck (DESIGN.md §9): the card behind each point, and
    every deck rule a list of cards breaks (empty: legal). The game supplies both; the
    audit knows no rule."""

    card_of: Callable[[Point], str | None]  # None: the point is no card
    problems: Callable[[list[str]], list[str]]


@dataclass(frozen=True, slots=True)
class Fault:
    """A seat whose contribution does not fit (or never came), where, and why."""

    seat: int
    step: int
    reason: str
    kind: FaultKind = "cheat"

    def __str__(self) -> str:
        where = f", step {self.step}" if self.step >= 0 else ""
        return f"seat {self.seat}{where}: {self.reason}"


def audit(
    log: Sequence[tuple[int, Body | OpStart]],
    table_id: bytes,
    num_seats: int,
    encryption_keys: Sequence[X25519PublicKey],
    excused: Iterable[int] = (),
    own: int | None = None,
    decks: DeckAudit | None = None,
) -> list[Fault]:
    """Every fault found in the log, first by step; empty when everyone played fair.

    `excused` seats are known to be gone (they left, fell silent, or were caught
    cheating): whoever stopped waiting for them says so; their missing disclosure is
    not a further fault here. The shuffle turns of `own`, the seat auditing, are not
    worked out again: it made them from these very secrets (a quarter of the audit's
    multiplications at 4 seats). `decks` judges each own deck its owner committed to.
    """
    return _Auditor(log, table_id, num_seats, encryption_keys, set(excused), own, decks).run()


class _Auditor:
    def __init__(
        self,
        log: Sequence[tuple[int, Body | OpStart]],
        table_id: bytes,
        num_seats: int,
        encryption_keys: Sequence[X25519PublicKey],
        excused: set[int],
        own: int | None,
        decks: DeckAudit | None,
    ) -> None:
        self.own = own
        self.decks = decks
        self.table_id = table_id
        self.n = num_seats
        self.encryption_keys = encryption_keys
        self.excused = excused
        self.faults: list[Fault] = []
        self.starts: dict[int, OpStart] = {}
        self.messages: dict[int, list[tuple[int, Body]]] = {}
        self.disclosed: dict[int, SecretsReveal] = {}
        for seat, entry in log:
            if isinstance(entry, OpStart):
                self.starts[entry.step] = entry
            elif isinstance(entry, SecretsReveal):
                self.disclosed.setdefault(seat, entry)
            else:
                self.messages.setdefault(entry.step, []).append((seat, entry))
        self.shuffles: dict[int, dict[int, ShuffleSecrets]] = {}
        # Seats whose disclosed encryption key is the one the roster gives them.
        self.genuine: dict[int, X25519PrivateKey] = {}
        self.beacons: dict[int, dict[int, bytes]] = {}
        self.card_origin: list[tuple[int, int]] = []  # global card -> (shuffle step, index)
        self.plain: dict[int, Point] = {}  # global card -> its card point, where derivable

    def fault(self, seat: int, step: int, reason: str, kind: FaultKind = "cheat") -> None:
        self.faults.append(Fault(seat, step, reason, kind))

    def run(self) -> list[Fault]:
        for seat in range(self.n):
            if seat not in self.disclosed and seat not in self.excused:
                self.fault(seat, -1, "did not disclose its secrets", "silent")
        self._read_secrets()
        for step in sorted(self.starts):
            start = self.starts[step]
            messages = self.messages.get(step, [])
            if start.kind == "shuffle":
                self._check_shuffle(start, messages)
            elif start.kind == "reveal":
                self._check_reveal(messages)
            elif start.kind == "beacon":
                self._check_beacon(start, messages)
            elif start.kind == "relock":
                self._check_relock(start, messages)
        return sorted(self.faults, key=lambda f: (f.step, f.seat, f.reason))

    def _size(self, step: int) -> int | None:
        """How many cards the shuffle at `step` had, from the public record."""
        start = self.starts.get(step)
        if start is not None and start.kind == "relock":
            return len(start.cards)
        if start is None or start.kind != "shuffle":
            return None
        if start.seat < 0:
            return len(start.points)
        piles = [m for _, m in self.messages.get(step, []) if isinstance(m, MaskedPile)]
        return len(piles[0].cards) if piles else None

    def _read_secrets(self) -> None:
        for seat, disclosed in self.disclosed.items():
            try:
                private = X25519PrivateKey.from_private_bytes(disclosed.encryption_key)
                public = private.public_key().public_bytes_raw()
                if public == self.encryption_keys[seat].public_bytes_raw():
                    self.genuine[seat] = private
            except ValueError:
                pass
            if seat not in self.genuine:
                self.fault(seat, disclosed.step, "disclosed an encryption key that is not its own")
            for step, *committed in disclosed.shuffles:
                if step not in self.starts:
                    continue  # a shuffle this peer never started: nothing to check it against
                size = self._size(step)
                permutation, card_masks = committed[1], committed[2]
                # Size unknown: the table stopped before any pile of it came, so only its
                # commitment can be checked (an own deck's owner commits before it deals).
                if size is not None and (len(permutation) != size or len(card_masks) != size):
                    self.fault(
                        seat, step, f"disclosed secrets for {len(card_masks)} cards of {size}"
                    )
                    continue
                try:
                    secret = ShuffleSecrets.from_committed(committed)
                except BadPointError as exc:
                    self.fault(seat, step, f"disclosed an invalid mask: {exc}")
                    continue
                self.shuffles.setdefault(step, {})[seat] = secret
            for step, value in disclosed.beacons:
                self.beacons.setdefault(step, {})[seat] = value

    def _check_shuffle(self, start: OpStart, messages: list[tuple[int, Body]]) -> None:
        step = start.step
        commits = {seat: m.digest for seat, m in messages if isinstance(m, Commit)}
        piles = {(m.phase, seat): m.cards for seat, m in messages if isinstance(m, MaskedPile)}
        secrets = self.shuffles.get(step, {})
        for seat in commits:
            if seat in self.disclosed and seat not in secrets:
                self.fault(
                    seat, step, "committed to a shuffle but disclosed no valid secrets for it"
                )
        size = self._size(step)
        if size is None:
            self._check_commitments(step, commits, secrets)
            return  # no pile of it ever came: nothing was dealt from it
        owner = None if start.seat < 0 else start.seat
        pile: tuple[Point, ...] = start.points
        if owner is not None:
            pile = secrets[owner].deck if owner in secrets else ()
            if owner in secrets and start.cards:
                self._check_redeal(owner, step, pile, start.cards)
            elif owner in secrets:
                self._check_deck(owner, step, pile, size)
        self._check_commitments(step, commits, secrets)
        for seat, secret in secrets.items():
            if sorted(secret.permutation) != list(range(size)):
                self.fault(seat, step, "its shuffle permutation is not a permutation of the pile")
        plain: list[Point] | None = list(pile) if len(pile) == size else None
        for phase, work in ((1, mask_and_permute), (2, remask)):
            for seat in turn_order(self.n, owner if phase == 1 else None):
                sent = piles.get((phase, seat))
                turn_secret = secrets.get(seat)
                if sent is None:
                    return  # the shuffle stopped here (an abort); later turns never came
                if turn_secret is not None and len(pile) == size and seat != self.own:
                    try:
                        expected = work(pile, turn_secret)
                    except (BadPointError, IndexError):
                        expected = ()
                    if expected != sent:
                        what = "masking and permuting" if phase == 1 else "per-card masking"
                        self.fault(seat, step, f"its {what} does not follow from its secrets")
                if phase == 1:  # follow the cards through each seat's permutation
                    order = turn_secret.permutation if turn_secret is not None else None
                    plain = None if plain is None or order is None else [plain[i] for i in order]
                pile = sent
        first = len(self.card_origin)
        self.card_origin.extend((step, i) for i in range(size))
        for i, point in enumerate(plain or ()):
            self.plain[first + i] = point

    def _check_commitments(
        self, step: int, commits: Mapping[int, bytes], secrets: Mapping[int, ShuffleSecrets]
    ) -> None:
        for seat, secret in secrets.items():
            if seat in commits and not opens(
                commits[seat], self.table_id, seat, step, secret.committed()
            ):
                self.fault(seat, step, "disclosed shuffle secrets that do not match its commitment")

    def _check_relock(self, start: OpStart, messages: list[tuple[int, Body]]) -> None:
        """A private reorder: every card the owner put back is one it took, masked by the
        mask it disclosed (no card swapped in, none left out)."""
        step, owner = start.step, start.seat
        piles = [m for seat, m in messages if seat == owner and isinstance(m, MaskedPile)]
        if not piles:
            return  # the table stopped before the cards came back
        first = len(self.card_origin)
        self.card_origin.extend((step, i) for i in range(len(start.cards)))
        secret = self.shuffles.get(step, {}).get(owner)
        if secret is None:
            if owner in self.disclosed:
                self.fault(owner, step, "disclosed no secrets for its private reorder")
            return
        if sorted(secret.permutation) != list(range(len(start.cards))):
            self.fault(owner, step, "its reorder is not an order of the cards it took")
            return
        taken = [self.plain.get(card) for card in start.cards]
        if any(p is None for p in taken):
            return  # an earlier seat's secrets are missing: that is its fault, named there
        put_back = [taken[i] for i in secret.permutation]
        try:
            expected = tuple(
                m.apply(p) for m, p in zip(secret.card_masks, put_back, strict=True) if p
            )
        except BadPointError:
            expected = ()
        if expected != piles[0].cards:
            self.fault(owner, step, "put back cards its reorder does not account for: a swap")
        for i, point in enumerate(put_back):
            if point is not None:
                self.plain[first + i] = point

    def _check_deck(self, owner: int, step: int, deck: Sequence[Point], size: int) -> None:
        """The own deck its owner committed to: as big as the pile dealt, every point a card,
        and legal by the game's deck rules (that it is the deck dealt, the owner's first
        masking turn shows)."""
        if len(deck) != size:
            self.fault(owner, step, f"committed to a deck of {len(deck)} cards for {size} dealt")
            return
        if self.decks is None:
            return
        cards = [self.decks.card_of(p) for p in deck]
        if any(c is None for c in cards):
            self.fault(owner, step, "committed to a deck holding a point that is no card")
            return
        problems = self.decks.problems([c for c in cards if c is not None])
        if problems:
            self.fault(owner, step, "committed to an illegal deck: " + "; ".join(problems))

    def _check_redeal(
        self, owner: int, step: int, deck: Sequence[Point], replaced: Sequence[int]
    ) -> None:
        """A deck its owner shuffled again (searched, or shuffled into) must be the very cards
        it held: no card swapped in, none dropped."""
        held = [self.plain.get(card) for card in replaced]
        if any(p is None for p in held):
            return  # an earlier seat's secrets are missing: that is its fault, named there
        if Counter(deck) != Counter(held):
            self.fault(owner, step, "re-dealt cards its deck did not hold: a swap")

    def _committed_key(self, seat: int, card: int) -> bytes | None:
        if not 0 <= card < len(self.card_origin):
            return None
        step, index = self.card_origin[card]
        secret = self.shuffles.get(step, {}).get(seat)
        return None if secret is None else secret.card_masks[index].forward

    def _check_reveal(self, messages: list[tuple[int, Body]]) -> None:
        for seat, m in messages:
            if isinstance(m, KeyShare):
                key = m.key
            elif isinstance(m, SealedKey):
                if not 0 <= m.reader < self.n:
                    continue
                # Either end's genuine key opens it (X25519 agreement is symmetric): the
                # sender's own first, so that a reader disclosing a false key, named for
                # that, cannot make an honest sender's key look sealed wrong.
                if seat in self.genuine:
                    own, other = self.genuine[seat], self.encryption_keys[m.reader]
                elif m.reader in self.genuine:
                    own, other = self.genuine[m.reader], self.encryption_keys[seat]
                else:
                    continue
                header = canonical(["sealed-key", m.step, m.card, seat, m.reader])
                try:
                    key = open_sealed(
                        own, other, self.table_id, seat, m.reader, m.step, m.sealed, header
                    )
                except (RemoteProtocolError, ValueError):
                    self.fault(seat, m.step, f"sealed a key for seat {m.reader} that does not open")
                    continue
            else:
                continue
            expected = self._committed_key(seat, m.card)
            if expected is not None and key != expected:
                self.fault(seat, m.step, f"sent a wrong key for card {m.card}")

    def _check_beacon(self, start: OpStart, messages: list[tuple[int, Body]]) -> None:
        """A seat that committed to a beacon value must disclose it: the value is public
        once revealed, so only a seat that stopped before revealing can owe it."""
        revealed = {seat for seat, m in messages if isinstance(m, BeaconReveal)}
        disclosed = self.beacons.get(start.step, {})
        for seat, m in messages:
            if isinstance(m, Commit) and seat in self.disclosed and seat not in revealed:
                value = disclosed.get(seat)
                if value is None or not opens(m.digest, self.table_id, seat, start.step, value):
                    self.fault(
                        seat, start.step, "did not disclose the beacon value it committed to"
                    )
