"""What the OpenSpiel and PettingZoo adapters share: a game's settings as plain parameters,
stable action ids, and the fixed-shape tensor of a seat's view (docs/adapters.md).

Pure like the rest of `p2pcards`: no numpy, no pyspiel, no pettingzoo here, so it imports
without the extras.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NamedTuple

from p2pcards import games
from p2pcards.engine import CHANCE, TERMINAL, Action, State
from p2pcards.errors import GameOptionError, P2PCardsError

ACTION_ID_BITS = 20
NUM_ACTION_IDS = 1 << ACTION_ID_BITS
"""Action ids (and chance outcome ids) are in range(NUM_ACTION_IDS)."""

DEFAULT_ROUND_CAP = 100
"""Rounds before an adapted game ends (0: no cap), so that every episode ends: OpenSpiel's
`max_game_length` and an RL episode both need a bound. The engine's own default is no cap."""

DECK_SEPARATOR = "+"
"""Between the seats' shipped deck names in the `decks` parameter ("control+tempo-machine"):
an OpenSpiel game string cannot hold commas or brackets in a value."""

Parameter = int | bool | str
"""A parameter's value: what an OpenSpiel game string carries."""


class ActionSpaceError(P2PCardsError):
    """A decision with more legal actions than an adapter's fixed action space holds."""


# ---------------------------------------------------------------- settings


@dataclass(frozen=True, slots=True)
class Settings:
    """One table of one game: its seats and options, as hashable plain values."""

    game: str
    players: int
    options: tuple[tuple[str, Parameter], ...]
    """Every parameter but `players`, sorted by name, defaults filled in."""

    def engine_options(self) -> dict[str, Any]:
        """The options `Game.new_initial_state` takes for these parameters."""
        out: dict[str, Any] = {}
        values = dict(self.options)
        for name, value in values.items():
            if name == "decks":
                if value:
                    out["decks"] = str(value).split(DECK_SEPARATOR)
            elif isinstance(value, bool):
                out[name] = value
            elif name.endswith("_cap"):
                if value:  # 0 is no cap
                    out[name] = value
            else:
                out[name] = value
        # getgem takes a turn cap or a round cap: an explicit turn cap replaces the default
        # round cap rather than clash with it.
        if "turn_cap" in out:
            out.pop("round_cap", None)
        return out

    def new_state(self) -> State:
        """A fresh engine state for this table; GameOptionError for a bad option."""
        return games.load(self.game).new_initial_state(self.players, **self.engine_options())


def parameter_defaults(game: str) -> dict[str, Parameter]:
    """Every parameter a game's adapters take, with its default: `players` (the fewest
    seats), `round_cap` (DEFAULT_ROUND_CAP, 0 none), and each registered option: a switch
    stays a bool, a number an int, a cap without a default 0 (none), `decks` a string."""
    info = games.info(game)
    out: dict[str, Parameter] = {"players": info.min_players, "round_cap": DEFAULT_ROUND_CAP}
    for option in info.options:
        if option.name in out:
            continue
        if option.name == "decks":
            out["decks"] = ""
        elif option.default is None:
            out[option.name] = 0
        else:
            out[option.name] = option.default
    return out


def settings(game: str, params: Mapping[str, object]) -> Settings:
    """The table these parameters describe, checked; GameOptionError names a bad one."""
    defaults = parameter_defaults(game)
    unknown = sorted(set(params) - set(defaults))
    if unknown:
        raise GameOptionError(f"{game} takes {', '.join(sorted(defaults))}; not {unknown}")
    values: dict[str, Parameter] = dict(defaults)
    for name, value in params.items():
        default = defaults[name]
        if type(value) is not type(default):
            raise GameOptionError(
                f"{game} parameter {name} must be {type(default).__name__}, not {value!r}"
            )
        if isinstance(value, int) and not -(1 << 31) <= value < 1 << 31:
            raise GameOptionError(f"{game} parameter {name} must lie in -2**31 to 2**31 - 1")
        values[name] = value
    players = values.pop("players")
    assert isinstance(players, int)
    games.load(game).check_num_players(players)
    return Settings(game, players, tuple(sorted(values.items())))


# ---------------------------------------------------------------- action ids


def canonical(action: Action) -> str:
    """An action's canonical form: its wire JSON with sorted keys and no spaces."""
    return json.dumps(action.to_json(), sort_keys=True, separators=(",", ":"))


