"""A position of Gammasphere TCG Prototype 3, or one seat's replica of it.

Each seat has its own deck (DESIGN.md §9) and five more zones: its hand (secret), its field
(characters and buildings), its Pylons, its gear (weapons, each held by an entity) and its
discard pile. Per-card state lives in lists by slot: mode, tapped, current level, the weapon
an entity holds and the entity a weapon is attached to, and modifiers (permanent and this
turn's); every stat is derived from them (`attack`, `defense`), never stored.

The turn (rulebook lines 26–30, rules.md for the choices): untap, draw (none on the game's
first turn; an empty deck loses), gain gas, then any number of plays, attacks and mode
switches, then the end: discard down to the hand limit, and the other seat's turn.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, get_args

from p2pcards import interpreter
from p2pcards.abilities import Cost, Effect
from p2pcards.decks import deck_rows
from p2pcards.digest import Canonical
from p2pcards.engine import CHANCE, TERMINAL, Action
from p2pcards.errors import IllegalActionError
from p2pcards.games.gammasphere.actions import (
    DIRECT,
    END,
    Activate,
    Attack,
    Concede,
    Discard,
    End,
    Play,
    Switch,
)
from p2pcards.games.gammasphere.cards import (
    BATTLE_PROOF,
    CANNOT_ATTACK,
    KEYWORD_BITS,
    UNATTACKABLE,
    Card,
)
from p2pcards.games.gammasphere.rules import (
    DECK_SIZE,
    HAND_LIMIT,
    HAND_SIZE,
    HIGHEST_LEVEL,
    INCOME,
    LOWEST_LEVEL,
    POWER,
    REFINERY,
    REFINERY_INCOME,
    START_GAS,
)
from p2pcards.interpreter import (
    Ask,
    Bonus,
    CardBook,
    Facts,
    Frame,
    Modifiers,
    player,
)
from p2pcards.zones import (
    UNKNOWN,
    SlotColumn,
    SlotColumns,
    Step,
    Zone,
    ZoneRules,
    ZoneState,
    own_decks,
)

Phase = Literal["deal", "draw", "main", "discard", "over"]
Then = Literal["main", "end"]
PHASE_CODES = {phase: code for code, phase in enumerate(get_args(Phase))}
THEN_CODES = {then: code for code, then in enumerate(get_args(Then))}
"""Phases and `Then`s as numbers in the search key, which holds ints and tuples only."""

# Zones of one seat, at seat * PER_SEAT + offset.
DECK, HAND, FIELD, PYLONS, GEAR, DISCARD = range(6)
PER_SEAT = 6
ATTACK_MODE, DEFENSE_MODE = 0, 1


def zone_of(seat: int, offset: int) -> int:
    """The index of a seat's zone (DECK, HAND, FIELD, PYLONS, GEAR, DISCARD)."""
    return seat * PER_SEAT + offset


LAYOUT = tuple(
    zone
    for seat in (0, 1)
    for zone in (
        Zone(f"deck:{seat}", seat, "nobody"),
        Zone(f"hand:{seat}", seat, "owner"),
        Zone(f"field:{seat}", seat, "everyone"),
        Zone(f"pylons:{seat}", seat, "everyone"),
        Zone(f"gear:{seat}", seat, "everyone"),
        Zone(f"discard:{seat}", seat, "everyone"),
    )
)

# The menu's actions, made once each: a search lists the same ones at node after node, and
# making a frozen dataclass costs several times the look-up. Actions are immutable, so any
# holder may share them.
_PLAY = functools.cache(Play)
_ATTACK = functools.cache(Attack)
_SWITCH = functools.cache(Switch)
FIELD_ZONES = (zone_of(0, FIELD), zone_of(1, FIELD))
PLAY_ZONES = tuple(zone_of(seat, offset) for seat in (0, 1) for offset in (FIELD, PYLONS, GEAR))

# Every column copy on write (`_claim`): a step of a search changes few of them.
SLOT_COLUMNS = SlotColumns(
    SlotColumn("_mode", ATTACK_MODE, copy_on_write=True),
    SlotColumn("_tapped", False, copy_on_write=True),
    SlotColumn("_switched", False, copy_on_write=True),  # switched mode this turn (rules.md)
    SlotColumn("_level", 0, copy_on_write=True),
    SlotColumn("_holder", -1, copy_on_write=True),  # a weapon's entity
    SlotColumn(
        "_weapon",
        -1,
        unkeyed_because="an entity's weapon is the weapon it is the holder of: _holder has it",
        copy_on_write=True,
    ),
    SlotColumn("_atk_p", 0, copy_on_write=True),  # modifiers while in play
    SlotColumn("_def_p", 0, copy_on_write=True),
    SlotColumn("_atk_t", 0, this_turn=True, copy_on_write=True),  # and this turn's
    SlotColumn("_def_t", 0, this_turn=True, copy_on_write=True),
    SlotColumn("_kw_p", 0, copy_on_write=True),  # keywords granted while in play
    SlotColumn("_kw_t", 0, this_turn=True, copy_on_write=True),  # and this turn
    SlotColumn("_used", 0, copy_on_write=True),  # activated abilities used this turn, a bit each
)
"""Per-card state; the order is the digest's (`slot_rows`)."""

