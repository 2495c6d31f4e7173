"""A position of RPG Get! CCG, or one seat's replica of it (rules.md: our reading).

Zones: each seat's deck, hand, discard pile, party, active party, unconscious pile,
inventory, bank (face down: its owner's alone), score pile and the missions paid out of play
(`seat_zones`, laid out from `num_players`), then the table's mission in attempt and the
enemies played against it. An enemy is controlled by the seat whose deck it came from (its
`home`, public). Per card (`SLOT_COLUMNS`): damage taken, the actions spent this attempt,
whether it used a Recovery this round of its owner, and its status ailments. Per seat: reward
counters, whether it is still in the game (`_live`), its opening redraws. The attempt's
attacks open response windows (`p2pcards.windows`) in which the defending side may Defend.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from enum import IntEnum
from itertools import combinations
from typing import Literal, NamedTuple

from p2pcards.deckmodel import KnownDecksModel
from p2pcards.decks import deck_rows
from p2pcards.digest import Canonical
from p2pcards.engine import CHANCE, TERMINAL, Action, Game
from p2pcards.errors import IllegalActionError
from p2pcards.games.rpg_get.actions import (
    MULLIGAN,
    PASS,
    Act,
    Attempt,
    Bank,
    Defend,
    Discard,
    Enlist,
    Equip,
    Mulligan,
    Oppose,
    Pass,
    Recruit,
    Redraw,
    Reshuffle,
    Start,
    parse_slots,
    slot_list,
)  # fmt: skip
from p2pcards.games.rpg_get.cards import STATUSES, Card, CombatAction, Status
from p2pcards.seats import everyone, left_of, seats_from, seats_in
from p2pcards.windows import Windows
from p2pcards.zones import (
    UNKNOWN,
    SlotColumn,
    SlotColumns,
    Step,
    Zone,
    ZoneRules,
    ZoneState,
    own_decks,
    seat_zones,
)  # fmt: skip

DECK_SIZE = 80  # line 8, 162
HAND_SIZE = 9  # line 9, 46
START_COUNTERS = 5  # line 10
VICTORY = 10  # line 13
BANK_LIMIT = 20  # line 36
REDRAWS = 2  # line 32
MAX_MULLIGANS = 7  # rules.md choice 2
DECKING_PRICE = 2  # line 15, 165
SEAT_ZONES: tuple[tuple[str, Literal["nobody", "owner", "everyone"]], ...] = (
    ("deck", "nobody"),
    ("hand", "owner"),
    ("discard", "everyone"),
    ("party", "everyone"),
    ("active", "everyone"),
    ("unconscious", "everyone"),
    ("inventory", "everyone"),
    ("bank", "owner"),
    ("score", "everyone"),
    ("out", "everyone"),
)
DECK, HAND, DISCARD, PARTY, ACTIVE, UNCONSCIOUS, INVENTORY, BANK, SCORE, OUT = range(
    len(SEAT_ZONES)
)
Phase = Literal[
    "first", "deal", "opening", "redraw", "play", "mission", "party", "enemies",
    "party-attack", "enemy-attack", "reconcile", "decking", "over",
]  # fmt: skip
PHASES: tuple[Phase, ...] = (
    "first", "deal", "opening", "redraw", "play", "mission", "party", "enemies",
    "party-attack", "enemy-attack", "reconcile", "decking", "over",
)  # fmt: skip
ATTACKED, DEFENDED, SUPPORTED = 1, 2, 4
"""`_spent` bits: the card's Attack, Defense and Support of this attempt (line 100–104)."""
STATUS_BIT = {status: 1 << i for i, status in enumerate(STATUSES)}
POISON, PARALYSIS, BLOCK, SLEEP, CONFUSION = (STATUS_BIT[s] for s in STATUSES)
SPENT_BY_KIND = {"attack": ATTACKED, "defense": DEFENDED, "support": SUPPORTED, "recovery": 0}


class Reason(IntEnum):
    """Why a window opened."""

    ATTACK = 0  # an Attack declared: the targets' side may Defend (line 111)


class Attack(NamedTuple):
    """An attack waiting in its window: who made it, with which action of which card used by
    whom, how hard, on whom, how much each target's Defense takes off (-1: none yet), and how
    many Combo repeats it has left (line 133)."""

    seat: int
    source: int
    user: int
    which: int
    """The number of the combat action on the source card."""
    amount: int
    inflicts: int
    targets: tuple[int, ...]
    reduced: tuple[int, ...]
    combo: int


class Confused(NamedTuple):
    """A confused card's targeted action waiting for its targets, each a roll among every
    applicable target (line 174): whose, which action of which card used by whom, how many
    targets are still to roll, and those rolled so far."""

    seat: int
    source: int
    user: int
    which: int
    left: int
    chosen: tuple[int, ...]


class RpgGetRules(ZoneRules):
    """The set with the tables the rules read."""

    def __init__(self, game: Game, cards: Sequence[Card], deck_model: KnownDecksModel) -> None:
        super().__init__(game, cards, deck_model)
        self.cards = tuple(cards)


