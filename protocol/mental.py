"""Mental poker: shuffling, dealing and revealing cards among seats that trust nobody.

Sans-I/O: a `MentalPeer` is one seat's state machine. The game driver starts the
same operations in the same order on every peer (they follow the public game
state); each peer then says what it must send (`outgoing()`) and takes what the
others sent (`receive()`). No sockets, no clocks: the network layer and the
in-process test tables only move the messages.

Operations, numbered in the order they start (the step number):

- shuffle(points): every seat commits to its secrets; then in seat order each
  masks the whole pile with one scalar and permutes it; then in seat order each
  swaps its pile-wide mask for one mask per card. A card is then locked by one
  key of every seat.
- reveal(card, viewers): the keys the viewers lack are sent, publicly when that
  lets nobody else learn the card, privately (sealed for one reader) otherwise.
  A viewer holding every key removes them and looks the point up.
- beacon(bound): commit, then reveal, a random value per seat; their hash gives
  an unbiased integer below `bound`.
- relock(owner, cards, order): a seat that has seen cards of its own (it holds every
  key) puts them back in an order of its choice, each masked afresh by it alone, so
  nobody else can link old places to new ones (a Loot's private reorder). Its
  permutation and masks are disclosed at the end like a shuffle's, and the audit checks
  that every card it put back is one it took.

Nothing a seat contributes can be checked the moment it arrives, except that
points are valid and revealed cards are real and not seen twice; the audit at
the end (every seat reveals its secrets) re-derives every step and names the seat
whose contribution does not fit.
"""

from __future__ import annotations

import contextlib
import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from protocol import beacon
from protocol.commitments import canonical, commitment, opens
from protocol.curve import CardPoints, Mask, Point, check_point, unmask
from protocol.errors import BadPointError, LocalProtocolError, RemoteProtocolError
from protocol.sealed import open_sealed, seal

# ------------------------------------------------------------------ messages


@dataclass(frozen=True, slots=True)
class Commit:
    """A seat's commitment to its secrets for one step (a shuffle or a beacon)."""

    step: int
    digest: bytes


@dataclass(frozen=True, slots=True)
class MaskedPile:
    """A seat's turn in a shuffle: phase 1 masked and permuted, phase 2 re-masked card by card."""

    step: int
    phase: int
    cards: tuple[Point, ...]


@dataclass(frozen=True, slots=True)
class KeyShare:
    """A seat's key for one card, published to everyone."""

    step: int
    card: int
    key: bytes


@dataclass(frozen=True, slots=True)
class SealedKey:
    """A seat's key for one card, sealed for one reader."""

    step: int
    card: int
    reader: int
    sealed: bytes


@dataclass(frozen=True, slots=True)
class BeaconReveal:
    """A seat's random contribution to a beacon, opening its commitment."""

    step: int
    value: bytes


@dataclass(frozen=True, slots=True)
class SecretsReveal:
    """Everything a seat kept secret, revealed for the audit at the end (or on an abort)."""

    step: int
    encryption_key: bytes
    # (step, pile mask, permutation, card masks, nonce, own deck or empty) per shuffle
    shuffles: tuple[
        tuple[int, bytes, tuple[int, ...], tuple[bytes, ...], bytes, tuple[bytes, ...]], ...
    ]
    beacons: tuple[tuple[int, bytes], ...]


@dataclass(frozen=True, slots=True)
class Announcement:
    """A seat's public statement at a point the game expects one (e.g. its chosen action)."""

    step: int
    payload: dict[str, Any]


Body = Commit | MaskedPile | KeyShare | SealedKey | BeaconReveal | SecretsReveal | Announcement


@dataclass(frozen=True, slots=True)
class OpStart:
    """A log entry (not a message): operation `step` started, with its public inputs."""

    step: int
    kind: str  # shuffle, reveal, beacon, announce, relock, disclose
    points: tuple[Point, ...] = ()
    card: int = -1
    viewers: tuple[int, ...] = ()
    bound: int = 0
    seat: int = -1
    cards: tuple[int, ...] = ()  # a relock's cards, top first; the cards a re-deal replaces


# ------------------------------------------------------------------- secrets


