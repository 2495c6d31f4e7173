"""Fuzz targets: every decoder of outside input, fed bytes the way real input reaches it.

A target takes `bytes` and may let only the exceptions it is registered with escape: the
project's own errors, the ones its callers catch. Anything else escaping (RecursionError,
TypeError, IndexError, OverflowError, UnicodeDecodeError, ...) is a bug. Decoders that take
a map get it by msgpack-decoding the bytes with the wire's limits, as a peer's frame
arrives. Seeds are real inputs, most of them read from the save file of a short game that
`p2pcards host` plays against an AI peer over TLS, so that mutations start from messages
that reach deep into each decoder; the mutators know the input's form (msgpack, frames,
text) and change values of the decoded structure as well as bytes.

Used by tests/fuzz/test_fuzz.py (hypothesis, small budget) and scripts/fuzz.py (long runs,
atheris when installed).
"""

from __future__ import annotations

import atexit
import base64
import contextlib
import copy
import functools
import json
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import msgpack
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from hypothesis import strategies as st

from ai.bots import observe_message, parse_act, parse_hello
from ai.bots import parse_line as parse_bot_line
from ai.errors import AgentFailure
from ai.match import game_record as match_record
from ai.match import play_match
from ai.records import RecordError, parse_line
from ai.records import from_json as record_from_json
from p2pcards import games
from p2pcards.adapters.common import SerializationError
from p2pcards.carddb import parse_toml
from p2pcards.dealer import LocalDealer
from p2pcards.decks import DeckError, deck_problems, parse_deck
from p2pcards.errors import ActionFormatError, CardDataError
from p2pcards.games.gammasphere import DECK_RULES as GAMMA_DECK_RULES
from p2pcards.games.gammasphere import cards as gamma_cards
from p2pcards.games.getgem import cards as getgem_cards
from p2pcards.games.rise_of_the_guys import DECK_RULES as GUYS_DECK_RULES
from p2pcards.games.rise_of_the_guys import cards as guys_cards
from p2pcards.games.rpg_battle import cards as rpg_battle_cards
from p2pcards.games.rpg_get import DECK_RULES as RPG_GET_DECK_RULES
from p2pcards.games.rpg_get import cards as rpg_get_cards
from p2pcards.windows import WindowFormatError, Windows
from protocol import codec
from protocol.discovery import Beacon, BeaconError
from protocol.errors import ProtocolError
from protocol.identity import KEY_FILE, Identity, certificate_key
from protocol.invite import Invite, InviteError, new_secret
from protocol.roster import Roster
from protocol.savefile import SaveFileError, load
from protocol.table_peer import TableKeys, TablePeer
from protocol.transcript import Envelope, Receiver, Sender
from protocol.wire import (
    PEER,
    STRANGER,
    FrameDecoder,
    Limits,
    WireError,
    decode_payload,
    encode_frame,
)

# ------------------------------------------------------------------ a real table

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class RealTable:
    """What a short two-seat game over TLS leaves behind: the raw material of the seeds.

    Read back from the host's save file as plain msgpack, not through the classes that
    wrote it, so the seeds are what really goes over the wire and into files.
    """

    save_file: bytes
    frames: list[bytes]  # the save file's frame payloads
    roster: dict[str, Any]  # as the header frame holds it
    envelopes: list[bytes]  # payloads of the `env` frames, in the order they were taken
    bodies: list[bytes]  # the mental-poker messages they carry, packed

    @property
    def table_id(self) -> bytes:
        """What the envelopes are signed under: the roster's session id."""
        return Roster.from_wire(self.roster).session_id

    def verify_keys(self) -> list[Ed25519PublicKey]:
        """Every seat's identity key."""
        return [Ed25519PublicKey.from_public_bytes(m["identity"]) for m in self.roster["members"]]


@functools.cache
def real_table() -> RealTable:
    """Host a two-seat rpg-battle with one AI peer, both greedy, one round: a whole game
    over TLS between two processes, as `p2pcards host` plays it (once per process)."""
    with tempfile.TemporaryDirectory() as home:
        command = [
            sys.executable, "-m", "cli", "host", "rpg-battle", "--seats", "2", "--port", "0",
            "--agent", "greedy", "--ai", "1", "--ai-agent", "greedy", "--round-cap", "1",
            "--home", home, "--json",
        ]  # fmt: skip
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
        saved = sorted(Path(home, "tables").glob("*.p2pt"))
        if done.returncode != 0 or not saved:
            raise RuntimeError(f"the seed table failed: {done.stderr[-2000:]}")
        data = saved[0].read_bytes()
    frames, _ = _split_frames(data)
    header = _unpack(frames[0])
    envelopes = [f for f in frames if _unpack(f).get("kind") == "env"]
    bodies = []
    for envelope in envelopes:
        body = _unpack(envelope)["body"]
        packed = body if isinstance(body, bytes) else _pack(body)  # signed bytes, or a map
        if _unpack(packed).get("kind") in codec.KINDS:
            bodies.append(packed)
    return RealTable(data, frames, header["roster"], envelopes, bodies)


