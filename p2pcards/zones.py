"""Cards in zones: the hidden-card bookkeeping of games whose cards live in many places and
whose seats may bring their own decks (DESIGN.md §9).

A state built on `ZoneState` keeps its cards as slots, plain lists of ints as `SlotState`
does, so `clone()` stays a handful of list copies:

- `_layout` names the zones (`Zone`: a name, an owner seat or None, and who sees its cards
  by default) and `_zones[z]` lists the slots in zone z in order (a deck bottom first: a
  draw takes the last);
- `_ident[slot]` is the card kind or UNKNOWN, `_known[slot]` the bit mask of seats that know
  it. A zone's visibility is only the mask a card gets on arriving there: a face-down card on
  the board, a card its owner put on the bottom of its deck, or cards a seat looked at are
  ordinary slots whose masks differ from their zone's default. Masks change only by public
  events, so they are the same on every replica and may be hashed;
- `_home[slot]` is the pool a card counts in (the seat whose deck it came from, or 0 for a
  shared deck; -1 for a token, whose identity is public from birth), and `_pools[p][kind]`
  counts the copies of each kind in pool p this state has not seen. A replica never holds
  another seat's own decklist: that pool is None, and only `determinize` fills it, from a
  `DeckModel`;
- `_chance` is the pending chance step, if any;
- a game's per-card state (damage, modifiers, tapped, the Guy a Pin is on...) is more lists by
  slot, its columns, declared once in a `SlotColumns` table (`slot_columns`): clone, growth
  for a token, the reset of a card leaving play, the end of a turn, the digest and the search
  key are all made from that table, so no column can be forgotten in one of them.

Slot ids are positions, not identities. Every movement keeps the same slot ids on every
replica: a shuffle forgets identities and keeps the slots in place, a private reorder
permutes identities among slots (only where they are known), and a search takes the top
slot of the freshly shuffled deck. So an action may name a slot, and every replica finds the
same one.

Movements are the few operations of DESIGN.md §9, each saying in public terms who learns
what: draw (`Step("draw")`), look at a deck's card (`Step("look")`), random pick from a
zone (`Step("pick")`), a number by chance (`Step("roll")`); and `_move` (play face up or
face down, flip, put on the bottom: the mask says who learns), `_reorder_top`, `_search`,
`_shuffle`, `_make_token`. The mental dealer implements exactly these and knows no rule.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from operator import attrgetter, is_, itemgetter
from typing import Any, ClassVar, Literal, NamedTuple, Protocol, Self, TypeGuard

from p2pcards.digest import Encoded, canonical_bytes
from p2pcards.engine import (
    CHANCE,
    TERMINAL,
    Action,
    ChanceMove,
    ChanceOutcome,
    Game,
    Sighting,
    State,
    drawn,
)
from p2pcards.errors import HiddenInformationError, IllegalActionError
from p2pcards.seats import everyone

UNKNOWN = -1
"""`_ident[slot]` of a card this state does not know."""


class CardKind(Protocol):
    """What the card model reads of a game's card type."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...


Visibility = Literal["nobody", "owner", "everyone"]
StepKind = Literal["draw", "look", "pick", "roll"]


@dataclass(frozen=True, slots=True)
class Zone:
    """A place cards can be: its name, its owner seat (None: the table's), and who sees a
    card arriving there."""

    name: str
    owner: int | None
    visibility: Visibility


class Step(NamedTuple):
    """A pending chance step, in public terms.

    draw: the top card of zone `source` goes on top of zone `dest`;
    look: the card `depth` places under the top of `source` is shown, not moved;
    pick: a card of `source` picked at random goes on top of `dest`;
    roll: a number in 0..sides-1, public (a coin flip, a random target among public ones).
    `viewers` is the mask of seats that learn the card.
    """

    kind: StepKind
    source: int = -1
    dest: int = -1
    viewers: int = 0
    depth: int = 0
    sides: int = 0


@dataclass(frozen=True, slots=True)
class Deal(ChanceOutcome):
    """A draw's or a look's outcome: the card (None where this state may not learn it)."""

    kind = "deal"
    card: str | None

    def hidden(self) -> Deal:
        return _HIDDEN_DEAL

    def __str__(self) -> str:
        return f"deal {self.card or 'a hidden card'}"


@dataclass(frozen=True, slots=True)
class Pick(ChanceOutcome):
    """A random pick's outcome: the position picked in the zone, and the card if known."""

    kind = "pick"
    position: int
    card: str | None

    def hidden(self) -> Pick:
        return Pick(self.position, None)

    def __str__(self) -> str:
        return f"pick card {self.position}" + (f" ({self.card})" if self.card else "")


@dataclass(frozen=True, slots=True)
class Roll(ChanceOutcome):
    """A roll's outcome: a number every seat sees."""

    kind = "roll"
    value: int

    def __str__(self) -> str:
        return f"roll {self.value}"


_HIDDEN_DEAL = Deal(None)
CHANCE_TYPES: tuple[type[Action], ...] = (Deal, Pick, Roll)


class OwnDeck(NamedTuple):
    """A seat's own deck at the start: its zone, its owner, its cards if known."""

    zone: str
    owner: int
    cards: list[str] | None


class Reorder(NamedTuple):
    """Cards put back in a new order: `slots[i]` (top first) now holds the card that was in
    `slots[order[i]]`; `order` is None where this state was not told it (another seat's)."""

    slots: tuple[int, ...]
    order: tuple[int, ...] | None


class Shuffled(NamedTuple):
    """A zone shuffled (a deck, or cards shuffled into one): its `slots` hold its cards in an
    order nobody knows."""

    zone: str
    slots: tuple[int, ...]


class Searched(NamedTuple):
    """A zone searched by its owner, who took the card now in slot `taken`; the rest of it,
    in `slots`, shuffled."""

    zone: str
    taken: int
    slots: tuple[int, ...]


Movement = Reorder | Shuffled | Searched
"""What the mental dealer must do more than reveal cards: re-mask, re-deal, take."""


class Shown(NamedTuple):
    """A card an action shows (`ZoneState.laid_open`, `shown_since`): the seats that know
    the card in `slot` (a mask, every one of them, not only the new) and the card as the
    state knew it then (None if it did not)."""

    slot: int
    knowers: int
    card: str | None


class DeckModel(Protocol):
    """What `determinize` knows of decklists it has not seen: given the cards of one seat's
    deck seen so far (kind counts), a whole decklist that fits them (kind counts)."""

    def decklist(self, seat: int, seen: Sequence[int], rng: random.Random) -> list[int]: ...