def _probe(text: str, probe: int) -> int:
    """The `probe`-th candidate id of an action's canonical form (BLAKE2b, not `hash()`,
    which differs from process to process for strings)."""
    digest = hashlib.blake2b(f"{probe}:{text}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") & (NUM_ACTION_IDS - 1)


_FIRST_IDS: dict[Action, int] = {}
_BY_OBJECT: dict[int, int] = {}
"""Ids by `id()` of the action object: the games hand out the same action objects again and
again, and an identity lookup spares the dataclass's Python-level __hash__ and __eq__."""
_KEPT: list[Action] = []
"""Every object `_BY_OBJECT` names, kept alive so that its `id()` is not reused meanwhile."""
_HOLDER: dict[int, Action] = {}
"""The first action met with each first id, to notice two actions that share one."""
_SHARED: set[int] = set()
"""The first ids that two different actions met so far share: only a node holding one of
these can have a collision."""
_CACHE_LIMIT = 1 << 17  # distinct actions remembered; a game meets a few thousand


def action_id(action: Action) -> int:
    """An action's id: the first probe of its canonical form, the same in every process."""
    found = _BY_OBJECT.get(id(action))
    if found is not None:
        return found
    if len(_KEPT) >= _CACHE_LIMIT:  # forget everything at once: the caches agree
        for cache in (_FIRST_IDS, _BY_OBJECT, _KEPT, _HOLDER, _SHARED):
            cache.clear()
    found = _FIRST_IDS.get(action)
    if found is None:
        found = _probe(canonical(action), 0)
        _FIRST_IDS[action] = found
        if _HOLDER.setdefault(found, action) != action:
            _SHARED.add(found)
    _KEPT.append(action)
    _BY_OBJECT[id(action)] = found
    return found


def assign_ids(actions: Sequence[Action]) -> list[int]:
    """The ids of one node's actions (legal actions or chance outcomes), in their order.

    Each action has its `action_id`. Should two of them meet on one id (about n²/2 in a
    million for n actions), they are taken in canonical order and each later one probes on
    until its id is free: still one id per action, the same in every process.
    """
    # action_id's identity lookup, in C: this runs at every step of every game.
    ids: list[int] = list(map(_BY_OBJECT.get, map(id, actions)))  # type: ignore[arg-type]
    if None in ids:
        ids = [action_id(action) for action in actions]  # (which may forget _SHARED)
        if len(set(ids)) == len(ids):
            return ids
    elif not _SHARED or _SHARED.isdisjoint(ids) or len(set(ids)) == len(ids):
        # Every action here was met since the caches were last forgotten, so any id two
        # of them share is in _SHARED.
        return ids
    taken: dict[Action, int] = {}
    for action in sorted(set(actions), key=canonical):
        text, probe = canonical(action), 0
        candidate = _probe(text, probe)
        while candidate in taken.values():
            probe += 1
            candidate = _probe(text, probe)
        taken[action] = candidate
    return [taken[a] for a in actions]


def action_label(action: Action, others: Sequence[Action]) -> str:
    """A readable name for an action among a node's `others`: its `str`, or with its
    canonical form after it where another action reads the same (OpenSpiel wants names
    unique within a node)."""
    text = str(action)
    if sum(1 for other in others if str(other) == text) > 1:
        return f"{text} {canonical(action)}"
    return text


# ---------------------------------------------------------------- serialized states

RECORD_FORMAT = "p2pcards-state"
RECORD_VERSION = 1
MAX_RECORD_CHARS = 1 << 23
"""The longest serialized state read: a million steps' ids, far beyond any capped game."""
MAX_RECORD_STEPS = 1 << 20
_RECORD_KEYS = frozenset({"format", "version", "game", "rules_version", "params", "history"})


class SerializationError(P2PCardsError, ValueError):
    """A serialized state that is malformed, of other rules, or whose actions do not replay."""


class StateRecord(NamedTuple):
    """A state as its table and the ids of every step from the initial state to it (the
    decisions and the chance outcomes alike, in order)."""

    table: Settings
    history: tuple[int, ...]

    def encode(self) -> str:
        """The record as one line of JSON (docs/adapters.md)."""
        return json.dumps(
            {
                "format": RECORD_FORMAT,
                "version": RECORD_VERSION,
                "game": self.table.game,
                "rules_version": games.info(self.table.game).rules_version,
                "params": {"players": self.table.players, **dict(self.table.options)},
                "history": list(self.history),
            },
            separators=(",", ":"),
        )


