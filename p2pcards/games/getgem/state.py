"""The rules of GETGEM as a state machine.

Layout of a state (plain lists of ints, so `clone()` is a handful of list copies):

- the basic cards are slots 0..N-1 (N = 30 with the shipped data) that live in exactly one
  of `_deck` (bottom first), `_discard` (oldest first), a hand `_hands[seat]` or the cards a
  declaring seat laid face up, `_laid[seat]`, with what this state knows of them, kept by
  `p2pcards.slots.SlotState` (which also deals, takes, reshuffles and masks observations);
- the three gem element cards are public tokens: `_element[e]` is the seat holding element
  e, or -1 for the middle of the table;
- pending steps (draws, random takes, Barrier windows, a push, Excavation Arm's discard) wait
  in `_queue` and are resolved before the turn goes on.

An action that uses cards of the hand names their slots (actions.py); a replica that cannot
see them learns them from the action (or, for a pushed card or a hand laid open, from the
dealer, `learn`).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from p2pcards.digest import Canonical
from p2pcards.engine import CHANCE, TERMINAL, Action, Game
from p2pcards.errors import HiddenInformationError, IllegalActionError
from p2pcards.games.getgem.actions import (
    GUARD,
    PASS,
    Barrier,
    Declare,
    Discard,
    Element,
    GemTake,
    Guard,
    Pass,
    Pick,
    Pickpocket,
    Play,
    Push,
    Take,
    TakeBack,
    Trade,
)
from p2pcards.games.getgem.cards import ELEMENT_GEMS, GEMS, CardDatabase, CardType, Character
from p2pcards.slots import (
    DRAW,
    TAKE,
    UNKNOWN,
    DrawStep,
    SlotRules,
    SlotState,
    TakeStep,
    draw_step,
    take_step,
)
from p2pcards.zones import Step, Zone

FIRE, WATER, THUNDER, RAINBOW, CURSE = range(5)  # gem numbers, as in cards.GEMS

# Phases.
DRAFT, DEAL, START, ACTION, TAKEBACK, LIMIT, OVER = range(7)
PHASE_NAMES = ("draft", "deal", "start", "action", "take-back", "limit", "over")


class WindowStep(NamedTuple):
    """Pending: the `chosen` seat answers an `effect` (a WINDOW_EFFECTS code) of `actor`'s,
    Barrier or pass."""

    chosen: int
    actor: int
    effect: int


class PushStep(NamedTuple):
    """Pending: `actor` pushes a card of its hand to `victim` (Steal & Push)."""

    actor: int
    victim: int


class DigStep(NamedTuple):
    """Pending: `seat` discards a card or passes (Excavation Arm)."""

    seat: int


# Pending steps in the queue, in order of their codes (the digest names a step by its code):
# DrawStep(seat) (one card a step), TakeStep(thief, victim), WindowStep, PushStep, DigStep.
WINDOW, PUSH, DIG = 2, 3, 4
_STEP_CODES: dict[type, int] = {
    TakeStep: TAKE, WindowStep: WINDOW, PushStep: PUSH, DigStep: DIG,
}  # fmt: skip


Pending = DrawStep | TakeStep | WindowStep | PushStep | DigStep
"""What GETGEM's queue holds."""


def _encoded(step: Pending) -> tuple[int, ...]:
    """A queued step as ints: its code, then its fields (for digests and search keys). A draw
    is always of one card here, so it is named by its seat alone."""
    if isinstance(step, DrawStep):
        return (DRAW, step.seat)
    return (_STEP_CODES[type(step)], *step)


# Effects that choose a seat, and so open a Barrier window on it.
STEAL, EXCHANGE, STEAL_PUSH, PEEP, PICKPOCKET = range(5)
WINDOW_EFFECTS = ("steal", "full-exchange", "steal-push", "peeping-draw", "pickpocket")
_EFFECT_CODE = {"steal": STEAL, "full-exchange": EXCHANGE, "steal-push": STEAL_PUSH,
                "peeping-draw": PEEP}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Options:
    """Table options (see `GetGemGame.new_initial_state`)."""

    turn_cap: int | None
    first_player: int
    match: bool
    characters: bool


@dataclass(frozen=True, slots=True)
class Decision:
    """What is being decided now, in public terms, for prompts and logs."""

    kind: str  # pick, action, window, push, dig, take-back, limit; deal, take (chance); over
    seat: int  # who decides: a seat, CHANCE or TERMINAL
    actor: int | None = None  # window, push: the seat whose effect it is
    target: int | None = None  # window: the seat chosen (it decides); take: the victim
    effect: str | None = None  # window: the effect a Barrier would cancel
    receiver: int | None = None  # deal, take: the seat that gets the card
    count: int = 0  # limit: cards above the hand limit; take-back: laid cards left