@dataclass(frozen=True, slots=True)
class ShuffleSecrets:
    """One seat's secrets for one shuffle (or a relock: its order and card masks)."""

    pile_mask: Mask
    permutation: tuple[int, ...]  # output position i holds input card permutation[i]
    card_masks: tuple[Mask, ...]
    nonce: bytes
    deck: tuple[Point, ...] = ()  # the owner's own deck, in plain: its decklist

    @staticmethod
    def random(
        size: int, deck: Sequence[Point] = (), order_from: random.Random | None = None
    ) -> ShuffleSecrets:
        """Fresh secrets from `secrets`: a uniform permutation and independent masks.

        `order_from` replaces the permutation's source for reproducible test tables only
        (see `MentalPeer(test_seed=...)`); the masks always come from `secrets`.
        """
        order = list(range(size))
        (order_from or secrets.SystemRandom()).shuffle(order)
        pile_mask, *card_masks = Mask.many(size + 1)
        return ShuffleSecrets(
            pile_mask, tuple(order), tuple(card_masks), secrets.token_bytes(16), tuple(deck)
        )

    @staticmethod
    def in_order(order: Sequence[int]) -> ShuffleSecrets:
        """Secrets for a relock: the owner's chosen order, fresh masks from `secrets`."""
        pile_mask, *card_masks = Mask.many(len(order) + 1)
        return ShuffleSecrets(pile_mask, tuple(order), tuple(card_masks), secrets.token_bytes(16))

    @staticmethod
    def from_committed(data: Sequence[Any]) -> ShuffleSecrets:
        """Rebuild secrets from what `committed()` gives (masks checked)."""
        pile_mask, permutation, card_masks, nonce, deck = data
        return ShuffleSecrets(
            Mask.from_bytes(pile_mask),
            tuple(permutation),
            tuple(Mask.from_bytes(m) for m in card_masks),
            nonce,
            tuple(deck),
        )

    def committed(self) -> list[Any]:
        """The value the commitment hashes (the nonce makes it unguessable)."""
        return [
            self.pile_mask.forward,
            list(self.permutation),
            [m.forward for m in self.card_masks],
            self.nonce,
            list(self.deck),
        ]


def mask_and_permute(pile: Sequence[Point], secret: ShuffleSecrets) -> tuple[Point, ...]:
    """Phase 1 of a seat's shuffle turn."""
    masked = [secret.pile_mask.apply(p) for p in pile]
    return tuple(masked[i] for i in secret.permutation)


def remask(pile: Sequence[Point], secret: ShuffleSecrets) -> tuple[Point, ...]:
    """Phase 2: remove the pile-wide mask and put one mask per card instead."""
    return tuple(
        m.apply(secret.pile_mask.remove(p)) for p, m in zip(pile, secret.card_masks, strict=True)
    )


# ------------------------------------------------------------------ the peer


@dataclass
class Card:
    """A locked card: its ciphertext and who holds which of its keys."""

    cipher: Point
    holders: list[set[int]]  # holders[s]: seats that know seat s's key for this card
    origin: tuple[int, int]  # (step of the shuffle or relock that made it, position in it)
    family: int  # the shuffle its deck came from: a card seen twice in one family is a fake
    layers: tuple[int, ...]  # the seats whose keys lock it: all, or a relock's owner alone
    keys: dict[int, bytes] = field(default_factory=dict)  # the keys this peer knows, by seat
    point: Point | None = None  # the unmasked card, once this peer knows it


@dataclass
class _Shuffle:
    step: int
    size: int
    commits: dict[int, bytes] = field(default_factory=dict)
    # The input (empty when it is an owner's secret deck), then each turn's pile.
    piles: list[tuple[Point, ...]] = field(default_factory=list)
    first_card: int = -1  # global index of this shuffle's first card, once done
    owner: int | None = None  # a seat's own deck: the owner masks first

    def turn(self, num_seats: int) -> tuple[int, int] | None:
        """(phase, seat) whose pile comes next, or None when both phases are done."""
        done = len(self.piles) - 1
        if done >= 2 * num_seats:
            return None
        phase, index = 1 + done // num_seats, done % num_seats
        return phase, turn_order(num_seats, self.owner if phase == 1 else None)[index]


def turn_order(num_seats: int, owner: int | None) -> list[int]:
    """Seats in the order they take a shuffle phase: an own deck's owner first."""
    seats = list(range(num_seats))
    return seats if owner is None else [owner] + [s for s in seats if s != owner]


@dataclass
class _Relock:
    step: int
    owner: int
    cards: tuple[int, ...]  # the cards put back, top first
    first_card: int = -1  # global index of the first new card, once done


@dataclass
class _Reveal:
    step: int
    card: int
    viewers: frozenset[int]
    due: dict[tuple[int, int], bool]  # (sender, reader or -1 for public) -> received


@dataclass
class _Beacon:
    step: int
    bound: int
    commits: dict[int, bytes] = field(default_factory=dict)
    reveals: dict[int, bytes] = field(default_factory=dict)
    value: int | None = None


@dataclass
class _Announce:
    step: int
    seat: int
    payload: dict[str, Any] | None  # ours to send, or what the announcer sent


_Op = _Shuffle | _Reveal | _Beacon | _Announce | _Relock

DISCLOSURE = -1
"""The step `disclose()` returns: the disclosure is no numbered operation (see there)."""


