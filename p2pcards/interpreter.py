"""The one ability interpreter of the collectible games (DESIGN.md §9–§10, docs/abilities.md):
the parsed vocabulary (p2pcards/abilities.py) read for move generation, validation and
application alike, in every game.

Abilities that fire wait as `Frame`s on the state's queue (`_frames`), first in first out,
and resolve one effect at a time (`step`). An effect whose targets a seat chooses, or whose
card a seat discards or searches for, asks (`_ask`); the answer is an action of that seat
(p2pcards/answers.py), listed by `ask_actions` and checked by `verify_answer` like any other.
A random target is a roll, a draw a draw: chance steps the dealer deals. Triggers an effect
sets off join the end of the queue, so the ability being resolved finishes first. Static
abilities are read when a stat or a keyword is (`static_bonuses`): derived, never stored.

A game gives the interpreter its state, which implements `Table` (what is in play, how a stat
is read, how damage, healing, destruction and the rest land, how a cost is paid), and a
`CardBook` of per-kind tables made once. Seats are a number, never a pair: a side or a `who`
names a relation (you, each opponent, every seat), read for any number of seats. The few
effects only one game's board can carry (a lane, a level) are that game's own code
(`Table.own_effect`), named by the words it declares; nothing here knows a game.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple, Protocol, cast, get_args

from p2pcards.abilities import Ability, Condition, Cost, Effect, Selector, carried_targets
from p2pcards.answers import DECLINE, Decline, Discard, Take, Target, TargetPlayer
from p2pcards.engine import Action
from p2pcards.errors import IllegalActionError
from p2pcards.seats import seats_from
from p2pcards.slots import UNKNOWN
from p2pcards.zones import Listener, Step, ZoneState

AskKind = Literal["mulligan", "target", "lane", "order", "discard", "free", "search", "recruit"]


class Ask(NamedTuple):
    """A choice a seat must make inside an ability (or a game's own question, such as a
    mulligan), in public terms: `options` are slot ids (players as `player(seat)`), lanes, or
    a count; `optional`: the seat may decline."""

    kind: AskKind
    seat: int
    options: tuple[int, ...] = ()
    optional: bool = False


ASK_CODES = {kind: code for code, kind in enumerate(get_args(AskKind))}
"""Each ask kind's number in a search key, which holds ints and tuples only."""


def ask_key(ask: Ask | None) -> tuple[int | tuple[int, ...], ...]:
    """An ability's pending question for `State.search_key`: ints and tuples only."""
    if ask is None:
        return ()
    return (ASK_CODES[ask.kind], ask.seat, ask.options, ask.optional)


class Frame(NamedTuple):
    """An ability being resolved: whose (`source` slot of card kind `kind`, ability number
    `ability`, `controller`), which effect is next, the slot that set it off, the source's
    lane when it fired (-1: none), the targets chosen so far for the effect, whether they
    are all chosen, and how far the effect got."""

    source: int
    kind: int
    ability: int
    controller: int
    effect: int = 0
    trigger: int = -1
    lane: int = -1
    targets: tuple[int, ...] = ()
    picked: bool = False
    stage: int = 0

    # Both made outright (one call in C): `_replace`, by keywords in Python, cost several
    # times as much, at a step of nearly every effect a search resolves.
    def chosen(self, targets: tuple[int, ...], picked: bool) -> Frame:
        """This frame with these targets, all chosen if `picked`."""
        return tuple.__new__(Frame, (*self[:7], targets, picked, self[9]))

    def staged(self, stage: int) -> Frame:
        """This frame at another stage of its effect."""
        return tuple.__new__(Frame, (*self[:9], stage))


class Bonus(NamedTuple):
    """What the static abilities in force give one card: stats and keyword bits."""

    attack: int = 0
    health: int = 0
    defense: int = 0
    keywords: int = 0


NO_BONUS = Bonus()


class Modifiers(NamedTuple):
    """A game's per-slot lists of one duration's modifiers: attack, its second stat (health
    or defense), keyword bits."""

    attack: list[int]
    toughness: list[int]
    keywords: list[int]


class Facts(NamedTuple):
    """What the selectors read of a card kind: its type, tribes and classes, whether it is a
    token, its cost (a game says which of its card's fields these are)."""

    id: str
    type: str
    tribes: tuple[str, ...] = ()
    classes: tuple[str, ...] = ()
    token: bool = False
    cost: int = 0


SeatOrder = Literal["table", "controller_first"]