def decode_record(text: str | bytes) -> StateRecord:
    """A record from its serialized form, every value checked (whether its steps replay is
    for whoever replays it); SerializationError says what is wrong. Never unpickles."""
    if len(text) > MAX_RECORD_CHARS:
        raise SerializationError(f"a serialized state of {len(text)} characters is too long")
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except UnicodeDecodeError as exc:
        raise SerializationError(f"a serialized state is not UTF-8 (byte {exc.start})") from None
    except RecursionError:
        raise SerializationError("a serialized state nests too deeply") from None
    except ValueError as exc:  # also a number over Python's digit limit
        raise SerializationError(f"a serialized state is not JSON: {exc}") from None
    if not isinstance(data, dict) or set(data) != _RECORD_KEYS:
        raise SerializationError(
            f"a serialized state is a JSON object of {', '.join(sorted(_RECORD_KEYS))}"
        )
    if data["format"] != RECORD_FORMAT or not _is_int(data["version"]):
        raise SerializationError(f"not a serialized state of format {RECORD_FORMAT!r}")
    if data["version"] != RECORD_VERSION:
        raise SerializationError(
            f"serialized state version {data['version']} is not {RECORD_VERSION} (this program's)"
        )
    game = data["game"]
    if not isinstance(game, str) or game not in games.names():
        raise SerializationError(f"unknown game {str(game)[:40]!r}")
    rules = games.info(game).rules_version
    if not _is_int(data["rules_version"]) or data["rules_version"] != rules:
        raise SerializationError(
            f"serialized under {game} rules version {str(data['rules_version'])[:20]}; this "
            f"program plays version {rules}, whose action ids differ"
        )
    params = data["params"]
    if not isinstance(params, dict):
        raise SerializationError("params must be a JSON object")
    try:
        table = settings(game, params)
        table.new_state()  # the game's own checks of its options (a deck's name, say)
    except GameOptionError as exc:
        raise SerializationError(f"bad params: {str(exc)[:200]}") from None
    history = data["history"]
    if not isinstance(history, list) or len(history) > MAX_RECORD_STEPS:
        raise SerializationError(f"history must be a list of at most {MAX_RECORD_STEPS} ids")
    for step, number in enumerate(history):
        if not _is_int(number) or not 0 <= number < NUM_ACTION_IDS:
            raise SerializationError(f"step {step}: {str(number)[:20]} is not an action id")
    return StateRecord(table, tuple(history))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _no_constant(name: str) -> object:
    raise SerializationError(f"a serialized state holds {name}, which is not JSON")


# ---------------------------------------------------------------- tensors

Path = tuple[str | int, ...]


Tree = dict[str | int, "Tree | int"]


def _path_tree(paths: tuple[Path, ...]) -> Tree:
    """The paths as a tree of keys whose leaves are the paths' places in the tensor."""
    tree: Tree = {}
    for i, path in enumerate(paths):
        node = tree
        for key in path[:-1]:
            child = node.setdefault(key, {})
            assert isinstance(child, dict)
            node = child
        node[path[-1]] = i
    return tree


FLOAT32_MAX = 3.4028234663852886e38
"""The largest float32: the tensor's bound where the rules set none (an infinite bound
would tell a learner nothing more, and Gymnasium's checker warns of it)."""

PILE = 16
"""A list longer than this in the public state is a pile of slot ids, not numbers."""


