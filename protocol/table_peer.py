"""One seat at a table of peers, as a sans-I/O state machine.

A `TablePeer` holds its seat's replica of the game, its `MentalPeer` (secrets
and locked cards) and its `MentalDealer`, and follows the game: it takes
envelopes from the other seats (`receive`), asks for its own decisions
(`wants_action` / `act`) and leaves what it must send in `outbox`. The same
class serves any transport: asyncio over TLS on a LAN, or lists in a test.

It never raises for what another seat did. A fault stops the table:

1. the seat that finds it *accuses* (an `abort` message naming the seat, the
   kind of fault and the signed messages that show it), then discloses its
   secrets; every seat that hears an abort checks the evidence against what it
   holds, and discloses too;
2. once every seat still at the table has disclosed, each seat judges: its own
   findings, the audit of every shuffle and key against the disclosed secrets,
   and every other seat's accusation, which it confirms, finds false (and then
   names the accuser), or reports as something it could not check.

So every honest seat names the same cheater from evidence a third party can
check (the signed transcript), and nobody honest is blamed. Phases:
playing → stopping (disclosing, after the game's end or a fault) → finished.

Every message carries a `Sync` (see `table_messages`): each receiver checks at
once that the sender's replica is where its own was after the same step, and
that both hold the same messages of every seat.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from p2pcards.decks import OwnDecksGame
from p2pcards.digest import combined_digest
from p2pcards.engine import Action, Game, Sighting, State, forfeit_returns
from p2pcards.errors import P2PCardsError
from protocol import codec
from protocol.audit import Fault, FaultKind, audit
from protocol.errors import LocalProtocolError, ProtocolError, RemoteProtocolError
from protocol.mental import Body, MentalPeer, SecretsReveal, ShuffleSecrets
from protocol.mental_dealer import MentalDealer, card_points, deck_audit, own_decklist
from protocol.roster import TableSetupError
from protocol.table_messages import (
    Abort,
    Cause,
    Sync,
    back_body,
    compact_state,
    differing_sections,
    judged_body,
    leave_body,
    leave_reason,
)
from protocol.transcript import BrokenChain, Envelope, Receiver, Sender
from protocol.wire import WireError

Phase = Literal["playing", "stopping", "finished"]
# "abandoned": a seat went silent past the timeout without a signed leave. Nobody can show
# the others why (it may be the network between us), so nobody wins: two sides of a split
# table must not each name themselves the winner. "undecided": this seat cannot know what
# the others concluded (it left, or stopped waiting after its `judged`, and a seat it did
# not hear to the end may have given up on it): it names no result rather than another one.
Ended = Literal["finished", "aborted", "forfeit", "abandoned", "undecided"]

MAX_ACCUSATIONS = 8  # of our own; past that a flood of faults adds nothing
MAX_TABLE_MESSAGES = 16  # leave and abort messages one seat may send in a game
MAX_PENDING_EVIDENCE = 8  # messages passed on as evidence, ahead of a seat's chain
MAX_AFTER_STOP = 256  # messages one seat may send once the table has stopped


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

    signing: Ed25519PrivateKey | None  # None: a saved table re-checked, not played on
    sealing: X25519PrivateKey
    verify: Sequence[Ed25519PublicKey]
    seal: Sequence[X25519PublicKey]


@dataclass(frozen=True, slots=True)
class Accusation:
    """One seat's claim that the table stopped because of `seat` (None: not known yet)."""

    by: int
    seat: int | None
    cause: Cause
    reason: str
    step: int = -1
    evidence: tuple[Envelope, ...] = ()
    carrier: Envelope | None = None  # the accuser's abort, as signed (ours too)
    late: bool = False  # made after its maker said `judged`: some seats judge without it


class GiveUp(NamedTuple):
    """A weighed `gone` accusation, as every seat holding it reads it from signed messages."""

    by: int
    seat: int
    held: int  # how many of `seat`'s messages its maker held when it gave up (its sync)
    seq: int  # the give-up's own number in its maker's chain
    on_leave: bool  # `seat`'s last message its maker held was its signed leave
    cuts: bool  # on a leave, by a seat that had not left itself: see `_weighed`


class Taken(NamedTuple):
    """An envelope a seat took, in order: accepted, or refused (its seat was accused)."""

    envelope: Envelope
    refused: bool


@dataclass(frozen=True, slots=True)
class Desync:
    """Another replica's public state differs from ours after the same step."""

    seat: int
    step: int
    sections: list[str]
    ours: dict[str, str]
    theirs: str  # the short digests it sent, hex


@dataclass(frozen=True, slots=True)
class TableEvent:
    """Something the people at the table should hear about at once."""

    kind: Literal["left", "back", "stopped"]
    seat: int
    text: str


@dataclass
class TableOutcome:
    """How the game ended for this seat."""

    returns: list[float]
    digest: str
    faults: list[Fault] = field(default_factory=list)
    ended: Ended = "finished"
    notes: list[str] = field(default_factory=list)  # others' claims this seat could not check
    desync: Desync | None = None

    @property
    def cheaters(self) -> list[int]:
        """The seats named for cheating."""
        return sorted({f.seat for f in self.faults if f.kind == "cheat"})