@dataclass(frozen=True, slots=True)
class CardBook:
    """A game's per-kind tables, made once: each kind's abilities and the indices of its
    static ones, its facts, the keyword bits, what a `what` word takes in (`entity`: a
    character or a building), the order in which a side of every seat lists its cards (the
    menu's order), and whether a card in play may lie face down."""

    abilities: tuple[tuple[Ability, ...], ...]
    facts: tuple[Facts, ...]
    keyword_bits: Mapping[str, int]
    what_types: Mapping[str, frozenset[str]]
    seat_order: SeatOrder
    hidden_in_play: bool
    statics: tuple[tuple[int, ...], ...] = ()
    granting: tuple[tuple[int, ...], ...] = ()
    """Each kind's static abilities that grant a keyword: all a keyword's read looks at."""
    kinds: Mapping[str, frozenset[int]] = dataclasses.field(default_factory=dict)
    """The kinds each `what` takes in (its type, or the types the word names)."""
    blind: tuple[bool, ...] = ()
    """Each kind's abilities reach no face-down card unless a selector says so (`face`)."""
    triggers: tuple[frozenset[str], ...] = ()
    """Each kind's triggers: a card that watches for plays is looked for at every play,
    and most cards in play watch for nothing."""

    @classmethod
    def of(
        cls,
        abilities: Sequence[tuple[Ability, ...]],
        facts: Sequence[Facts],
        keyword_bits: Mapping[str, int],
        *,
        what_types: Mapping[str, frozenset[str]] | None = None,
        seat_order: SeatOrder,
        hidden_in_play: bool,
        blind_types: frozenset[str] = frozenset(),
    ) -> CardBook:
        """The book of a card set, its static abilities indexed; the abilities of cards of
        `blind_types` do not reach face-down cards unless their selectors say so."""
        statics = tuple(
            tuple(i for i, a in enumerate(abs_) if a.trigger == "static") for abs_ in abilities
        )
        granting = tuple(
            tuple(i for i in found if any(e.do == "grant" for e in abs_[i].effects))
            for found, abs_ in zip(statics, abilities, strict=True)
        )
        widen = what_types or {}
        words = {f.type for f in facts} | set(widen)
        kinds = {
            what: frozenset(
                k for k, f in enumerate(facts) if f.type in {what, *widen.get(what, ())}
            )
            for what in words
        }
        return cls(
            tuple(abilities), tuple(facts), keyword_bits, widen, seat_order,
            hidden_in_play, statics, granting, kinds, tuple(f.type in blind_types for f in facts),
            tuple(frozenset(a.trigger for a in abs_) for abs_ in abilities),
        )  # fmt: skip

    def is_what(self, k: int, what: str) -> bool:
        """Whether card kind k is a `what` (its type, or a type the word takes in)."""
        return k in self.kinds.get(what, ())


def player(seat: int) -> int:
    """The target number of a player (slots are >= 0)."""
    return -1 - seat


class Table(Protocol):
    """What the interpreter needs of a collectible game's state (a ZoneState that keeps its
    queue of abilities and its pending question where the interpreter can reach them)."""

    _book: CardBook
    _frames: list[Frame]
    _ask: Ask | None
    _current: int
    _ident: list[int]
    _zones: list[list[int]]
    _where: list[int]
    _pools: list[list[int] | None]
    _listener: Listener | None
    _n: int  # num_players, read without a property's call where every selector reads it

    @property
    def num_players(self) -> int: ...

    def in_play(self, seat: int | None = None) -> list[tuple[int, list[int]]]:
        """Every face-up card in play whose abilities work (of one seat, if given), as
        (controller, its slots), in the order simultaneous triggers resolve."""
        ...

    def pool(self, seat: int, what: str) -> Sequence[int]:
        """A seat's cards that are a `what` (on the board; `hand_card`: its hand)."""
        ...

    def controller(self, slot: int) -> int: ...

    def face_down(self, slot: int) -> bool: ...

    def is_in_play(self, slot: int) -> bool: ...

    def stat(self, slot: int, name: str, raw: bool) -> int:
        """A card's attack, health or defense now; `raw`: without static abilities."""
        ...

    def attached_to(self, slot: int) -> int:
        """The card this one is attached to (a Pin's Guy, a weapon's holder), or -1."""
        ...

    def lane_of(self, slot: int) -> int: ...

    def lane_card(self, seat: int, lane: int) -> int: ...

    def in_mode(self, slot: int, mode: str) -> bool: ...

    def life(self, seat: int) -> int: ...

    def hand_size(self, seat: int) -> int: ...

    def zone(self, name: str) -> int:
        """The index of a zone by name: a seat's are `deck:<seat>`, `hand:<seat>`,
        `discard:<seat>` (zones.seat_zones)."""
        ...

    def hurt(self, target: int, amount: int, source: int) -> None:
        """Damage a card or a player (`player(seat)`)."""
        ...

    def heal(self, target: int, amount: int | None) -> None:
        """Heal a card or a player by `amount` (None: in full)."""
        ...

    def destroy(self, slot: int) -> None: ...

    def bounce(self, slot: int) -> None:
        """A card in play goes back to its owner's hand."""
        ...

    def modifiers(self, permanent: bool) -> Modifiers:
        """The per-slot lists an ability's modifiers and keywords go to: those that last
        while the card is in play, or this turn's."""
        ...

    def gain(self, seat: int, amount: int) -> None:
        """A seat gains the game's resource (energy, gas)."""
        ...

    def deck_out(self, seat: int) -> bool:
        """An effect would draw from an empty deck: whether the effect simply ends (else the
        game has ended)."""
        ...

    def own_effect(self, f: Frame, e: Effect) -> bool:
        """Apply a verb only this game's board carries; False while it waits."""
        ...

    def own_ask_actions(self, ask: Ask) -> list[Action]: ...

    def verify_own_answer(self, ask: Ask, action: Action) -> None: ...

    def own_answer(self, ask: Ask, action: Action) -> None: ...

    def _ask_chance(self, step: Step) -> None: ...

    @property
    def _everyone(self) -> int: ...

    def _show(self, slot: int, card: str, mask: int) -> None: ...

    def _move(self, slot: int, dest: int) -> None: ...

    def _kind(self, card: str) -> int: ...

    def _check_learnable(self, slot: int, k: int) -> None: ...

    def _shuffle(self, zone: int) -> None: ...

    def _shuffle_into(self, zone: int, deck: int) -> None: ...

    def _search(self, deck: int, dest: int, k: int | None, show: int) -> int: ...