class SlotColumn(NamedTuple):
    """One per-card field of a zones game: the state's attribute holding it (a list by
    slot), the value of a card that has none, and where it counts."""

    name: str
    default: int
    this_turn: bool = False
    """Cleared for every card at the end of each turn (`_end_turn_columns`)."""
    public: bool = True
    """Every replica holds it alike: the digest hashes it for the cards in play."""
    unkeyed_because: str | None = None
    """Why the search key leaves it out (None: the key holds it). Only a column that
    cannot tell apart two positions that play on differently may be left out."""
    copy_on_write: bool = False
    """Shared with a clone until one of them changes it: for a column few steps change
    (modifiers), whose copy at every clone of a search cost more than a copy at the rare
    change. The game changes it in place only through `ZoneState._claim` (the columns'
    own growth, reset and turn's end claim it themselves)."""


class SlotColumns:
    """A zones game's per-card columns (`SlotColumn`), with the views of them that clone,
    growth, reset, digest and search key read, worked out once."""

    __slots__ = (
        "columns", "copy", "defaults", "get_all", "get_keyed", "get_public", "keyed_defaults",
        "names", "shared", "turn", "turn_shared",
    )  # fmt: skip

    def __init__(self, *columns: SlotColumn) -> None:
        self.columns = columns
        self.names = tuple(c.name for c in columns)
        # Each copy-on-write column's bit in a state's `_claimed`.
        self.shared = {c.name: 1 << i for i, c in enumerate(c for c in columns if c.copy_on_write)}
        self.copy = _copier(
            tuple(c.name for c in columns if not c.copy_on_write), tuple(self.shared)
        )
        self.defaults = tuple(c.default for c in columns)
        self.turn = tuple((c.name, c.default) for c in columns if c.this_turn)
        self.turn_shared = sum(self.shared.get(name, 0) for name, _ in self.turn)
        # attrgetter reads every column in one call: clone and search key run at each node.
        self.get_all = _getter(self.names)
        self.get_public = _getter(tuple(c.name for c in columns if c.public))
        self.get_keyed = _getter(tuple(c.name for c in columns if c.unkeyed_because is None))
        self.keyed_defaults = tuple(c.default for c in columns if c.unkeyed_because is None)


def _copier(
    names: tuple[str, ...], shared: tuple[str, ...] = ()
) -> Callable[[object, object], None]:
    """A function giving a clone its own copy of each named column of a state, and the
    `shared` columns themselves (copy on write: neither state owns them any more).

    Its source is made here and compiled once, as `dataclasses` makes an `__init__`: clone
    runs at every node of a search, and a loop of `setattr` calls over the columns made
    Rise of the Guys' clone about a fifth slower than these plain assignments."""
    for name in names + shared:
        if not name.isidentifier():
            raise ValueError(f"a column's name must be an identifier, not {name!r}")
    body = "".join(f"    other.{name} = state.{name}[:]\n" for name in names)
    body += "".join(f"    other.{name} = state.{name}\n" for name in shared)
    if shared:
        body += "    state._claimed = other._claimed = 0\n"
    body = body or "    pass\n"
    scope: dict[str, Callable[[object, object], None]] = {}
    exec(f"def copy(state, other):\n{body}", scope)
    return scope["copy"]


def _getter(names: tuple[str, ...]) -> Callable[[object], tuple[list[int], ...]]:
    """A function giving the named attributes of a state, as a tuple."""
    if len(names) > 1:
        return attrgetter(*names)  # one call in C for them all
    if names:
        one = attrgetter(names[0])
        return lambda state: (one(state),)
    return lambda state: ()


NO_COLUMNS = SlotColumns()


class DigestPart(NamedTuple):
    """The digest rows of one zone (`ZoneState.zones_public`, `slot_rows`), kept while what
    they are made of stays the same: a step moves a card or two, and encoding every zone at
    every step was a third of the CPU of a 4-seat table of RPG Get!."""

    key: Hashable
    """What the rows are made of (`_key_of`)."""
    rows: list[Any]
    encoded: bytes
    """The rows' canonical encoding, without the brackets of a list around them."""


class DigestParts:
    """Each zone's digest rows (`DigestPart`), the newest two: a table reads one state
    after another, where the newest would do, but two states read in turn (a state and its
    child, as OpenSpiel's checks read them) would remake every zone that differs between
    them at every read."""

    __slots__ = ("_newest", "_older")

    def __init__(self) -> None:
        self._newest: dict[int, DigestPart] = {}
        self._older: dict[int, DigestPart] = {}

    def get(self, at: int, key: Hashable) -> DigestPart | None:
        """The part kept at `at` made of `key`, if one is."""
        part = self._newest.get(at)
        if part is not None and part.key == key:
            return part
        older = self._older.get(at)
        if older is None or older.key != key:
            return None
        assert part is not None  # an older part was the newest once
        self._older[at], self._newest[at] = part, older
        return older

    def put(self, at: int, key: Hashable, rows: list[Any]) -> DigestPart:
        """Encode `rows` made of `key` and keep them at `at` as the newest, the part they
        replace as the older."""
        part = DigestPart(key, rows, canonical_bytes(rows)[1:-1])
        replaced = self._newest.get(at)
        if replaced is not None:
            self._older[at] = replaced
        self._newest[at] = part
        return part


def _key_of(pile: list[int], columns: Sequence[list[int]]) -> Hashable:
    """A zone's slots and each column's values for them, read in C (`itemgetter`)."""
    if not pile:
        return ()
    get = itemgetter(*pile)
    return (tuple(pile), *map(get, columns))


class PickOutcome(Protocol):
    """What a random pick's outcome tells: the position picked in the zone, and the card
    (None where this state may not learn it)."""

    @property
    def position(self) -> int: ...

    @property
    def card(self) -> str | None: ...


class ZoneRules:
    """Static tables of a zones game, derived once from its card kinds."""

    def __init__(
        self,
        game: Game,
        cards: Sequence[CardKind],
        deck_model: DeckModel | None,
        pick: Callable[[int, str | None], ChanceOutcome] = Pick,
    ) -> None:
        """`pick`: the game's random-pick outcome, made from (position, card): `Pick`, or a
        kind of its own (rpg-battle's and GETGEM's `Take`, whose wire form is older than the
        zones and whose draft already says "pick")."""
        self.game = game
        self.card_ids = [c.id for c in cards]
        self.card_names = [c.name for c in cards]
        self.card_index = {c.id: i for i, c in enumerate(cards)}
        self.kinds = range(len(cards))
        self.deals: list[ChanceOutcome] = [Deal(c.id) for c in cards]  # a game may use its own
        self.picked = pick
        self.pick_type = type(pick(0, None))
        self.deck_model = deck_model

    def is_pick(self, action: Action) -> TypeGuard[PickOutcome]:
        """Whether `action` is this game's random-pick outcome."""
        return isinstance(action, self.pick_type)


