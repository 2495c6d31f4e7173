"""One seat at a table of peers, as a sans-I/O state machine.

A `TablePeer` holds its seat's replica of the game, its `MentalPeer` (secrets
and locked cards) and its `MentalDealer`, and follows the game: it takes
envelopes from the other seats (`receive`), asks for its own decisions
(`wants_action` / `act`) and leaves what it must send in `outbox`. The same
class serves any transport: asyncio over TLS on a LAN, or a list in a test.

After every step each peer sends the section digests of its replica; a seat
whose digests differ from ours is reported as a desync at once.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from p2pcards.engine import Action, Game, Sighting, State
from protocol import codec
from protocol.audit import Fault, audit
from protocol.errors import ProtocolError, RemoteProtocolError
from protocol.mental import MentalPeer, ShuffleSecrets
from protocol.mental_dealer import MentalDealer, card_points
from protocol.transcript import Envelope, Receiver, Sender


class DesyncError(ProtocolError):
    """Another replica's public state differs from ours after the same step."""

    def __init__(self, seat: int, step: int, ours: dict[str, str], theirs: dict[str, str]) -> None:
        names = ours.keys() | theirs.keys()
        self.sections = sorted(n for n in names if ours.get(n) != theirs.get(n))
        super().__init__(
            f"seat {seat}'s replica differs from ours after step {step} in: "
            + ", ".join(self.sections)
        )
        self.seat = seat
        self.step = step
        self.ours = ours
        self.theirs = theirs


class _NeedAction:
    """What the game flow yields when it waits for this seat's own decision."""


NEED_ACTION = _NeedAction()


@dataclass
class StepRecord:
    """One engine step as this seat applied it."""

    index: int
    action: Action
    digests: dict[str, str]
    sightings: tuple[Sighting, ...] = ()  # what the dealer opened for it, as this seat saw it


@dataclass
class TableKeys:
    """Everything a seat needs to know about keys: its own, and every seat's public ones."""

    signing: Ed25519PrivateKey
    sealing: X25519PrivateKey
    verify: Sequence[Ed25519PublicKey]
    seal: Sequence[X25519PublicKey]


@dataclass
class TableOutcome:
    """How the game ended for this seat."""

    returns: list[float]
    digest: str
    faults: list[Fault] = field(default_factory=list)


