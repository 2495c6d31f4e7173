"""Bots in any language: the JSON-lines bot protocol, and agents that speak it.

The protocol (docs/bot-protocol.md) is UCI's, in JSON lines. Version 2: the harness opens
with `hello`; a bot that speaks version 2 answers with its own `hello` (name, author,
version, the options it offers), takes `setoption`s, answers `isready` with `readyok`, and
plays game after game, each opened by `newgame`. Whenever its seat must act it is sent one
`observe` line (the seat's observation, its legal actions in order, the time it has and
the events since its last question) and answers with one `act` line, `{"type": "act",
"action": N}`, N indexing the list from 0. A game ends with `result`.

A version-1 bot answers only `observe` and ignores the rest, so it needs no change: the
harness never waits for a `hello` it has not been promised (a spec with options), and
the first line a bot sends tells the versions apart (`hello` or `act`).

`CommandBot` runs a program (`cmd:"node mybot.js":depth=3`); a version-2 program that
finished its game cleanly is kept for the next game in the same process (a tournament
worker's), which it is told of with `newgame`. `ScriptAgent` calls `choose(state,
actions)` in a Python file (`script:mybot.py`). Both see exactly what the protocol carries:
the seat's observation, never the full state.
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import importlib.util
import json
import math
import os
import re
import selectors
import shlex
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ai.errors import (
    AgentCrashed,
    AgentFailure,
    AgentIllegalAction,
    AgentSpecError,
    AgentTimedOut,
)

if TYPE_CHECKING:
    from ai.clock import Clock
from p2pcards.engine import Action, State
from p2pcards.history import Event

PROTOCOL = 2
MAX_LINE = 1 << 20  # bytes in one line from a bot (docs/bot-protocol.md)
# Nesting of arrays and objects in a line; a hello with options needs 4. json.loads
# recurses, so a deeper line must be refused before it is parsed.
MAX_DEPTH = 16
# How long a bot may take to say hello (when its options must be checked) and to answer
# isready, before its first move's clock starts: a program may load a book or a network.
HANDSHAKE_SECONDS = 10.0
MAX_OPTIONS = 64
MAX_TEXT = 256  # characters in a name, author, version, string option or choice
OPTION_TYPES = ("int", "float", "bool", "string", "choice")
_OPTION_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,31}")
# Kept for a later game: at most this many idle programs per command and options.
MAX_IDLE = 8
_READ = 65536  # bytes asked of the pipe at a time
_TAIL = 4096  # bytes of a crashed bot's stderr read back for its last line


# ------------------------------------------------------------------ messages


def hello_message() -> dict[str, Any]:
    """The harness's first line to every bot."""
    return {"type": "hello", "protocol": PROTOCOL, "harness": "p2pcards"}


def newgame_message(observation: State, seed: int | None) -> dict[str, Any]:
    """What a bot is sent before a game's first question: forget the last game."""
    return {
        "type": "newgame",
        "game": observation.game.name,
        "seats": observation.num_players,
        "seat": observation.current_player(),
        "seed": seed,
    }


def observe_message(
    observation: State, events: Iterable[Event] = (), time_ms: int | None = None
) -> dict[str, Any]:
    """What a bot is sent when its seat must act: the observation, the legal actions, the
    time it has (None: no limit) and what its seat saw happen since its last question."""
    return {
        "type": "observe",
        "protocol": PROTOCOL,
        "game": observation.game.name,
        "seat": observation.current_player(),
        "state": observation.to_json(),
        "actions": [action.to_json() for action in observation.legal_actions()],
        "time_ms": time_ms,
        "events": [event.to_json() for event in events],
    }


def result_message(final: State, seat: int, events: Iterable[Event] = ()) -> dict[str, Any]:
    """What a bot is sent when the game is over (with the events since its last question)."""
    returns = final.returns()
    return {
        "type": "result",
        "protocol": PROTOCOL,
        "seat": seat,
        "returns": returns,
        "winners": [s for s, r in enumerate(returns) if r > 0],
        "events": [event.to_json() for event in events],
    }