def _pack(value: Any) -> bytes:
    packed: bytes = msgpack.packb(value, use_bin_type=True)
    return packed


@functools.cache
def _actions() -> list[dict[str, Any]]:
    """The legal actions of a real decision, as a bot is sent them."""
    state = games.load("rpg-battle").new_initial_state(2)
    dealer = LocalDealer(seed=1)
    while state.is_chance_node():
        state.apply_action(dealer.sample(state))
    actions: list[dict[str, Any]] = observe_message(state.observation(state.current_player()))[
        "actions"
    ]
    return actions


# ------------------------------------------------------------------ the targets


def frames(limits: Limits, data: bytes) -> None:
    """A byte stream cut into frames (in two reads, as a socket may deliver it), within the
    limits for a seated peer or for a stranger (a connection that has proved nothing)."""
    decoder = FrameDecoder(limits)
    half = len(data) // 2
    decoder.feed(data[:half])
    decoder.feed(data[half:])


def payload(limits: Limits, data: bytes) -> None:
    """One frame's payload, within a peer's or a stranger's limits."""
    decode_payload(data, limits)


def _message(data: bytes) -> dict[str, Any]:
    """A frame's payload as `Connection.recv` hands it on: a map, or WireError."""
    message = decode_payload(data)
    if not isinstance(message, dict):
        raise WireError("a message must be a map")
    return message


def envelope(data: bytes) -> None:
    """A message during the game: checked as an envelope, accepted (signature, chain) by a
    receiver that knows the seed table's keys, and its body decoded."""
    message = _message(data)
    if message.get("kind") != "env":
        raise WireError(f"unexpected {message.get('kind')!r} during the game")
    table = real_table()
    received = Envelope.from_wire(message)
    body = Receiver(table.table_id, table.verify_keys()).accept(received)
    if body.get("kind") != "digest":
        codec.decode(body, received.seat)


def mental(data: bytes) -> None:
    """A mental-poker message body, as the table hands it to the codec."""
    codec.decode(_message(data), 1)


@functools.cache
def _seat_keys() -> tuple[TableKeys, TableKeys, bytes]:
    """Keys of a two-seat table, made once: seat 0 takes what seat 1 signs."""
    signing = [Ed25519PrivateKey.generate() for _ in range(2)]
    sealing = [X25519PrivateKey.generate() for _ in range(2)]
    verify = [k.public_key() for k in signing]
    seal = [k.public_key() for k in sealing]
    return (
        TableKeys(signing[0], sealing[0], verify, seal),
        TableKeys(signing[1], sealing[1], verify, seal),
        bytes(16),
    )


def table_message(data: bytes) -> None:
    """Any body a seated peer signs, through a fresh seat's whole receive path (sync,
    acknowledgements, aborts and their evidence, leaves, the mental layer, the game):
    the seat must take it or accuse, never raise."""
    body = _message(data)
    keys, theirs, table_id = _seat_keys()
    game = games.load("rpg-battle")
    seat = TablePeer(game, {}, table_id, 0, keys)
    seat.start()
    assert theirs.signing is not None
    envelope = Sender(table_id, 1, theirs.signing).wrap(body)
    try:
        seat.receive(envelope)
    except Exception as exc:  # nothing may escape, a WireError included
        raise AssertionError(f"receive raised {type(exc).__name__}: {exc}") from exc


def roster(data: bytes) -> None:
    """The roster a joiner is sent, checked and hashed for signing."""
    Roster.from_wire(decode_payload(data)).digest()


def certificate(data: bytes) -> None:
    """A peer's TLS certificate (DER); the key in it, or none."""
    key = certificate_key(data)
    if len(key) not in (0, 32):
        raise AssertionError(f"certificate_key gave {len(key)} bytes")


def invite(data: bytes) -> None:
    """An invite code from the command line (argv bytes that are not UTF-8 arrive as
    surrogates)."""
    Invite.parse(data.decode("utf-8", "surrogateescape"))


