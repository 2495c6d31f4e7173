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
from typing import Literal, NamedTuple, get_args

from p2pcards import interpreter
from p2pcards.abilities import Effect
from p2pcards.answers import Take
from p2pcards.deckmodel import KnownDecksModel
from p2pcards.decks import deck_rows
from p2pcards.digest import Canonical, Encoded
from p2pcards.engine import CHANCE, TERMINAL, Action, Game
from p2pcards.errors import IllegalActionError
from p2pcards.games.rpg_get.actions import (
    MULLIGAN,
    PASS,
    Act,
    Activate,
    Attempt,
    Bank,
    Defend,
    Discard,
    Enlist,
    Equip,
    Flip,
    MakeRoom,
    Mulligan,
    Oppose,
    Pass,
    PlayEvent,
    Recruit,
    Redraw,
    Reshuffle,
    Start,
    parse_slots,
    slot_list,
)  # fmt: skip
from p2pcards.games.rpg_get.cards import STATUSES, Card, CombatAction, Status
from p2pcards.interpreter import Ask, CardBook, Facts, Frame, Modifiers
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
    ("destroyed", "owner"),
)
PER_SEAT = len(SEAT_ZONES)
DECK, HAND, DISCARD, PARTY, ACTIVE, UNCONSCIOUS, INVENTORY, BANK, SCORE, OUT, DESTROYED = range(
    len(SEAT_ZONES)
)
Phase = Literal[
    "first", "deal", "opening", "redraw", "play", "mission", "party", "enemies",
    "party-attack", "enemy-attack", "reconcile", "decking", "over", "start",
]  # fmt: skip
PHASES: tuple[Phase, ...] = get_args(Phase)
PHASE_CODES = {phase: code for code, phase in enumerate(PHASES)}
"""Each phase's number in a search key."""
OWN_VERBS = frozenset({"status", "cure", "rank", "resurrect", "recruit", "bank_destroy", "unscore"})
"""The verbs of WORDS only RPG Get!'s board carries (ailments, ranks, the unconscious pile,
the Enemy step, the bank, the score pile): this game's code, not the interpreter's."""
Rank = Literal["middle", "front", "back"]
RANK_NAMES: tuple[Rank, ...] = get_args(Rank)
"""Each rank by its code in `_rank` (line 136: Middle is where every card starts)."""
RANKS = {rank: code for code, rank in enumerate(RANK_NAMES)}
MIDDLE, FRONT, BACK = (RANKS[r] for r in RANK_NAMES)
NO_COIN, ATTACKER_COIN = -2, -1
"""`_coin_for`: no rank coin in the air; the attacker's (line 138); else the target's slot."""
ATTACKED, DEFENDED, SUPPORTED = 1, 2, 4
"""`_spent` bits: the card's Attack, Defense and Support of this attempt (line 100–104)."""
STATUS_BIT = {status: 1 << i for i, status in enumerate(STATUSES)}
POISON, PARALYSIS, BLOCK, SLEEP, CONFUSION, STUN = (STATUS_BIT[s] for s in STATUSES)
TARGETED = frozenset({"member", "fighter", "enemy"})
"""The selectors that target (line 123: an active member or an enemy in play); the others
choose ("party member", the unconscious pile, the score pile: line 125)."""
SPENT_BY_KIND = {"attack": ATTACKED, "defense": DEFENDED, "support": SUPPORTED, "recovery": 0}
COMBAT_KINDS = ("attack", "support", "recovery")
"""The actions a card uses in its side's attack step (line 55, 57)."""


class Reason(IntEnum):
    """Why a window opened."""

    ATTACK = 0  # an Attack declared: the targets' side may Defend (line 111)
    EVENTS = 1  # the Party Attack step begins: any seat may play an Event (line 78, choice 35)


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
    lucky: tuple[int, ...] = ()
    """The targets in the Back rank whose coin came up heads (line 140): 1 less damage."""
    flipped: int = 0
    """How many of the attack's coin flips are done (line 138, 140)."""


class SeatSums(NamedTuple):
    """What a seat has, added up in one pass (`RpgGetState.seat_sums`)."""

    vp: int  # in the score pile
    counters: int
    hp: int  # HP left, over the party
    attack: int  # the party's `attack_power`s
    members: int  # of the party
    inventory: int  # cards
    bank: int
    hand: int
    deck: int
    active_attack: int  # the Active characters' `attack_power`s alone
    ailments: int  # over the party


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
    """The set with the tables the rules read, and the interpreter's book of it."""

    def __init__(self, game: Game, cards: Sequence[Card], deck_model: KnownDecksModel) -> None:
        super().__init__(game, cards, deck_model)
        self.cards = tuple(cards)
        facts = [
            Facts(c.id, c.type, (c.tribe,) if c.tribe else (), tuple(sorted(c.classes)),
                  cost=c.cost)
            for c in cards
        ]  # fmt: skip
        what = {
            "member": frozenset({"character"}),
            "party_member": frozenset({"character"}),
            "unconscious": frozenset({"character"}),
            "fighter": frozenset({"character", "enemy"}),
            "scored": frozenset({"mission"}),
        }
        self.book = CardBook.of(
            [c.abilities for c in cards], facts, {}, what_types=what, seat_order="table",
            hidden_in_play=False,
        )  # fmt: skip
        self.window_events = any(c.type == "event" and c.when == "attempt" for c in cards)
        self.activated = frozenset(
            k for k, c in enumerate(cards) if any(a.trigger == "activated" for a in c.abilities)
        )
        """The kinds with an Ability (line 93): the only cards `_activations` looks at."""
        self.party_recovery = frozenset(
            k for k, c in enumerate(cards) if any(a.party for a in c.actions)
        )
        """The kinds with a Recovery on party members (line 125), usable outside attempts."""
        self.attack_power = tuple(
            max((a.amount * a.targets for a in c.actions if a.kind == "attack"), default=0)
            for c in cards
        )
        """Each kind's most damage by one of its Attacks at full targets (X times Y, line
        122), by kind: what `RpgGetState.seat_sums` adds up."""


