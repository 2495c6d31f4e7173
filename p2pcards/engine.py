"""The engine model shared by every game (OpenSpiel's vocabulary).

A `Game` makes initial `State`s. A `State` says who acts (`current_player()`:
a seat, `CHANCE` or `TERMINAL`), lists `legal_actions()`, and moves on with
`apply_action()`. Randomness is never drawn inside the engine: at a chance node
the state lists `chance_outcomes()` and whoever drives it (a local dealer, the
mental-poker dealer, a search) picks one and applies it like any action.
"""

from __future__ import annotations

import dataclasses
import random
import types
import typing
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self, TypeVar

from p2pcards.digest import Canonical, combined_digest, section_digests
from p2pcards.errors import ActionFormatError, GameOptionError, IllegalActionError

CHANCE = -1
"""`current_player()` at a chance node: the dealer picks an outcome."""

TERMINAL = -4
"""`current_player()` once the game is over."""

JSONScalar = None | bool | int | str
_FIELD_TYPES: dict[type, dict[str, tuple[type, ...]]] = {}


@dataclass(frozen=True, slots=True)
class Action:
    """A move or a chance outcome: a `kind` plus named fields, stable in JSON and msgpack."""

    kind: ClassVar[str] = ""

    def to_json(self) -> dict[str, JSONScalar]:
        """The wire form: {"kind": ..., field: value, ...}."""
        out: dict[str, JSONScalar] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            out[f.name] = getattr(self, f.name)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """Parse the wire form, checking the kind and every field's type."""
        if not isinstance(data, Mapping):
            raise ActionFormatError(f"an action must be a map, not {type(data).__name__}")
        if data.get("kind") != cls.kind:
            raise ActionFormatError(
                f"expected an action of kind {cls.kind!r}, got {data.get('kind')!r}"
            )
        allowed = _field_types(cls)
        extra = set(data) - set(allowed) - {"kind"}
        if extra:
            named = sorted(repr(k) for k in extra)  # keys off the wire need not be strings
            raise ActionFormatError(f"{cls.kind!r} action has unknown fields: {', '.join(named)}")
        values: dict[str, Any] = {}
        for name, accepted in allowed.items():
            if name not in data:
                raise ActionFormatError(f"{cls.kind!r} action is missing field {name!r}")
            value = data[name]
            # bool is an int subclass; an int field must not accept True.
            if not isinstance(value, accepted) or (
                isinstance(value, bool) and bool not in accepted
            ):
                raise ActionFormatError(
                    f"{cls.kind!r} action field {name!r} has a bad value {value!r}"
                )
            values[name] = value
        return cls(**values)

    def public(self) -> Self:
        """The form every seat is told. An action that hands a card to one seat (a push)
        blanks the card here: only that seat learns it, through the dealer."""
        return self


def _field_types(cls: type) -> dict[str, tuple[type, ...]]:
    """The runtime types each field of an action class accepts, read once from its hints."""
    cached = _FIELD_TYPES.get(cls)
    if cached is None:
        hints = typing.get_type_hints(cls)
        cached = {}
        for f in dataclasses.fields(cls):
            hint = hints[f.name]
            args = typing.get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
            cached[f.name] = tuple(type(None) if a is None else a for a in args)
        _FIELD_TYPES[cls] = cached
    return cached


@dataclass(frozen=True, slots=True)
class ChanceOutcome(Action):
    """A chance node's outcome; `hidden()` is the form for replicas that may not learn it."""

    def hidden(self) -> Self:
        """The same outcome with every identity blanked out."""
        return self


@dataclass(frozen=True, slots=True)
class ChanceMove:
    """What a chance node does with cards, in public terms, so a dealer knows what to deal.

    kind "deal": the top card of `pile` goes to seat `to`.
    kind "take": a card picked at random from seat `source`'s hand goes to seat `to`.
    kind "look" (zones games): seat `to` sees a card of `pile` near the top; it stays there.
    kind "roll" (zones games): a number every seat sees; no card (`to` is -1).
    """

    kind: str
    to: int
    source: int | None = None
    pile: str = "deck"