class Rules(SlotRules):
    """Static tables derived once from the card database: indices, numbers, cached actions."""

    def __init__(self, game: Game, db: CardDatabase) -> None:
        super().__init__(game, db.cards, db.deck_size, Take)
        self.db = db
        self.cards = db.cards
        self.chars = db.characters
        self.elements = db.elements
        self.num = db.numbers
        self.char_index = {c.id: i for i, c in enumerate(self.chars)}
        self.gem_of = [GEMS.index(c.gem) if c.gem is not None else -1 for c in self.cards]
        self.kind_of_gem = [self.gem_of.index(g) for g in range(len(GEMS))]
        self.curse = self.kind_of_gem[CURSE]
        self.rainbow = self.kind_of_gem[RAINBOW]
        self.curses = self.composition[self.curse]
        # Gems that can pay for a take or an element card: never the curse (line 41, 82).
        self.payable = [0 <= g < CURSE for g in self.gem_of]
        self.payable_kinds = tuple(k for k, ok in enumerate(self.payable) if ok)
        self.all_kinds = tuple(self.kinds)
        self.action_kinds = [k for k, c in enumerate(self.cards) if c.kind == "action"]
        self.element_gem = [ELEMENT_GEMS.index(e.gem) for e in self.elements]
        self.element_kind = [self.kind_of_gem[g] for g in self.element_gem]
        self.element_names = [ELEMENT_GEMS[g] for g in self.element_gem]
        self.barrier = [c.kind == "action" and "barrier" in c.effects for c in self.cards]
        self.ability = [c.ability for c in self.chars]
        self._joined: dict[tuple[int, ...], str] = {}
        self._slots: dict[str, tuple[int, ...]] = {}
        self._joined_slots: dict[tuple[int, ...], str] = {}
        self.declarations: dict[tuple[tuple[int, ...], int, bool], list[tuple[int, ...]]] = {}

    def joined(self, kinds: tuple[int, ...]) -> str:
        """The comma-joined card ids of an action's `cards` field."""
        text = self._joined.get(kinds)
        if text is None:
            text = self._joined[kinds] = ",".join(self.cards[k].id for k in kinds)
        return text

    def joined_slots(self, slots: tuple[int, ...]) -> str:
        """The comma-joined slot ids of an action's `slots` field."""
        text = self._joined_slots.get(slots)
        if text is None:
            if len(self._joined_slots) > 50_000:
                self._joined_slots.clear()
            text = self._joined_slots[slots] = ",".join(map(str, slots))
            self._remember_slots(text, slots)  # a menu's action is split when it is applied
        return text

    def _remember_slots(self, text: str, slots: tuple[int, ...]) -> None:
        if len(self._slots) > 50_000:
            self._slots.clear()
        self._slots[text] = slots

    def split_slots(self, text: str, count: int) -> tuple[int, ...]:
        """The slot ids of an action's `slots` field, which must name `count` of them."""
        slots = self._slots.get(text)
        if slots is None:
            parts = text.split(",") if text else []
            if not all(p.isdecimal() and len(p) <= 6 for p in parts):
                raise IllegalActionError(f"card slots are comma-separated numbers, not {text!r}")
            slots = tuple(map(int, parts))
            self._remember_slots(text, slots)
        if len(slots) != count:
            raise IllegalActionError(f"{count} card slots are needed, not {len(slots)} ({text!r})")
        return slots


@functools.cache
def _action(cls: type[Action], *fields: Any) -> Action:
    """The shared instance of an action (actions are immutable, so one is enough): the menus
    list the same actions at decision after decision, and a cache in C finds them in a
    fraction of what a Python method took."""
    return cls(*fields)


@functools.cache
def _aimed(
    cls: type[Action], head: tuple[Any, ...], seats: tuple[int, ...], tail: tuple[Any, ...] = ()
) -> tuple[Action, ...]:
    """The shared actions `cls(*head, seat, *tail)`, one for each target seat in `seats`, in
    order: a menu lists an action for every seat it may aim at, and one lookup finds them."""
    make: Callable[..., Action] = _action  # the same instances as the menus' other actions
    return tuple(make(cls, *head, s, *tail) for s in seats)


@functools.cache
def _others(seats: int, seat: int) -> tuple[int, ...]:
    """Every seat of a table of `seats` but `seat`, ascending."""
    return tuple(s for s in range(seats) if s != seat)


_MULTISETS: dict[tuple[tuple[int, ...], tuple[int, ...], int], list[tuple[int, ...]]] = {}


def _multisets(counts: tuple[int, ...], kinds: tuple[int, ...], size: int) -> list[tuple[int, ...]]:
    """Every multiset of `size` cards drawn from `counts`, restricted to `kinds` (ascending
    kinds, in lexicographic order). Shared and cached: callers must not change the result."""
    key = (counts, kinds, size)  # hashed in C: a key made in Python cost more than the walk
    cached = _MULTISETS.get(key)
    if cached is None:
        # `min` is avoided here: in CPython 3.11 it parses keywords on every call.
        present = tuple((k, n if n < size else size) for k in kinds if (n := counts[k]))
        if len(_MULTISETS) > 50_000:
            _MULTISETS.clear()
        cached = _MULTISETS[key] = _combinations(present, size)
    return cached


@functools.lru_cache(maxsize=4096)
def _combinations(present: tuple[tuple[int, int], ...], size: int) -> list[tuple[int, ...]]:
    """Every multiset of `size` cards taking at most `have` of each `(kind, have)`, in
    lexicographic order; many hands share one, so it is walked once."""
    out: list[tuple[int, ...]] = []
    acc: list[int] = []

    def walk(i: int, left: int) -> None:
        if left == 0:
            out.append(tuple(acc))
            return
        if i == len(present):
            return
        k, have = present[i]
        for take in range(have if have < left else left, -1, -1):
            acc.extend((k,) * take)
            walk(i + 1, left - take)
            del acc[len(acc) - take :]

    walk(0, size)
    return out


def _shows_gems(rules: Rules, kinds: Iterable[int], have: int, cursed: bool) -> bool:
    """Whether cards of these kinds with the element gems `have` (a mask) show fire, water
    and thunder, a rainbow gem standing in for any one unless `cursed` (see `_complete`)."""
    gem_of = rules.gem_of
    rainbows = 0
    for k in kinds:
        g = gem_of[k]
        if 0 <= g < RAINBOW:
            have |= 1 << g
        elif g == RAINBOW:
            rainbows += 1
    missing = 3 - have.bit_count()
    return missing == 0 or (not cursed and rainbows >= missing)