class RpgGetState(ZoneState):
    """A position of RPG Get!, or one seat's replica of it."""

    __slots__ = (
        "_attack",
        "_attempter",
        "_boost",
        "_boss",
        "_confused",
        "_counters",
        "_damage",
        "_ep_used",
        "_g",
        "_live",
        "_mulligans",
        "_opening",
        "_order",
        "_order_at",
        "_phase",
        "_pp_used",
        "_public_zones",
        "_recovered",
        "_redraws",
        "_repeat",
        "_round",
        "_round_cap",
        "_spent",
        "_status",
        "_turn_seat",
        "_windows",
        "_winners",
        "_woken",
    )  # fmt: skip
    _damage: list[int]
    _spent: list[int]
    _recovered: list[int]
    _status: list[int]

    slot_columns = SlotColumns(
        SlotColumn("_damage", 0),
        SlotColumn("_spent", 0),
        SlotColumn("_recovered", 0),
        SlotColumn("_status", 0),
    )

    def __init__(
        self,
        rules: RpgGetRules,
        num_players: int,
        decks: Sequence[dict[str, int] | None],
        round_cap: int | None,
    ) -> None:
        """`decks`: each seat's card counts, None for a deck this state may not know."""
        layout = [
            *seat_zones(num_players, SEAT_ZONES),
            Zone("mission", None, "everyone"),
            Zone("enemies", None, "everyone"),
        ]
        rows = deck_rows(rules.card_index, decks)
        super().__init__(rules, num_players, layout, own_decks(rows, DECK_SIZE), private_decks=True)
        self._g = rules
        self._round_cap = round_cap
        self._counters = [0] * num_players
        self._live = everyone(num_players)
        self._mulligans = [0] * num_players
        self._turn_seat = 0
        self._round = 0
        self._redraws = 0
        self._phase: Phase = "first"
        self._opening: tuple[int, ...] = ()
        self._attempter = -1
        self._pp_used = 0
        self._ep_used = 0
        self._boss = False
        self._order: tuple[int, ...] = ()
        self._order_at = 0
        self._boost = [0] * num_players
        self._attack: Attack | None = None
        self._repeat: Attack | None = None  # an attack its seat may Combo now (line 133)
        self._confused: Confused | None = None
        self._windows = Windows()
        self._winners: tuple[int, ...] | None = None
        self._woken: tuple[int, ...] = ()  # enemies woken in the Enemy Status step (line 62)
        # The digest's per-card rows cover the face-up zones, which grow with the seats.
        self._public_zones = tuple(
            z for z, zone in enumerate(layout) if zone.visibility == "everyone"
        )
        self._ask_chance(Step("roll", sides=num_players))  # line 11, rules.md choice 5

    # ------------------------------------------------------------------ queries

    def zone_at(self, seat: int, offset: int) -> int:
        """The index of one of a seat's zones (DECK, HAND, ... OUT)."""
        return seat * len(SEAT_ZONES) + offset

    def pile(self, seat: int, offset: int) -> list[int]:
        """The slots of one of a seat's zones, in order."""
        return self._zones[self.zone_at(seat, offset)]

    @property
    def phase(self) -> Phase:
        """The phase or step of the turn (public)."""
        return self._phase

    @property
    def windows(self) -> Windows:
        """The open response windows (public)."""
        return self._windows

    @property
    def attempter(self) -> int:
        """The seat attempting a mission, -1 for none (public)."""
        return self._attempter

    @property
    def turn_seat(self) -> int:
        """The seat whose turn it is (public)."""
        return self._turn_seat

    @property
    def round(self) -> int:
        """Rounds completed (public): the round cap counts them."""
        return self._round

    @property
    def attack(self) -> Attack | None:
        """The attack waiting in the open window, None for none (public)."""
        return self._attack

    def points_used(self) -> tuple[int, int]:
        """The PP and EP the attempt in progress has used (public, line 50-51)."""
        return self._pp_used, self._ep_used

    def counters(self, seat: int) -> int:
        """A seat's reward counters (public)."""
        return self._counters[seat]

    def in_game(self) -> tuple[int, ...]:
        """The seats still in the game."""
        return seats_in(self._live, self._n)

    def card(self, slot: int) -> Card:
        """The card in a slot this state knows."""
        return self._g.cards[self._kind_at(slot)]

    def hp_left(self, slot: int) -> int:
        """A character's or enemy's HP less its damage (public for cards in play)."""
        return max(0, self.card(slot).hp - self._damage[slot])

    def has_status(self, slot: int, status: Status) -> bool:
        """Whether a card has a status ailment (public)."""
        return bool(self._status[slot] & STATUS_BIT[status])

    def victory_points(self, seat: int) -> int:
        """The VP of a seat's score pile (public, line 81)."""
        return sum(self.card(s).vp for s in self.pile(seat, SCORE))

    def party(self, seat: int) -> list[int]:
        """A seat's party: its characters in play, active or not, but not unconscious (line
        151)."""
        return [*self.pile(seat, PARTY), *self.pile(seat, ACTIVE)]

    def returns(self) -> list[float]:
        if self._winners is None:
            return [0.0] * self._n
        share = 1.0 / len(self._winners)
        return [share if s in self._winners else 0.0 for s in range(self._n)]

    # ------------------------------------------------------------------ setup (line 9-11)

    def _after_chance(self, step: Step, slot: int, value: int) -> None:
        if self._phase == "first":
            self._opening = seats_from(value, self._n)
            self._turn_seat = value
            self._deal_opening()
        elif self._phase == "deal":
            self._deal_opening()
        elif self._phase == "redraw":
            self._ask_redraw()
        elif self._confused is not None:
            self._confused_target(value)
        else:
            self._reconcile()

    def _deal_opening(self) -> None:
        """The next opening draw of the seat deciding, then its decision (choice 4)."""
        seat = self._opening[0]
        if len(self.pile(seat, HAND)) < HAND_SIZE:
            self._phase = "deal"
            self._draw(seat)
            return
        self._phase, self._current = "opening", seat

    def _draw(self, seat: int) -> None:
        self._ask_chance(
            Step("draw", self.zone_at(seat, DECK), self.zone_at(seat, HAND), 1 << seat)
        )

    def _mulligan(self, seat: int) -> None:
        """The opening hand goes back into the deck, shuffled; 9 new cards (choice 2)."""
        self._mulligans[seat] += 1
        self._shuffle_into(self.zone_at(seat, HAND), self.zone_at(seat, DECK))
        self._deal_opening()

    def _start(self, seat: int, slot: int) -> None:
        self._move(slot, self.zone_at(seat, PARTY))
        self._opening = self._opening[1:]
        if self._opening:
            self._deal_opening()
            return
        self._counters = [START_COUNTERS] * self._n  # line 10
        self._begin_turn(self._turn_seat)

    # ------------------------------------------------------------------ the turn (line 17-46)

    def _begin_turn(self, seat: int) -> None:
        self._turn_seat = seat
        for slot, home in enumerate(self._home):  # the owner's round begins (line 156)
            if home == seat:
                self._recovered[slot] = 0
        self._redraws = 0
        self._ask_redraw()

    def _ask_redraw(self) -> None:
        """Redraw phase (line 32): asked while a redraw is possible, as all can see."""
        seat = self._turn_seat
        if self._redraws < REDRAWS and self.pile(seat, HAND) and self.pile(seat, DECK):
            self._phase, self._current = "redraw", seat
            return
        self._phase, self._current = "play", seat

    def _status_phase(self) -> None:
        """Line 42-43: cure all but poison and paralysis; poison deals 1 (no kill outside an
        attempt, line 121)."""
        for slot in self.party(self._turn_seat):
            self._status[slot] &= POISON | PARALYSIS
            if self._status[slot] & POISON:
                self._damage[slot] += 1
        self._phase, self._current = "mission", self._turn_seat

    def _reconcile(self) -> None:
        """Line 46: draw up to 9 (decking if the deck is empty) or discard down to 9."""
        seat = self._turn_seat
        held = len(self.pile(seat, HAND))
        self._phase = "reconcile"
        if held > HAND_SIZE:
            self._current = seat
        elif held == HAND_SIZE:
            self._end_turn()
        elif self.pile(seat, DECK):
            self._draw(seat)
        else:
            self._phase, self._current = "decking", seat

    def _end_turn(self) -> None:
        seat = self._turn_seat
        following = left_of(seat, self._live, self._n)
        if following <= seat:
            self._round += 1
            if self._round_cap is not None and self._round >= self._round_cap:
                best = max(self.victory_points(s) for s in self.in_game())
                self._finish(tuple(s for s in self.in_game() if self.victory_points(s) == best))
                return
        self._begin_turn(following)

    def _finish(self, winners: tuple[int, ...]) -> None:
        self._winners = winners
        self._phase = "over"
        self._windows = Windows()
        self._current = TERMINAL

    def _knock_out(self, seat: int) -> None:
        """Line 14: the seat has lost and sits out; the last seat in wins."""
        self._live &= ~(1 << seat)
        if len(self.in_game()) == 1:
            self._finish(self.in_game())

    def _check_parties(self) -> None:
        """Line 14, 75: a seat with no character in its party is out, at any time."""
        for seat in self.in_game():
            if self._phase != "over" and not self.party(seat):
                self._knock_out(seat)

    # ------------------------------------------------------------------ the attempt (47-68)

    def _begin_attempt(self, seat: int, slot: int) -> None:
        self._move(slot, self.zone("mission"))
        self._attempter = seat
        self._pp_used = self._ep_used = 0
        self._boss = False
        for other in self.in_game():  # line 121: HP 0 outside an attempt kills now
            for member in self.party(other):
                if self.hp_left(member) == 0:
                    self._kill(member)
        self._check_parties()
        if self._phase == "over":
            return
        if not self._live >> seat & 1:
            self._end_attempt()
            return
        self._phase = "party"
        self._ask_party()

    def _mission(self) -> Card:
        return self.card(self._zones[self.zone("mission")][0])

    def _ask_party(self) -> None:
        """Party step (line 50): asked while a character fits in the PP left."""
        room = self._mission().pp - self._pp_used
        if any(self.card(s).cost <= room for s in self.pile(self._attempter, PARTY)):
            self._current = self._attempter
            return
        self._phase = "enemies"
        self._order = tuple(s for s in seats_from(self._attempter + 1, self._n)[:-1])
        self._order_at = 0
        self._ask_enemies()

    def _ask_enemies(self) -> None:
        """Enemy step (line 51-53): each other seat in turn, once round, while it holds cards
        and EP is left."""
        room = self._mission().ep - self._ep_used
        while self._order_at < len(self._order):
            seat = self._order[self._order_at]
            if self._live >> seat & 1 and room > 0 and self.pile(seat, HAND):
                self._current = seat
                return
            self._order_at += 1
        self._party_attack()

    def _awake_enemies(self) -> list[int]:
        """The enemies still in the attempt: a sleeping one is out of it until the Enemy
        Status step, though it may be targeted (line 175)."""
        return [s for s in self._zones[self.zone("enemies")] if not self._status[s] & SLEEP]

    def _party_attack(self) -> None:
        if not self._awake_enemies():
            self._resolve_attempt()
            return
        self._phase = "party-attack"
        self._ask_party_attack()

    def _ask_party_attack(self) -> None:
        """Line 56 (choice 13): the step ends by itself once nothing else can be done (a
        public fact: the actions are on face-up cards)."""
        if self._combat_decisions(self._attempter) == [PASS]:
            self._enemy_attack()
        else:
            self._current = self._attempter

    def _enemy_attack(self) -> None:
        """Enemy Attack step (line 57-59): each enemy's controller in turn from the
        attempter's left acts with its enemies until it passes; after the Enemy Status step,
        with the enemies that woke (line 62)."""
        controllers = {self._home[s] for s in self._woken or self._awake_enemies()}
        self._order = tuple(s for s in seats_from(self._attempter + 1, self._n) if s in controllers)
        self._order_at = 0
        self._phase = "enemy-attack"
        self._ask_enemy_attack()

    def _ask_enemy_attack(self) -> None:
        while self._order_at < len(self._order):
            seat = self._order[self._order_at]
            # A controller with nothing its enemies could do is not asked (public).
            if self._live >> seat & 1 and self._combat_decisions(seat) != [PASS]:
                self._current = seat
                return
            self._order_at += 1
        self._enemy_status()

    def _enemy_status(self) -> None:
        """Enemy Status step (line 60-62): poisoned enemies take 1; then, if enemies remain,
        the sleeping ones wake and act as in the Enemy Attack step, once."""
        if self._woken:
            self._resolve_attempt()
            return
        enemies = self._zones[self.zone("enemies")]
        for slot in list(enemies):
            if self._status[slot] & POISON:
                self._hurt(slot, 1)
        sleepers = tuple(s for s in enemies if self._status[s] & SLEEP)
        if not self._awake_enemies() or not sleepers:
            self._resolve_attempt()  # line 67-68: sleepers left alone count as defeated
            return
        for slot in sleepers:
            self._status[slot] &= ~SLEEP
        self._woken = sleepers
        self._enemy_attack()

    def _resolve_attempt(self) -> None:
        """Resolution (line 63-66): success scores the mission and its RP; either way the
        enemies left are discarded."""
        seat = self._attempter
        mission = self._zones[self.zone("mission")][0]
        if self._live >> seat & 1 and not self._awake_enemies():
            self._move(mission, self.zone_at(seat, SCORE))
            self._counters[seat] += self.card(mission).rp
            if self.victory_points(seat) >= VICTORY:  # line 13
                self._finish((seat,))
                return
        self._end_attempt()

    def _end_attempt(self) -> None:
        seat = self._attempter
        for slot in list(self._zones[self.zone("mission")]):
            self._to_discard(slot)
        for slot in list(self._zones[self.zone("enemies")]):
            self._to_discard(slot)
        for slot in list(self.pile(seat, ACTIVE)):
            self._status[slot] &= ~SLEEP  # line 175: back to the party, awake
            self._move(slot, self.zone_at(seat, PARTY))
        self._spent = [0] * len(self._spent)
        self._boost = [0] * self._n
        self._attempter = -1
        self._order, self._order_at = (), 0
        self._woken = ()
        if self._live >> seat & 1:
            self._reconcile()
        else:
            self._end_turn()

    # ------------------------------------------------------------------ combat (105-131)

    def _hurt(self, slot: int, amount: int) -> None:
        """Damage a character or enemy of the attempt; at 0 HP it is killed (line 117-121)."""
        self._damage[slot] += amount
        if self.hp_left(slot) == 0:
            self._kill(slot)

    def _kill(self, slot: int) -> None:
        card = self.card(slot)
        if card.type == "enemy":
            self._to_discard(slot)
        else:
            self._status[slot] = 0  # line 118: cured
            self._move(slot, self.zone_at(self._home[slot], UNCONSCIOUS))

    def _to_discard(self, slot: int) -> None:
        self._reset_slot(slot)
        self._move(slot, self.zone_at(self._home[slot], DISCARD))

    def _after_use(self, slot: int) -> None:
        """Line 130: a Reward goes back to the bank (discarded if the bank is full: choice
        24 as refined in rules.md) or is discarded."""
        seat = self._home[slot]
        if self.card(slot).after_use == "bank" and len(self.pile(seat, BANK)) < BANK_LIMIT:
            self._reset_slot(slot)
            self._move(slot, self.zone_at(seat, BANK))
        else:
            self._to_discard(slot)

    def _resolve_attack(self) -> None:
        """The window closed: each target still in the attempt takes the damage less its
        Defense, and the attack's ailment (line 122, 125)."""
        attack = self._attack
        assert attack is not None
        self._attack = None
        fighting = {self.zone("enemies"), self.zone_at(self._attempter, ACTIVE)}
        for target, reduced in zip(attack.targets, attack.reduced, strict=True):
            if self._where[target] not in fighting:
                continue
            self._status[target] |= attack.inflicts
            self._hurt(target, max(0, attack.amount - max(0, reduced)))  # line 116
        self._check_parties()
        alive = tuple(t for t in attack.targets if self._where[t] in fighting)
        if attack.combo and alive:
            self._repeat = attack._replace(targets=alive, reduced=(-1,) * len(alive))

    def _go_on(self) -> None:
        """After an act in the attempt: ask the window's seat, or resolve a closed window and
        carry on with the step."""
        if self._windows:
            self._windows, closed = self._windows.settle(self._live, self._may_defend)
            if closed is None:
                self._current = self._windows.asked
                return
            self._resolve_attack()
            if self._phase == "over":
                return
        seat = self._attempter
        if not self._live >> seat & 1 or not self._awake_enemies():
            self._repeat = None
            self._resolve_attempt()  # line 67-68: the steps left are skipped
        elif self._repeat is not None:
            self._current = self._repeat.seat
        elif self._phase == "party-attack":
            self._ask_party_attack()
        else:
            self._ask_enemy_attack()

    def _may_defend(self, seat: int) -> bool:
        """Public: whether `seat` could Defend against the attack in the window."""
        attack = self._attack
        return attack is not None and any(True for _ in self._defenses(seat, attack))

    def _defenses(self, seat: int, attack: Attack) -> Iterable[Defend]:
        """Every Defense `seat` may use against `attack`: a targeted card of its own, not yet
        defended in this attack, using its own Defense or (a character) an inventory Reward's
        (line 111)."""
        for target, reduced in zip(attack.targets, attack.reduced, strict=True):
            # One Defense per target per attack (rules.md): -1 marks none used yet.
            if self._home[target] != seat or reduced != -1:
                continue
            for source, index, _ in self._usable(target, ("defense",)):
                yield Defend(target, source, index)

    def _usable(self, user: int, kinds: tuple[str, ...]) -> Iterable[tuple[int, int, CombatAction]]:
        """(source, action index, action) of each combat action of `kinds` the character or
        enemy in slot `user` may use now: its own, and for a character of the attempt the
        Rewards in its owner's inventory whose classifications it has (line 158), one slot per
        Reward kind."""
        card = self.card(user)
        status = self._status[user]
        if status & SLEEP:  # line 175: out of the attempt, it uses nothing
            return
        for index, action in enumerate(card.actions):
            if action.kind in kinds and self._may_use(user, card, action, status, user):
                yield user, index, action
        if card.type != "character":
            return
        seen: set[int] = set()
        for source in self.pile(self._home[user], INVENTORY):
            kind = self._ident[source]
            reward = self._g.cards[kind]
            if kind in seen or not reward.classes <= card.classes:
                continue
            seen.add(kind)
            if status & BLOCK and reward.keywords & {"magic", "move"}:  # line 172
                continue
            for index, action in enumerate(reward.actions):
                if action.kind in kinds and self._may_use(user, card, action, status, source):
                    yield source, index, action

    def _may_use(
        self, user: int, card: Card, action: CombatAction, status: int, source: int
    ) -> bool:
        if source == user and self._spent[user] & SPENT_BY_KIND[action.kind]:
            return False
        if action.kind == "recovery" and source == user and self._recovered[user]:
            return False
        if card.type == "character":
            return not (status & PARALYSIS and action.kind in ("attack", "support"))  # 171
        return not (status & BLOCK and action.kind != "attack")  # line 172: enemy Block

    # ------------------------------------------------------------------ decisions

    def _decisions(self, cur: int) -> list[Action]:
        if self._windows:
            attack = self._attack
            assert attack is not None
            return [*self._defenses(cur, attack), PASS]
        repeat = self._repeat
        if repeat is not None:
            again = Act(repeat.source, repeat.user, repeat.which, slot_list(repeat.targets))
            return [again, PASS]
        phase = self._phase
        if phase == "opening":
            return self._opening_decisions(cur)
        if phase == "redraw":
            return [*(Redraw(s, c.id) for s, c in self._held(cur, HAND)), PASS]
        if phase == "play":
            return self._play_decisions(cur)
        if phase == "mission":
            return [*(Attempt(s, c.id) for s, c in self._held(cur, HAND) if c.type == "mission"),
                    PASS]  # fmt: skip
        if phase == "party":
            room = self._mission().pp - self._pp_used
            return [*(Enlist(s) for s in self.pile(cur, PARTY) if self.card(s).cost <= room), PASS]
        if phase == "enemies":
            return self._enemy_decisions(cur)
        if phase in ("party-attack", "enemy-attack"):
            return self._combat_decisions(cur)
        if phase == "reconcile":
            return [Discard(s, c.id) for s, c in self._held(cur, HAND)]
        if phase == "decking":
            return [*(Reshuffle(slot_list(p)) for p in self._payments(cur)), PASS]
        return []

    def _held(self, seat: int, offset: int) -> list[tuple[int, Card]]:
        """The cards this state knows in one of a seat's hidden zones (all of them on the
        seat's own replica; on another's, the one an action being checked named)."""
        cards = self._g.cards
        return [(s, cards[k]) for s in self.pile(seat, offset) if (k := self._ident[s]) != UNKNOWN]

    def _opening_decisions(self, cur: int) -> list[Action]:
        starts: list[Action] = [
            Start(s, c.id) for s, c in self._held(cur, HAND) if c.type == "character"
        ]
        # line 9: a hand without a Character must be redrawn; else at most 7 redraws.
        if not starts or self._mulligans[cur] < MAX_MULLIGANS:
            starts.append(MULLIGAN)
        return starts

    def _play_decisions(self, cur: int) -> list[Action]:
        out: list[Action] = []
        bank = self._held(cur, BANK)
        for slot, card in self._held(cur, HAND):
            if card.type == "character":
                out.append(Recruit(slot, card.id))
            elif card.type == "reward":
                if len(self.pile(cur, BANK)) < BANK_LIMIT:
                    out.append(Bank(slot, card.id, -1, None))
                else:  # line 36-37: a full bank discards one first
                    out += [Bank(slot, card.id, d, dc.id) for d, dc in bank]
                if card.rp <= self._counters[cur]:
                    out.append(Equip(slot, card.id))
        out += [Equip(s, c.id) for s, c in bank if c.rp <= self._counters[cur]]  # line 38
        out.append(PASS)
        return out

    def _enemy_decisions(self, cur: int) -> list[Action]:
        room = self._mission().ep - self._ep_used
        active = self.pile(self._attempter, ACTIVE)
        out: list[Action] = []
        for slot, card in self._held(cur, HAND):
            if card.type == "enemy" and card.size <= room and not (card.boss and self._boss):
                out.append(Oppose(slot, card.id, ""))
            elif card.type == "roadblock" and card.size <= room:
                out += [
                    Oppose(slot, card.id, slot_list(t))
                    for t in _target_sets(active, card.actions[0].targets)
                ]
        out.append(PASS)
        return out

    def _combat_decisions(self, cur: int) -> list[Action]:
        """Party Attack step: the attempter's active members attack, support, recover (line
        55); Enemy Attack step: the asked controller's enemies do (line 57)."""
        enemies = self._zones[self.zone("enemies")]
        active = self.pile(self._attempter, ACTIVE)
        if self._phase == "party-attack":
            users, foes, friends = active, enemies, active
        else:
            users = [s for s in self._woken or enemies if self._home[s] == cur and s in enemies]
            foes, friends = active, enemies
        out: list[Action] = []
        for user in users:
            for source, index, action in self._usable(user, ("attack", "support", "recovery")):
                if action.kind == "support":
                    out.append(Act(source, user, index, ""))
                    continue
                if self._status[user] & CONFUSION:  # line 174: the targets are rolled
                    out.append(Act(source, user, index, ""))
                    continue
                pool = foes if action.kind == "attack" else friends
                out += [
                    Act(source, user, index, slot_list(t))
                    for t in _target_sets(pool, action.targets)
                ]
        out.append(PASS)
        return out

    def _payments(self, seat: int) -> list[tuple[int, ...]]:
        """The ways to pay 2 VP (line 165): one mission of 2 or more, or two of 1."""
        score = self.pile(seat, SCORE)
        big = [(s,) for s in score if self.card(s).vp >= DECKING_PRICE]
        ones = [s for s in score if self.card(s).vp == 1]
        return big + [tuple(p) for p in combinations(ones, 2)]

    def _verify_decision(self, cur: int, action: Action) -> None:
        """The one check: the action is among the seat's decisions. A replica that cannot list
        another seat's hidden cards checks on a copy that learns the cards the action names;
        a banked card's public form names none, so only its place and the drop are checked
        (the table proves the card: docs/protocol/mental-poker.md)."""
        if isinstance(action, Bank) and action.card is None:
            self._check_hidden_bank(cur, action)
            return
        named = _named_cards(action)
        judge = self
        if named and self.viewer not in (None, cur):
            judge = self.clone()
            for slot, card in named:
                judge._check_slot(slot)
                judge._learn(slot, judge._kind(card))
        if action not in judge._decisions(cur):
            raise IllegalActionError(f"seat {cur} may not {action} now")

    def _check_hidden_bank(self, cur: int, action: Bank) -> None:
        if self.viewer in (None, cur):
            raise IllegalActionError("a seat that knows the card banks it by name")
        if self._phase != "play" or self._windows:
            raise IllegalActionError("a card is banked only in the Play phase")
        self._check_slot(action.slot)
        if self._where[action.slot] != self.zone_at(cur, HAND):
            raise IllegalActionError(f"slot {action.slot} is not in seat {cur}'s hand")
        full = len(self.pile(cur, BANK)) >= BANK_LIMIT
        if full != (action.drop >= 0):
            raise IllegalActionError("a full bank discards one card first, else none")
        if full and (
            action.drop_card is None or self._where[action.drop] != self.zone_at(cur, BANK)
        ):
            raise IllegalActionError(f"slot {action.drop} is not in seat {cur}'s bank")

    # ------------------------------------------------------------------ applying

    def _apply(self, action: Action) -> None:
        if self._current == CHANCE:
            self._apply_outcome(action)
            return
        seat = self._current
        for slot, card in _named_cards(action):
            self._learn(slot, self._kind(card))
        if self._windows:
            self._answer(seat, action)
        elif self._repeat is not None:
            self._combo(seat, action)
        elif isinstance(action, Start):
            self._show(action.slot, action.card, self._everyone)
            self._start(seat, action.slot)
        elif isinstance(action, Mulligan):
            self._mulligan(seat)
        elif isinstance(action, Pass):
            self._pass(seat)
        elif isinstance(action, Redraw):
            self._move(action.slot, self.zone_at(seat, DISCARD))
            self._redraws += 1
            self._draw(seat)
        elif isinstance(action, Recruit):
            self._recruit(seat, action.slot)
        elif isinstance(action, Bank):
            if action.drop >= 0:
                self._to_discard(action.drop)
            self._move(action.slot, self.zone_at(seat, BANK))
        elif isinstance(action, Equip):
            self._counters[seat] -= self.card(action.slot).rp
            self._move(action.slot, self.zone_at(seat, INVENTORY))
        elif isinstance(action, Attempt):
            self._begin_attempt(seat, action.slot)
        elif isinstance(action, Enlist):
            self._pp_used += self.card(action.slot).cost
            self._move(action.slot, self.zone_at(seat, ACTIVE))
            self._ask_party()
        elif isinstance(action, Oppose):
            self._oppose(action)
        elif isinstance(action, Act):
            self._act(seat, action)
        elif isinstance(action, Discard):
            self._move(action.slot, self.zone_at(seat, DISCARD))
            self._reconcile()
        else:
            assert isinstance(action, Reshuffle)
            for slot in parse_slots(action.missions):
                self._move(slot, self.zone_at(seat, OUT))
            self._shuffle_into(self.zone_at(seat, DISCARD), self.zone_at(seat, DECK))
            self._reconcile()

    def _pass(self, seat: int) -> None:
        phase = self._phase
        if phase == "redraw":
            self._phase = "play"
        elif phase == "play":
            self._status_phase()
        elif phase == "mission":
            self._reconcile()
        elif phase == "party":
            self._pp_used = self._mission().pp  # the step is over
            self._ask_party()
        elif phase == "enemies":
            self._order_at += 1
            self._ask_enemies()
        elif phase == "party-attack":
            self._enemy_attack()
        elif phase == "enemy-attack":
            self._order_at += 1
            self._ask_enemy_attack()
        else:  # decking: the seat declines to pay, and loses (line 15)
            self._knock_out(seat)
            if self._phase != "over":
                self._end_turn()

    def _recruit(self, seat: int, slot: int) -> None:
        """Line 39-40, 73: a character with the name of one in play replaces it, in the same
        pile; the old one is discarded."""
        person = self.card(slot).person
        dest = self.zone_at(seat, PARTY)
        for pile in (PARTY, ACTIVE, UNCONSCIOUS):
            for old in self.pile(seat, pile):
                if self.card(old).person == person:
                    dest = self.zone_at(seat, pile)
                    self._to_discard(old)
        self._move(slot, dest)

    def _oppose(self, action: Oppose) -> None:
        card = self.card(action.slot)
        self._ep_used += card.size
        if card.type == "enemy":
            self._boss |= card.boss
            self._move(action.slot, self.zone("enemies"))
        else:  # a Roadblock has its effect, then is discarded (line 88)
            self._show(action.slot, action.card, self._everyone)
            strike = card.actions[0]
            inflicts = STATUS_BIT[strike.inflicts] if strike.inflicts else 0
            for target in parse_slots(action.targets):
                self._status[target] |= inflicts
                self._hurt(target, strike.amount)
            self._to_discard(action.slot)
            self._check_parties()
            if self._phase == "over":
                return
            if not self._live >> self._attempter & 1:
                self._end_attempt()
                return
        self._ask_enemies()

    def _act(self, seat: int, action: Act) -> None:
        source = action.source
        combat = self.card(source).actions[action.index]
        targets = parse_slots(action.targets)
        if source == action.user:
            self._spent[source] |= SPENT_BY_KIND[combat.kind]
            if combat.kind == "recovery":
                self._recovered[source] = 1
        else:
            self._after_use(source)
        if combat.kind == "support":
            self._boost[seat] += combat.amount
            self._go_on()
        elif self._status[action.user] & CONFUSION:
            left = min(combat.targets, len(self._everything()))
            self._confused = Confused(seat, source, action.user, action.index, left, ())
            self._roll_target()
        else:
            self._strike(seat, source, action.user, action.index, targets)

    def _everything(self) -> list[int]:
        """Every applicable target of a confused card: all active members and enemies."""
        return sorted([*self.pile(self._attempter, ACTIVE), *self._zones[self.zone("enemies")]])

    def _roll_target(self) -> None:
        confused = self._confused
        assert confused is not None
        left = [t for t in self._everything() if t not in confused.chosen]
        if confused.left and left:
            self._ask_chance(Step("roll", sides=len(left)))
            return
        self._confused = None
        seat, source, user, which, _, chosen = confused
        self._strike(seat, source, user, which, tuple(sorted(chosen)))

    def _confused_target(self, value: int) -> None:
        """Line 174: the roll picks one of the targets not yet picked."""
        confused = self._confused
        assert confused is not None
        left = [t for t in self._everything() if t not in confused.chosen]
        chosen = (*confused.chosen, left[value])
        self._confused = confused._replace(left=confused.left - 1, chosen=chosen)
        self._roll_target()

    def _strike(
        self, seat: int, source: int, user: int, which: int, targets: tuple[int, ...]
    ) -> None:
        """An Attack or a Recovery lands on its targets (an Attack through its window)."""
        combat = self.card(source).actions[which]
        if combat.kind == "recovery":
            for target in targets:
                self._damage[target] = max(0, self._damage[target] - combat.amount)
        else:
            inflicts = STATUS_BIT[combat.inflicts] if combat.inflicts else 0
            amount = combat.amount + self._boost[seat]
            self._boost[seat] = 0
            no_defense = (-1,) * len(targets)
            self._declare(
                Attack(seat, source, user, which, amount, inflicts, targets, no_defense,
                       combat.combo)
            )  # fmt: skip
        self._go_on()

    def _declare(self, attack: Attack) -> None:
        """An Attack opens a window asking from the attacker's left (line 111, choice 12)."""
        self._attack = attack
        order = seats_from(attack.seat + 1, self._n)
        self._windows = self._windows.open(Reason.ATTACK, attack.source, order)

    def _combo(self, seat: int, action: Action) -> None:
        """Line 133: the same action again on the same targets, a distinct attack, or not."""
        repeat = self._repeat
        assert repeat is not None
        self._repeat = None
        if isinstance(action, Act):
            amount = self.card(repeat.source).actions[repeat.which].amount + self._boost[seat]
            self._boost[seat] = 0
            self._declare(repeat._replace(amount=amount, combo=repeat.combo - 1))
        self._go_on()

    def _answer(self, seat: int, action: Action) -> None:
        if isinstance(action, Pass):
            self._windows = self._windows.passed(seat)
        else:
            assert isinstance(action, Defend) and self._attack is not None
            combat = self.card(action.source).actions[action.index]
            if action.source == action.target:
                self._spent[action.target] |= DEFENDED
            else:
                self._after_use(action.source)
            attack = self._attack
            reduced = tuple(
                combat.amount if t == action.target else r
                for t, r in zip(attack.targets, attack.reduced, strict=True)
            )
            self._attack = attack._replace(reduced=reduced)
            self._windows = self._windows.acted(seat)
        self._go_on()

    # ------------------------------------------------------------ copies and forms

    def clone(self) -> RpgGetState:
        other = self._clone_zones()
        other._g = self._g
        other._public_zones = self._public_zones
        other._round_cap = self._round_cap
        other._counters = self._counters[:]
        other._live = self._live
        other._mulligans = self._mulligans[:]
        other._turn_seat = self._turn_seat
        other._round = self._round
        other._redraws = self._redraws
        other._phase = self._phase
        other._opening = self._opening
        other._attempter = self._attempter
        other._pp_used = self._pp_used
        other._ep_used = self._ep_used
        other._boss = self._boss
        other._order = self._order
        other._order_at = self._order_at
        other._boost = self._boost[:]
        other._attack = self._attack  # immutable: shared
        other._repeat = self._repeat
        other._confused = self._confused
        other._windows = self._windows
        other._winners = self._winners
        other._woken = self._woken
        return other

    def _attempt_public(self) -> list[int | list[int]]:
        return [
            self._attempter, self._pp_used, self._ep_used, int(self._boss),
            list(self._order), self._order_at, list(self._boost), _attack_public(self._attack),
            list(self._woken), _attack_public(self._repeat),
            [] if self._confused is None else [*self._confused[:5], *self._confused.chosen],
        ]  # fmt: skip

    def public_sections(self) -> dict[str, Canonical]:
        return {
            "turn": {
                "seat": self._turn_seat,
                "round": self._round,
                "phase": self._phase,
                "current": self._current,
                "opening": list(self._opening),
                "redraws": self._redraws,
                "windows": self._windows.public(),
                "winners": None if self._winners is None else list(self._winners),
            },
            "attempt": self._attempt_public(),
            "zones": self.zones_public(),
            "cards": self.slot_rows(self._public_zones),
            "players": {
                "counters": list(self._counters),
                "live": self._live,
                "mulligans": list(self._mulligans),
            },
        }

    def search_key(self) -> Hashable:
        attack = self._attack
        return (
            *self._cards_key(),
            tuple(self._counters),
            self._live,
            tuple(self._mulligans),
            self._turn_seat,
            self._round,
            self._redraws,
            PHASES.index(self._phase),
            self._current,
            self._opening,
            self._attempter,
            self._pp_used,
            self._ep_used,
            self._boss,
            self._order,
            self._order_at,
            tuple(self._boost),
            () if attack is None else attack,  # ints and tuples only: no None
            self._windows.key(),
            -1 if self._winners is None else self._winners,
            self._woken,
            () if self._repeat is None else self._repeat,
            () if self._confused is None else self._confused,
        )

    def __str__(self) -> str:
        vp = [self.victory_points(s) for s in range(self._n)]
        return f"<RPG Get! round {self._round} {self._phase}, seat {self._turn_seat}, VP {vp}>"


def _attack_public(attack: Attack | None) -> list[int]:
    """An attack's fields as ints, for the digest ([] for none)."""
    if attack is None:
        return []
    head = (attack.seat, attack.source, attack.user, attack.which, attack.amount, attack.inflicts)
    return [*head, attack.combo, *attack.targets, *attack.reduced]


def _target_sets(pool: Sequence[int], most: int) -> list[tuple[int, ...]]:
    """Every choice of 1 to `most` distinct targets from `pool` (line 124: fewer allowed, never
    one twice); the empty choice when there is nothing to target (line 123)."""
    if not pool:
        return [()]
    return [t for n in range(1, min(most, len(pool)) + 1) for t in combinations(sorted(pool), n)]


def _named_cards(action: Action) -> list[tuple[int, str]]:
    """The (slot, card) pairs an action shows."""
    out: list[tuple[int, str]] = []
    slot, card = getattr(action, "slot", None), getattr(action, "card", None)
    if isinstance(slot, int) and isinstance(card, str):
        out.append((slot, card))
    if isinstance(action, Bank) and action.drop >= 0 and action.drop_card is not None:
        out.append((action.drop, action.drop_card))
    return out
