"""Game records: one JSON line per headless game, written by `simulate` and `tournament`,
read back by `replay`.

A record holds everything that decides the game (game, seats, options, round cap, seed,
agents by seat with their full specs) and every action in full, chance outcomes included:
these are AI games on one machine, so nothing in them is secret once they are over, and
a full record can be played through the engine again. Reading a record does exactly that,
checking each action against the rules and the end against the recorded result, so a
record that reads is a game that happened. Records are untrusted input (a file someone
sent): every field is checked, and any fault is a `RecordError` naming the line.
The format is described in docs/records.md.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from p2pcards import games
from p2pcards.engine import CHANCE, Action, State, forfeit_returns
from p2pcards.errors import P2PCardsError
from p2pcards.history import Event

FORMAT = "p2pcards-game-record"
VERSION = 2  # 2: the game's rules version ("rules") is recorded and checked
MAX_LINE = 16 << 20  # bytes in one record: a long game is well under 1 MiB
MAX_STEPS = 1_000_000  # actions in one record
MAX_DEPTH = 4  # nesting of a record's values: the record, actions, an entry, its action
STATUSES = ("ok", "crash", "timeout", "time", "illegal", "error")  # time: lost on time
_KEYS = {
    "format", "version", "number", "game", "rules", "seats", "options", "round_cap", "seed",
    "agents", "specs", "actions", "result", "seconds",
}  # fmt: skip
_RESULT_KEYS = {"returns", "winners", "steps", "status", "faulty_seat", "error"}


class RecordError(P2PCardsError, ValueError):
    """A record that is malformed, or whose actions do not replay to its result."""


@dataclass(frozen=True)
class GameRecord:
    """One finished game, as a records file holds it."""

    number: int  # the game's number in its run (simulate: 0, 1, ...; tournament: the schedule's)
    game: str
    seats: int
    options: Mapping[str, Any]  # the game's own options (-o), without the round cap
    round_cap: int | None
    seed: int
    agents: tuple[str, ...]  # labels by seat
    specs: tuple[str, ...]  # full agent specs by seat, as given
    actions: tuple[Event, ...]  # every step, in full
    returns: tuple[float, ...]
    status: str = "ok"  # ok, or how the faulty seat's agent failed
    faulty_seat: int | None = None
    error: str = ""
    seconds: float = field(default=0.0, compare=False)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats with a positive return."""
        return tuple(s for s, r in enumerate(self.returns) if r > 0)

    def to_json(self) -> dict[str, Any]:
        """The record as JSON data (one line of a records file)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "number": self.number,
            "game": self.game,
            "rules": games.info(self.game).rules_version,
            "seats": self.seats,
            "options": dict(self.options),
            "round_cap": self.round_cap,
            "seed": self.seed,
            "agents": list(self.agents),
            "specs": list(self.specs),
            "actions": [event.to_json() for event in self.actions],
            "result": {
                "returns": list(self.returns),
                "winners": list(self.winners),
                "steps": len(self.actions),
                "status": self.status,
                "faulty_seat": self.faulty_seat,
                "error": self.error,
            },
            "seconds": round(self.seconds, 3),
        }

    def to_line(self) -> str:
        """One line of JSON, newline included."""
        return json.dumps(self.to_json(), separators=(",", ":"), ensure_ascii=False) + "\n"

    def new_state(self) -> State:
        """The game's initial state, as the record's options make it."""
        game = games.load(self.game)
        return game.new_initial_state(self.seats, round_cap=self.round_cap, **self.options)


def event_of(before: State, action: Action) -> Event:
    """`action`, about to be applied to `before`, as a record keeps it: in full."""
    actor = before.current_player()
    to = before.chance_move().to if actor == CHANCE else None
    return Event(actor, action, to)


def write(stream: IO[str], record: GameRecord) -> None:
    """Append one record and flush it, so a run stopped later keeps it."""
    stream.write(record.to_line())
    stream.flush()


# ------------------------------------------------------------------ reading


def read(path: Path) -> Iterator[GameRecord]:
    """The records of a file, in order; RecordError (with the line number) for a bad one,
    OSError if the file cannot be read."""
    with path.open("rb") as stream:
        for number, line in enumerate(stream, 1):
            if not line.strip():
                continue
            try:
                yield parse_line(line)
            except RecordError as exc:
                raise RecordError(f"{path}, line {number}: {exc}") from None


def pick(path: Path, number: int | None = None) -> tuple[GameRecord, int]:
    """The record of game `number` (the file's first without one), checked in full, and how
    many records the file holds; RecordError if it has no such game or a line is broken."""
    found: GameRecord | None = None
    count = 0
    with path.open("rb") as stream:
        for line_number, line in enumerate(stream, 1):
            if not line.strip():
                continue
            count += 1
            if found is not None:
                continue
            try:
                data = _json(line)
                if number is None or (isinstance(data, dict) and data.get("number") == number):
                    found = from_json(data)
            except RecordError as exc:
                raise RecordError(f"{path}, line {line_number}: {exc}") from None
    if found is None:
        which = "no games" if number is None else f"no game numbered {number}"
        raise RecordError(f"{path} holds {which} ({count} records)")
    return found, count


def parse_line(line: bytes) -> GameRecord:
    """One record from its line of JSON, checked field by field and replayed."""
    return from_json(_json(line))


def _json(line: bytes) -> Any:
    """A line's JSON data, or RecordError."""
    if len(line) > MAX_LINE:
        raise RecordError(f"a line of {len(line)} bytes, over {MAX_LINE}")
    try:
        data = json.loads(line.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError as exc:
        raise RecordError(f"not UTF-8 (byte {exc.start})") from None
    except RecursionError:
        raise RecordError("JSON nested too deep") from None
    except ValueError as exc:  # also a number over Python's digit limit
        raise RecordError(f"not JSON: {exc}") from None
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a record holds")


def _decks(value: object, seats: int) -> None:
    """A game of own decks records each seat's deck as card counts: one map per seat, of
    bounded size (the game checks the deck rules when it starts)."""
    if not isinstance(value, list) or len(value) != seats:
        raise RecordError(f"option 'decks' must list one deck per seat ({seats})")
    for deck in value:
        if not isinstance(deck, dict) or not 0 < len(deck) <= 200:
            raise RecordError("a recorded deck is a map of up to 200 card ids to copies")
        for card, n in deck.items():
            if not isinstance(card, str) or len(card) > 60:
                raise RecordError(f"a recorded deck names a bad card id {str(card)[:60]!r}")
            if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 99:
                raise RecordError(f"a recorded deck has a bad count for {card!r}")


def from_json(data: object) -> GameRecord:
    """A record from JSON data: every field checked, then the game replayed to its result."""
    if _deeper_than(data, MAX_DEPTH):
        raise RecordError(f"nested deeper than a record ({MAX_DEPTH} levels)")
    obj = _mapping(data, "a record")
    missing = sorted(_KEYS - set(obj))
    if missing:
        raise RecordError(f"missing fields: {', '.join(missing)}")
    extra = sorted(str(k) for k in set(obj) - _KEYS)
    if extra:
        raise RecordError(f"unknown fields: {', '.join(extra)}")
    if obj["format"] != FORMAT:
        raise RecordError(f"format is {obj['format']!r}, not {FORMAT!r}")
    if obj["version"] != VERSION or isinstance(obj["version"], bool):
        raise RecordError(f"version {obj['version']!r} is not {VERSION} (this program's)")
    name = obj["game"]
    if not isinstance(name, str) or name not in games.names():
        raise RecordError(f"unknown game {name!r}")
    rules = games.info(name).rules_version
    if obj["rules"] != rules or isinstance(obj["rules"], bool):
        raise RecordError(
            f"recorded under {name} rules version {str(obj['rules'])[:20]}; this program plays "
            f"version {rules}, whose moves differ, so the game cannot be replayed"
        )
    game = games.load(name)
    seats = _integer(obj["seats"], "seats", game.min_players, game.max_players)
    options = _mapping(obj["options"], "options")
    for key, value in options.items():
        if not isinstance(key, str) or key == "round_cap":
            raise RecordError(f"option {key!r} is not a game option")
        if key == "decks":
            _decks(value, seats)
        elif not isinstance(value, bool | int | str | None):
            raise RecordError(f"option {key!r} has a value of type {type(value).__name__}")
    round_cap = obj["round_cap"]
    if round_cap is not None:
        round_cap = _integer(round_cap, "round_cap", 1, 1_000_000)
    agents = _strings(obj["agents"], "agents", seats)
    specs = _strings(obj["specs"], "specs", seats)
    seconds = obj["seconds"]
    if not isinstance(seconds, int | float) or isinstance(seconds, bool) or not seconds >= 0:
        raise RecordError(f"seconds is {seconds!r}, not a time")
    result = _mapping(obj["result"], "result")
    if set(result) != _RESULT_KEYS:
        raise RecordError(
            f"result has fields {sorted(map(str, result))}, not {sorted(_RESULT_KEYS)}"
        )
    status = result["status"]
    if status not in STATUSES:
        raise RecordError(f"status {status!r} is not one of {', '.join(STATUSES)}")
    faulty = result["faulty_seat"]
    if (status == "ok") != (faulty is None):
        raise RecordError("a failed game names its faulty seat, and only a failed game")
    if faulty is not None:
        faulty = _integer(faulty, "faulty_seat", 0, seats - 1)
    error = result["error"]
    if not isinstance(error, str):
        raise RecordError("error is not text")
    returns = _returns(result["returns"], seats)
    raw_actions = obj["actions"]
    if not isinstance(raw_actions, list) or len(raw_actions) > MAX_STEPS:
        raise RecordError(f"actions must be a list of at most {MAX_STEPS}")
    if _integer(result["steps"], "steps", 0, MAX_STEPS) != len(raw_actions):
        raise RecordError(f"steps is {result['steps']}, but {len(raw_actions)} actions are given")
    record = GameRecord(
        _integer(obj["number"], "number", 0, 2**63 - 1), name, seats, options, round_cap,
        _integer(obj["seed"], "seed", 0, 2**63 - 1), agents, specs, (), returns, status,
        faulty, error, float(seconds),
    )  # fmt: skip
    events = _replay(record, raw_actions)
    if result["winners"] != list(record.winners):
        raise RecordError(f"winners {result['winners']!r} are not those of the returns")
    return GameRecord(
        record.number, name, seats, options, round_cap, record.seed, agents, specs, events,
        returns, status, faulty, error, float(seconds),
    )  # fmt: skip


def _replay(record: GameRecord, raw_actions: list[Any]) -> tuple[Event, ...]:
    """Play the recorded actions through the engine; the events, or RecordError."""
    try:
        state = record.new_state()
    except (P2PCardsError, TypeError, ValueError) as exc:
        raise RecordError(f"the game cannot start with these options: {exc}") from None
    game = state.game
    events: list[Event] = []
    for step, raw in enumerate(raw_actions, 1):
        entry = _mapping(raw, f"action {step}")
        if state.is_terminal():
            raise RecordError(f"action {step} comes after the end of the game")
        actor = state.current_player()
        expected = {"seat", "action", "to"} if actor == CHANCE else {"seat", "action"}
        if set(entry) != expected:
            who = "the dealer's" if actor == CHANCE else f"seat {actor}'s"
            raise RecordError(f"action {step} is {who}: fields {sorted(expected)} expected")
        if entry["seat"] != (None if actor == CHANCE else actor) or isinstance(entry["seat"], bool):
            raise RecordError(f"action {step} is not seat {entry['seat']!r}'s to take")
        try:
            action = game.action_from_json(entry["action"])
            event = event_of(state, action)
            if actor == CHANCE and (entry["to"] != event.to or isinstance(entry["to"], bool)):
                raise RecordError(f"action {step} deals to seat {event.to}, not {entry['to']!r}")
            state.apply_action(action)
        except RecordError:
            raise
        except (P2PCardsError, TypeError, ValueError) as exc:
            raise RecordError(f"action {step} does not replay: {exc}") from None
        events.append(event)
    _check_end(record, state)
    return tuple(events)


def _check_end(record: GameRecord, state: State) -> None:
    """RecordError unless the replayed game ends as the record says."""
    if record.status == "ok":
        if not state.is_terminal():
            raise RecordError("the actions stop before the end of the game")
        if tuple(state.returns()) != record.returns:
            raise RecordError(f"the game ends with returns {state.returns()}, not {record.returns}")
        return
    if state.is_terminal() or state.current_player() != record.faulty_seat:
        raise RecordError(
            f"a game lost by seat {record.faulty_seat}'s {record.status} stops at that seat's move"
        )
    assert record.faulty_seat is not None
    forfeit = tuple(forfeit_returns(record.seats, [record.faulty_seat]))
    if record.returns != forfeit:
        raise RecordError(f"a forfeit's returns are {forfeit}, not {record.returns}")


def _deeper_than(value: object, limit: int) -> bool:
    """Whether lists and maps nest deeper than `limit` (walked without recursion: a deep
    value must be refused before anything recurses into it, repr included)."""
    stack: list[tuple[object, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: list[object] = [*item.keys(), *item.values()]
        elif isinstance(item, list | tuple):
            children = list(item)
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def _mapping(value: object, what: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise RecordError(f"{what} must be a JSON object, not {type(value).__name__}")
    return value


def _integer(value: object, what: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RecordError(f"{what} must be an integer from {low} to {high}, not {value!r}")
    return value


def _strings(value: object, what: str, seats: int) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) != seats:
        raise RecordError(f"{what} must list one entry per seat ({seats})")
    if not all(isinstance(item, str) and 0 < len(item) <= 1000 for item in value):
        raise RecordError(f"{what} must be non-empty text of at most 1000 characters")
    return tuple(value)


def _returns(value: object, seats: int) -> tuple[float, ...]:
    if not isinstance(value, list) or len(value) != seats:
        raise RecordError(f"returns must list one number per seat ({seats})")
    numbers: list[float] = []
    for item in value:
        if not isinstance(item, int | float) or isinstance(item, bool) or not math.isfinite(item):
            raise RecordError(f"returns must be numbers, not {item!r}")
        numbers.append(float(item))
    return tuple(numbers)


def find(records: Sequence[GameRecord], number: int) -> GameRecord | None:
    """The record of the game with this number, if there is one."""
    return next((r for r in records if r.number == number), None)


# ------------------------------------------------------------------ deal books


class DealBookError(P2PCardsError, ValueError):
    """A deal book that is not a list of seeds."""


def read_deals(path: Path) -> tuple[int, ...]:
    """A deal book's seeds, in order: one per line, `#` starts a comment, blank lines are
    skipped. DealBookError names the line of anything else; OSError if it cannot be read."""
    seeds: list[int] = []
    with path.open("rb") as stream:
        for number, raw in enumerate(stream, 1):
            if len(raw) > 1000:
                raise DealBookError(f"{path}, line {number}: longer than 1000 bytes")
            try:
                line = raw.decode("utf-8").partition("#")[0].strip()
            except UnicodeDecodeError:
                raise DealBookError(f"{path}, line {number}: not UTF-8") from None
            if not line:
                continue
            if not line.isdigit() or not line.isascii() or int(line) > 2**63 - 1:
                raise DealBookError(
                    f"{path}, line {number}: a seed is a whole number from 0 to 2^63-1, "
                    f"not {line[:40]!r}"
                )
            seeds.append(int(line))
    if not seeds:
        raise DealBookError(f"{path} holds no seeds (one per line; # starts a comment)")
    return tuple(seeds)
