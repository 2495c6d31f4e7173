"""Tables on a LAN: TLS connections, the host's rendezvous, the full mesh, and the game.

This is the only part of `protocol/` that touches sockets and clocks. It moves
frames, keeps time and counts connections; every decision about the game is
`TablePeer`'s.

Setting up a table:

1. The host listens and prints an invite code (address, its fingerprint, a secret).
2. A joiner connects over TLS, checks the host's certificate carries the pinned
   key, and sends JOIN with its identity, its sealing key for this table, the
   port it listens on, and an HMAC of all that under the table secret.
3. When every seat is taken the host sends the ROSTER; every seat signs it; the
   host passes on all signatures and everyone checks them. A joiner that hangs up
   or does not sign in time loses its seat, the others are told the roster is
   cancelled, and the host waits for the seat to fill again. From the signed
   roster on, the host has no authority.
4. The seats connect as a full mesh: seat j connects to every seat i < j, pins
   i's certificate to the roster, and proves it is seat j with a signed HELLO.

Against strangers on the LAN (the host listens all game long): a connection is
counted before its TLS handshake is even started, per address and in total; it
has a few seconds for the handshake and its first message together, and small
frames until it has proved the invite secret or its roster seat; once the
roster is signed, the TLS layer itself refuses any certificate not in it.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import socket
import ssl
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple, TextIO

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from p2pcards import games
from p2pcards.decks import DeckError, seat_deck
from p2pcards.engine import Action, State
from p2pcards.errors import P2PCardsError
from p2pcards.fingerprint import rules_fingerprint
from protocol.commitments import canonical
from protocol.defaults import (
    HANDSHAKE_SECONDS,
    HEARTBEAT_SECONDS,
    LEAVE_SECONDS,
    ROSTER_SECONDS,
    SILENT_SECONDS,
    WATCH_SECONDS,
)
from protocol.errors import ProtocolError, RemoteProtocolError
from protocol.gate import StrangerGate
from protocol.identity import Identity, certificate_key, fingerprint
from protocol.invite import Invite, new_secret
from protocol.roster import (
    MAX_CERT,
    MAX_NAME,
    NONCE_BYTES,
    Member,
    Roster,
    TableSetupError,
    check_host,
    check_same_rules,
    verify_signature,
)
from protocol.savefile import SavedTable, SaveWriter, rebuild
from protocol.table_peer import TableEvent, TableKeys, TableOutcome, TablePeer
from protocol.transcript import Envelope
from protocol.wire import (
    PEER,
    STRANGER,
    FrameDecoder,
    Limits,
    WireError,
    encode_frame,
    field_of,
    int_field,
    text_field,
)

log = logging.getLogger("p2pcards.net")

VERSION = 1
MAX_STRANGERS = 64  # connections that have not proved anything yet, in total
# Per address: a whole table of seats may sit behind one address (one machine, or NAT),
# and all of them dial us at once when the mesh forms.
MAX_STRANGERS_PER_ADDRESS = 16
SEND_BUFFER_LIMIT = 8 << 20  # bytes waiting on one link before it counts as dead

Decide = Callable[[State], Awaitable[Action]]


def settle_tasks(*tasks: asyncio.Future[Any] | None) -> None:
    """Cancel the tasks still running, and take the outcome of each once it is done.

    A person's decision can end while the seat is leaving (Ctrl-C, then the terminal closes
    its input), before or even after it is cancelled: `wait_for` hands back a line that came
    as the cancel did, and the decision raises LeaveTable. Nobody reads that task after, and
    asyncio would print its exception with a traceback.
    """
    for task in tasks:
        if task is None:
            continue
        if task.done():
            _take_outcome(task)
        else:
            task.cancel()
            task.add_done_callback(_take_outcome)


def _take_outcome(task: asyncio.Future[Any]) -> None:
    if not task.cancelled():
        task.exception()  # taken: a decision that ended as we left is no error of ours


class LeaveTable(Exception):
    """The person or program at this seat leaves: `reason` goes to the others, signed."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class JoinRefused(TableSetupError):
    """We could not take a seat; `bad_input` when what the user gave is wrong (the invite's
    secret, a deck the table's game refuses), theirs to mend, not a network failure."""

    def __init__(self, reason: str, bad_input: bool = False) -> None:
        super().__init__(reason)
        self.bad_input = bad_input


# Why a host turns a joiner away, as it says it (`refused` {`reason`, `why`}), and in words.
REFUSALS = {
    "secret": "that invite's secret is wrong (check the code the host printed)",
    "full": "the table is full",
    "taken": "that identity already has a seat at this table (another --home?)",
}


def game_name(welcome: dict[str, Any]) -> str:
    """The game a welcome names, printable."""
    name = welcome.get("game")
    return name[:40] if isinstance(name, str) and name.isprintable() else "an unknown game"