_UNIQUE_ZONES = tuple(zone_of(seat, z) for z in (FIELD, GEAR) for seat in (0, 1))
"""Where a unique card may be only once, across both sides (line 9)."""
_WORKING = tuple((seat, (zone_of(seat, FIELD), zone_of(seat, GEAR))) for seat in (0, 1))
"""Each seat's zones whose cards' abilities work, in the order their triggers resolve."""
_WORKING_ZONES = tuple(z for _, zones in _WORKING for z in zones)


OWN_VERBS = frozenset({"level", "mode", "tap", "untap"})
"""The verbs only this game's board carries (the others are the interpreter's)."""


class Stats(NamedTuple):
    """An entity's attack and defense."""

    attack: int
    defense: int

    def plus(self, bonus: Bonus) -> Stats:
        """With the static abilities' bonus, never below 0."""
        return Stats(max(0, self.attack + bonus.attack), max(0, self.defense + bonus.defense))


class SeatTotals(NamedTuple):
    """A seat's public numbers and its field summed: the attack of its characters in Attack
    Mode, the defense of its characters, and that of its buildings."""

    power: int  # as `GammaState.power` has it
    gas: int
    pylons: int
    hand: int
    deck: int
    attack: int
    defense: int
    walls: int


seat_totals_of = functools.partial(tuple.__new__, SeatTotals)
"""SeatTotals made of a tuple in one call in C (its class's own `__new__` and `_replace` are
calls in Python): at every leaf of a search."""
AttackDefense = tuple[int, int]
"""A card's attack and defense as `seat_totals` maps them for a leaf of a search: a bare
pair, read by unpacking (`attack, defense = stats[slot]`). Even a cached `Stats` cost a
search 2% of its instructions, at every card of every leaf."""


@dataclass(frozen=True, slots=True)
class Options:
    """Table options: the round cap (one turn of each seat; None: none)."""

    round_cap: int | None


class GammaRules(ZoneRules):
    """The card database with the per-kind tables the rules read."""

    def __init__(self, game: Any, cards: Sequence[Card], deck_model: Any) -> None:
        super().__init__(game, cards, deck_model)
        self.cards = tuple(cards)
        # A card's tribe is the first word of its type line (a race: protoss, saiyan, ...).
        self.book = CardBook.of(
            [c.abilities for c in cards],
            [Facts(c.id, c.type, c.types[:1]) for c in cards],
            KEYWORD_BITS,
            what_types={"entity": frozenset({"character", "building"})},
            seat_order="controller_first",
            hidden_in_play=False,
        )