# How far an honest seat can run ahead of us: through its own announcements and the
# reveals that need only its keys (a turn's plays), never past an operation that needs
# a message of ours. Past these bounds a seat is flooding us, and is named.
MAX_AHEAD = 64  # operations beyond the last one we started
MAX_EARLY = 64  # messages waiting, per seat
MAX_EARLY_BYTES = 1 << 20  # their size, per seat


class MentalPeer:
    """One seat's side of the mental-poker protocol.

    Like h11's connections it validates before it changes anything, and once a
    peer's message has proved wrong it enters an error state (`failed`) and takes
    no more game messages: what is left to do is disclose and audit.
    """

    def __init__(
        self,
        table_id: bytes,
        seat: int,
        num_seats: int,
        encryption_key: X25519PrivateKey,
        encryption_keys: Sequence[X25519PublicKey],
        card_points: CardPoints,
        saved_secrets: dict[int, ShuffleSecrets | bytes] | None = None,
        test_seed: int | None = None,
    ) -> None:
        self.table_id = table_id
        # Only for tests that must replay the same game (a killed seat against an
        # uninterrupted run): permutations and beacon values from a seed. Never at a
        # real table: whoever knows the seed knows every card.
        self.test_seed = test_seed
        self.seat = seat
        self.num_seats = num_seats
        self._encryption_key = encryption_key
        self.encryption_keys = list(encryption_keys)
        self.card_points = card_points
        self.cards: list[Card] = []
        self.ops: list[_Op] = []
        self._shuffle_secrets: dict[int, ShuffleSecrets] = {}
        self._beacon_secrets: dict[int, bytes] = {}
        self._sent: set[tuple[int, str]] = set()
        self._early: list[tuple[int, Body, int, int | None]] = []  # sender, message, size, tag
        self._early_load = [(0, 0)] * num_seats  # per seat: messages and bytes waiting
        self.failed: RemoteProtocolError | None = None
        self.failed_tag: int | None = None  # the caller's tag of the message that failed
        self.accepted_tags: set[int] = set()
        self.disclosed: dict[int, SecretsReveal] = {}  # every seat's secrets, once revealed
        self._disclosing = False
        self._announced: dict[int, bool] = {}
        self._open: list[int] = []  # steps of operations not yet done
        self._seen_points: dict[Point, int] = {}  # physical card -> card index it was seen in
        # Every operation started (sender -1) and every message accepted, in order:
        # the evidence `audit` re-checks.
        self.log: list[tuple[int, Body | OpStart]] = []
        # Secrets kept from before a crash, by step: a resumed seat must redo its
        # operations with the very secrets it committed to.
        self._saved_secrets = dict(saved_secrets or {})
        self.secret_log: list[tuple[int, ShuffleSecrets | bytes]] = []  # ours, in order made

    # ------------------------------------------------------------ operations

    def shuffle(self, points: Sequence[Point]) -> int:
        """Start shuffling public `points`; returns its step. Cards appear when it is done."""
        return self._start_shuffle(tuple(points), len(points), None, ())

    def shuffle_own_deck(
        self, owner: int, size: int, deck: Sequence[Point] = (), replacing: Sequence[int] = ()
    ) -> int:
        """Start shuffling `owner`'s own deck of `size` cards; only the owner passes `deck`.

        The owner commits to its decklist with its other secrets and masks first, so
        the others see only masked cards: they learn the decklist only as cards are
        shown, and the audit checks it against the commitment at the end. A re-deal
        (a searched or shuffled deck) names the locked cards it `replacing`: the audit
        checks the owner committed to those very cards.
        """
        if (owner == self.seat) != bool(deck) or (deck and len(deck) != size):
            raise LocalProtocolError("only the owner gives its deck, of the announced size")
        if replacing and len(replacing) != size:
            raise LocalProtocolError(f"a re-deal of {size} cards replaces {len(replacing)}")
        return self._start_shuffle((), size, owner, tuple(deck), tuple(replacing))

    def _start_shuffle(
        self,
        points: tuple[Point, ...],
        size: int,
        owner: int | None,
        deck: tuple[Point, ...],
        replacing: tuple[int, ...] = (),
    ) -> int:
        self._check_usable()
        if not all(0 <= c < len(self.cards) for c in replacing):
            raise LocalProtocolError(f"a re-deal replaces cards that do not exist: {replacing}")
        step = len(self.ops)
        self.ops.append(_Shuffle(step, size, piles=[points], owner=owner))
        self._open.append(step)
        seat = -1 if owner is None else owner
        start = OpStart(step, "shuffle", points=points, seat=seat, cards=replacing)
        self.log.append((-1, start))
        kept = self._saved_secrets.pop(step, None)
        if isinstance(kept, ShuffleSecrets):
            secret = kept
        else:
            secret = ShuffleSecrets.random(size, deck, self._test_random(step))
        self._shuffle_secrets[step] = secret
        self.secret_log.append((step, secret))
        self._replay_early()
        return step

    def reveal(self, card: int, viewers: Iterable[int]) -> int:
        """Start revealing card `card` to `viewers`; returns its step."""
        self._check_usable()
        if not 0 <= card < len(self.cards):
            raise LocalProtocolError(f"no card {card}")
        step = len(self.ops)
        seen_by = frozenset(viewers)
        op = _Reveal(step, card, seen_by, self._plan_reveal(card, seen_by))
        self.ops.append(op)
        self._open.append(step)
        self.log.append((-1, OpStart(step, "reveal", card=card, viewers=tuple(sorted(seen_by)))))
        self._replay_early()
        try:
            self._settle_reveal(op)
        except RemoteProtocolError as exc:
            self.failed = exc
            raise
        return step

    def beacon(self, bound: int) -> int:
        """Start drawing a shared random integer in [0, bound); returns its step."""
        self._check_usable()
        step = len(self.ops)
        self.ops.append(_Beacon(step, bound))
        self._open.append(step)
        self.log.append((-1, OpStart(step, "beacon", bound=bound)))
        kept = self._saved_secrets.pop(step, None)
        seeded = self._test_random(step)
        fresh = seeded.randbytes(32) if seeded is not None else secrets.token_bytes(32)
        value = kept if isinstance(kept, bytes) else fresh
        self._beacon_secrets[step] = value
        self.secret_log.append((step, value))
        self._replay_early()
        return step

    def relock(self, owner: int, cards: Sequence[int], order: Sequence[int] | None = None) -> int:
        """Start `owner`'s private reorder of `cards` (top first), which it has seen; returns
        its step. Only the owner gives the `order`: new place i gets old card order[i]."""
        self._check_usable()
        picked = tuple(cards)
        if (owner == self.seat) != (order is not None):
            raise LocalProtocolError("only the owner gives the order it puts its cards back in")
        if not 0 <= owner < self.num_seats or not all(0 <= c < len(self.cards) for c in picked):
            raise LocalProtocolError(f"seat {owner} cannot relock cards {picked}")
        if order is not None:
            if sorted(order) != list(range(len(picked))):
                raise LocalProtocolError(f"{list(order)} is no order of {len(picked)} cards")
            if any(self.cards[c].point is None for c in picked):
                raise LocalProtocolError("a seat relocks only cards it has seen")
        step = len(self.ops)
        self.ops.append(_Relock(step, owner, picked))
        self._open.append(step)
        self.log.append((-1, OpStart(step, "relock", seat=owner, cards=picked)))
        if order is not None:
            kept = self._saved_secrets.pop(step, None)
            secret = kept if isinstance(kept, ShuffleSecrets) else ShuffleSecrets.in_order(order)
            self._shuffle_secrets[step] = secret
            self.secret_log.append((step, secret))
        self._replay_early()
        return step

    def announce(self, seat: int, payload: dict[str, Any] | None = None) -> int:
        """Start waiting for `seat`'s announcement (ours: pass the payload); returns its step."""
        if (seat == self.seat) != (payload is not None):
            raise LocalProtocolError("only the announcing seat gives the payload")
        self._check_usable()
        step = len(self.ops)
        self.ops.append(_Announce(step, seat, payload))
        self._open.append(step)
        self.log.append((-1, OpStart(step, "announce", seat=seat)))
        self._replay_early()
        return step

    def early_from_others(self, from_step: int) -> list[tuple[int, Body, int | None]]:
        """Messages of other seats waiting for an operation numbered `from_step` or later."""
        return [
            (sender, body, tag)
            for sender, body, _, tag in self._early
            if sender != self.seat and body.step >= from_step
        ]

    def leftovers(self) -> list[tuple[int, Body, int | None]]:
        """Messages still waiting when nothing more will start (the game is over): each
        fits no operation, so its sender sent something the game never asked for."""
        return [(sender, body, tag) for sender, body, _, tag in self._early]

    def is_announcement(self, step: int) -> bool:
        """Whether operation `step` waits for a seat's announced decision."""
        return 0 <= step < len(self.ops) and isinstance(self.ops[step], _Announce)

    def announcement(self, step: int) -> dict[str, Any]:
        """What the announcing seat said at `step` (once done)."""
        op = self.ops[step]
        assert isinstance(op, _Announce) and op.payload is not None
        return op.payload

    def disclose(self) -> int:
        """Start the disclosure: every seat reveals all its secrets, for the audit.

        Allowed in the error state too: after an abort, disclosing is what is left.
        It takes no operation number, and disclosures are taken whenever they come
        (`receive`): seats that stop on a fault stop at different operations, and a
        numbered disclosure would collide with a game message of a seat still playing.
        Returns `DISCLOSURE`, which `done` and `waiting_for` understand.
        """
        if not self._disclosing:
            self._disclosing = True
            self.log.append((-1, OpStart(DISCLOSURE, "disclose")))
        return DISCLOSURE

    def _check_usable(self) -> None:
        if self.failed is not None:
            raise LocalProtocolError(f"the table has stopped on a fault: {self.failed}")

    def _test_random(self, step: int) -> random.Random | None:
        if self.test_seed is None:
            return None
        return random.Random(f"p2pcards-test/{self.test_seed}/{self.seat}/{step}")

    def sealing_key_bytes(self) -> bytes:
        """Our sealing key for this table, for the save file (it is disclosed at the end anyway)."""
        return self._encryption_key.private_bytes_raw()

    def _secrets_reveal(self, step: int) -> SecretsReveal:
        shuffles = tuple(
            (
                at,
                sec.pile_mask.forward,
                sec.permutation,
                tuple(m.forward for m in sec.card_masks),
                sec.nonce,
                sec.deck,
            )
            for at, sec in sorted(self._shuffle_secrets.items())
        )
        return SecretsReveal(
            step,
            self._encryption_key.private_bytes_raw(),
            shuffles,
            tuple(sorted(self._beacon_secrets.items())),
        )

    def done(self, step: int) -> bool:
        """Whether operation `step` has finished on this peer."""
        if step == DISCLOSURE:
            return len(self.disclosed) == self.num_seats
        op = self.ops[step]
        if isinstance(op, _Shuffle | _Relock):
            return op.first_card >= 0
        if isinstance(op, _Reveal):
            return all(op.due.values())
        if isinstance(op, _Announce):
            return self._announced.get(op.step, False)
        return op.value is not None

    def waiting_for(self, step: int) -> set[int]:
        """The seats whose messages operation `step` still needs (to name a seat that stalls)."""
        everyone = set(range(self.num_seats))
        if step == DISCLOSURE:
            return everyone - set(self.disclosed)
        op = self.ops[step]
        if isinstance(op, _Shuffle):
            missing = everyone - set(op.commits)
            turn = op.turn(self.num_seats)
            return missing or (set() if turn is None else {turn[1]})
        if isinstance(op, _Reveal):
            return {sender for (sender, _), received in op.due.items() if not received}
        if isinstance(op, _Relock):
            return set() if op.first_card >= 0 else {op.owner}
        if isinstance(op, _Beacon):
            return (everyone - set(op.commits)) or (everyone - set(op.reveals))
        return set() if self._announced.get(op.step) else {op.seat}

    def shuffled_cards(self, step: int) -> list[int]:
        """The card indices a finished shuffle or relock produced, in pile order."""
        op = self.ops[step]
        assert isinstance(op, _Shuffle | _Relock) and op.first_card >= 0
        size = op.size if isinstance(op, _Shuffle) else len(op.cards)
        return list(range(op.first_card, op.first_card + size))

    def beacon_value(self, step: int) -> int:
        """The integer a finished beacon produced."""
        op = self.ops[step]
        assert isinstance(op, _Beacon) and op.value is not None
        return op.value

    def card_of(self, card: int) -> int | None:
        """The physical card (index into the card points) of a card this seat may see, else None."""
        point = self.cards[card].point
        return None if point is None else self.card_points.index_of(point)

    # ---------------------------------------------------------------- sending

    def outgoing(self) -> list[Body]:
        """The messages this seat owes now (each returned once)."""
        out: list[Body] = []
        # Only operations still open can owe anything; finished ones drop out, so a
        # long game costs the same per message at the end as at the start.
        self._open = [step for step in self._open if not self.done(step)]
        for step in self._open if self.failed is None else ():  # after a fault: secrets only
            op = self.ops[step]
            for body in self._owed(op):
                key = (op.step, _fingerprint(body))
                if key not in self._sent:
                    self._sent.add(key)
                    out.append(body)
        if self._disclosing and (DISCLOSURE, "secrets") not in self._sent:
            self._sent.add((DISCLOSURE, "secrets"))
            out.append(self._secrets_reveal(len(self.ops)))
        return out

    def _owed(self, op: _Op) -> list[Body]:
        me = self.seat
        if isinstance(op, _Announce):
            if op.seat == me and op.payload is not None and not self._announced.get(op.step):
                return [Announcement(op.step, op.payload)]
            return []
        if isinstance(op, _Relock):
            if op.owner != me or op.first_card >= 0:
                return []
            secret = self._shuffle_secrets[op.step]
            put_back = []
            for i, old in enumerate(secret.permutation):
                point = self.cards[op.cards[old]].point
                assert point is not None, "checked when the relock started"
                put_back.append(secret.card_masks[i].apply(point))
            return [MaskedPile(op.step, 1, tuple(put_back))]
        if isinstance(op, _Shuffle):
            secret = self._shuffle_secrets[op.step]
            owed: list[Body] = []
            if me not in op.commits:
                owed.append(
                    Commit(op.step, commitment(self.table_id, me, op.step, secret.committed()))
                )
            turn = op.turn(self.num_seats)
            if turn is not None and turn[1] == me and len(op.commits) == self.num_seats:
                phase, _ = turn
                work = mask_and_permute if phase == 1 else remask
                pile = secret.deck if len(op.piles) == 1 and op.owner == me else op.piles[-1]
                owed.append(MaskedPile(op.step, phase, work(pile, secret)))
            return owed
        if isinstance(op, _Reveal):
            owed = []
            for (sender, reader), received in op.due.items():
                if sender == me and not received:
                    key = self._own_key(op.card)
                    if reader < 0:
                        owed.append(KeyShare(op.step, op.card, key))
                    else:
                        owed.append(
                            SealedKey(
                                op.step, op.card, reader, self._seal(op.step, op.card, reader, key)
                            )
                        )
            return owed
        value = self._beacon_secrets[op.step]
        if me not in op.commits:
            return [Commit(op.step, commitment(self.table_id, me, op.step, value))]
        if len(op.commits) == self.num_seats and me not in op.reveals:
            return [BeaconReveal(op.step, value)]
        return []

    def _own_key(self, card: int) -> bytes:
        step, index = self._card_origin(card)
        return self._shuffle_secrets[step].card_masks[index].forward

    def _card_origin(self, card: int) -> tuple[int, int]:
        """(shuffle step, position in that shuffle) of a card."""
        if not 0 <= card < len(self.cards):
            raise LocalProtocolError(f"card {card} comes from no finished shuffle")
        return self.cards[card].origin

    def _seal(self, step: int, card: int, reader: int, key: bytes) -> bytes:
        header = canonical(["sealed-key", step, card, self.seat, reader])
        return seal(
            self._encryption_key, self.encryption_keys[reader], self.table_id,
            self.seat, reader, step, key, header,
        )  # fmt: skip

    # -------------------------------------------------------------- receiving

    def receive(self, sender: int, body: Body, size: int = 0, tag: int | None = None) -> None:
        """Take a message another seat sent (or our own, echoed back in transcript order).

        `size` is its size on the wire: it counts against what the sender may have
        waiting ahead of the game. A message that proves wrong puts this peer in its
        error state (`failed`) and is raised, naming its sender. `tag` names the message
        for the caller: `accepted_tags` lists those taken, `failed_tag` the one that failed.
        """
        if not 0 <= sender < self.num_seats:
            raise RemoteProtocolError(None, f"message from a seat that does not exist: {sender}")
        if isinstance(body, SecretsReveal):
            self._take_disclosure(sender, body)
            return
        self._check_usable()
        try:
            self._take(sender, body, size, tag)
        except RemoteProtocolError as exc:
            self.failed = exc
            raise

    def _take(self, sender: int, body: Body, size: int, tag: int | None) -> None:
        if body.step >= len(self.ops) or not self._ready(self.ops[body.step], sender, body):
            # An operation this peer has not started yet, or a message that answers one
            # we have not received: over a mesh, messages from different seats can
            # overtake each other. It waits, within bounds; one that never fits stalls
            # the table, and the seat that owes the missing message is named.
            self._hold(sender, body, size, tag)
            return
        op = self.ops[body.step]
        try:
            self._accept(op, sender, body)
        except RemoteProtocolError:
            self.failed_tag = tag
            raise
        self.log.append((sender, body))
        if tag is not None:
            self.accepted_tags.add(tag)
        if isinstance(op, _Reveal):
            # Only now, with the key in the log: if the card unmasks to no card, the key
            # that completed it is part of the evidence the audit reads.
            self._settle_reveal(op)
        if self._early:
            self._replay_early()

    def _hold(self, sender: int, body: Body, size: int, tag: int | None) -> None:
        count, total = self._early_load[sender]
        problem = None
        if body.step > len(self.ops) + MAX_AHEAD:
            problem = f"sent a message for step {body.step}, far ahead of the game"
        elif count + 1 > MAX_EARLY or total + size > MAX_EARLY_BYTES:
            problem = (
                f"sent more than {MAX_EARLY} messages or {MAX_EARLY_BYTES} bytes ahead of the game"
            )
        if problem is not None:
            self.failed_tag = tag
            raise RemoteProtocolError(sender, problem)
        self._early_load[sender] = (count + 1, total + size)
        self._early.append((sender, body, size, tag))

    def _take_disclosure(self, sender: int, body: SecretsReveal) -> None:
        """A seat's secrets, whenever they come: at the end, or once it has stopped on a fault."""
        if sender in self.disclosed:
            raise RemoteProtocolError(sender, "disclosed its secrets twice", body.step)
        self.disclosed[sender] = body
        self.log.append((sender, body))

    def _ready(self, op: _Op, sender: int, body: Body) -> bool:
        """Whether everything `body` answers has arrived (it may still be wrong)."""
        if isinstance(op, _Shuffle) and isinstance(body, MaskedPile):
            # A pile answers all commitments and the turn before it.
            turn = op.turn(self.num_seats)
            return len(op.commits) == self.num_seats and (
                turn == (body.phase, sender) or turn is None
            )
        if isinstance(op, _Beacon) and isinstance(body, BeaconReveal):
            return len(op.commits) == self.num_seats
        return True

    def _replay_early(self) -> None:
        early, self._early = self._early, []
        self._early_load = [(0, 0)] * self.num_seats
        try:
            for sender, body, size, tag in early:
                self._take(sender, body, size, tag)
        except RemoteProtocolError as exc:
            self.failed = exc
            raise

    def _accept(self, op: _Op, sender: int, body: Body) -> None:
        if isinstance(op, _Shuffle):
            self._accept_shuffle(op, sender, body)
        elif isinstance(op, _Relock):
            self._accept_relock(op, sender, body)
        elif isinstance(op, _Reveal):
            self._accept_key(op, sender, body)
        elif isinstance(op, _Beacon):
            self._accept_beacon(op, sender, body)
        else:
            if (
                not isinstance(body, Announcement)
                or sender != op.seat
                or self._announced.get(op.step)
            ):
                raise RemoteProtocolError(
                    sender, "spoke when another seat was to announce", op.step
                )
            op.payload = body.payload
            self._announced[op.step] = True

    def _accept_shuffle(self, op: _Shuffle, sender: int, body: Body) -> None:
        if isinstance(body, Commit):
            if sender in op.commits:
                raise RemoteProtocolError(sender, "committed twice", op.step)
            op.commits[sender] = body.digest
            return
        if not isinstance(body, MaskedPile):
            raise RemoteProtocolError(
                sender, f"unexpected {type(body).__name__} in a shuffle", op.step
            )
        turn = op.turn(self.num_seats)
        if len(op.commits) < self.num_seats or turn != (body.phase, sender):
            raise RemoteProtocolError(sender, "sent a shuffle pile out of turn", op.step)
        if len(body.cards) != op.size:
            raise RemoteProtocolError(
                sender, f"pile of {len(body.cards)} cards, expected {op.size}", op.step
            )
        try:
            for p in body.cards:
                check_point(p)
        except BadPointError as exc:
            raise RemoteProtocolError(sender, f"bad point in shuffle: {exc}", op.step) from None
        if len(set(body.cards)) != op.size:
            raise RemoteProtocolError(sender, "the shuffled pile repeats a ciphertext", op.step)
        op.piles.append(body.cards)
        if op.turn(self.num_seats) is None:
            op.first_card = len(self.cards)
            everyone = tuple(range(self.num_seats))
            for i, cipher in enumerate(body.cards):
                holders = [{s} for s in everyone]
                self.cards.append(Card(cipher, holders, (op.step, i), op.step, everyone))
            own = self._shuffle_secrets[op.step]
            for i, mask in enumerate(own.card_masks):
                self.cards[op.first_card + i].keys[self.seat] = mask.forward

    def _accept_relock(self, op: _Relock, sender: int, body: Body) -> None:
        """The owner's cards put back: valid, distinct points, one per card it took. Whether
        each is a card it took is the audit's to check (the masks are secret until then)."""
        if not isinstance(body, MaskedPile) or sender != op.owner or op.first_card >= 0:
            raise RemoteProtocolError(sender, "sent a reordered pile nobody asked for", op.step)
        if len(body.cards) != len(op.cards) or len(set(body.cards)) != len(op.cards):
            raise RemoteProtocolError(
                sender,
                f"put back {len(set(body.cards))} distinct cards of {len(op.cards)}",
                op.step,
            )
        try:
            for p in body.cards:
                check_point(p)
        except BadPointError as exc:
            raise RemoteProtocolError(sender, f"bad point in its reorder: {exc}", op.step) from None
        family = self.cards[op.cards[0]].family if op.cards else op.step
        op.first_card = len(self.cards)
        secret = self._shuffle_secrets.get(op.step) if sender == self.seat else None
        for i, cipher in enumerate(body.cards):
            holders: list[set[int]] = [set() for _ in range(self.num_seats)]
            holders[sender] = {sender}
            card = Card(cipher, holders, (op.step, i), family, (sender,))
            if secret is not None:
                card.keys[sender] = secret.card_masks[i].forward
                card.point = self.cards[op.cards[secret.permutation[i]]].point
            self.cards.append(card)

    def _accept_key(self, op: _Reveal, sender: int, body: Body) -> None:
        # Everything is checked before anything is marked received: a wrong key must
        # not leave the reveal half-updated.
        card = self.cards[op.card]
        if isinstance(body, KeyShare):
            slot = (sender, -1)
        elif isinstance(body, SealedKey):
            slot = (sender, body.reader)
        else:
            raise RemoteProtocolError(
                sender, f"unexpected {type(body).__name__} in a reveal", op.step
            )
        if body.card != op.card or op.due.get(slot, True):
            raise RemoteProtocolError(sender, "sent a key nobody asked for", op.step)
        key = b""
        if isinstance(body, KeyShare):
            key = body.key
        elif body.reader == self.seat:
            header = canonical(["sealed-key", op.step, op.card, sender, self.seat])
            key = open_sealed(
                self._encryption_key, self.encryption_keys[sender], self.table_id,
                sender, self.seat, op.step, body.sealed, header,
            )  # fmt: skip
        if key:
            try:
                Mask.from_bytes(key)
            except BadPointError:
                raise RemoteProtocolError(
                    sender, "sent a key that is no valid mask", op.step
                ) from None
        op.due[slot] = True
        if key:
            card.keys[sender] = key
        card.holders[sender] |= set(range(self.num_seats)) if slot[1] < 0 else {slot[1]}

    def _settle_reveal(self, op: _Reveal) -> None:
        """Once every key is here, unmask the card (if this seat may see it) and check it."""
        card = self.cards[op.card]
        if card.point is not None or len(card.keys) < len(card.layers):
            return
        point: Point | None = None
        with contextlib.suppress(BadPointError):  # a low-order result: no card either
            point = unmask(card.cipher, [Mask.from_bytes(key) for key in card.keys.values()])
        if point is None or self.card_points.index_of(point) is None:
            raise RemoteProtocolError(
                None, f"card {op.card} unmasks to no card: a wrong key or ciphertext", op.step
            )
        first = self._seen_points.get(point)
        if first is not None and first != op.card and self._same_generation(first, op.card):
            raise RemoteProtocolError(
                None, f"card {op.card} is a duplicate of card {first}", op.step
            )
        self._seen_points[point] = op.card
        card.point = point

    def _same_generation(self, a: int, b: int) -> bool:
        return self.cards[a].family == self.cards[b].family

    def _accept_beacon(self, op: _Beacon, sender: int, body: Body) -> None:
        if isinstance(body, Commit):
            if sender in op.commits:
                raise RemoteProtocolError(sender, "committed twice", op.step)
            op.commits[sender] = body.digest
            return
        if not isinstance(body, BeaconReveal):
            raise RemoteProtocolError(
                sender, f"unexpected {type(body).__name__} in a beacon", op.step
            )
        if len(op.commits) < self.num_seats or sender in op.reveals:
            raise RemoteProtocolError(sender, "revealed a beacon value out of turn", op.step)
        if not opens(op.commits[sender], self.table_id, sender, op.step, body.value):
            raise RemoteProtocolError(
                sender, "beacon reveal does not match its commitment", op.step
            )
        op.reveals[sender] = body.value
        if len(op.reveals) == self.num_seats:
            seed = beacon.combine([op.reveals[s] for s in range(self.num_seats)])
            op.value = beacon.unbiased_below(op.bound, seed)

    # ------------------------------------------------------------- planning

    def _plan_reveal(self, card: int, viewers: frozenset[int]) -> dict[tuple[int, int], bool]:
        """Which seat sends its key to whom, so the viewers learn the card and nobody else does.

        A key goes public unless that would complete the key set of a seat that is
        neither a viewer nor already in the know; then it goes sealed to each viewer
        lacking it. Every peer computes the same plan from public knowledge.
        """
        c = self.cards[card]
        holders = [set(h) for h in c.holders]
        everyone = set(range(self.num_seats))
        knowers = {u for u in everyone if all(u in holders[s] for s in c.layers)}
        allowed = knowers | viewers
        due: dict[tuple[int, int], bool] = {}
        for s in c.layers:
            lacking = viewers - holders[s]
            if not lacking:
                continue
            trial = [set(h) for h in holders]
            trial[s] = everyone
            leaks = any(all(u in trial[t] for t in c.layers) for u in everyone - allowed)
            if leaks:
                for v in sorted(lacking):
                    due[(s, v)] = False
                    holders[s].add(v)
            else:
                due[(s, -1)] = False
                holders[s] = set(everyone)
        return due


def _fingerprint(body: Body) -> str:
    if isinstance(body, MaskedPile):
        return f"pile{body.phase}"
    if isinstance(body, SealedKey):
        return f"sealed{body.reader}"
    return type(body).__name__