def own_decks(
    decks: Sequence[Sequence[int] | None], size: int
) -> list[tuple[str, Sequence[int] | int]]:
    """Each seat's own deck as ZoneState takes it: zone `deck:<seat>` with its card counts,
    or only its `size` where this state may not know it (another seat's, at a table)."""
    return [(f"deck:{seat}", size if deck is None else deck) for seat, deck in enumerate(decks)]


def seat_zones(num_players: int, kinds: Sequence[tuple[str, Visibility]]) -> list[Zone]:
    """Every seat's own zones, seat by seat: `<kind>:<seat>` for each (kind, visibility) in
    `kinds`, owned by that seat. Zone `kinds[i]` of seat s is then at s * len(kinds) + i."""
    return [
        Zone(f"{kind}:{seat}", seat, visibility)
        for seat in range(num_players)
        for kind, visibility in kinds
    ]


Listener = Callable[["ZoneState", str, int], None]
"""Told of the public moments inside one step (`ZoneState.listen`): the state as it stands, a
label and a number (docs/abilities.md, "What the log is told")."""


class ZoneState(State):
    """A state whose cards are slots in zones (see the module docstring)."""

    __slots__ = (
        "_chance", "_claimed", "_current", "_deck_zones", "_digest_parts", "_generation",
        "_home", "_ident", "_journal", "_known", "_layout", "_listener", "_menu", "_n",
        "_owns_pools", "_pools", "_private", "_rules", "_shown_on_arrival", "_where",
        "_whole_key", "_zone_index", "_zones", "viewer",
    )  # fmt: skip

    slot_columns: ClassVar[SlotColumns] = NO_COLUMNS
    """The game's per-card columns; each is an attribute of the state (in its `__slots__`)."""

    share_pools: ClassVar[bool] = False
    """Whether a clone shares `_pools` until it or the state cloned learns or forgets a card
    (`_writable_pools`): a search's step seldom does (a draw), and copying them was a part
    of every clone. Only for a game that keeps no other name for a pool."""

    play_zones: ClassVar[tuple[int, ...]] = ()
    """The zones whose cards' columns the digest hashes (`slot_rows`): the cards in play."""

    _rules: ZoneRules

    def __init__(
        self,
        rules: ZoneRules,
        num_players: int,
        layout: Sequence[Zone],
        decks: Sequence[tuple[str, Sequence[int] | int]],
        *,
        private_decks: bool,
    ) -> None:
        """`decks`: each deck zone's name with its composition (copies of each kind), pool
        i for the i-th deck, or only its size where this state may not know it (another
        seat's own deck, at a table); `private_decks`: whether a replica of another seat may
        not know a deck's composition (own decks), or every seat knows it (one shared deck)."""
        self._rules = rules
        self._n = num_players
        self.viewer: int | None = None
        self._listener: Listener | None = None
        self._layout = tuple(layout)
        self._zone_index = {zone.name: i for i, zone in enumerate(self._layout)}
        # The seats a card arriving in each zone is shown to (`_place`), worked out once.
        self._shown_on_arrival = tuple(
            everyone(num_players)
            if zone.visibility == "everyone"
            else 1 << zone.owner
            if zone.visibility == "owner" and zone.owner is not None
            else 0
            for zone in self._layout
        )
        self._zones: list[list[int]] = [[] for _ in self._layout]
        self._ident: list[int] = []
        self._known: list[int] = []
        self._home: list[int] = []
        self._where: list[int] = []
        self._pools: list[list[int] | None] = []
        self._owns_pools = True
        self._private = private_decks
        self._generation = [0] * len(self._layout)
        self._chance: Step | None = None
        self._current = 0
        self._journal: list[Movement | Shown] | None = None
        self._menu: tuple[Action, ...] = ()
        self._digest_parts = DigestParts()
        self._deck_zones = tuple(self.zone(name) for name, _ in decks)
        self._whole_key = False  # `_cards_key`'s columns in full (for `luck_key`)
        for pool, (name, composition) in enumerate(decks):
            z = self.zone(name)
            if isinstance(composition, int):
                self._pools.append(None)
                size = composition
            else:
                self._pools.append(list(composition))
                size = sum(composition)
            # In bulk, as `_add_slot` would one by one: a playout makes a state per game.
            start = len(self._ident)
            self._ident += [UNKNOWN] * size
            self._known += [0] * size
            self._home += [pool] * size
            self._where += [z] * size
            self._zones[z] += range(start, start + size)
        for name, default in zip(self.slot_columns.names, self.slot_columns.defaults, strict=True):
            setattr(self, name, [default] * len(self._ident))
        self._claimed = -1  # every copy-on-write column its own (every bit set)

    def _add_slot(self, kind: int, known: int, home: int, zone: int) -> int:
        slot = len(self._ident)
        self._ident.append(kind)
        self._known.append(known)
        self._home = [*self._home, home]  # a new list: clones share it (`_clone_zones`)
        self._where.append(zone)
        self._zones[zone].append(slot)
        return slot

    # ----------------------------------------------------------------- queries

    @property
    def game(self) -> Game:
        return self._rules.game

    @property
    def num_players(self) -> int:
        return self._n

    def current_player(self) -> int:
        return self._current

    # Both read `_current` directly: a playout asks them at every step.
    def is_chance_node(self) -> bool:
        return self._current == CHANCE

    def is_terminal(self) -> bool:
        return self._current == TERMINAL

    def listen(self, listener: Listener | None) -> None:
        """Be told the public moments inside each step applied from now on (an ability's
        effect before and after it lands, a lane's combat): a log tells a step in the order
        it happened from them. Copies are not told."""
        self._listener = listener

    def zone(self, name: str) -> int:
        """The index of the zone called `name`."""
        try:
            return self._zone_index[name]
        except KeyError:
            raise IllegalActionError(f"there is no zone called {name!r}") from None

    def zone_slots(self, name: str) -> list[int]:
        """The slots of a zone, in order (bottom first for a deck)."""
        return list(self._zones[self.zone(name)])

    def zone_cards(self, name: str) -> list[str | None]:
        """The cards of a zone in order, None for each one this state does not know."""
        return [self.card_at(s) for s in self._zones[self.zone(name)]]

    def zone_of(self, slot: int) -> str:
        """The name of the zone a slot is in."""
        return self._layout[self._where[slot]].name

    def card_at(self, slot: int) -> str | None:
        """The card in a slot, or None if this state does not know it."""
        k = self._ident[slot]
        return None if k == UNKNOWN else self._rules.card_ids[k]

    def known_to(self, slot: int) -> int:
        """The bit mask of seats that know a slot's card (public)."""
        return self._known[slot]

    def is_public(self, slot: int) -> bool:
        """Whether every seat knows the slot's card (a face-up card)."""
        return self._known[slot] == self._everyone

    @property
    def _everyone(self) -> int:
        return everyone(self._n)

    def hand(self, seat: int) -> list[str | None]:
        return self.zone_cards(f"hand:{seat}")

    def hand_size(self, seat: int) -> int:
        """How many cards a seat holds (public)."""
        return len(self._zones[self.zone(f"hand:{seat}")])

    def hand_slots(self, seat: int) -> list[int]:
        return self.zone_slots(f"hand:{seat}")

    def deck_slots(self) -> list[int]:
        """The shared deck's slots; a game of own decks has none (`zone_slots("deck:N")`)."""
        z = self._zone_index.get("deck")
        return [] if z is None else list(self._zones[z])

    def reshuffles(self) -> int:
        """How many times any zone was shuffled."""
        return sum(self._generation)

    def unseen_cards(self) -> dict[str, int]:
        """Copies of each card this state has not seen, over the pools it knows."""
        ids = self._rules.card_ids
        total: Counter[str] = Counter()
        for pool in self._pools:
            if pool is not None:
                total.update({ids[k]: n for k, n in enumerate(pool) if n})
        return dict(total)

    def own_decks(self) -> list[OwnDeck]:
        """Each seat's own deck as the game starts (none for a shared deck): its zone, its
        owner, and its decklist if this state may know it (the owner's, or the complete
        state's)."""
        if not self._private:
            return []
        ids = self._rules.card_ids
        out = []
        for pool, z in enumerate(self._deck_zones):
            owner = self._layout[z].owner
            assert owner is not None, "an own deck belongs to a seat"
            counts = self._pools[pool]
            cards = (
                None if counts is None else [ids[k] for k, n in enumerate(counts) for _ in range(n)]
            )
            out.append(OwnDeck(self._layout[z].name, owner, cards))
        return out

    def chance_step(self) -> tuple[Step, list[int]]:
        """The pending chance step and the slots of its source zone, in order (none for a
        roll): what the mental dealer needs to deal it."""
        step = self._step()
        return step, ([] if step.kind == "roll" else list(self._zones[step.source]))

    def record_movements(self) -> None:
        """Start keeping the reorders, shuffles and searches applied from now on
        (`movements`): the mental dealer, which must re-mask or re-deal the cards they move,
        asks on a clone."""
        self._journal = []

    def movements(self) -> list[Movement]:
        """The movements applied since `record_movements`, in order."""
        return [entry for entry in self._journal or [] if not isinstance(entry, Shown)]

    def laid_open(self) -> list[Shown]:
        """The cards the rules laid open (`_widen`) since `record_movements`, each slot once
        (every seat that learned it, its kind as last known), by slot: the mental dealer
        reveals them before the action is applied for good, so the rules read them (a hand
        shown for a victory check), even where the same action hides them again."""
        merged: dict[int, Shown] = {}
        for entry in self._journal or []:
            if isinstance(entry, Shown):
                was = merged.get(entry.slot)
                if was is not None:
                    card = was.card if entry.card is None else entry.card
                    entry = Shown(entry.slot, entry.knowers | was.knowers, card)
                merged[entry.slot] = entry
        return [merged[slot] for slot in sorted(merged)]

    def shown_since(self, before: ZoneState) -> list[Shown]:
        """The cards this state, `before` with an action applied since `record_movements`,
        shows to seats that did not know them: each slot laid open on the way (`laid_open`)
        or whose knowers are wider now, once, by slot, with its knowers and kind."""
        shown = {entry.slot: entry for entry in self.laid_open()}
        old, known = before._known, self._known
        for slot, was in enumerate(old):
            if known[slot] & ~was:
                entry = shown.get(slot)
                card = self.card_at(slot)
                if entry is not None:
                    card = entry.card if card is None else card
                    shown[slot] = Shown(slot, known[slot] | entry.knowers, card)
                else:
                    shown[slot] = Shown(slot, known[slot], card)
        return [shown[slot] for slot in sorted(shown) if shown[slot].knowers & ~old[slot]]

    def zone_owner(self, name: str) -> int | None:
        """The seat a zone belongs to (None: the table's)."""
        return self._layout[self.zone(name)].owner

    def slot_count(self) -> int:
        """How many card slots there are (tokens made add slots)."""
        return len(self._ident)

    def home(self, slot: int) -> int:
        """The deck a card came from (its owner seat in a game of own decks, 0 for a shared
        deck), or -1 for a token: public, as a card's back is."""
        return self._home[slot]

    def deck_composition(self, home: int) -> dict[str, int] | None:
        """Copies of each card of deck `home`, wherever they are now (the cards this state
        knows plus those it has not seen); None where this state may not know the list."""
        pool = self._pools[home]
        if pool is None:
            return None
        ids = self._rules.card_ids
        total = Counter({ids[k]: n for k, n in enumerate(pool) if n})
        total.update(
            ids[k] for s, k in enumerate(self._ident) if k != UNKNOWN and self._home[s] == home
        )
        return dict(total)

    def slots(self) -> Iterator[tuple[int, str, str | None, int]]:
        """Every card slot as (slot id, zone name, card or None, bit mask of seats that know it)."""
        for zone, pile in zip(self._layout, self._zones, strict=True):
            for s in pile:
                yield s, zone.name, self.card_at(s), self._known[s]

    def _kind(self, card: str) -> int:
        k = self._rules.card_index.get(card)
        if k is None:
            raise IllegalActionError(f"there is no card called {card!r}")
        return k

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < self._n:
            raise IllegalActionError(f"no seat {seat} at a table of {self._n}")

    def _check_slot(self, slot: int) -> None:
        if not 0 <= slot < len(self._ident):
            raise IllegalActionError(f"there is no card slot {slot}")

    def _kind_at(self, slot: int) -> int:
        """The kind in a slot; HiddenInformationError if this state does not know it."""
        k = self._ident[slot]
        if k == UNKNOWN:
            raise HiddenInformationError(
                f"slot {slot} ({self.zone_of(slot)}) is hidden from this state "
                f"(viewer {self.viewer})"
            )
        return k

    def zones_public(self) -> Encoded:
        """Every zone as [slot, card if every seat knows it, mask], for digests: what every
        replica holds alike. Its rows are shared with later calls: read them, never change
        them."""
        ids, ident, known, everyone = self._rules.card_ids, self._ident, self._known, self._everyone
        parts: list[DigestPart] = []
        for z, pile in enumerate(self._zones):
            key = _key_of(pile, (known, ident))
            part = self._digest_parts.get(z, key)
            if part is None:
                rows: list[list[int | str | None]] = [
                    [s, ids[ident[s]] if known[s] == everyone else None, known[s]] for s in pile
                ]
                part = self._digest_parts.put(z, key, rows)
            parts.append(part)
        zones = b"],[".join(p.encoded for p in parts)
        return Encoded([p.rows for p in parts], b"[[" + zones + b"]]" if parts else b"[]")

    def to_json(self, seat: int | None = None) -> dict[str, Any]:
        """The public sections, and every zone's cards as `seat` may know them ("cards")."""
        if seat is not None:
            self._check_seat(seat)
        return {**self.public_sections(), "cards": self.zones_json(seat)}

    def zones_json(self, seat: int | None) -> dict[str, list[str | None]]:
        """Every zone's cards as `seat` may know them (everything when None)."""
        ids, ident, known = self._rules.card_ids, self._ident, self._known
        out: dict[str, list[str | None]] = {}
        for zone, pile in zip(self._layout, self._zones, strict=True):
            out[zone.name] = [
                ids[ident[s]]
                if ident[s] != UNKNOWN and (seat is None or known[s] >> seat & 1)
                else None
                for s in pile
            ]
        return out

    # ------------------------------------------------------------ chance nodes

    def _ask_chance(self, step: Step) -> None:
        """Make the next step the dealer's."""
        self._chance = step
        self._current = CHANCE

    @abstractmethod
    def _after_chance(self, step: Step, slot: int, value: int) -> None:
        """Go on after a chance step: `slot` is the card drawn, looked at or picked (-1 for a
        roll), `value` the roll (or the position picked). The game sets `_current`."""

    def _step(self) -> Step:
        step = self._chance
        if step is None or self._current != CHANCE:
            raise IllegalActionError("not a chance node")
        return step

    def _entitled(self, step: Step) -> bool:
        viewer = self.viewer
        return viewer is None or bool(step.viewers >> viewer & 1)

    def chance_move(self) -> ChanceMove:
        """Draws ("deal") and looks come from the top of a zone; a pick ("take") from anywhere
        in it, to the owner of the zone it goes to where that zone is the owner's alone (a
        hand), else to the first seat it is shown to; a roll touches no card."""
        step = self._step()
        to = _first_seat(step.viewers)
        if step.kind == "pick":
            dest = self._layout[step.dest]
            if dest.visibility == "owner" and dest.owner is not None:
                to = dest.owner
            return ChanceMove("take", to, source=self._layout[step.source].owner)
        if step.kind == "roll":
            return ChanceMove("roll", -1)
        kind = "deal" if step.kind == "draw" else "look"  # a look shows the card, moves nothing
        return ChanceMove(kind, to, pile=self._layout[step.source].name)

    def chance_viewers(self) -> frozenset[int]:
        """At a chance node, the seats entitled to learn the outcome's card."""
        if self._current != CHANCE or self._chance is None:
            return frozenset()
        mask = self._chance.viewers
        return frozenset(s for s in range(self._n) if mask >> s & 1)

    def chance_outcome_for(self, card: str | None, position: int = 0) -> Action:
        """Deal(card), the game's pick outcome (position, card) or Roll(position), whichever
        this node is."""
        step = self._step()
        if step.kind == "roll":
            return Roll(position)
        if step.kind == "pick":
            return self._rules.picked(position, card)
        return _HIDDEN_DEAL if card is None else self._rules.deals[self._kind(card)]

    def luck_key(self) -> Hashable:
        """A draw is its deck's next card: named by the deck, its shuffles and its size."""
        step = self._chance
        if self._current == CHANCE and step is not None and step.kind in ("draw", "look"):
            z = step.source
            return (0, z, self._generation[z], len(self._zones[z]) - step.depth)
        self._whole_key = True  # the key's shape from before `_cards_key` left columns out
        try:
            return self.search_key()
        finally:
            self._whole_key = False

    # The chance steps below are on the path of every card a playout deals, in every game:
    # each unpacks its step at once (a NamedTuple's fields, read one by one, take the slow
    # attribute path) and reads its pile once.

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        step = self._chance
        if step is None or self._current != CHANCE:
            raise IllegalActionError("not a chance node")
        kind, source, _, viewers, depth, sides = step
        viewer = self.viewer
        entitled = viewer is None or viewers >> viewer & 1
        if kind == "draw" or kind == "look":
            if not entitled:
                return [(_HIDDEN_DEAL, 1.0)]
            slot = self._zones[source][-1 - depth]
            k = self._ident[slot]
            deals = self._rules.deals
            if k != UNKNOWN:
                return [(deals[k], 1.0)]
            pool, total, kinds = self._unseen(slot)
            return [(deals[k], pool[k] / total) for k in kinds]
        if kind == "roll":
            share = 1.0 / sides
            return [(Roll(i), share) for i in range(sides)]
        chances = self._pick_chances(self._zones[source], bool(entitled))
        return [(self._pick_outcome(*picked), p) for picked, p in chances]

    def _pick_chances(self, pile: list[int], entitled: bool) -> list[tuple[tuple[int, int], float]]:
        """A random pick's outcomes from `pile`, each (position, kind) with its probability,
        in `chance_outcomes` order: the kind as known here (UNKNOWN where this state may not
        learn it), a card this state has not seen but may learn spread over its pool's
        unseen copies."""
        share = 1.0 / len(pile)
        ident = self._ident
        chances: list[tuple[tuple[int, int], float]] = []
        for i, slot in enumerate(pile):
            k = ident[slot]
            # An onlooker that knows the card is told it (`_verify_outcome`).
            if k != UNKNOWN or not entitled:
                chances.append(((i, k), share))
            else:
                pool, total, kinds = self._unseen(slot)
                chances.extend(((i, j), share * (pool[j] / total)) for j in kinds)
        return chances

    def _pick_outcome(self, position: int, k: int) -> Action:
        """The game's pick outcome of the card of kind k (None where UNKNOWN) at `position`."""
        return self._rules.picked(position, None if k == UNKNOWN else self._rules.card_ids[k])

    def sample_outcome(self, rng: random.Random) -> Action:
        """As `State.sample_outcome`, the same outcome for the same number; a draw of a card
        this state has not seen walks its pool without listing the outcomes first (a random
        playout deals a card at every other step or so). The outcome is this state's menu
        until a step is applied, so that applying it is not checked again (`verify_action`)."""
        outcome = self._sample(rng)
        self._menu = (outcome,)
        return outcome

    def _sample(self, rng: random.Random) -> Action:
        step = self._chance
        if step is None or self._current != CHANCE:
            return super().sample_outcome(rng)  # not a chance node: it says so
        kind, source, _, viewers, _, _ = step
        viewer = self.viewer
        entitled = viewer is None or bool(viewers >> viewer & 1)
        if kind == "pick":  # only the outcome drawn is made (they are dataclasses)
            return self._pick_outcome(
                *drawn(rng, self._pick_chances(self._zones[source], entitled))
            )
        if kind != "draw":
            return super().sample_outcome(rng)
        slot = self._zones[source][-1]
        if self._ident[slot] != UNKNOWN or not entitled:
            return super().sample_outcome(rng)
        pool, total, kinds = self._unseen(slot)
        present = list(kinds)
        deals = self._rules.deals
        if len(present) > 1:
            x = rng.random()
            for k in present:
                x -= pool[k] / total  # the probability `chance_outcomes` lists
                if x < 0:
                    return deals[k]
        return deals[present[-1]]

    def _unseen(self, slot: int) -> tuple[list[int], int, Iterator[int]]:
        """The pool an unknown slot's card comes from, its unseen copies in all, and the kinds
        it still holds, ascending. `compress` finds those in C: a draw of RPG Get!, whose
        pools span 148 kinds and hold a few dozen, spent most of its time on a Python scan
        of the empty ones."""
        pool = self._pools[self._home[slot]]
        if pool is None:
            raise HiddenInformationError(
                f"this state does not know the deck slot {slot} comes from (viewer {self.viewer})"
            )
        return pool, sum(pool), compress(self._rules.kinds, pool)

    def _verify_outcome(self, action: Action) -> None:
        step = self._chance
        if step is None or self._current != CHANCE:
            raise IllegalActionError("not a chance node")
        kind, source, _, _, depth, sides = step
        if kind == "roll":
            if not isinstance(action, Roll) or not 0 <= action.value < sides:
                raise IllegalActionError(f"the chance node needs a roll below {sides}")
            return
        pile = self._zones[source]
        if kind == "pick":
            if not self._rules.is_pick(action):
                raise IllegalActionError(f"the chance node needs a random pick, not {action}")
            position = action.position
            if not 0 <= position < len(pile):
                raise IllegalActionError(f"the zone has no card {position}")
            slot = pile[position]
        else:
            if not isinstance(action, Deal):
                raise IllegalActionError(f"the chance node needs a deal, not {action}")
            if depth >= len(pile):
                raise IllegalActionError("the deck has no card there")
            slot = pile[-1 - depth]
        card = action.card
        if card is None:
            if self._entitled(step):
                raise IllegalActionError("this state must be told which card it is")
            return
        k = self._kind(card)
        # An onlooker that already knows the very card (it once held or took it) is told
        # nothing new.
        if self._ident[slot] != k and not self._entitled(step):
            raise IllegalActionError(f"seat {self.viewer} may not learn this card")
        self._check_learnable(slot, k)

    def _check_learnable(self, slot: int, k: int) -> None:
        known = self._ident[slot]
        if known != UNKNOWN:
            if known != k:
                raise IllegalActionError(f"slot {slot} is not {self._rules.card_ids[k]}")
            return
        pool = self._pools[self._home[slot]]
        if pool is not None and pool[k] <= 0:
            raise IllegalActionError(f"{self._rules.card_ids[k]} cannot be there")

    def _apply_outcome(self, action: Action) -> None:
        """Apply a verified chance outcome: move or show the card, then let the game go on."""
        step = self._chance
        assert step is not None, "verified: a chance node"
        self._chance = None
        kind, source, dest, viewers, depth, _ = step
        if kind == "roll":
            assert isinstance(action, Roll)
            self._after_chance(step, -1, action.value)
            return
        pile = self._zones[source]
        if kind == "pick":
            assert self._rules.is_pick(action)
            position = index = action.position
        else:
            assert isinstance(action, Deal)
            position = 0
            index = len(pile) - 1 - depth
        slot = pile[index]
        card = action.card
        if card is not None:
            self._note(slot, self._rules.card_index[card])  # verified: `_learn` less its check
        self._known[slot] |= viewers
        if kind != "look":
            # Taken out where the step says it is, not by `_move`'s search of its zone: a
            # deck's top card is its list's last, and a shared deck's state keeps no `_where`.
            del pile[index]
            self._place(slot, dest)
        self._after_chance(step, slot, position)

    # ------------------------------------------------------------ movements

    def _learn(self, slot: int, k: int) -> None:
        """This state now knows that `slot` holds kind k (an action or the dealer told it)."""
        self._check_learnable(slot, k)
        self._note(slot, k)

    def _note(self, slot: int, k: int) -> None:
        """`_learn` once checked: the slot's kind is k here, and its pool has one unseen copy
        fewer if it was unknown."""
        if self._ident[slot] == UNKNOWN:
            self._ident[slot] = k
            home = self._home[slot]
            pool = self._writable_pools()[home] if home >= 0 else None
            if pool is not None:
                pool[k] -= 1

    def _move(
        self, slot: int, dest: int, *, bottom: bool = False, show: int = 0, face_down: bool = False
    ) -> None:
        """Move a slot to zone `dest` (on top, or at the bottom); the seats in `show` and, unless
        it goes `face_down`, those the zone shows its cards to learn it."""
        self._zones[self._where[slot]].remove(slot)
        self._place(slot, dest, bottom=bottom, show=show, face_down=face_down)

    def _place(
        self, slot: int, dest: int, *, bottom: bool = False, show: int = 0, face_down: bool = False
    ) -> None:
        """Put a slot just taken out of its zone into zone `dest`, as `_move` does."""
        if bottom:
            self._zones[dest].insert(0, slot)
        else:
            self._zones[dest].append(slot)
        self._where[slot] = dest
        if not face_down:
            show |= self._shown_on_arrival[dest]
        self._known[slot] |= show

    def _widen(self, slot: int, mask: int) -> None:
        """The seats in `mask` learn the card in `slot` now, as the rules lay it open (a card
        played face up, a hand shown): journaled (`laid_open`), so that the dealer reveals it
        even where the same action hides it again (a discard pile gathered into a deck)."""
        known = self._known[slot] | mask
        self._known[slot] = known
        if self._journal is not None:
            self._journal.append(Shown(slot, known, self.card_at(slot)))

    def _show(self, slot: int, card: str, mask: int) -> None:
        """An action named the card in `slot` to the seats in `mask` (a card played or
        revealed): learn it, or refuse if it cannot be that card."""
        self._learn(slot, self._kind(card))
        self._known[slot] |= mask

    def _forget(self, slot: int) -> None:
        """Nobody knows this card any more (shuffled into a deck)."""
        k = self._ident[slot]
        if k != UNKNOWN:
            home = self._home[slot]
            pool = self._writable_pools()[home] if home >= 0 else None
            if pool is not None:
                pool[k] += 1
            self._ident[slot] = UNKNOWN
        self._known[slot] = 0

    def _shuffle(self, zone: int, *, searched: bool = False) -> None:
        """Shuffle a zone: every card in it becomes unknown to everyone, in place."""
        for slot in self._zones[zone]:
            self._forget(slot)
        self._generation[zone] += 1
        if self._journal is not None and not searched:
            self._journal.append(Shuffled(self._layout[zone].name, tuple(self._zones[zone])))

    def _shuffle_into(self, zone: int, deck: int) -> None:
        """Put every card of `zone` into `deck` and shuffle the deck."""
        for slot in list(self._zones[zone]):
            self._move(slot, deck)
        self._shuffle(deck)

    def _reorder_top(self, zone: int, n: int, order: Sequence[int] | None) -> None:
        """Put the top n cards of `zone` back in a new order: the card now i-th from the top
        is the one that was order[i]-th. The slots stay; identities and masks move with the
        cards. A state told no order (None) changes nothing: it knew none of them, and every
        mask among them is the same."""
        pile = self._zones[zone]
        top = [pile[-1 - i] for i in range(n)]
        if self._journal is not None:
            self._journal.append(Reorder(tuple(top), None if order is None else tuple(order)))
        if order is None:
            return
        idents = [self._ident[top[j]] for j in order]
        masks = [self._known[top[j]] for j in order]
        for slot, k, mask in zip(top, idents, masks, strict=True):
            self._ident[slot] = k
            self._known[slot] = mask

    def _search(self, deck: int, dest: int, k: int | None, show: int) -> int:
        """Take a card of kind k (None: hidden from this state) from `deck` into `dest`, then
        shuffle the deck: the deck is shuffled first and its top slot taken, the same slot on
        every replica. The seats in `show` learn it."""
        self._shuffle(deck, searched=True)
        slot = self._zones[deck][-1]
        if k is not None:
            self._learn(slot, k)
        self._move(slot, dest, show=show)
        if self._journal is not None:
            name = self._layout[deck].name
            self._journal.append(Searched(name, slot, tuple(self._zones[deck])))
        return slot

    def _make_token(self, k: int, dest: int) -> int:
        """A new card with a public identity (a token), on top of zone `dest`."""
        slot = self._add_slot(k, self._everyone, -1, dest)
        self._grow()
        return slot

    # ------------------------------------------------------------ per-card columns

    def _claim(self, name: str) -> list[int]:
        """A copy-on-write column (`SlotColumn.copy_on_write`) this state may change in
        place: copied first while a clone may share it."""
        bit = self.slot_columns.shared[name]
        values: list[int] = getattr(self, name)
        if not self._claimed & bit:
            values = values[:]
            setattr(self, name, values)
            self._claimed |= bit
        return values

    def _grow(self) -> None:
        """Every per-card column covers every slot (tokens add slots): new ones get the
        column's default."""
        n = len(self._ident)
        columns = self.slot_columns
        for name in columns.shared:
            self._claim(name)
        for values, default in zip(columns.get_all(self), columns.defaults, strict=True):
            values.extend([default] * (n - len(values)))

    def _reset_slot(self, slot: int) -> None:
        """A card left play: every per-card column of it is back to its default."""
        columns = self.slot_columns
        shared = columns.shared
        for name, values, default in zip(
            columns.names, columns.get_all(self), columns.defaults, strict=True
        ):
            if values[slot] != default:
                (self._claim(name) if name in shared else values)[slot] = default

    def _end_turn_columns(self) -> None:
        """This turn's per-card state ends for every card (the columns marked `this_turn`):
        new lists, this state's own."""
        n = len(self._ident)
        columns = self.slot_columns
        for name, default in columns.turn:
            setattr(self, name, [default] * n)
        if columns.turn_shared:
            self._claimed |= columns.turn_shared

    def slot_rows(self, zones: Sequence[int] | None = None) -> Encoded:
        """The public per-card columns of every card in play (`zones`, by default
        `play_zones`; a game whose layout grows with the seats passes its own), a row per
        card headed by its slot, for digests. Its rows are shared with later calls, as
        `zones_public`'s are."""
        columns = self.slot_columns.get_public(self)
        rows: list[list[int]] = []
        encoded: list[bytes] = []
        for z in self.play_zones if zones is None else zones:
            pile = self._zones[z]
            if not pile:
                continue
            key = _key_of(pile, columns)
            part = self._digest_parts.get(-1 - z, key)  # the zones' rows are at z
            if part is None:
                made = [[s, *[int(values[s]) for values in columns]] for s in pile]
                part = self._digest_parts.put(-1 - z, key, made)
            rows += part.rows
            encoded.append(part.encoded)
        return Encoded(rows, b"[" + b",".join(encoded) + b"]")

    def _cards_key(self) -> tuple[Hashable, ...]:
        """The cards for a search key: identities, zones, who knows what (a face-down card
        differs from a face-up one only there), and every per-card column not left out
        (`SlotColumn.unkeyed_because`), as `()` while every card holds its default: most
        columns do most of the time, and hashing the key is a good part of a search node.
        In a luck key (`luck_key`) every column is in full, as it was before, so that a
        seeded search draws the same luck and makes the same moves."""
        columns = self.slot_columns
        keyed = columns.get_keyed(self)
        if self._whole_key:
            values: Iterable[Hashable] = map(tuple, keyed)
        else:
            values = [
                () if column.count(default) == len(column) else tuple(column)
                for column, default in zip(keyed, columns.keyed_defaults, strict=True)
            ]
        return (tuple(self._ident), tuple(map(tuple, self._zones)), tuple(self._known), *values)

    # ------------------------------------------------------------ the dealer

    def learn(self, sightings: Sequence[Sighting]) -> None:
        """Learn the cards the dealer showed this replica: a card pushed to its seat, a hand
        laid open to it (the action's public form does not name them)."""
        self._menu = ()
        for sight in sightings:
            self._check_slot(sight.slot)
            self._learn(sight.slot, self._kind(sight.card))

    # ------------------------------------------------------- copies and views

    def _clone_zones(self) -> Self:
        """A new state of this class sharing the rules, with copies of the cards, the
        knowledge and the pending chance step (the game copies the rest)."""
        cls = type(self)
        other = cls.__new__(cls)
        other._rules = self._rules
        other._n = self._n
        other.viewer = self.viewer
        other._listener = None  # a copy (a search's, an observation) is nobody's to tell
        other._layout = self._layout
        other._zone_index = self._zone_index
        other._shown_on_arrival = self._shown_on_arrival
        other._zones = list(map(list.copy, self._zones))  # a third faster than a comprehension
        other._ident = self._ident[:]
        other._known = self._known[:]
        other._home = self._home  # only ever replaced (`_add_slot`), never changed in place
        other._where = self._where[:]
        pools = self._pools
        if self.share_pools:
            other._pools = pools
            self._owns_pools = other._owns_pools = False
        else:
            other._pools = self._copied_pools()
            other._owns_pools = True
        other._private = self._private
        other._generation = self._generation[:]
        other._chance = self._chance
        other._current = self._current
        other._deck_zones = self._deck_zones
        other._journal = None
        other._menu = ()
        other._whole_key = False
        # Shared: a part is kept with what it was made of, so it serves any state it fits
        # (the copy an agent is given digests its position as the replica did).
        other._digest_parts = self._digest_parts
        self.slot_columns.copy(self, other)
        return other

    def observation(self, seat: int) -> Self:
        self._check_seat(seat)
        if self.viewer is not None and self.viewer != seat:
            raise HiddenInformationError(
                f"a replica of seat {self.viewer} cannot see as seat {seat}"
            )
        view = self.clone()
        view.viewer = seat
        for slot, k in enumerate(view._ident):
            if k != UNKNOWN and not view._known[slot] >> seat & 1:
                view._forget_identity(slot)
        if self._private:
            pools = view._writable_pools()
            for pool in range(len(pools)):
                if pool != seat:
                    pools[pool] = None
        return view

    def _copied_pools(self) -> list[list[int] | None]:
        """A copy of every pool (in C where every pool is known: a search's worlds)."""
        pools = self._pools
        if None not in pools:
            return list(map(list.copy, pools))  # type: ignore[arg-type]  # no pool is None
        return [None if pool is None else pool[:] for pool in pools]

    def _writable_pools(self) -> list[list[int] | None]:
        """The pools, to change in place: copied first while a clone may share them
        (`share_pools`)."""
        if not self._owns_pools:
            self._pools = self._copied_pools()
            self._owns_pools = True
        return self._pools

    def _forget_identity(self, slot: int) -> None:
        """This state stops knowing the slot's identity; who knows it stays as it was."""
        home = self._home[slot]
        pool = self._writable_pools()[home] if home >= 0 else None
        if pool is not None:
            pool[self._ident[slot]] += 1
        self._ident[slot] = UNKNOWN

    def may_hold(self, slot: int, k: int) -> bool:
        """Whether the rules allow a hidden slot to hold kind k (a face-down card must be a
        Sneaky Guy): `determinize` fills slots only with what fits."""
        return True

    def knowing(self, cards: Mapping[int, str]) -> Self:
        """A copy that also knows the cards of these slots (for search: an earlier position
        read in the light of a determinized later one, whose slots hold the same cards);
        IllegalActionError if a card cannot be in its slot here."""
        other = self.clone()
        for slot, card in cards.items():
            other._check_slot(slot)
            other._learn(slot, other._kind(card))
        return other

    def determinize(self, rng: random.Random) -> Self:
        """A complete state consistent with this one: another seat's decklist drawn from the
        game's deck model, then every card someone knows but this state does not gets an
        identity from the unseen cards (by their counts, without replacement); cards nobody
        knows (a deck) stay a pool, as in any complete state."""
        full = self.clone()
        full.viewer = None
        ident, home = full._ident, full._home
        pools = full._writable_pools()
        for p, pool in enumerate(pools):
            if pool is None:
                pools[p] = full._modelled_pool(p, rng)
        kinds = range(len(self._rules.card_ids))
        for slot, k in enumerate(ident):
            if k != UNKNOWN or not full._known[slot] or home[slot] < 0:
                continue
            pool = full._pools[home[slot]]
            assert pool is not None
            weights = [n if n and full.may_hold(slot, j) else 0 for j, n in enumerate(pool)]
            if not any(weights):
                weights = pool  # the model could not honour every rule: keep the count right
            j = rng.choices(kinds, weights=weights)[0]
            ident[slot] = j
            pool[j] -= 1
        return full

    def _modelled_pool(self, p: int, rng: random.Random) -> list[int]:
        """Pool p as a deck model fills it: a decklist fitting the cards seen, less them."""
        model = self._rules.deck_model
        if model is None:
            raise HiddenInformationError(f"{self.game.name} has no deck model to guess a deck")
        seen = [0] * len(self._rules.card_ids)
        slots = 0
        for slot, k in enumerate(self._ident):
            if self._home[slot] == p:
                slots += 1
                if k != UNKNOWN:
                    seen[k] += 1
        decklist = model.decklist(p, seen, rng)
        pool = [max(0, n - s) for n, s in zip(decklist, seen, strict=True)]
        # The model's list must cover exactly the slots not seen; trim or pad if it did not.
        missing = slots - sum(seen) - sum(pool)
        while missing < 0:
            j = rng.choices(range(len(pool)), weights=pool)[0]
            pool[j] -= 1
            missing += 1
        if missing > 0:
            pool[max(range(len(pool)), key=lambda j: decklist[j])] += missing
        return pool

    # ------------------------------------------------------------ the action path

    def legal_actions(self) -> list[Action]:
        cur = self._current
        if cur == TERMINAL:
            return []
        if cur == CHANCE:
            actions = [outcome for outcome, _ in self.chance_outcomes()]
        else:
            actions = self._decisions(cur)
        self._menu = tuple(actions)
        return actions

    @abstractmethod
    def _decisions(self, cur: int) -> list[Action]:
        """The legal actions of the seat `cur`, whose decision it is."""

    def verify_action(self, action: Action) -> None:
        cur = self._current
        if cur == TERMINAL:
            raise IllegalActionError("the game is over")
        # An action of the very menu this state listed, or the outcome it sampled, unchanged
        # since: legal as it was made (the usual path of an agent, a local dealer and a
        # playout, whose checking cost a fifth of rpg-battle's random playout; the menu is a
        # tuple, so a caller cannot add to it). Compared by identity in C: a Python loop
        # cost a menu's length in steps.
        if any(map(is_, self._menu, repeat(action))):
            return
        if cur == CHANCE:
            self._verify_outcome(action)
        else:
            self._verify_decision(cur, action)

    def apply_action(self, action: Action) -> None:
        self.verify_action(action)
        self._menu = ()
        self._apply(action)

    def apply_legal(self, action: Action) -> None:
        self._menu = ()
        self._apply(action)

    @abstractmethod
    def _verify_decision(self, cur: int, action: Action) -> None:
        """Raise IllegalActionError, saying why, unless seat `cur` may take `action` now."""


def _first_seat(mask: int) -> int:
    """The lowest seat in a mask (-1 if none): who a card goes to."""
    return (mask & -mask).bit_length() - 1