def seat_list(seats: list[int]) -> str:
    """'seat 1', 'seats 1 and 2', 'seats 1, 2 and 3'."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}"


def _certificate_required(exc: BaseException | None) -> bool:
    """Whether TLS refused us for want of a roster certificate: a table under way."""
    return isinstance(exc, ssl.SSLError) and "CERTIFICATE_REQUIRED" in str(exc).upper().replace(
        " ", "_"
    )


def connection_problem(exc: BaseException) -> str:
    """What went wrong with a connection, in words: never a raw SSL string or `()`."""
    if _certificate_required(exc):
        return "it takes only the seats of its table (the game has begun)"
    if isinstance(exc, ssl.SSLError):
        text = str(exc).upper()
        if "PEER_DID_NOT_RETURN_A_CERTIFICATE" in text or "CERTIFICATE_VERIFY_FAILED" in text:
            return "it is no seat of this table (its certificate is not in the roster)"
        return "the secure connection failed (TLS)"
    if isinstance(exc, TimeoutError):
        return "no answer in time"
    if isinstance(exc, EOFError):
        return "it closed the connection"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


# ------------------------------------------------------------------ TLS


def server_context(cert: Path, key: Path, trusted: bytes | None = None) -> ssl.SSLContext:
    """TLS 1.3 only, presenting our self-signed certificate.

    Before the roster, a client certificate is optional (joiners have none we could
    know). With `trusted` (the roster's certificates), one of them is required: a
    stranger's handshake fails in the TLS layer itself.
    """
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_3
    context.load_cert_chain(cert, key)
    context.verify_mode = ssl.CERT_OPTIONAL
    if trusted is not None:
        context.load_verify_locations(cadata=trusted)
        context.verify_mode = ssl.CERT_REQUIRED
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


def lan_address() -> str | None:
    """The address this machine reaches the LAN from (the default route's), if any.

    Connecting a UDP socket sends nothing; it only asks the kernel which address
    it would send from. None when that is a loopback address or there is no route.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never answered, never sent to
            address: str = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


# ----------------------------------------------------------- connections


MAX_QUEUED = 64  # messages a connection holds before anyone reads them (setting up)


class _Frames(asyncio.Protocol):
    """The protocol under a `Connection`: bytes in, as they arrive."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.conn._made(transport)

    def data_received(self, data: bytes) -> None:
        self.conn._feed(data)

    def eof_received(self) -> bool:
        return False  # close: a half-closed link has nothing more to say

    def connection_lost(self, exc: Exception | None) -> None:
        self.conn._lost()


Handler = Callable[[dict[str, Any]], None]


class Connection:
    """One framed, TLS-protected connection to a peer.

    While a table forms, messages wait in a short queue for `recv`. During the game,
    `serve` hands each message to a handler the moment its frame is complete, inside
    the transport's callback: no stream buffer, no reading task to wake per message
    (that hop was a tenth of a seat's CPU per step). Frames are decoded as they
    arrive, within the connection's limits, so nothing buffers more than one frame.
    """

    def __init__(self, limits: Limits = STRANGER) -> None:
        self.decoder = FrameDecoder(limits)
        self.protocol = _Frames(self)
        self.transport: asyncio.Transport | None = None
        self.last_heard = time.monotonic()
        self.on_connected: Callable[[], None] | None = None
        self._messages: collections.deque[dict[str, Any]] = collections.deque()
        self._waiter: asyncio.Future[None] | None = None
        self._ended: WireError | EOFError | None = None
        self._handler: Handler | None = None
        self._on_end: Callable[[WireError | EOFError], None] | None = None
        self._gone: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._closed = False

    @staticmethod
    async def dial(host: str, port: int, context: ssl.SSLContext) -> Connection:
        """A TLS connection to `host:port`."""
        conn = Connection()
        await asyncio.get_running_loop().create_connection(
            lambda: conn.protocol, host, port, ssl=context
        )
        return conn

    async def start_tls(self, context: ssl.SSLContext) -> None:
        """Turn an accepted plain connection into a TLS one (the server's side)."""
        assert self.transport is not None
        transport = await asyncio.get_running_loop().start_tls(
            self.transport, self.protocol, context, server_side=True
        )
        if transport is None:
            raise EOFError("connection closed during the handshake")
        self.transport = transport

    def trust(self) -> None:
        """The other side has proved who it is: frames may now be as large as a peer's."""
        self.decoder.limits = PEER

    def peer_key(self) -> bytes:
        """The Ed25519 key in the certificate the other side presented."""
        ssl_object = self.transport.get_extra_info("ssl_object") if self.transport else None
        der = ssl_object.getpeercert(binary_form=True) if ssl_object else None
        return certificate_key(der) if der else b""

    async def send(self, message: dict[str, Any]) -> None:
        """Write one frame."""
        self.post([encode_frame(message)])

    def post(self, frames: list[bytes]) -> None:
        """Write frames without waiting: the game loop never blocks on a slow link. A link
        whose unsent bytes pile up past the limit is closed instead (ConnectionError)."""
        transport = self.transport
        if transport is None or transport.is_closing():
            raise ConnectionError("the link is closed")
        transport.write(b"".join(frames))
        if transport.get_write_buffer_size() > SEND_BUFFER_LIMIT:
            transport.abort()
            raise ConnectionError("the link does not take what we send")

    def unsent(self) -> int:
        """Bytes written but not yet taken by the network."""
        return self.transport.get_write_buffer_size() if self.transport else 0

    @property
    def closed(self) -> bool:
        """Whether this link can no longer carry anything."""
        return self.transport is None or self.transport.is_closing()

    async def recv(self, timeout: float | None = None) -> dict[str, Any]:
        """The next message (a map); WireError for anything else, EOFError at the end."""
        while not self._messages:
            if self._ended is not None:
                raise self._ended
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await asyncio.wait_for(self._waiter, timeout)
            finally:
                self._waiter = None
        return self._messages.popleft()

    def serve(self, handler: Handler, on_end: Callable[[WireError | EOFError], None]) -> None:
        """From now on, each message goes to `handler` as it arrives, and `on_end` is told
        once the link ends (a bad frame, or closed). What was already queued goes first."""
        self._handler, self._on_end = handler, on_end
        while self._messages:
            handler(self._messages.popleft())
        if self._ended is not None:
            on_end(self._ended)

    def abort(self) -> None:
        """Close at once, without waiting for anything."""
        if self.transport is not None:
            self.transport.abort()

    async def close(self) -> None:
        """Close, without waiting long for the other side's TLS close (both sides are done).

        Safe to call again; the wait is shielded, so that a timed-out wait does not
        cancel the future a second caller awaits.
        """
        if self._closed:
            return
        self._closed = True
        if self.transport is not None:
            self.transport.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.shield(self._gone), 0.05)

    # ------------------------------------------------------------- the protocol's side

    def _made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        if self.on_connected is not None:
            self.on_connected()

    def _feed(self, data: bytes) -> None:
        if self._ended is not None:
            return
        try:
            messages = self.decoder.feed(data)
        except WireError as exc:
            self._end(exc)
            return
        if messages:
            self.last_heard = time.monotonic()
        for message in messages:
            if not isinstance(message, dict):
                self._end(WireError("a message must be a map"))
                return
            if self._handler is not None:
                self._handler(message)
            elif len(self._messages) >= MAX_QUEUED:
                self._end(WireError(f"sent over {MAX_QUEUED} messages before any was read"))
                return
            else:
                self._messages.append(message)
        if self._messages and self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    def _lost(self) -> None:
        pending = self.decoder.pending() and self.decoder.failed is None
        self._end(WireError("connection closed inside a frame") if pending else EOFError())
        if not self._gone.done():
            self._gone.set_result(None)

    def _end(self, error: WireError | EOFError) -> None:
        if self._ended is not None:
            return
        self._ended = error
        if isinstance(error, WireError) and self.transport is not None:
            self.transport.abort()
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)
        if self._on_end is not None:
            self._on_end(error)


def _join_proof(
    secret: str, identity: bytes, seal: bytes, port: int, host_key: bytes, nonce: bytes
) -> bytes:
    data = canonical(["p2pcards/join/2", identity, seal, port, host_key, nonce])
    return hmac.new(secret.encode(), data, hashlib.sha256).digest()


def _fresh_nonce() -> bytes:
    return secrets.token_bytes(NONCE_BYTES)


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
    # Whether `watch` also sees the steps a resumed seat plays through again: an agent's
    # does (a reading agent's worlds, a bot's events); a person's log showed them already.
    watch_replayed: bool = False
    # Told the seat's final replica when the game has ended (a bot's result message); it
    # may block (a program to reap), so it runs in a thread.
    finish: Callable[[State], None] | None = None
    test_seed: int | None = None  # reproducible shuffles for tests only (see MentalPeer)
    deck: str | None = None  # own decks: a shipped deck's name or a deck file (--deck)
    # Told the names of the seats whose decision the table waits for, when that changes.
    waiting: Callable[[list[str]], None] | None = None


@dataclass
class HostedTable:
    """The host's side while seats fill up."""

    game: str
    seats: int
    options: dict[str, Any]
    secret: str = field(default_factory=new_secret)
    table_id: bytes = field(default_factory=lambda: secrets.token_bytes(16))
    nonce: bytes = field(default_factory=_fresh_nonce)  # the host's part of the session id


@dataclass
class _Joiner:
    member: Member
    conn: Connection
    watcher: asyncio.Task[None] | None = None


class Address(NamedTuple):
    """Where a seat listens now (its roster address, until it comes back from another)."""

    host: str
    port: int


MAX_WHERE = 64  # seats' current addresses one hello-ok may carry


def _where_of(value: Any, seats: int) -> dict[int, Address]:
    """The current addresses a seat passed on in its hello-ok, every field checked."""
    if not isinstance(value, list) or len(value) > min(seats, MAX_WHERE):
        raise WireError("where must list at most one address per seat")
    found: dict[int, Address] = {}
    for entry in value:
        if not isinstance(entry, list) or len(entry) != 3:
            raise WireError("an address is [seat, host, port]")
        seat, host, port = entry
        if type(seat) is not int or not 0 <= seat < seats:
            raise WireError("an address names a seat that is not at the table")
        if type(port) is not int or not 1 <= port <= 65535 or not isinstance(host, str):
            raise WireError("an address is a host and a port 1-65535")
        found[seat] = Address(check_host(host), port)
    return found


@dataclass
class _Absence:
    """A seat we have not heard from: since when, and why."""

    since: float
    why: str  # "left", "closed" or "silent"
    told: bool = False


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
        self.say: Callable[[str], None] = _log_line  # lines for the person at this seat
        self._traced = 0
        self.bind_host = host
        self.bind_port = port
        self.port = 0
        self.server: asyncio.Server | None = None
        self.cert, self.key = seat_info.identity.certificate_files(seat_info.home / "tls")
        self.cert_der = seat_info.identity.certificate_der(seat_info.home / "tls")
        self._context = server_context(self.cert, self.key)
        self.roster: Roster | None = None
        self.roster_signatures: list[bytes] = []
        self.seat = -1
        self.links: dict[int, Connection] = {}
        self.table: TablePeer | None = None
        self._hosted: HostedTable | None = None
        self._joiners: list[_Joiner] = []
        self._seats_changed = asyncio.Event()
        self._mesh_ready = asyncio.Event()
        self._roster_ready = asyncio.Event()
        self._advertise = host
        self._wake = asyncio.Event()  # something arrived: the game loop has work
        self._playing = False  # play() is running: links send what follows from a message
        self._leaving = False  # we are leaving the table: links that end now are no news
        self._writer: SaveWriter | None = None
        self._link_sent: dict[int, int] = {}  # per seat: how many of our envelopes it has been sent
        # Seats on a new link whose "resume" has not come: what they hold is unknown until it
        # does, and sending from the old link's count would put later messages before the
        # ones lost with it (a rejoining seat would see a gap and blame an honest sender).
        self._awaiting_resume: set[int] = set()
        self._done_links: set[int] = set()  # seats that said bye or closed their link
        self._finished_seats: set[int] = set()  # seats that said bye: done, not gone
        self._link_done = asyncio.Event()
        self._gate: StrangerGate[Connection] = StrangerGate(
            MAX_STRANGERS, MAX_STRANGERS_PER_ADDRESS
        )
        self._absent: dict[int, _Absence] = {}
        # Seats that came back from another address than the roster's: where to dial them
        # (a seat resumed later must reach the table as it is now, not as it began).
        self.addresses: dict[int, Address] = {}
        self._owed_since: dict[int, float] = {}  # seats whose due share we wait for, since when
        self._leave_after = LEAVE_SECONDS
        self._waiting_on: list[int] = []  # seats whose decision we last said we wait for
        self.leave_reason = "interrupted"  # what our leave says when `leave` is set
        self._tasks: set[asyncio.Task[Any]] = set()  # kept, so none is collected mid-run
        self.refused = 0  # connections turned away (for tests and floods)

    def _spawn(self, coroutine: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def listen(self, or_any_port: bool = False) -> int:
        """Start accepting connections; returns the port. TLS starts per connection, once
        the connection is within the limits for strangers. With `or_any_port`, a port that
        is taken gives way to any free one (a seat coming back tries its old port first)."""
        loop = asyncio.get_running_loop()
        try:
            self.server = await loop.create_server(self._connection, self.bind_host, self.bind_port)
        except OSError:
            if not or_any_port or self.bind_port == 0:
                raise
            self.bind_port = 0
            self.server = await loop.create_server(self._connection, self.bind_host, 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self.port

    def _connection(self) -> asyncio.Protocol:
        """A connection someone opened to us: it is looked at as soon as it is made."""
        conn = Connection(STRANGER)

        def accept() -> None:
            self._spawn(self._accept(conn))

        conn.on_connected = accept
        return conn.protocol

    # ---------------------------------------------------------- hosting

    def _trust_roster(self) -> None:
        """From now on, a client certificate must be one of the roster's (TLS-level pinning)."""
        assert self.roster is not None
        others = [m.cert for i, m in enumerate(self.roster.members) if i != self.seat]
        self._context = server_context(self.cert, self.key, b"".join(others))
        # Nobody new can sit down now: an address that is no seat's gets one handshake
        # every five seconds (all a seat coming back from a new address needs).
        self._gate.rate, self._gate.burst = 0.2, 1.0
        self._roster_ready.set()

    def free_seats(self) -> int:
        """Seats still open at the table this node hosts."""
        table = self._hosted
        return 0 if table is None else table.seats - 1 - len(self._joiners)

    def host(self, table: HostedTable, advertise: str) -> Invite:
        """Open a table as seat 0; the invite code to hand out."""
        self._hosted = table
        self.seat = 0
        self._advertise = check_host(advertise)
        return Invite(self._advertise, self.port, self.me.identity.fingerprint, table.secret)

    async def wait_for_seats(self, timeout: float | None = None) -> None:
        """Wait until every seat is taken and every seat has signed the roster.

        A joiner that hangs up while waiting loses its seat; one that does not sign
        in time (or signs wrongly) too, and the others hear the roster is cancelled
        and wait for the next one.
        """
        table = self._hosted
        assert table is not None
        async with asyncio.timeout(timeout):
            while True:
                while len(self._joiners) < table.seats - 1:
                    self._seats_changed.clear()
                    await self._seats_changed.wait()
                if await self._form_roster(table):
                    return

    async def _form_roster(self, table: HostedTable) -> bool:
        joiners = list(self._joiners)
        for joiner in joiners:
            if joiner.watcher is not None:
                joiner.watcher.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await joiner.watcher
        me = Member(
            self.me.name,
            self.me.identity.public_bytes,
            self.me.seal.public_key().public_bytes_raw(),
            self._advertise,
            self.port,
            self.cert_der,
            table.nonce,
        )
        roster = Roster(
            table.table_id,
            table.game,
            table.options,
            [me] + [j.member for j in joiners],
            rules_fingerprint(table.game),
        )
        digest = roster.digest()

        async def signature_of(joiner: _Joiner) -> bytes | None:
            try:
                await joiner.conn.send({"kind": "roster", "roster": roster.to_wire()})
                reply = await joiner.conn.recv(timeout=ROSTER_SECONDS)
                if reply.get("kind") == "roster-refused":  # its reason, checked as text
                    raise TableSetupError(f"it refused: {text_field(reply, 'reason', 300)}")
                signature: bytes = field_of(reply, "signature", bytes, 64)
                verify_signature(joiner.member.identity, signature, digest, "roster signature")
                return signature
            except (ProtocolError, EOFError, OSError, TimeoutError, ssl.SSLError) as exc:
                log.warning("%s did not sign the roster: %s", joiner.member.name, exc)
                return None

        signed = await asyncio.gather(*(signature_of(j) for j in joiners))
        failed = [j for j, s in zip(joiners, signed, strict=True) if s is None]
        if failed:
            for joiner in failed:
                self._joiners.remove(joiner)
                await joiner.conn.close()
            for joiner in self._joiners:
                with contextlib.suppress(OSError, ConnectionError):
                    await joiner.conn.send(
                        {"kind": "roster-cancelled", "reason": "a seat left before signing"}
                    )
                joiner.watcher = self._spawn(self._watch_joiner(joiner))
            self._seats_changed.set()
            return False
        signatures = [self.me.identity.key.sign(digest)] + [s for s in signed if s is not None]
        self.roster = roster
        self.roster_signatures = signatures
        self._trust_roster()
        for joiner in joiners:
            with contextlib.suppress(OSError, ConnectionError):
                await joiner.conn.send({"kind": "roster-signed", "signatures": signatures})
            await joiner.conn.close()
        return True

    async def _watch_joiner(self, joiner: _Joiner) -> None:
        """While the table fills, a seated joiner only waits: hanging up frees its seat."""
        with contextlib.suppress(asyncio.CancelledError):
            try:
                await joiner.conn.recv()
                log.warning("%s spoke out of turn before the roster", joiner.member.name)
            except (ProtocolError, EOFError, OSError, ssl.SSLError):
                pass
            if joiner in self._joiners:
                self._joiners.remove(joiner)
                log.info("%s left before the table filled", joiner.member.name)
                await joiner.conn.close()
                self._seats_changed.set()

    async def _accept(self, conn: Connection) -> None:
        assert conn.transport is not None
        peer = conn.transport.get_extra_info("peername")
        address = str(peer[0]) if peer else "?"
        known = self.roster is not None and address in (
            {m.host for m in self.roster.members} | {a.host for a in self.addresses.values()}
        )
        admitted, evicted = self._gate.arrive(address, conn, time.monotonic(), known)
        for older in evicted:
            older.abort()  # the oldest that proved nothing makes room (see protocol.gate)
        if not admitted:
            self.refused += 1
            conn.abort()  # before the handshake: a flood costs us no cryptography
            return
        try:
            # One deadline for the handshake and the whole first message: a peer that
            # trickles bytes (slow loris) cannot hold a connection open.
            async with asyncio.timeout(HANDSHAKE_SECONDS):
                await conn.start_tls(self._context)
                first = await conn.recv()
                kind = first.get("kind")
                if kind == "join":
                    joiner = await self._take_join(conn, first, address)
                elif kind == "hello":
                    await self._take_hello(conn, first)
                    joiner = None
                else:
                    raise WireError(f"unexpected first message {str(kind)[:40]!r}")
        except (ProtocolError, EOFError, OSError, TimeoutError, ssl.SSLError) as exc:
            self.refused += 1
            unlogged = self._gate.log_now(address, time.monotonic())
            if unlogged is not None:
                more = f" (and {unlogged} more since the last line)" if unlogged else ""
                problem = connection_problem(exc)
                log.warning("refused a connection from %s: %s", address, f"{problem}{more}")
            why = next((k for k, text in REFUSALS.items() if text == str(exc)), None)
            with contextlib.suppress(Exception):
                await conn.send({"kind": "refused", "reason": str(exc), "why": why})
            await conn.close()
            return
        finally:
            self._gate.leave(conn)
        if joiner is not None:
            joiner.watcher = self._spawn(self._watch_joiner(joiner))

    async def _take_join(self, conn: Connection, message: dict[str, Any], address: str) -> _Joiner:
        table = self._hosted
        if table is None or self.roster is not None or len(self._joiners) >= table.seats - 1:
            raise JoinRefused(REFUSALS["full"])
        identity = field_of(message, "identity", bytes, 32)
        seal = field_of(message, "seal", bytes, 32)
        port = int_field(message, "port", 1, 65535)
        proof = field_of(message, "proof", bytes, 32)
        nonce = field_of(message, "nonce", bytes, NONCE_BYTES)
        cert = field_of(message, "cert", bytes)
        name = text_field(message, "name", MAX_NAME)
        if len(cert) > MAX_CERT or certificate_key(cert) != identity:
            raise TableSetupError("the certificate sent does not carry the identity key")
        host_key = self.me.identity.public_bytes
        expected = _join_proof(table.secret, identity, seal, port, host_key, nonce)
        if not hmac.compare_digest(proof, expected):
            raise JoinRefused(REFUSALS["secret"], bad_input=True)
        taken = {j.member.identity for j in self._joiners} | {self.me.identity.public_bytes}
        if identity in taken:
            raise JoinRefused(REFUSALS["taken"])
        member = Member(name, identity, seal, check_host(address), port, cert, nonce)
        joiner = _Joiner(member, conn)
        self._joiners.append(joiner)
        await conn.send({"kind": "welcome", "seats": table.seats, "game": table.game})
        log.info("%s (%s) took a seat", name, fingerprint(identity))
        self._seats_changed.set()
        return joiner

    # ---------------------------------------------------------- joining

    async def join(self, invite: Invite, timeout: float | None = None) -> None:
        """Take a seat at the table an invite code names; returns once the roster is signed.

        A host under a flood closes the oldest connections that have proved nothing
        yet (see `protocol.gate`): a connection closed before its handshake is tried
        again, a few times.
        """
        where = f"{invite.host}:{invite.port}"
        for attempt in range(4):
            try:
                conn = await asyncio.wait_for(
                    Connection.dial(invite.host, invite.port, client_context()), 10
                )
                break
            except (ConnectionResetError, ConnectionAbortedError, ssl.SSLError) as exc:
                if attempt == 3:
                    raise TableSetupError(
                        f"{where} turned the connection away ({connection_problem(exc)}); "
                        "the host may be busy: try again"
                    ) from None
                await asyncio.sleep(0.3 * 2**attempt)
            except (OSError, TimeoutError) as exc:
                raise TableSetupError(f"cannot reach {where}: {connection_problem(exc)}") from None
        try:
            await self._join_over(conn, invite, timeout)
        except (EOFError, OSError) as exc:  # ssl.SSLError too
            problem = connection_problem(exc)
            raise TableSetupError(f"the host closed the connection: {problem}") from None
        finally:
            await conn.close()

    async def _join_over(self, conn: Connection, invite: Invite, timeout: float | None) -> None:
        host_key = conn.peer_key()
        if fingerprint(host_key) != invite.fingerprint:
            raise TableSetupError("the host's key does not match the invite code's fingerprint")
        seal = self.me.seal.public_key().public_bytes_raw()
        identity = self.me.identity.public_bytes
        # Our own fresh part of the table's session id: whatever the host and the others
        # chose, nothing signed at another table verifies at this one.
        nonce = _fresh_nonce()
        proof = _join_proof(invite.secret, identity, seal, self.port, host_key, nonce)
        join = conn.send(
            {
                "kind": "join",
                "name": self.me.name,
                "identity": identity,
                "seal": seal,
                "port": self.port,
                "cert": self.cert_der,
                "nonce": nonce,
                "proof": proof,
            }
        )
        try:
            await join
            reply = await conn.recv(timeout=10)
        except (EOFError, ConnectionError, ssl.SSLError):
            # A host refuses in words, but one whose roster is signed takes only its seats'
            # certificates: TLS 1.3 says so after the handshake, and asyncio hands us a
            # link closed without a word.
            raise JoinRefused(
                f"the host refused: {REFUSALS['full']} (its game has begun)"
            ) from None
        if reply.get("kind") != "welcome":
            why, reason = reply.get("why"), reply.get("reason")
            if isinstance(why, str) and why in REFUSALS:
                raise JoinRefused(f"the host refused: {REFUSALS[why]}", why == "secret")
            raise JoinRefused(
                f"the host refused: {str(reason)[:200] if reason else 'no reason given'}"
            )
        if self.me.deck is not None:
            # Checked before the table counts on us: hanging up now frees the seat (the
            # host's watch), where a seat that signed the roster and then failed would
            # leave the table unable to seat anyone.
            try:
                game = games.load(text_field(reply, "game", 40))
                seat_deck(game, self.me.deck)
            except (DeckError, P2PCardsError) as exc:
                raise JoinRefused(f"the table plays {game_name(reply)}: {exc}", True) from None
        async with asyncio.timeout(timeout):
            while True:
                offer = await conn.recv()
                if offer.get("kind") != "roster":
                    raise TableSetupError(f"the host sent {str(offer.get('kind'))[:40]!r}")
                roster = Roster.from_wire(offer.get("roster"))
                try:
                    check_same_rules(roster)
                except TableSetupError as exc:
                    with contextlib.suppress(ProtocolError, OSError, EOFError):
                        await conn.send({"kind": "roster-refused", "reason": str(exc)[:300]})
                    raise
                seats = [i for i, m in enumerate(roster.members) if m.identity == identity]
                if len(seats) != 1 or roster.members[0].identity != host_key:
                    raise TableSetupError("the roster does not seat us, or not at the host's table")
                if roster.members[seats[0]].seal != seal:
                    raise TableSetupError("the roster gives us another sealing key")
                if roster.members[seats[0]].nonce != nonce or not roster.fresh:
                    raise TableSetupError(
                        "the roster leaves out our fresh nonce: it could be an old table's"
                    )
                await conn.send(
                    {"kind": "roster-sign", "signature": self.me.identity.key.sign(roster.digest())}
                )
                answer = await conn.recv(timeout=ROSTER_SECONDS + 10)
                if answer.get("kind") == "roster-cancelled":
                    continue  # a seat left before signing: the host waits for it to fill
                signatures = answer.get("signatures")
                if not isinstance(signatures, list) or len(signatures) != len(roster.members):
                    raise TableSetupError("the roster came back without every seat's signature")
                for member, signature in zip(roster.members, signatures, strict=True):
                    if not isinstance(signature, bytes):
                        raise TableSetupError("a roster signature is malformed")
                    verify_signature(
                        member.identity, signature, roster.digest(), "roster signature"
                    )
                self.seat = seats[0]
                self.roster = roster
                self.roster_signatures = signatures
                self._trust_roster()
                return

    # ------------------------------------------------------------- mesh

    async def connect_mesh(self, timeout: float = 30, rejoin: bool = False) -> None:
        """Connect to every lower seat; wait until every higher seat has connected to us.

        A seat coming back after a crash (`rejoin`) connects to every other seat itself:
        they are mid-game and will not dial a seat whose address has changed. It dials each
        where it listens now (a seat that came back from elsewhere is dialled there, as
        the save file or a seat that answered says), never only where the table began:
        two seats that each come back must find each other, not each play on alone. One
        it cannot reach is left out: its link comes when it dials us (or never, and the
        table's timeouts deal with it).
        """
        roster = self.roster
        assert roster is not None
        others = (
            [s for s in range(len(roster.members)) if s != self.seat]
            if rejoin
            else range(self.seat)
        )
        deadline = asyncio.get_running_loop().time() + timeout
        tried = {other: self._address_of(other) for other in others}
        unreached = [o for o in others if not await self._dial_until(o, timeout, rejoin, deadline)]
        for other in unreached:  # a seat that answered may have told us where it is now
            moved = self._address_of(other) != tried[other]
            if moved and await self._dial_until(other, timeout, rejoin, deadline):
                continue
            self.say(
                f"{self._who(other)} cannot be reached now (it may be away too); "
                "it reaches us when it comes back."
            )
        self._check_mesh()
        if not rejoin:
            try:
                await asyncio.wait_for(
                    self._mesh_ready.wait(), max(1.0, deadline - asyncio.get_running_loop().time())
                )
            except TimeoutError:
                missing = sorted(set(range(len(roster.members))) - set(self.links) - {self.seat})
                raise TableSetupError(
                    f"{seat_list(missing)} did not connect within {timeout:g} s"
                ) from None

    async def _dial_until(self, other: int, timeout: float, rejoin: bool, deadline: float) -> bool:
        """Dial a seat, a few times (a busy listener may turn a dial away); whether it
        answered. Off a rejoin, a seat that cannot be reached stops the table forming."""
        for attempt in range(4):
            try:
                await self._dial(other, timeout, rejoin)
                return True
            except (OSError, TimeoutError, ssl.SSLError, EOFError, ProtocolError) as exc:
                last_try = attempt == 3 or asyncio.get_running_loop().time() > deadline
                if last_try and not rejoin:
                    raise TableSetupError(
                        f"cannot connect to {self._who(other)}: {connection_problem(exc)}"
                    ) from None
                if last_try:
                    log.info("cannot reach seat %d again: %s", other, exc)
                    return False
                await asyncio.sleep(0.2 * 2**attempt)
        return False

    def _address_of(self, seat: int) -> Address:
        """Where `seat` listens now, as far as we know."""
        assert self.roster is not None
        member = self.roster.members[seat]
        return self.addresses.get(seat, Address(member.host, member.port))

    def _note_address(self, seat: int, address: Address) -> None:
        """A seat listens somewhere new (or at its roster address again): dial it there
        from now on, and keep it in the save file for a resume of ours."""
        if seat == self.seat or self._address_of(seat) == address:
            return
        assert self.roster is not None
        member = self.roster.members[seat]
        if address == Address(member.host, member.port):
            self.addresses.pop(seat, None)
        else:
            self.addresses[seat] = address
        if self._writer is not None:
            self._writer.moved(seat, address.host, address.port)

    async def _dial(self, other: int, timeout: float, rejoin: bool) -> None:
        assert self.roster is not None
        member = self.roster.members[other]
        address = self._address_of(other)
        context = client_context(self.cert, self.key)
        conn = await asyncio.wait_for(Connection.dial(address.host, address.port, context), timeout)
        if conn.peer_key() != member.identity:
            await conn.close()
            raise RemoteProtocolError(other, "presented a certificate that is not its roster key")
        nonce = secrets.token_bytes(16)
        signature = self.me.identity.key.sign(
            _hello_bytes(self.roster.session_id, self.seat, other, nonce)
        )
        hello = {"kind": "hello", "seat": self.seat, "nonce": nonce, "signature": signature}
        # A seat coming back says where it listens now: it may be on another port (or
        # machine) than the roster's, and a seat that resumes after it must find it there.
        await conn.send({**hello, "rejoin": rejoin, "port": self.port} if rejoin else hello)
        reply = await conn.recv(timeout=timeout)
        if reply.get("kind") != "hello-ok":
            await conn.close()
            raise RemoteProtocolError(other, f"refused our hello: {str(reply.get('reason'))[:200]}")
        if rejoin:
            where = _where_of(reply.get("where", []), len(self.roster.members))
            for seat, moved in where.items():
                if seat not in self.links:
                    self._note_address(seat, moved)
        conn.trust()
        self._link(other, conn)

    async def _take_hello(self, conn: Connection, message: dict[str, Any]) -> None:
        # A faster seat may say hello before the host's last message reaches us; the
        # handshake deadline bounds the wait.
        await self._roster_ready.wait()
        roster = self.roster
        assert roster is not None
        seat = int_field(message, "seat", 0, len(roster.members) - 1)
        rejoin = message.get("rejoin") is True
        if seat == self.seat or (not rejoin and (seat < self.seat or seat in self.links)):
            raise WireError(f"hello from seat {seat}, which should not connect to us")
        if conn.peer_key() != roster.members[seat].identity:
            raise TableSetupError(f"a hello as seat {seat} over a certificate that is not its own")
        nonce = field_of(message, "nonce", bytes, 16)
        signature = field_of(message, "signature", bytes, 64)
        verify_signature(
            roster.members[seat].identity,
            signature,
            _hello_bytes(roster.session_id, seat, self.seat, nonce),
            f"seat {seat}'s hello",
        )
        reply: dict[str, Any] = {"kind": "hello-ok"}
        if rejoin:
            # Its address is the one it dials from (the TLS channel is pinned to its key),
            # at the port it says it listens on now.
            peer = conn.transport.get_extra_info("peername") if conn.transport else None
            port = int_field(message, "port", 1, 65535)
            if peer:
                self._note_address(seat, Address(str(peer[0]), port))
            reply["where"] = [[s, a.host, a.port] for s, a in self.addresses.items() if s != seat]
        await conn.send(reply)
        conn.trust()
        old = self.links.get(seat)
        self._link(seat, conn)
        if old is not None:
            await old.close()
        self._check_mesh()

    def _link(self, seat: int, conn: Connection) -> None:
        self.links[seat] = conn
        self._awaiting_resume.add(seat)
        self._done_links.discard(seat)
        if seat in self._absent:
            del self._absent[seat]
            self.say(f"{self._who(seat)} is back.")
        conn.serve(
            lambda message: self._on_message(seat, conn, message),
            lambda error: self._on_end(seat, conn, error),
        )
        # Tell the seat how many of its messages we hold, so that it sends the rest
        # (all of them on a new table; what was lost with the link after a crash).
        held = 0 if self.table is None else self.table.expects(seat)
        with contextlib.suppress(ConnectionError, OSError):
            conn.post([encode_frame({"kind": "resume", "next": held})])

    def _check_mesh(self) -> None:
        if self.roster is not None and len(self.links) == len(self.roster.members) - 1:
            self._mesh_ready.set()

    def _on_message(self, seat: int, conn: Connection, message: dict[str, Any]) -> None:
        """One message on the link to `seat`, taken the moment its frame is complete."""
        try:
            kind = message.get("kind")
            if kind == "ping":
                return
            if kind == "bye":
                self._finished_seats.add(seat)
                self._link_ended(seat, conn)
                return
            if kind == "resume":
                # Send from where the seat says it stands; what it already has it drops.
                self._link_sent[seat] = int_field(message, "next", 0, 1 << 62)
                self._awaiting_resume.discard(seat)
                self._wake.set()
                return
            if kind != "env":
                raise WireError(f"unexpected {str(kind)[:40]!r} during the game")
            envelope = Envelope.from_wire(message)
            if envelope.seat != seat:
                raise RemoteProtocolError(seat, f"relayed a message as seat {envelope.seat}")
        except ProtocolError as exc:
            log.warning("closing the link to seat %d: %s", seat, exc)
            conn.abort()
            return
        # Taken here, at once: no queue between the link and the table, so a flooding
        # link waits on its own socket (TCP pushes back) and every message costs one hop
        # less.
        self._deliver(seat, envelope)

    def _on_end(self, seat: int, conn: Connection, error: WireError | EOFError) -> None:
        if isinstance(error, WireError):
            log.warning("closing the link to seat %d: %s", seat, error)
        self._link_ended(seat, conn)

    def _link_ended(self, seat: int, conn: Connection) -> None:
        if self.links.get(seat) is not conn or seat in self._done_links:
            return  # a link already replaced by a rejoin, or already counted
        self._done_links.add(seat)
        self._link_done.set()
        table = self.table
        playing = table is not None and not table.finished and not self._leaving
        if playing and seat not in self._finished_seats and seat not in self._absent:
            assert table is not None
            if seat in table.left:  # it said it leaves: its leave is the news, told once
                self._absent[seat] = _Absence(time.monotonic(), "left")
                return
            # Said at once, so that a seat back within the second hears "is back" after
            # it, whatever the watch's timing.
            self._absent[seat] = _Absence(time.monotonic(), "closed", told=True)
            self.say(
                f"{self._who(seat)} has lost its connection; the table waits "
                f"{self._leave_after:.0f} s for it, then ends without it."
            )

    # ------------------------------------------------------------- play

    def prepare(self, saved: SavedTable | None = None) -> TablePeer:
        """Make this seat's TablePeer once the roster is signed (before the mesh, so links
        can say how many messages we hold); from `saved`, rebuild it after a crash."""
        roster = self.roster
        assert roster is not None
        if saved is not None:
            again = self.me.watch if self.me.watch_replayed else None
            self.table = rebuild(saved, self.me.identity.key, self.me.test_seed, again)
        else:
            keys = TableKeys(
                self.me.identity.key,
                self.me.seal,
                [Ed25519PublicKey.from_public_bytes(m.identity) for m in roster.members],
                [X25519PublicKey.from_public_bytes(m.seal) for m in roster.members],
            )
            game = games.load(roster.game)
            try:
                deck = None if self.me.deck is None else seat_deck(game, self.me.deck)
            except DeckError as exc:
                raise TableSetupError(str(exc)) from None
            self.table = TablePeer(
                game, roster.options, roster.session_id, self.seat, keys, None, self.me.test_seed,
                deck,
            )  # fmt: skip
        self.table.on_step = self.me.watch
        return self.table

    def resume_from(self, saved: SavedTable) -> TablePeer:
        """Take our seat again at a saved table (after a crash), before reconnecting."""
        roster = saved.roster
        if roster.members[saved.seat].identity != self.me.identity.public_bytes:
            raise TableSetupError("that save file belongs to another identity (check --home)")
        check_same_rules(roster)  # p2pcards changed since the crash: the table plays on without us
        self.roster = roster
        self.roster_signatures = saved.signatures
        self.seat = saved.seat
        self.addresses = {seat: Address(*where) for seat, where in saved.addresses.items()}
        self._trust_roster()
        return self.prepare(saved)

    async def play(
        self,
        save: BinaryIO | None = None,
        silent: float = SILENT_SECONDS,
        leave_after: float = LEAVE_SECONDS,
        leave: asyncio.Event | None = None,
    ) -> TableOutcome:
        """Play the game to the end, then disclose and judge; the outcome for this seat.

        With `save`, the signed transcript and this seat's secrets and decisions are
        written to it as the game goes (see `protocol.savefile`). A seat not heard
        from for `silent` seconds, or that left or hung up, is waited for
        `leave_after` seconds; then the table ends with it forfeiting. Setting `leave`
        (Ctrl-C) or a decision raising `LeaveTable` makes this seat leave, signed, and
        raises LeaveTable here.
        """
        table = self.table
        roster = self.roster
        assert table is not None and roster is not None, "prepare() the table first"
        self._leave_after = leave_after
        writer = None
        if save is not None:
            writer = self._writer = SaveWriter(save)
            writer.header(
                roster, self.roster_signatures, self.seat, table.mental.sealing_key_bytes()
            )
            for seat, where in self.addresses.items():
                writer.moved(seat, where.host, where.port)
        if not table.started:
            table.start()
        table.come_back()  # a seat resumed after its signed leave says so, signed
        heartbeat = self._spawn(self._heartbeat())
        ticker = self._spawn(self._tick())
        self._playing = True
        decision: asyncio.Task[Action] | None = None
        leaving = asyncio.ensure_future(leave.wait()) if leave is not None else None
        if leaving is not None:
            leaving.add_done_callback(self._poke)
        watched = 0.0
        # One event wakes the loop: a message taken (`_deliver`), a decision made, a
        # leave asked for, or the ticker. Cheaper per message than asyncio.wait, which
        # builds a future, callbacks and a timer each time round.
        try:
            while not table.finished:
                self._save(writer, table)
                self._send_outbox(table)
                self._tell(table)
                self._say_waiting(table)
                if table.wants_action() and decision is None:
                    decision = asyncio.ensure_future(self.me.decide(table.replica.clone()))
                    decision.add_done_callback(self._poke)
                await self._wake.wait()
                self._wake.clear()
                if leaving is not None and leaving.done():
                    raise LeaveTable(self.leave_reason)  # Ctrl-C, or `q` while waiting
                if decision is not None and decision.done():
                    action = decision.result()  # LeaveTable (a person quits) goes up from here
                    decision = None
                    if table.wants_action():
                        self._trace("act", len(table.steps))
                        table.act(action)
                        self._trace_applied(table)
                now = time.monotonic()
                if now - watched >= WATCH_SECONDS:
                    watched = now
                    self._watch_absent(table, silent, leave_after)
        except LeaveTable as leaving_now:
            self._leaving = True
            table.leave(leaving_now.reason)
            self._save(writer, table)
            await self._drain_links(table)
            raise
        finally:
            self._playing = False
            heartbeat.cancel()
            ticker.cancel()
            settle_tasks(decision, leaving)
        self._tell(table)
        self._save(writer, table)
        self._send_outbox(table)
        for conn in self.links.values():
            with contextlib.suppress(Exception):
                conn.post([encode_frame({"kind": "bye"})])
        # Close only once every other seat is done too: closing early would cut off a
        # seat still reading our last messages.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(silent):
                while len(self._done_links) < len(self.links):
                    self._link_done.clear()
                    await self._link_done.wait()
        assert table.outcome is not None
        return table.outcome

    def _deliver(self, seat: int, envelope: Envelope) -> None:
        """An envelope from a link, straight to the table; the game loop is woken to send
        what follows from it."""
        table = self.table
        if table is None:
            return
        self._owed_since.pop(seat, None)
        absence = self._absent.get(seat)
        if absence is not None and absence.why == "silent":
            del self._absent[seat]
            if absence.told:
                self.say(f"{self._who(seat)} is heard from again.")
        table.receive(envelope)
        self._trace_applied(table)
        if self._playing:
            # What follows from a message goes out at once, from here: no hop through
            # the game loop for each message (the loop is woken only when it has work).
            self._save(self._writer, table)
            self._send_outbox(table)
            if not (table.events or table.wants_action() or table.finished):
                return
        self._wake.set()

    def _save(self, writer: SaveWriter | None, table: TablePeer) -> None:
        """Write what is new; to disk before anything of ours goes out (a seat resumed
        after a crash must find every secret and decision its messages followed from),
        otherwise when the buffer fills: what others sent, they send again on rejoin."""
        if writer is not None:
            unsent = any(self._link_sent.get(s, 0) < len(table.sent) for s in self.links)
            writer.catch_up(
                table.record, table.mental.secret_log, table.decisions, table.outcome,
                flush=unsent or table.finished,
            )  # fmt: skip

    def _tell(self, table: TablePeer) -> None:
        """Pass what happened at the table on to the person, in plain lines."""
        events, table.events = table.events, []
        for event in events:
            self._on_event(event)

    def _on_event(self, event: TableEvent) -> None:
        who = self._who(event.seat)
        if event.kind == "left":
            absence = self._absent.get(event.seat)
            if absence is None or absence.why != "left":
                absence = self._absent[event.seat] = _Absence(time.monotonic(), "left")
            if absence.told:
                return
            absence.told = True
            self.say(
                f"{who} left ({event.text}); waiting {self._leave_after:.0f} s for them to "
                "come back with `p2pcards join --resume FILE`."
            )
        elif event.kind == "back":
            if self._absent.pop(event.seat, None) is not None:  # else its link said so
                self.say(f"{who} is back.")
        else:
            self.say(f"The table stops: {event.text}")

    def _say_waiting(self, table: TablePeer) -> None:
        """Tell the seat whose decision the table waits for, once each time it changes."""
        if self.me.waiting is None or self.roster is None:
            return
        seats = sorted(table.waiting_for()) if table.waiting_on_decision() else []
        if seats != self._waiting_on:
            self._waiting_on = seats
            if seats:
                names = [self.roster.members[s].name or f"seat {s}" for s in seats]
                self.me.waiting(names)

    def _watch_absent(self, table: TablePeer, silent: float, leave_after: float) -> None:
        """Seats gone quiet, hung up or left: say so once, and after `leave_after` give up.

        A seat that pings but does not send a share that is due (a key, a commitment: no
        person thinks about those) for `silent` seconds counts as silent too.
        """
        assert self.roster is not None
        self._leave_after = leave_after
        now = time.monotonic()
        waiting = table.waiting_for() if not table.waiting_on_decision() else set()
        for seat in list(self._owed_since):
            if seat not in waiting:
                del self._owed_since[seat]
        for seat in range(len(self.roster.members)):
            if seat == self.seat or table.finished or seat in self._finished_seats:
                continue
            conn = self.links.get(seat)
            absence = self._absent.get(seat)
            if absence is None:
                owed = self._owed_since.setdefault(seat, now) if seat in waiting else now
                if conn is None or conn.closed:
                    absence = _Absence(now, "closed")
                elif now - conn.last_heard > silent:
                    absence = _Absence(conn.last_heard, "silent")
                elif now - owed > silent:
                    absence = _Absence(owed, "silent")  # alive, but not doing its part
                else:
                    continue
                self._absent[seat] = absence
            if not absence.told and (absence.why != "silent" or seat in waiting):
                absence.told = True
                what = {"closed": "has lost its connection", "silent": "is silent"}
                self.say(
                    f"{self._who(seat)} {what.get(absence.why, 'left')}; the table waits "
                    f"{leave_after:.0f} s for it, then ends without it."
                )
            if now - absence.since >= leave_after:
                reason = {
                    "left": "left the table",
                    "closed": f"lost its connection for {leave_after:.0f} s",
                    "silent": f"was silent for {leave_after:.0f} s",
                }[absence.why]
                table.give_up([seat], reason)

    def _who(self, seat: int) -> str:
        name = self.roster.members[seat].name if self.roster is not None else ""
        return f"seat {seat} ({name})" if name else f"seat {seat}"

    def _poke(self, _: object = None) -> None:
        self._wake.set()

    async def _tick(self) -> None:
        """Wake the game loop now and then, to look for silent seats."""
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            self._wake.set()

    async def _heartbeat(self) -> None:
        """A ping on every link while we play: silence then means the network, not a slow player."""
        frame = encode_frame({"kind": "ping"})
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            for conn in list(self.links.values()):
                with contextlib.suppress(ConnectionError, OSError):
                    conn.post([frame])

    async def _drain_links(self, table: TablePeer) -> None:
        """Send every link what we owe it (our leave, say), within two seconds: a link
        whose `resume` has not come yet gets it once it comes (a seat that quits the moment
        another comes back must still tell it so), and written bytes get time to go."""
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            self._send_outbox(table)
            waiting = any(s in self._awaiting_resume for s, c in self.links.items() if not c.closed)
            if not waiting and not any(c.unsent() for c in self.links.values()):
                return
            await asyncio.sleep(0.01)

    def _trace(self, event: str, step: int) -> None:
        if self.trace is not None:
            # `cpu`: this process's CPU seconds so far, so a benchmark can take the cost of
            # the steps alone, without start-up and teardown.
            entry = {"seat": self.seat, "event": event, "step": step, "t": time.monotonic()}
            self.trace.write(json.dumps({**entry, "cpu": time.process_time()}) + "\n")

    def _trace_applied(self, table: TablePeer) -> None:
        while self._traced < len(table.steps):
            self._trace("applied", self._traced)
            self._traced += 1

    def _send_outbox(self, table: TablePeer) -> None:
        """Send each link the part of our transcript it has not been sent yet, in order."""
        table.outbox.clear()  # we send from `table.sent`, per link, which also serves resends
        for seat, conn in list(self.links.items()):
            start = self._link_sent.get(seat, 0)
            if start >= len(table.sent) or conn.closed or seat in self._awaiting_resume:
                continue  # a dead link: the seat asks again (resume) when it is back
            self._link_sent[seat] = len(table.sent)
            try:
                conn.post([e.frame for e in table.sent[start:]])
            except (OSError, ConnectionError) as exc:
                log.warning("cannot send to seat %d: %s", seat, exc)

    async def close(self) -> None:
        """Close every connection and stop listening; what is still under way (a stranger's
        handshake, a link's reader) is stopped and waited for, so nothing is left for the
        event loop to cancel and complain about at exit."""
        if self.server is not None:
            self.server.close()
        tasks = [t for t in self._tasks if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 2)
        for conn in list(self.links.values()):
            await conn.close()
        for joiner in self._joiners:
            await joiner.conn.close()


def _log_line(line: str) -> None:
    log.warning("%s", line)