@dataclass(frozen=True, slots=True)
class Sighting:
    """What the dealer showed a replica before it applies an action: the card in `slot`
    (a card pushed to its seat, a hand laid open to it), which the action's public form does
    not name."""

    slot: int
    card: str


def seat_range(least: int, most: int, between: str = "–") -> str:
    """A game's seat counts as people write them: "2" (not "2 to 2"), "2 to 8" or "2–8"."""
    return str(least) if least == most else f"{least}{between}{most}"


class Game(ABC):
    """A game: its name, seat range and action vocabulary; makes initial states."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    action_types: ClassVar[tuple[type[Action], ...]]

    @abstractmethod
    def new_initial_state(self, num_players: int, **options: Any) -> State:
        """A fresh game for `num_players` seats."""

    @abstractmethod
    def physical_cards(self) -> list[str]:
        """Every physical card of the shared deck, by card id, copies repeated, in a fixed order."""

    def card_universe(self) -> list[str]:
        """Every physical card a table may deal, copies repeated, in a fixed order: the shared
        deck, or every copy an own deck may hold (each gets its own mental-poker point)."""
        return self.physical_cards()

    def check_num_players(self, num_players: int) -> None:
        """Raise GameOptionError unless the seat count is within this game's range."""
        if not self.min_players <= num_players <= self.max_players:
            seats = seat_range(self.min_players, self.max_players, " to ")
            raise GameOptionError(f"{self.name} is for {seats} seats, not {num_players}")

    def action_from_json(self, data: object) -> Action:
        """Parse any action of this game from its wire form."""
        if not isinstance(data, Mapping):
            raise ActionFormatError(f"an action must be a map, not {type(data).__name__}")
        for action_type in self.action_types:
            if action_type.kind == data.get("kind"):
                return action_type.from_json(data)
        raise ActionFormatError(f"{self.name} has no action of kind {data.get('kind')!r}")

    def __repr__(self) -> str:
        return f"<Game {self.name}>"


T = TypeVar("T")


def drawn(rng: random.Random, weighted: Sequence[tuple[T, float]]) -> T:
    """One of `weighted`'s items drawn by its probability (they sum to 1): one `rng.random()`
    (none where there is a single item), walked down in order, the same item for the same
    number wherever it is drawn."""
    if len(weighted) > 1:
        x = rng.random()
        for item, probability in weighted:
            x -= probability
            if x < 0:
                return item
    return weighted[-1][0]  # float rounding left a sliver past the last item


