"""A bot in ten lines of Python: the bot protocol's loop (docs/bot-protocol.md), done once.

    from ai.botkit import Bot, Option, run

    class Mine(Bot):
        name, author, version = "mine", "me", "1.0"
        options = (Option("depth", 3, min=1, max=9),)

        def choose(self, question):
            return len(question.actions) - 1   # an index into question.actions

    run(Mine())

Run it as any bot: `--agents 'cmd:".venv/bin/python mine.py":depth=4'`. `run` answers the
handshake (`hello`, `setoption`, `isready`), reseeds `self.rng` and calls `new_game` at
each `newgame`, asks `choose` at each `observe` and tells `game_over` at each `result`; a
harness that speaks version 1 (only `observe` and `result`) works too. Logs go to stderr
(`self.log`): stdout is the protocol's.
"""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO, Any, ClassVar

PROTOCOL = 2


@dataclass(frozen=True)
class Option:
    """An option the bot offers; its type follows the default (bool, int, float, text, or a
    choice when `values` are given)."""

    name: str
    default: bool | int | float | str
    min: float | None = None
    max: float | None = None
    values: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The option as the bot's hello lists it."""
        kind = (
            "bool" if isinstance(self.default, bool)
            else "int" if isinstance(self.default, int)
            else "float" if isinstance(self.default, float)
            else "choice" if self.values
            else "string"
        )  # fmt: skip
        out: dict[str, Any] = {"name": self.name, "type": kind, "default": self.default}
        if kind in ("int", "float"):
            out.update({k: v for k, v in (("min", self.min), ("max", self.max)) if v is not None})
        if kind == "choice":
            out["values"] = list(self.values)
        return out


@dataclass(frozen=True)
class Game:
    """A new game (`newgame`): which, how many seats, which is yours, and its seed."""

    game: str
    seats: int
    seat: int
    seed: int | None


@dataclass(frozen=True)
class Question:
    """Your seat must act (`observe`): what it may see, its legal actions in order, the time
    it has in milliseconds (None: no limit), and the steps it saw since it was last asked
    (each `{"seat": S or None for the dealer, "action": {...}, "to": S for a card dealt}`)."""

    game: str
    seat: int
    state: dict[str, Any]
    actions: list[dict[str, Any]]
    time_ms: int | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    clock: dict[str, int | None] | None = None
    """Under a time control (`--tc`): `time_ms` left, `increment_ms`, `moves_to_go`."""


@dataclass(frozen=True)
class Result:
    """The game is over (`result`): each seat's return, the winners, the last steps."""

    seat: int
    returns: list[float]
    winners: list[int]
    events: list[dict[str, Any]] = field(default_factory=list)


class Bot:
    """Subclass it: set name (author, version, options) and write `choose`."""

    name: ClassVar[str] = "bot"
    author: ClassVar[str] = ""
    version: ClassVar[str] = ""
    options: ClassVar[Sequence[Option]] = ()

    def __init__(self) -> None:
        """Options at their defaults; `rng` seeded from P2PCARDS_SEED until a newgame."""
        self.settings: dict[str, Any] = {o.name: o.default for o in self.options}
        seed = os.environ.get("P2PCARDS_SEED")
        self.rng = random.Random(seed)

    def choose(self, question: Question) -> int | dict[str, Any]:
        """The index of your action in `question.actions` (or the action itself)."""
        raise NotImplementedError

    def new_game(self, game: Game) -> None:
        """A game begins: forget the last one (`rng` is already reseeded)."""

    def game_over(self, result: Result) -> None:
        """The game ended."""

    def set_option(self, name: str, value: Any) -> None:
        """The harness sets an option (from the spec, `cmd:"..."`:name=value)."""
        if name in self.settings:
            self.settings[name] = value
        else:
            self.log(f"no option {name!r}; ignored")

    def log(self, text: str) -> None:
        """A line on stderr (stdout belongs to the protocol)."""
        print(text, file=sys.stderr, flush=True)

    def hello(self) -> dict[str, Any]:
        """The bot's answer to the harness's hello."""
        return {
            "type": "hello",
            "protocol": PROTOCOL,
            "name": self.name,
            "author": self.author or None,
            "version": self.version or None,
            "options": [o.to_json() for o in self.options],
        }


def run(bot: Bot, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> None:
    """Speak the bot protocol on stdin and stdout until the harness closes stdin."""
    source = sys.stdin if stdin is None else stdin
    sink = sys.stdout if stdout is None else stdout

    def send(message: dict[str, Any]) -> None:
        sink.write(json.dumps({k: v for k, v in message.items() if v is not None}) + "\n")
        sink.flush()  # a pipe is buffered: unflushed, the harness waits for nothing

    for line in source:
        if not line.strip():
            continue
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            send(bot.hello())
        elif kind == "setoption":
            bot.set_option(message["name"], message["value"])
        elif kind == "isready":
            send({"type": "readyok"})
        elif kind == "newgame":
            bot.rng = random.Random(message.get("seed"))
            bot.new_game(Game(message["game"], message["seats"], message["seat"],
                              message.get("seed")))  # fmt: skip
        elif kind == "observe":
            question = Question(
                message["game"], message["seat"], message["state"], message["actions"],
                message.get("time_ms"), message.get("events", []), message.get("clock"),
            )  # fmt: skip
            send({"type": "act", "action": bot.choose(question)})
        elif kind == "result":
            bot.game_over(Result(message["seat"], message["returns"], message["winners"],
                                 message.get("events", [])))  # fmt: skip
        # Anything else is from a later version of the protocol: ignored, as it must be.
