"""Cards as slots of one shared deck (DESIGN.md §3), on the zones model (§9).

A game whose cards are one shared deck builds its state on `SlotState`: a `ZoneState`
(p2pcards/zones.py) whose zones are the deck, the discard pile and the hands (and the
game's own places, GETGEM's laid cards), its one pool the shared deck's, public to every
seat. It keeps the chance steps of a shared deck (a deal from the deck, a take from a
hand) in its queue, each dealt as the zones deal every game's (`_ask_draw`, `_ask_take`: a
zones `Step`), and the names its games use for the zones' lists:

- the physical cards are slots 0..N-1 that live in exactly one of `_deck` (bottom first: a
  deal takes the last), `_discard` (oldest first, face up), a hand `_hands[seat]`, or a
  place of the game's own (GETGEM's laid cards);
- `_ident[slot]` is the card kind or UNKNOWN, `_known[slot]` the bit mask of seats that know
  it;
- `_pool[kind]` counts the copies of each kind whose slot this state does not know: the deck
  in a complete state, plus other seats' hidden cards in a replica. Deal and Take outcomes
  are weighted by it;
- `_queue` holds the pending steps, first the one being resolved, each a named tuple: the two
  chance steps are `DrawStep` and `TakeStep`, the game adds its own. At the head of the
  queue, a chance step becomes the zones' pending `Step` (`_ask_draw`, `_ask_take`), and the
  game's `_after_chance` moves the queue on once the card is dealt.

An action that uses cards of a hand names their slots, as a zones game's do: `_slot_order`
gives the slots a menu names (the copies the most seats already know, which reveal the
least), `_verify_uses` checks an action's, `_learn_used` learns the cards it names. The game
keeps its own rules: which steps it queues, what an action may show, and how its queue moves
on after a chance outcome.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Hashable, Sequence
from typing import Generic, NamedTuple, Protocol, Self, TypeVar

from p2pcards.engine import (
    CHANCE,
    ChanceOutcome,
    Game,
)
from p2pcards.errors import HiddenInformationError, IllegalActionError
from p2pcards.zones import UNKNOWN, Shown, Step, Zone, ZoneRules, ZoneState

__all__ = [
    "DRAW", "TAKE", "UNKNOWN", "CardKind", "DrawStep", "SlotRules", "SlotState",
    "TakeStep", "draw_step", "take_step",
]  # fmt: skip

DRAW, TAKE = 0, 1
"""The codes of the two chance steps in a game's digest of its queue (its own steps follow)."""


class DrawStep(NamedTuple):
    """Chance step: the deck's top card goes to `seat`, `left` cards still to come (a game
    that queues one step a card leaves it 1)."""

    seat: int
    left: int = 1


class TakeStep(NamedTuple):
    """Chance step: a card picked at random from the `victim`'s hand goes to the `thief`."""

    thief: int
    victim: int


draw_step = functools.cache(DrawStep)
take_step = functools.cache(TakeStep)
"""DrawStep and TakeStep, each value made once: a playout queues a step for nearly every card
it deals, and a NamedTuple costs several times a tuple to make (rpg-battle's random playout
ran 4% slower making them afresh)."""

_HANDS = 2
"""The zone of hand:0 (see `SlotState._layout_for`)."""


@functools.cache
def _draw_to(seat: int) -> Step:
    """A DrawStep's card, as the zones deal it: the deck's top card to the seat's hand, seen
    by that seat (one value per seat, for the same reason as `draw_step`)."""
    return Step("draw", source=0, dest=_HANDS + seat, viewers=1 << seat)


@functools.cache
def _take_from(thief: int, victim: int) -> Step:
    """A TakeStep's card, as the zones deal it: one picked at random from the victim's hand
    to the thief's, seen by both."""
    return Step("pick", _HANDS + victim, _HANDS + thief, 1 << thief | 1 << victim)


S = TypeVar("S", bound=tuple[int, ...])
"""What a game's queue holds: the chance steps above and its own, each a NamedTuple of ints
(told apart by their class); a game names their union."""


class CardKind(Protocol):
    """What the shared deck reads of a game's card type: its copies too."""

    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...

    @property
    def qty(self) -> int: ...


class SlotRules(ZoneRules):
    """Static tables of the shared deck, derived once from a game's card types."""

    def __init__(
        self,
        game: Game,
        cards: Sequence[CardKind],
        deck_size: int,
        take: Callable[[int, str | None], ChanceOutcome],
    ) -> None:
        """`take`: the game's outcome of a random take from a hand, made from (position,
        card), the zones' random pick under the name the game's wire form gives it."""
        super().__init__(game, cards, None, take)
        self.composition = [c.qty for c in cards]
        self.deck_size = deck_size


R = TypeVar("R", bound=SlotRules)