def beacon(data: bytes) -> None:
    """A UDP datagram heard on the discovery port."""
    Beacon.decode(data)


@functools.cache
def _scratch() -> Path:
    """A directory for the targets that read files, removed at exit."""
    directory = tempfile.mkdtemp(prefix="p2pcards-fuzz-")
    atexit.register(shutil.rmtree, directory, ignore_errors=True)
    return Path(directory)


def save_file(data: bytes) -> None:
    """A save file, loaded as `join --resume` does (a cut last frame tolerated) or as
    `audit` does (not): the length's parity picks, so one corpus serves both."""
    path = _scratch() / "table.p2pt"
    path.write_bytes(data)
    load(path, tolerate_cut=len(data) % 2 == 0)


def identity_file(data: bytes) -> None:
    """The identity key in a home directory, which a person may have edited or broken."""
    (_scratch() / KEY_FILE).write_bytes(data)
    Identity.load_or_create(_scratch())


def bot_answer(data: bytes) -> None:
    """A line a bot wrote, answering a real decision."""
    parse_act(data, _actions())


def bot_hello(data: bytes) -> None:
    """A bot's hello line (name, author, version, the options it offers), and every option
    given a value from the line's own text, as a spec would."""
    info = parse_hello(parse_bot_line(data))
    for option in info.options:
        with contextlib.suppress(ValueError):
            option.value_of(data[:40].decode(errors="replace"))


def game_record(data: bytes) -> None:
    """A line of a records file (simulate/tournament --records), as `replay` reads it."""
    parse_line(data)


def openspiel_state(data: bytes) -> None:
    """A serialized OpenSpiel state (`p2pcards.adapters.openspiel.deserialize`): the game
    loaded from its parameters and its steps replayed."""
    from p2pcards.adapters import openspiel  # the openspiel extra, which scripts/test installs

    openspiel.deserialize(data)


def openspiel_state_fields(data: bytes) -> None:
    """A serialized OpenSpiel state's decoded fields, changed field by field (given as
    msgpack, for the structural mutators), as JSON again."""
    try:
        value = msgpack.unpackb(data, raw=False, strict_map_key=False)
        text = json.dumps(value)
    except Exception:  # what JSON cannot hold is not the decoder under test
        return
    openspiel_state(text.encode())


@functools.cache
def _openspiel_seeds() -> list[bytes]:
    """Serialized states a few random steps into each game."""
    from p2pcards.adapters import openspiel

    seeds = []
    for game in games.names():
        state = openspiel.load(game, round_cap=2).new_initial_state()
        pick = random.Random(1)
        for _ in range(25):
            if state.is_terminal():
                break
            outcomes = state.chance_outcomes() if state.is_chance_node() else None
            ids = [n for n, _ in outcomes] if outcomes else state.legal_actions()
            state.apply_action(pick.choice(ids))
        seeds.append(state.serialize().encode())
    return seeds


def game_record_fields(data: bytes) -> None:
    """A record's decoded fields, changed field by field (given as msgpack, for the
    structural mutators), checked and replayed."""
    try:
        value = msgpack.unpackb(data, raw=False, strict_map_key=False)
    except Exception:  # msgpack refusing its input is not the decoder under test
        return
    record_from_json(value)


def cards_rpg_battle(data: bytes) -> None:
    """A cards.toml for rpg-battle."""
    rpg_battle_cards.parse(parse_toml(data, "cards.toml"))


def cards_getgem(data: bytes) -> None:
    """A cards.toml for GETGEM."""
    getgem_cards.parse(parse_toml(data, "cards.toml"))


def cards_rise_of_the_guys(data: bytes) -> None:
    """A cards.toml for Rise of the Guys: every ability in the vocabulary, checked."""
    guys_cards.parse(parse_toml(data, "cards.toml"))


def cards_gammasphere(data: bytes) -> None:
    """A cards.toml for Gammasphere: its words of the vocabulary (costs, levels), checked."""
    gamma_cards.parse(parse_toml(data, "cards.toml"))


def cards_rpg_get(data: bytes) -> None:
    """A cards.toml for RPG Get!: types, HP, costs, missions' points, combat actions, checked."""
    rpg_get_cards.CardDatabase(parse_toml(data, "cards.toml"))


def deck_file_rpg_get(data: bytes) -> None:
    """A deck file, checked against RPG Get!'s deck rules (exactly 80, copies unlimited)."""
    deck = parse_deck(data, "deck.toml")
    deck_problems(deck, RPG_GET_DECK_RULES, rpg_get_cards.load())