def ability(st: Table, f: Frame) -> Ability:
    """The ability a frame resolves."""
    return st._book.abilities[f.kind][f.ability]


def resolving(st: Table) -> int:
    """The slot of the card whose ability is being resolved (-1: none): a question asked or
    a card dealt now is that ability's."""
    return st._frames[0].source if st._frames else -1


def current_effect(st: Table) -> Effect:
    """The effect being resolved (a question is asked inside one)."""
    f = st._frames[0]
    return st._book.abilities[f.kind][f.ability].effects[f.effect]


# ---------------------------------------------------------------- seats


def seats(st: Table, relation: str, controller: int) -> tuple[int, ...]:
    """The seats a relation names from `controller`'s side, in the game's order: you; each
    opponent (in turn order from your left); every seat; the seat to your left."""
    key = (st._n, st._book.seat_order, relation, controller)
    found = _SEATS.get(key)
    if found is None:
        found = _SEATS[key] = _relation(*key)
    return found


def _relation(n: int, order: SeatOrder, relation: str, controller: int) -> tuple[int, ...]:
    if relation == "you":
        return (controller,)
    around = seats_from(controller, n)
    if relation == "each_opponent":
        return around[1:]
    if relation == "left_of":
        return around[1:2]
    return around if order == "controller_first" else tuple(range(n))


_SEATS: dict[tuple[int, SeatOrder, str, int], tuple[int, ...]] = {}
"""A memo of `_relation`: it is read for every selector, and its answers never change."""


def _by_fits(st: Table, by: str | None, seat: int, controller: int) -> bool:
    return by is None or seat in seats(st, by, controller)


# ---------------------------------------------------------------- firing


def queue(st: Table, slot: int, k: int, index: int, controller: int, cause: int = -1) -> None:
    """Queue ability `index` of the card in `slot` (kind k) if its condition holds: a
    condition is read as its ability fires (docs/abilities.md, "Conditions")."""
    frame = Frame(slot, k, index, controller, trigger=cause, lane=st.lane_of(slot))
    condition = st._book.abilities[k][index].condition
    if condition is None or holds(st, condition, frame):
        st._frames.append(frame)


def fire(st: Table, slot: int, trigger: str, controller: int, cause: int = -1) -> None:
    """Queue the abilities of the card in `slot` that fire on `trigger`."""
    k = st._ident[slot]
    if trigger not in st._book.triggers[k]:  # most cards: every play fires "played"
        return
    for i, a in enumerate(st._book.abilities[k]):
        if a.trigger == trigger:
            queue(st, slot, k, i, controller, cause)


def fire_all(st: Table, trigger: str, of: Sequence[int] | None = None) -> None:
    """Queue every ability in play that fires on `trigger` (start and end of turn): of the
    seats in `of` (whose turn it is), or of every seat."""
    triggers, ident = st._book.triggers, st._ident
    for controller, slots in st.in_play():
        if of is None or controller in of:
            for slot in slots:
                if trigger in triggers[ident[slot]]:  # `fire`'s own check, without its call
                    fire(st, slot, trigger, controller)


def fire_others(st: Table, trigger: str, cause: int, seat: int) -> None:
    """Cards in play that watch for another card (played, token made) by `seat`."""
    abilities, triggers, ident = st._book.abilities, st._book.triggers, st._ident
    for controller, slots in st.in_play():
        for slot in slots:
            k = ident[slot]
            if slot == cause or trigger not in triggers[k]:
                continue
            for i, a in enumerate(abilities[k]):
                if a.trigger != trigger or not _by_fits(st, a.by, seat, controller):
                    continue
                if a.filter is not None and not card_fits(st, a.filter, cause):
                    continue
                queue(st, slot, k, i, controller, cause)