class TablePeer:
    """A seat's whole side of a networked game."""

    def __init__(
        self,
        game: Game,
        options: dict[str, Any],
        table_id: bytes,
        seat: int,
        keys: TableKeys,
        saved_secrets: dict[int, ShuffleSecrets | bytes] | None = None,
        test_seed: int | None = None,
    ) -> None:
        num_seats = len(keys.verify)
        self.keys = keys
        self.game = game
        self.seat = seat
        self.table_id = table_id
        self.replica: State = game.new_initial_state(num_seats, **options).observation(seat)
        points = card_points(game)
        self.mental = MentalPeer(
            table_id, seat, num_seats, keys.sealing, keys.seal, points, saved_secrets, test_seed
        )
        self.dealer = MentalDealer(self.mental, game, self.replica, points)
        self._sender = Sender(table_id, seat, keys.signing)
        self._receiver = Receiver(table_id, list(keys.verify))
        self.outbox: list[Envelope] = []
        self.transcript: list[Envelope] = []  # every envelope accepted, ours included
        self.sent: list[Envelope] = []  # ours, in sequence order: what a peer may ask again
        self._held: dict[tuple[int, int], bytes] = {}  # (seat, number) -> signature accepted
        self.steps: list[StepRecord] = []
        self._their_digests: dict[tuple[int, int], dict[str, str]] = {}
        self.outcome: TableOutcome | None = None
        # Called with the replica and each action just before it applies (e.g. to log moves).
        self.on_step: Callable[[State, Action], None] | None = None
        self._flow = self._game()
        self._waiting: int | _NeedAction | None = None
        self._pending_action: Action | None = None
        self._started = False

    # ------------------------------------------------------------- driving

    def start(self) -> None:
        """Begin: the first operations (the deck's shuffle) start and messages are owed."""
        self._started = True
        self._waiting = next(self._flow)
        self._advance()

    def wants_action(self) -> bool:
        """Whether the game waits for this seat's own decision (ask the agent or person)."""
        return self._waiting is NEED_ACTION

    def act(self, action: Action) -> None:
        """Give this seat's decision; it is checked, announced and then applied by everyone."""
        if not self.wants_action():
            raise ProtocolError("it is not this seat's decision")
        self.replica.verify_action(action)
        self._pending_action = action
        self._advance()

    def expects(self, seat: int) -> int:
        """How many of `seat`'s messages we hold: it should resend from this number."""
        return self._receiver.next_seq(seat)

    def receive(self, envelope: Envelope) -> None:
        """Take one envelope from another seat; one we already hold (resent) is dropped.

        A message under a number we already hold must be that very message (a resend);
        anything else there is a replay of another message, or a forgery.
        """
        key = (envelope.seat, envelope.seq)
        if key in self._held:
            if self._held[key] != envelope.signature:
                raise RemoteProtocolError(
                    envelope.seat,
                    f"another message under number {envelope.seq}: replayed or forged",
                )
            return
        body = self._receiver.accept(envelope)
        self._held[key] = envelope.signature
        self.transcript.append(envelope)
        if body.get("kind") == "digest":
            self._take_digest(envelope.seat, body)
        else:
            self.mental.receive(envelope.seat, codec.decode(body, envelope.seat))
        if self._started:
            self._advance()

    @classmethod
    def restore(
        cls,
        game: Game,
        options: dict[str, Any],
        table_id: bytes,
        seat: int,
        keys: TableKeys,
        saved_secrets: dict[int, ShuffleSecrets | bytes],
        transcript: list[Envelope],
        test_seed: int | None = None,
    ) -> TablePeer:
        """Rebuild a seat after a crash by playing its saved transcript through again.

        The other seats' messages are fed in the order they first arrived; our own
        are made again from the same secrets and the same decisions (read from our
        saved announcements), and must come out identical, signatures included.
        """
        peer = cls(game, options, table_id, seat, keys, saved_secrets, test_seed)
        ours = [e for e in transcript if e.seat == seat]
        decisions = [
            game.action_from_json(e.body["payload"]["action"])
            for e in ours
            if e.body.get("kind") == "announce"
        ]
        peer.start()
        for envelope in transcript:
            while peer.wants_action() and decisions:
                peer.act(decisions.pop(0))
            if envelope.seat != seat:
                peer.receive(envelope)
        while peer.wants_action() and decisions:
            peer.act(decisions.pop(0))
        # Compare signatures, not bodies: a body read back from msgpack has lists where
        # ours has tuples, but Ed25519 is deterministic over the canonical bytes.
        again = [(e.seq, e.signature) for e in peer.sent[: len(ours)]]
        if again != [(e.seq, e.signature) for e in ours]:
            raise ProtocolError("replaying the saved game did not give back our own messages")
        peer.outbox.clear()  # sent before the crash; peers ask again for what they lack
        return peer

    @property
    def started(self) -> bool:
        """Whether `start()` (or `restore`) has run."""
        return self._started

    @property
    def finished(self) -> bool:
        """Whether the game, the disclosure and the audit are over."""
        return self.outcome is not None

    # --------------------------------------------------------------- inside

    def _advance(self) -> None:
        """Run the game flow as far as it goes; queue what we owe."""
        while True:
            self._flush()
            waiting = self._waiting
            if waiting is None:
                return  # finished
            if waiting is NEED_ACTION:
                if self._pending_action is None:
                    return
                action, self._pending_action = self._pending_action, None
                self._resume(action)
                continue
            assert isinstance(waiting, int)
            if not self.mental.done(waiting):
                return
            self._resume(None)

    def _resume(self, value: Action | None) -> None:
        try:
            self._waiting = self._flow.send(value)
        except StopIteration:
            self._waiting = None

    def _flush(self) -> None:
        """Sign what the mental peer owes; take our own messages in first, in order."""
        while True:
            bodies = self.mental.outgoing()
            if not bodies:
                return
            for body in bodies:
                self._send(codec.encode(body))
                self.mental.receive(self.seat, body)

    def _send(self, body: dict[str, Any]) -> None:
        envelope = self._sender.wrap(body)
        self._receiver.accept(envelope)  # keeps our own chain in the receiver, like anyone's
        self.transcript.append(envelope)
        self.sent.append(envelope)
        self.outbox.append(envelope)

    def _game(self) -> Generator[int | _NeedAction, Action | None, None]:
        replica = self.replica
        yield from self.dealer.setup()
        while not replica.is_terminal():
            if replica.is_chance_node():
                action = yield from self.dealer.chance()
            else:
                own: Action | None = None
                if replica.current_player() == self.seat:
                    own = yield NEED_ACTION
                action = yield from self.dealer.decide(own)
            if self.on_step is not None:
                self.on_step(replica, action)
            replica.apply_action(action)
            self._record(action, tuple(self.dealer.last_sightings))
        yield from self.dealer.disclose()
        verdict = audit(
            self.mental.log, self.table_id, self.mental.num_seats, self.mental.encryption_keys
        )
        self.outcome = TableOutcome(replica.returns(), replica.public_digest(), verdict)

    def _record(self, action: Action, sightings: tuple[Sighting, ...]) -> None:
        index = len(self.steps)
        digests = self.replica.section_digests()
        self.steps.append(StepRecord(index, action, digests, sightings))
        self._send({"kind": "digest", "step": index, "sections": digests})
        for (seat, step), theirs in list(self._their_digests.items()):
            if step == index:
                self._compare(seat, step, theirs)

    def _take_digest(self, seat: int, body: dict[str, Any]) -> None:
        step, sections = body.get("step"), body.get("sections")
        if not isinstance(step, int) or not isinstance(sections, dict):
            raise RemoteProtocolError(seat, "malformed digest message")
        if seat == self.seat:
            return
        self._their_digests[(seat, step)] = sections
        if step < len(self.steps):
            self._compare(seat, step, sections)

    def _compare(self, seat: int, step: int, theirs: dict[str, str]) -> None:
        ours = self.steps[step].digests
        del self._their_digests[(seat, step)]
        if ours != theirs:
            raise DesyncError(seat, step, ours, theirs)

    def desync_report(self, error: DesyncError) -> dict[str, Any]:
        """What a person needs to find a desync: both digests by section, and every step."""
        return {
            "table": self.table_id.hex(),
            "game": self.game.name,
            "seat": self.seat,
            "other_seat": error.seat,
            "step": error.step,
            "sections_that_differ": error.sections,
            "our_digests": error.ours,
            "their_digests": error.theirs,
            "steps": [
                {"index": r.index, "action": r.action.to_json(), "digests": r.digests}
                for r in self.steps
            ],
            "final_state": self.replica.to_json(),
        }