class GammaState(ZoneState):
    """A position of Gammasphere, or one seat's replica of it."""

    __slots__ = (
        "_ask",
        "_book",
        "_deals",
        "_frames",
        "_gas",
        "_options",
        "_phase",
        "_power",
        "_rules_g",
        "_then",
        "_turn",
        "_winners",
        *SLOT_COLUMNS.names,
    )  # fmt: skip

    slot_columns = SLOT_COLUMNS
    share_pools = True  # copy on write (`ZoneState.share_pools`): no other name for a pool
    play_zones = PLAY_ZONES
    _mode: list[int]
    _tapped: list[bool]
    _switched: list[bool]
    _level: list[int]
    _holder: list[int]
    _weapon: list[int]
    _atk_p: list[int]
    _def_p: list[int]
    _atk_t: list[int]
    _def_t: list[int]
    _kw_p: list[int]
    _kw_t: list[int]
    _used: list[int]

    def __init__(
        self, rules: GammaRules, options: Options, decks: Sequence[Sequence[int] | None]
    ) -> None:
        """`decks`: each seat's card counts, None for a deck this state may not know."""
        super().__init__(rules, 2, LAYOUT, own_decks(decks, DECK_SIZE), private_decks=True)
        self._rules_g = rules
        self._book = rules.book
        self._options = options
        self._frames: list[Frame] = []
        self._ask: Ask | None = None
        self._then: Then = "main"
        self._gas = [START_GAS, START_GAS]
        self._power = [POWER, POWER]
        self._turn = 0
        self._phase: Phase = "deal"
        self._deals = [0] * HAND_SIZE + [1] * HAND_SIZE
        self._winners: tuple[int, ...] | None = None
        self._deal_next()

    # ------------------------------------------------------------------ queries

    def hand_size(self, seat: int) -> int:
        """How many cards a seat holds (public): by the zone's index, not its name, since an
        evaluation reads it at every leaf."""
        return len(self._zones[seat * PER_SEAT + HAND])  # zone_of, inlined: every leaf

    def deck_size(self, seat: int) -> int:
        """How many cards are left in a seat's deck (public)."""
        return len(self._zones[seat * PER_SEAT + DECK])  # zone_of, inlined: every leaf

    @property
    def rules(self) -> GammaRules:
        """The game's static tables (its cards)."""
        return self._rules_g

    @property
    def options(self) -> Options:
        """The table's options."""
        return self._options

    def kind(self, card: str) -> Card:
        """A card of the set by id."""
        return self._rules_g.cards[self._kind(card)]

    def phase(self) -> Phase:
        """Where in the turn the game is."""
        return self._phase

    def turn(self) -> int:
        """The turn number (1 is the first player's first turn; 0 while dealing)."""
        return self._turn

    def gas(self, seat: int) -> int:
        """A seat's Vespene Gas (public)."""
        return self._gas[seat]

    def power(self, seat: int) -> int:
        """A seat's Power Level (public): 0 at the least, where the seat has lost (line 24),
        however far past it the last hit went."""
        return max(0, self._power[seat])

    def card(self, slot: int) -> Card:
        """The card in a slot this state knows."""
        k = self._ident[slot]
        if k == UNKNOWN:
            raise IllegalActionError(f"slot {slot} holds a card this state does not know")
        return self._rules_g.cards[k]

    def field(self, seat: int) -> list[int]:
        """A seat's characters and buildings, in the order they came into play."""
        return list(self._zones[zone_of(seat, FIELD)])

    def characters(self, seat: int) -> list[int]:
        """A seat's characters in play."""
        return self._of_kind(seat, "character")

    def buildings(self, seat: int) -> list[int]:
        """A seat's buildings in play."""
        return self._of_kind(seat, "building")

    def field_kinds(self, seat: int) -> tuple[list[int], list[int]]:
        """A seat's characters and its buildings in play, in one pass over its field: what an
        evaluation reads at every leaf."""
        kinds, ident = self._book.kinds, self._ident
        characters, buildings = kinds["character"], kinds["building"]
        found: tuple[list[int], list[int]] = ([], [])
        for s in self._zones[seat * PER_SEAT + FIELD]:
            k = ident[s]
            if k in characters:
                found[0].append(s)
            elif k in buildings:
                found[1].append(s)
        return found

    def pylon_count(self, seat: int) -> int:
        """How many Pylons a seat has (no list made: an evaluation reads it at every leaf)."""
        return len(self._zones[seat * PER_SEAT + PYLONS])

    def _of_kind(self, seat: int, what: str) -> list[int]:
        # By the book's kinds of each type: read at every node (attacks, the evaluation).
        kinds, ident = self._book.kinds[what], self._ident
        return [s for s in self._zones[seat * PER_SEAT + FIELD] if ident[s] in kinds]

    def pylons(self, seat: int) -> list[int]:
        """A seat's Pylons."""
        return list(self._zones[zone_of(seat, PYLONS)])

    def jiggawatts(self, seat: int) -> int:
        """How many Jiggawatts a seat can pay now: its untapped Pylons (line 20)."""
        tapped = self._tapped  # a loop, no generator: read for every menu
        untapped = 0
        for s in self._zones[seat * PER_SEAT + PYLONS]:
            if not tapped[s]:
                untapped += 1
        return untapped

    def mode(self, slot: int) -> int:
        """ATTACK_MODE or DEFENSE_MODE."""
        return self._mode[slot]

    def tapped(self, slot: int) -> bool:
        """Whether a card in play is tapped."""
        return self._tapped[slot]

    def level(self, slot: int) -> int:
        """A character's current level."""
        return self._level[slot]

    def weapon_of(self, slot: int) -> int:
        """The weapon an entity holds (-1: none)."""
        return self._weapon[slot]

    def attack(self, slot: int, *, statics: bool = True) -> int:
        """A character's attack: printed, moved by its level (line 15), plus its weapon's
        bonus, its modifiers and the static abilities in play; never below 0."""
        value = self._unmodified(slot).attack
        if statics:
            value += interpreter.static_bonus(self, slot).attack
        return max(0, value)

    def defense(self, slot: int) -> int:
        """A character's or building's defense, as `attack` (line 16)."""
        return max(0, self._unmodified(slot).defense + interpreter.static_bonus(self, slot).defense)

    def stats(self, slot: int) -> Stats:
        """Attack and defense at once: the static abilities read once, not twice."""
        return self._unmodified(slot).plus(interpreter.static_bonus(self, slot))

    def field_stats(self) -> dict[int, AttackDefense]:
        """`stats` of every character and building on the field, the static abilities read
        once for them all."""
        out: dict[int, AttackDefense] = {}
        self.seat_totals(out)
        return out

    def seat_totals(
        self, stats: dict[int, AttackDefense] | None = None, keywords: dict[int, int] | None = None
    ) -> tuple[SeatTotals, SeatTotals]:
        """Each seat's `SeatTotals` (what an evaluation reads at every leaf of a search), and
        into `stats`, if given, `stats` of every character and building on the field, into
        `keywords` the keyword bits of each (as `has` reads them): one pass for all, the
        static abilities worked out once. Written for few steps, this being a third of a
        leaf's cost: `_unmodified` and `Stats.plus` inlined, no bonus looked up where no
        static ability is in force, `x if x > 0 else 0` for max()."""
        bonuses = interpreter.static_bonuses(self) if self._any_static() else None
        level, weapon, mode = self._level, self._weapon, self._mode
        atk_p, atk_t, def_p, def_t = self._atk_p, self._atk_t, self._def_p, self._def_t
        kw_p, kw_t = self._kw_p, self._kw_t
        card, cards, ident = self.card, self._rules_g.cards, self._ident
        characters, buildings = self._book.kinds["character"], self._book.kinds["building"]
        zones, power, gas = self._zones, self._power, self._gas
        sums = []
        for seat, z in enumerate(FIELD_ZONES):
            attacking = standing = walls = 0
            for slot in zones[z]:
                k = ident[slot]
                kind = cards[k] if k != UNKNOWN else card(slot)  # `card` says what is unknown
                levels = level[slot] - kind.level
                attack = kind.attack + kind.attack_mod * levels + atk_p[slot] + atk_t[slot]
                defense = kind.defense + kind.defense_mod * levels + def_p[slot] + def_t[slot]
                held = weapon[slot]
                if held >= 0:
                    gear = card(held)
                    attack += gear.attack
                    defense += gear.defense
                bonus = bonuses.get(slot) if bonuses else None
                if bonus is not None:
                    attack += bonus.attack
                    defense += bonus.defense
                if attack < 0:
                    attack = 0
                if defense < 0:
                    defense = 0
                if stats is not None:
                    stats[slot] = (attack, defense)
                if keywords is not None:
                    granted = kw_p[slot] | kw_t[slot]
                    keywords[slot] = granted if bonus is None else granted | bonus.keywords
                if k in characters:
                    standing += defense
                    if mode[slot] == ATTACK_MODE:
                        attacking += attack
                elif k in buildings:
                    walls += defense
            base = seat * PER_SEAT
            pylons, hand, deck = zones[base + PYLONS], zones[base + HAND], zones[base + DECK]
            left = power[seat]
            totals = seat_totals_of(
                (
                    left if left > 0 else 0, gas[seat], len(pylons), len(hand), len(deck),
                    attacking, standing, walls,
                )
            )  # fmt: skip
            sums.append(totals)
        return sums[0], sums[1]

    def _any_static(self, *, granting: bool = False) -> bool:
        """Whether a card whose abilities work has a static one (that grants a keyword, with
        `granting`): most positions have none, and then no bonus need be worked out."""
        book, ident, zones = self._book, self._ident, self._zones
        statics = book.granting if granting else book.statics
        for z in _WORKING_ZONES:  # loops, not a generator: read at every leaf
            for s in zones[z]:
                if statics[ident[s]]:
                    return True
        return False

    def _unmodified(self, slot: int) -> Stats:
        """Attack and defense before static abilities (and before the floor at 0)."""
        card = self.card(slot)
        levels = self._level[slot] - card.level
        attack = card.attack + card.attack_mod * levels + self._atk_p[slot] + self._atk_t[slot]
        defense = card.defense + card.defense_mod * levels + self._def_p[slot] + self._def_t[slot]
        weapon = self._weapon[slot]
        if weapon >= 0:
            gear = self.card(weapon)
            attack, defense = attack + gear.attack, defense + gear.defense
        return Stats(attack, defense)

    def has(self, slot: int, keyword: int) -> bool:
        """Whether a card in play has a keyword (granted, or by a static ability)."""
        if (self._kw_p[slot] | self._kw_t[slot]) & keyword:
            return True
        # Listing attacks asks this of every attacker and target: the statics that grant
        # keywords are looked for before they are worked out.
        if not self._any_static(granting=True):
            return False
        return bool(interpreter.static_keywords(self, slot) & keyword)

    def ask(self) -> Ask | None:
        """The choice an ability waits for, if any."""
        return self._ask

    def cards_in_play(self, seat: int) -> list[int]:
        """A seat's characters and buildings, then its weapons: its cards whose abilities
        work, in the order their triggers resolve."""
        return self._zones[zone_of(seat, FIELD)] + self._zones[zone_of(seat, GEAR)]

    def is_in_play(self, slot: int) -> bool:
        """Whether a card is on the field, among the Pylons, or held as a weapon."""
        return self._where[slot] % PER_SEAT in (FIELD, PYLONS, GEAR)

    def controller(self, slot: int) -> int:
        """The seat whose zone holds a slot."""
        return self._where[slot] // PER_SEAT

    def winners(self) -> tuple[int, ...] | None:
        """The seats that won (both for a draw), once the game is over."""
        return self._winners

    def returns(self) -> list[float]:
        if self._winners is None:
            return [0.0, 0.0]
        share = 1.0 / len(self._winners)
        return [share if s in self._winners else 0.0 for s in range(2)]

    # --------------------------------------------------------------- the turn

    def _deal_next(self) -> None:
        """The opening hands, one card at a time (line 25); then the first turn."""
        if self._deals:
            seat = self._deals.pop(0)
            self._ask_chance(Step("draw", zone_of(seat, DECK), zone_of(seat, HAND), 1 << seat))
            return
        self._begin_turn(0)

    def _begin_turn(self, seat: int) -> None:
        """Untap, draw (not on the game's first turn), gain gas (rules.md)."""
        self._turn += 1
        base = seat * PER_SEAT  # zone_of, inlined here and below: a step of every turn
        for offset in (FIELD, PYLONS, GEAR):
            for slot in self._zones[base + offset]:
                if self._tapped[slot]:
                    self._claim("_tapped")[slot] = False
                if self._switched[slot]:
                    self._claim("_switched")[slot] = False
                if self._used[slot]:
                    self._claim("_used")[slot] = 0
        self._current = seat
        if self._turn == 1:
            self._income(seat)
            return
        deck = zone_of(seat, DECK)
        if not self._zones[deck]:
            self._end((1 - seat,))  # it must draw and cannot: decking
            return
        self._phase = "draw"
        self._ask_chance(Step("draw", deck, zone_of(seat, HAND), 1 << seat))

    def _income(self, seat: int) -> None:
        refineries = sum(1 for s in self.buildings(seat) if self.card(s).id == REFINERY)
        self._gas[seat] += INCOME + REFINERY_INCOME * refineries
        self._phase = "main"
        self._current = seat
        interpreter.fire_all(self, "start_of_turn", (seat,))
        self._then = "main"
        self._resolve()

    def _go_on(self) -> None:
        """Every queued ability has resolved: the turn goes on where it was."""
        seat = (self._turn - 1) % 2  # turn_seat, inlined: after every step
        self._current = seat
        if self._then == "end":
            self._finish_turn(seat)

    def _after_chance(self, step: Step, slot: int, value: int) -> None:
        if self._phase == "deal":
            self._deal_next()
        elif self._phase == "draw":
            self._income(self.turn_seat())
        else:  # a card an ability drew, discarded at random, or a random target
            interpreter.after_chance(self, step, value)
            self._resolve()

    def turn_seat(self) -> int:
        """Whose turn it is (public): seat 0 on odd turns (seat 0 plays first: rules.md)."""
        return (self._turn - 1) % 2

    def _end(self, winners: tuple[int, ...]) -> None:
        self._winners = winners
        self._phase = "over"
        self._current = TERMINAL

    def _check_power(self) -> bool:
        """End the game if a Power Level reached 0 (line 24); whether it did."""
        losers = [s for s in (0, 1) if self._power[s] <= 0]
        if losers:
            self._end(tuple(s for s in (0, 1) if s not in losers) or (0, 1))
            return True
        return False

    # ------------------------------------------------------------- decisions

    def _decisions(self, cur: int) -> list[Action]:
        if self._ask is not None:
            return interpreter.ask_actions(self, self._ask)
        if self._phase == "discard":
            hand = self._zones[zone_of(cur, HAND)]
            return [Discard(s, self.card(s).id) for s in hand]
        out: list[Action] = list(self._plays(cur))
        mine = self.characters(cur)  # read once for attacks and switches
        out += self._attacks(cur, mine)
        out += [_SWITCH(s) for s in self._switchable(cur, mine)]
        out += self._activations(cur)
        out.append(END)
        return out

    def _plays(self, seat: int, only: int | None = None) -> list[Play]:
        """Every play the seat can afford now (line 29), of one hand slot if `only`."""
        out: list[Play] = []
        gas, jw = self._gas[seat], self.jiggawatts(seat)
        zones, ident, cards = self._zones, self._ident, self._rules_g.cards
        hand = zones[seat * PER_SEAT + HAND] if only is None else [only]
        in_play: set[int] | None = None  # the kinds on the field: read once a unique needs it
        listed: set[int] = set()
        for slot in hand:
            k = ident[slot]
            card = cards[k] if k != UNKNOWN else self.card(slot)  # which says what is unknown
            if card.gas > gas or card.jw > jw or k in listed:
                continue  # copies of a card are alike: the menu offers the first (any may go)
            listed.add(k)
            if card.unique:
                if in_play is None:
                    in_play = {ident[s] for z in _UNIQUE_ZONES for s in zones[z]}
                if k in in_play:
                    continue  # line 9: one copy on the field, across both sides
            if card.type == "character":
                out += [_PLAY(slot, card.id, False, None), _PLAY(slot, card.id, True, None)]
            elif card.type == "weapon":
                for host in self._zones[zone_of(seat, FIELD)]:
                    if self._weapon[host] < 0 and self.card(host).type in card.attach:
                        out.append(_PLAY(slot, card.id, False, host))
            elif card.type != "event" or all(
                interpreter.has_target(self, slot, seat, ab) for ab in card.abilities
            ):
                out.append(_PLAY(slot, card.id, False, None))
        return out

    def _switchable(self, seat: int, mine: list[int] | None = None) -> list[int]:
        """Characters that may switch mode: untapped (line 29), once a turn (rules.md);
        `mine`: the seat's characters, if the caller has them."""
        characters = self.characters(seat) if mine is None else mine
        return [s for s in characters if not self._tapped[s] and not self._switched[s]]

    def _attacks(self, seat: int, mine: list[int] | None = None) -> list[Attack]:
        """Attacks (lines 32–35, rules.md): none on the game's first turn; an untapped
        character in Attack Mode at a character, else a building, else the player; `mine`:
        the seat's characters, if the caller has them."""
        if self._turn == 1:
            return []
        attackers = [
            s
            for s in (self.characters(seat) if mine is None else mine)
            if not self._tapped[s]
            and self._mode[s] == ATTACK_MODE
            and not self.has(s, CANNOT_ATTACK)
        ]
        if not attackers:
            return []
        other = 1 - seat
        # A character that can't be attacked does not guard (rules.md, choice 27): two Shady
        # Templars would otherwise shut out every attack while they stand.
        targets = [s for s in self.characters(other) if not self.has(s, UNATTACKABLE)]
        if not targets:
            targets = [s for s in self.buildings(other) if not self.has(s, UNATTACKABLE)]
        if not targets and not self.buildings(other):
            targets = [DIRECT]
        return [_ATTACK(a, t) for a in attackers for t in targets]

    def _verify_decision(self, cur: int, action: Action) -> None:
        """The one check of a decision. It never lists the hand (another seat's replica
        cannot see it): a play or a discard is checked for its own card alone, learnt for
        the check where this state has not seen it."""
        if isinstance(action, Concede):
            return
        if self._ask is not None:
            interpreter.verify_answer(self, self._ask, action)
            return
        if isinstance(action, Play | Discard):
            self._verify_card(cur, action)
            return
        if self._phase != "main":
            raise IllegalActionError(f"{action} is not allowed in {self._phase}")
        if isinstance(action, Attack):
            legal = action in self._attacks(cur)
        elif isinstance(action, Switch):
            legal = action.slot in self._switchable(cur)
        elif isinstance(action, Activate):
            legal = action in self._activations(cur)
        else:
            legal = isinstance(action, End)
        if not legal:
            raise IllegalActionError(f"{action} is not allowed now")

    def _verify_card(self, cur: int, action: Play | Discard) -> None:
        self._check_slot(action.slot)
        if self._where[action.slot] != zone_of(cur, HAND):
            raise IllegalActionError(f"slot {action.slot} is not in seat {cur}'s hand")
        k = self._kind(action.card)
        self._check_learnable(action.slot, k)
        unseen = self._ident[action.slot] == UNKNOWN
        self._ident[action.slot] = k
        try:
            if isinstance(action, Discard):
                legal = self._phase == "discard"
            else:
                legal = self._phase == "main" and action in self._plays(cur, only=action.slot)
        finally:
            if unseen:
                self._ident[action.slot] = UNKNOWN
        if not legal:
            raise IllegalActionError(f"{action} is not allowed now")

    def _apply(self, action: Action) -> None:
        if self._current == CHANCE:
            self._apply_outcome(action)
            return
        seat = self._current
        if isinstance(action, Concede):
            self._end((1 - seat,))
        elif self._ask is not None:
            ask, self._ask = self._ask, None
            interpreter.answer(self, ask, action)
            self._resolve()
        # The kinds of action by how often a search makes them, so that few are tried.
        elif isinstance(action, Play):
            self._play(seat, action)
        elif isinstance(action, End):
            interpreter.fire_all(self, "end_of_turn", (seat,))
            self._then = "end"
            self._resolve()
        elif isinstance(action, Attack):
            self._attack(seat, action)
        elif isinstance(action, Switch):
            self._claim("_mode")[action.slot] ^= 1
            self._claim("_switched")[action.slot] = True
        elif isinstance(action, Activate):
            interpreter.activate(self, action.slot, action.ability)
            self._resolve()
        elif isinstance(action, Discard):
            self._show(action.slot, action.card, 3)
            self._move(action.slot, zone_of(seat, DISCARD))
            self._finish_turn(seat)

    def _pay(self, seat: int, card: Card) -> None:
        """Gas, and Jiggawatts by tapping that many untapped Pylons (line 9, line 20)."""
        self._gas[seat] -= card.gas
        self._tap_pylons(seat, card.jw)

    def _tap_pylons(self, seat: int, owed: int) -> None:
        """Pay Jiggawatts: all Pylons are alike, so the first untapped ones."""
        if not owed:
            return
        tapped = self._claim("_tapped")
        for slot in self._zones[seat * PER_SEAT + PYLONS]:  # zone_of, inlined: every play
            if owed and not tapped[slot]:
                tapped[slot] = True
                owed -= 1

    def _play(self, seat: int, play: Play) -> None:
        slot = play.slot
        self._show(slot, play.card, 3)
        card = self.card(slot)
        self._pay(seat, card)
        if card.type == "pylon":
            self._move(slot, zone_of(seat, PYLONS))
            if self._tapped[slot]:
                self._claim("_tapped")[slot] = False
        elif card.type == "event":
            self._move(slot, zone_of(seat, DISCARD))  # its ability resolves from there
        elif card.type == "weapon":
            assert play.host is not None
            self._move(slot, zone_of(seat, GEAR))
            self._claim("_holder")[slot] = play.host
            self._claim("_weapon")[play.host] = slot
        else:
            self._move(slot, zone_of(seat, FIELD))
            self._claim("_mode")[slot] = DEFENSE_MODE if play.defense else ATTACK_MODE
            if self._tapped[slot]:
                self._claim("_tapped")[slot] = False
            self._claim("_level")[slot] = card.level
        if card.type != "pylon":
            interpreter.fire_played(self, slot, seat)
            self._resolve()

    def _attack(self, seat: int, attack: Attack) -> None:
        """Lines 35–39 and rules.md: the attacker taps; the outcome by mode and values."""
        attacker, target = attack.attacker, attack.target
        self._claim("_tapped")[attacker] = True
        other = 1 - seat
        power = self.attack(attacker)
        if target == DIRECT:
            self._power[other] -= power
        elif self.card(target).type == "building" or self._mode[target] == DEFENSE_MODE:
            guard = self.defense(target)
            if guard < power:
                self._fall(target)
            elif guard > power:
                self._power[seat] -= guard - power
        else:
            theirs = self.attack(target)
            if theirs < power:
                self._fall(target)
                self._power[other] -= power - theirs
            elif theirs > power:
                self._fall(attacker)
                self._power[seat] -= theirs - power
            else:
                self._fall(target)
                self._fall(attacker)
        if not self._check_power():
            self._resolve()

    def _fall(self, slot: int) -> None:
        """Destroyed by an attack, unless it can't be (battle_proof)."""
        if not self.has(slot, BATTLE_PROOF):
            self._destroy(slot)

    def _destroy(self, slot: int) -> None:
        """An entity leaves play for its owner's discard pile, with its weapon (rules.md)."""
        weapon = self._weapon[slot]
        if weapon >= 0:
            self._destroy(weapon)
        holder = self._holder[slot]
        if holder >= 0:
            self._claim("_weapon")[holder] = -1
        seat = self.controller(slot)
        self._move(slot, zone_of(self._home[slot], DISCARD))
        self._reset_slot(slot)
        interpreter.fire(self, slot, "destroyed", seat)

    def _return(self, slot: int) -> None:
        """An entity goes back to its owner's hand (its weapon to the discard pile)."""
        weapon = self._weapon[slot]
        if weapon >= 0:
            self._destroy(weapon)
        holder = self._holder[slot]
        if holder >= 0:
            self._claim("_weapon")[holder] = -1
        self._move(slot, zone_of(self._home[slot], HAND))
        self._reset_slot(slot)

    def _finish_turn(self, seat: int) -> None:
        """The hand limit (line 25), this turn's modifiers gone, the next turn (or the cap)."""
        if len(self._zones[zone_of(seat, HAND)]) > HAND_LIMIT:
            self._phase = "discard"
            return
        self._end_turn_columns()
        cap = self._options.round_cap
        if cap is not None and self._turn >= 2 * cap:  # rounds: one turn of each seat
            mine, theirs = self._power
            self._end((0,) if mine > theirs else (1,) if theirs > mine else (0, 1))
            return
        self._begin_turn(1 - seat)

    def _change_level(self, slot: int, by: int) -> None:
        """A level moves only by effects, within 1..10 (line 14, rules.md)."""
        level = self._claim("_level")
        level[slot] = max(LOWEST_LEVEL, min(HIGHEST_LEVEL, level[slot] + by))

    # ------------------------------------------- the abilities (p2pcards/interpreter.py)

    def _resolve(self) -> None:
        """Resolve queued abilities until one asks a seat, needs the dealer, or all are done
        (a Power Level at 0 ends the game after any effect); then the turn goes on."""
        while self._frames and self._winners is None:
            if self._ask is not None or self._chance is not None:
                return
            interpreter.step(self)
            if self._check_power():
                return
        if self._winners is None and self._ask is None and self._chance is None:
            self._go_on()

    def _activations(self, seat: int) -> list[Activate]:
        return [Activate(a.slot, a.ability) for a in interpreter.activations(self, seat)]

    def in_play(self, seat: int | None = None) -> list[tuple[int, list[int]]]:
        """Every card whose abilities work (of one seat, if given), as (controller, slots):
        seat by seat, the field then the weapons."""
        zones = self._zones
        sides = _WORKING if seat is None else (_WORKING[seat],)
        return [(side, zones[field] + zones[gear]) for side, (field, gear) in sides]

    def pool(self, seat: int, what: str) -> list[int]:
        """A seat's cards in play that are a `what` (Pylons apart; `hand_card`: the hand)."""
        if what == "hand_card":
            return self._zones[zone_of(seat, HAND)]
        zones = self._zones  # no copy of the Pylons: a condition counts them at every leaf
        pile = zones[seat * PER_SEAT + PYLONS] if what == "pylon" else self.cards_in_play(seat)
        kinds, ident = self._book.kinds.get(what, frozenset()), self._ident
        return [s for s in pile if ident[s] in kinds]

    def face_down(self, slot: int) -> bool:
        """No card in play is face down in Gammasphere."""
        return False

    def stat(self, slot: int, name: str, raw: bool) -> int:
        """Attack or defense (`raw`: without the static abilities)."""
        if name == "attack":
            return self.attack(slot, statics=not raw)
        return max(0, self._unmodified(slot).defense) if raw else self.defense(slot)

    def attached_to(self, slot: int) -> int:
        """The entity a weapon is attached to (-1: none)."""
        return self._holder[slot]

    def lane_of(self, slot: int) -> int:
        """Gammasphere has no lanes."""
        return -1

    def lane_card(self, seat: int, lane: int) -> int:
        """Gammasphere has no lanes."""
        return -1

    def in_mode(self, slot: int, mode: str) -> bool:
        """Whether a character is in Attack or Defense Mode."""
        return self._mode[slot] == (ATTACK_MODE if mode == "attack" else DEFENSE_MODE)

    def life(self, seat: int) -> int:
        """A seat's Power Level, as the condition `life_at_most` reads it."""
        return self._power[seat]

    def hurt(self, target: int, amount: int, source: int) -> None:
        """A player loses Power Level (the loader lets `damage` reach players only)."""
        self._power[player(target)] -= amount

    def heal(self, target: int, amount: int | None) -> None:
        """A player gains Power Level, up to 9000 (rules.md, choice 28)."""
        seat = player(target)
        self._power[seat] = POWER if amount is None else min(POWER, self._power[seat] + amount)

    def destroy(self, slot: int) -> None:
        """An ability destroys a card in play."""
        self._destroy(slot)

    def bounce(self, slot: int) -> None:
        """An ability returns a card in play to its owner's hand."""
        self._return(slot)

    def modifiers(self, permanent: bool) -> Modifiers:
        """Attack, defense and keywords given while in play, or this turn."""
        claim = self._claim  # the caller changes them (copy on write: SLOT_COLUMNS)
        if permanent:
            return Modifiers(claim("_atk_p"), claim("_def_p"), claim("_kw_p"))
        return Modifiers(claim("_atk_t"), claim("_def_t"), claim("_kw_t"))

    def gain(self, seat: int, amount: int) -> None:
        """Vespene Gas an ability gives."""
        self._gas[seat] += amount

    def deck_out(self, seat: int) -> bool:
        """Drawing from an empty deck loses, as at the start of a turn (rules.md)."""
        self._end(tuple(s for s in range(self._n) if s != seat))
        return False

    def own_effect(self, f: Frame, e: Effect) -> bool:
        """The verbs of characters, buildings and Pylons: level, mode, tap, untap."""
        if e.do not in OWN_VERBS:
            raise AssertionError(e.do)  # the loader lets no other verb in (cards.WORDS)
        for t in f.targets:
            if t < 0 or not self.is_in_play(t):
                continue
            is_character = self.card(t).type == "character"
            if e.do == "level" and is_character:
                self._change_level(t, e.amount if isinstance(e.amount, int) else 0)
            elif e.do == "mode" and is_character:
                self._claim("_mode")[t] ^= 1
            elif e.do in ("tap", "untap"):
                self._claim("_tapped")[t] = e.do == "tap"
        return True

    def own_ask_actions(self, ask: Ask) -> list[Action]:
        """Gammasphere's abilities ask nothing beyond the shared questions."""
        raise AssertionError(ask)

    def verify_own_answer(self, ask: Ask, action: Action) -> None:
        """Gammasphere's abilities ask nothing beyond the shared questions."""
        raise AssertionError(ask)

    def own_answer(self, ask: Ask, action: Action) -> None:
        """Gammasphere's abilities ask nothing beyond the shared questions."""
        raise AssertionError(ask)

    def can_pay(self, slot: int, cost: Cost) -> bool:
        """Whether an activated ability's cost can be paid now."""
        if cost.tap and self._tapped[slot]:
            return False
        if cost.holder_tap:
            holder = self._holder[slot]
            if holder < 0 or self._tapped[holder]:
                return False
        seat = self.controller(slot)
        return cost.resource <= self._gas[seat] and cost.jiggawatts <= self.jiggawatts(seat)

    def pay(self, slot: int, cost: Cost) -> None:
        """Tap this card or its holder, pay gas and Jiggawatts."""
        seat = self.controller(slot)
        if cost.tap:
            self._claim("_tapped")[slot] = True
        if cost.holder_tap:
            self._claim("_tapped")[self._holder[slot]] = True
        self._gas[seat] -= cost.resource
        self._tap_pylons(seat, cost.jiggawatts)

    def used(self, slot: int) -> int:
        """The activated abilities of a card used this turn, one bit each."""
        return self._used[slot]

    def mark_used(self, slot: int, index: int) -> None:
        """An activated ability was used this turn."""
        self._claim("_used")[slot] |= 1 << index

    def _frames_public(self) -> list[list[int]]:
        """The queue for digests, as it was digested before the one interpreter: a draw,
        discard or search being asked counted its stage when asked, not when answered."""
        rows = []
        waiting = self._ask is not None or self._chance is not None
        for i, f in enumerate(self._frames):
            stage = f.stage
            if i == 0 and waiting and f.effect < len(interpreter.ability(self, f).effects):
                stage += interpreter.current_effect(self).do in ("draw", "discard", "search")
            rows.append(
                [f.source, f.kind, f.ability, f.controller, f.effect, int(f.picked), stage,
                 *f.targets]
            )  # fmt: skip
        return rows

    @staticmethod
    def _ask_public(ask: Ask) -> list[Any]:
        """A question for digests (a discard's options are the hand, public as a zone)."""
        options = () if ask.kind == "discard" else ask.options
        return [ask.kind, ask.seat, list(options)]

    # ------------------------------------------------------- copies and views

    def clone(self) -> GammaState:
        other = self._clone_zones()
        other._rules_g = self._rules_g
        other._book = self._book
        other._options = self._options
        other._frames = self._frames[:]
        other._ask = self._ask
        other._then = self._then
        other._gas = self._gas[:]
        other._power = self._power[:]
        other._turn = self._turn
        other._phase = self._phase
        other._deals = self._deals[:]
        other._winners = self._winners
        return other

    def public_sections(self) -> dict[str, Canonical]:
        return {
            "turn": {
                "turn": self._turn,
                "phase": self._phase,
                "current": self._current,
                "deals": list(self._deals),
                "then": self._then,
                "ask": None if self._ask is None else self._ask_public(self._ask),
                "frames": self._frames_public(),
                "winners": None if self._winners is None else list(self._winners),
            },
            "zones": self.zones_public(),
            "play": self.slot_rows(),
            "players": {"gas": list(self._gas), "power": list(self._power)},
        }

    def to_json(self, seat: int | None = None) -> dict[str, Any]:
        if seat is not None:
            self._check_seat(seat)
        sections = self.public_sections()
        sections["cards"] = self.zones_json(seat)
        return dict(sections)

    def search_key(self) -> Hashable:
        return (
            *self._cards_key(),
            tuple(self._frames),
            interpreter.ask_key(self._ask),
            THEN_CODES[self._then],
            tuple(self._gas),
            tuple(self._power),
            self._turn,
            PHASE_CODES[self._phase],
            tuple(self._deals),
            self._current,
            -1 if self._winners is None else self._winners,
        )

    def __str__(self) -> str:
        return f"<Gammasphere turn {self._turn} {self._phase}, power {self._power}>"


def new_state(
    rules: GammaRules, decks: Sequence[Mapping[str, int] | None], options: Options
) -> GammaState:
    """A table at the first deal: the two decks as card counts by id (None: not known here)."""
    return GammaState(rules, options, deck_rows(rules.card_index, decks))