def fire_played(st: Table, slot: int, seat: int, *, enhanced: bool = False) -> None:
    """A card was played face up: its own When played (and Enhance) first, then cards that
    watch for plays."""
    fire(st, slot, "played", seat)
    if enhanced:
        fire(st, slot, "enhanced", seat)
    fire_others(st, "card_played", slot, seat)


def fire_revealed(st: Table, slot: int, seat: int) -> None:
    """A face-down card was flipped: When revealed, then When played, then cards that watch
    for plays (it is played, for them, when it is shown)."""
    fire(st, slot, "revealed", seat)
    fire_played(st, slot, seat)


def fire_vengeful(st: Table, seat: int, before: int, after: int) -> None:
    """A seat's player took damage: Vengeful X fires once when the damage this turn reaches
    X; plain Vengeful each time."""
    for controller, slots in st.in_play(seat):
        for slot in slots:
            k = st._ident[slot]
            for i, a in enumerate(st._book.abilities[k]):
                if a.trigger == "vengeful" and (a.amount is None or before < a.amount <= after):
                    queue(st, slot, k, i, controller)


class Activated(NamedTuple):
    """An activated ability a seat may use now: the card's slot and the ability's index."""

    slot: int
    ability: int


class Activating(Table, Protocol):
    """A table whose cards have activated abilities: it says what a cost needs and pays it,
    and which abilities were used this turn (one bit each)."""

    def can_pay(self, slot: int, cost: Cost) -> bool: ...

    def pay(self, slot: int, cost: Cost) -> None: ...

    def used(self, slot: int) -> int: ...

    def mark_used(self, slot: int, index: int) -> None: ...


def activations(st: Activating, seat: int) -> list[Activated]:
    """The activated abilities `seat` can use now: each once a turn, its cost payable, and
    a target for it if it targets (`has_target`)."""
    out = []
    abilities, triggers, ident = st._book.abilities, st._book.triggers, st._ident
    for _, slots in st.in_play(seat):
        for slot in slots:
            k = ident[slot]
            if "activated" not in triggers[k]:  # most cards: listed at every menu
                continue
            for i, ab in enumerate(abilities[k]):
                if (
                    ab.trigger == "activated"
                    and not st.used(slot) >> i & 1
                    and ab.cost is not None
                    and st.can_pay(slot, ab.cost)
                    and has_target(st, slot, seat, ab)
                ):
                    out.append(Activated(slot, i))
    return out


def activate(st: Activating, slot: int, index: int) -> None:
    """Pay an activated ability's cost and queue it."""
    k = st._ident[slot]
    cost = st._book.abilities[k][index].cost
    assert cost is not None
    st.pay(slot, cost)
    st.mark_used(slot, index)
    queue(st, slot, k, index, st.controller(slot))


def has_target(st: Table, source: int, seat: int, ab: Ability) -> bool:
    """Whether the first effect of `ab` that has its controller choose a target finds one
    (a "you may" need not): what a game asks of an ability that cannot be used on nothing."""
    for e in ab.effects:
        sel = e.target
        if sel is not None and sel.ref is None and sel.pick == "choose":
            if sel.optional:
                return True
            frame = Frame(source, st._ident[source], 0, seat, lane=st.lane_of(source))
            return bool(select(st, sel, frame))
    return True


# ---------------------------------------------------------------- selectors


def select(st: Table, sel: Selector, f: Frame, *, raw: bool = False) -> list[int]:
    """What a selector finds now, in a fixed order: slots, and players as `player(seat)`.
    `raw`: stat filters read stats without static abilities (a static ability's selector,
    which must not read the statics it is part of)."""
    c = f.controller
    ref = sel.ref
    if ref is not None:
        if ref == "this":
            return [f.source]
        if ref == "holder":
            host = st.attached_to(f.source)
            return [host] if host >= 0 else []
        if ref in ("you", "each_opponent", "every_seat", "left_of"):
            return [player(s) for s in seats(st, ref, c)]
        if ref == "trigger":
            return [f.trigger] if f.trigger >= 0 else []
        return []  # "same": carried by the frame, never selected
    what = sel.what
    if what == "hand_card":
        return [s for s in st.pool(c, what) if card_fits(st, sel, s)]
    sides = seats(st, sel.side, c)
    if what == "player":
        return [player(s) for s in sides]
    if _plain(sel) and not st._book.hidden_in_play:
        return [s for side in sides for s in st.pool(side, what)]
    return [s for side in sides for s in st.pool(side, what) if _fits(st, sel, s, f, raw)]