class RpgGetState(ZoneState):
    """A position of RPG Get!, or one seat's replica of it."""

    __slots__ = (
        "_ask",
        "_atk_p",
        "_atk_t",
        "_attack",
        "_attempter",
        "_book",
        "_boost",
        "_boss",
        "_coin_for",
        "_confused",
        "_counters",
        "_damage",
        "_ep_used",
        "_faceup",
        "_frames",
        "_g",
        "_hp_p",
        "_hp_t",
        "_kw",
        "_live",
        "_memo",
        "_more",
        "_mulligans",
        "_opening",
        "_order",
        "_order_at",
        "_phase",
        "_pp_used",
        "_public_zones",
        "_rank",
        "_recovered",
        "_redraws",
        "_repeat",
        "_returning",
        "_rolling",
        "_room_after",
        "_round",
        "_round_cap",
        "_spent",
        "_status",
        "_turn_seat",
        "_used",
        "_windows",
        "_winners",
        "_woken",
    )  # fmt: skip
    _damage: list[int]
    _spent: list[int]
    _recovered: list[int]
    _status: list[int]
    _rank: list[int]
    _used: list[int]
    _faceup: list[int]
    _atk_p: list[int]
    _atk_t: list[int]
    _hp_p: list[int]
    _hp_t: list[int]
    _kw: list[int]

    slot_columns = SlotColumns(
        SlotColumn("_damage", 0),
        SlotColumn("_spent", 0),
        SlotColumn("_recovered", 0),
        SlotColumn("_status", 0),
        SlotColumn("_rank", MIDDLE),  # line 136: for the attempt only
        SlotColumn("_used", 0, this_turn=True),  # Abilities used this turn, one bit each
        SlotColumn("_faceup", 0),  # a bank card turned face up (line 167)
        SlotColumn("_atk_p", 0),  # modifiers from abilities: attack and HP, permanent
        SlotColumn("_atk_t", 0, this_turn=True),  # ... and this turn's
        SlotColumn("_hp_p", 0),
        SlotColumn("_hp_t", 0, this_turn=True),
        SlotColumn("_kw", 0, unkeyed_because="no keyword is granted: WORDS has no 'grant'"),
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
        self._book = rules.book
        self._frames: list[Frame] = []
        self._ask: Ask | None = None
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
        self._more = [0] * num_players  # a Support's _(+Y): the next attack's extra targets
        self._coin_for = NO_COIN
        self._memo: tuple[int, list[Action]] | None = None
        self._attack: Attack | None = None
        self._repeat: Attack | None = None  # an attack its seat may Combo now (line 133)
        self._returning = -1
        """A used Reward come back to its owner's full bank (line 130), which holds it over
        the limit until the owner discards one of the others (-1: none)."""
        self._rolling = -1
        """The card whose Ability a confused user is resolving: its targets are rolled
        (line 174; -1: none)."""
        self._room_after: int | None = None
        """While the owner is asked to make room: who was to decide next."""
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
        return seat * PER_SEAT + offset

    def pile(self, seat: int, offset: int) -> list[int]:
        """The slots of one of a seat's zones, in order."""
        return self._zones[seat * PER_SEAT + offset]

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

    @property
    def room_for(self) -> int:
        """The Reward come back to its owner's full bank while the owner is asked which bank
        card to discard to make room (public, line 130); -1 for none."""
        return self._returning if self._room_after is not None else -1

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
        k = self._ident[slot]
        if k == UNKNOWN:
            k = self._kind_at(slot)  # raises HiddenInformationError, naming the slot
        return self._g.cards[k]

    def hp_left(self, slot: int) -> int:
        """A character's or enemy's HP less its damage (public for cards in play)."""
        left = self.max_hp(slot) - self._damage[slot]
        return left if left > 0 else 0  # not `max`: it parses keywords on every call (3.11)

    def has_status(self, slot: int, status: Status) -> bool:
        """Whether a card has a status ailment (public)."""
        return bool(self._status[slot] & STATUS_BIT[status])

    def ailments(self, slot: int) -> int:
        """How many status ailments a card has (public)."""
        return self._status[slot].bit_count()

    def rank(self, slot: int) -> Rank:
        """A character's or enemy's rank (public, line 135-140): Middle unless a Rank Change
        moved it in this attempt (ranks last for the attempt, line 136)."""
        return RANK_NAMES[self._rank[slot]]

    def victory_points(self, seat: int) -> int:
        """The VP of a seat's score pile (public, line 81)."""
        return sum(self.card(s).vp for s in self.pile(seat, SCORE))

    def party(self, seat: int) -> list[int]:
        """A seat's party: its characters in play, active or not, but not unconscious (line
        151)."""
        base = seat * PER_SEAT
        return [*self._zones[base + PARTY], *self._zones[base + ACTIVE]]

    def seat_sums(self, seat: int) -> SeatSums:
        """What a seat has (its score, its party, its piles' sizes) in one pass: what an
        evaluation reads at every leaf of a search, so `hp_left`, `ailments` and
        `victory_points` are inlined."""
        ident, cards, power = self._ident, self._g.cards, self._g.attack_power
        damage, hp_p, hp_t, status = self._damage, self._hp_p, self._hp_t, self._status
        zones, base = self._zones, seat * PER_SEAT
        waiting, active = zones[base + PARTY], zones[base + ACTIVE]
        hp = attack = ailing = active_attack = 0
        for zone in (waiting, active):
            for s in zone:
                k = ident[s]
                if k == UNKNOWN:
                    k = self._kind_at(s)  # raises HiddenInformationError, naming the slot
                most = cards[k].hp + hp_p[s] + hp_t[s]
                left = (most if most > 1 else 1) - damage[s]
                if left > 0:
                    hp += left
                attack += power[k]
                ailing += status[s].bit_count()
                if zone is active:
                    active_attack += power[k]
        vp = 0
        for s in zones[base + SCORE]:
            vp += self.card(s).vp
        return SeatSums(
            vp, self._counters[seat], hp, attack, len(waiting) + len(active),
            len(zones[base + INVENTORY]), len(zones[base + BANK]), len(zones[base + HAND]),
            len(zones[base + DECK]), active_attack, ailing,
        )  # fmt: skip

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
        elif self._frames:  # an ability's draw, random target or bank destroy
            if step.kind == "pick":
                self._reset_slot(slot)  # a bank card destroyed is no longer face up
            interpreter.after_chance(self, step, value)
            self._resolve()
        elif self._coin_for != NO_COIN:  # a rank's coin (line 138, 140)
            self._coin(value)
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
        # The owner's round begins (line 156): its characters may Recover again (an enemy's
        # mark goes with it when the attempt ends).
        for slot in (*self.party(seat), *self.pile(seat, UNCONSCIOUS)):
            self._recovered[slot] = 0
        self._redraws = 0
        self._phase = "start"
        interpreter.fire_all(self, "start_of_turn", (seat,))  # Intrinsics (line 95)
        self._resolve()

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
        self._end_turn_columns()
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
        """Line 14: the seat has lost and sits out; the last seat in wins. Its cards in play
        leave play (choice 21): the face-up ones to its discard pile, the enemies it controls
        too; its bank stays face down where it is, its cards out of play (`in_play` skips a
        seat that is out), so that nobody sees them."""
        self._live &= ~(1 << seat)
        if len(self.in_game()) == 1:  # the game is over: nothing need leave
            self._finish(self.in_game())
            return
        for pile in (PARTY, ACTIVE, UNCONSCIOUS, INVENTORY):
            for slot in list(self.pile(seat, pile)):
                self._to_discard(slot)
        for slot in list(self._zones[self.zone("enemies")]):
            if self._home[slot] == seat:
                self._to_discard(slot)
        for slot in self.pile(seat, BANK):
            self._faceup[slot] = 0

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
        others = seats_from(self._attempter + 1, self._n)[:-1]
        if self._g.window_events and others:
            self._windows = self._windows.open(Reason.EVENTS, -1, others)
            self._go_on()
            return
        self._ask_party_attack()

    def _ask_party_attack(self) -> None:
        """Line 56 (choice 13): the step ends by itself once nothing else can be done (a
        public fact: the actions are on face-up cards)."""
        if not self._may_fight(self._attempter):
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
            if self._live >> seat & 1 and (self._may_fight(seat) or self._activations(seat)):
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
        self._more = [0] * self._n
        self._rank = [MIDDLE] * len(self._rank)  # line 136: ranks last for the attempt
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
        """Line 130: a Reward goes back to the bank or is discarded, as the card says (choice
        24); into a full bank it comes all the same, and its owner is asked which of the
        others to discard (`_ask_room`) once the action has run its course."""
        seat = self._home[slot]
        if self.card(slot).after_use == "bank":
            if len(self.pile(seat, BANK)) >= BANK_LIMIT:
                self._returning = slot
            self._reset_slot(slot)
            self._move(slot, self.zone_at(seat, BANK))
        else:
            self._to_discard(slot)

    def _ask_room(self) -> None:
        """A Reward came back to a full bank: once nothing else is under way (no chance step
        pending), its owner makes room before anyone else decides (line 130: "you must
        discard one to make room"); a seat out of the game is asked nothing (choice 40)."""
        slot = self._returning
        if slot < 0 or self._room_after is not None or self._current < 0:
            return
        seat = self._home[slot]
        if not self._live >> seat & 1 or self._where[slot] != self.zone_at(seat, BANK):
            self._returning = -1  # out of the game, or the card left the bank meanwhile
            return
        self._room_after, self._current = self._current, seat
        self._memo = None

    def _make_room(self, action: MakeRoom) -> None:
        self._to_discard(action.slot)
        assert self._room_after is not None
        self._current, self._room_after, self._returning = self._room_after, None, -1

    def _resolve_attack(self) -> bool:
        """The window closed: each target in the Back rank flips its coin (line 140); then
        each target still in the attempt takes the damage less its Defense, 1 more in the
        Front rank (line 138), and the attack's ailment (line 122, 125). False while a coin
        is in the air."""
        attack = self._attack
        assert attack is not None
        fighting = {self.zone("enemies"), self.zone_at(self._attempter, ACTIVE)}
        fixed = self.card(attack.source).actions[attack.which].fixed
        while attack.flipped < len(attack.targets):
            target = attack.targets[attack.flipped]
            if not fixed and self._where[target] in fighting and self._rank[target] == BACK:
                self._coin_for = target
                self._ask_chance(Step("roll", sides=2))
                return False
            attack = self._attack = attack._replace(flipped=attack.flipped + 1)
        self._attack = None
        for target, reduced in zip(attack.targets, attack.reduced, strict=True):
            if self._where[target] not in fighting:
                continue
            self._status[target] |= attack.inflicts
            damage = 0
            if not fixed:  # line 117: '*' is an unmodifiable 0
                rank = self._rank[target]
                damage = attack.amount - max(0, reduced) + (rank == FRONT)
                damage -= target in attack.lucky
            self._hurt(target, max(0, damage))  # line 117: never below 0
        self._check_parties()
        alive = tuple(t for t in attack.targets if self._where[t] in fighting)
        if attack.combo and alive:
            self._repeat = attack._replace(
                targets=alive, reduced=(-1,) * len(alive), lucky=(), flipped=0
            )
        return True

    def _go_on(self) -> None:
        """After an act in the attempt: ask the window's seat, or resolve a closed window and
        carry on with the step."""
        if self._attack is not None and self._attack.flipped:  # its coins are being flipped
            if not self._resolve_attack() or self._phase == "over":
                return
        elif self._windows:
            self._windows, closed = self._windows.settle(self._live, self._may_respond)
            if closed is None:
                self._current = self._windows.asked
                return
            if closed.reason == Reason.ATTACK and (
                not self._resolve_attack() or self._phase == "over"
            ):
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

    def _may_respond(self, seat: int) -> bool:
        """Public: whether `seat` could answer the attack in the window: Defend (line 111),
        use a Recovery (line 98, 113), or, in the window opening the Party Attack step and
        holding cards, play an Event (line 78, choice 35)."""
        attack = self._attack
        if attack is None:
            return bool(self.pile(seat, HAND)) or self._may_recover(seat)
        if any(True for _ in self._defenses(seat, attack)):
            return True
        # The attacking seat acts next anyway (choice 34).
        return seat != attack.seat and self._may_recover(seat)

    def _recoverers(self, seat: int) -> list[int]:
        """Who may use a Recovery of `seat`'s in a window (line 98: at any time, even in
        others' turns): its active members and the enemies it controls."""
        enemies = self._zones[self.zone("enemies")]
        return [*self.pool(seat, "member"), *(s for s in enemies if self._home[s] == seat)]

    def _may_recover(self, seat: int) -> bool:
        """Whether `_window_recoveries(seat)` lists any (each usable Recovery lists one act
        at least: with no one to target, the act that names none)."""
        return any(
            any(True for _ in self._usable(u, ("recovery",))) for u in self._recoverers(seat)
        )

    def _window_recoveries(self, seat: int) -> list[Action]:
        """The Recovery actions `seat` may use in a window."""
        return [
            a
            for u in self._recoverers(seat)
            for a in self._acts(u, ("recovery",), [], self._friends(u))
        ]

    def _friends(self, user: int) -> list[int]:
        """What a Recovery of `user` may target: its side of the attempt (line 123)."""
        if self.card(user).type == "enemy":
            return self._zones[self.zone("enemies")]
        return self.pile(self._attempter, ACTIVE) if self._attempter >= 0 else []

    def _acts(
        self, user: int, kinds: tuple[str, ...], foes: list[int], friends: list[int]
    ) -> list[Action]:
        """The combat actions of `kinds` `user` may use now, with every choice of targets:
        an attack on `foes`, a Recovery on `friends` (or on its owner's party members, line
        125), a Support on none; a confused user names none (line 174: they are rolled)."""
        out: list[Action] = []
        more = self._more[self._home[user]] if self._attempter >= 0 else 0
        for source, index, action in self._usable(user, kinds):
            if action.kind == "support" or (self._status[user] & CONFUSION and not action.party):
                out.append(Act(source, user, index, ""))
                continue
            if action.party:
                pool, most = self.party(self._home[user]), action.targets
            elif action.kind == "attack":
                pool, most = foes, action.targets + more  # line 116: _(+Y)
            else:
                pool, most = friends, action.targets
            # `_target_sets` are distinct slots, lowest first: `slot_list`'s form as they are.
            sets = _target_sets(pool, most)
            out += [Act(source, user, index, ",".join(map(str, t))) for t in sets]
        return out

    def _activations(self, cur: int) -> list[Action]:
        """The Abilities (line 93-94) `cur` may use now, each once a turn, paying its reward
        counters: in its Play phase, its party characters' and the inventory Rewards' a
        character may use; in its Party Attack step, its active members'; in the Enemy Attack
        step, the enemies' it controls. Stun stops a card's Abilities, a Reward's too (line
        173); Block, a character's Magic and Move Rewards (line 172)."""
        phase = self._phase
        if phase == "play":
            users = self.party(cur)
        elif phase == "party-attack" and cur == self._attempter:
            users = self.pile(cur, ACTIVE)
        elif phase == "enemy-attack":
            users = [s for s in self._awake_enemies() if self._home[s] == cur]
        else:
            return []
        out: list[Action] = []
        abilities, ident, activated = self._book.abilities, self._ident, self._g.activated
        rewards = [r for r in self.pile(cur, INVENTORY) if ident[r] in activated]
        seen: set[tuple[int, int, int]] = set()
        for user in users:
            status = self._status[user]
            if status & (STUN | SLEEP):
                continue
            card = self.card(user)
            sources = [user] if ident[user] in activated else []
            if card.type == "character" and rewards:
                sources += [
                    r for r in rewards
                    if self.card(r).classes <= card.classes
                    and not (status & BLOCK and self.card(r).keywords & {"magic", "move"})
                ]  # fmt: skip
            for source in sources:
                k = self._ident[source]
                for i, ab in enumerate(abilities[k]):
                    if ab.trigger != "activated" or self._used[source] >> i & 1:
                        continue
                    if source != user and (user, k, i) in seen:
                        continue  # copies of a Reward are alike: the first is offered
                    cost = ab.cost.resource if ab.cost is not None else 0
                    if cost <= self._counters[cur] and interpreter.has_target(
                        self, source, cur, ab
                    ):
                        out.append(Activate(source, i, user))
                        if source != user:
                            seen.add((user, k, i))
        return out

    def _events(self, cur: int, *whens: str) -> list[Action]:
        """The Events of `cur`'s hand it may play now (line 77-78), one per card."""
        return _events_in(self._held(cur, HAND), whens)

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

    def slot_rows(self, zones: Sequence[int] | None = None) -> Encoded:
        """The per-card rows of the face-up zones (which grow with the seats), by default."""
        return super().slot_rows(self._public_zones if zones is None else zones)

    def legal_actions(self) -> list[Action]:
        """The legal actions (a copy: the list is kept to check the action taken)."""
        return list(super().legal_actions())

    def _decisions(self, cur: int) -> list[Action]:
        """The seat's decisions, listed once per position: a playout lists them, then checks
        the one it takes against the same list."""
        memo = self._memo
        if memo is not None and memo[0] == cur:
            return memo[1]
        out = self._list_decisions(cur)
        self._memo = (cur, out)
        return out

    def _learn(self, slot: int, k: int) -> None:
        self._memo = None  # a card learnt may change what the seat may do
        super()._learn(slot, k)

    def _list_decisions(self, cur: int) -> list[Action]:
        if self._room_after is not None:  # line 130: a full bank makes room
            back = self._returning
            return [MakeRoom(s, c.id) for s, c in self._held(cur, BANK) if s != back]
        if self._ask is not None:
            return interpreter.ask_actions(self, self._ask)
        if self._windows:
            attack = self._attack
            if attack is None:  # the window opening the Party Attack step (choice 35)
                return [*self._window_recoveries(cur), *self._events(cur, "attempt"), PASS]
            if cur == attack.seat:
                return [*self._defenses(cur, attack), PASS]
            return [*self._defenses(cur, attack), *self._window_recoveries(cur), PASS]
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
            return [*self._enemy_decisions(cur)[:-1], *self._events(cur, "enemy_step"), PASS]
        if phase in ("party-attack", "enemy-attack"):
            return [
                *self._combat_decisions(cur)[:-1], *self._activations(cur),
                *self._events(cur, "attempt"), PASS,
            ]  # fmt: skip
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
        hand = self._held(cur, HAND)
        bank = self._held(cur, BANK)
        counters = self._counters[cur]
        bank_full = len(self.pile(cur, BANK)) >= BANK_LIMIT
        for slot, card in hand:
            if card.type == "character":
                out.append(Recruit(slot, card.id))
            elif card.type == "reward":
                if not bank_full:
                    out.append(Bank(slot, card.id, -1, None))
                else:  # line 36-37: a full bank discards one first
                    out += [Bank(slot, card.id, d, dc.id) for d, dc in bank]
                if card.rp <= counters:
                    out.append(Equip(slot, card.id))
        out += [Equip(s, c.id) for s, c in bank if c.rp <= counters]  # line 38
        # line 167: a card is turned face up for what it does there (choice 39)
        out += [Flip(s, c.id) for s, c in bank if c.abilities and not self._faceup[s]]
        out += _events_in(hand, ("play",))
        out += self._activations(cur)
        # line 98, 127-128: Rewards and Recovery outside an attempt; only a Recovery that
        # chooses party members does anything then (line 123, 125).
        healers = self._g.party_recovery
        ident = self._ident
        party = self.party(cur)
        if any(ident[s] in healers for s in (*party, *self.pile(cur, INVENTORY))):
            for user in party:
                for source, index, action in self._usable(user, ("recovery",)):
                    if action.party:  # as `_acts` lists them, less the acts naming no one
                        sets = _target_sets(party, action.targets)
                        out += [Act(source, user, index, ",".join(map(str, t))) for t in sets if t]
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
                    Oppose(slot, card.id, ",".join(map(str, t)))  # as `_acts` names them
                    for t in _target_sets(active, card.actions[0].targets)
                ]
        out.append(PASS)
        return out

    def _combat_decisions(self, cur: int) -> list[Action]:
        """Party Attack step: the attempter's active members attack, support, recover (line
        55); Enemy Attack step: the asked controller's enemies do (line 57)."""
        users, foes, friends = self._fighters(cur)
        out: list[Action] = []
        for user in users:
            out += self._acts(user, COMBAT_KINDS, foes, friends)
        out.append(PASS)
        return out

    def _fighters(self, cur: int) -> tuple[list[int], list[int], list[int]]:
        """The cards `cur` fights with in this step, their foes and their friends."""
        enemies = self._zones[self.zone("enemies")]
        active = self.pile(self._attempter, ACTIVE)
        if self._phase == "party-attack":
            return active, enemies, active
        users = [s for s in self._woken or enemies if self._home[s] == cur and s in enemies]
        return users, active, enemies

    def _may_fight(self, cur: int) -> bool:
        """Whether `_combat_decisions(cur)` lists more than the pass (each usable action lists
        one act at least: with no one to target, the act that names none)."""
        users = self._fighters(cur)[0]
        return any(any(True for _ in self._usable(u, COMBAT_KINDS)) for u in users)

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
        if self._ask is not None and self._room_after is None:
            interpreter.verify_answer(self, self._ask, action)
            return
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
        self._memo = None
        if self._current == CHANCE:
            self._apply_outcome(action)
        else:
            self._decide(action)
        self._ask_room()

    def _decide(self, action: Action) -> None:
        seat = self._current
        for slot, card in _named_cards(action):
            self._learn(slot, self._kind(card))
        if isinstance(action, MakeRoom):
            self._make_room(action)
        elif self._ask is not None:
            ask, self._ask = self._ask, None
            interpreter.answer(self, ask, action)
            self._resolve()
        elif isinstance(action, Activate):
            self._activate(seat, action)
        elif isinstance(action, PlayEvent):
            if self._windows:
                self._windows = self._windows.acted(seat)
            self._play_event(seat, action)
        elif self._windows:
            self._answer(seat, action)
        elif self._repeat is not None:
            self._combo(seat, action)
        # The kinds a playout takes most often first (a chain of isinstance is a tenth of
        # the cost of a decision).
        elif isinstance(action, Pass):
            self._pass(seat)
        elif isinstance(action, Redraw):
            self._move(action.slot, self.zone_at(seat, DISCARD))
            self._redraws += 1
            self._draw(seat)
        elif isinstance(action, Act):
            self._act(seat, action)
        elif isinstance(action, Recruit):
            self._recruit(seat, action.slot)
        elif isinstance(action, Oppose):
            self._oppose(action)
        elif isinstance(action, Enlist):
            self._pp_used += self.card(action.slot).cost
            self._move(action.slot, self.zone_at(seat, ACTIVE))
            self._ask_party()
        elif isinstance(action, Attempt):
            self._begin_attempt(seat, action.slot)
        elif isinstance(action, Bank):
            if action.drop >= 0:
                self._to_discard(action.drop)
            self._move(action.slot, self.zone_at(seat, BANK))
        elif isinstance(action, Equip):
            self._counters[seat] -= self.card(action.slot).rp
            self._faceup[action.slot] = 0
            self._move(action.slot, self.zone_at(seat, INVENTORY))
        elif isinstance(action, Flip):
            self._show(action.slot, action.card, self._everyone)
            self._faceup[action.slot] = 1
        elif isinstance(action, Start):
            self._show(action.slot, action.card, self._everyone)
            self._start(seat, action.slot)
        elif isinstance(action, Mulligan):
            self._mulligan(seat)
        elif isinstance(action, Discard):
            self._move(action.slot, self.zone_at(seat, DISCARD))
            self._reconcile()
        else:
            assert isinstance(action, Reshuffle)
            for slot in parse_slots(action.missions):
                self._move(slot, self.zone_at(seat, OUT))
            self._shuffle_into(self.zone_at(seat, DISCARD), self.zone_at(seat, DECK))
            self._reconcile()

    def _activate(self, seat: int, action: Activate) -> None:
        """Line 93-94: pay the Ability's reward counters and resolve it; a Reward's Ability is
        a use of the Reward, which then goes back to the bank or is discarded (line 130)."""
        slot = action.slot
        k = self._ident[slot]
        cost = self._book.abilities[k][action.ability].cost
        self._counters[seat] -= cost.resource if cost is not None else 0
        self._used[slot] |= 1 << action.ability
        self._rolling = slot if self._status[action.user] & CONFUSION else -1
        interpreter.queue(self, slot, k, action.ability, seat)
        if slot != action.user:
            self._after_use(slot)
        self._resolve()

    def _play_event(self, seat: int, action: PlayEvent) -> None:
        """Line 77-78: the Event is shown and discarded, and what it does resolves."""
        self._show(action.slot, action.card, self._everyone)
        self._move(action.slot, self.zone_at(seat, DISCARD))
        interpreter.fire(self, action.slot, "played", seat)
        self._resolve()

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
            self._more[seat] += combat.more
            self._go_on()
        elif combat.party:  # line 125: party members chosen, not targeted
            for target in targets:
                self._damage[target] = max(0, self._damage[target] - combat.amount)
            self._resume()
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
            no_defense = (-1,) * len(targets)
            attack = Attack(seat, source, user, which, 0, inflicts, targets, no_defense,
                            combat.combo)  # fmt: skip
            if self._declare(attack):
                return
        self._go_on()

    def _declare(self, attack: Attack) -> bool:
        """An Attack's damage (line 115-117: its X, the seat's Support, the user's modifiers and
        rank; `*` is 0 whatever modifies it), then the window asking from the attacker's left
        (line 111, choice 12). True while a Front rank's coin is flipped first (line 138)."""
        combat = self.card(attack.source).actions[attack.which]
        seat, user = attack.seat, attack.user
        amount = 0
        if not combat.fixed:
            amount = combat.amount + self._boost[seat] + self.attack_bonus(user)
            if "melee" in combat.keywords and self._rank[user] == BACK:  # line 140
                amount -= 1
        self._boost[seat] = self._more[seat] = 0
        self._attack = attack._replace(amount=max(0, amount))
        if not combat.fixed and "melee" in combat.keywords and self._rank[user] == FRONT:
            self._coin_for = ATTACKER_COIN
            self._ask_chance(Step("roll", sides=2))
            return True
        self._open_window()
        return False

    def _open_window(self) -> None:
        attack = self._attack
        assert attack is not None
        order = seats_from(attack.seat + 1, self._n)
        self._windows = self._windows.open(Reason.ATTACK, attack.source, order)

    def _coin(self, heads: int) -> None:
        """A rank's coin came down (heads is 1): the Front attacker's melee attack deals 1
        more (line 138), or the Back target takes 1 less (line 140)."""
        attack = self._attack
        assert attack is not None
        who, self._coin_for = self._coin_for, NO_COIN
        if who == ATTACKER_COIN:
            self._attack = attack._replace(amount=attack.amount + heads)
            self._open_window()
        else:
            lucky = (*attack.lucky, who) if heads else attack.lucky
            self._attack = attack._replace(lucky=lucky, flipped=attack.flipped + 1)
        self._go_on()

    def _combo(self, seat: int, action: Action) -> None:
        """Line 133: the same action again on the same targets, a distinct attack, or not."""
        repeat = self._repeat
        assert repeat is not None
        self._repeat = None
        if isinstance(action, Act) and self._declare(repeat._replace(combo=repeat.combo - 1)):
            return
        self._go_on()

    def _answer(self, seat: int, action: Action) -> None:
        if isinstance(action, Pass):
            self._windows = self._windows.passed(seat)
        elif isinstance(action, Act):  # a Recovery in the window (line 98)
            self._windows = self._windows.acted(seat)
            self._act(seat, action)
            return
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

    # ------------------------------------------ abilities (p2pcards/interpreter.py)

    def _resolve(self) -> None:
        """Resolve queued abilities until one asks a seat, needs the dealer, or all are done;
        then the turn goes on where it was."""
        while self._frames and self._phase != "over":
            if self._ask is not None or self._chance is not None:
                return
            interpreter.step(self)
            self._check_parties()
            self._roll_if_confused()
        if not self._frames:
            self._rolling = -1
        if self._phase != "over" and self._ask is None and self._chance is None:
            self._resume()

    def _roll_if_confused(self) -> None:
        """Line 174: "whenever this character needs to choose a target, the target is
        randomly chosen between all applicable targets": a confused user's Ability asking
        for a target (an active member or an enemy, line 123; not a "party member", line
        125) has it rolled by the beacon among those its card may take (choice 29)."""
        ask = self._ask
        if ask is None or ask.kind != "target" or self._rolling < 0:
            return
        if self._frames[0].source != self._rolling:
            return  # another ability set off meanwhile: its controller chooses
        sel = interpreter.current_effect(self).target
        if sel is not None and sel.what in TARGETED:
            self._ask = None
            self._ask_chance(Step("roll", sides=len(ask.options)))

    def _resume(self) -> None:
        """Every queued ability has resolved: the phase, step or window goes on."""
        phase = self._phase
        if phase == "start":
            self._ask_redraw()
        elif self._attempter >= 0 and not self._live >> self._attempter & 1:
            self._end_attempt()
        elif phase in ("party-attack", "enemy-attack"):
            self._go_on()
        elif phase == "enemies":
            self._ask_enemies()
        else:
            self._current = self._turn_seat

    def in_play(self, seat: int | None = None) -> list[tuple[int, list[int]]]:
        """The cards whose Intrinsics work, by seat: the party, the active party, the
        inventory, the bank cards turned face up (line 167), and the enemies the seat controls
        unless paralysed (line 171: a paralysed enemy's Intrinsics are ignored)."""
        out = []
        enemies = self._zones[self.zone("enemies")]
        for side in range(self._n) if seat is None else (seat,):
            if not self._live >> side & 1:
                continue
            cards = [*self.party(side), *self.pile(side, INVENTORY)]
            cards += [s for s in self.pile(side, BANK) if self._faceup[s]]
            cards += [
                s for s in enemies if self._home[s] == side and not self._status[s] & PARALYSIS
            ]
            out.append((side, cards))
        return out

    def pool(self, seat: int, what: str) -> list[int]:
        """A seat's cards of a `what`: active members (`member`), the enemies it controls,
        both (`fighter`, a target: line 123), its party (`party_member`, not a target: line
        125), its unconscious pile, its score pile (`scored`)."""
        if what == "member":
            return self.pile(seat, ACTIVE) if seat == self._attempter else []
        if what == "enemy":
            return [s for s in self._zones[self.zone("enemies")] if self._home[s] == seat]
        if what == "fighter":
            return [*self.pool(seat, "member"), *self.pool(seat, "enemy")]
        if what == "party_member":
            return self.party(seat)
        if what == "unconscious":
            return self.pile(seat, UNCONSCIOUS)
        if what == "scored":
            return self.pile(seat, SCORE)
        return []

    def controller(self, slot: int) -> int:
        """A card's controller is its owner (an enemy: the seat that played it)."""
        return self._home[slot]

    def face_down(self, slot: int) -> bool:
        """Abilities reach no face-down card (the bank is not in `pool`)."""
        return False

    def is_in_play(self, slot: int) -> bool:
        """Whether a card is in play (line 148, 151, 159, 167): not in a deck, hand,
        discard pile or score pile."""
        zone = self._where[slot]
        if zone >= self.zone_at(self._n, 0):
            return zone == self.zone("enemies")
        return zone % len(SEAT_ZONES) in (PARTY, ACTIVE, UNCONSCIOUS, INVENTORY, BANK)

    def stat(self, slot: int, name: str, raw: bool) -> int:
        """A card's attack bonus or its HP left."""
        return self.attack_bonus(slot) if name == "attack" else self.hp_left(slot)

    def attack_bonus(self, slot: int) -> int:
        """What the abilities add to the damage of the card's attacks (line 116): modifiers,
        and the Intrinsics in force (static abilities, which modify attack only)."""
        return self._atk_p[slot] + self._atk_t[slot] + interpreter.static_bonus(self, slot).attack

    def max_hp(self, slot: int) -> int:
        """A character's or enemy's HP with what abilities added."""
        most = self.card(slot).hp + self._hp_p[slot] + self._hp_t[slot]
        return most if most > 1 else 1  # as `hp_left`, read at every leaf of a search

    def attached_to(self, slot: int) -> int:
        """Nothing is attached in RPG Get!."""
        return -1

    def lane_of(self, slot: int) -> int:
        """RPG Get! has no lanes."""
        return -1

    def lane_card(self, seat: int, lane: int) -> int:
        """RPG Get! has no lanes."""
        return -1

    def in_mode(self, slot: int, mode: str) -> bool:
        """RPG Get! has no modes."""
        return False

    def life(self, seat: int) -> int:
        """A seat's VP stand for its life in conditions (none reads it)."""
        return self.victory_points(seat)

    def hurt(self, target: int, amount: int, source: int) -> None:
        """An ability's damage: it kills only during an attempt (line 121)."""
        if target >= 0:
            self._hurt(target, amount)

    def heal(self, target: int, amount: int | None) -> None:
        """Damage removed, never below none."""
        if target >= 0:
            self._damage[target] = 0 if amount is None else max(0, self._damage[target] - amount)

    def destroy(self, slot: int) -> None:
        """An ability destroys a card: it is discarded (line 148)."""
        self._to_discard(slot)

    def bounce(self, slot: int) -> None:
        """A card goes back to its owner's hand (no card of the set does this)."""
        self._reset_slot(slot)
        self._move(slot, self.zone_at(self._home[slot], HAND))

    def modifiers(self, permanent: bool) -> Modifiers:
        """Attack (damage of the card's attacks) and HP added, for good or this turn."""
        if permanent:
            return Modifiers(self._atk_p, self._hp_p, self._kw)
        return Modifiers(self._atk_t, self._hp_t, self._kw)

    def gain(self, seat: int, amount: int) -> None:
        """Reward counters (line 10, 84)."""
        self._counters[seat] += amount

    def deck_out(self, seat: int) -> bool:
        """An ability's draw from an empty deck draws nothing (decking is only at the end of
        a turn: line 15)."""
        return True

    def own_effect(self, f: Frame, e: Effect) -> bool:
        """The verbs only this board carries (OWN_VERBS)."""
        do = e.do
        if do == "recruit":
            return self._recruit_effect(f, e)
        if do == "bank_destroy":
            return self._bank_destroy(f, e)
        for t in f.targets:
            if t < 0:
                continue
            if do == "unscore":  # line 157: the score pile is not in play, yet reachable
                if self._where[t] == self.zone_at(self._home[t], SCORE):
                    self._move(t, self.zone_at(self._home[t], DISCARD))
            elif not self.is_in_play(t):
                continue
            elif do == "status":
                self._status[t] |= STATUS_BIT[e.status or "poison"]  # type: ignore[index]
            elif do == "cure":
                self._status[t] = 0
            elif do == "rank":
                if self._attempter >= 0:  # line 136: ranks last for the attempt
                    self._rank[t] = RANKS[e.rank or "middle"]
            elif do == "resurrect" and self._where[t] == self.zone_at(self._home[t], UNCONSCIOUS):
                self._status[t] = 0  # line 134: at full HP unless the card says
                hp = self.max_hp(t)
                self._damage[t] = 0 if not isinstance(e.amount, int) else max(0, hp - e.amount)
                self._move(t, self.zone_at(self._home[t], PARTY))
        return True

    def _recruit_effect(self, f: Frame, e: Effect) -> bool:
        """Line 154: in the Enemy step, the controller searches its deck for a matching enemy
        it may play within the EP (one Boss); otherwise the effect is ignored."""
        if f.stage:
            return True
        if self._phase != "enemies" or not self.pile(f.controller, DECK):
            return True
        interpreter._ask(self, Ask("recruit", f.controller))
        return False

    def _recruitable(self, seat: int, k: int) -> bool:
        e = interpreter.current_effect(self)
        card = self._g.cards[k]
        return (
            card.type == "enemy"
            and interpreter.matches(self, e, k)
            and card.size <= self._mission().ep - self._ep_used
            and not (card.boss and self._boss)
        )

    def _bank_destroy(self, f: Frame, e: Effect) -> bool:
        """Line 144: a card of the bank, picked at random by the table's beacon (nobody
        chooses, the owner included), leaves play sight unseen, face down, for its owner's
        pile of destroyed cards (choice 39); `amount` of each bank named."""
        amount = e.amount if isinstance(e.amount, int) else 1
        banks = interpreter.seats(self, e.who or "each_opponent", f.controller)
        while f.stage < amount * len(banks):
            seat = banks[f.stage // amount]
            if self.pile(seat, BANK):
                bank, gone = self.zone_at(seat, BANK), self.zone_at(seat, DESTROYED)
                self._ask_chance(Step("pick", bank, gone, 1 << seat))
                return False
            f = self._frames[0] = f._replace(stage=(f.stage // amount + 1) * amount)
        return True

    def own_ask_actions(self, ask: Ask) -> list[Action]:
        """A Recruit's search (line 154): each enemy of the deck it may take, or none."""
        assert ask.kind == "recruit"
        pool = self._pools[ask.seat] or []
        cards = self._g.cards
        found: list[Action] = [
            Take(cards[k].id) for k, n in enumerate(pool) if n and self._recruitable(ask.seat, k)
        ]
        return found or [Take(None)]

    def verify_own_answer(self, ask: Ask, action: Action) -> None:
        """A Recruit takes a card its deck may hold that it may play, or none; a replica that
        cannot see the deck checks what it can (the table proves the card is the deck's)."""
        if not isinstance(action, Take):
            raise IllegalActionError("a Recruit takes an enemy of the deck, or none")
        if self._pools[ask.seat] is not None:
            if action not in self.own_ask_actions(ask):
                raise IllegalActionError(f"{action} is not an enemy this Recruit may take")
        elif action.card is not None and not self._recruitable(ask.seat, self._kind(action.card)):
            raise IllegalActionError(f"{action.card} is not an enemy this Recruit may play")

    def own_answer(self, ask: Ask, action: Action) -> None:
        """The enemy found joins the attempt, shown to all; the deck is shuffled either way."""
        assert isinstance(action, Take)
        deck = self.zone_at(ask.seat, DECK)
        if action.card is None:
            self._shuffle(deck)
        else:
            k = self._kind(action.card)
            self._search(deck, self.zone("enemies"), k, self._everyone)
            card = self._g.cards[k]
            self._ep_used += card.size
            self._boss |= card.boss
        f = self._frames[0]
        self._frames[0] = f._replace(stage=f.stage + 1)

    # ------------------------------------------------------------ copies and forms

    def clone(self) -> RpgGetState:
        other = self._clone_zones()
        other._g = self._g
        other._book = self._book
        other._frames = self._frames[:]
        other._ask = self._ask
        other._more = self._more[:]
        other._coin_for = self._coin_for
        other._memo = None
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
        other._returning = self._returning
        other._rolling = self._rolling
        other._room_after = self._room_after
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
            list(self._more), self._coin_for, self._returning, self._rolling,
            -9 if self._room_after is None else self._room_after,
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
                "ask": None
                if self._ask is None
                else [self._ask.kind, self._ask.seat, list(self._ask.options)],
                "frames": [[*f[:6], int(f.picked), f.stage, *f.targets] for f in self._frames],
            },
            "attempt": self._attempt_public(),
            "zones": self.zones_public(),
            "cards": self.slot_rows(),
            "faceup": [s for s in range(len(self._faceup)) if self._faceup[s]],
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
            PHASE_CODES[self._phase],
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
            tuple(self._frames),
            interpreter.ask_key(self._ask),
            tuple(self._more),
            self._coin_for,
            self._returning,
            self._rolling,
            -9 if self._room_after is None else self._room_after,
        )

    def __str__(self) -> str:
        vp = [self.victory_points(s) for s in range(self._n)]
        return f"<RPG Get! round {self._round} {self._phase}, seat {self._turn_seat}, VP {vp}>"


def _attack_public(attack: Attack | None) -> list[int]:
    """An attack's fields as ints, for the digest ([] for none)."""
    if attack is None:
        return []
    head = (attack.seat, attack.source, attack.user, attack.which, attack.amount, attack.inflicts)
    tail = [attack.flipped, len(attack.lucky), *attack.lucky]
    return [*head, attack.combo, *attack.targets, *attack.reduced, *tail]


def _target_sets(pool: Sequence[int], most: int) -> list[tuple[int, ...]]:
    """Every choice of 1 to `most` distinct targets from `pool` (line 124: fewer allowed, never
    one twice); the empty choice when there is nothing to target (line 123)."""
    if not pool:
        return [()]
    return [t for n in range(1, min(most, len(pool)) + 1) for t in combinations(sorted(pool), n)]


def _events_in(hand: list[tuple[int, Card]], whens: tuple[str, ...]) -> list[Action]:
    """The Events of a hand that may be played at one of `whens`, one per card."""
    seen: set[str] = set()
    out: list[Action] = []
    for slot, card in hand:
        if card.type == "event" and card.when in whens and card.id not in seen:
            seen.add(card.id)
            out.append(PlayEvent(slot, card.id))
    return out


def _named_cards(action: Action) -> list[tuple[int, str]]:
    """The (slot, card) pairs an action shows."""
    out: list[tuple[int, str]] = []
    slot, card = getattr(action, "slot", None), getattr(action, "card", None)
    if isinstance(slot, int) and isinstance(card, str):
        out.append((slot, card))
    if isinstance(action, Bank) and action.drop >= 0 and action.drop_card is not None:
        out.append((action.drop, action.drop_card))
    return out