def seat_replica(
    game: Game, num_seats: int, options: dict[str, Any], seat: int, deck: Mapping[str, int] | None
) -> State:
    """Our replica at a table. In a game of own decks it is made knowing our deck alone: the
    others' decklists never reach us, only the cards they show."""
    if not isinstance(game, OwnDecksGame):
        if deck is not None:
            raise TableSetupError(f"{game.name} is played with one shared deck: no own deck")
        return game.new_initial_state(num_seats, **options).observation(seat)
    ours = deck if deck is not None else game.default_deck(seat)
    decks = [ours if s == seat else None for s in range(num_seats)]
    return game.new_initial_state(num_seats, **{**options, "decks": decks}).observation(seat)


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
        deck: Mapping[str, int] | None = None,
        judged_round: bool = True,
    ) -> None:
        """`deck`: our own deck, in a game of own decks (default: the game's for our seat).
        `judged_round`: judge only once every seat has said `judged` (off: a table saved
        before that round, replayed as it was played)."""
        num_seats = len(keys.verify)
        self.num_seats = num_seats
        self.keys = keys
        self.game = game
        self.seat = seat
        self.table_id = table_id
        self.options = options
        self.deck = deck
        self.replica: State = self.fresh_replica()
        points = card_points(game)
        self.mental = MentalPeer(
            table_id, seat, num_seats, keys.sealing, keys.seal, points, saved_secrets, test_seed
        )
        self.dealer = MentalDealer(self.mental, game, self.replica, points)
        self._sender = Sender(table_id, seat, keys.signing)
        self._receiver = Receiver(table_id, list(keys.verify))
        self.outbox: list[Envelope] = []  # ours, to go to every other seat, in order
        self.transcript: list[Envelope] = []  # every envelope accepted, ours included
        # What this seat took, in order: every envelope accepted, ours included, and those
        # it refused and accused their seat for. Its save file holds this; restore replays it.
        self.record: list[Taken] = []
        self.sent: list[Envelope] = []  # ours, in sequence order: what a peer may ask again
        self.decisions: list[Action] = []  # ours, in order: a resumed seat makes them again
        self._held: dict[tuple[int, int], int] = {}  # (seat, number) -> index in transcript
        self.steps: list[StepRecord] = []
        self._first_digests = self.replica.section_digests()
        self._states: list[bytes] = [compact_state(self._first_digests)]
        self._state_claims: dict[int, tuple[int, bytes, Envelope]] = {}
        self._ack_claims: dict[tuple[int, int], tuple[int, bytes, Envelope]] = {}
        self._disputes: list[tuple[int, int]] = []  # (claimer, seat): chains that differ
        self._pending_evidence: dict[int, dict[int, Envelope]] = {}
        self._op_envelope: dict[tuple[int, int], Envelope] = {}  # (seat, op) -> its message
        self._table_messages = [0] * num_seats
        self._after_stop = [0] * num_seats
        self.accusations: list[Accusation] = []
        self.gone: dict[int, str] = {}  # seats given up on, and why
        self.left: dict[int, str] = {}  # seats that said they are leaving, and why
        self.has_left = False  # our own leave stands: we say `back` when we come back
        self._first_leave: dict[int, int] = {}  # seat -> the number of its first signed leave
        self.judged_round = judged_round
        self._judged: set[int] = set()  # seats that said `judged` (ourselves included)
        self._judged_steps: dict[int, int] = {}  # seat -> steps its replica had at its `judged`
        # seat -> how many of each seat's messages it held at its `judged`
        self._judged_acks: dict[int, tuple[int, ...]] = {}
        self.events: list[TableEvent] = []
        self.phase: Phase = "playing"
        self.stop_reason: str | None = None
        self.desync: Desync | None = None
        self.outcome: TableOutcome | None = None
        # Called with the replica and each action just before it applies (e.g. to log moves).
        self.on_step: Callable[[State, Action], None] | None = None
        self._flow = self._game()
        self._flow_alive = True
        self._flow_op = -1  # the last mental-poker operation the game flow waited for
        self._waiting: int | _NeedAction | None = None
        self._pending_action: Action | None = None
        self._started = False

    # ------------------------------------------------------------- driving

    def start(self) -> None:
        """Begin: the first operations (the deck's shuffle) start and messages are owed."""
        self._started = True
        self._resume(None, first=True)
        self._advance()

    def wants_action(self) -> bool:
        """Whether the game waits for this seat's own decision (ask the agent or person)."""
        return self.phase == "playing" and self._waiting is NEED_ACTION

    def act(self, action: Action) -> None:
        """Give this seat's decision; it is checked, announced and then applied by everyone."""
        if not self.wants_action():
            raise LocalProtocolError("it is not this seat's decision")
        self.replica.verify_action(action)
        self._pending_action = action
        self.decisions.append(action)
        self._advance()

    def leave(self, reason: str = "left the table") -> None:
        """Tell every seat we are going (we may come back with our save file)."""
        if self.phase == "playing":
            envelope = self._send_body(leave_body(reason))
            self._first_leave.setdefault(self.seat, envelope.seq)
            self.has_left = True

    def come_back(self) -> None:
        """Tell every seat our leave no longer stands (a resumed seat, once reconnected):
        signed, so that nobody can show a forfeit of ours after it."""
        if self.phase == "playing" and self.has_left:
            self._send_body(back_body())
            self.has_left = False
            if self._started:
                self._advance()  # what we held back while away goes out now

    def give_up(self, seats: Sequence[int], reason: str, show_leave: bool = True) -> None:
        """Stop waiting for `seats` (left or silent past the timeout): the others disclose
        and audit without them. A seat whose signed leave is the last word of it we hold
        forfeits, and that leave goes with our give-up so that every seat can check it
        (`show_leave` off: a save of before that, replayed as it was made)."""
        for seat in seats:
            if seat == self.seat or seat in self.gone or self.phase == "finished":
                continue
            self.gone[seat] = reason
            leave = self._standing_leave(seat) if show_leave else None
            evidence = () if leave is None else (leave,)
            packed = tuple(e.packed for e in evidence)
            late = self.seat in self._judged
            envelope = self._send_body(Abort(seat, "gone", reason, packed).to_wire())
            self.accusations.append(
                Accusation(self.seat, seat, "gone", reason, -1, evidence, envelope, late)
            )
            self._stop(f"seat {seat} {reason}")
        self._maybe_finish()

    def _standing_leave(self, seat: int) -> Envelope | None:
        """`seat`'s signed leave, if it is the last message of it we hold."""
        count = self._receiver.next_seq(seat)
        index = self._held.get((seat, count - 1))
        if index is None or self._first_leave.get(seat, count) >= count:
            return None
        last = self.transcript[index]
        return last if last.message.get("kind") == "leave" else None

    def expects(self, seat: int) -> int:
        """How many of `seat`'s messages we hold: it should resend from this number."""
        return self._receiver.next_seq(seat)

    def waiting_for(self) -> set[int]:
        """The seats whose messages the table waits for now (to say who is silent)."""
        if self.phase == "playing":
            if isinstance(self._waiting, int) and self.mental.failed is None:
                return self.mental.waiting_for(self._waiting) - {self.seat}
            return set()
        if self.phase == "stopping":
            return self._undisclosed() or self._unjudged()
        return set()

    def waiting_on_decision(self) -> bool:
        """Whether the table waits for another seat's decision (a person may be thinking),
        rather than for shares that come without thought (keys, commitments, secrets)."""
        if self.phase != "playing" or not isinstance(self._waiting, int) or self._waiting < 0:
            return False
        return self.mental.is_announcement(self._waiting)

    @property
    def started(self) -> bool:
        """Whether `start()` (or `restore`) has run."""
        return self._started

    @property
    def finished(self) -> bool:
        """Whether the game (or its abort), the disclosure and the verdict are over."""
        return self.outcome is not None

    # ------------------------------------------------------------ receiving

    def receive(self, envelope: Envelope) -> None:
        """Take one envelope of another seat's; one we already hold (resent) is dropped.

        Never raises for what a peer sent: a fault is an accusation, and stops the table.
        """
        seat = envelope.seat
        if self.phase == "finished" or seat == self.seat or not 0 <= seat < self.num_seats:
            return
        index = self._held.get((seat, envelope.seq))
        if index is not None:
            held = self.transcript[index]
            if held != envelope:
                self._refused(envelope)
                self._conflict(held, envelope)
            return
        if self.phase != "playing":
            # After a stop only the disclosures and the evidence matter: a seat that keeps
            # talking past that is cut off, not stored without end.
            self._after_stop[seat] += 1
            if self._after_stop[seat] > MAX_AFTER_STOP:
                return
        try:
            message = self._receiver.accept(envelope)
        except BrokenChain:
            self._refused(envelope)
            if envelope.seq == 0:
                self._accuse(seat, "message", "its first message chains to another",
                             evidence=(envelope,))  # fmt: skip
                return
            before = self.transcript[self._held[(seat, envelope.seq - 1)]]
            self._accuse(
                seat, "equivocation",
                f"signed message {envelope.seq} after another message {envelope.seq - 1} "
                "than the one it sent us", evidence=(before, envelope),
            )  # fmt: skip
            return
        except WireError as exc:  # signed, but its body is no message: provable
            self._refused(envelope)
            self._accuse(seat, "message", exc.reason, evidence=(envelope,))
            return
        except RemoteProtocolError as exc:  # a bad signature or a gap: only our link saw it
            if not any(a.by == self.seat and a.seat == seat for a in self.accusations):
                self._refused(envelope)
                # What the link delivered goes with it: the others cannot see who made it,
                # but they can see whether it was in fact the seat's next message.
                self._accuse(seat, "link", exc.reason, evidence=(envelope,))
            # Past its first fault, a seat's chain is broken here: what follows cannot fit,
            # and says nothing new.
            return
        self._held[(seat, envelope.seq)] = len(self.transcript)
        self.transcript.append(envelope)
        self.record.append(Taken(envelope, refused=False))
        # Claims about this seat's chain first: the step its message completes may be one a
        # replica claim waits at, and that claim is compared only once its acks are checked.
        self._check_ack_claims(seat)
        self._take(envelope, message, len(self.transcript) - 1)
        self._feed_evidence(seat)
        if self._started:
            self._advance()

    def _refused(self, envelope: Envelope) -> None:
        """Keep, in the order it came, a message we refused and accused its seat for: a seat
        rebuilt from its record must refuse it again at the same point, to say the same."""
        if sum(1 for a in self.accusations if a.by == self.seat) < MAX_ACCUSATIONS:
            self.record.append(Taken(envelope, refused=True))

    def _take(self, envelope: Envelope, message: dict[str, Any], index: int) -> None:
        seat = envelope.seat
        kind = message["kind"]
        try:
            sync = Sync.from_wire(message.get("sync"), self.num_seats, seat)
            abort = Abort.from_wire(message, self.num_seats, seat) if kind == "abort" else None
            reason = leave_reason(message, seat) if kind == "leave" else ""
            table_message = kind in ("abort", "leave", "back", "judged")
            body = None if table_message else codec.decode(message, seat)
            if body is None:
                self._table_messages[seat] += 1
                if self._table_messages[seat] > MAX_TABLE_MESSAGES:
                    raise RemoteProtocolError(seat, "sent too many leave and abort messages")
        except RemoteProtocolError as exc:
            self._accuse(seat, "message", exc.reason, evidence=(envelope,))
            return
        self._check_sync(seat, sync, envelope)
        if abort is not None:
            self._take_abort(seat, abort, envelope)
            return
        if kind == "leave":
            self.left[seat] = reason
            self._first_leave.setdefault(seat, envelope.seq)
            self.events.append(TableEvent("left", seat, reason))
            return
        if kind == "back":
            if self.left.pop(seat, None) is not None:
                self.events.append(TableEvent("back", seat, "is back"))
            return
        if kind == "judged":
            self._judged.add(seat)
            self._judged_steps[seat] = sync.steps
            self._judged_acks[seat] = tuple(count for count, _ in sync.acks)
            return
        assert body is not None
        if seat in self.left and not isinstance(body, SecretsReveal):
            del self.left[seat]
            self.events.append(TableEvent("back", seat, "is back"))
        if isinstance(body, SecretsReveal):
            self._to_mental(seat, body, envelope, index)
        elif self.mental.failed is None and self._flow_alive:
            self._op_envelope[(seat, body.step)] = envelope
            self._to_mental(seat, body, envelope, index)

    def _to_mental(self, seat: int, body: Body, envelope: Envelope, index: int) -> None:
        try:
            self.mental.receive(seat, body, len(envelope.body), index)
        except RemoteProtocolError as exc:
            self._accuse_mental(exc)

    def _accuse_mental(self, exc: RemoteProtocolError) -> None:
        """A fault the mental layer found: the message that caused it is the evidence."""
        if exc.seat is None:
            self._accuse(None, "unmask", exc.reason, exc.step if exc.step is not None else -1)
            return
        tag = self.mental.failed_tag
        evidence: tuple[Envelope, ...] = ()
        if (
            tag is not None
            and 0 <= tag < len(self.transcript)
            and self.transcript[tag].seat == exc.seat
        ):
            evidence = (self.transcript[tag],)
        step = exc.step if exc.step is not None else -1
        self._accuse(exc.seat, "message", exc.reason, step, evidence)

    def _conflict(self, held: Envelope, other: Envelope) -> None:
        """Two envelopes under one seat's number: proof, if both are its signature."""
        try:
            self._receiver.verify(other)
        except RemoteProtocolError as exc:
            self._accuse(other.seat, "link", exc.reason, evidence=(other,))
            return
        self._accuse(
            other.seat, "equivocation",
            f"signed two different messages numbered {other.seq}", evidence=(held, other),
        )  # fmt: skip

    # ---------------------------------------------------------------- sync

    def _check_sync(self, seat: int, sync: Sync, envelope: Envelope) -> None:
        """Compare what `seat` says it holds and where its replica is with ours.

        A difference is an accusation, but the message is still taken: its sender's
        abort or disclosure is what settles whose the fault is.
        """
        agreed = True
        for other, (count, chain) in enumerate(sync.acks):
            if other == seat:
                continue
            held = self._receiver.next_seq(other)
            if count <= held:
                if self._receiver.chain_hash(other, count) != chain:
                    agreed = False
                    self._ack_mismatch(seat, other, count, envelope)
            elif other == self.seat:
                self._accuse(
                    seat, "message", "acknowledged messages of ours we never sent",
                    evidence=(envelope,),
                )  # fmt: skip
            else:
                self._ack_claims[(seat, other)] = (count, chain, envelope)
        if not agreed:
            return  # replicas fed different messages differ: that is not the replica's doing
        # Compared once we have reached its step and checked every acknowledgement that came
        # with it: one still ahead of us may show that it was fed another message than we
        # were (a seat told the two of us different things), and its replica then differs
        # through no fault of its own.
        self._state_claims[seat] = (sync.steps, sync.state, envelope)
        self._settle_state_claim(seat)

    def _settle_state_claim(self, seat: int) -> None:
        """Compare `seat`'s latest replica claim, if we can now."""
        claim = self._state_claims.get(seat)
        if claim is None or any(claimer == seat for claimer, _ in self._ack_claims):
            return
        steps, state, envelope = claim
        if steps < len(self._states):
            del self._state_claims[seat]
            self._compare_state(seat, steps, state, envelope)

    def _check_ack_claims(self, seat: int) -> None:
        """Claims about `seat`'s chain that we can check now that we hold more of it."""
        held = self._receiver.next_seq(seat)
        for (claimer, other), (count, chain, envelope) in list(self._ack_claims.items()):
            if other == seat and count <= held:
                del self._ack_claims[(claimer, other)]
                if self._receiver.chain_hash(seat, count) != chain:
                    self._state_claims.pop(claimer, None)  # fed another message: see above
                    self._ack_mismatch(claimer, seat, count, envelope)
                else:
                    self._settle_state_claim(claimer)

    def _ack_mismatch(self, claimer: int, seat: int, count: int, envelope: Envelope) -> None:
        """`claimer` holds other messages of `seat` than we do: `seat` told us two different
        things, or `claimer` says it holds what it does not. Our copy goes out as
        evidence: a seat holding another copy proves the first; if none is shown, the
        claimer is named."""
        if count == 0:
            self._accuse(claimer, "message", "acknowledged no messages with a made-up hash",
                         evidence=(envelope,))  # fmt: skip
            return
        if seat == self.seat:
            ours = self.sent[count - 1]
            self._accuse(
                claimer, "ack", f"acknowledged a message {count - 1} of ours that we never sent",
                evidence=(ours, envelope),
            )  # fmt: skip
            return
        self._disputes.append((claimer, seat))
        ours = self.transcript[self._held[(seat, count - 1)]]
        self._accuse(
            None, "ack", f"seat {claimer} and we hold different messages of seat {seat}",
            evidence=(ours, envelope),
        )  # fmt: skip

    def _compare_state(self, seat: int, steps: int, state: bytes, envelope: Envelope) -> None:
        if self._states[steps] == state:
            return
        ours = self.steps[steps - 1].digests if steps else self.replica.section_digests()
        sections = differing_sections(ours, state)
        if self.desync is None:  # the first is the report: later ones follow from it
            self.desync = Desync(seat, steps, sections, ours, state.hex())
        self._accuse(
            seat, "state",
            f"its replica after step {steps} differs from ours in: {', '.join(sections)}",
            evidence=(envelope,),
        )  # fmt: skip

    # -------------------------------------------------------------- aborts

    def _take_abort(self, sender: int, abort: Abort, envelope: Envelope) -> None:
        evidence = []
        for raw in abort.evidence:
            try:
                evidence.append(Envelope.unpack(raw))
            except RemoteProtocolError:
                self._accuse(sender, "message", "passed on evidence that is no signed message",
                             evidence=(envelope,))  # fmt: skip
        late = sender in self._judged
        accusation = Accusation(
            sender, abort.seat, abort.cause, abort.reason, -1, tuple(evidence), envelope, late
        )
        self.accusations.append(accusation)
        # A give-up after its maker's `judged` is weighed by nobody: we go on waiting.
        gone = abort.cause == "gone" and abort.seat is not None and not late
        if gone and abort.seat != self.seat:
            assert abort.seat is not None
            self.gone.setdefault(abort.seat, f"is gone ({abort.reason}, says seat {sender})")
        # Evidence first: a conflict it shows must go out before our disclosure does. A link
        # fault's evidence is what the accuser refused, bad signature and all: judged, not
        # taken (`_judge_link`).
        for item in evidence if abort.cause != "link" else ():
            self._take_evidence(sender, item, envelope)
        who = "" if abort.seat is None else f" (seat {abort.seat})"
        self.events.append(TableEvent("stopped", sender, f"{abort.reason}{who}"))
        self._stop(f"seat {sender} stopped the table: {abort.reason}")

    def _take_evidence(self, source: int, item: Envelope, carrier: Envelope) -> None:
        """A message another seat passed on: it may extend a chain, or conflict with it.

        One of ours is checked too, against what we sent: we know what we signed, so a
        message passed on as ours that is not is the passer's doing (we would otherwise
        be the one seat that cannot tell, and name nobody).
        """
        if not 0 <= item.seat < self.num_seats:
            return
        try:
            self._receiver.verify(item)
        except RemoteProtocolError:
            self._accuse(source, "message", "passed on a message with a bad signature",
                         evidence=(carrier,))  # fmt: skip
            return
        if item.seat == self.seat:
            if item.seq >= len(self.sent) or self.sent[item.seq] != item:
                self._accuse(source, "message", "passed on a message of ours we never sent",
                             evidence=(carrier,))  # fmt: skip
            return
        index = self._held.get((item.seat, item.seq))
        if index is not None:
            if self.transcript[index] != item:
                self._conflict(self.transcript[index], item)
            return
        if item.seq == self._receiver.next_seq(item.seat):
            self.receive(item)
        else:
            pending = self._pending_evidence.setdefault(item.seat, {})
            if len(pending) < MAX_PENDING_EVIDENCE:
                pending[item.seq] = item

    def _feed_evidence(self, seat: int) -> None:
        pending = self._pending_evidence.get(seat)
        if pending:
            item = pending.pop(self._receiver.next_seq(seat), None)
            if item is not None:
                self.receive(item)

    def _accuse(
        self, seat: int | None, cause: Cause, reason: str, step: int = -1,
        evidence: tuple[Envelope, ...] = (),
    ) -> None:  # fmt: skip
        """Our own finding: say it (with the evidence), then stop the table."""
        if self.phase == "finished":
            return
        ours = [a for a in self.accusations if a.by == self.seat]
        if len(ours) >= MAX_ACCUSATIONS or any(
            (a.seat, a.cause, a.reason) == (seat, cause, reason) for a in ours
        ):
            return
        late = self.seat in self._judged
        packed = tuple(e.packed for e in evidence)
        envelope = self._send_body(Abort(seat, cause, reason, packed).to_wire())
        self.accusations.append(
            Accusation(self.seat, seat, cause, reason, step, evidence, envelope, late)
        )
        who = "a seat" if seat is None else f"seat {seat}"
        self.events.append(TableEvent("stopped", self.seat, f"{who}: {reason}"))
        self._stop(f"{who}: {reason}")
        # Already stopping: the seat we accuse may be the last we waited for.
        self._maybe_finish()

    def _stop(self, reason: str | None) -> None:
        """Stop playing and disclose: at the game's end (`reason` None) or on a fault."""
        if self.phase != "playing":
            return
        self.phase = "stopping"
        self.stop_reason = reason
        self.mental.disclose()
        self._flush()
        self._maybe_finish()

    # --------------------------------------------------------------- verdict

    def _undisclosed(self) -> set[int]:
        accused = {a.seat for a in self.accusations if a.by == self.seat and a.seat is not None}
        return (
            set(range(self.num_seats))
            - set(self.mental.disclosed)
            - set(self.gone)
            - accused
            - {self.seat}
        )

    def _unjudged(self) -> set[int]:
        """Seats whose `judged` we wait for, once we have said ours."""
        if not self.judged_round or self.seat not in self._judged:
            return set()
        accused = {a.seat for a in self.accusations if a.by == self.seat and a.seat is not None}
        return set(range(self.num_seats)) - self._judged - set(self.gone) - accused

    def _maybe_finish(self) -> None:
        """Judge once every seat still at the table has disclosed and, after that, said it
        has made every accusation it will (`judged`): a seat's accusation that its own
        disclosure came before (a cheater's message still on its way when the table
        stopped) then still reaches every seat before it judges."""
        disclosed = self.seat in self.mental.disclosed
        if self.phase != "stopping" or not disclosed or self._undisclosed():
            return
        if self.judged_round and self.seat not in self._judged:
            self._judged.add(self.seat)
            self._judged_steps[self.seat] = len(self.steps)
            held = tuple(map(self._receiver.next_seq, range(self.num_seats)))
            self._judged_acks[self.seat] = held
            self._send_body(judged_body())
        if not self._unjudged():
            self._conclude()

    def _conclude(self) -> None:
        """Judge, from everything held: the audit, our findings and every accusation."""
        faults = audit(
            self.mental.log, self.table_id, self.num_seats, self.mental.encryption_keys,
            excused=set(self.gone) | {a.seat for a in self.accusations if a.seat is not None},
            own=self.seat, decks=deck_audit(self.game),
        )  # fmt: skip
        # Once a seat is known to have told seats different things, honest replicas may
        # differ through no fault of theirs: a desync then names nobody.
        equivocation = bool(self._disputes) or any(
            a.cause == "equivocation" for a in self.accusations
        )
        weighed, give_ups, notes = self._weighed()
        for accusation in weighed:
            if accusation.by == self.seat and accusation.seat is not None:
                if accusation.cause == "state" and equivocation:
                    continue
                kind: FaultKind = "cheat"
                if accusation.cause == "gone":
                    kind = "left" if self._left_for_good(accusation.seat, give_ups) else "silent"
                faults.append(Fault(accusation.seat, accusation.step, accusation.reason, kind))
        for accusation in weighed:
            if accusation.by != self.seat:
                fault, note = self._judge(accusation, {f.seat for f in faults if f.kind == "cheat"})
                if fault is not None:
                    faults.append(fault)
                if note:
                    notes.append(note)
        # A dispute names its claimer only once every weighed accusation is judged: the
        # other copy it stands on may be shown by another seat's evidence alone (our own
        # finding from it can come after our `judged`, too late to weigh).
        named = {f.seat for f in faults if f.kind == "cheat"}
        for claimer, seat in self._disputes:
            if seat not in named:
                faults.append(
                    Fault(claimer, -1, f"acknowledged messages of seat {seat} it never showed")
                )
        for seat, reason in self.gone.items():
            if not any(f.seat == seat for f in faults):
                kind = "left" if self._left_for_good(seat, give_ups) else "silent"
                faults.append(Fault(seat, -1, reason, kind))
        verdict = sorted(set(faults), key=lambda f: (f.step, f.seat, f.reason))
        cheaters = sorted({f.seat for f in verdict if f.kind == "cheat"})
        stopped = [a for a in weighed if a.cause != "gone"]
        undecided = self._undecided(give_ups) if self.judged_round else ""
        ended: Ended
        if undecided:
            ended = "undecided"
            notes.insert(0, f"undecided: {undecided}")
        elif stopped or cheaters:
            ended = "aborted"
        elif not self.judged_round:
            ended = self._gone_ending_before_judged()
        elif not give_ups:
            ended = "finished"
        else:
            ended = "forfeit" if all(g.on_leave for g in give_ups) else "abandoned"
        if ended == "finished":
            returns = self.replica.returns()
        elif ended == "forfeit":
            gone = {g.seat for g in give_ups} if self.judged_round else set(self.gone)
            returns = forfeit_returns(self.num_seats, sorted(gone))
        elif ended in ("abandoned", "undecided"):
            returns = [0.0] * self.num_seats
        else:
            returns = (
                forfeit_returns(self.num_seats, cheaters) if cheaters else [0.0] * self.num_seats
            )
        digest = self.replica.public_digest() if ended == "finished" else self._shared_digest()
        self.outcome = TableOutcome(returns, digest, verdict, ended, notes, self.desync)
        self.phase = "finished"

    def _shared_digest(self) -> str:
        """The public state every seat still at the table had reached when it judged: a
        seat that went may have sent its last move to some of us only, and the saves of
        one table should name one state, the one the history they all hold ends in."""
        present = set(range(self.num_seats)) - set(self.gone)
        steps = min([len(self.steps), *(n for s, n in self._judged_steps.items() if s in present)])
        return combined_digest(self.steps[steps - 1].digests if steps else self._first_digests)

    def _gone_ending_before_judged(self) -> Ended:
        """How a table saved before the `judged` round ended without its cheats, as it was
        judged then: forfeit if every seat given up on had left, else abandoned."""
        if not self.gone:
            return "finished"
        return "forfeit" if all(seat in self.left for seat in self.gone) else "abandoned"

    def _weighed(self) -> tuple[list[Accusation], list[GiveUp], list[str]]:
        """The accusations every seat weighs alike, the give-ups among them, and notes on
        the others.

        Weighed: those made before their maker's `judged`, which reach every seat before it
        judges (a seat that has not said it is waited for); one made after may reach a seat
        that has already judged. And none a seat made once it was given up on at its leave
        by a seat that had not left itself (from the number that give-up acknowledges on):
        whoever holds that give-up stopped waiting for the seat there, and so did the seat
        itself once it holds it (a seat that comes back late: its own give-ups on those it
        no longer finds are not the table's).
        """
        give_ups = self._give_ups() if self.judged_round else []
        cutters = [g for g in give_ups if g.cuts]

        def cut(accusation: Accusation) -> bool:
            at = accusation.carrier.seq if accusation.carrier is not None else -1
            return any(c.seat == accusation.by != c.by and c.held <= at for c in cutters)

        def said(a: Accusation, why: str) -> str:
            about = "" if a.seat is None else f"seat {a.seat}: "
            return f"seat {a.by} reported {about}{a.reason} ({why})"

        weighed, notes = [], []
        for a in self.accusations:
            if a.late:
                if a.cause != "gone":
                    notes.append(said(a, "after it had judged: too late for every seat to weigh"))
            elif cut(a):
                notes.append(said(a, "after a seat had given up on it: not weighed"))
            else:
                weighed.append(a)
        kept = {(a.by, a.carrier.seq) for a in weighed if a.carrier is not None}
        give_ups = [g for g in give_ups if (g.by, g.seq) in kept]
        # A seat given up on is waited for by nobody: its accusation may reach some seats
        # before they judge and others never. It counts only if every seat still present
        # held it when it judged, which each one's `judged` says: the same answer at every
        # seat. (Its give-ups are weighed by the rules above.)
        gone = {g.seat for g in give_ups}
        present = [s for s in self._judged_acks if s not in gone]
        unheard = [
            a for a in weighed
            if a.by in gone and a.cause != "gone" and a.carrier is not None
            and any(self._judged_acks[s][a.by] <= a.carrier.seq for s in present if s != a.by)
        ]  # fmt: skip
        for a in unheard:
            weighed.remove(a)
            why = "after a seat had given up on it, and not every seat heard it in time"
            notes.append(said(a, f"{why}: not weighed"))
        return weighed, give_ups, notes

    def _give_ups(self) -> list[GiveUp]:
        """Every `gone` accusation made before its maker's `judged`, read from its message:
        whether the seat's last message its maker held (its sync says how many) is the
        seat's signed leave (we hold it, or the give-up carries it)."""
        found = []
        for a in self.accusations:
            if a.cause != "gone" or a.late or a.seat is None or a.carrier is None:
                continue
            try:
                sync = Sync.from_wire(a.carrier.message.get("sync"), self.num_seats, a.by)
            except (RemoteProtocolError, WireError):
                continue
            count, chain = sync.acks[a.seat]
            index = self._held.get((a.seat, count - 1))
            held = [self.transcript[index]] if index is not None else []
            shown = [e for e in a.evidence if (e.seat, e.seq) == (a.seat, count - 1)]
            on_leave = any(
                e.digest(self.table_id) == chain and _kind(e) == "leave" and self._signed(e)
                for e in held + shown
            )
            first = self._first_leave.get(a.by)
            cuts = on_leave and (first is None or first > a.carrier.seq)
            found.append(GiveUp(a.by, a.seat, count, a.carrier.seq, on_leave, cuts))
        return found

    def _left_for_good(self, seat: int, give_ups: list[GiveUp]) -> bool:
        """Whether `seat` was given up on at its signed leave (else: it fell silent)."""
        if not self.judged_round:
            return seat in self.left
        on_it = [g for g in give_ups if g.seat == seat]
        return bool(on_it) and all(g.on_leave for g in on_it)

    def _undecided(self, give_ups: list[GiveUp]) -> str:
        """Why this seat cannot know the table's outcome ("": it can).

        A seat names an outcome only when every seat whose `judged` it lacks (and did not
        accuse) was given up on by a give-up every seat weighs, and, if it ever left itself,
        when none of those seats can have given up on it while its leave stood: a seat that
        heard it come back cannot, and a give-up on it we hold settles it (we forfeited, as
        the others say).
        Otherwise a seat we did not hear to the end may have ended the table on us: we say
        so rather than name a result that another save may contradict.
        """
        # A seat we accused is not waited for either: its cheat is the table's end.
        accused = {a.seat for a in self.accusations if a.by == self.seat and a.cause != "gone"}
        missing = set(range(self.num_seats)) - self._judged - {self.seat} - accused
        targets = {g.seat for g in give_ups}
        unheard = sorted(missing - targets)
        if unheard:
            who = ", ".join(f"seat {s}" for s in unheard)
            return (
                f"{who} did not say it had judged, and no give-up every seat weighs stands "
                "on it: its save may name the result"
            )
        last_leave = max((e.seq for e in self.sent if _kind(e) == "leave"), default=None)
        if last_leave is None or any(g.cuts and g.seat == self.seat for g in give_ups):
            return ""
        unsure = [s for s in sorted(missing) if self._acked_of_ours(s) <= last_leave]
        if not unsure:
            return ""
        who = ", ".join(f"seat {s}" for s in unsure)
        return (
            f"we left the table, and {who}, not heard to the end, may have given up on us "
            "while our leave stood: its save names the result"
        )

    def _acked_of_ours(self, seat: int) -> int:
        """How many of our messages `seat`'s last message we hold says it held."""
        index = self._held.get((seat, self._receiver.next_seq(seat) - 1))
        if index is None:
            return 0
        try:
            sync = Sync.from_wire(self.transcript[index].message.get("sync"), self.num_seats, seat)
        except (RemoteProtocolError, WireError):
            return 0
        return sync.acks[self.seat][0]

    def _judge(self, accusation: Accusation, named: set[int]) -> tuple[Fault | None, str]:
        """Another seat's accusation, against what we hold: (a fault it shows, a note)."""
        by, seat, cause = accusation.by, accusation.seat, accusation.cause
        claim = f"seat {by} reported {'' if seat is None else f'seat {seat}: '}{accusation.reason}"
        if cause == "gone" or (seat is not None and seat in named):
            return None, ""
        for item in accusation.evidence:
            # Its evidence against what we hold, whenever we took it: a second message signed
            # under a number we hold another message of is proof, to every seat alike.
            index = self._held.get((item.seat, item.seq))
            if index is not None and self.transcript[index] != item and self._signed(item):
                return Fault(
                    item.seat, -1, f"signed two different messages numbered {item.seq}"
                ), ""
        if cause == "state" and any(a.cause == "equivocation" for a in self.accusations):
            return None, f"{claim} (explained: a seat told seats different things)"
        if cause == "unmask" or seat is None:
            if named:
                return None, ""
            if cause == "unmask":
                return Fault(by, -1, "reported a card that unmasks to no card, but every key "
                             "and shuffle checks out"), ""  # fmt: skip
            return None, f"{claim} (not checkable here)"
        if cause == "link":
            return self._judge_link(accusation, claim)
        if cause in ("message", "state") and accusation.evidence:
            item = accusation.evidence[0]
            if item.seat == seat and self._checked(item, cause):
                return Fault(by, -1, f"accused seat {seat} falsely: {accusation.reason}"), ""
        return None, f"{claim} (not checkable here)"

    def _judge_link(self, accusation: Accusation, claim: str) -> tuple[Fault | None, str]:
        """A fault only the accuser's link saw. Nobody else can tell who made a message with
        a bad signature, but everyone can tell whether what the accuser refused was in fact
        the seat's next message, validly signed and chained to what the accuser said (in
        its abort's own sync) it held: refusing that is a false accusation."""
        seat, carrier = accusation.seat, accusation.carrier
        if seat is None or carrier is None or not accusation.evidence:
            return None, f"{claim} (seen on its link alone, with nothing passed on to check)"
        item = accusation.evidence[0]
        try:
            sync = Sync.from_wire(carrier.message.get("sync"), self.num_seats, carrier.seat)
            self._receiver.verify(item)
        except (RemoteProtocolError, WireError):
            return (
                None,
                f"{claim} (seen on its link alone: what it passed on is not seat "
                f"{seat}'s signature, which shows that the message was bad, not who made it)",
            )
        held, chain = sync.acks[seat]
        if item.seat == seat and item.seq == held and item.prev == chain:
            return Fault(accusation.by, -1, f"accused seat {seat} falsely: it refused seat "
                         f"{seat}'s next message, validly signed and chained"), ""  # fmt: skip
        return (
            None,
            f"{claim} (seen on its link alone: what it passed on is seat {seat}'s, "
            "but not the message it held next: a gap)",
        )

    def _signed(self, item: Envelope) -> bool:
        try:
            self._receiver.verify(item)
        except RemoteProtocolError:
            return False
        return True

    def _checked(self, item: Envelope, cause: Cause) -> bool:
        """Whether we took `item` and found nothing wrong with it (in the way `cause` says)."""
        index = self._held.get((item.seat, item.seq))
        if index is None or self.transcript[index] != item:
            return False
        if item.seat == self.seat:
            return True  # our own message: we know what we meant by it
        message = item.message
        if cause == "state":
            try:
                sync = Sync.from_wire(message.get("sync"), self.num_seats, item.seat)
            except RemoteProtocolError:
                return False
            return sync.steps < len(self._states) and self._states[sync.steps] == sync.state
        if index not in self.mental.accepted_tags:
            return False
        if message.get("kind") == "announce":
            step = message.get("step")
            return isinstance(step, int) and (self._flow_op > step or self._waiting is None)
        return True

    # --------------------------------------------------------------- inside

    def _advance(self) -> None:
        """Run the game flow as far as it goes; queue what we owe."""
        while True:
            self._flush()
            if self.phase == "finished" or not self._flow_alive or self.mental.failed is not None:
                break
            waiting = self._waiting
            if waiting is None:
                break
            if waiting is NEED_ACTION:
                self._check_our_turn()
                if self._pending_action is None or self.phase != "playing":
                    break
                action, self._pending_action = self._pending_action, None
                self._resume(action)
                continue
            assert isinstance(waiting, int)
            if not self.mental.done(waiting):
                break
            self._resume(None)
        self._maybe_finish()

    def _check_our_turn(self) -> None:
        """While the game waits for our decision, the next operation is our announcement
        and nobody can get past it: another seat's message for it, or for anything after
        it, fits nowhere, and its sender is named (with or without us playing on)."""
        for seat, body, tag in self.mental.early_from_others(len(self.mental.ops))[:1]:
            held = self.transcript[tag] if tag is not None else None
            self._accuse(
                seat, "message", f"spoke at step {body.step}, where seat {self.seat} was to decide",
                body.step, () if held is None else (held,),
            )  # fmt: skip

    def _resume(self, value: Action | None, first: bool = False) -> None:
        try:
            waiting = next(self._flow) if first else self._flow.send(value)
        except StopIteration:
            self._waiting = None
            return
        except RemoteProtocolError as exc:  # the dealer found a peer's action or card wrong
            self._flow_alive = False
            evidence: tuple[Envelope, ...] = ()
            if exc.seat is not None and exc.step is not None:
                held = self._op_envelope.get((exc.seat, exc.step))
                evidence = () if held is None else (held,)
            step = exc.step if exc.step is not None else -1
            self._accuse(exc.seat, "message" if exc.seat is not None else "unmask",
                         exc.reason, step, evidence)  # fmt: skip
            return
        self._waiting = waiting
        if isinstance(waiting, int):
            self._flow_op = waiting

    def _flush(self) -> None:
        """Sign what the mental peer owes; take our own messages in first, in order.

        Once the table has stopped, only our secrets go out: a key or a move after an
        abort would only muddy the evidence. While our leave stands nothing goes out:
        a seat can give us up only on a leave that is our last word, and a message in
        flight to us as we go must not make us answer it after our leave (it is answered
        after our `back`, if we come back).
        """
        if self.has_left and self.phase == "playing":
            return
        while True:
            bodies = self.mental.outgoing()
            if not bodies:
                return
            for body in bodies:
                if self.phase != "playing" and not isinstance(body, SecretsReveal):
                    continue
                self._send_body(codec.encode(body))
                try:
                    self.mental.receive(self.seat, body)
                except RemoteProtocolError as exc:  # another seat's message, waiting till now
                    self._accuse_mental(exc)

    def _sync(self) -> Sync:
        acks = tuple(
            (count, self._receiver.chain_hash(s, count))
            for s in range(self.num_seats)
            for count in (self._receiver.next_seq(s),)
        )
        return Sync(len(self.steps), self._states[len(self.steps)], acks)

    def _send_body(self, body: dict[str, Any]) -> Envelope:
        envelope = self._sender.wrap({**body, "sync": self._sync().to_wire()})
        self._receiver.accept_own(envelope)
        self._held[(self.seat, envelope.seq)] = len(self.transcript)
        self.transcript.append(envelope)
        self.record.append(Taken(envelope, refused=False))
        self.sent.append(envelope)
        self.outbox.append(envelope)
        return envelope

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
        for seat, body, tag in self.mental.leftovers()[:1]:
            held = self.transcript[tag] if tag is not None else None
            self._accuse(
                seat, "message", f"sent a message for step {body.step} that fits no operation",
                body.step, () if held is None else (held,),
            )  # fmt: skip
        self._stop(None)

    def _record(self, action: Action, sightings: tuple[Sighting, ...]) -> None:
        digests = self.replica.section_digests()
        self.steps.append(StepRecord(len(self.steps), action, digests, sightings))
        self._states.append(compact_state(digests))
        for seat in list(self._state_claims):
            self._settle_state_claim(seat)

    # -------------------------------------------------------------- restore

    def fresh_replica(self) -> State:
        """Our replica as the game began (a replay starts from it)."""
        return seat_replica(self.game, self.num_seats, self.options, self.seat, self.deck)

    @classmethod
    def restore(
        cls,
        game: Game,
        options: dict[str, Any],
        table_id: bytes,
        seat: int,
        keys: TableKeys,
        saved_secrets: dict[int, ShuffleSecrets | bytes],
        record: Sequence[Envelope],
        decisions: Sequence[Action],
        test_seed: int | None = None,
        judged_round: bool = True,
        on_step: Callable[[State, Action], None] | None = None,
    ) -> TablePeer:
        """Rebuild a seat by playing its saved record through again (see `TablePeer.record`:
        the envelopes it took, refused ones included, in order); `on_step` sees each step
        played through again, as `TablePeer.on_step` sees each step of play.

        The other seats' messages are fed in the order they first arrived; ours are
        made again from the same secrets and decisions, each at its place in the
        transcript, and must come out as the very bytes saved (`Sender.expect`): so
        nothing of ours in the file is taken on trust, and no signing key is needed
        (`keys.signing` may be None: the table can then be re-checked, not played on).
        A leave or a give-up of ours is done again where it stands. ProtocolError if
        the file does not replay.
        """
        deck = own_decklist(game, saved_secrets.values())
        peer = cls(
            game, options, table_id, seat, keys, saved_secrets, test_seed, deck, judged_round
        )
        peer.on_step = on_step
        ours = [e for e in record if e.seat == seat]
        peer._sender.expect(ours)
        choices = iter(decisions)
        try:
            for envelope in record:
                if envelope.seat != seat:
                    peer.receive(envelope)
                    continue
                if not peer.started:
                    # Messages that came before we started were taken without effect;
                    # our first message (a commitment) came out of starting.
                    peer.start()
                message = envelope.message
                kind = message["kind"]
                payload = message.get("payload")
                if kind == "announce" and isinstance(payload, dict) and "action" not in payload:
                    continue  # not a move: the dealer said it (which card a search took) itself
                if kind == "announce":
                    if not peer.wants_action():
                        waiting = ", ".join(f"seat {s}" for s in sorted(peer.waiting_for()))
                        raise ProtocolError(
                            f"evidence is missing: our move in message {envelope.seq} answers "
                            f"a turn the signed messages never reach; they stop after "
                            f"{len(peer.steps)} steps, waiting for messages of "
                            f"{waiting or 'no seat'}"
                        )
                    peer.act(next(choices))
                elif kind == "leave":
                    peer.leave(str(message.get("reason", "")))
                elif kind == "back":
                    peer.come_back()
                elif kind == "abort" and message.get("cause") == "gone":
                    peer.give_up(
                        [int(message["seat"])], str(message.get("reason", "")),
                        show_leave=bool(message.get("evidence")),
                    )  # fmt: skip
            if not peer.started:
                peer.start()
        except (StopIteration, P2PCardsError, KeyError, TypeError, ValueError) as exc:
            raise ProtocolError(f"our own messages do not replay: {exc}") from None
        if peer._sender.replaying:
            raise ProtocolError(
                f"replaying the saved game left {peer._sender.replaying} of our messages unmade"
            )
        peer.outbox.clear()  # sent before the crash; peers ask again for what they lack
        peer.events.clear()  # old news
        return peer

    # ----------------------------------------------------------------- report

    def desync_report(self) -> dict[str, Any]:
        """What a person needs to find a desync: both digests by section, and every step."""
        desync = self.desync
        assert desync is not None
        return {
            "table": self.table_id.hex(),
            "game": self.game.name,
            "seat": self.seat,
            "other_seat": desync.seat,
            "step": desync.step,
            "sections_that_differ": desync.sections,
            "our_digests": desync.ours,
            "their_short_digests": desync.theirs,
            "steps": [
                {"index": r.index, "action": r.action.to_json(), "digests": r.digests}
                for r in self.steps
            ],
            "final_state": self.replica.to_json(),
        }


def _kind(envelope: Envelope) -> str:
    """The kind of a signed message ("" if its body is no message)."""
    try:
        return str(envelope.message.get("kind"))
    except WireError:
        return ""


__all__ = [
    "NEED_ACTION",
    "Accusation",
    "Desync",
    "StepRecord",
    "TableEvent",
    "TableKeys",
    "TableOutcome",
    "TablePeer",
]