def windows_form(data: bytes) -> None:
    """The public form of a stack of response windows, as the wire's decoder hands it on,
    read back for a 4-seat table."""
    windows = Windows.from_public(decode_payload(data), 4)
    assert [w.asked for w in windows.stack] == [w.order[w.at] for w in windows.stack]
    assert Windows.from_public(windows.public(), 4) == windows  # reads back as itself


def _windows_seeds() -> list[bytes]:
    opened = Windows().open(1, 7, [2, 3, 0, 1]).passed(2).open(2, -1, [3, 0])
    return [_pack(Windows().public()), _pack(opened.public())]


def deck_file(data: bytes) -> None:
    """A deck file a person wrote, then checked against Rise of the Guys' deck rules."""
    deck = parse_deck(data, "deck.toml")
    deck_problems(deck, GUYS_DECK_RULES, guys_cards.load())


def deck_file_gammasphere(data: bytes) -> None:
    """A deck file, checked against Gammasphere's deck rules (Pylons unlimited)."""
    deck = parse_deck(data, "deck.toml")
    deck_problems(deck, GAMMA_DECK_RULES, gamma_cards.load())


def _deck_seeds(package: str = "p2pcards.games.rise_of_the_guys") -> list[bytes]:
    folder = resources.files(package).joinpath("decks")
    return [f.read_bytes() for f in sorted(folder.iterdir(), key=lambda f: f.name)]


def announced_action(game: str, data: bytes) -> None:
    """An action a peer announced at a table of `game` (msgpack, as the wire carries it):
    decoded by the game, and a decoded one reads back as itself."""
    try:
        value = msgpack.unpackb(data, raw=False, strict_map_key=False)
    except Exception:  # msgpack refusing its input is not the decoder under test
        return
    rules = games.load(game)
    action = rules.action_from_json(value)
    assert rules.action_from_json(action.to_json()) == action
    assert rules.action_from_json(action.public().to_json()) == action.public()
    str(action)


@functools.cache
def _action_seeds(game: str) -> list[bytes]:
    """The wire form of every different action met in two random games of `game`."""
    rules = games.load(game)
    seen: dict[bytes, None] = {}
    for seed in (1, 2):
        state = rules.new_initial_state(rules.min_players)
        dealer, pick = LocalDealer(seed), random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(dealer.sample(state))
                continue
            actions = state.legal_actions()
            for action in actions:
                seen.setdefault(_pack(action.to_json()), None)
            state.apply_action(pick.choice(actions))
    return list(seen)


# ------------------------------------------------------------------ seeds


def _envelope_seeds() -> list[bytes]:
    # A fresh receiver takes only each seat's first envelope; the later ones still give
    # mutations every kind of body.
    return real_table().envelopes


def _frame_seeds() -> list[bytes]:
    frames = real_table().frames
    return [b"".join(len(f).to_bytes(4, "big") + f for f in frames[i : i + 4]) for i in (0, 8)]


def _stranger_messages() -> list[bytes]:
    """What a stranger sends first (a JOIN, a HELLO), packed: seeds within its limits."""
    member = real_table().roster["members"][1]
    join = {"kind": "join", "nonce": bytes(16), "proof": bytes(32)}
    join |= {k: member[k] for k in ("name", "identity", "seal", "port", "cert")}
    hello = {"kind": "hello", "seat": 1, "nonce": bytes(16), "signature": bytes(64)}
    return [encode_frame(m)[4:] for m in (join, {**hello, "rejoin": True})]


def _stranger_frame_seeds() -> list[bytes]:
    joined = [len(m).to_bytes(4, "big") + m for m in _stranger_messages()]
    return [b"".join(joined), joined[1]]


def _data_file(package: str) -> bytes:
    return resources.files(package).joinpath("cards.toml").read_bytes()


def _invite_seeds() -> list[bytes]:
    code = Invite("192.168.1.20", 7777, "K7QD-MX2P-Q4ZT-W7AB", new_secret())
    return [str(code).encode(), b"localhost:80/AAAA-BBBB-CCCC-DDDD/EEEE-FFFF\n"]


def _beacon_seeds() -> list[bytes]:
    return [
        Beacon("rpg-battle", 4, 2, "AAAA-BBBB-CCCC-DDDD", 7777, "host").encode(),
        Beacon("getgem", 5, 0, "K7QD-MX2P-Q4ZT-W7AB", 65535, "Zoë's laptop").encode(),
    ]