def chosen_index(answer: object, actions: list[dict[str, Any]]) -> int:
    """The index a bot's answer picks: an index, or one of the actions itself."""
    if isinstance(answer, dict) and answer in actions:
        return actions.index(answer)
    if isinstance(answer, int) and not isinstance(answer, bool) and 0 <= answer < len(actions):
        return answer
    shown = repr(answer)[:80]
    raise AgentIllegalAction(
        f"{shown} is not one of the {len(actions)} legal actions (0 to {len(actions) - 1})"
    )


def parse_line(line: bytes) -> dict[str, Any]:
    """A line from a bot as a message (a JSON object with a string `type`), within the
    limits; AgentIllegalAction for anything else."""
    if len(line) > MAX_LINE:
        raise AgentIllegalAction(f"sent a line of {len(line)} bytes, over {MAX_LINE}")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AgentIllegalAction(
            f"sent a line that is not UTF-8 (byte {exc.start}): {line[:80]!r}"
        ) from None
    if _too_deep(line, MAX_DEPTH):
        raise AgentIllegalAction(f"sent JSON nested deeper than {MAX_DEPTH} levels")
    try:
        message = json.loads(text)
    except ValueError:  # also a number over Python's digit limit
        raise AgentIllegalAction(f"sent a line that is not JSON: {text[:80]!r}") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise AgentIllegalAction(f'expected {{"type": ..., ...}}, got {text[:80]!r}')
    return message


def parse_act(line: bytes, actions: list[dict[str, Any]]) -> int:
    """The action index in a bot's reply line; AgentIllegalAction for a malformed line."""
    return act_index(parse_line(line), actions)


def act_index(message: dict[str, Any], actions: list[dict[str, Any]]) -> int:
    """The action index an `act` message picks; AgentIllegalAction for any other message."""
    if message.get("type") != "act" or "action" not in message:
        shown = json.dumps(message)[:80]
        raise AgentIllegalAction(f'expected {{"type": "act", "action": N}}, got {shown}')
    return chosen_index(message["action"], actions)


def _too_deep(text: bytes, limit: int) -> bool:
    """Whether JSON text nests arrays and objects deeper than `limit` (strings skipped)."""
    if text.count(b"[") + text.count(b"{") <= limit:
        return False  # every real answer: no need to walk it
    depth, in_string, escaped = 0, False, False
    for byte in text:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > limit:
                return True
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return False


# ------------------------------------------------------------------ the bot's hello


@dataclass(frozen=True)
class BotOption:
    """One option a bot offers in its hello, UCI's `option` line in JSON."""

    name: str
    type: str  # one of OPTION_TYPES
    default: Any
    min: float | None = None
    max: float | None = None
    values: tuple[str, ...] = ()  # a choice's

    def value_of(self, text: str) -> Any:
        """The value a spec's `name=text` sets, as this option's type; ValueError says why."""
        if self.type == "bool":
            if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(f"{self.name} is true or false, not {text!r}")
            return text.lower() in ("true", "1", "yes")
        if self.type in ("int", "float"):
            try:
                value: float = int(text) if self.type == "int" else float(text)
            except ValueError:
                raise ValueError(f"{self.name} needs a{'n' * (self.type == 'int')} "
                                 f"{self.type}, not {text!r}") from None  # fmt: skip
            if not math.isfinite(value) or not self._in_range(value):
                raise ValueError(f"{self.name} is {self._range()}, not {text}")
            return value
        if self.type == "choice" and text not in self.values:
            raise ValueError(f"{self.name} is one of {', '.join(self.values)}, not {text!r}")
        if len(text) > MAX_TEXT:
            raise ValueError(f"{self.name} takes at most {MAX_TEXT} characters")
        return text

    def _in_range(self, value: float) -> bool:
        return (self.min is None or value >= self.min) and (self.max is None or value <= self.max)

    def _range(self) -> str:
        return f"{self.min if self.min is not None else '...'} to " + (
            f"{self.max if self.max is not None else '...'}"
        )

    def describe(self) -> str:
        """One line for an error or a listing: `depth (int, 1 to 9, default 3)`."""
        extra = self._range() + ", " if self.type in ("int", "float") else ""
        if self.type == "choice":
            extra = "/".join(self.values) + ", "
        return f"{self.name} ({self.type}, {extra}default {json.dumps(self.default)})"


