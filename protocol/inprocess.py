"""A table of mental-poker peers in one process, passing only signed messages.

Each seat has its own `MentalPeer` (its secrets), `MentalDealer`, replica of the
game and agent; the table moves envelopes between them in one global order and
does nothing else. Tests and benchmarks use it to play whole games the way a
LAN table will, and to let a seat cheat (`cheat` rewrites what a seat sends
before it signs) or an attacker tamper with the wire (`intercept`).
"""

from __future__ import annotations

import collections
import contextlib
import random
import secrets
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from p2pcards import games
from p2pcards.engine import Action, Game, State
from protocol import codec
from protocol.audit import Fault, audit
from protocol.curve import CardPoints
from protocol.errors import PeerTimeoutError, RemoteProtocolError
from protocol.mental import Body, MentalPeer
from protocol.mental_dealer import MentalDealer, card_points, deck_audit
from protocol.table_peer import TableKeys, TablePeer
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


class Bus:
    """Moves signed envelopes among peers in one global order; nothing else."""

    def __init__(
        self,
        peers: Sequence[MentalPeer],
        signing_keys: Sequence[Ed25519PrivateKey],
        cheat: Cheat | None = None,
        intercept: Intercept | None = None,
    ) -> None:
        self.peers = list(peers)
        table_id = self.peers[0].table_id
        verify_keys = [k.public_key() for k in signing_keys]
        self.senders = [
            Sender(table_id, p.seat, k) for p, k in zip(self.peers, signing_keys, strict=True)
        ]
        self.receivers = [Receiver(table_id, verify_keys) for _ in self.peers]
        self.cheat = cheat
        self.intercept = intercept
        self.wire: list[Envelope] = []  # every envelope sent, for replay tests

    def deliver(self) -> bool:
        """Send everything every seat owes, in seat order; whether anything moved."""
        moved = False
        for peer, sender in zip(self.peers, self.senders, strict=True):
            for body in peer.outgoing():
                if self.cheat is not None:
                    body = self.cheat(peer.seat, body)
                envelope = sender.wrap(codec.encode(body))
                wire = [envelope] if self.intercept is None else self.intercept(envelope)
                for sent in wire:
                    self.wire.append(sent)
                    for other, receiver in zip(self.peers, self.receivers, strict=True):
                        data = receiver.accept(sent)
                        other.receive(sent.seat, codec.decode(data, sent.seat))
                moved = True
        return moved

    def run(self, gens: list[Generator[int, None, Any]]) -> list[Any]:
        """Drive every seat's generator to its end, moving messages until all are done.

        A generator yields the step of each operation it waits for. When nothing
        can move and some seat still waits, the seats whose messages are due are
        named in a PeerTimeoutError: in a real table, they are the ones that time out.
        """
        n = len(gens)
        waiting: list[int] = [0] * n
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
                while not finished[i] and self.peers[i].done(waiting[i]):
                    advance(i)
                    progressed = True
            if not self.deliver() and not progressed and not all(finished):
                stalled: set[int] = set()
                for i in range(n):
                    if not finished[i]:
                        stalled |= self.peers[i].waiting_for(waiting[i])
                seat = min(stalled) if stalled else None
                raise PeerTimeoutError(seat, "never sent its share; the table cannot go on")
        return results


def make_peers(
    num_seats: int,
    points: Sequence[bytes] | CardPoints,
    cheat: Cheat | None = None,
    intercept: Intercept | None = None,
) -> tuple[list[MentalPeer], Bus]:
    """Peers with fresh keys for a new table, and the bus that connects them."""
    table = points if isinstance(points, CardPoints) else CardPoints.given(points)
    table_id = secrets.token_bytes(16)
    encryption = [X25519PrivateKey.generate() for _ in range(num_seats)]
    sealing_keys = [k.public_key() for k in encryption]
    peers = [
        MentalPeer(table_id, s, num_seats, encryption[s], sealing_keys, table)
        for s in range(num_seats)
    ]
    signing = [Ed25519PrivateKey.generate() for _ in range(num_seats)]
    return peers, Bus(peers, signing, cheat, intercept)