def _bot_seeds() -> list[bytes]:
    return [
        b'{"type": "act", "action": 0}',
        b'{"type":"act","action":' + str(len(_actions()) - 1).encode() + b"}",
        b'{"type": "act", "action": {"kind": "pick", "character": "vex"}, "note": "[x]"}',
    ]


def _hello_seeds() -> list[bytes]:
    return [
        b'{"type": "hello", "protocol": 2, "name": "b"}',
        b'{"type":"hello","protocol":2,"name":"example-js","author":"p2pcards","version":"2.0",'
        b'"options":[{"name":"heal_below","type":"float","default":0.5,"min":0,"max":1},'
        b'{"name":"style","type":"choice","default":"calm","values":["calm","wild"]},'
        b'{"name":"depth","type":"int","default":3,"min":1},'
        b'{"name":"book","type":"bool","default":true},'
        b'{"name":"path","type":"string","default":""}]}',
    ]


@functools.cache
def _record_seeds() -> list[bytes]:
    lines = []
    for game, seats in (("getgem", 2), ("rpg-battle", 2)):
        result = play_match(game, ["greedy", "random:name=r"][:seats], 3, 20, record=True)
        lines.append(match_record(result, 0, game, {}, 20).to_line().encode())
    return lines


def _identity_seeds() -> list[bytes]:
    pkcs8, none = serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    pem = serialization.Encoding.PEM
    return [
        Ed25519PrivateKey.generate().private_bytes(pem, pkcs8, none),
        X25519PrivateKey.generate().private_bytes(pem, pkcs8, none),  # a key, but not ours
    ]


def _save_seeds() -> list[bytes]:
    data = real_table().save_file
    cut = data[: len(data) - 8 - len(data) % 2]  # as a killed process leaves it; even: resumed
    return [data, cut]


# ------------------------------------------------------------------ the registry


@dataclass(frozen=True)
class Target:
    """A decoder, the errors it may raise, its seeds, and the form of its input."""

    name: str
    run: Callable[[bytes], None]
    allowed: tuple[type[BaseException], ...]
    seeds: Callable[[], list[bytes]]
    form: str  # msgpack, frames, beacon, pem, text or bytes: what the mutators understand
    all_seeds_pass: bool = True  # every seed is accepted (False: at least one is)

    def check(self, data: bytes) -> None:
        """Run the target; an allowed error is the decoder saying no, anything else raises."""
        with contextlib.suppress(self.allowed):
            self.run(data)


TARGETS: dict[str, Target] = {
    t.name: t
    for t in [
        Target("frames", functools.partial(frames, PEER), (ProtocolError,), _frame_seeds,
               "frames"),
        Target("payload", functools.partial(payload, PEER), (ProtocolError,),
               lambda: real_table().frames[:16], "msgpack"),
        Target("frames-stranger", functools.partial(frames, STRANGER), (ProtocolError,),
               _stranger_frame_seeds, "frames"),
        Target("payload-stranger", functools.partial(payload, STRANGER), (ProtocolError,),
               _stranger_messages, "msgpack"),
        Target("envelope", envelope, (ProtocolError,), _envelope_seeds, "msgpack",
               all_seeds_pass=False),
        Target("mental", mental, (ProtocolError,), lambda: real_table().bodies, "msgpack"),
        Target("table-message", table_message, (WireError,),
               lambda: real_table().bodies, "msgpack"),
        Target("roster", roster, (ProtocolError,),
               lambda: [_pack(real_table().roster)], "msgpack"),
        Target("certificate", certificate, (),
               lambda: [m["cert"] for m in real_table().roster["members"]], "bytes"),
        Target("invite", invite, (InviteError,), _invite_seeds, "text"),
        Target("beacon", beacon, (BeaconError,), _beacon_seeds, "beacon"),
        Target("save-file", save_file, (SaveFileError,), _save_seeds, "frames"),
        Target("identity-file", identity_file, (ProtocolError,), _identity_seeds, "pem",
               all_seeds_pass=False),
        Target("bot-answer", bot_answer, (AgentFailure,), _bot_seeds, "text"),
        Target("bot-hello", bot_hello, (AgentFailure,), _hello_seeds, "text"),
        Target("game-record", game_record, (RecordError,), _record_seeds, "text"),
        Target("game-record-fields", game_record_fields, (RecordError,),
               lambda: [_pack(json.loads(line)) for line in _record_seeds()], "msgpack"),
        Target("openspiel-state", openspiel_state, (SerializationError,), _openspiel_seeds,
               "text"),
        Target("openspiel-state-fields", openspiel_state_fields, (SerializationError,),
               lambda: [_pack(json.loads(seed)) for seed in _openspiel_seeds()], "msgpack"),
        Target("cards-rpg-battle", cards_rpg_battle, (CardDataError,),
               lambda: [_data_file("p2pcards.games.rpg_battle")], "text"),
        Target("cards-getgem", cards_getgem, (CardDataError,),
               lambda: [_data_file("p2pcards.games.getgem")], "text"),
        Target("cards-rise-of-the-guys", cards_rise_of_the_guys, (CardDataError,),
               lambda: [_data_file("p2pcards.games.rise_of_the_guys")], "text"),
        Target("cards-gammasphere", cards_gammasphere, (CardDataError,),
               lambda: [_data_file("p2pcards.games.gammasphere")], "text"),
        Target("cards-rpg-get", cards_rpg_get, (CardDataError,),
               lambda: [_data_file("p2pcards.games.rpg_get")], "text"),
        Target("deck-file-rpg-get", deck_file_rpg_get, (DeckError,),
               lambda: _deck_seeds("p2pcards.games.rpg_get"), "text"),
        Target("windows", windows_form, (WireError, WindowFormatError), _windows_seeds,
               "msgpack"),
        Target("deck-file", deck_file, (DeckError,), _deck_seeds, "text"),
        Target("deck-file-gammasphere", deck_file_gammasphere, (DeckError,),
               lambda: _deck_seeds("p2pcards.games.gammasphere"), "text"),
        *(
            Target(f"action-{game}", functools.partial(announced_action, game),
                   (ActionFormatError,), functools.partial(_action_seeds, game), "msgpack")
            for game in games.names()
        ),
    ]
}  # fmt: skip