@dataclass(frozen=True)
class BotInfo:
    """What a version-2 bot says of itself in its hello."""

    name: str
    author: str
    version: str
    options: tuple[BotOption, ...]

    def option(self, name: str) -> BotOption | None:
        """The option called `name`, if the bot offers it."""
        return next((o for o in self.options if o.name == name), None)


def parse_hello(message: dict[str, Any]) -> BotInfo:
    """A bot's hello, every field checked; AgentIllegalAction says which is wrong."""
    try:
        if message.get("protocol") != PROTOCOL or isinstance(message.get("protocol"), bool):
            raise ValueError(f"protocol must be {PROTOCOL}, not {message.get('protocol')!r}")
        name = _text(message, "name", required=True)
        author, version = _text(message, "author"), _text(message, "version")
        raw = message.get("options", [])
        if not isinstance(raw, list) or len(raw) > MAX_OPTIONS:
            raise ValueError(f"options must be a list of at most {MAX_OPTIONS}")
        options = tuple(_option(entry, i) for i, entry in enumerate(raw))
        names = [o.name for o in options]
        if len(set(names)) != len(names):
            raise ValueError("two options share a name")
    except ValueError as exc:
        raise AgentIllegalAction(f"sent a bad hello: {exc}") from None
    return BotInfo(name, author, version, options)


def _text(data: dict[str, Any], key: str, required: bool = False) -> str:
    value = data.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not 0 < len(value) <= MAX_TEXT or not value.isprintable():
        raise ValueError(f"{key} must be printable text of 1 to {MAX_TEXT} characters")
    return value


def _number(value: object) -> bool:
    return (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and abs(value) <= 2**53
    )


def _option(entry: object, index: int) -> BotOption:
    """One option of a hello, checked."""
    where = f"options[{index}]"
    if not isinstance(entry, dict):
        raise ValueError(f"{where} must be an object")
    name = entry.get("name")
    if not isinstance(name, str) or not _OPTION_NAME.fullmatch(name) or name == "name":
        raise ValueError(f"{where}.name must be a letter then up to 31 of A-Z a-z 0-9 _ - "
                         "(and not 'name', which labels agents)")  # fmt: skip
    kind, default = entry.get("type"), entry.get("default")
    if kind not in OPTION_TYPES:
        raise ValueError(f"{where}.type must be one of {', '.join(OPTION_TYPES)}")
    low, high, values = entry.get("min"), entry.get("max"), entry.get("values", [])
    if kind in ("int", "float"):
        for key, bound in (("min", low), ("max", high)):
            if bound is not None and not _number(bound):
                raise ValueError(f"{where}.{key} must be a number")
        fits = isinstance(default, int) if kind == "int" else True
        if not _number(default) or not fits:
            raise ValueError(f"{where}.default must be a{'n' * (kind == 'int')} {kind}")
    elif kind == "bool" and not isinstance(default, bool):
        raise ValueError(f"{where}.default must be true or false")
    elif kind in ("string", "choice") and (not isinstance(default, str) or len(default) > MAX_TEXT):
        raise ValueError(f"{where}.default must be text of at most {MAX_TEXT} characters")
    if kind == "choice" and (
        not isinstance(values, list)
        or not 0 < len(values) <= MAX_OPTIONS
        or not all(isinstance(v, str) and 0 < len(v) <= MAX_TEXT for v in values)
        or default not in values
    ):
        raise ValueError(f"{where}.values must list the choices (text), the default among them")
    option = BotOption(
        name, str(kind), default, low if kind in ("int", "float") else None,
        high if kind in ("int", "float") else None,
        tuple(values) if kind == "choice" else (),
    )  # fmt: skip
    if kind in ("int", "float") and not option._in_range(float(default or 0)):
        raise ValueError(f"{where}.default is outside min to max")
    return option


