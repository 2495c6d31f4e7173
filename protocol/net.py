"""Tables on a LAN: TLS connections, the host's rendezvous, the full mesh, and the game.

This is the only part of `protocol/` that touches sockets and clocks. It moves
frames; every decision about the game is `TablePeer`'s.

Setting up a table:

1. The host listens and prints an invite code (address, its fingerprint, a secret).
2. A joiner connects over TLS, checks the host's certificate carries the pinned
   key, and sends JOIN with its identity, its sealing key for this table, the
   port it listens on, and an HMAC of all that under the table secret.
3. When every seat is taken the host sends the ROSTER; every seat signs it; the
   host passes on all signatures and everyone checks them. The host has no
   authority from here on.
4. The seats connect as a full mesh: seat j connects to every seat i < j, pins
   i's certificate to the roster, and proves it is seat j with a signed HELLO.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import ssl
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from p2pcards import games
from p2pcards.engine import Action, State
from protocol.commitments import canonical
from protocol.errors import ProtocolError, RemoteProtocolError
from protocol.identity import Identity, certificate_key, fingerprint
from protocol.invite import Invite, new_secret
from protocol.roster import Member, Roster, TableSetupError, verify_signature
from protocol.savefile import SavedTable, SaveWriter
from protocol.table_peer import TableKeys, TableOutcome, TablePeer
from protocol.transcript import Envelope
from protocol.wire import FrameDecoder, WireError, encode_frame, field_of

log = logging.getLogger("p2pcards.net")

VERSION = 1
READ_CHUNK = 65536
FIRST_MESSAGE_SECONDS = 10.0  # for the TLS handshake and then the first message


Decide = Callable[[State], Awaitable[Action]]


# ------------------------------------------------------------------ TLS


def server_context(cert: Path, key: Path) -> ssl.SSLContext:
    """TLS 1.3 only, presenting our self-signed certificate.

    A client certificate is optional (joiners have none we could know), but one that
    is presented must be a roster member's: `trust` loads them once the roster is
    signed, and a stranger's certificate then fails the handshake itself.
    """
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_3
    context.load_cert_chain(cert, key)
    context.verify_mode = ssl.CERT_OPTIONAL
    return context


def client_context(cert: Path | None = None, key: Path | None = None) -> ssl.SSLContext:
    """TLS 1.3 only. The server's certificate is self-signed: we pin its key ourselves.
    With `cert`, we present ours (mesh links, where the other side pins it too)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_3
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    if cert is not None and key is not None:
        context.load_cert_chain(cert, key)
    return context


# ----------------------------------------------------------- connections


class Connection:
    """One framed, TLS-protected stream to a peer."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.decoder = FrameDecoder()
        self._ready: list[Any] = []

    def peer_key(self) -> bytes:
        """The Ed25519 key in the certificate the other side presented (client side)."""
        ssl_object = self.writer.get_extra_info("ssl_object")
        der = ssl_object.getpeercert(binary_form=True) if ssl_object else None
        return certificate_key(der) if der else b""

    async def send(self, message: dict[str, Any]) -> None:
        """Write one frame."""
        await self.send_frames([encode_frame(message)])

    async def send_frames(self, frames: list[bytes]) -> None:
        """Write frames already encoded, in one go (one system call for a burst of messages)."""
        if self.writer.is_closing():
            raise ConnectionError("the link is closed")
        self.writer.write(b"".join(frames))
        await self.writer.drain()

    @property
    def closed(self) -> bool:
        """Whether this link can no longer carry anything."""
        return self.writer.is_closing()

    async def recv(self, timeout: float | None = None) -> dict[str, Any]:
        """Read one message (a map); WireError for anything else, EOFError at the end."""
        while not self._ready:
            chunk = await asyncio.wait_for(self.reader.read(READ_CHUNK), timeout)
            if not chunk:
                if self.decoder.pending():
                    raise WireError("connection closed inside a frame")
                raise EOFError("connection closed")
            self._ready.extend(self.decoder.feed(chunk))
        message = self._ready.pop(0)
        if not isinstance(message, dict):
            raise WireError("a message must be a map")
        return message

    async def close(self) -> None:
        """Close, without waiting for the other side's TLS close (both sides are done)."""
        self.writer.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.writer.wait_closed(), 0.05)