# ------------------------------------------------------------------ inputs


def inputs(target: Target) -> st.SearchStrategy[bytes]:
    """Hypothesis's inputs for a target: each drawn number seeds `generate`."""
    seeds = target.seeds()
    return st.builds(lambda n: generate(target, random.Random(n), seeds), st.integers(0, 2**64))


def generate(target: Target, rng: random.Random, seeds: list[bytes]) -> bytes:
    """One input: a mutated seed mostly, else random bytes or (msgpack targets) a random
    map built from the decoders' field names."""
    choice = rng.random()
    if choice < 0.08:
        return rng.randbytes(rng.randint(0, 256))
    if choice < 0.16 and target.form in ("msgpack", "frames"):
        value = {rng.choice(VOCABULARY): random_value(rng, 3) for _ in range(rng.randint(1, 8))}
        packed = _repack(value, rng)
        return len(packed).to_bytes(4, "big") + packed if target.form == "frames" else packed
    return mutate(target, rng.choice(seeds), rng, seeds)


def random_value(rng: random.Random, depth: int) -> Any:
    """A random msgpack value, maps keyed mostly by the decoders' field names."""
    choice = rng.random()
    if depth <= 0 or choice < 0.5:
        return _interesting(rng) if rng.random() < 0.7 else rng.randbytes(32)
    if choice < 0.75:
        return [random_value(rng, depth - 1) for _ in range(rng.randint(0, 6))]
    return {rng.choice(VOCABULARY): random_value(rng, depth - 1) for _ in range(rng.randint(0, 6))}


# ------------------------------------------------------------------ mutation


# Field names and kinds the decoders look for: a generated map that uses them gets past
# the first "missing field" check.
VOCABULARY = [
    "kind", "seat", "seq", "prev", "body", "sig", "step", "digest", "phase", "cards", "card",
    "key", "reader", "sealed", "payload", "value", "shuffles", "beacons", "encryption_key",
    "table", "game", "options", "members", "name", "identity", "seal", "host", "port", "cert",
    "format", "roster", "signatures", "op", "points", "viewers", "secret", "action",
    "sightings", "shown", "sections", "next", "reason", "type",
]  # fmt: skip
KINDS = [
    "env", "commit", "masked-pile", "key", "sealed-key", "beacon-reveal", "secrets",
    "announce", "digest", "table", "msg", "op", "secret", "step", "bye", "resume", "act",
]  # fmt: skip
_DEEP = b"\xde\xad\xbe\xef" * 4  # stands for a deeply nested value until after packing