# ------------------------------------------------------------------ specs


def split_command(text: str) -> tuple[str, dict[str, str]]:
    """The program and the options of a cmd: spec's rest: `"node bot.js":depth=3` (options
    only after a quoted program, whose own colons are then safe), or a bare program."""
    text = text.strip()
    if not text or text[0] not in "\"'":
        return text, {}
    end = text.find(text[0], 1)
    if end < 0:
        raise AgentSpecError(f"cmd: program {text!r} has no closing quote")
    command, tail = text[1:end], text[end + 1 :]
    options: dict[str, str] = {}
    if tail and not tail.startswith(":"):
        raise AgentSpecError(f'cmd:"PROGRAM" is followed by :KEY=VALUE options, not {tail!r}')
    for part in tail.split(":")[1:]:
        key, sep, value = part.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise AgentSpecError(f"a bot option is KEY=VALUE, not {part!r}")
        options[key.strip()] = value.strip()
    return command, options


# ------------------------------------------------------------------ the program


class _Program:
    """One running bot program: its pipes, its stderr (a file, so a chatty bot never blocks
    on it), what it said in its hello. Outlives a CommandBot when kept for the next game."""

    def __init__(self, argv: list[str], seed: int | None, stderr_path: Path | None) -> None:
        self.command = argv[0]
        # Closed in close(); a file, not a pipe, so a chatty bot never blocks on stderr.
        if stderr_path is not None:
            stderr_path.parent.mkdir(parents=True, exist_ok=True)
            self.errors: IO[bytes] = stderr_path.open("w+b")
        else:
            self.errors = tempfile.TemporaryFile()  # noqa: SIM115
        self.logged = stderr_path is not None
        env = {**os.environ, "P2PCARDS_SEED": str(seed)}
        try:
            self.proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.errors,
                env=env,
            )  # fmt: skip
        except OSError as exc:
            self.errors.close()
            raise AgentCrashed(f"cannot start {argv[0]!r}: {exc.strerror}") from None
        self.buffer = b""
        self.protocol: int | None = None  # 1 or 2 once its first line has told
        self.info: BotInfo | None = None
        self.readies = 0  # isready sent, readyok not yet read

    def send(self, message: dict[str, Any]) -> None:
        """Write one line; AgentCrashed if the program has gone."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self.crashed() from None

    def read_message(self, deadline: float | None, late: str) -> dict[str, Any]:
        """The next line as a message; AgentTimedOut (saying `late`) past the deadline."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            # The buffer holds at most one line over the limit by one read, then we stop.
            while b"\n" not in self.buffer:
                if len(self.buffer) > MAX_LINE:
                    raise AgentIllegalAction(f"sent a line of more than {MAX_LINE} bytes")
                wait = None if deadline is None else deadline - time.monotonic()
                if wait is not None and wait <= 0:
                    raise AgentTimedOut(late)
                if not selector.select(wait):
                    continue
                chunk = os.read(fd, _READ)
                if not chunk:
                    raise self.crashed()
                self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return parse_line(line)

    def greet(self, options: dict[str, str], name: str) -> None:
        """Wait for the bot's hello, check `options` against it and set them (a spec with
        options asked for version 2, so the wait is promised)."""
        deadline = time.monotonic() + HANDSHAKE_SECONDS
        late = f"said no hello within {HANDSHAKE_SECONDS:g} s (options need protocol 2)"
        message = self.read_message(deadline, late)
        if message["type"] != "hello":
            raise AgentIllegalAction(
                f"answered hello with {message['type']!r}: options need protocol 2"
            )
        self.hello(message)
        assert self.info is not None
        for key, text in options.items():
            option = self.info.option(key)
            if option is None:
                offered = ", ".join(o.describe() for o in self.info.options) or "no options"
                raise AgentSpecError(f"{name} has no option {key!r}; it offers {offered}")
            try:
                value = option.value_of(text)
            except ValueError as exc:
                raise AgentSpecError(f"{name}: {exc}") from None
            self.send({"type": "setoption", "name": key, "value": value})

    def hello(self, message: dict[str, Any]) -> None:
        """Take the bot's hello: it speaks version 2."""
        self.info = parse_hello(message)
        self.protocol = PROTOCOL

    def alive(self) -> bool:
        """Whether the program still runs with nothing unread."""
        return self.proc.poll() is None and not self.buffer

    def crashed(self) -> AgentCrashed:
        """The error for a program that has gone, quoting its stderr's last line."""
        code = None
        with contextlib.suppress(subprocess.TimeoutExpired):
            code = self.proc.wait(timeout=1)
        tail = ""
        with contextlib.suppress(OSError, ValueError):
            self.errors.flush()
            size = self.errors.seek(0, os.SEEK_END)
            self.errors.seek(max(0, size - _TAIL))
            text = self.errors.read().decode(errors="replace").strip()
            tail = f": {text.splitlines()[-1][:200]}" if text else ""
        how = (
            "closed its output" if code is None
            else f"was killed by {_signal_name(-code)}" if code < 0
            else f"exited with code {code}"
        )  # fmt: skip
        return AgentCrashed(f"{self.command} {how}{tail}")

    def forget(self) -> None:
        """Close this process's copies of the pipes, leaving the program to its owner."""
        for stream in (self.proc.stdin, self.proc.stdout, self.errors):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
        self.proc.returncode = 0  # not ours to reap: no warning that it still runs

    def close(self) -> None:
        """Close its input (a bot exits when its input ends) and reap it."""
        with contextlib.suppress(OSError):
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self.errors.close()