def _plain(sel: Selector) -> bool:
    """Whether a selector takes every card of its `what` on its sides (face up)."""
    return (
        sel.lane is None
        and sel.self_ is None
        and sel.face is None
        and sel.tribe is None
        and sel.cls is None
        and sel.type is None
        and sel.token is None
        and sel.cost_at_most is None
        and sel.attack_at_least is None
        and sel.health_at_least is None
    )


def reaches(st: Table, sel: Selector, f: Frame, slot: int) -> bool:
    """Whether a selector finds `slot` (of a static ability): "this" and a holder without
    building the list."""
    ref = sel.ref
    if ref == "this":
        return slot == f.source
    if ref == "holder":
        return st.attached_to(f.source) == slot
    return slot in select(st, sel, f, raw=True)


def _lane_fits(rule: str, lane: int, source_lane: int, mine: bool) -> bool:
    if rule == "any":
        return True
    if source_lane < 0:
        return rule == "other"
    if rule == "this":
        return lane == source_lane
    if rule == "opposing":
        return lane == source_lane and not mine
    if rule == "other":
        return lane != source_lane
    return abs(lane - source_lane) == 1  # adjacent


def _fits(st: Table, sel: Selector, slot: int, f: Frame, raw: bool) -> bool:
    """A card in play against a selector. A face-down card is out of reach of a blind
    card's abilities (`CardBook.blind`) unless the selector says so, and shows nothing but
    that it is there."""
    if sel.lane is not None and not _lane_fits(
        sel.lane, st.lane_of(slot), f.lane, st.controller(slot) == f.controller
    ):
        return False
    face = sel.face or ("up" if st._book.blind[f.kind] else "any")
    if sel.self_ is not None and (slot == f.source) != (sel.self_ == "only"):
        return False
    if st.face_down(slot):
        return face != "up" and (
            sel.tribe is None
            and sel.cls is None
            and sel.type is None
            and sel.token is None
            and sel.cost_at_most is None
            and sel.attack_at_least is None
            and sel.health_at_least is None
        )
    if face == "down" or not card_fits(st, sel, slot):
        return False
    if sel.attack_at_least is not None and st.stat(slot, "attack", raw) < sel.attack_at_least:
        return False
    return sel.health_at_least is None or st.stat(slot, "health", raw) >= sel.health_at_least


def card_fits(st: Table, sel: Selector, slot: int) -> bool:
    """The card's printed identity against a selector's card filters (tribe, class, type,
    token, cost)."""
    k = st._ident[slot]
    if k == UNKNOWN:
        return False
    card = st._book.facts[k]
    if sel.tribe is not None and sel.tribe not in card.tribes:
        return False
    if sel.cls is not None and sel.cls not in card.classes:
        return False
    if sel.type is not None and sel.type != card.type:
        return False
    if sel.token is not None and sel.token != card.token:
        return False
    return sel.cost_at_most is None or card.cost <= sel.cost_at_most


def holds(st: Table, cond: Condition, f: Frame, *, static: bool = False) -> bool:
    """Whether every key of a condition holds now (a static ability's reads stats without
    the statics, so that no stat depends on itself)."""
    c = f.controller
    if cond.unopposed is not None or cond.opposed is not None:
        lane = st.lane_of(f.source)
        opposed = lane >= 0 and any(
            st.lane_card(s, lane) >= 0 for s in seats(st, "each_opponent", c)
        )
        if (cond.unopposed and opposed) or (cond.opposed and not opposed):
            return False
    if cond.count is not None:
        n = len(select(st, cond.count, f, raw=True))
        if cond.at_least is not None and n < cond.at_least:
            return False
        if cond.at_most is not None and n > cond.at_most:
            return False
    if cond.life_at_most is not None and st.life(c) > cond.life_at_most:
        return False
    if cond.hand_at_most is not None and st.hand_size(c) > cond.hand_at_most:
        return False
    if cond.mode is not None and not st.in_mode(f.source, cond.mode):
        return False
    if cond.holder_tribe is None and cond.holder_attack_at_least is None:
        return True
    holder = st.attached_to(f.source)
    if holder < 0:
        return False
    if (
        cond.holder_tribe is not None
        and cond.holder_tribe not in st._book.facts[st._ident[holder]].tribes
    ):
        return False
    return cond.holder_attack_at_least is None or (
        st.stat(holder, "attack", static) >= cond.holder_attack_at_least
    )


# ---------------------------------------------------------------- statics


def _plus(bonus: Bonus, e: Effect, bits: Mapping[str, int]) -> Bonus:
    attack, health, defense, keywords = bonus
    if e.do == "grant":
        return _BONUS((attack, health, defense, keywords | bits[e.keyword or ""]))
    return _BONUS(
        (attack + (e.attack or 0), health + (e.health or 0), defense + (e.defense or 0), keywords)
    )


_BONUS = functools.partial(tuple.__new__, Bonus)
"""Bonus made in one call in C: its class's own `__new__` (and `_replace`) are calls in
Python, and a search adds up the static abilities at nearly every leaf."""