class State(ABC):
    """A position of a game, or a replica's view of one (`viewer` is then its seat)."""

    viewer: int | None
    """None for the complete state a local dealer drives; a seat for `observation(seat)`."""

    @property
    @abstractmethod
    def game(self) -> Game:
        """The game this state belongs to."""

    @property
    @abstractmethod
    def num_players(self) -> int:
        """How many seats the table has."""

    @abstractmethod
    def current_player(self) -> int:
        """The seat to act, or CHANCE, or TERMINAL. Follows from public information alone."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every action the current player may take, in a stable order."""

    @abstractmethod
    def verify_action(self, action: Action) -> None:
        """Raise IllegalActionError, saying why, unless `action` may be applied now."""

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Apply an action already verified."""

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a chance node, each outcome with its probability (summing to 1)."""

    def sample_outcome(self, rng: random.Random) -> Action:
        """At a chance node, one outcome drawn by its probability: one `rng.random()` (none
        where a single outcome is possible), walked down `chance_outcomes()` in order. A
        game may do the same walk without listing every outcome (the zones' draw does)."""
        return drawn(rng, self.chance_outcomes())

    @abstractmethod
    def returns(self) -> list[float]:
        """One value per seat; final once `is_terminal()`."""

    @abstractmethod
    def observation(self, seat: int) -> State:
        """A copy holding only what `seat` may know: a replica's state."""

    @abstractmethod
    def public_sections(self) -> dict[str, Canonical]:
        """The public state, by section, in canonical form (no floats, str keys)."""

    @abstractmethod
    def to_json(self, seat: int | None = None) -> dict[str, Any]:
        """What `seat` may see (everything when None), as plain JSON data."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy."""

    @abstractmethod
    def determinize(self, rng: random.Random) -> Self:
        """A complete state consistent with everything this one knows: each card it cannot
        see gets an identity drawn from the cards it has not seen (for search)."""

    @abstractmethod
    def search_key(self) -> Hashable:
        """A cheap key telling complete states apart (for transposition tables).

        Built of ints and tuples only: the search seeds its sampling with the key's hash,
        which for strings would differ from process to process.
        """

    def luck_key(self) -> Hashable:
        """At a chance node, what names this draw across the lines of play that lead to it
        (for search, which draws the same random numbers for the same key, so that two
        lines are compared on the same luck). By default the whole state: no sharing.

        Built of ints and tuples only, like `search_key`.
        """
        return self.search_key()

    @abstractmethod
    def chance_move(self) -> ChanceMove:
        """At a chance node: which pile or hand the outcome's card comes from and who gets it."""

    @abstractmethod
    def chance_viewers(self) -> frozenset[int]:
        """At a chance node, the seats entitled to learn the outcome's card."""

    @abstractmethod
    def chance_outcome_for(self, card: str | None, position: int = 0) -> Action:
        """The outcome of this chance node giving `card` (None: hidden); `position` for takes."""

    @abstractmethod
    def learn(self, sightings: Sequence[Sighting]) -> None:
        """Learn the cards the dealer showed this replica for the next action."""

    @abstractmethod
    def hand(self, seat: int) -> list[str | None]:
        """The cards of a seat's hand in order, None for each one this state does not know."""

    @abstractmethod
    def hand_slots(self, seat: int) -> list[int]:
        """The slot ids of a seat's hand, in order (public: where a slot is, not what)."""

    @abstractmethod
    def deck_slots(self) -> list[int]:
        """The slot ids of the draw deck, bottom first: a deal takes the last."""

    @abstractmethod
    def reshuffles(self) -> int:
        """How many times the discard pile has become a new deck (a dealer reshuffles then)."""

    def apply_action(self, action: Action) -> None:
        """Check an action through the one validation path, then apply it."""
        self.verify_action(action)
        self._apply(action)

    def apply_legal(self, action: Action) -> None:
        """Apply an action taken from this very state's `legal_actions()` or
        `chance_outcomes()`, without checking it again: for search, which makes only such
        moves and spends a sixth of its time re-checking them otherwise."""
        self._apply(action)

    def can_apply(self, action: Action) -> bool:
        """Whether `apply_action(action)` would succeed."""
        try:
            self.verify_action(action)
        except IllegalActionError:
            return False
        return True

    def is_chance_node(self) -> bool:
        """Whether the next step is the dealer's."""
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.current_player() == TERMINAL

    def section_digests(self) -> dict[str, str]:
        """SHA-256 of each public section, so a desync report can name the one that differs."""
        return section_digests(self.public_sections())

    def public_digest(self) -> str:
        """One hash of the whole public state, equal on every in-sync replica."""
        return combined_digest(self.section_digests())


def forfeit_returns(num_players: int, losers: Sequence[int]) -> list[float]:
    """Returns when `losers` forfeit (an agent failed, a player left a table): they get 0
    and the other seats share the win, as chess software scores a forfeit."""
    remaining = [s for s in range(num_players) if s not in losers]
    share = 1.0 / len(remaining) if remaining else 0.0
    return [share if s in remaining else 0.0 for s in range(num_players)]
