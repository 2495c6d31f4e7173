"""The rules of Rise of the Guys as a state machine (its rulebook in
our reading of its open points: docs/rules/rise-of-the-guys.md).

The cards are slots in zones (p2pcards/zones.py): per seat a deck, a hand, a discard pile,
the Vest, the Pins on Guys and four lanes, plus one zone where tokens go when they leave
play. What a card is doing lives in per-slot lists (damage taken this turn, modifiers,
keywords granted, prepared, the Guy a Pin is on); its attack and health are derived when
read (base + modifiers + static abilities in force), never stored twice.

The turn runs through `_run`: abilities being resolved first (`_frames`, by the one
interpreter, p2pcards/interpreter.py), then the turn's structure (draws, the three play
phases, reveals, combat lane by lane, end of turn). It stops wherever a seat must decide
(`_ask`, or a phase's plays) or the dealer must deal (`_chance`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, get_args

from p2pcards import interpreter
from p2pcards.abilities import Effect
from p2pcards.decks import deck_rows
from p2pcards.digest import Canonical
from p2pcards.engine import CHANCE, TERMINAL, Action, Game
from p2pcards.errors import IllegalActionError
from p2pcards.games.rise_of_the_guys.actions import (
    DECLINE,
    PASS,
    Concede,
    Decline,
    Lane,
    Mulligan,
    Order,
    Pass,
    Play,
    Prepare,
    Reveal,
    orders,
)
from p2pcards.games.rise_of_the_guys.rules import (
    DECK_SIZE,
    HAND_SIZE,
    LANES,
    LIFE,
    OVERARCH,
    PATIENT,
    SNEAKY,
    STINKY,
    STINKY_FACE_DOWN,
    UNHURTABLE,
    GuyRules,
)
from p2pcards.interpreter import NO_BONUS, Ask, Bonus, Frame, Modifiers, player
from p2pcards.seats import seats_from
from p2pcards.slots import UNKNOWN
from p2pcards.zones import SlotColumn, SlotColumns, Step, Zone, ZoneState, own_decks

Phase = Literal[
    "setup", "mulligan", "start", "lead", "react", "counter", "reveal", "combat", "end", "over"
]
PHASE_CODES = {phase: code for code, phase in enumerate(get_args(Phase))}
"""Phases as numbers in the search key, which holds ints and tuples only."""

# Zones of one seat, at seat * PER_SEAT + offset; the last zone holds tokens gone from play.
DECK, HAND, DISCARD, VEST, PINS, LANE0 = 0, 1, 2, 3, 4, 5
PER_SEAT = LANE0 + LANES


def zone_of(seat: int, offset: int) -> int:
    """The index of a seat's zone (DECK, HAND, ... or LANE0 + lane)."""
    return seat * PER_SEAT + offset


def _layout() -> list[Zone]:
    zones: list[Zone] = []
    for seat in range(2):
        zones += [
            Zone(f"deck:{seat}", seat, "nobody"),
            Zone(f"hand:{seat}", seat, "owner"),
            Zone(f"discard:{seat}", seat, "everyone"),
            Zone(f"vest:{seat}", seat, "everyone"),
            Zone(f"pins:{seat}", seat, "everyone"),
        ]
        zones += [Zone(f"lane:{seat}:{lane}", seat, "everyone") for lane in range(LANES)]
    zones.append(Zone("gone", None, "everyone"))
    return zones


LAYOUT = tuple(_layout())
# The menu's actions, made once each: a search lists the same ones at node after node, and
# making a frozen dataclass costs several times the look-up. Actions are immutable, so any
# holder may share them.
_PLAY = functools.cache(Play)
_PREPARE = functools.cache(Prepare)
LANE_ZONES = tuple(tuple(zone_of(seat, LANE0 + lane) for lane in range(LANES)) for seat in (0, 1))
ALL_LANE_ZONES = LANE_ZONES[0] + LANE_ZONES[1]
_LANE_PAIRS = tuple(zip(*LANE_ZONES, strict=True))
SIDE_ZONES = tuple(
    tuple(zone_of(seat, offset) for offset in (*range(LANE0, PER_SEAT), VEST, PINS))
    for seat in (0, 1)
)
"""A side's zones in play, in the order its simultaneous triggers resolve."""
PLAY_ZONES = tuple(
    zone_of(seat, offset) for seat in (0, 1) for offset in (VEST, PINS, *range(LANE0, PER_SEAT))
)
SLOT_COLUMNS = SlotColumns(
    SlotColumn("_damage", 0, this_turn=True),  # damage taken this turn
    SlotColumn("_atk", 0),  # attack and health modifiers while in play
    SlotColumn("_hp", 0),
    SlotColumn("_atk_t", 0, this_turn=True),  # and this turn's
    SlotColumn("_hp_t", 0, this_turn=True),
    SlotColumn("_kw", 0),  # keywords granted while in play
    SlotColumn("_kw_t", 0, this_turn=True),  # and this turn
    SlotColumn("_prepared", False, this_turn=True),
    SlotColumn("_host", -1),  # the Guy a Pin is on
    SlotColumn(
        "_free",
        False,
        unkeyed_because="no rule reads it: a free play's cost is in the turn's Spend log",
    ),
)
"""Per-card state; the order is the digest's (`slot_rows`)."""
_NEXT_PHASE: dict[Phase, Phase] = {"lead": "react", "react": "counter", "counter": "reveal"}
GONE = len(LAYOUT) - 1
_PLAY_ZONE_SET = frozenset(PLAY_ZONES)


OWN_VERBS = frozenset({"move", "loot", "token", "play_free", "handler"})
"""The verbs only this game's board carries (the others are the interpreter's)."""


class Spend(NamedTuple):
    """One entry of a seat's energy this turn: a play's `cost` (face-down plays name their
    `slot`, cost unknown to the opponent until revealed; `free` if played for free), or a
    gain (`cost` negative)."""

    cost: int
    slot: int = -1
    free: bool = False


class BoardSums(NamedTuple):
    """A seat's Guys summed as a state sees them, with its public counts: what an evaluation
    reads of the board. Counts of Guys and stats are floats, for an evaluation to weigh."""

    attack: float  # of its Guys face up or known here (static abilities in)
    health: float  # their health left
    hidden: float  # its face-down Guys this state does not know
    pressure: float  # the attack of its unprepared Guys no Guy opposes: the next combat's
    kills: float  # its unprepared Guys that kill the face-up Guy opposite at the next combat
    life: int
    hand: int
    deck: int
    vest: bool  # whether a Pin is in its Vest


_UNSEEN_GUY = (True, 0, 0, False)
"""A face-down Guy this state does not know, in `board_sums`' lane reading."""