def _join_proof(secret: str, identity: bytes, seal: bytes, port: int, host_key: bytes) -> bytes:
    data = canonical(["p2pcards/join/1", identity, seal, port, host_key])
    return hmac.new(secret.encode(), data, hashlib.sha256).digest()


def _hello_bytes(table_id: bytes, seat: int, to_seat: int, nonce: bytes) -> bytes:
    return canonical(["p2pcards/hello/1", table_id, seat, to_seat, nonce])


# ----------------------------------------------------------------- peer


@dataclass
class LocalSeat:
    """This process's seat: who it is and how it decides."""

    identity: Identity
    name: str
    decide: Decide
    home: Path
    seal: X25519PrivateKey = field(default_factory=X25519PrivateKey.generate)
    watch: Callable[[State, Action], None] | None = None  # sees each step before it applies
    test_seed: int | None = None  # reproducible shuffles for tests only (see MentalPeer)


@dataclass
class HostedTable:
    """The host's side while seats fill up."""

    game: str
    seats: int
    options: dict[str, Any]
    secret: str = field(default_factory=new_secret)
    table_id: bytes = field(default_factory=lambda: secrets.token_bytes(16))


class Node:
    """A peer process: listens, forms the table, connects the mesh and plays."""

    def __init__(
        self,
        seat_info: LocalSeat,
        host: str = "127.0.0.1",
        port: int = 0,
        trace: TextIO | None = None,
    ) -> None:
        self.me = seat_info
        self.trace = trace  # JSON lines: when this seat acted and applied each step
        self.on_silence: Callable[[list[int], float], None] = _log_silence
        self._traced = 0
        self.bind_host = host
        self.bind_port = port
        self.port = 0
        self.server: asyncio.Server | None = None
        self.cert, self.key = seat_info.identity.certificate_files(seat_info.home / "tls")
        self.cert_der = seat_info.identity.certificate_der(seat_info.home / "tls")
        self._server_context = server_context(self.cert, self.key)
        self.roster: Roster | None = None
        self.roster_signatures: list[bytes] = []
        self.seat = -1
        self.links: dict[int, Connection] = {}
        self.table: TablePeer | None = None
        self._hosted: HostedTable | None = None
        self._joiners: list[tuple[Member, Connection]] = []
        self._full = asyncio.Event()
        self._mesh_ready = asyncio.Event()
        self._roster_ready = asyncio.Event()
        self._advertise = host
        self._incoming: asyncio.Queue[tuple[int, Envelope | None]] = asyncio.Queue()
        self._link_sent: dict[int, int] = {}  # per seat: how many of our envelopes it has been sent
        self._done_links: set[int] = set()  # seats that said bye or closed their link
        self._link_done = asyncio.Event()

    async def listen(self) -> int:
        """Start accepting connections; returns the port."""
        self.server = await asyncio.start_server(
            self._accept,
            self.bind_host,
            self.bind_port,
            ssl=self._server_context,
            ssl_handshake_timeout=FIRST_MESSAGE_SECONDS,
        )
        self.port = self.server.sockets[0].getsockname()[1]
        return self.port

    # ---------------------------------------------------------- hosting

    def _trust_roster(self) -> None:
        """From now on, a client certificate must be one of the roster's (TLS-level pinning)."""
        assert self.roster is not None
        others = [m.cert for i, m in enumerate(self.roster.members) if i != self.seat]
        self._server_context.load_verify_locations(cadata=b"".join(others))
        self._roster_ready.set()

    def free_seats(self) -> int:
        """Seats still open at the table this node hosts."""
        table = self._hosted
        return 0 if table is None else table.seats - 1 - len(self._joiners)

    def host(self, table: HostedTable, advertise: str) -> Invite:
        """Open a table as seat 0; the invite code to hand out."""
        self._hosted = table
        self.seat = 0
        self._advertise = advertise
        return Invite(advertise, self.port, self.me.identity.fingerprint, table.secret)

    async def wait_for_seats(self, timeout: float | None = None) -> None:
        """Wait until every seat is taken, then form the roster with every seat's signature."""
        table = self._hosted
        assert table is not None
        await asyncio.wait_for(self._full.wait(), timeout)
        me = Member(
            self.me.name,
            self.me.identity.public_bytes,
            self.me.seal.public_key().public_bytes_raw(),
            self._advertise,
            self.port,
            self.cert_der,
        )
        roster = Roster(
            table.table_id, table.game, table.options, [me] + [m for m, _ in self._joiners]
        )
        signatures = [self.me.identity.key.sign(roster.digest())]
        for _, conn in self._joiners:
            await conn.send({"kind": "roster", "roster": roster.to_wire()})
        for member, conn in self._joiners:
            reply = await conn.recv(timeout=30)
            signature = field_of(reply, "signature", bytes, 64)
            verify_signature(member.identity, signature, roster.digest(), "roster signature")
            signatures.append(signature)
        self.roster = roster
        self.roster_signatures = signatures
        self._trust_roster()
        for _, conn in self._joiners:
            await conn.send({"kind": "roster-signed", "signatures": signatures})
            await conn.close()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Connection(reader, writer)
        try:
            # One deadline for the whole first message: a peer that trickles bytes
            # (slow loris) cannot hold the connection open by sending now and then.
            async with asyncio.timeout(FIRST_MESSAGE_SECONDS):
                first = await conn.recv()
            kind = first.get("kind")
            if kind == "join":
                await self._take_join(conn, first, writer.get_extra_info("peername")[0])
            elif kind == "hello":
                await self._take_hello(conn, first)
            else:
                raise WireError(f"unexpected first message {kind!r}")
        except (ProtocolError, EOFError, OSError, TimeoutError, ssl.SSLError) as exc:
            log.warning("refused a connection: %s", exc)
            with contextlib.suppress(Exception):
                await conn.send({"kind": "refused", "reason": str(exc)})
            await conn.close()

    async def _take_join(self, conn: Connection, message: dict[str, Any], address: str) -> None:
        table = self._hosted
        if table is None or self._full.is_set():
            raise TableSetupError("this table takes no more seats")
        identity = field_of(message, "identity", bytes, 32)
        seal = field_of(message, "seal", bytes, 32)
        port = field_of(message, "port", int)
        proof = field_of(message, "proof", bytes, 32)
        cert = field_of(message, "cert", bytes)
        if certificate_key(cert) != identity:
            raise TableSetupError("the certificate sent does not carry the identity key")
        expected = _join_proof(table.secret, identity, seal, port, self.me.identity.public_bytes)
        if not hmac.compare_digest(proof, expected):
            raise TableSetupError("wrong invite secret")
        if identity in {m.identity for m, _ in self._joiners} | {self.me.identity.public_bytes}:
            raise TableSetupError("that identity already has a seat")
        name = field_of(message, "name", str)[:40]
        seat = len(self._joiners) + 1
        self._joiners.append((Member(name, identity, seal, address, port, cert), conn))
        await conn.send({"kind": "welcome", "seat": seat, "seats": table.seats, "game": table.game})
        log.info("seat %d taken by %s (%s)", seat, name, fingerprint(identity))
        if len(self._joiners) == table.seats - 1:
            self._full.set()

    # ---------------------------------------------------------- joining

    async def join(self, invite: Invite, timeout: float = 60) -> None:
        """Take a seat at the table an invite code names; returns once the roster is signed."""
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(invite.host, invite.port, ssl=client_context()), 10
            )
        except (OSError, TimeoutError) as exc:
            raise TableSetupError(f"cannot reach {invite.host}:{invite.port}: {exc}") from None
        conn = Connection(reader, writer)
        host_key = conn.peer_key()
        if fingerprint(host_key) != invite.fingerprint:
            await conn.close()
            raise TableSetupError("the host's key does not match the invite code's fingerprint")
        seal = self.me.seal.public_key().public_bytes_raw()
        identity = self.me.identity.public_bytes
        await conn.send(
            {
                "kind": "join",
                "name": self.me.name,
                "identity": identity,
                "seal": seal,
                "port": self.port,
                "cert": self.cert_der,
                "proof": _join_proof(invite.secret, identity, seal, self.port, host_key),
            }
        )
        reply = await conn.recv(timeout=10)
        if reply.get("kind") != "welcome":
            await conn.close()
            raise TableSetupError(f"the host refused: {reply.get('reason', 'no reason given')}")
        self.seat = field_of(reply, "seat", int)
        roster_message = await conn.recv(timeout=timeout)
        roster = Roster.from_wire(roster_message.get("roster"))
        me = roster.members[self.seat] if self.seat < len(roster.members) else None
        if me is None or me.identity != identity or roster.members[0].identity != host_key:
            raise TableSetupError("the roster does not seat us where the host said")
        await conn.send(
            {"kind": "roster-sign", "signature": self.me.identity.key.sign(roster.digest())}
        )
        signed = await conn.recv(timeout=timeout)
        signatures = signed.get("signatures")
        if not isinstance(signatures, list) or len(signatures) != len(roster.members):
            raise TableSetupError("the roster came back without every seat's signature")
        for member, signature in zip(roster.members, signatures, strict=True):
            if not isinstance(signature, bytes):
                raise TableSetupError("a roster signature is malformed")
            verify_signature(member.identity, signature, roster.digest(), "roster signature")
        await conn.close()
        self.roster = roster
        self.roster_signatures = signatures
        self._trust_roster()

    # ------------------------------------------------------------- mesh

    async def connect_mesh(self, timeout: float = 30, rejoin: bool = False) -> None:
        """Connect to every lower seat; wait until every higher seat has connected to us.

        A seat coming back after a crash (`rejoin`) connects to every other seat itself:
        they are mid-game and will not dial a seat whose address has changed.
        """
        roster = self.roster
        assert roster is not None
        others = (
            [s for s in range(len(roster.members)) if s != self.seat]
            if rejoin
            else range(self.seat)
        )
        for other in others:
            member = roster.members[other]
            context = client_context(self.cert, self.key)
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(member.host, member.port, ssl=context), timeout
            )
            conn = Connection(reader, writer)
            if conn.peer_key() != member.identity:
                await conn.close()
                raise RemoteProtocolError(
                    other, "presented a certificate that is not its roster key"
                )
            nonce = secrets.token_bytes(16)
            signature = self.me.identity.key.sign(
                _hello_bytes(roster.table_id, self.seat, other, nonce)
            )
            await conn.send(
                {
                    "kind": "hello",
                    "seat": self.seat,
                    "nonce": nonce,
                    "signature": signature,
                    "rejoin": rejoin,
                }
            )
            reply = await conn.recv(timeout=timeout)
            if reply.get("kind") != "hello-ok":
                raise RemoteProtocolError(other, f"refused our hello: {reply.get('reason')}")
            self._link(other, conn)
        self._check_mesh()
        await asyncio.wait_for(self._mesh_ready.wait(), timeout)

    async def _take_hello(self, conn: Connection, message: dict[str, Any]) -> None:
        # A faster seat may say hello before the host's last message reaches us.
        await asyncio.wait_for(self._roster_ready.wait(), 30)
        roster = self.roster
        assert roster is not None
        seat = field_of(message, "seat", int)
        rejoin = message.get("rejoin") is True
        expected = 0 <= seat < len(roster.members) and seat != self.seat
        if not expected or (not rejoin and (seat < self.seat or seat in self.links)):
            raise WireError(f"hello from seat {seat}, which should not connect to us")
        if conn.peer_key() != roster.members[seat].identity:
            raise TableSetupError(f"a hello as seat {seat} over a certificate that is not its own")
        nonce = field_of(message, "nonce", bytes, 16)
        signature = field_of(message, "signature", bytes, 64)
        verify_signature(
            roster.members[seat].identity,
            signature,
            _hello_bytes(roster.table_id, seat, self.seat, nonce),
            f"seat {seat}'s hello",
        )
        await conn.send({"kind": "hello-ok"})
        old = self.links.get(seat)
        self._link(seat, conn)
        if old is not None:
            log.warning("seat %d is back", seat)
            await old.close()
        self._check_mesh()

    def _link(self, seat: int, conn: Connection) -> None:
        self.links[seat] = conn
        self._done_links.discard(seat)
        asyncio.get_running_loop().create_task(self._read_from(seat, conn))
        # Tell the seat how many of its messages we hold, so that it sends the rest
        # (all of them on a new table; what was lost with the link after a crash).
        held = 0 if self.table is None else self.table.expects(seat)
        asyncio.get_running_loop().create_task(self._say(conn, {"kind": "resume", "next": held}))

    async def _say(self, conn: Connection, message: dict[str, Any]) -> None:
        with contextlib.suppress(OSError, ConnectionError):
            await conn.send(message)

    def _check_mesh(self) -> None:
        if self.roster is not None and len(self.links) == len(self.roster.members) - 1:
            self._mesh_ready.set()

    async def _read_from(self, seat: int, conn: Connection) -> None:
        """Read envelopes from one peer for as long as the link lasts."""
        try:
            while True:
                message = await conn.recv()
                if message.get("kind") == "bye":
                    return
                if message.get("kind") == "resume":
                    # Send from where the seat says it stands; what it already has it drops.
                    self._link_sent[seat] = field_of(message, "next", int)
                    await self._incoming.put((seat, None))  # wake the game loop to send
                    continue
                if message.get("kind") != "env":
                    raise WireError(f"unexpected {message.get('kind')!r} during the game")
                envelope = Envelope.from_wire(message)
                if envelope.seat != seat:
                    raise RemoteProtocolError(seat, f"relayed a message as seat {envelope.seat}")
                await self._incoming.put((seat, envelope))
        except EOFError:
            return
        except (ProtocolError, OSError, ssl.SSLError) as exc:
            log.warning("closing the link to seat %d: %s", seat, exc)
            await conn.close()
        finally:
            if self.links.get(seat) is conn:  # not a link already replaced by a rejoin
                self._done_links.add(seat)
                self._link_done.set()

    # ------------------------------------------------------------- play

    def prepare(self, saved: SavedTable | None = None) -> TablePeer:
        """Make this seat's TablePeer once the roster is signed (before the mesh, so links
        can say how many messages we hold); from `saved`, rebuild it after a crash."""
        roster = self.roster
        assert roster is not None
        game = games.load(roster.game)
        sealing = self.me.seal
        if saved is not None:
            sealing = X25519PrivateKey.from_private_bytes(saved.sealing_key)
        keys = TableKeys(
            self.me.identity.key,
            sealing,
            [Ed25519PublicKey.from_public_bytes(m.identity) for m in roster.members],
            [X25519PublicKey.from_public_bytes(m.seal) for m in roster.members],
        )
        if saved is None:
            self.table = TablePeer(
                game, roster.options, roster.table_id, self.seat, keys, None, self.me.test_seed
            )
            self.table.on_step = self.me.watch
        else:
            self.table = TablePeer.restore(
                game, roster.options, roster.table_id, self.seat, keys,
                saved.own_secrets, saved.envelopes, self.me.test_seed,
            )  # fmt: skip
            self.table.on_step = self.me.watch  # from here on: the replayed steps are old news
        return self.table

    def resume_from(self, saved: SavedTable) -> TablePeer:
        """Take our seat again at a saved table (after a crash), before reconnecting."""
        roster = Roster.from_wire(saved.roster)
        if roster.members[saved.seat].identity != self.me.identity.public_bytes:
            raise TableSetupError("that save file belongs to another identity (check --home)")
        self.roster = roster
        self.roster_signatures = saved.signatures
        self.seat = saved.seat
        self._trust_roster()
        return self.prepare(saved)

    async def play(self, silence: float = 60.0, save: BinaryIO | None = None) -> TableOutcome:
        """Play the game to the end, then disclose and audit; the outcome for this seat.

        With `save`, the signed transcript and this seat's steps are written to it as
        the game goes (see `protocol.savefile`).
        """
        table = self.table
        roster = self.roster
        assert table is not None and roster is not None, "prepare() the table first"
        writer = None
        if save is not None:
            writer = SaveWriter(save)
            writer.header(
                roster.to_wire(),
                self.roster_signatures,
                self.seat,
                table.mental.sealing_key_bytes(),
            )
        if not table.started:
            table.start()
        while not table.finished:
            if writer is not None:
                writer.catch_up(
                    table.mental.log, table.transcript, table.steps, table.mental.secret_log
                )
            await self._send_outbox(table)
            if table.wants_action():
                action = await self.me.decide(table.replica.clone())
                self._trace("act", len(table.steps))
                table.act(action)
                self._trace_applied(table)
                continue
            try:
                _, envelope = await asyncio.wait_for(self._incoming.get(), silence)
            except TimeoutError:
                # Report the silent seats and keep waiting: a seat that crashed can
                # come back, and nothing played so far is lost.
                due = sorted(self._due(table))
                self.on_silence(due, silence)
                continue
            if envelope is not None:
                table.receive(envelope)
                self._trace_applied(table)
        await self._send_outbox(table)
        if writer is not None:
            writer.catch_up(
                table.mental.log, table.transcript, table.steps, table.mental.secret_log
            )
        for conn in self.links.values():
            with contextlib.suppress(Exception):
                await conn.send({"kind": "bye"})
        # Close only once every other seat is done too: closing early would cut
        # off a seat still reading our last messages.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(silence):
                while len(self._done_links) < len(self.links):
                    self._link_done.clear()
                    await self._link_done.wait()
        assert table.outcome is not None
        return table.outcome

    def _trace(self, event: str, step: int) -> None:
        if self.trace is not None:
            self.trace.write(
                json.dumps({"seat": self.seat, "event": event, "step": step, "t": time.monotonic()})
                + "\n"
            )

    def _trace_applied(self, table: TablePeer) -> None:
        while self._traced < len(table.steps):
            self._trace("applied", self._traced)
            self._traced += 1

    def _due(self, table: TablePeer) -> set[int]:
        waiting = table._waiting
        if isinstance(waiting, int):
            return table.mental.waiting_for(waiting)
        return set()

    async def _send_outbox(self, table: TablePeer) -> None:
        """Send each link the part of our transcript it has not been sent yet, in order."""
        table.outbox.clear()  # we send from `table.sent`, per link, which also serves resends
        for seat, conn in list(self.links.items()):
            start = self._link_sent.get(seat, 0)
            if start >= len(table.sent) or conn.closed:
                continue  # a dead link: the seat asks again (resume) when it is back
            frames = [encode_frame(e.to_wire()) for e in table.sent[start:]]
            self._link_sent[seat] = len(table.sent)
            try:
                await conn.send_frames(frames)
            except (OSError, ConnectionError) as exc:
                log.warning("cannot send to seat %d: %s", seat, exc)

    async def close(self) -> None:
        """Close every connection and stop listening."""
        for conn in list(self.links.values()):
            await conn.close()
        if self.server is not None:
            self.server.close()


def _log_silence(seats: list[int], seconds: float) -> None:
    who = ", ".join(f"seat {s}" for s in seats) or "the table"
    log.warning("%s silent for %.0f s; the table waits", who, seconds)