Sources = Sequence[tuple[int, Sequence[int]]]
"""Cards in play by controller, in `Table.in_play`'s order (at least those with a static
ability: the rest give nothing)."""


def _static_effects(
    st: Table, only: int | None, *, granting: bool = False, sources: Sources | None = None
) -> Iterator[tuple[int, Effect]]:
    """(a card reached, the effect reaching it) for every static effect in force; with
    `only`, just those reaching that card; `granting`: of the abilities that grant a keyword
    only; `sources`: the cards in play with statics, if the game has them at hand. Whom an
    effect reaches is read before the condition: it is the cheaper of the two, and most
    reads find nothing reaching."""
    book = st._book
    statics = book.granting if granting else book.statics
    abilities, ident = book.abilities, st._ident
    for controller, cards in st.in_play() if sources is None else sources:
        for source in cards:
            k = ident[source]
            found = statics[k]
            if not found:
                continue
            frame: Frame | None = None  # made when needed (selectors and conditions read
            for i in found:  # its source, controller and lane, not its ability)
                a = abilities[k][i]
                reached: list[tuple[int, Effect]] = []
                for e in a.effects:
                    sel = e.target
                    if sel is None:
                        continue
                    ref = sel.ref
                    if ref == "this" or ref == "holder":  # most statics: no selector to run
                        t = source if ref == "this" else st.attached_to(source)
                        if t >= 0 and (only is None or only == t):
                            reached.append((t, e))
                        continue
                    if frame is None:
                        frame = Frame(source, k, i, controller, lane=st.lane_of(source))
                    if only is None:
                        reached += [(t, e) for t in select(st, sel, frame, raw=True) if t >= 0]
                    elif reaches(st, sel, frame, only):
                        reached.append((only, e))
                if not reached:
                    continue
                if a.condition is not None:
                    if frame is None:
                        frame = Frame(source, k, i, controller, lane=st.lane_of(source))
                    if not holds(st, a.condition, frame, static=True):
                        continue
                yield from reached


def static_bonuses(st: Table, sources: Sources | None = None) -> dict[int, Bonus]:
    """What every static ability in force gives, by slot (cards nothing reaches left out),
    read in one pass over the statics rather than one per card; `sources` as
    `_static_effects` takes them."""
    bits = st._book.keyword_bits
    out: dict[int, Bonus] = {}
    for slot, e in _static_effects(st, None, sources=sources):
        out[slot] = _plus(out.get(slot, NO_BONUS), e, bits)
    return out


def static_bonus(st: Table, slot: int) -> Bonus:
    """What the static abilities in force give one card."""
    bits = st._book.keyword_bits
    bonus = NO_BONUS
    for _, e in _static_effects(st, slot):
        bonus = _plus(bonus, e, bits)
    return bonus


def static_keywords(st: Table, slot: int) -> int:
    """The keyword bits the static abilities in force grant one card."""
    bits = st._book.keyword_bits
    out = 0
    for _, e in _static_effects(st, slot, granting=True):
        if e.do == "grant":
            out |= bits[e.keyword or ""]
    return out


# ---------------------------------------------------------------- resolving


def step(st: Table) -> None:
    """Resolve the first queued ability by one effect, or until it must ask or deal."""
    f = st._frames[0]
    a = st._book.abilities[f.kind][f.ability]
    if f.effect >= len(a.effects):
        st._frames.pop(0)
        return
    e = a.effects[f.effect]
    # A play_free's selector filters the hand, which only its owner sees: it is asked as the
    # plays themselves (the game's own effect), never as targets.
    if e.target is not None and not f.picked and e.do != "play_free":
        picked = _pick(st, f, e.target)
        if picked is None:
            return
        f = st._frames[0] = picked
    told = st._listener
    if told is not None:  # what happened before this effect is told apart from it
        told(cast(ZoneState, st), "", -1)
    applied = _apply(st, f, e)
    if told is not None and applied:
        told(cast(ZoneState, st), "effect", f.source)
    if applied and st._frames:
        f = st._frames[0]  # the effect may have moved on a stage: its targets are the same
        carried = carried_targets(a, f.effect + 1, f.targets)
        # The next effect's frame made outright: `_replace` (in Python, by keywords) cost
        # several times as much, once for every effect a search resolves.
        source, kind, ability, controller, effect, trigger, lane = f[:7]
        st._frames[0] = Frame(
            source, kind, ability, controller, effect + 1, trigger, lane,
            carried or (), carried is not None, 0,
        )  # fmt: skip


def _ask(st: Table, ask: Ask) -> None:
    st._ask = ask
    st._current = ask.seat