INTERESTING: list[Any] = [
    0, 1, -1, 2, 255, 256, 65535, 65536, 2**31, 2**32, 2**63 - 1, 2**64 - 1, -(2**63),
    True, False, None, 0.5, float("inf"), float("-inf"), float("nan"),
    "", "x", "x" * 5000, "\x00", "\x1b[2J", "\u202e", "٣", "ﬀ",
    b"", b"\x00" * 16, b"\x00" * 32, b"\xff" * 32, b"\x00" * 48, b"\x00" * 64, b"\x01" * 200,
    [], {}, [[]], [0, 0, 0, 0, 0, 0], {"kind": "env"}, {"a": 1, "b": [1, 2]},
    {"kind": 1, b"kind": 2}, {1: 1}, _DEEP,
    *VOCABULARY[:10], *KINDS,
]  # fmt: skip

AWKWARD_NUMBERS: list[Any] = [
    -1, 0, 2**31, 2**63 - 1, 2**64 - 1, -(2**63), float("inf"), float("-inf"), float("nan"),
    0.5, -0.0, True, None, "1",
]  # fmt: skip

TEXT_PIECES: list[bytes] = [
    b"0", b"-1", b"99999", b"65536", b"9" * 5000, b"1e999", b"nan", b"inf", b"true", b"null",
    b" ", b"\t", b"\n", b"\r\n", b"\x00", b"\x1b", b"\xff", b"\xed\xa0\x80", b"\xc3",
    "٣".encode(), "７".encode(), "ﬀ".encode(), "\u202e".encode(), b"\\", b'"', b"'", b"/",
    b":", b"-", b"=", b",", b"[", b"]", b"{", b"}", b"[" * 2000, b"{a=" * 1000, b"#",
    b"[[card]]\n", b'qty = 1000000001\n', b"localhost", b"AAAA-", b'"action": ',
]  # fmt: skip


def _interesting(rng: random.Random) -> Any:
    # A copy: a mutation changes containers in place, and these lists and maps are shared.
    return copy.deepcopy(rng.choice(INTERESTING))