def run_everywhere(bus: Bus, start: Callable[[MentalPeer], int]) -> list[int]:
    """Start the same operation on every peer and run it to the end; the steps it got."""

    def one(peer: MentalPeer) -> Generator[int, None, int]:
        step = start(peer)
        yield step
        return step

    results: list[int] = bus.run([one(p) for p in bus.peers])
    return results


@dataclass
class _Seat:
    peer: MentalPeer
    dealer: MentalDealer
    replica: State


class InProcessTable:
    """Seats playing one game through mental poker, all in this process."""

    def __init__(
        self,
        game_name: str | Game,
        agents: Sequence[SeatAgent],
        options: dict[str, Any] | None = None,
        cheat: Cheat | None = None,
        intercept: Intercept | None = None,
        check_knowledge: bool = True,
    ) -> None:
        """`game_name`: a registered game's name, or a game itself (a test's toy)."""
        self.game = game_name if isinstance(game_name, Game) else games.load(game_name)
        self.agents = list(agents)
        n = len(self.agents)
        options = options or {}
        self.check_knowledge = check_knowledge
        # Only the harness holds the reference state: the complete truth, advanced
        # with the real cards, to check each replica against what its seat may know.
        self.reference = self.game.new_initial_state(n, **options)
        points = card_points(self.game)
        peers, self.bus = make_peers(n, points, cheat, intercept)
        self.seats = [
            _Seat(peer, MentalDealer(peer, self.game, replica, points), replica)
            for peer, replica in ((p, self.reference.observation(p.seat)) for p in peers)
        ]

    # -------------------------------------------------------------- playing

    def play(self, max_steps: int = 100_000) -> TableResult:
        """Play to the end (or to the first error), then disclose secrets and audit."""
        steps = 0
        error: RemoteProtocolError | None = None
        try:
            self.start()
            while not self.reference.is_terminal() and steps < max_steps:
                self.step()
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

    def start(self) -> None:
        """Shuffle the deck among all seats."""
        self.bus.run([seat.dealer.setup() for seat in self.seats])

    def step(self) -> None:
        """One engine step on every replica: a chance node dealt, or a decision announced."""
        reference = self.reference
        if reference.is_chance_node():
            viewers = reference.chance_viewers()
            outcomes = self.bus.run([seat.dealer.chance() for seat in self.seats])
            # A roll, seen by nobody in particular, is the same outcome everywhere.
            truth = next((o for s, o in enumerate(outcomes) if s in viewers), outcomes[0])
            for seat, outcome in zip(self.seats, outcomes, strict=True):
                seat.replica.apply_action(outcome)
            reference.apply_action(truth)
        else:
            actor = reference.current_player()
            choice = self.agents[actor].act(self.seats[actor].replica.clone())
            actions = self.bus.run(
                [
                    seat.dealer.decide(choice if s == actor else None)
                    for s, seat in enumerate(self.seats)
                ]
            )
            for seat, action in zip(self.seats, actions, strict=True):
                seat.replica.apply_action(action)
            reference.apply_action(choice)
        self.check_replicas()

    def check_replicas(self) -> None:
        """Every replica agrees with the table and holds exactly what its seat may know."""
        digest = self.reference.public_digest()
        for s, seat in enumerate(self.seats):
            if seat.replica.public_digest() != digest:
                raise KnowledgeLeakError(f"seat {s}'s replica is out of step with the table")
            if self.check_knowledge and seat.replica.to_json() != self.reference.to_json(s):
                raise KnowledgeLeakError(
                    f"seat {s}'s replica does not hold exactly what it may know"
                )

    # ---------------------------------------------------------------- audit

    def _disclose_and_audit(self) -> list[list[Fault]]:
        # A seat that will not disclose is named by the audit itself.
        with contextlib.suppress(RemoteProtocolError):
            self.bus.run([seat.dealer.disclose() for seat in self.seats])
        decks = deck_audit(self.game)
        return [
            audit(
                seat.peer.log,
                seat.peer.table_id,
                len(self.seats),
                seat.peer.encryption_keys,
                decks=decks,
            )
            for seat in self.seats
        ]