# Version-2 programs that finished a game cleanly, by command and options: the next
# CommandBot of the same kind in this process (a tournament worker's) plays on with one.
_idle: dict[tuple[object, ...], list[_Program]] = {}
_idle_lock = threading.Lock()
_checked: set[tuple[object, ...]] = set()  # specs whose options a bot has accepted here


def _close_idle() -> None:
    with _idle_lock:
        programs = [p for kept in _idle.values() for p in kept]
        _idle.clear()
    for program in programs:
        program.close()


def _take_idle(key: tuple[object, ...]) -> _Program | None:
    """An idle program for `key` that still runs (one that died between games is reaped)."""
    while True:
        with _idle_lock:
            kept = _idle.get(key)
            program = kept.pop() if kept else None
        if program is None or program.alive():
            return program
        program.close()


def _forget_inherited() -> None:
    """In a forked child (a tournament worker): drop the parent's idle programs, closing
    only this process's copies of their pipes. Shared, two processes would talk to one
    bot at once; held open, the bot would never see its input end."""
    global _idle_lock
    _idle_lock = threading.Lock()
    for kept in _idle.values():
        for program in kept:
            program.forget()
    _idle.clear()


atexit.register(_close_idle)
os.register_at_fork(after_in_child=_forget_inherited)


class CommandBot:
    """An external program speaking the bot protocol on its stdin and stdout."""

    # The move timeout is enforced here, the clock starting at the bot's readyok, so a
    # harness need not time the whole call (which includes the handshake).
    keeps_time = True

    def __init__(
        self,
        command: str,
        seed: int | None = None,
        move_timeout: float | None = None,
        options: dict[str, str] | None = None,
        stderr_path: Path | None = None,
    ) -> None:
        """`command` is split like a shell would; the program starts at the first move.

        `options` are set with `setoption` (the bot must speak version 2; they are checked
        against its hello once per process, here, so a wrong one is a spec error);
        `stderr_path`, if set before the first move, receives the program's stderr.
        """
        self.argv = shlex.split(command)
        if not self.argv:
            raise AgentSpecError('cmd: needs a command, e.g. cmd:"node mybot.js"')
        self.options = dict(options or {})
        self.name = f"cmd:{command}"
        if self.options:
            self.name = f'cmd:"{command}":' + ":".join(f"{k}={v}" for k, v in self.options.items())
        self.seed = seed
        self.move_timeout = move_timeout
        self.clock: Clock | None = None  # set by the harness under a time control
        self.stderr_path = stderr_path
        self._program: _Program | None = None
        self._events: list[Event] = []
        self._events_lock = threading.Lock()  # a LAN seat's steps come from another thread
        self._seat = 0  # of the last observation: the result message names it
        self._in_game = False
        self._failed = False
        self._key = (tuple(self.argv), tuple(sorted(self.options.items())))
        if self.options and self._key not in _checked:
            self._check_options()

    @classmethod
    def from_spec(
        cls, rest: str, seed: int | None = None, move_timeout: float | None = None
    ) -> CommandBot:
        """The bot a `cmd:` spec names: `cmd:"node bot.js":depth=3` (rest after `cmd:`)."""
        command, options = split_command(rest)
        return cls(command, seed, move_timeout, options)

    @property
    def info(self) -> BotInfo | None:
        """What the bot said of itself (None until a version-2 bot has said hello)."""
        return None if self._program is None else self._program.info

    def witness(self, event: Event) -> None:
        """Note one step as this seat knows it; sent with the next question."""
        with self._events_lock:
            self._events.append(event)

    def act(self, observation: State) -> Action:
        """Send the observation, read the answer (within the move timeout)."""
        try:
            program = self._begin(observation)
            with self._events_lock:
                events, self._events = self._events, []
            time_ms = None if self.move_timeout is None else round(self.move_timeout * 1000)
            message = observe_message(observation, events, time_ms)
            if self.clock is not None:  # a time control: the bot may budget its moves
                message["clock"] = self.clock.to_json()
            self._seat = int(message["seat"])
            program.send(message)
            index = self._answer(program, message["actions"])
        except AgentFailure:
            self._failed = True
            raise
        return observation.legal_actions()[index]

    def close(self, final: State | None = None) -> None:
        """Tell the bot the result (if the game ended); keep a version-2 bot that played
        cleanly for the next game, otherwise close its input and reap it."""
        program, self._program = self._program, None
        if program is None:
            return
        if final is not None and final.is_terminal() and not self._failed and program.alive():
            with self._events_lock:
                events, self._events = self._events, []
            try:
                program.send(result_message(final, self._seat, events))
            except AgentCrashed:
                self._failed = True
        # Kept only without a log of its own: a kept program's stderr is its first game's.
        reusable = program.protocol == PROTOCOL and not self._failed and program.alive()
        if reusable and not program.logged:
            with _idle_lock:
                kept = _idle.setdefault(self._key, [])
                if len(kept) < MAX_IDLE:
                    kept.append(program)
                    return
        program.close()

    def _check_options(self) -> None:
        """Start the program once to check the spec's options against its hello (then keep
        it for the first game); AgentSpecError, naming the bot, for anything wrong."""
        try:
            program = _Program(self.argv, self.seed, None)
        except AgentCrashed as exc:
            raise AgentSpecError(f"{self.name}: {exc}") from None
        try:
            program.send(hello_message())
            program.greet(self.options, self.name)
        except AgentFailure as exc:
            program.close()
            raise AgentSpecError(f"{self.name}: {exc}") from None
        except AgentSpecError:
            program.close()
            raise
        _checked.add(self._key)
        with _idle_lock:
            _idle.setdefault(self._key, []).append(program)

    def _begin(self, observation: State) -> _Program:
        """The program for this game, started (or taken from the idle ones), told of the
        new game and asked whether it is ready, the first time this game asks."""
        program = self._program
        if program is None:
            if self.stderr_path is None:
                program = _take_idle(self._key)
            if program is None:
                program = _Program(self.argv, self.seed, self.stderr_path)
                self._program = program
                program.send(hello_message())
                if self.options:
                    try:
                        program.greet(self.options, self.name)
                    except AgentSpecError as exc:  # checked once already: the bot changed
                        raise AgentIllegalAction(str(exc)) from None
            self._program = program
        if not self._in_game:
            self._in_game = True
            if program.protocol != 1:  # a version-1 bot has shown it ignores these
                program.send(newgame_message(observation, self.seed))
                program.send({"type": "isready"})
                program.readies += 1
        return program

    def _answer(self, program: _Program, actions: list[dict[str, Any]]) -> int:
        """Read up to the act line: a version-2 bot's hello and readyok come first.

        The move's clock starts when the bot is ready. Until then a version-2 bot has the
        handshake's allowance; a bot whose version is not known yet has only the move's
        time (a version-1 bot gets no more than it always had) until its hello shows it
        speaks version 2.
        """
        timeout = self.move_timeout
        slack = None if timeout is None else max(timeout, HANDSHAKE_SECONDS)
        start = time.monotonic()
        deadline, late = _limit(start, timeout, "no answer")
        if program.protocol == PROTOCOL and program.readies:
            deadline, late = _limit(start, slack, "not ready")
        while True:
            message = program.read_message(deadline, late)
            kind = message["type"]
            v2_owing = program.protocol == PROTOCOL and program.readies > 0
            if kind == "hello" and program.protocol is None:
                program.hello(message)
                if program.readies:
                    deadline, late = _limit(time.monotonic(), slack, "not ready")
            elif kind == "readyok" and v2_owing:
                program.readies -= 1
                if not program.readies:
                    deadline, late = _limit(time.monotonic(), timeout, "no answer")
            elif kind == "act" and not v2_owing:
                if program.protocol is None:  # its first line: a version-1 bot
                    program.protocol, program.readies = 1, 0
                return act_index(message, actions)
            else:
                expected = "readyok" if v2_owing else "act"
                raise AgentIllegalAction(f"sent {kind!r} where {expected!r} was due")