def _walk(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every position in a decoded structure, as a path of keys and indexes."""
    out = [path]
    if isinstance(value, dict):
        for key, child in value.items():
            out.extend(_walk(child, (*path, key)))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            out.extend(_walk(child, (*path, i)))
    return out


def _deeper_than(value: Any, limit: int) -> bool:
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
    return False


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    _get(value, path[:-1])[path[-1]] = new
    return value


def mutate_structure(value: Any, rng: random.Random) -> Any:
    """One change to a decoded msgpack value: a node replaced, removed, added or copied.

    The node is picked by depth first, so a message's own fields are changed as often as
    the items of its long lists; a number is mostly replaced by another awkward number.
    """
    paths = _walk(value)
    depth = rng.choice(sorted({len(p) for p in paths}))
    path = rng.choice([p for p in paths if len(p) == depth])
    node = _get(value, path)
    choice = rng.random()
    if choice < 0.25 and isinstance(node, int | float):
        return _set(value, path, rng.choice(AWKWARD_NUMBERS))
    if choice < 0.5:
        return _set(value, path, _interesting(rng))
    if choice < 0.6 and isinstance(node, int) and not isinstance(node, bool):
        return _set(value, path, node + rng.choice([-1, 1, -(2**32), 2**32]))
    if choice < 0.7 and isinstance(node, dict) and node:
        del node[rng.choice(list(node))]
        return value
    if choice < 0.78 and isinstance(node, dict):
        node[rng.choice(VOCABULARY)] = _interesting(rng)
        return value
    if choice < 0.86 and isinstance(node, list) and node:
        i = rng.randrange(len(node))
        if rng.random() < 0.5:
            del node[i]
        else:
            node.insert(i, copy.deepcopy(node[rng.randrange(len(node))]))
        return value
    if choice < 0.93 and isinstance(node, bytes | str) and node:
        cut = rng.randrange(len(node))
        return _set(value, path, node[:cut] if rng.random() < 0.5 else node + node[:cut])
    # A copy of another part of the structure in this place: right shapes, wrong places.
    return _set(value, path, copy.deepcopy(_get(value, rng.choice(paths))))


def _unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def _repack(value: Any, rng: random.Random) -> bytes:
    packed = _pack(value)
    deep = _pack(_DEEP)
    while deep in packed:  # nesting deeper than msgpack packs, or than Python recurses
        depth = rng.choice([8, 9, 64, 400, 1000, 1100])
        packed = packed.replace(deep, b"\x91" * depth + b"\xc0", 1)
    return packed


def _mutate_msgpack(data: bytes, rng: random.Random, changes: int = 1) -> bytes:
    """`changes` changes to the decoded value, packed again; bytes changed if it does not
    decode, and now and then anyway."""
    try:
        value = _unpack(data)
    except (ValueError, TypeError, msgpack.UnpackException, msgpack.ExtraData):
        return mutate_bytes(data, rng)
    if _deeper_than(value, 64):  # walking and copying it here would recurse too far
        return mutate_bytes(data, rng)
    for _ in range(changes):
        value = mutate_structure(value, rng)
    try:
        packed = _repack(value, rng)
    except (ValueError, TypeError, OverflowError):  # a value msgpack cannot pack
        return mutate_bytes(data, rng)
    return mutate_bytes(packed, rng) if rng.random() < 0.1 else packed


def _split_frames(data: bytes) -> tuple[list[bytes], bytes]:
    """The payloads of the whole frames in `data`, and what follows them (a cut frame)."""
    payloads = []
    while len(data) >= 4 and len(data) >= 4 + (length := int.from_bytes(data[:4], "big")):
        payloads.append(data[4 : 4 + length])
        data = data[4 + length :]
    return payloads, data


def _mutate_frames(data: bytes, rng: random.Random) -> bytes:
    payloads, rest = _split_frames(data)
    if not payloads or rng.random() < 0.05:
        return mutate_bytes(data, rng)
    # The first frame (a save file's header) as often as any tenth of the others.
    i = 0 if rng.random() < 0.1 else rng.randrange(len(payloads))
    choice = rng.random()
    if choice < 0.1:
        del payloads[i]
    elif choice < 0.2:
        payloads.insert(i, payloads[rng.randrange(len(payloads))])
    else:
        payloads[i] = _mutate_msgpack(payloads[i], rng)
    return b"".join(len(p).to_bytes(4, "big") + p for p in payloads) + rest


def mutate_bytes(data: bytes, rng: random.Random) -> bytes:
    """One change to raw bytes: a bit flipped, bytes inserted, deleted, repeated or cut."""
    out = bytearray(data)
    choice = rng.random()
    at = rng.randrange(len(out) + 1)
    if choice < 0.25 and out:
        out[min(at, len(out) - 1)] ^= 1 << rng.randrange(8)
    elif choice < 0.45 and out:
        out[min(at, len(out) - 1)] = rng.choice([0x00, 0x7F, 0x80, 0xC0, 0xC1, 0xDC, 0xFF])
    elif choice < 0.6:
        out[at:at] = rng.randbytes(rng.randint(1, 8))
    elif choice < 0.75:
        del out[at : at + rng.randint(1, 16)]
    elif choice < 0.85:
        end = min(len(out), at + rng.randint(1, 64))
        out[at:at] = out[at:end] * rng.randint(1, 20)
    else:
        del out[at:]
    return bytes(out)


def mutate_text(data: bytes, rng: random.Random) -> bytes:
    """One change to text: a telling piece inserted or put in place of a run, or bytes."""
    if rng.random() < 0.3:
        return mutate_bytes(data, rng)
    at = rng.randrange(len(data) + 1)
    piece = rng.choice(TEXT_PIECES)
    if rng.random() < 0.5:
        return data[:at] + piece + data[at:]
    return data[:at] + piece + data[at + rng.randint(1, 12) :]


def _mutate_pem(data: bytes, rng: random.Random, changes: int) -> bytes:
    """Changes to the DER inside PEM armour: the key's structure, not its base64."""
    lines = data.strip().split(b"\n")
    try:
        der = base64.b64decode(b"".join(lines[1:-1]), validate=True)
    except ValueError:
        return mutate_text(data, rng)
    for _ in range(changes):
        der = mutate_bytes(der, rng)
    return b"\n".join([lines[0], base64.encodebytes(der).strip(), lines[-1]]) + b"\n"


def mutate(target: Target, data: bytes, rng: random.Random, seeds: list[bytes]) -> bytes:
    """Some changes to `data` in the way its form allows, now and then spliced with a seed."""
    if seeds and rng.random() < 0.05:
        other = rng.choice(seeds)
        data = data[: rng.randrange(len(data) + 1)] + other[rng.randrange(len(other) + 1) :]
    changes = rng.randint(1, 3)
    if target.form == "msgpack":
        return _mutate_msgpack(data, rng, changes)
    if target.form == "beacon" and data.startswith(b"P2PC") and rng.random() < 0.9:
        return data[:4] + _mutate_msgpack(data[4:], rng, changes)
    if target.form == "pem" and rng.random() < 0.8:
        return _mutate_pem(data, rng, changes)
    for _ in range(changes):
        if target.form == "frames":
            data = _mutate_frames(data, rng)
        elif target.form == "text":
            data = mutate_text(data, rng)
        else:
            data = mutate_bytes(data, rng)
    return data