# ------------------------------------------------------------ a mesh of TablePeers


Tamper = Callable[[int, int, Envelope], list[Envelope]]
"""What arrives on the link from one seat to another when it sends an envelope."""


class TableMesh:
    """Whole `TablePeer`s (the code a LAN table runs) joined by in-memory links.

    Each link keeps its order, as TCP does; which link delivers next is drawn from a
    seeded generator, so the streams of different seats interleave as on a mesh.
    `tamper(from, to, envelope)` may change what arrives (drop, replace, add: a
    seat that tells different seats different things). When nothing is in flight
    and some seat still waits, the table has stalled: `run` then has every seat give
    up on the seats it waits for, as the network edge does after its timeout.
    `shuffle_seed` makes the deals reproducible, for tests only (see `MentalPeer`).
    """

    def __init__(
        self,
        game_name: str | Game,
        agents: Sequence[SeatAgent],
        options: dict[str, Any] | None = None,
        seed: int = 0,
        tamper: Tamper | None = None,
        peer_class: type[TablePeer] = TablePeer,
        shuffle_seed: int | None = None,
    ) -> None:
        """`game_name`: a registered game's name, or a game itself (a test's toy)."""
        game = game_name if isinstance(game_name, Game) else games.load(game_name)
        n = len(agents)
        self.agents = list(agents)
        signing = [Ed25519PrivateKey.generate() for _ in range(n)]
        sealing = [X25519PrivateKey.generate() for _ in range(n)]
        verify = [k.public_key() for k in signing]
        seal = [k.public_key() for k in sealing]
        table_id = secrets.token_bytes(16)
        self.peers = [
            peer_class(
                game,
                dict(options or {}),
                table_id,
                s,
                TableKeys(signing[s], sealing[s], verify, seal),
                test_seed=shuffle_seed,
            )
            for s in range(n)
        ]
        self.rng = random.Random(seed)
        self.tamper = tamper
        self.links: dict[tuple[int, int], collections.deque[Envelope]] = {
            (a, b): collections.deque() for a in range(n) for b in range(n) if a != b
        }
        self.delivered = 0

    def run(self, max_deliveries: int = 1_000_000, give_up: bool = True) -> None:
        """Play until every seat has finished (or the table stalls and `give_up` is off)."""
        for peer in self.peers:
            if not peer.started:
                peer.start()
        while not all(p.finished for p in self.peers) and self.delivered < max_deliveries:
            self.pump()
            busy = [link for link, queue in self.links.items() if queue]
            if not busy:
                if not give_up or not self._give_up():
                    return
                continue
            for _ in range(min(len(busy), 8)):
                a, b = self.rng.choice(busy)
                queue = self.links[(a, b)]
                if queue:
                    self.peers[b].receive(queue.popleft())
                    self.delivered += 1

    def pump(self) -> None:
        """Let every seat that must decide decide, and put what each sent on its links."""
        for peer in self.peers:
            while peer.wants_action():
                peer.act(self.agents[peer.seat].act(peer.replica.clone()))
            out, peer.outbox = peer.outbox, []
            for envelope in out:
                for other in range(len(self.peers)):
                    if other != peer.seat:
                        arriving = (
                            [envelope]
                            if self.tamper is None
                            else self.tamper(peer.seat, other, envelope)
                        )
                        self.links[(peer.seat, other)].extend(arriving)

    def _give_up(self) -> bool:
        """Every unfinished seat stops waiting for the seats it waits for; whether any did."""
        moved = False
        for peer in self.peers:
            if not peer.finished:
                silent = sorted(peer.waiting_for())
                if silent:
                    peer.give_up(silent, "was silent past the timeout")
                    moved = True
        self.pump()
        return moved