@dataclass(frozen=True, slots=True)
class TensorLayout:
    """The flat float tensor of a seat's view, fixed per game and table (docs/adapters.md):

    - `seat`: one-hot of the viewing seat (players);
    - `current`: one-hot of who acts: each seat, then chance, then the end (players + 2);
    - `zones`: for each zone, in `zones` order, how many cards of each id in `cards` the
      seat knows there, then how many it knows of other ids (tokens), then how many it
      cannot see (zones × (cards + 2));
    - `numbers`: each number of the public state (`public_sections()`) at the paths in
      `numbers`, 0 where the path is gone.
    """

    players: int
    zones: tuple[str, ...]
    cards: tuple[str, ...]
    numbers: tuple[Path, ...]
    size: int = field(init=False, compare=False)
    """The tensor's length."""
    _columns: dict[str, int] = field(init=False, compare=False, repr=False)
    _tree: Tree = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        # Worked out once: the tensor is made at every step of an environment.
        object.__setattr__(self, "size", sum(size for _, size, _ in self.pieces()))
        object.__setattr__(self, "_columns", {card: i for i, card in enumerate(self.cards)})
        object.__setattr__(self, "_tree", _path_tree(self.numbers))

    def pieces(self) -> list[tuple[str, int, tuple[int, ...]]]:
        """(name, size, shape) of each part, in order."""
        width = len(self.cards) + 2
        return [
            ("seat", self.players, (self.players,)),
            ("current", self.players + 2, (self.players + 2,)),
            ("zones", len(self.zones) * width, (len(self.zones), width)),
            ("numbers", len(self.numbers), (len(self.numbers),)),
        ]

    def bounds(self) -> tuple[list[float], list[float]]:
        """Each entry's lowest and highest value: 0 to 1 for the one-hots, from 0 for the
        counts of cards, and a public number anything a float32 holds (Power Level, gas and
        the like have no bound in the rules)."""
        low: list[float] = []
        high: list[float] = []
        for name, size, _ in self.pieces():
            low += [0.0 if name != "numbers" else -FLOAT32_MAX] * size
            high += [1.0 if name in ("seat", "current") else FLOAT32_MAX] * size
        return low, high

    def values(self, state: State, seat: int) -> list[float]:
        """The tensor of `state` as `seat` sees it."""
        out = [0.0] * self.size
        for index, value in self.entries(state, seat).items():
            out[index] = value
        return out

    def entries(self, state: State, seat: int) -> dict[int, float]:
        """The tensor's entries that may be other than 0, by index: a tensor is mostly
        zeros, and numpy fills the rest faster than Python."""
        return {**self.seat_entries(state, seat), **self.number_entries(state)}

    def seat_entries(self, state: State, seat: int) -> dict[int, float]:
        """The entries of the parts that depend on the seat: `seat`, `current`, `zones`."""
        n = self.players
        current = state.current_player()
        assert current in (CHANCE, TERMINAL) or current >= 0
        out = {seat: 1.0, n + (current if current >= 0 else n if current == CHANCE else n + 1): 1.0}
        base = 2 * n + 2
        width = len(self.cards) + 2
        column = self._columns
        view = state.zones_json(seat)  # type: ignore[attr-defined]  # every game has zones
        for z, zone in enumerate(self.zones):
            row = base + z * width
            pile = view.get(zone, ())
            for card in set(pile):  # few distinct cards a pile: list.count runs in C
                at = row + (width - 1 if card is None else column.get(card, width - 2))
                out[at] = out.get(at, 0.0) + pile.count(card)
        return out

    def number_entries(self, state: State) -> dict[int, float]:
        """The entries of the `numbers` part: the same for every seat."""
        out: dict[int, float] = {}
        _fill_numbers(state.public_sections(), self._tree, out, self.size - len(self.numbers))
        return out


def _fill_numbers(data: Any, tree: Tree, out: dict[int, float], base: int) -> None:
    """Write the numbers of `data` at the tree's paths into `out` from `base` (a path that
    is gone, or leads elsewhere than to a number, leaves its 0)."""
    for key, sub in tree.items():
        try:
            value = data[key]
        except (KeyError, IndexError, TypeError):
            continue
        if isinstance(sub, int):
            if value.__class__ in _NUMBERS:
                out[base + sub] = float(value)
        else:
            _fill_numbers(value, sub, out, base)


_NUMBERS = (int, float, bool)


def _number_paths(data: object, path: Path = ()) -> list[Path]:
    """Where `data` holds numbers (bools too), dicts by sorted key, lists by index; the zones
    and piles (lists of more than PILE items) are left out: the `zones` part counts their
    cards."""
    if isinstance(data, bool | int | float):
        return [path]
    found: list[Path] = []
    if isinstance(data, dict):
        for key in sorted(data):
            if not (path == () and key == "zones"):
                found += _number_paths(data[key], (*path, key))
    elif isinstance(data, list) and len(data) <= PILE:
        for i, item in enumerate(data):
            found += _number_paths(item, (*path, i))
    return found


@cache
def tensor_layout(table: Settings) -> TensorLayout:
    """The layout for a table: zones and numbers as its initial state has them, cards every
    id a deck of the game may hold."""
    state = table.new_state()
    zones = tuple(sorted(state.zones_json(None)))  # type: ignore[attr-defined]
    cards = tuple(sorted(set(state.game.card_universe())))
    numbers = tuple(_number_paths(state.public_sections()))
    return TensorLayout(table.players, zones, cards, numbers)


def view_string(state: State, seat: int) -> str:
    """What `seat` knows of `state`, as canonical JSON (its `to_json(seat)`)."""
    return json.dumps(state.to_json(seat), sort_keys=True, separators=(",", ":"))