class GetGemState(SlotState[Rules, Pending]):
    """A position of GETGEM, or one seat's replica of it."""

    __slots__ = (
        "_char", "_element", "_first", "_game_no", "_laid", "_last_winner", "_options",
        "_peeped", "_phase", "_picks", "_scores", "_seat", "_taken", "_tb", "_turns", "_used",
        "_winners",
    )  # fmt: skip

    def __init__(self, rules: Rules, num_players: int, options: Options) -> None:
        super().__init__(rules, num_players)
        self._options = options
        self._element = [-1] * len(rules.elements)
        self._char = [-1] * num_players
        self._used = [False] * num_players  # ability used since the seat's turn began
        self._scores = [0] * num_players
        self._first = options.first_player
        self._seat = options.first_player
        self._game_no = 1
        self._turns = 0
        self._peeped = 0
        self._picks = 0
        self._tb = 0
        self._taken = -1
        self._last_winner = -1
        self._winners: list[int] | None = None
        if options.characters:
            self._phase = DRAFT
        else:
            self._phase = DEAL
            self._queue_deal()
        self._advance()

    # ----------------------------------------------------------------- queries

    @property
    def options(self) -> Options:
        """The options this table was made with."""
        return self._options

    @property
    def database(self) -> CardDatabase:
        """The card database this game plays with."""
        return self._rules.db

    def decision(self) -> Decision:
        """What is being decided now, in public terms."""
        cur = self._current
        if cur == TERMINAL:
            return Decision("over", TERMINAL)
        if self._queue:
            step = self._queue[0]
            if isinstance(step, DrawStep):
                return Decision("deal", CHANCE, receiver=step.seat)
            if isinstance(step, TakeStep):
                return Decision("take", CHANCE, target=step.victim, receiver=step.thief)
            if isinstance(step, WindowStep):
                effect = WINDOW_EFFECTS[step.effect]
                return Decision("window", cur, actor=step.actor, target=step.chosen, effect=effect)
            if isinstance(step, PushStep):
                return Decision("push", cur, actor=step.actor, target=step.victim)
            return Decision("dig", cur)
        phase = self._phase
        if phase == DRAFT:
            return Decision("pick", cur)
        if phase == TAKEBACK:
            return Decision("take-back", cur, count=len(self._laid[cur]))
        if phase == LIMIT:
            excess = len(self._hands[cur]) - self._rules.num["hand_limit"]
            return Decision("limit", cur, count=excess)
        return Decision("action", cur)

    def phase(self) -> str:
        """The phase of the turn: draft, deal, action, take-back, limit or over."""
        return PHASE_NAMES[self._phase]

    def turn_seat(self) -> int:
        """The seat whose turn it is (during the draft: the seat that picks)."""
        return self._seat

    def turns_played(self) -> int:
        """Turns begun so far, over every game of a match (the turn cap counts these)."""
        return self._turns

    def game_number(self) -> int:
        """Which game of a match this is (1 for a single game)."""
        return self._game_no

    def first_player(self) -> int:
        """The seat that took (or takes) the first turn of the current game."""
        return self._first

    def scores(self) -> list[int]:
        """Match points per seat (line 71); all 0 in a single game."""
        return list(self._scores)

    def laid(self, seat: int) -> list[str]:
        """The cards a declaring seat laid face up and has not yet taken back (public)."""
        return [self._rules.cards[self._ident[s]].id for s in self._laid[seat]]

    def declaring(self) -> list[int]:
        """Seats with laid cards, that is, whose victory declaration is running (line 51)."""
        return [s for s in range(self._n) if self._laid[s]]

    def element_owner(self, gem: str) -> int | None:
        """The seat holding the element card of `gem` (fire, water, thunder); None: the middle."""
        names = self._rules.element_names
        if gem not in names:
            raise IllegalActionError(f"there is no {gem!r} element card")
        owner = self._element[names.index(gem)]
        return None if owner < 0 else owner

    def elements(self, seat: int) -> list[str]:
        """The gems whose element cards `seat` holds."""
        names = self._rules.element_names
        return [names[e] for e, owner in enumerate(self._element) if owner == seat]

    def character(self, seat: int) -> str | None:
        """The character card a seat drafted (expansion), or None."""
        c = self._char[seat]
        return None if c < 0 else self._rules.chars[c].id

    def ability_used(self, seat: int) -> bool:
        """Whether a seat used its character's ability since its turn last began."""
        return self._used[seat]

    def card_type(self, card: str) -> CardType:
        """A basic card's kind, gem, effects and rulebook line."""
        return self._rules.cards[self._kind(card)]

    def character_card(self, character: str) -> Character:
        """A character card's name and ability text."""
        c = self._rules.char_index.get(character)
        if c is None:
            raise IllegalActionError(f"there is no character called {character!r}")
        return self._rules.chars[c]

    def peeping_draws(self) -> int:
        """Peeping Draws played this turn (line 100: one a turn)."""
        return self._peeped

    @classmethod
    def _own_zones(cls, num_players: int) -> list[Zone]:
        """Each seat's laid cards, face up (a declaration)."""
        return [Zone(f"laid:{seat}", seat, "everyone") for seat in range(num_players)]

    def _name_zones(self) -> None:
        super()._name_zones()
        n = self._n
        self._laid = self._zones[2 + n : 2 + 2 * n]

    def winners(self) -> list[int]:
        """The winner (after the turn cap: the seats sharing the result); empty until the end."""
        return list(self._winners or [])

    def last_winner(self) -> int | None:
        """The seat that won the last finished game (of a match), or None."""
        return None if self._last_winner < 0 else self._last_winner

    def returns(self) -> list[float]:
        if not self._winners:
            return [0.0] * self._n
        share = 1.0 / len(self._winners)
        return [share if s in self._winners else 0.0 for s in range(self._n)]

    def holds_victory(self, seat: int) -> bool:
        """Whether `seat`'s hand and element cards show fire, water and thunder now (line 55);
        raises if this state cannot see the hand."""
        hand = self._hands[seat]
        kinds = [self._ident[s] for s in hand]
        if UNKNOWN in kinds:
            raise HiddenInformationError(f"seat {seat}'s hand is hidden from this state")
        return self._complete(kinds, seat, self._cursed(seat, hand))

    def _slots_for(self, order: dict[int, list[int]], kinds: Sequence[int]) -> str:
        """The `slots` field of an action using cards of these kinds (ascending, as a menu
        lists them): each kind's copies in `order` (`_slot_order`), first first."""
        slots: list[int] = []
        last, n = -1, 0
        for k in kinds:
            n = n + 1 if k == last else 0
            last = k
            slots.append(order[k][n])
        return self._rules.joined_slots(tuple(slots))

    def _discard_used(self, seat: int, slots: Sequence[int], kinds: Sequence[int]) -> None:
        """Move the cards of a verified action from a hand to the discard pile, face up."""
        self._learn_used(slots, kinds)
        self._discard_slots(seat, slots)

    # ------------------------------------------------------------ legal moves

    def _decisions(self, cur: int) -> list[Action]:
        rules = self._rules
        act = _action
        cards = rules.cards
        if self._queue:
            step = self._queue[0]
            if isinstance(step, WindowStep):
                actions: list[Action] = [PASS]
                actions.extend(
                    act(Barrier, slots[0], cards[k].id)
                    for k, slots in sorted(self._slot_order(cur).items())
                    if rules.barrier[k]
                )
                if self._can_guard(cur):
                    actions.append(GUARD)
                return actions
            if isinstance(step, PushStep):
                order = self._slot_order(cur, exclude=self._taken)
                return [act(Push, slots[0], cards[k].id) for k, slots in sorted(order.items())]
            return self._discards(cur) or [PASS]
        phase = self._phase
        if phase == DRAFT:
            return [act(Pick, c.id) for i, c in enumerate(rules.chars) if i not in self._char]
        if phase == TAKEBACK:
            kinds = sorted({self._ident[s] for s in self._laid[cur]})
            return [act(TakeBack, cards[k].id) for k in kinds]
        if phase == LIMIT:
            return self._discards(cur) or [PASS]
        return self._action_phase(cur)

    def _discards(self, seat: int) -> list[Action]:
        act = _action
        cards = self._rules.cards
        curse = self._rules.curse
        order = sorted(self._slot_order(seat).items())
        return [act(Discard, slots[0], cards[k].id) for k, slots in order if k != curse]

    def _action_phase(self, seat: int) -> list[Action]:
        rules = self._rules
        act = _action
        cards = rules.cards
        num = rules.num
        order = self._slot_order(seat)
        tally = [0] * len(cards)
        for k, copies in order.items():
            tally[k] = len(copies)
        counts = tuple(tally)
        slots_for = self._slots_for
        hands = self._hands
        others = loaded = _others(self._n, seat)
        for s in others:
            if not hands[s]:  # rare: a plain loop finds it cheaper than a comprehension
                loaded = tuple(t for t in others if hands[t])
                break
        actions: list[Action] = [PASS]
        # End phase: lay cards and declare victory (line 49-50), unless already declaring.
        if not self._laid[seat] and len(hands[seat]) >= num["declare_cards"]:
            for combo in self._declarations(counts, seat):
                actions.append(act(Declare, rules.joined(combo), slots_for(order, combo)))
        # Action cards (line 40).
        for k in rules.action_kinds:
            if not counts[k]:
                continue
            card = cards[k]
            slot = order[k][0]
            for effect in card.effects:
                if effect in ("steal", "steal-push"):
                    actions.extend(_aimed(Play, (slot, card.id, effect), loaded, (None,)))
                elif effect == "full-exchange":
                    actions.extend(_aimed(Play, (slot, card.id, effect), others, (None,)))
                elif effect == "peeping-draw":
                    if self._peeped < num["peeping_per_turn"]:
                        actions.extend(_aimed(Play, (slot, card.id, effect), others, (None,)))
                elif effect == "excavation-arm":
                    for j in sorted({self._ident[s] for s in self._discard}):
                        actions.append(act(Play, slot, card.id, effect, None, cards[j].id))
        # Gems for a random take (line 41) and for element cards (line 42-46).
        payable = rules.payable_kinds
        if loaded:
            for combo in _multisets(counts, payable, num["gem_take_cost"]):
                head = (rules.joined(combo), slots_for(order, combo))
                actions.extend(_aimed(GemTake, head, loaded))
        cost = num["element_cost"]
        ability = self._ability(seat)
        alchemist = ability == "alchemist"
        for e, owner in enumerate(self._element):
            if owner == seat:
                continue
            k = rules.element_kind[e]
            name = rules.element_names[e]
            if counts[k] >= cost:
                combo = (k,) * cost
                actions.append(act(Element, name, rules.joined(combo), slots_for(order, combo)))
            if alchemist and cost >= 2 and counts[rules.rainbow] and counts[k] >= cost - 1:
                combo = tuple(sorted((k,) * (cost - 1) + (rules.rainbow,)))
                actions.append(act(Element, name, rules.joined(combo), slots_for(order, combo)))
        # Character abilities (expansion).
        if ability == "pickpocket" and not self._used[seat] and loaded:
            for combo in _multisets(counts, payable, num["pickpocket_cost"]):
                head = (rules.joined(combo), slots_for(order, combo))
                actions.extend(_aimed(Pickpocket, head, loaded))
        elif ability == "merchant" and not self._used[seat]:
            actions.extend(
                act(Trade, slots[0], cards[k].id)
                for k, slots in sorted(order.items())
                if k != rules.curse
            )
        return actions

    # ------------------------------------------------------------- validation

    def _verify_decision(self, cur: int, action: Action) -> None:
        rules = self._rules
        if self._queue:
            step = self._queue[0]
            if isinstance(step, WindowStep):
                if isinstance(action, Pass):
                    return
                if isinstance(action, Guard):
                    if not self._can_guard(cur):
                        raise IllegalActionError(f"seat {cur} has no Guardian ready to guard")
                    return
                if not isinstance(action, Barrier):
                    raise IllegalActionError(
                        f"seat {cur} was chosen by {WINDOW_EFFECTS[step.effect]}: pass or barrier"
                    )
                k = self._kind(action.card)
                if not rules.barrier[k]:
                    raise IllegalActionError(f"{action.card} is not a Barrier")
                self._verify_uses(cur, (action.slot,), (k,))
                return
            if isinstance(step, PushStep):
                if not isinstance(action, Push):
                    raise IllegalActionError(f"seat {cur} must push a card to seat {step.victim}")
                self._verify_uses(cur, (action.slot,), (self._push_kind(action),), self._taken)
                return
            self._verify_discard(cur, action)
            return
        phase = self._phase
        if phase == DRAFT:
            if not isinstance(action, Pick):
                raise IllegalActionError(f"seat {cur} must pick a character")
            c = rules.char_index.get(action.character)
            if c is None:
                raise IllegalActionError(f"there is no character called {action.character!r}")
            if c in self._char:
                raise IllegalActionError(f"{action.character} is already drafted")
            return
        if phase == TAKEBACK:
            if not isinstance(action, TakeBack):
                raise IllegalActionError(f"seat {cur} must take back one of its laid cards")
            k = self._kind(action.card)
            if all(self._ident[s] != k for s in self._laid[cur]):
                raise IllegalActionError(f"seat {cur} has no {action.card} laid")
            return
        if phase == LIMIT:
            self._verify_discard(cur, action)
            return
        self._verify_action_phase(cur, action)

    def _verify_discard(self, seat: int, action: Action) -> None:
        """A discard of one's own choosing (Excavation Arm, hand limit): never the curse."""
        curse = self._rules.curse
        if isinstance(action, Pass):
            hand = self._hands[seat]
            if len(hand) > self._rules.curses or any(
                self._ident[s] not in (curse, UNKNOWN) for s in hand
            ):
                raise IllegalActionError(f"seat {seat} must discard a card")
            return
        if not isinstance(action, Discard):
            raise IllegalActionError(f"seat {seat} must discard a card")
        k = self._kind(action.card)
        if k == curse:
            raise IllegalActionError("the curse gem can never be discarded (line 57, 82)")
        self._verify_uses(seat, (action.slot,), (k,))

    def _verify_action_phase(self, seat: int, action: Action) -> None:
        rules = self._rules
        num = rules.num
        if isinstance(action, Pass):
            return
        if isinstance(action, Declare):
            if self._laid[seat]:
                raise IllegalActionError(f"seat {seat} is declaring already")
            kinds = self._parse_cards(action.cards, num["declare_cards"])
            self._verify_uses(seat, rules.split_slots(action.slots, len(kinds)), kinds)
            if not self._complete(kinds, seat, self._cursed(seat, self._hands[seat])):
                raise IllegalActionError(
                    f"{action.cards} and the element cards do not show fire, water and thunder"
                )
            return
        if isinstance(action, Play):
            self._verify_play(seat, action)
            return
        if isinstance(action, GemTake | Pickpocket):
            if isinstance(action, Pickpocket):
                if self._ability(seat) != "pickpocket":
                    raise IllegalActionError(f"seat {seat} is not the Pickpocket")
                if self._used[seat]:
                    raise IllegalActionError("the Pickpocket acts once a turn")
                cost = num["pickpocket_cost"]
            else:
                cost = num["gem_take_cost"]
            kinds = self._parse_cards(action.cards, cost)
            if not all(rules.payable[k] for k in kinds):
                raise IllegalActionError(
                    "only fire, water, thunder and rainbow gems pay for a take (never the curse)"
                )
            self._verify_victim(seat, action.seat, loaded=True)
            self._verify_uses(seat, rules.split_slots(action.slots, len(kinds)), kinds)
            return
        if isinstance(action, Element):
            names = rules.element_names
            if action.element not in names:
                raise IllegalActionError(f"there is no {action.element!r} element card")
            e = names.index(action.element)
            if self._element[e] == seat:
                raise IllegalActionError(f"seat {seat} holds the {action.element} element already")
            kinds = self._parse_cards(action.cards, num["element_cost"])
            k = rules.element_kind[e]
            rainbows = kinds.count(rules.rainbow)
            allowed = 1 if self._ability(seat) == "alchemist" else 0
            if (
                any(j not in (k, rules.rainbow) for j in kinds)
                or rainbows > allowed
                or (rainbows and len(kinds) < 2)
            ):
                raise IllegalActionError(
                    f"the {action.element} element costs {len(kinds)} {action.element} gems "
                    "(a rainbow gem cannot pay, line 80)"
                )
            self._verify_uses(seat, rules.split_slots(action.slots, len(kinds)), kinds)
            return
        if isinstance(action, Trade):
            if self._ability(seat) != "merchant":
                raise IllegalActionError(f"seat {seat} is not the Merchant")
            if self._used[seat]:
                raise IllegalActionError("the Merchant trades once a turn")
            k = self._kind(action.card)
            if k == rules.curse:
                raise IllegalActionError("the curse gem can never be discarded (line 82)")
            self._verify_uses(seat, (action.slot,), (k,))
            return
        raise IllegalActionError(f"{action} is not an action of the action phase")

    def _verify_play(self, seat: int, action: Play) -> None:
        rules = self._rules
        k = self._kind(action.card)
        card = rules.cards[k]
        if card.kind != "action":
            raise IllegalActionError(f"{card.name} is a gem, not an action card")
        effect = action.effect
        if effect not in card.effects:
            raise IllegalActionError(f"{card.name} has no {effect!r} effect")
        if effect == "barrier":
            raise IllegalActionError("a Barrier is used only when an effect chooses you (line 107)")
        if effect == "excavation-arm":
            if action.seat is not None:
                raise IllegalActionError("Excavation Arm chooses no player")
            if action.pick is None:
                raise IllegalActionError("Excavation Arm must pick a card of the discard pile")
            j = self._kind(action.pick)
            if all(self._ident[s] != j for s in self._discard):
                raise IllegalActionError(f"there is no {action.pick} in the discard pile")
        else:
            if action.pick is not None:
                raise IllegalActionError(f"{effect} picks no discarded card")
            if action.seat is None:
                raise IllegalActionError(f"{effect} must choose a player")
            self._verify_victim(seat, action.seat, loaded=effect in ("steal", "steal-push"))
            if effect == "peeping-draw" and self._peeped >= rules.num["peeping_per_turn"]:
                raise IllegalActionError("Peeping Draw is used once a turn (line 100)")
        self._verify_uses(seat, (action.slot,), (k,))

    def _verify_victim(self, seat: int, victim: int, loaded: bool) -> None:
        if not 0 <= victim < self._n or victim == seat:
            raise IllegalActionError(f"seat {victim} is not another player at this table")
        if loaded and not self._hands[victim]:
            raise IllegalActionError(f"seat {victim} holds no card to take")

    def _parse_cards(self, text: str, count: int) -> list[int]:
        kinds = [self._kind(c) for c in text.split(",")] if text else []
        if len(kinds) != count:
            raise IllegalActionError(f"{count} cards are needed, not {len(kinds)} ({text!r})")
        return kinds

    # ---------------------------------------------------------------- applying

    def _apply(self, action: Action) -> None:
        if self._current == CHANCE:
            self._apply_outcome(action)
        elif self._queue:
            self._apply_step(action)
        else:
            phase = self._phase
            if phase == DRAFT:
                assert isinstance(action, Pick)
                self._pick(self._rules.char_index[action.character])
            elif phase == ACTION:
                self._apply_action_phase(action)
            elif phase == TAKEBACK:
                assert isinstance(action, TakeBack)
                self._take_back(self._kind(action.card))
            elif isinstance(action, Discard):  # LIMIT
                self._discard_used(self._current, (action.slot,), (self._kind(action.card),))
            else:  # keeping what cannot be discarded ends the turn
                self._next_turn()
        self._advance()

    def _apply_step(self, action: Action) -> None:
        step = self._queue.pop(0)
        cur = self._current
        if isinstance(step, WindowStep):
            if isinstance(action, Barrier):
                self._discard_used(cur, (action.slot,), (self._kind(action.card),))
            elif isinstance(action, Guard):
                self._used[cur] = True
            else:
                self._resolve(step.effect, step.actor, step.chosen)
        elif isinstance(step, PushStep):
            assert isinstance(action, Push)
            slot = action.slot
            self._learn_used((slot,), (self._push_kind(action),))
            victim = step.victim
            self._hands[cur].remove(slot)
            self._hands[victim].append(slot)
            self._widen(slot, 1 << victim)
            self._taken = -1
        elif isinstance(action, Discard):  # DIG: Excavation Arm's discard
            self._discard_used(cur, (action.slot,), (self._kind(action.card),))

    def _resolve(self, effect: int, actor: int, target: int) -> None:
        """An effect that chose `target` takes effect (no Barrier)."""
        queue = self._queue
        widen = self._widen
        if effect in (STEAL, PICKPOCKET):
            queue.insert(0, take_step(actor, target))
        elif effect == STEAL_PUSH:
            queue[0:0] = [take_step(actor, target), PushStep(actor, target)]
        elif effect == EXCHANGE:
            mine, theirs = self._hands[actor], self._hands[target]
            for s in mine:
                widen(s, 1 << target)
            for s in theirs:
                widen(s, 1 << actor)
            self._swap_hands(actor, target)
        else:  # PEEP: look at the whole hand, then draw (line 99)
            for s in self._hands[target]:
                widen(s, 1 << actor)
            queue.insert(0, draw_step(actor))

    def _apply_action_phase(self, action: Action) -> None:
        rules = self._rules
        seat = self._current
        if isinstance(action, Pass):
            self._end_actions()
        elif isinstance(action, Declare):
            kinds = self._kinds(action.cards)
            slots = rules.split_slots(action.slots, len(kinds))
            self._learn_used(slots, kinds)
            hand = self._hands[seat]
            everyone = (1 << self._n) - 1
            for slot in slots:
                hand.remove(slot)
                self._laid[seat].append(slot)
                self._widen(slot, everyone)
            self._end_actions()
        elif isinstance(action, Play):
            arm = action.slot
            self._discard_used(seat, (arm,), (self._kind(action.card),))
            effect = action.effect
            if effect == "excavation-arm":
                assert action.pick is not None
                j = self._kind(action.pick)
                slot = next(s for s in reversed(self._discard) if s != arm and self._ident[s] == j)
                self._discard.remove(slot)
                self._hands[seat].append(slot)
                self._queue.append(DigStep(seat))
            else:
                if effect == "peeping-draw":
                    self._peeped += 1
                assert action.seat is not None
                self._queue.append(WindowStep(action.seat, seat, _EFFECT_CODE[effect]))
        elif isinstance(action, GemTake):
            self._discard_named(seat, action.cards, action.slots)
            self._taken = -1
            self._queue.append(take_step(seat, action.seat))
        elif isinstance(action, Element):
            self._discard_named(seat, action.cards, action.slots)
            self._element[rules.element_names.index(action.element)] = seat
        elif isinstance(action, Pickpocket):
            self._discard_named(seat, action.cards, action.slots)
            self._used[seat] = True
            self._queue.append(WindowStep(action.seat, seat, PICKPOCKET))
        else:
            assert isinstance(action, Trade)
            self._discard_used(seat, (action.slot,), (self._kind(action.card),))
            self._used[seat] = True
            self._queue.append(draw_step(seat))

    def _after_chance(self, step: Step, slot: int, value: int) -> None:
        """A card dealt: the step is done; a card taken is remembered (Steal & Push may not
        push it back)."""
        if isinstance(self._queue.pop(0), TakeStep):
            self._taken = slot

    def _kinds(self, cards: str) -> list[int]:
        """The kinds of an action's comma-joined `cards` field."""
        return [self._kind(c) for c in cards.split(",")]

    def _discard_named(self, seat: int, cards: str, slots: str) -> None:
        """Discard the cards a verified action names (its `cards` and `slots` fields)."""
        kinds = self._kinds(cards)
        self._discard_used(seat, self._rules.split_slots(slots, len(kinds)), kinds)

    def _push_kind(self, push: Push) -> int | None:
        """The kind a push names (None in its public form)."""
        return None if push.card is None else self._kind(push.card)

    def _pick(self, c: int) -> None:
        self._char[self._current] = c
        self._picks += 1
        if self._picks == self._n:
            self._phase = DEAL
            self._queue_deal()

    def _queue_deal(self) -> None:
        """The opening deal (line 26): one card at a time round the table from the first
        player, until each seat has its cards."""
        n = self._n
        first = self._first
        for _ in range(self._rules.num["deal"]):
            self._queue.extend(draw_step((first + i) % n) for i in range(n))

    def _end_actions(self) -> None:
        """The action phase ends; the end phase's take-backs begin with the next seat."""
        self._phase = TAKEBACK
        self._tb = 1

    def _take_back(self, k: int) -> None:
        seat = self._current
        laid = self._laid[seat]
        slot = next(s for s in laid if self._ident[s] == k)
        laid.remove(slot)
        hand = self._hands[seat]
        hand.append(slot)
        if not laid:  # the victory check (line 54-56): the whole hand is shown
            everyone = (1 << self._n) - 1
            for s in hand:
                self._widen(s, everyone)
            kinds = [self._ident[s] for s in hand]
            # Only the dealer's first look at the action does not know the hand yet: it
            # reveals the hand (`laid_open`) before the action is applied for good.
            if UNKNOWN not in kinds and self._complete(kinds, seat, self._cursed(seat, hand)):
                self._win(seat)
                return
        self._tb += 1

    def _win(self, seat: int) -> None:
        self._last_winner = seat
        if not self._options.match:
            self._finish([seat])
            return
        rules = self._rules
        rainbows = sum(1 for s in self._hands[seat] if self._ident[s] == rules.rainbow)
        num = rules.num
        self._scores[seat] += max(0, num["win_points"] - num["rainbow_penalty"] * rainbows)
        if self._scores[seat] >= num["match_target"]:
            self._finish([seat])
            return
        self._new_game((seat - 1) % self._n)

    def _new_game(self, first: int) -> None:
        """The next game of a match (line 69-73): every card gathered into a new deck, the
        element cards back in the middle, the deal again from `first`."""
        rules = self._rules
        self._new_deck()
        self._generation[0] += 1
        self._element = [-1] * len(rules.elements)
        self._used = [False] * self._n
        self._game_no += 1
        self._first = first
        self._seat = first
        self._queue.clear()
        self._taken = -1
        self._peeped = 0
        self._phase = DEAL
        self._queue_deal()

    def _finish(self, winners: list[int]) -> None:
        self._winners = sorted(winners)
        self._phase = OVER
        self._queue.clear()

    def _capped(self) -> None:
        """The turn cap: a single game is drawn; a match goes to the most points."""
        if not self._options.match:
            self._finish(list(range(self._n)))
            return
        best = max(self._scores)
        self._finish([s for s in range(self._n) if self._scores[s] == best])

    def _next_turn(self) -> None:
        self._seat = (self._seat + 1) % self._n
        self._phase = START

    # --------------------------------------------------------------- the flow

    def _advance(self) -> None:
        """Resolve automatic steps until a seat or the dealer must act; set `_current`."""
        queue = self._queue
        hands = self._hands
        while True:
            phase = self._phase
            if phase == OVER:
                self._current = TERMINAL
                return
            if queue:
                step = queue[0]
                if isinstance(step, DrawStep):
                    if not self._deck and not self._reshuffle():
                        queue.pop(0)  # every card is in a hand or laid: no draw
                        continue
                    self._ask_draw(step.seat)
                    return
                if isinstance(step, TakeStep):
                    if not hands[step.victim]:
                        queue.pop(0)
                        if queue and isinstance(queue[0], PushStep):
                            queue.pop(0)  # nothing taken: nothing to push instead
                        continue
                    self._ask_take(step.thief, step.victim)
                    return
                if isinstance(step, WindowStep):
                    # Always opened, even on an empty hand: who acts next is public.
                    self._current = step.chosen
                    return
                if isinstance(step, PushStep):
                    hand = hands[step.actor]
                    if len(hand) - (self._taken in hand) <= 0:
                        queue.pop(0)
                        continue
                    self._current = step.actor
                    return
                assert isinstance(step, DigStep)
                self._current = step.seat
                return
            if phase == DRAFT:
                self._current = (self._first - 1 - self._picks) % self._n
                return
            if phase == DEAL:
                self._phase = START
                continue
            if phase == START:
                self._start_turn()
                continue
            if phase == ACTION:
                self._current = self._seat
                return
            if phase == TAKEBACK:
                n = self._n
                while self._tb < n:
                    s = (self._seat + self._tb) % n
                    if self._laid[s]:
                        self._current = s
                        return
                    self._tb += 1
                self._phase = LIMIT
                continue
            # LIMIT (line 57)
            if len(hands[self._seat]) > self._rules.num["hand_limit"]:
                self._current = self._seat
                return
            self._next_turn()

    def _start_turn(self) -> None:
        cap = self._options.turn_cap
        if cap is not None and self._turns >= cap:
            self._capped()
            return
        seat = self._seat
        self._turns += 1
        self._peeped = 0
        self._used[seat] = False
        self._queue.extend(draw_step(seat) for _ in range(self._rules.num["draw"]))
        self._phase = ACTION

    # ----------------------------------------------------------------- helpers

    def _complete(self, kinds: Iterable[int], seat: int, cursed: bool) -> bool:
        """Whether these cards and the seat's element cards show fire, water and thunder
        (line 50, 55, 61), a rainbow gem standing in for any one unless cursed (line 79, 82)."""
        return _shows_gems(self._rules, kinds, self._element_gems(seat), cursed)

    def _element_gems(self, seat: int) -> int:
        """The gems a seat's element cards show, as a mask of 1 << gem."""
        element_gem = self._rules.element_gem
        have = 0
        for e, owner in enumerate(self._element):
            if owner == seat:
                have |= 1 << element_gem[e]
        return have

    def _declarations(self, counts: tuple[int, ...], seat: int) -> list[tuple[int, ...]]:
        """Every set of `declare_cards` cards a hand holding `counts` may lay to declare
        victory (line 49-50): those that complete the gems with the seat's element cards
        (`_complete`), in `_multisets` order. Shared and cached by the counts, the element
        cards and the curse (a random playout asks at every action phase, and its hands
        repeat): callers must not change the result."""
        rules = self._rules
        have = self._element_gems(seat)
        cursed = self._cursed(seat, self._hands[seat])
        size = rules.num["declare_cards"]
        key = (counts, have, cursed)
        found = rules.declarations.get(key)
        if found is None:
            combos = _multisets(counts, rules.all_kinds, size)
            found = [c for c in combos if _shows_gems(rules, c, have, cursed)]
            if len(rules.declarations) > 50_000:
                rules.declarations.clear()
            rules.declarations[key] = found
        return found

    def _cursed(self, seat: int, hand: list[int]) -> bool:
        """Whether a seat's rainbows are void: it holds a curse gem (line 82), in hand or laid,
        unless it is the Priest. Unknown cards count as no curse."""
        if self._ability(seat) == "priest":
            return False
        curse = self._rules.curse
        ident = self._ident
        for pile in (hand, self._laid[seat]):  # loops, not `any` of generators: asked per menu
            for s in pile:
                if ident[s] == curse:
                    return True
        return False

    def _ability(self, seat: int) -> str | None:
        c = self._char[seat]
        return None if c < 0 else self._rules.ability[c]

    def _can_guard(self, seat: int) -> bool:
        return self._ability(seat) == "guardian" and not self._used[seat]

    # ------------------------------------------------------- copies and views

    def clone(self) -> GetGemState:
        other = self._clone_cards()
        other._options = self._options
        other._element = self._element[:]
        other._char = self._char[:]
        other._used = self._used[:]
        other._scores = self._scores[:]
        other._first = self._first
        other._seat = self._seat
        other._game_no = self._game_no
        other._turns = self._turns
        other._peeped = self._peeped
        other._picks = self._picks
        other._tb = self._tb
        other._taken = self._taken
        other._last_winner = self._last_winner
        other._winners = None if self._winners is None else self._winners[:]
        other._phase = self._phase
        return other

    def search_key(self) -> Hashable:
        """Everything that decides the future, as one tuple of ints (hands as sorted kinds)."""
        ident = self._ident
        return (
            self._phase, self._seat, self._turns, self._game_no, self._peeped, self._tb,
            self._current, tuple(map(_encoded, self._queue)), tuple(self._element),
            tuple(self._char), tuple(self._used), tuple(self._scores), self._taken,
            self._hands_key(),
            tuple(tuple(ident[s] for s in laid) for laid in self._laid),
            tuple(ident[s] for s in self._discard), tuple(self._pool),
        )  # fmt: skip

    def public_sections(self) -> dict[str, Canonical]:
        chars = self._rules.chars
        return {
            "turn": {
                "phase": PHASE_NAMES[self._phase],
                "seat": self._seat,
                "first": self._first,
                "turns": self._turns,
                "game": self._game_no,
                "picks": self._picks,
                "peeped": self._peeped,
                "take_back": self._tb,
                "taken": self._taken,
                "queue": [list(_encoded(step)) for step in self._queue],
                "current": self._current,
            },
            "piles": {
                "deck": list(self._deck),
                "discard": self.discard_pile(),
                "discard_slots": list(self._discard),
                "hands": [list(h) for h in self._hands],
                "laid": [self.laid(s) for s in range(self._n)],
                "laid_slots": [list(laid) for laid in self._laid],
                "reshuffles": self.reshuffles(),
            },
            "board": {
                "elements": list(self._element),
                "characters": [None if c < 0 else chars[c].id for c in self._char],
                "used": [int(u) for u in self._used],
            },
            "scores": {
                "scores": list(self._scores),
                "last_winner": self._last_winner,
                "winners": self._winners,
            },
        }

    def to_json(self, seat: int | None = None) -> dict[str, Any]:
        view = self if seat is None else self.observation(seat)
        return {
            "game": self.game.name,
            "seats": self._n,
            "viewer": view.viewer,
            "game_number": self._game_no,
            "turns": self._turns,
            "turn": self._seat,
            "phase": PHASE_NAMES[self._phase],
            "decision": dataclasses.asdict(view.decision()),
            "hands": [view.hand(s) for s in range(self._n)],
            "laid": [self.laid(s) for s in range(self._n)],
            "elements": {g: self.element_owner(g) for g in self._rules.element_names},
            "characters": [self.character(s) for s in range(self._n)],
            "deck": len(self._deck),
            "discard": self.discard_pile(),
            "unseen": view.unseen_cards(),
            "scores": self.scores(),
            "winners": self.winners(),
        }

    def __repr__(self) -> str:
        d = self.decision()
        return f"<getgem {self._n} seats, turn {self._turns}, {d.kind} by {d.seat}>"
