"""A table of mental-poker peers in one process, passing only signed messages.

Each seat has its own `MentalPeer` (its secrets), `MentalDealer`, replica of the
game and agent; the table moves envelopes between them in one global order and
does nothing else. Tests and benchmarks use it to play whole games the way a
LAN table will, and to let a seat cheat (`cheat` rewrites what a seat sends
before it signs) or an attacker tamper with the wire (`intercept`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from p2pcards import games
from p2pcards.engine import Action, State
from protocol import codec
from protocol.audit import Fault, audit
from protocol.errors import PeerTimeoutError, RemoteProtocolError
from protocol.mental import Body, MentalPeer
from protocol.mental_dealer import MentalDealer, card_points
from protocol.transcript import Envelope, Receiver, Sender


class SeatAgent(Protocol):
    """Anything that picks an action from one seat's observation."""

    def act(self, observation: State) -> Action: ...


Cheat = Callable[[int, Body], Body]
Intercept = Callable[[Envelope], list[Envelope]]


class KnowledgeLeakError(AssertionError):
    """A replica holds a card its seat may not know (or lacks one it should)."""


@dataclass
class TableResult:
    """How an in-process game ended."""

    digests: list[str]  # each replica's final public digest
    returns: list[float]
    steps: int
    error: RemoteProtocolError | None = None
    faults: list[list[Fault]] = field(default_factory=list)  # each peer's audit verdict


@dataclass
class _Seat:
    peer: MentalPeer
    dealer: MentalDealer
    replica: State
    sender: Sender
    receiver: Receiver


class InProcessTable:
    """Seats playing one game through mental poker, all in this process."""

    def __init__(
        self,
        game_name: str,
        agents: Sequence[SeatAgent],
        options: dict[str, Any] | None = None,
        cheat: Cheat | None = None,
        intercept: Intercept | None = None,
        check_knowledge: bool = True,
    ) -> None:
        self.game = games.load(game_name)
        self.agents = list(agents)
        n = len(self.agents)
        options = options or {}
        self.table_id = secrets.token_bytes(16)
        self.cheat = cheat
        self.intercept = intercept
        self.check_knowledge = check_knowledge
        # Only the harness holds the reference state: the complete truth, advanced
        # with the real cards, to check each replica against what its seat may know.
        self.reference = self.game.new_initial_state(n, **options)
        signing = [Ed25519PrivateKey.generate() for _ in range(n)]
        encryption = [X25519PrivateKey.generate() for _ in range(n)]
        verify_keys = [k.public_key() for k in signing]
        sealing_keys = [k.public_key() for k in encryption]
        points = card_points(self.game)
        self.seats: list[_Seat] = []
        for s in range(n):
            peer = MentalPeer(self.table_id, s, n, encryption[s], sealing_keys, points)
            replica = self.reference.observation(s)
            self.seats.append(
                _Seat(
                    peer,
                    MentalDealer(peer, self.game, replica, points),
                    replica,
                    Sender(self.table_id, s, signing[s]),
                    Receiver(self.table_id, verify_keys),
                )
            )
        self.sealing_keys = sealing_keys
        self.wire: list[Envelope] = []  # every envelope sent, for replay tests

    # -------------------------------------------------------------- playing

    def play(self, max_steps: int = 100_000) -> TableResult:
        """Play to the end (or to the first error), then disclose secrets and audit."""
        steps = 0
        error: RemoteProtocolError | None = None
        try:
            self._run([seat.dealer.setup() for seat in self.seats])
            while not self.reference.is_terminal() and steps < max_steps:
                self._step()
                steps += 1
        except RemoteProtocolError as exc:
            error = exc
        faults = self._disclose_and_audit()
        return TableResult(
            [seat.replica.public_digest() for seat in self.seats],
            self.reference.returns(),
            steps,
            error,
            faults,
        )

    def _step(self) -> None:
        reference = self.reference
        if reference.is_chance_node():
            viewers = reference.chance_viewers()
            outcomes = self._run([seat.dealer.chance() for seat in self.seats])
            truth = next(o for s, o in enumerate(outcomes) if s in viewers)
            for seat, outcome in zip(self.seats, outcomes, strict=True):
                seat.replica.apply_action(outcome)
            reference.apply_action(truth)
        else:
            actor = reference.current_player()
            choice = self.agents[actor].act(self.seats[actor].replica.clone())
            actions = self._run(
                [
                    seat.dealer.decide(choice if s == actor else None)
                    for s, seat in enumerate(self.seats)
                ]
            )
            for seat, action in zip(self.seats, actions, strict=True):
                seat.replica.apply_action(action)
            shown = self.seats[actor].dealer.last_shown
            if shown is not None:
                reference.show_card(*shown)
            reference.apply_action(actions[actor])
        self._check_replicas()

    def _check_replicas(self) -> None:
        digest = self.reference.public_digest()
        for s, seat in enumerate(self.seats):
            if seat.replica.public_digest() != digest:
                raise KnowledgeLeakError(f"seat {s}'s replica is out of step with the table")
            if self.check_knowledge and seat.replica.to_json() != self.reference.to_json(s):
                raise KnowledgeLeakError(
                    f"seat {s}'s replica does not hold exactly what it may know"
                )

    # ------------------------------------------------------------ messages

    def _run(self, gens: list[Generator[int, None, Any]]) -> list[Any]:
        """Drive every seat's generator to its end, moving messages until all are done."""
        n = len(gens)
        waiting: list[int | None] = [None] * n
        results: list[Any] = [None] * n
        finished = [False] * n

        def advance(i: int) -> None:
            try:
                waiting[i] = next(gens[i])
            except StopIteration as stop:
                finished[i] = True
                results[i] = stop.value

        for i in range(n):
            advance(i)
        while not all(finished):
            progressed = False
            for i in range(n):
                while not finished[i] and self.seats[i].peer.done(waiting[i] or 0):
                    advance(i)
                    progressed = True
            if not self._deliver() and not progressed and not all(finished):
                stalled: set[int] = set()
                for i in range(n):
                    if not finished[i]:
                        stalled |= self.seats[i].peer.waiting_for(waiting[i] or 0)
                seat = min(stalled) if stalled else None
                raise PeerTimeoutError(seat, "never sent its share; the table cannot go on")
        return results

    def _deliver(self) -> bool:
        """Send everything every seat owes, in seat order; whether anything moved."""
        moved = False
        for seat in self.seats:
            for body in seat.peer.outgoing():
                if self.cheat is not None:
                    body = self.cheat(seat.peer.seat, body)
                envelope = seat.sender.wrap(codec.encode(body))
                wire = [envelope] if self.intercept is None else self.intercept(envelope)
                for sent in wire:
                    self.wire.append(sent)
                    for other in self.seats:
                        data = other.receiver.accept(sent)
                        other.peer.receive(sent.seat, codec.decode(data, sent.seat))
                moved = True
        return moved

    # ---------------------------------------------------------------- audit

    def _disclose_and_audit(self) -> list[list[Fault]]:
        try:
            self._run([seat.dealer.disclose() for seat in self.seats])
        except RemoteProtocolError:
            pass  # a seat that will not disclose is named by the audit itself
        return [
            audit(seat.peer.log, self.table_id, len(self.seats), self.sealing_keys)
            for seat in self.seats
        ]