def _limit(now: float, seconds: float | None, what: str) -> tuple[float | None, str]:
    """A deadline `seconds` from `now` (None: none) and what to say when it passes."""
    if seconds is None:
        return None, ""
    return now + seconds, f"{what} within {seconds:g} s"


class ScriptAgent:
    """A Python file defining `choose(state, actions)`, given what a bot would be sent."""

    def __init__(self, path: str, seed: int | None = None) -> None:
        """Load the file now, so a missing or broken script is reported before any game."""
        self.path = Path(path)
        self.name = f"script:{path}"
        self.seed = seed
        self._choose = _load_choose(self.path)

    def act(self, observation: State) -> Action:
        """Call `choose` with the observation and the legal actions, as JSON data."""
        message = observe_message(observation)
        try:
            answer = self._choose(message["state"], message["actions"])
        except Exception as exc:  # the bot's own bug, reported against its seat
            raise AgentCrashed(
                f"{self.path.name}: choose() raised {type(exc).__name__}: {exc}"
            ) from None
        return observation.legal_actions()[chosen_index(answer, message["actions"])]


def _load_choose(path: Path) -> Callable[[dict[str, Any], list[dict[str, Any]]], object]:
    if not path.is_file():
        raise AgentSpecError(f"no bot script {str(path)!r}")
    # A unique module name per file: two scripts both called bot.py must not collide.
    digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(f"p2pcards_script_{digest}", path)
    if spec is None or spec.loader is None:
        raise AgentSpecError(f"cannot load {path} as Python")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        raise AgentSpecError(f"{path} failed to load: {type(exc).__name__}: {exc}") from None
    choose = getattr(module, "choose", None)
    if not callable(choose):
        raise AgentSpecError(f"{path} defines no choose(state, actions) function")
    return choose  # type: ignore[no-any-return]


def _signal_name(number: int) -> str:
    """'signal SIGKILL (9)', or 'signal 99' for a number this system has no name for."""
    import signal

    try:
        return f"signal {signal.Signals(number).name} ({number})"
    except ValueError:
        return f"signal {number}"