class SlotState(ZoneState, Generic[R, S]):
    """A state whose cards are slots of one shared deck (see the module docstring)."""

    __slots__ = ("_deck", "_discard", "_hands", "_pool", "_queue")

    _rules: R  # a ZoneRules with the shared deck's tables besides
    _hands: list[list[int]]
    _deck: list[int]
    _discard: list[int]
    _pool: list[int]
    _queue: list[S]

    def __init__(self, rules: R, num_players: int) -> None:
        super().__init__(
            rules,
            num_players,
            self._layout_for(num_players),
            [("deck", rules.composition)],
            private_decks=False,
        )
        self._queue = []
        self._name_zones()

    @classmethod
    def _layout_for(cls, num_players: int) -> list[Zone]:
        """The deck, the discard pile, each hand, then the game's own places."""
        return [
            Zone("deck", None, "nobody"),
            Zone("discard", None, "everyone"),
            *(Zone(f"hand:{seat}", seat, "owner") for seat in range(num_players)),
            *cls._own_zones(num_players),
        ]

    @classmethod
    def _own_zones(cls, num_players: int) -> list[Zone]:
        """Places of the game's own, after the hands (GETGEM's laid cards)."""
        return []

    def _name_zones(self) -> None:
        """Bind the names the games use to the zones' lists (after any list is replaced)."""
        zones, n = self._zones, self._n
        self._deck = zones[0]
        self._discard = zones[1]
        self._hands = zones[2 : 2 + n]
        self._pool = self._pools[0]  # type: ignore[assignment]  # a shared deck's: never None

    def _new_deck(self) -> None:
        """Every card face down in the deck, in slot order; empty hands; nothing known."""
        size = self._rules.deck_size
        self._zones = [list(range(size))] + [[] for _ in self._layout[1:]]
        self._ident = [UNKNOWN] * size
        self._known = [0] * size
        self._home = [0] * size
        self._where = [0] * size  # the zones' bookkeeping, never read here (`zone_of`)
        self._pools = [list(self._rules.composition)]
        self._name_zones()

    def _swap_hands(self, a: int, b: int) -> None:
        """Two seats' hands change places, whole."""
        zones = self._zones
        zones[2 + a], zones[2 + b] = zones[2 + b], zones[2 + a]
        self._name_zones()

    # ----------------------------------------------------------------- queries

    def zone_of(self, slot: int) -> str:
        """The name of the zone a slot is in, found by looking: these games move cards with
        plain list operations (a random playout moves one at nearly every step) and keep no
        `_where`, which a zones game keeps current with every move."""
        for zone, pile in zip(self._layout, self._zones, strict=True):
            if slot in pile:
                return zone.name
        raise IllegalActionError(f"there is no card slot {slot}")

    def hand(self, seat: int) -> list[str | None]:
        """The cards of a seat's hand in order, None for each one this state does not know."""
        ident = self._ident
        return [self._card_id(ident[s]) for s in self._hands[seat]]

    def hand_size(self, seat: int) -> int:
        """How many cards a seat holds (public)."""
        return len(self._hands[seat])

    def hand_slots(self, seat: int) -> list[int]:
        return list(self._hands[seat])

    def deck_slots(self) -> list[int]:
        return list(self._deck)

    def deck_size(self) -> int:
        """Cards left in the draw deck."""
        return len(self._deck)

    def discard_pile(self) -> list[str]:
        """The discard pile, oldest first (face up, public)."""
        ids, ident = self._rules.card_ids, self._ident
        return [ids[ident[s]] for s in self._discard]

    def reshuffles(self) -> int:
        """How many times cards were gathered into a new face-down deck: the discard pile when
        the deck ran out, or (GETGEM's matches) every card for the next game."""
        return self._generation[0]

    def _card_id(self, k: int) -> str | None:
        return None if k == UNKNOWN else self._rules.card_ids[k]

    def _hand_slots_by_kind(self, seat: int) -> list[tuple[int, int]]:
        """(kind, slot) for each distinct kind in a hand, in database order: the slot an
        action using that kind names, the copy the most seats already know (it reveals the
        least; the first of those in the hand). Raises if the hand is hidden here."""
        ident, known = self._ident, self._known
        best: dict[int, int] = {}
        for s in self._hands[seat]:
            k = ident[s]
            other = best.get(k)
            if other is None:
                if k == UNKNOWN:
                    raise self._hidden_hand(seat)
                best[k] = s
            elif known[s].bit_count() > known[other].bit_count():
                best[k] = s
        return sorted(best.items())

    def _slot_order(self, seat: int, exclude: int = -1) -> dict[int, list[int]]:
        """The slots of a seat's hand by kind (never `exclude`), each kind's copies in the
        order an action names them, as `_hand_slots_by_kind` picks one: the copies the most
        seats already know first, then hand order. Raises if the hand is hidden here."""
        ident, known = self._ident, self._known
        order: dict[int, list[int]] = {}
        repeated = False
        for s in self._hands[seat]:
            k = ident[s]
            if k == UNKNOWN:
                raise self._hidden_hand(seat)
            if s != exclude:
                copies = order.get(k)
                if copies is None:
                    order[k] = [s]
                else:
                    copies.append(s)
                    repeated = True
        if repeated:  # only a kind's copies need ordering: sort those few, not the hand
            for copies in order.values():
                if len(copies) > 1:
                    copies.sort(key=lambda s: -known[s].bit_count())  # stable: hand order
        return order

    def _verify_uses(
        self, seat: int, slots: Sequence[int], kinds: Sequence[int | None], exclude: int = -1
    ) -> None:
        """An action of `seat` may use these slots of its hand as cards of these kinds (None:
        a card its public form does not name): distinct slots of that hand, never `exclude`,
        each holding its kind, or hidden from this state with an unseen copy left for it (the
        dealer then reveals it and checks)."""
        hand = self._hands[seat]
        ident, pool, ids = self._ident, self._pool, self._rules.card_ids
        unseen: list[int] = []
        for i, (slot, k) in enumerate(zip(slots, kinds, strict=True)):
            if slot not in hand:
                raise IllegalActionError(f"seat {seat}'s hand has no card slot {slot}")
            if slot == exclude:
                raise IllegalActionError(f"the card in slot {slot} cannot be used now")
            if slot in slots[:i]:
                raise IllegalActionError(f"the action uses slot {slot} twice")
            have = ident[slot]
            if k is None or have == k:
                continue
            if have != UNKNOWN:
                raise IllegalActionError(f"slot {slot} holds no {ids[k]}")
            unseen.append(k)
            if unseen.count(k) > pool[k]:
                raise IllegalActionError(f"{ids[k]} cannot be there")

    def _learn_used(self, slots: Sequence[int], kinds: Sequence[int | None]) -> None:
        """A verified action used these slots as these kinds: each named card is known here."""
        for slot, k in zip(slots, kinds, strict=True):
            if k is not None:
                self._note(slot, k)

    def _hidden_hand(self, seat: int) -> HiddenInformationError:
        return HiddenInformationError(
            f"seat {seat}'s hand is hidden from this state (viewer {self.viewer})"
        )

    def _hands_key(self) -> tuple[tuple[int, ...], ...]:
        """The hands as sorted kinds, for `search_key`."""
        ident = self._ident
        return tuple(tuple(sorted(ident[s] for s in hand)) for hand in self._hands)

    # ------------------------------------------------------------- chance nodes

    def luck_key(self) -> Hashable:
        """The zones' key of a draw less its zone, there being one deck: (0, reshuffles,
        cards left). Its shape from before the zones dealt these games' steps, so that a
        seeded search samples the same luck and makes the same moves (`scripts/bench_ai.py
        --same-moves`)."""
        step = self._chance
        if self._current == CHANCE and step is not None and step.kind == "draw":
            return (DRAW, self._generation[0], len(self._deck))
        return self.search_key()

    # Both set what `_ask_chance` sets, inline: a playout asks at nearly every card it deals.

    def _ask_draw(self, seat: int) -> None:
        """The dealer's next: the deck's top card to `seat`'s hand (a `DrawStep`'s card)."""
        self._chance = _draw_to(seat)
        self._current = CHANCE

    def _ask_take(self, thief: int, victim: int) -> None:
        """The dealer's next: a card picked at random from `victim`'s hand to `thief`'s, shown
        to both (a `TakeStep`)."""
        self._chance = _take_from(thief, victim)
        self._current = CHANCE

    # ------------------------------------------------------------- moving cards

    def _discard_slots(self, seat: int, slots: Sequence[int]) -> None:
        """Move these slots from a hand to the discard pile, face up."""
        hand = self._hands[seat]
        discard, known, journal = self._discard, self._known, self._journal
        everyone = (1 << self._n) - 1
        for slot in slots:
            hand.remove(slot)
            discard.append(slot)
            known[slot] = everyone
            if journal is not None:  # `_widen`, inline: a playout discards at most steps
                journal.append(Shown(slot, everyone, self.card_at(slot)))

    def _reshuffle(self) -> bool:
        """The discard pile becomes a new, face-down deck; False if it is empty too."""
        if not self._discard:
            return False
        pool, ident, known = self._pool, self._ident, self._known
        for s in self._discard:
            pool[ident[s]] += 1
            ident[s] = UNKNOWN
            known[s] = 0
        self._zones[0], self._zones[1] = self._discard, []
        self._generation[0] += 1
        self._name_zones()
        return True

    # ------------------------------------------------------- copies and views

    def _clone_cards(self) -> Self:
        """A new state of this class sharing the rules, with copies of the cards, the
        knowledge and the queue (the game copies the rest)."""
        other = self._clone_zones()
        other._queue = self._queue[:]
        other._name_zones()
        return other

    def determinize(self, rng: random.Random) -> Self:
        """Every hidden card in a hand gets an identity drawn from the unseen cards (by their
        counts, without replacement); the deck stays a pool, as in any complete state."""
        full = self.clone()
        full.viewer = None
        pool = full._pool
        ident = full._ident
        kinds = range(len(pool))
        for hand in full._hands:
            for slot in hand:
                if ident[slot] == UNKNOWN:
                    k = rng.choices(kinds, weights=pool)[0]
                    ident[slot] = k
                    pool[k] -= 1
        return full