@dataclass(frozen=True, slots=True)
class Options:
    """Table options: the turn cap (None: none)."""

    round_cap: int | None


class GuysState(ZoneState):
    """A position of Rise of the Guys, or one seat's replica of it."""

    __slots__ = (
        "_ask", "_book", "_draws", "_energy", "_first", "_frames", "_hurt", "_lane", "_leader",
        "_life", "_log", "_options", "_phase", "_public", "_rules_g", "_spent", "_turn",
        "_winners",
        *SLOT_COLUMNS.names,
    )  # fmt: skip

    slot_columns = SLOT_COLUMNS
    share_pools = True  # copy on write (`ZoneState.share_pools`): no other name for a pool
    play_zones = PLAY_ZONES
    _damage: list[int]
    _atk: list[int]
    _hp: list[int]
    _atk_t: list[int]
    _hp_t: list[int]
    _kw: list[int]
    _kw_t: list[int]
    _prepared: list[bool]
    _host: list[int]
    _free: list[bool]

    def __init__(
        self, rules: GuyRules, options: Options, decks: Sequence[Sequence[int] | None]
    ) -> None:
        """`decks`: each seat's card counts, None for a deck this state may not know."""
        super().__init__(rules, 2, LAYOUT, own_decks(decks, DECK_SIZE), private_decks=True)
        self._rules_g = rules
        self._book = rules.book
        self._public = self._everyone  # a face-up card's mask, read in the inner loops
        self._options = options
        self._life = [LIFE, LIFE]
        self._energy = [0, 0]
        self._spent = [0, 0]
        self._hurt = [0, 0]  # damage each player took this turn (Vengeful)
        self._log: list[tuple[Spend, ...]] = [(), ()]
        self._turn = 0
        self._first = 0
        self._leader = 0
        self._phase: Phase = "setup"
        self._lane = 0
        self._draws: list[int] = [0] * HAND_SIZE + [1] * HAND_SIZE
        self._frames: list[Frame] = []
        self._ask: Ask | None = None
        self._winners: tuple[int, ...] | None = None
        self._run()

    # ----------------------------------------------------------------- queries

    def hand_size(self, seat: int) -> int:
        """How many cards a seat holds (public): by the zone's index, not its name, since an
        evaluation reads it at every leaf."""
        return len(self._zones[seat * PER_SEAT + HAND])  # zone_of, inlined: every leaf

    def deck_size(self, seat: int) -> int:
        """How many cards are left in a seat's deck (public)."""
        return len(self._zones[seat * PER_SEAT + DECK])  # zone_of, inlined: every leaf

    @property
    def rules(self) -> GuyRules:
        """The static tables: the card database and what each card does."""
        return self._rules_g

    @property
    def options(self) -> Options:
        """The options this table was made with."""
        return self._options

    def phase(self) -> Phase:
        """The part of the turn being played."""
        return self._phase

    def turn(self) -> int:
        """The turn number (1-based; 0 before the first turn)."""
        return self._turn

    def leader(self) -> int:
        """This turn's Leading Player."""
        return self._leader

    def ask(self) -> Ask | None:
        """The choice being asked inside an ability, if any."""
        return self._ask if self._current >= 0 else None

    def life(self, seat: int) -> int:
        """A player's life."""
        return self._life[seat]

    def energy(self, seat: int) -> int:
        """The energy a seat has left this turn, as far as this state can tell (an opponent's
        face-down plays hide what they cost)."""
        return self._energy[seat] - self._spent[seat] - self._hidden_spent(seat)

    def lane_guy(self, seat: int, lane: int) -> int:
        """The slot of a seat's Guy in a lane, or -1."""
        pile = self._zones[seat * PER_SEAT + LANE0 + lane]  # zone_of, inlined: every node
        return pile[0] if pile else -1

    def vest(self, seat: int) -> int:
        """The slot of the Pin in a seat's Vest, or -1."""
        pile = self._zones[seat * PER_SEAT + VEST]  # zone_of, inlined: every leaf
        return pile[0] if pile else -1

    def pins_on(self, guy: int) -> list[int]:
        """The Pins on a Guy, in the order they were pinned."""
        host = self._host
        return [s for seat in (0, 1) for s in self._zones[zone_of(seat, PINS)] if host[s] == guy]

    def face_down(self, slot: int) -> bool:
        """Whether a card on the board lies face down (its identity not public)."""
        return self._known[slot] != self._public

    def controller(self, slot: int) -> int:
        """The seat whose zone the slot is in (a Pin on a Guy: who pinned it)."""
        z = self._where[slot]
        return z // PER_SEAT if z != GONE else -1

    def lane_of(self, slot: int) -> int:
        """The lane a Guy is in, or -1 (a Pin: its Guy's lane)."""
        if self._host[slot] >= 0:
            slot = self._host[slot]
        offset = self._where[slot] % PER_SEAT if self._where[slot] != GONE else -1
        return offset - LANE0 if offset >= LANE0 else -1

    def damage(self, slot: int) -> int:
        """Damage a Guy has taken this turn."""
        return self._damage[slot]

    def prepared(self, slot: int) -> bool:
        """Whether a Guy is turned sideways this turn."""
        return self._prepared[slot]

    def attack(self, slot: int) -> int:
        """A Guy's attack now: base, modifiers and static abilities (never below 0)."""
        return self.stats(slot)[0]

    def health(self, slot: int) -> int:
        """A Guy's max health now: base, modifiers and static abilities."""
        return self.stats(slot)[1]

    def stats(self, slot: int, bonuses: dict[int, Bonus] | None = None) -> tuple[int, int]:
        """A Guy's (attack, max health) now; `bonuses`: the statics' bonuses, when the caller
        reads many cards at once (`self.bonuses()`)."""
        card = self._rules_g.cards[self._kind_at(slot)]
        if bonuses is None:
            bonuses = self.bonuses()
        bonus = bonuses.get(slot, NO_BONUS)
        atk = card.attack + self._atk[slot] + self._atk_t[slot] + bonus.attack
        hp = card.health + self._hp[slot] + self._hp_t[slot] + bonus.health
        return (atk if atk > 0 else 0), hp  # max() without the call: read at every combat

    def board_sums(self, bonuses: dict[int, Bonus]) -> tuple[BoardSums, BoardSums]:
        """Each seat's `BoardSums`, the lanes read in one pass over the columns (this runs at
        every leaf of a search); `bonuses`: `self.bonuses()`."""
        zones, known, everyone, ident = self._zones, self._known, self._public, self._ident
        cards = self._rules_g.cards
        atk, hp, atk_t, hp_t = self._atk, self._hp, self._atk_t, self._hp_t
        damage, prepared = self._damage, self._prepared
        sums = [[0.0] * 5, [0.0] * 5]  # as BoardSums (sums of ints: exact)
        # A lane's two Guys: (face down, attack, health left, prepared); None: nobody there.
        # (Written for few steps: `x if x > 0 else 0` for max(), no bonus looked up where
        # none is in force, an empty lane passed at once.)
        guys: list[tuple[bool, int, int, bool] | None] = [None, None]
        for lane in _LANE_PAIRS:
            if not zones[lane[0]] and not zones[lane[1]]:
                continue
            for seat in (0, 1):
                pile = zones[lane[seat]]
                if not pile:
                    guys[seat] = None
                    continue
                guy = pile[0]
                k = ident[guy]
                face_down = known[guy] != everyone
                if face_down and k == UNKNOWN:
                    guys[seat] = _UNSEEN_GUY
                    continue
                card = cards[k]
                attack = card.attack + atk[guy] + atk_t[guy]
                health = card.health + hp[guy] + hp_t[guy]
                if bonuses:
                    bonus = bonuses.get(guy)
                    if bonus is not None:
                        attack += bonus.attack
                        health += bonus.health
                attack = attack if attack > 0 else 0
                guys[seat] = (face_down, attack, health - damage[guy], prepared[guy])
            for seat in (0, 1):
                found = guys[seat]
                if found is None:
                    continue
                board = sums[seat]
                if found is _UNSEEN_GUY:
                    board[2] += 1.0
                    continue
                _, attack, left, ready = found
                board[0] += attack
                if left > 0:
                    board[1] += left
                if ready:
                    continue
                foe = guys[1 - seat]
                if foe is None:
                    board[3] += attack
                elif not foe[0] and attack >= foe[2]:
                    board[4] += 1.0  # the Guy opposite dies at the next combat
        life = self._life
        out = []
        for seat in (0, 1):
            base = seat * PER_SEAT
            hand, deck, vest = zones[base + HAND], zones[base + DECK], zones[base + VEST]
            board_attack, board_health, hidden, pressure, kills = sums[seat]
            totals = BoardSums(
                board_attack, board_health, hidden, pressure, kills, life[seat], len(hand),
                len(deck), bool(vest),
            )  # fmt: skip
            out.append(totals)
        return out[0], out[1]

    def bonuses(self) -> dict[int, Bonus]:
        """What the static abilities in force give, by slot (`interpreter.static_bonuses`),
        for a caller that reads many stats on one board."""
        sources = self._static_sources()
        return interpreter.static_bonuses(self, sources) if sources else {}

    def _static_sources(self) -> list[tuple[int, list[int]]]:
        """The face-up cards in play with a static ability, by controller in `in_play`'s
        order; empty if there are none (most positions), so that no bonus need be worked
        out."""
        table = self._rules_g.has_static
        ident, known, zones, everyone = self._ident, self._known, self._zones, self._public
        out = []
        for side in seats_from(self._leader, 2):
            found = []
            for z in SIDE_ZONES[side]:  # loops, not a comprehension: read at every leaf
                for s in zones[z]:
                    if table[ident[s]] and known[s] == everyone:
                        found.append(s)
            if found:
                out.append((side, found))
        return out

    def any_static(self, granting: bool = False) -> bool:
        """Whether any face-up card in play has a static ability (that grants a keyword, with
        `granting`): most positions have none, and then no bonus need be worked out."""
        rules = self._rules_g
        table = rules.grants_statically if granting else rules.has_static
        ident, known, zones, everyone = self._ident, self._known, self._zones, self._public
        for z in PLAY_ZONES:
            for s in zones[z]:
                if known[s] == everyone and table[ident[s]]:
                    return True
        return False

    def has(self, slot: int, keyword: int) -> bool:
        """Whether a card has a keyword (printed, granted, or by a static ability)."""
        k = self._ident[slot]
        if k == UNKNOWN:
            return False
        own = self._rules_g.keywords[k] | self._kw[slot] | self._kw_t[slot]
        if own & keyword:
            return True
        if not self.any_static(granting=True):
            return False
        return bool(interpreter.static_keywords(self, slot) & keyword)

    def guys(self, seat: int) -> list[int]:
        """A seat's Guys on the board, lane by lane."""
        zones = self._zones
        return [s for z in LANE_ZONES[seat] for s in zones[z]]

    def winners(self) -> tuple[int, ...] | None:
        """Who won, once the game is over (both seats: a draw)."""
        return self._winners

    def returns(self) -> list[float]:
        if self._winners is None:
            return [0.0, 0.0]
        share = 1.0 / len(self._winners)
        return [share if s in self._winners else 0.0 for s in range(2)]

    def _hidden_spent(self, seat: int) -> int:
        """What this seat's face-down plays this turn cost, as far as this state knows."""
        total = 0
        for entry in self._log[seat]:
            if entry.slot >= 0 and not entry.free:
                k = self._ident[entry.slot]
                if k != UNKNOWN:
                    total += self._rules_g.cards[k].cost
        return total

    # ------------------------------------------------------------- the turn

    def _run(self) -> None:
        """Go on until a seat must decide, the dealer must deal, or the game is over."""
        settled = False  # no Guy dead on the board as it stands (checked, nothing since)
        while self._winners is None:
            if self._chance is not None or self._ask is not None:
                return
            if self._draws:
                seat = self._draws[0]
                deck = zone_of(seat, DECK)
                if not self._zones[deck]:
                    if self._phase == "setup":
                        raise IllegalActionError("a deck ran out while dealing the first hands")
                    self._lose_by_deck()
                    return
                self._ask_chance(Step("draw", deck, zone_of(seat, HAND), 1 << seat))
                return
            if self._frames:
                # Settle the board before each effect: a card just revealed may already hold
                # lethal damage (taken face down), and a target picked must stay there. After
                # an effect whose check destroyed nothing, the board is settled already (this
                # is a search's most frequent check).
                if not settled:
                    self._check_deaths()
                if self._winners is None:
                    interpreter.step(self)
                    settled = not self._check_deaths()
                continue
            if not self._advance():
                return
            settled = False
        self._current = TERMINAL

    def _lose_by_deck(self) -> None:
        """A player who must draw from an empty deck loses at once (line 113); both at once: a
        draw (rules §5)."""
        empty = [s for s in set(self._draws) if not self._zones[zone_of(s, DECK)]]
        self._draws = []
        self._end([s for s in (0, 1) if s not in empty])

    def _end(self, winners: Sequence[int]) -> None:
        self._winners = tuple(winners) if winners else (0, 1)
        self._phase = "over"
        self._frames = []
        self._ask = None
        self._chance = None
        self._current = TERMINAL

    def _after_chance(self, step: Step, slot: int, value: int) -> None:
        if step.kind == "draw" and self._draws:  # the turn's draws come before any ability
            self._draws.pop(0)
        else:
            interpreter.after_chance(self, step, value)
        self._run()

    def _advance(self) -> bool:
        """Move the turn on by one part; False when a seat must now decide."""
        phase = self._phase
        if phase == "setup":
            self._phase = "mulligan"
            self._lane = 0  # in the mulligan: how many seats have chosen
            return True
        if phase == "mulligan":
            if self._lane < 2:  # the starting player first, each after the other's redraw
                seat = (self._first + self._lane) % 2
                self._ask = Ask("mulligan", seat)
                self._current = seat
                return False
            self._start_turn()
            return True
        if phase == "start":
            self._phase = "lead"
            interpreter.fire_all(self, "start_of_turn")  # after both draws (line 73)
            return True
        if phase in ("lead", "react", "counter"):
            self._current = self._phase_player()
            return False
        if phase == "reveal":
            slot = self._next_face_down()
            if slot >= 0:
                self._current = self.controller(slot)
                return False
            self._phase = "combat"
            self._lane = 0
            return True
        if phase == "combat":
            if self._lane >= LANES:
                self._phase = "end"
                interpreter.fire_all(self, "end_of_turn")
                return True
            self._combat(self._lane)
            self._lane += 1
            return True
        if phase == "end":
            self._clean_up()
            cap = self._options.round_cap
            if cap is not None and self._turn >= cap:
                self._end_at_cap()
                return True
            self._start_turn()
            return True
        raise AssertionError(phase)

    def _phase_player(self) -> int:
        return self._leader if self._phase != "react" else 1 - self._leader

    def _start_turn(self) -> None:
        self._turn += 1
        self._leader = self._first if self._turn % 2 else 1 - self._first
        energy = self._turn
        self._energy = [energy, energy]
        self._spent = [0, 0]
        self._hurt = [0, 0]
        self._log = [(), ()]
        self._phase = "start"
        if self._turn > 1:
            # Both draw before anything happens (line 73); the Leading Player first.
            self._draws = [self._leader, 1 - self._leader]
            if any(not self._zones[zone_of(s, DECK)] for s in self._draws):
                self._lose_by_deck()

    def _end_at_cap(self) -> None:
        a, b = self._life
        self._end([0] if a > b else [1] if b > a else [0, 1])

    def _clean_up(self) -> None:
        """After End of turn: Guys heal to full, this turn's effects end (line 103)."""
        self._end_turn_columns()

    def _next_face_down(self) -> int:
        """The next face-down Guy to reveal: lane by lane, the Reacting Player's first (line 87)."""
        reactor = 1 - self._leader
        for lane in range(LANES):
            for seat in (reactor, self._leader):
                slot = self.lane_guy(seat, lane)
                if slot >= 0 and self.face_down(slot):
                    return slot
        return -1

    def _combat(self, lane: int) -> None:
        """Both Guys of a lane strike at once (line 91): an opposed Guy hits the Guy opposite,
        an unopposed or Overarch one the opposing player (lines 93, 185)."""
        told = self._listener
        if told is not None:  # the lane's strikes are told as the board stands now
            told(self, "lane", lane)
        guys = [self.lane_guy(seat, lane) for seat in (0, 1)]
        hits: list[tuple[int, int, int]] = []  # (attacker, target slot or -1 - seat, amount)
        bonuses: dict[int, Bonus] | None = None  # both read before either hits: worked out once
        for seat, guy in enumerate(guys):
            if guy < 0 or self._prepared[guy] or self.face_down(guy):
                continue
            if bonuses is None:
                bonuses = self.bonuses()
            amount = self.stats(guy, bonuses)[0]
            if amount <= 0:
                continue
            other = guys[1 - seat]
            if other >= 0 and not self.has(guy, OVERARCH):
                hits.append((guy, other, amount))
            else:
                hits.append((guy, -2 + seat, amount))  # -1 - (1 - seat)
        for attacker, target, amount in hits:
            self.hurt(target, amount, attacker)
        if told is not None:  # damage taken, then the deaths it caused
            told(self, "", -1)
        self._check_deaths()

    def _check_deaths(self) -> bool:
        """Destroy every Guy whose damage reached its health (line 93); end the game at 0 life.
        Whether a Guy was destroyed."""
        safe = not self._rules_g.static_health_loss
        # Where no static lowers health, a Guy that survives without them survives, and
        # usually no Guy is even near death (this runs twice an effect): no statics read,
        # and the Guys read here, not in a call of their own.
        near = not safe
        if safe:
            damage, hp, hp_t = self._damage, self._hp, self._hp_t
            zones, known, everyone = self._zones, self._known, self._public
            cards, ident = self._rules_g.cards, self._ident
            for z in ALL_LANE_ZONES:
                for guy in zones[z]:
                    if known[guy] == everyone and (
                        damage[guy] >= cards[ident[guy]].health + hp[guy] + hp_t[guy]
                    ):
                        near = True
        destroyed = near and self._destroy_dead(safe)
        life = self._life
        if self._winners is None and (life[0] <= 0 or life[1] <= 0):
            self._end([s for s in (0, 1) if life[s] > 0])
        return destroyed

    def _destroy_dead(self, safe: bool) -> bool:
        """Destroy the face-up Guys whose damage reached their health, statics read; whether
        one was."""
        bonuses: dict[int, Bonus] | None = None
        damage, hp, hp_t = self._damage, self._hp, self._hp_t
        zones, known, everyone = self._zones, self._known, self._public
        cards, ident = self._rules_g.cards, self._ident
        destroyed = False
        for seat in (self._leader, 1 - self._leader):
            for guy in [s for z in LANE_ZONES[seat] for s in zones[z]]:
                if known[guy] != everyone:  # face down: public either way, its health is not
                    continue
                if safe and damage[guy] < cards[ident[guy]].health + hp[guy] + hp_t[guy]:
                    continue
                if bonuses is None:
                    bonuses = self.bonuses()
                if self._damage[guy] >= self.stats(guy, bonuses)[1]:
                    self._destroy(guy)
                    bonuses = None  # a static may have left with it
                    destroyed = True
        return destroyed

    # ------------------------------------------------------------ decisions

    def _decisions(self, cur: int) -> list[Action]:
        ask = self._ask
        if ask is not None:
            return interpreter.ask_actions(self, ask)
        if self._phase == "reveal":
            slot = self._next_face_down()
            return [Reveal(slot, self._rules.card_ids[self._kind_at(slot)])]
        plays: list[Action] = list(self._plays(cur, free=False))
        plays += [_PREPARE(s) for s in self._preparable(cur)]
        plays.append(PASS)
        return plays

    def _plays(self, seat: int, *, free: bool, only: Sequence[int] | None = None) -> list[Play]:
        """Every card `seat` may play now (from `only` if given), one action per distinct card
        and placement (the first copy in hand stands for the others)."""
        rules = self._rules_g
        cards, ids = rules.cards, rules.card_ids
        phase = self._phase
        left = self.energy(seat)
        zones, lanes = self._zones, LANE_ZONES[seat]
        empty = [lane for lane in range(LANES) if not zones[lanes[lane]]]
        hosts: list[int] | None = None  # face-up Guys, both sides: read once a Pin needs them
        seen: set[int] = set()
        out: list[Play] = []
        ident = self._ident
        for slot in zones[seat * PER_SEAT + HAND] if only is None else only:
            k = ident[slot]  # `_kind_at` where it is known: no call for each card in hand
            if k == UNKNOWN:
                k = self._kind_at(slot)  # which says what is hidden
            if k in seen:
                continue
            seen.add(k)
            card = cards[k]
            if rules.keywords[k] & PATIENT and phase == "lead":  # "can't" beats "can"
                continue
            costs = [(0 if free else card.cost, False)]
            if card.enhance is not None:  # a free play keeps Enhance at its cost (line 195)
                costs.append((card.enhance, True))
            for cost, enhanced in costs:
                if cost > left:
                    continue
                name = ids[k]
                if card.type == "guy":
                    if phase == "counter" and not free:  # line 85; a card beats a rule (155)
                        continue
                    down = bool(rules.keywords[k] & SNEAKY)
                    if down and enhanced:
                        continue  # a face-down card pays its printed cost, unseen
                    out += [_PLAY(slot, name, lane, None, enhanced, down) for lane in empty]
                elif card.type == "pin" and card.pin_to == "guy":
                    if hosts is None:
                        known, up = self._known, self._public
                        hosts = [g for z in ALL_LANE_ZONES for g in zones[z] if known[g] == up]
                    out += [_PLAY(slot, name, None, h, enhanced, False) for h in hosts]
                else:
                    out.append(_PLAY(slot, name, None, None, enhanced, False))
        return out

    def _preparable(self, seat: int) -> list[int]:
        prep = self._rules_g.prepares
        return [
            g
            for g in self.guys(seat)
            if not self._prepared[g] and not self.face_down(g) and prep[self._ident[g]]
        ]

    def _verify_decision(self, cur: int, action: Action) -> None:
        if isinstance(action, Concede):
            return
        ask = self._ask
        if ask is not None:
            interpreter.verify_answer(self, ask, action)
            return
        if self._phase == "reveal":
            self._verify_reveal(action)
            return
        if isinstance(action, Pass):
            return
        if isinstance(action, Prepare):
            if action.slot not in self._preparable(cur):
                raise IllegalActionError(f"slot {action.slot} has no Prepare ability to use now")
            return
        if isinstance(action, Play):
            self._verify_play(cur, action, free=False)
            return
        raise IllegalActionError(f"{action} is not a play, a Prepare or a pass")

    def _verify_play(self, seat: int, play: Play, *, free: bool) -> None:
        """The one check of a play, for the menu, the AI and the network alike: the card is in
        the hand; a replica that cannot see it checks what it can, and the reveal the rest."""
        self._check_slot(play.slot)
        if self._where[play.slot] != zone_of(seat, HAND):
            raise IllegalActionError(f"slot {play.slot} is not in seat {seat}'s hand")
        k = self._ident[play.slot]
        if play.card is None:
            if not play.face_down:
                raise IllegalActionError("a play must name its card unless it is face down")
            if k == UNKNOWN:
                self._verify_hidden_play(seat, play)
                return
            play = play.named(self._rules.card_ids[k])  # the player's own replica knows it
        named = self._kind(play.card or "")
        self._check_learnable(play.slot, named)
        if k == UNKNOWN:
            self._ident[play.slot] = named  # learnt for the check only
            try:
                legal = play in self._plays(seat, free=free, only=[play.slot])
            finally:
                self._ident[play.slot] = UNKNOWN
        else:
            legal = play in self._plays(seat, free=free, only=[play.slot])
        if not legal:
            raise IllegalActionError(f"{play} is not allowed now")

    def _verify_hidden_play(self, seat: int, play: Play) -> None:
        """What a replica can check of a face-down play it cannot see: a Guy's phase and an
        empty lane of its own; the card, its cost and Sneaky are checked at the reveal."""
        if self._phase == "counter":
            raise IllegalActionError("no Guys may be played in the Counter-reacting Phase")
        if play.lane is None or not 0 <= play.lane < LANES or self.lane_guy(seat, play.lane) >= 0:
            raise IllegalActionError(f"lane {play.lane} is not an empty lane of seat {seat}")

    def _verify_reveal(self, action: Action) -> None:
        slot = self._next_face_down()
        if not isinstance(action, Reveal) or action.slot != slot:
            raise IllegalActionError(f"the face-down card in slot {slot} must be revealed now")
        k = self._kind(action.card)
        self._check_learnable(slot, k)
        card = self._rules_g.cards[k]
        if card.type != "guy" or not self._rules_g.keywords[k] & SNEAKY:
            raise IllegalActionError(f"{card.name} is not a Sneaky Guy: it was played face down")
        self._check_spending(self.controller(slot), slot, k)

    def _check_spending(self, seat: int, revealed: int, k: int) -> None:
        """A face-down play was affordable when it was made: the turn's plays, with the cards
        now shown, never spent more than the seat had (rules §4)."""
        cards = self._rules_g.cards
        budget = self._turn
        for entry in self._log[seat]:
            if entry.cost < 0:
                budget -= entry.cost
                continue
            cost = entry.cost
            if entry.slot >= 0 and not entry.free:
                known = k if entry.slot == revealed else self._ident[entry.slot]
                cost = cards[known].cost if known != UNKNOWN else 0
            budget -= cost
            if budget < 0:
                raise IllegalActionError(
                    f"seat {seat} played more than its energy this turn (a face-down card)"
                )

    def _apply(self, action: Action) -> None:
        if self._current == CHANCE:
            self._apply_outcome(action)
            return
        seat = self._current
        if isinstance(action, Concede):
            self._end([1 - seat])
            return
        if self._ask is not None:
            ask, self._ask = self._ask, None
            if ask.kind == "mulligan":
                assert isinstance(action, Mulligan)
                self._mulligan(seat, action.mask)
            else:
                interpreter.answer(self, ask, action)
        elif isinstance(action, Pass):
            self._pass()
        elif isinstance(action, Play):
            self._play(seat, action, free=False)
        elif isinstance(action, Prepare):
            self._prepared[action.slot] = True
            interpreter.fire(self, action.slot, "prepare", seat)
        elif isinstance(action, Reveal):
            self._reveal(action)
        self._run()

    def _pass(self) -> None:
        self._phase = _NEXT_PHASE[self._phase]

    def _mulligan(self, seat: int, mask: int) -> None:
        """Put the chosen cards on the bottom (their owner knows them), then draw back to five."""
        hand = self._zones[zone_of(seat, HAND)]
        chosen = [slot for i, slot in enumerate(hand) if mask >> i & 1]
        deck = zone_of(seat, DECK)
        for slot in chosen:
            self._move(slot, deck, bottom=True)
        self._draws = [seat] * len(chosen)
        self._lane += 1

    def _play(self, seat: int, play: Play, *, free: bool) -> None:
        """Pay, put the card where it goes and fire what playing it sets off."""
        slot = play.slot
        if play.card is not None:
            self._show(slot, play.card, 1 << seat)
        k = self._ident[slot]
        if play.face_down:
            self._log[seat] += (Spend(0, slot, free),)
        else:
            card = self._rules_g.cards[k]
            cost = card.enhance if play.enhanced else 0 if free else card.cost
            assert cost is not None
            self._spent[seat] += cost
            self._log[seat] += (Spend(cost),)
        self._free[slot] = free
        if play.face_down:
            assert play.lane is not None
            self._move(slot, zone_of(seat, LANE0 + play.lane), face_down=True)
            return
        card = self._rules_g.cards[k]
        if card.type == "guy":
            assert play.lane is not None
            self._move(slot, zone_of(seat, LANE0 + play.lane))
        elif card.type == "pin" and card.pin_to == "vest":
            old = self.vest(seat)
            if old >= 0:  # the Vest holds one Pin: the old one is discarded (line 58)
                self._discard(old)
            self._move(slot, zone_of(seat, VEST))
        elif card.type == "pin":
            assert play.host is not None
            self._move(slot, zone_of(seat, PINS))
            self._host[slot] = play.host
        else:  # a Prank is discarded at once; its ability still resolves (line 46)
            self._move(slot, zone_of(seat, DISCARD))
        interpreter.fire_played(self, slot, seat, enhanced=play.enhanced)

    def _reveal(self, action: Reveal) -> None:
        slot = action.slot
        self._show(slot, action.card, 3)
        interpreter.fire_revealed(self, slot, self.controller(slot))

    # ------------------------------------------- the abilities (p2pcards/interpreter.py)

    def in_play(self, seat: int | None = None) -> list[tuple[int, list[int]]]:
        """Every face-up card in play (of one seat, if given) as (controller, slots), in the
        order simultaneous triggers resolve: the Leading Player's side first, Guys lane by
        lane, the Vest, then Pins on Guys in the order they were pinned (docs/abilities.md)."""
        zones, known, everyone, n = self._zones, self._known, self._public, self._n
        out = []
        for side in seats_from(self._leader, n) if seat is None else (seat,):
            slots = []
            for z in SIDE_ZONES[side]:  # loops, not comprehensions: read at every step
                for s in zones[z]:
                    if known[s] == everyone:
                        slots.append(s)
            out.append((side, slots))
        return out

    def pool(self, seat: int, what: str) -> list[int]:
        """A seat's Guys lane by lane, its Pins (the Vest's first), or its hand."""
        zones = self._zones
        if what == "guy":
            return [s for z in LANE_ZONES[seat] for s in zones[z]]
        if what == "pin":
            return zones[zone_of(seat, VEST)] + zones[zone_of(seat, PINS)]
        return zones[zone_of(seat, HAND)] if what == "hand_card" else []

    def is_in_play(self, slot: int) -> bool:
        """Whether a card is in a lane, in a Vest or pinned to a Guy (face down or up)."""
        return self._where[slot] in _PLAY_ZONE_SET

    def stat(self, slot: int, name: str, raw: bool) -> int:
        """A Guy's attack or health (`raw`: printed plus modifiers, no static abilities)."""
        if raw:
            card = self._rules_g.cards[self._ident[slot]]
            if name == "attack":
                return card.attack + self._atk[slot] + self._atk_t[slot]
            return card.health + self._hp[slot] + self._hp_t[slot]
        return self.stats(slot)[0 if name == "attack" else 1]

    def attached_to(self, slot: int) -> int:
        """The Guy a Pin is on (-1: none, or in the Vest)."""
        return self._host[slot]

    def lane_card(self, seat: int, lane: int) -> int:
        """A seat's Guy in a lane, or -1."""
        return self.lane_guy(seat, lane)

    def in_mode(self, slot: int, mode: str) -> bool:
        """Rise of the Guys has no modes (its cards cannot say `mode`)."""
        return False

    def hurt(self, target: int, amount: int, source: int) -> None:
        """Damage a Guy or a player. A Guy that can't be hurt takes none (line 163); a Stinky
        Guy's damage destroys the Guy it hurts (line 203); a player's fires Vengeful."""
        if amount <= 0:
            return
        if target < 0:
            seat = player(target)
            before = self._hurt[seat]
            self._life[seat] -= amount
            self._hurt[seat] = before + amount
            interpreter.fire_vengeful(self, seat, before, before + amount)
            return
        if self.has(target, UNHURTABLE):
            return
        self._damage[target] += amount
        if (
            source >= 0
            and not self.face_down(source)
            and self.has(source, STINKY)
            and self.lane_of(source) >= 0
        ):
            # A face-down Guy's health is hidden from the other seats' replicas: it takes
            # damage past any health, and dies once it is revealed (rules.md §39).
            lethal = STINKY_FACE_DOWN if self.face_down(target) else self.health(target)
            self._damage[target] = max(self._damage[target], lethal)

    def heal(self, target: int, amount: int | None) -> None:
        """A player's life (never above 20), or a Guy's damage, healed."""
        if target < 0:
            seat = player(target)
            self._life[seat] = LIFE if amount is None else min(LIFE, self._life[seat] + amount)
        else:
            self._damage[target] = 0 if amount is None else max(0, self._damage[target] - amount)

    def destroy(self, slot: int) -> None:
        """An ability destroys a Guy, or a Pin (to the discard pile)."""
        if self._host[slot] < 0 and self.lane_of(slot) >= 0:
            if self.face_down(slot):
                # Which card it is, and so what it does when destroyed, is hidden from the
                # other seats' replicas: it dies once revealed, as a lethal hit (rules.md §40).
                self._damage[slot] = max(self._damage[slot], STINKY_FACE_DOWN)
                return
            self._destroy(slot)
        else:
            self._discard(slot)

    def bounce(self, slot: int) -> None:
        """A Guy (and its Pins) goes back to its owner's hand; a token is removed."""
        if self.lane_of(slot) < 0:
            return
        for pin in self.pins_on(slot):
            self._discard(pin)
        home = self._home[slot]
        self._move(slot, GONE if home < 0 else zone_of(home, HAND))
        self._reset_slot(slot)

    def modifiers(self, permanent: bool) -> Modifiers:
        """Attack, health and keywords given while in play, or this turn."""
        if permanent:
            return Modifiers(self._atk, self._hp, self._kw)
        return Modifiers(self._atk_t, self._hp_t, self._kw_t)

    def gain(self, seat: int, amount: int) -> None:
        """Energy an ability gives this turn (logged, for the face-down plays' check)."""
        self._energy[seat] += amount
        self._log[seat] += (Spend(-amount),)

    def deck_out(self, seat: int) -> bool:
        """An effect's draw from an empty deck is ignored (rules §5)."""
        return True

    def _destroy(self, guy: int) -> None:
        """Destroy a Guy: its Pins go with it (line 52), its When destroyed abilities fire."""
        for pin in self.pins_on(guy):
            self._discard(pin)
        interpreter.fire(self, guy, "destroyed", self.controller(guy))
        self._discard(guy)

    def _discard(self, slot: int) -> None:
        """A card leaves play for its owner's discard pile (a token ceases to exist)."""
        home = self._home[slot]
        self._move(slot, GONE if home < 0 else zone_of(home, DISCARD))
        self._reset_slot(slot)

    def _empty_lanes(self, seat: int) -> list[int]:
        return [lane for lane in range(LANES) if self.lane_guy(seat, lane) < 0]

    def _move_guy(self, guy: int, lane: int) -> None:
        self._move(guy, zone_of(self.controller(guy), LANE0 + lane))

    def _place_token(self, card: str, seat: int, lane: int) -> None:
        """A token enters a lane (public from birth), and cards that watch for tokens fire."""
        slot = self._make_token(self._kind(card), zone_of(seat, LANE0 + lane))
        interpreter.fire_others(self, "token_made", slot, seat)

    def _token_seat(self, e: Effect, f: Frame) -> int:
        return interpreter.seats(self, e.side or "you", f.controller)[0]

    def own_effect(self, f: Frame, e: Effect) -> bool:
        """The verbs of lanes, decks and hands only this game has: move, loot, token,
        play_free, and effects in code (`handler`)."""
        do = e.do
        amount = e.amount if isinstance(e.amount, int) else 0
        if do == "move":
            while f.stage < len(f.targets):
                guy = f.targets[f.stage]
                seat = self.controller(guy)
                lanes = self._empty_lanes(seat)
                if self.lane_of(guy) >= 0 and len(lanes) > 1:  # its controller picks (§20)
                    self._ask_seat(Ask("lane", seat, tuple(lanes)))
                    return False
                if self.lane_of(guy) >= 0 and lanes:
                    self._move_guy(guy, lanes[0])
                f = self._frames[0] = f.staged(f.stage + 1)
        elif do == "loot":
            deck = zone_of(f.controller, DECK)
            n = min(amount, len(self._zones[deck]))
            if f.stage < n:
                self._ask_chance(Step("look", deck, -1, 1 << f.controller, depth=f.stage))
                return False
            if f.stage == n and n >= 2:
                self._ask_seat(Ask("order", f.controller, (len(orders(n)),)))
                self._frames[0] = f.staged(n + 1)
                return False
        elif do == "token":
            return self._tokens(f, e)
        elif do == "play_free":
            # Asked whenever the hand holds a card, whether or not one fits: who acts next
            # must follow from public facts (DESIGN.md §3), and only the owner sees the hand.
            count = e.target.count if e.target is not None else 1
            if f.stage < count and self.hand_size(f.controller):
                optional = e.target is not None and e.target.optional
                self._ask_seat(Ask("free", f.controller, (), optional))
                return False
        elif do == "handler":
            return HANDLERS[e.name or ""](self, f)
        else:
            raise AssertionError(do)
        return True

    def _tokens(self, f: Frame, e: Effect) -> bool:
        seat = self._token_seat(e, f)
        assert e.card is not None
        if e.where == "this_lane":
            if f.lane >= 0 and self.lane_guy(seat, f.lane) < 0:
                self._place_token(e.card, seat, f.lane)
        elif e.where == "each_empty_lane":
            for lane in self._empty_lanes(seat):
                self._place_token(e.card, seat, lane)
        else:
            while f.stage < (e.count or 1):
                lanes = self._empty_lanes(seat)
                if not lanes:
                    break
                if len(lanes) > 1:
                    self._ask_seat(Ask("lane", f.controller, tuple(lanes)))
                    return False
                self._place_token(e.card, seat, lanes[0])
                f = self._frames[0] = f.staged(f.stage + 1)
        return True

    def _ask_seat(self, ask: Ask) -> None:
        self._ask = ask
        self._current = ask.seat

    def _free_plays(self, f: Frame, e: Effect) -> list[Play]:
        """The plays a play_free effect offers: hand cards its selector allows, at no cost."""
        if e.target is None:
            return []
        hand = self._zones[zone_of(f.controller, HAND)]
        allowed = [s for s in hand if interpreter.card_fits(self, e.target, s)]
        return self._plays(f.controller, free=True, only=allowed) if allowed else []

    def _may_decline(self, ask: Ask) -> bool:
        """A free play may be declined when it is optional or nothing fits; a replica that
        cannot see the hand takes the owner's word (the cards are checked when shown)."""
        if ask.optional or (self.viewer is not None and self.viewer != ask.seat):
            return True
        return not self._free_plays(self._frames[0], interpreter.current_effect(self))

    def own_ask_actions(self, ask: Ask) -> list[Action]:
        """The answers to this game's own questions: a mulligan, a lane, an order, a free
        play."""
        if ask.kind == "mulligan":
            return [Mulligan(mask) for mask in self._mulligans(ask.seat)]
        if ask.kind == "lane":
            return [Lane(lane) for lane in ask.options]
        if ask.kind == "order":
            return [Order(i) for i in range(ask.options[0])]
        plays: list[Action] = list(
            self._free_plays(self._frames[0], interpreter.current_effect(self))
        )
        return [*plays, DECLINE] if self._may_decline(ask) else plays

    def _mulligans(self, seat: int) -> list[int]:
        """The hand positions a mulligan may put back, as masks, one per different choice:
        copies of a card are alike, so putting back k of them means the first k (the search
        and the menu would otherwise weigh the same choice twice)."""
        kinds = [self._kind_at(s) for s in self._zones[zone_of(seat, HAND)]]
        out = []
        for mask in range(1 << len(kinds)):
            taken: dict[int, bool] = {}  # kind -> a copy was kept before (a later one may not go)
            canonical = True
            for i, k in enumerate(kinds):
                back = bool(mask >> i & 1)
                if back and taken.get(k):
                    canonical = False
                    break
                if not back:
                    taken[k] = True
            if canonical:
                out.append(mask)
        return out

    def verify_own_answer(self, ask: Ask, action: Action) -> None:
        """The one check of an answer to this game's own questions: listed, or, for a
        replica that cannot see the cards it names, the part it can check."""
        if ask.kind == "free" and isinstance(action, Decline):
            if not self._may_decline(ask):
                raise IllegalActionError("a card fits: the free play must be made")
            return
        if ask.kind == "free" and isinstance(action, Play):
            self._verify_free_play(ask, action)
            return
        if ask.kind == "order" and isinstance(action, Order) and action.order is None:
            if self.viewer is None or self.viewer == ask.seat:
                raise IllegalActionError("the looting seat must say in which order")
            return
        if ask.kind == "mulligan":
            if not isinstance(action, Mulligan) or not 0 <= action.mask < 1 << self.hand_size(
                ask.seat
            ):
                raise IllegalActionError("a mulligan names hand positions to put back")
            return
        if action not in self.own_ask_actions(ask):
            raise IllegalActionError(f"{action} does not answer the {ask.kind} asked")

    def _verify_free_play(self, ask: Ask, action: Play) -> None:
        self._check_slot(action.slot)
        k = self._ident[action.slot]
        if action.card is None and action.face_down and k != UNKNOWN:
            action = action.named(self._rules.card_ids[k])  # the player's own replica
        if action.card is None:  # face down, unseen here: checked when revealed
            legal = action.face_down and self.controller(action.slot) == ask.seat
        elif k == UNKNOWN:
            self._check_learnable(action.slot, self._kind(action.card))
            self._ident[action.slot] = self._kind(action.card)
            try:
                legal = action in self.own_ask_actions(ask)
            finally:
                self._ident[action.slot] = UNKNOWN
        else:
            legal = action in self.own_ask_actions(ask)
        if not legal:
            raise IllegalActionError(f"{action} is not a play this ability allows")

    def own_answer(self, ask: Ask, action: Action) -> None:
        """Apply an answer to this game's own questions (a mulligan is the turn's)."""
        f = self._frames[0]
        if isinstance(action, Decline):  # no more free plays from this effect
            self._frames[0] = f.staged(99)
        elif isinstance(action, Lane):
            e = interpreter.current_effect(self)
            if e.do == "move":
                self._move_guy(f.targets[f.stage], action.lane)
            else:
                assert e.card is not None
                self._place_token(e.card, self._token_seat(e, f), action.lane)
            self._frames[0] = self._frames[0].staged(f.stage + 1)
        elif isinstance(action, Order):
            n = f.stage - 1  # the loot asked for the order with stage n + 1
            order = None if action.order is None else orders(n)[action.order]
            self._reorder_top(zone_of(f.controller, DECK), n, order)
        elif isinstance(action, Play):
            self._frames[0] = f.staged(f.stage + 1)
            self._play(ask.seat, action, free=True)
        else:
            raise AssertionError(action)

    # ------------------------------------------------------- copies and views

    def clone(self) -> GuysState:
        other = self._clone_zones()
        other._rules_g = self._rules_g
        other._book = self._book
        other._public = self._public
        other._options = self._options
        other._life = self._life[:]
        other._energy = self._energy[:]
        other._spent = self._spent[:]
        other._hurt = self._hurt[:]
        other._log = self._log[:]
        other._turn = self._turn
        other._first = self._first
        other._leader = self._leader
        other._phase = self._phase
        other._lane = self._lane
        other._draws = self._draws[:]
        other._frames = self._frames[:]
        other._ask = self._ask
        other._winners = self._winners
        return other

    def may_hold(self, slot: int, k: int) -> bool:
        """A face-down card on the board is a Sneaky Guy."""
        z = self._where[slot]
        if z != GONE and z % PER_SEAT >= LANE0:
            card = self._rules_g.cards[k]
            return card.type == "guy" and bool(self._rules_g.keywords[k] & SNEAKY)
        return True

    def search_key(self) -> Hashable:
        return (
            *self._cards_key(),
            tuple(self._life),
            tuple(self._energy),
            tuple(self._spent),
            tuple(self._hurt),
            tuple(self._log),
            self._turn,
            self._leader,
            PHASE_CODES[self._phase],
            self._lane,
            tuple(self._draws),
            tuple(self._frames),
            interpreter.ask_key(self._ask),
            self._current,
            -1 if self._winners is None else self._winners,
        )

    def public_sections(self) -> dict[str, Canonical]:
        ask = self._ask
        return {
            "turn": {
                "turn": self._turn,
                "leader": self._leader,
                "phase": self._phase,
                "lane": self._lane,
                "current": self._current,
                "draws": list(self._draws),
                "ask": None
                if ask is None
                else [ask.kind, ask.seat, list(ask.options), ask.optional],
                "frames": [[*f[:7], list(f.targets), f.picked, f.stage] for f in self._frames],
                "winners": None if self._winners is None else list(self._winners),
            },
            "zones": self.zones_public(),
            "board": self.slot_rows(),
            "players": {
                "life": list(self._life),
                "energy": list(self._energy),
                "spent": list(self._spent),
                "hurt": list(self._hurt),
                "log": [[list(e) for e in log] for log in self._log],
            },
        }

    def to_json(self, seat: int | None = None) -> dict[str, Any]:
        if seat is not None:
            self._check_seat(seat)
        sections = self.public_sections()
        sections["cards"] = self.zones_json(seat)
        return dict(sections)

    def __str__(self) -> str:
        return f"<Rise of the Guys turn {self._turn} {self._phase}, life {self._life}>"


def new_state(
    game: Game, rules: GuyRules, decks: Sequence[Mapping[str, int] | None], options: Options
) -> GuysState:
    """A table at the first deal: the two decks as card counts by id (None: not known here)."""
    del game
    return GuysState(rules, options, deck_rows(rules.card_index, decks))


Handler = Callable[[GuysState, Frame], bool]
"""An effect in code, by the name a card's `handler` effect gives (few: a test lists them)."""


def _swap_lanes(st: GuysState, f: Frame) -> bool:
    """Trade Places: two Guys of one side swap lanes at once (`move` goes only to an empty
    lane, so the vocabulary cannot say it). The targets come from the effect's selector."""
    if len(f.targets) == 2 and all(t >= 0 for t in f.targets):
        a, b = f.targets
        lane_a, lane_b = st.lane_of(a), st.lane_of(b)
        if lane_a >= 0 and lane_b >= 0 and st.controller(a) == st.controller(b):
            st._move_guy(a, lane_b)
            st._move_guy(b, lane_a)
    return True


HANDLERS: dict[str, Handler] = {"swap_lanes": _swap_lanes}
