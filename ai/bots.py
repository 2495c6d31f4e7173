"""Bots in any language: the JSON-lines bot protocol, and agents that speak it.

The protocol (docs/bot-protocol.md) is UCI-like: whenever the bot's seat must act, the
harness writes one line, `{"type": "observe", ...}`, holding the seat's observation and
its legal actions in order, and the bot answers with one line, `{"type": "act",
"action": N}`, N indexing that list from 0. When the game ends the harness writes
`{"type": "result", ...}` and closes the bot's input.

`CommandBot` runs a program (`cmd:"node mybot.js"`), one process per game, and
`ScriptAgent` calls `choose(state, actions)` in a Python file (`script:mybot.py`). Both
see exactly what the protocol carries: the seat's observation, never the full state.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import selectors
import shlex
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from ai.errors import AgentCrashed, AgentIllegalAction, AgentSpecError, AgentTimedOut
from p2pcards.engine import Action, State

PROTOCOL = 1
MAX_LINE = 1 << 20  # bytes in one line from a bot (docs/bot-protocol.md)
# Nesting of arrays and objects in an answer; an act line needs 2. json.loads recurses,
# so a deeper line must be refused before it is parsed.
MAX_DEPTH = 16
_READ = 65536  # bytes asked of the pipe at a time


def observe_message(observation: State) -> dict[str, Any]:
    """What a bot is sent when its seat must act."""
    return {
        "type": "observe",
        "protocol": PROTOCOL,
        "game": observation.game.name,
        "seat": observation.current_player(),
        "state": observation.to_json(),
        "actions": [action.to_json() for action in observation.legal_actions()],
    }


def result_message(final: State, seat: int) -> dict[str, Any]:
    """What a bot is sent when the game is over."""
    returns = final.returns()
    return {
        "type": "result",
        "protocol": PROTOCOL,
        "seat": seat,
        "returns": returns,
        "winners": [s for s, r in enumerate(returns) if r > 0],
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


def parse_act(line: bytes, actions: list[dict[str, Any]]) -> int:
    """The action index in a bot's reply line; AgentIllegalAction for a malformed line."""
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
    if not isinstance(message, dict) or message.get("type") != "act" or "action" not in message:
        raise AgentIllegalAction(f'expected {{"type": "act", "action": N}}, got {text[:80]!r}')
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


class CommandBot:
    """An external program speaking the bot protocol on its stdin and stdout."""

    def __init__(self, command: str, seed: int | None = None, move_timeout: float | None = None):
        """`command` is split like a shell would; the program starts at the first move."""
        self.argv = shlex.split(command)
        if not self.argv:
            raise AgentSpecError('cmd: needs a command, e.g. cmd:"node mybot.js"')
        self.name = f"cmd:{command}"
        self.seed = seed
        self.move_timeout = move_timeout
        self._proc: subprocess.Popen[bytes] | None = None
        self._errors: IO[bytes] | None = None
        # Where the program's stderr goes (the harness's --log-dir); a temporary file
        # otherwise, read only for the last line of a crash report.
        self.stderr_path: Path | None = None
        self._buffer = b""
        self._seat = 0  # of the last observation: the result message names it

    def act(self, observation: State) -> Action:
        """Send the observation, read the answer (within the move timeout)."""
        message = observe_message(observation)
        self._send(message)
        index = parse_act(self._read_line(), message["actions"])
        return observation.legal_actions()[index]

    def close(self, final: State | None = None) -> None:
        """Tell the bot the result (if the game ended), close its input, and reap it."""
        proc = self._proc
        if proc is None:
            return
        if final is not None and final.is_terminal() and proc.poll() is None:
            with contextlib.suppress(AgentCrashed):
                self._send(result_message(final, self._seat))
        with contextlib.suppress(OSError):
            assert proc.stdin is not None
            proc.stdin.close()
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
        if self._errors is not None:
            self._errors.close()
        self._proc = None

    def _start(self) -> subprocess.Popen[bytes]:
        if self._proc is None:
            # Closed in close(); a file, not a pipe, so a chatty bot never blocks on stderr.
            if self.stderr_path is not None:
                self._errors = self.stderr_path.open("w+b")
            else:
                self._errors = tempfile.TemporaryFile()  # noqa: SIM115
            env = {**os.environ, "P2PCARDS_SEED": str(self.seed)}
            try:
                self._proc = subprocess.Popen(
                    self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                    stderr=self._errors, env=env,
                )  # fmt: skip
            except OSError as exc:
                raise AgentCrashed(f"cannot start {self.argv[0]!r}: {exc.strerror}") from None
        return self._proc

    def _send(self, message: dict[str, Any]) -> None:
        proc = self._start()
        self._seat = int(message["seat"])
        assert proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._crashed() from None

    def _read_line(self) -> bytes:
        proc = self._start()
        assert proc.stdout is not None
        deadline = None if self.move_timeout is None else time.monotonic() + self.move_timeout
        fd = proc.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            # The buffer holds at most one line over the limit by one read, then we stop.
            while b"\n" not in self._buffer:
                if len(self._buffer) > MAX_LINE:
                    raise AgentIllegalAction(f"sent a line of more than {MAX_LINE} bytes")
                wait = None if deadline is None else deadline - time.monotonic()
                if wait is not None and wait <= 0:
                    raise AgentTimedOut(f"no answer within {self.move_timeout:g} s")
                if not selector.select(wait):
                    continue
                chunk = os.read(fd, _READ)
                if not chunk:
                    raise self._crashed()
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _crashed(self) -> AgentCrashed:
        proc = self._proc
        code = None
        if proc is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = proc.wait(timeout=1)
        tail = ""
        if self._errors is not None:
            self._errors.seek(0)
            text = self._errors.read().decode(errors="replace").strip()
            tail = f": {text.splitlines()[-1][:200]}" if text else ""
        how = "closed its output" if code is None else f"exited with code {code}"
        return AgentCrashed(f"{self.argv[0]} {how}{tail}")


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