def _pick(st: Table, f: Frame, sel: Selector) -> Frame | None:
    """The effect's targets, once chosen: None while a seat chooses or chance picks. A
    choice with no candidate chooses nothing; with no more candidates than it needs, and not
    optional, it takes them all without asking."""
    found = select(st, sel, f)
    if sel.ref is not None or sel.pick == "all":
        return f.chosen(tuple(found), True)
    left = [t for t in found if t not in f.targets]
    need = sel.count - len(f.targets)
    if need <= 0 or not left:
        return f.chosen(f.targets, True)
    if sel.pick == "random":
        st._ask_chance(Step("roll", sides=len(left)))
        return None
    if len(left) <= need and not sel.optional:
        return f.chosen(f.targets + tuple(left), True)
    _ask(st, Ask("target", f.controller, tuple(left), sel.optional))
    return None


def after_chance(st: Table, step_: Step, value: int) -> None:
    """Go on with the ability that asked the dealer: a random target rolled, or one more
    card drawn or discarded at random."""
    f = st._frames[0]
    if step_.kind == "roll":
        sel = current_effect(st).target
        assert sel is not None
        left = [t for t in select(st, sel, f) if t not in f.targets]
        st._frames[0] = f.chosen((*f.targets, left[value]), f.picked)
        return
    st._frames[0] = f.staged(f.stage + 1)


def _deck(st: Table, seat: int) -> int:
    return st.zone(f"deck:{seat}")


def _hand(st: Table, seat: int) -> int:
    return st.zone(f"hand:{seat}")


def _discard_pile(st: Table, seat: int) -> int:
    return st.zone(f"discard:{seat}")


def _amount(value: int | str | None) -> int:
    return value if isinstance(value, int) else 0


def _apply(st: Table, f: Frame, e: Effect) -> bool:
    """Apply an effect to its targets; False while it waits for a seat or the dealer."""
    do = e.do
    verb = _VERBS.get(do)
    if verb is None:
        return st.own_effect(f, e)
    return verb(st, f, e)


def _on_cards(do: Callable[[Table, int, Effect], None]) -> Callable[[Table, Frame, Effect], bool]:
    """A verb that lands on each target card still in play (one that left since it was
    chosen is spared)."""

    def apply(st: Table, f: Frame, e: Effect) -> bool:
        for t in f.targets:
            if t >= 0 and st.is_in_play(t):
                do(st, t, e)
        return True

    return apply


def _damage(st: Table, f: Frame, e: Effect) -> bool:
    for t in f.targets:
        if t < 0 or st.is_in_play(t):
            st.hurt(t, _amount(e.amount), f.source)
    return True


def _heal(st: Table, f: Frame, e: Effect) -> bool:
    amount = None if e.amount == "full" else _amount(e.amount)
    for t in f.targets:
        if t < 0 or st.is_in_play(t):
            st.heal(t, amount)
    return True


def _modify(st: Table, t: int, e: Effect) -> None:
    lists = st.modifiers(e.duration == "permanent")
    lists.attack[t] += e.attack or 0
    lists.toughness[t] += (e.health or 0) + (e.defense or 0)  # a game has one of the two


def _grant(st: Table, t: int, e: Effect) -> None:
    st.modifiers(e.duration == "permanent").keywords[t] |= st._book.keyword_bits[e.keyword or ""]


def _draw(st: Table, f: Frame, e: Effect) -> bool:
    """Draw one card a stage: `draw`, `amount` cards for each seat `who` names, in turn;
    `draw_to`, until your hand holds `amount`. An empty deck is the game's to judge (an
    effect that may go on skips that seat's draws)."""
    amount = _amount(e.amount)
    if e.do == "draw_to":
        if st.hand_size(f.controller) >= amount:
            return True
        return _draw_one(st, f.controller)
    drawing = seats(st, e.who or "you", f.controller)
    while f.stage < amount * len(drawing):
        seat = drawing[f.stage // amount]
        if st._zones[_deck(st, seat)]:
            return _draw_one(st, seat)
        if not st.deck_out(seat):
            return False
        f = st._frames[0] = f.staged((f.stage // amount + 1) * amount)
    return True


def _draw_one(st: Table, seat: int) -> bool:
    deck = _deck(st, seat)
    if not st._zones[deck]:
        return st.deck_out(seat)
    st._ask_chance(Step("draw", deck, _hand(st, seat), 1 << seat))
    return False


def _discard(st: Table, f: Frame, e: Effect) -> bool:
    """Discard one card a stage, `amount` for each seat `who` names, in turn: chosen by the
    hand's owner, or picked at random (an empty hand skips that seat's discards)."""
    amount = _amount(e.amount)
    discarding = seats(st, e.who or "you", f.controller)
    while f.stage < amount * len(discarding):
        seat = discarding[f.stage // amount]
        hand = st._zones[_hand(st, seat)]
        if not hand:
            f = st._frames[0] = f.staged((f.stage // amount + 1) * amount)
            continue
        if e.how == "random":
            step_ = Step("pick", _hand(st, seat), _discard_pile(st, seat), st._everyone)
            st._ask_chance(step_)
        else:
            _ask(st, Ask("discard", seat, tuple(hand)))
        return False
    return True


def _energy(st: Table, f: Frame, e: Effect) -> bool:
    st.gain(f.controller, _amount(e.amount))
    return True


def _search(st: Table, f: Frame, e: Effect) -> bool:
    """The searching seat takes a matching card of its deck (shown to all), or finds none."""
    if f.stage:
        return True
    _ask(st, Ask("search", f.controller))
    return False


def _recycle(st: Table, f: Frame, e: Effect) -> bool:
    st._shuffle_into(_discard_pile(st, f.controller), _deck(st, f.controller))
    return True


_VERBS: dict[str, Callable[[Table, Frame, Effect], bool]] = {
    "damage": _damage,
    "heal": _heal,
    "destroy": _on_cards(lambda st, t, e: st.destroy(t)),
    "return": _on_cards(lambda st, t, e: st.bounce(t)),
    "modify": _on_cards(_modify),
    "grant": _on_cards(_grant),
    "draw": _draw,
    "draw_to": _draw,
    "discard": _discard,
    "energy": _energy,
    "search": _search,
    "recycle": _recycle,
}
"""The verbs every game's board carries, written once; the others are a game's own."""
CORE_VERBS = frozenset(_VERBS)


def matches(st: Table, e: Effect, k: int) -> bool:
    """Whether card kind k is what a search looks for."""
    book = st._book
    if e.card is not None:
        return book.facts[k].id == e.card
    if e.what is not None and not book.is_what(k, e.what):
        return False
    return e.tribe is None or e.tribe in book.facts[k].tribes


# ---------------------------------------------------------------- answers


def ask_actions(st: Table, ask: Ask) -> list[Action]:
    """The actions that answer a question inside an ability."""
    if ask.kind == "target":
        out: list[Action] = [Target(o) if o >= 0 else TargetPlayer(player(o)) for o in ask.options]
        return [*out, DECLINE] if ask.optional else out
    if ask.kind == "discard":
        facts = st._book.facts
        return [Discard(s, facts[st._ident[s]].id) for s in ask.options]
    if ask.kind == "search":
        e = current_effect(st)
        pool = st._pools[ask.seat] or []
        facts = st._book.facts
        found: list[Action] = [
            Take(facts[k].id) for k, n in enumerate(pool) if n and matches(st, e, k)
        ]
        return found or [Take(None)]
    return st.own_ask_actions(ask)


def verify_answer(st: Table, ask: Ask, action: Action) -> None:
    """The one check of an answer: listed, or, for a replica that cannot see the cards it
    names, the part it can check (the card itself is learnt from the action)."""
    if ask.kind == "discard":
        if not isinstance(action, Discard):
            raise IllegalActionError("a card of the hand must be discarded")
        if action.slot not in ask.options:
            raise IllegalActionError(f"slot {action.slot} is not in the hand")
        st._check_learnable(action.slot, st._kind(action.card))
        return
    if ask.kind == "search":
        if not isinstance(action, Take):
            raise IllegalActionError("the search must take a card, or find none")
        if st._pools[ask.seat] is not None and action not in ask_actions(st, ask):
            raise IllegalActionError(f"{action} is not a card this search may take")
        if action.card is not None and not matches(st, current_effect(st), st._kind(action.card)):
            raise IllegalActionError(f"{action.card} is not what this search looks for")
        if action.card is not None and not st._zones[_deck(st, ask.seat)]:
            raise IllegalActionError("the deck is empty")
        return
    if ask.kind == "target":
        if action not in ask_actions(st, ask):
            raise IllegalActionError(f"{action} is not a target this ability allows")
        return
    st.verify_own_answer(ask, action)


def answer(st: Table, ask: Ask, action: Action) -> None:
    """Apply an answer to the ability being resolved."""
    f = st._frames[0]
    if ask.kind == "target":
        if isinstance(action, Decline):
            st._frames[0] = f.chosen(f.targets, True)
        else:
            assert isinstance(action, Target | TargetPlayer)
            chosen = action.slot if isinstance(action, Target) else player(action.seat)
            st._frames[0] = f.chosen((*f.targets, chosen), f.picked)
    elif ask.kind == "discard":
        assert isinstance(action, Discard)
        st._show(action.slot, action.card, st._everyone)
        st._move(action.slot, _discard_pile(st, ask.seat))
        st._frames[0] = f.staged(f.stage + 1)
    elif ask.kind == "search":
        assert isinstance(action, Take)
        deck = _deck(st, ask.seat)
        if action.card is None:
            st._shuffle(deck)
        else:
            st._search(deck, _hand(st, ask.seat), st._kind(action.card), st._everyone)
        st._frames[0] = f.staged(f.stage + 1)
    else:
        st.own_answer(ask, action)
