"""The rules of rpg-battle as a state machine.

Layout of a state (all plain lists of ints, so `clone()` is a handful of list
copies and a random playout costs microseconds a step):

- characters are numbered in database order; `_owner[c]` is the drafting seat
  (or -1), `_hp[c]` the hit points (0 means KO'd);
- the 100 action cards are slots numbered 0..99 that live in exactly one of
  `_deck`, `_discard` or a hand `_hands[seat]`, with what this state knows of
  them, kept by `p2pcards.slots.SlotState` (which also deals, takes, reshuffles
  and masks observations).

Pending effects (draws, reactions to attacks, forced discards, steals) wait in
`_queue` and are resolved before the acting character's turn goes on, so
reactions and chance nodes can interrupt any turn.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple

from p2pcards.digest import Canonical
from p2pcards.engine import CHANCE, TERMINAL, Action, Game
from p2pcards.errors import IllegalActionError
from p2pcards.games.rpg_battle.actions import (
    PASS,
    Discard,
    EndTurn,
    Pass,
    Pick,
    Play,
    React,
    Take,
)
from p2pcards.games.rpg_battle.cards import CardDatabase, CardType, Character
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
from p2pcards.zones import Step

HAND_SIZE = 5

# Phases of a turn.
DRAFT, PLAY, END, NEXT, OVER = range(5)
PHASE_NAMES = ("draft", "play", "end", "next", "over")


class ReactStep(NamedTuple):
    """Pending: `target` (a character) is hit for `damage` by `attacker` unless its owner
    answers (a window, opened whenever that seat holds a card)."""

    target: int
    attacker: int
    damage: int


class DiscardStep(NamedTuple):
    """Pending: `seat` discards `left` more cards of its choice."""

    seat: int
    left: int


# Pending steps in the queue, in order of their codes (the digest names a step by its code):
# DrawStep(seat, left), TakeStep(thief, victim), ReactStep, DiscardStep.
REACT, DISCARD = 2, 3
_STEP_CODES: dict[type, int] = {
    DrawStep: DRAW,
    TakeStep: TAKE,
    ReactStep: REACT,
    DiscardStep: DISCARD,
}


Pending = DrawStep | TakeStep | ReactStep | DiscardStep
"""What rpg-battle's queue holds."""


def _encoded(step: Pending) -> tuple[int, ...]:
    """A queued step as ints: its code, then its fields (for digests and search keys)."""
    return (_STEP_CODES[type(step)], *step)


# Effects whose card names a character or a seat: played at no one, they do nothing.
_AIMED = frozenset(("attack", "heal", "absorb", "revive", "discard", "steal"))


@dataclass(frozen=True, slots=True)
class Options:
    """Table options: how many characters each seat drafts and the round cap (None: no cap)."""

    characters_per_seat: int
    round_cap: int | None


@dataclass(frozen=True, slots=True)
class Decision:
    """What the current player is asked, in public terms, for prompts and logs."""

    kind: str  # pick, play, react, discard, end-turn; deal, take (chance); over
    seat: int  # who decides: a seat, CHANCE or TERMINAL
    character: str | None = None  # who acts, or who is attacked
    attacker: str | None = None
    damage: int = 0
    count: int = 0  # cards still to discard or to deal
    receiver: int | None = None  # the seat a deal or a take gives a card to
    victim: int | None = None  # the seat a take takes from


class Rules(SlotRules):
    """Static tables derived once from the card database: indices, effects, cached actions."""

    def __init__(self, game: Game, db: CardDatabase) -> None:
        super().__init__(game, db.cards, db.deck_size, Take)
        self.db = db
        self.chars = db.characters
        self.cards = db.cards
        self.char_index = {c.id: i for i, c in enumerate(self.chars)}
        self.picks = [Pick(c.id) for c in self.chars]  # the draft's actions, made once
        self.everyone = [frozenset(range(n)) for n in range(game.max_players + 1)]
        self.quick = [c.quick for c in db.cards]
        self.dodge = [i for i, c in enumerate(self.cards) if c.effect == "dodge"]
        self.counter = [i for i, c in enumerate(self.cards) if c.effect == "counter"]


@cache
def _play(
    slot: int,
    card: str,
    target: str | None = None,
    seat: int | None = None,
    amount: int | None = None,
) -> Play:
    return Play(slot, card, target, seat, amount)


REFILL, DRAW_ONE = EndTurn(True), EndTurn(False)


@cache
def _react(slot: int, card: str) -> React:
    return React(slot, card)


@cache
def _discard(slot: int, card: str) -> Discard:
    return Discard(slot, card)


class RpgBattleState(SlotState[Rules, Pending]):
    """A position of rpg-battle, or one seat's replica of it."""

    __slots__ = (
        "_hp", "_lineup", "_options", "_owner", "_phase", "_picks", "_pos", "_round", "_seat",
        "_winners",
    )  # fmt: skip

    def __init__(self, rules: Rules, num_players: int, options: Options) -> None:
        super().__init__(rules, num_players)
        self._options = options
        nchars = len(rules.chars)
        self._owner = [-1] * nchars
        self._hp = [c.hp for c in rules.chars]
        self._lineup: list[list[int]] = [[] for _ in range(num_players)]
        self._phase = DRAFT
        self._seat = 0
        self._picks = 0
        self._pos = 0
        self._round = 1
        self._winners: list[int] | None = None

    # ----------------------------------------------------------------- queries

    @property
    def options(self) -> Options:
        """The options this table was made with."""
        return self._options

    def decision(self) -> Decision:
        """What is being decided now, in public terms."""
        names = [c.id for c in self._rules.chars]
        if self._current == TERMINAL:
            return Decision("over", TERMINAL)
        if self._current == CHANCE:
            step = self._queue[0]
            if isinstance(step, DrawStep):
                return Decision("deal", CHANCE, count=step.left, receiver=step.seat)
            assert isinstance(step, TakeStep)
            return Decision("take", CHANCE, receiver=step.thief, victim=step.victim)
        if self._queue:
            step = self._queue[0]
            if isinstance(step, ReactStep):
                return Decision(
                    "react",
                    self._current,
                    names[step.target],
                    names[step.attacker],
                    damage=step.damage,
                )
            assert isinstance(step, DiscardStep)
            return Decision("discard", self._current, count=step.left)
        if self._phase == DRAFT:
            return Decision("pick", self._seat)
        if self._phase == PLAY:
            return Decision("play", self._seat, names[self._lineup[self._seat][self._pos]])
        return Decision("end-turn", self._seat)

    def round(self) -> int:
        """The round being played (1-based); a round ends when play passes back past seat 0."""
        return self._round

    def turn_seat(self) -> int:
        """The seat whose turn it is (or who drafts)."""
        return self._seat

    def characters(self, seat: int) -> list[str]:
        """The characters a seat drafted, left to right."""
        return [self._rules.chars[c].id for c in self._lineup[seat]]

    def fighting_strength(self, seat: int) -> list[tuple[int, Character]]:
        """A seat's characters left to right as (HP once pending attacks land, card): for
        evaluations, in one call."""
        chars, hp = self._rules.chars, self._hp
        if not self._queue:  # the usual case, in the search's inner loop
            return [(hp[c], chars[c]) for c in self._lineup[seat]]
        incoming: dict[int, int] = {}
        for step in self._queue:
            if isinstance(step, ReactStep):
                incoming[step.target] = incoming.get(step.target, 0) + step.damage
        return [(hp[c] - incoming.get(c, 0), chars[c]) for c in self._lineup[seat]]

    def quick_in_hand(self, seat: int) -> tuple[int, int]:
        """(Quick Actions this state knows a seat holds, cards of that hand it does not know)."""
        quick = self._rules.quick
        ident = self._ident
        known = unknown = 0
        for slot in self._hands[seat]:
            k = ident[slot]
            if k == UNKNOWN:
                unknown += 1
            elif quick[k]:
                known += 1
        return known, unknown

    def unseen_quick_share(self) -> float:
        """The chance that a card this state has not seen is a Quick Action."""
        quick = self._rules.quick
        pool = self._pool
        return sum(n for k, n in enumerate(pool) if quick[k]) / (sum(pool) or 1)

    def owner(self, character: str) -> int | None:
        """The seat that drafted `character`, or None."""
        seat = self._owner[self._char(character)]
        return None if seat < 0 else seat

    def hp(self, character: str) -> int:
        """A character's hit points; 0 means KO'd."""
        return self._hp[self._char(character)]

    def max_hp(self, character: str) -> int:
        """A character's maximum hit points."""
        return self._rules.chars[self._char(character)].hp

    def stats(self, character: str) -> Character:
        """A character's card: max HP, STR and MAG."""
        return self._rules.chars[self._char(character)]

    def card_type(self, card: str) -> CardType:
        """An action card's name, text and effect."""
        return self._rules.cards[self._kind(card)]

    def is_active(self, character: str) -> bool:
        """Drafted and not KO'd."""
        c = self._char(character)
        return self._owner[c] >= 0 and self._hp[c] > 0

    def active_seats(self) -> list[int]:
        """Seats that still have an active character (after the draft: those still in the game)."""
        return [s for s in range(self._n) if self._seat_alive(s)]

    def still_to_act(self, seat: int) -> int:
        """How many of a seat's active characters have yet to act this turn (0 off its turn)."""
        if self._phase != PLAY or seat != self._seat or self._current == TERMINAL:
            return 0
        hp = self._hp
        return sum(1 for c in self._lineup[seat][self._pos :] if hp[c] > 0)

    def winners(self) -> list[int]:
        """The seats that won (several only after a round-cap tie); empty until the end."""
        return list(self._winners or [])

    def returns(self) -> list[float]:
        if not self._winners:
            return [0.0] * self._n
        share = 1.0 / len(self._winners)
        return [share if s in self._winners else 0.0 for s in range(self._n)]

    def pending_discards(self) -> list[tuple[int, int]]:
        """Forced discards the victim has yet to choose: (seat, count)."""
        return [(step.seat, step.left) for step in self._queue if isinstance(step, DiscardStep)]

    # ------------------------------------------------------------ legal moves

    def _decisions(self, cur: int) -> list[Action]:
        rules = self._rules
        if self._queue:
            held = self._hand_slots_by_kind(cur)
            cards = rules.cards
            if isinstance(self._queue[0], ReactStep):
                quick = [(k, s) for k, s in held if k in rules.dodge or k in rules.counter]
                return [PASS] + [_react(s, cards[k].id) for k, s in quick]
            return [_discard(s, cards[k].id) for k, s in held]
        if self._phase == DRAFT:
            owner = self._owner
            return [pick for i, pick in enumerate(rules.picks) if owner[i] < 0]
        if self._phase == END:
            if len(self._hands[cur]) < HAND_SIZE - 1:
                return [REFILL, DRAW_ONE]
            return [DRAW_ONE]
        actions: list[Action] = [PASS]
        for k, slot in self._hand_slots_by_kind(cur):
            actions.extend(self._plays(k, slot))
        return actions

    def _plays(self, k: int, slot: int) -> list[Play]:
        """Every way the acting character can play the card of kind k in `slot` now: at each
        target the card can act on, or, when it has none, at no one to no effect (rules.md
        §8)."""
        card = self._rules.cards[k]
        if card.quick:
            return []  # Dodge and Counter: never played on one's own turn (line 30)
        return self._effective_plays(card, slot) or [_play(slot, card.id)]

    def _effective_plays(self, card: CardType, slot: int) -> list[Play]:
        """The plays of a card that do something: every target its effect can act on.

        Lists, not generators: the random playout asks at every decision (a generator
        chain made rpg-battle's playout a few per cent slower)."""
        effect = card.effect
        seat = self._seat
        chars = self._rules.chars
        hp = self._hp
        cid = card.id
        if effect == "attack":
            return [_play(slot, cid, chars[c].id) for c in self._opposing_active(seat)]
        if effect == "attack-all":
            return [_play(slot, cid)]
        lineup = self._lineup[seat]
        if effect == "heal":  # one of your own with damage (rules.md §8)
            return [_play(slot, cid, chars[c].id) for c in lineup if 0 < hp[c] < chars[c].hp]
        if effect == "heal-all":
            return [_play(slot, cid)] if any(0 < hp[c] < chars[c].hp for c in lineup) else []
        if effect == "absorb":  # "up to": every amount from 1 (rules.md §10)
            actor = lineup[self._pos]
            most = chars[actor].mag * card.power
            return [
                _play(slot, cid, chars[c].id, None, amount)
                for c in lineup
                if c != actor and hp[c] > 0
                for amount in range(1, min(most, chars[c].hp - hp[c]) + 1)
            ]
        if effect == "revive":  # one of your own KO'd (rules.md §8)
            return [_play(slot, cid, chars[c].id) for c in lineup if hp[c] == 0]
        if effect == "discard" or effect == "steal":
            hands = self._hands
            return [
                _play(slot, cid, None, other)
                for other in range(self._n)
                if other != seat and hands[other] and self._seat_alive(other)
            ]
        if effect == "draw" and (self._deck or self._discard):
            return [_play(slot, cid)]
        return []

    # ------------------------------------------------------------- validation

    def _verify_decision(self, cur: int, action: Action) -> None:
        rules = self._rules
        if self._queue:
            if isinstance(self._queue[0], ReactStep):
                if isinstance(action, Pass):
                    return
                if not isinstance(action, React):
                    raise IllegalActionError(f"seat {cur} must answer the attack: pass or react")
                k = self._kind(action.card)
                if k not in rules.dodge and k not in rules.counter:
                    raise IllegalActionError(f"{action.card} is not a Quick Action")
                self._verify_uses(cur, (action.slot,), (k,))
                return
            if not isinstance(action, Discard):
                raise IllegalActionError(f"seat {cur} must choose a card to discard")
            self._verify_uses(cur, (action.slot,), (self._kind(action.card),))
            return
        if self._phase == DRAFT:
            if not isinstance(action, Pick):
                raise IllegalActionError(f"seat {cur} must pick a character")
            c = self._char(action.character)
            if self._owner[c] >= 0:
                raise IllegalActionError(f"{action.character} is already drafted")
            return
        if self._phase == END:
            if not isinstance(action, EndTurn):
                raise IllegalActionError(f"seat {cur} must end the turn")
            if action.refill and len(self._hands[cur]) >= HAND_SIZE - 1:
                raise IllegalActionError("the hand is already (nearly) full: draw 1 instead")
            return
        if isinstance(action, Pass):
            return
        if not isinstance(action, Play):
            raise IllegalActionError(f"seat {cur} must play a card or pass")
        k = self._kind(action.card)
        self._verify_uses(cur, (action.slot,), (k,))
        self._verify_play(k, action)

    def _verify_play(self, k: int, action: Play) -> None:
        """Check a play's target (and an Absorb's amount) against the card's effect."""
        card = self._rules.cards[k]
        if card.quick:
            raise IllegalActionError(f"{card.name} is a Quick Action, used only when attacked")
        if action in self._plays(k, action.slot):
            return
        if self._effective_plays(card, action.slot):
            what = {
                "attack": "an opposing active character",
                "heal": "an active character of yours with damage",
                "absorb": "another active character of yours with damage, and an amount from 1 "
                "to MAG x power, no more than that damage",
                "revive": "a knocked-out character of yours",
                "discard": "an opponent holding a card",
                "steal": "an opponent holding a card",
            }.get(card.effect, "no target")
            raise IllegalActionError(f"{action} is not a legal play: {card.name} takes {what}")
        raise IllegalActionError(
            f"{action} is not a legal play: {card.name} has nothing to act on now, so it can "
            "only be played at no one, to no effect"
        )

    # ---------------------------------------------------------------- applying

    def _apply(self, action: Action) -> None:
        cur = self._current
        if cur == CHANCE:
            self._apply_outcome(action)
        elif self._queue:
            step = self._queue[0]
            if isinstance(step, ReactStep):
                self._queue.pop(0)
                if isinstance(action, React):
                    k = self._rules.card_index[action.card]  # verified
                    self._to_discard(cur, action.slot, k)
                    if k in self._rules.counter:
                        self._hit(step.attacker, step.damage)
                else:
                    self._hit(step.target, step.damage)
            else:
                assert isinstance(action, Discard) and isinstance(step, DiscardStep)
                self._to_discard(cur, action.slot, self._rules.card_index[action.card])
                self._queue[0] = DiscardStep(step.seat, step.left - 1)
        elif self._phase == DRAFT:
            assert isinstance(action, Pick)
            self._pick(self._char(action.character))
        elif self._phase == END:
            assert isinstance(action, EndTurn)
            hand = len(self._hands[cur])
            self._queue.append(draw_step(cur, HAND_SIZE - hand if action.refill else 1))
            self._phase = NEXT
        else:
            if isinstance(action, Play):
                self._play_card(action)
            self._pos += 1
        self._advance()

    def _pick(self, c: int) -> None:
        seat = self._seat
        self._owner[c] = seat
        self._lineup[seat].append(c)
        self._picks += 1
        if self._picks < self._n * self._options.characters_per_seat:
            self._seat = (seat + 1) % self._n
            return
        # Draft over: deal five to each seat, then seat 0 opens the first round.
        self._queue.extend(draw_step(s, HAND_SIZE) for s in range(self._n))
        self._seat = 0
        self._phase = PLAY
        self._pos = 0

    def _play_card(self, action: Play) -> None:
        rules = self._rules
        k = rules.card_index[action.card]  # verified
        card = rules.cards[k]
        seat = self._seat
        actor = self._lineup[seat][self._pos]
        self._to_discard(seat, action.slot, k)
        effect = card.effect
        if effect == "attack":
            damage = rules.chars[actor].str * card.power
            self._queue.append(ReactStep(self._char(action.target or ""), actor, damage))
        elif effect == "attack-all":
            damage = rules.chars[actor].str * card.power
            self._queue.extend(ReactStep(c, actor, damage) for c in self._opposing_active(seat))
        elif action.target is None and action.seat is None and effect in _AIMED:
            return  # played at no one: the card does nothing (rules.md §8)
        elif effect == "heal":
            self._heal(self._char(action.target or ""), rules.chars[actor].mag * card.power)
        elif effect == "heal-all":
            for c in self._lineup[seat]:
                self._heal(c, rules.chars[actor].mag * card.power)
        elif effect == "absorb":
            source = self._char(action.target or "")
            amount = action.amount or 0
            self._hp[source] += amount
            self._hit(actor, amount)  # may knock the absorber out (rules.md §10)
        elif effect == "revive":
            c = self._char(action.target or "")
            self._hp[c] = min(rules.chars[c].hp, rules.chars[actor].mag * card.power)
        elif effect == "discard":
            self._queue.append(DiscardStep(action.seat or 0, card.power))
        elif effect == "steal":
            self._queue.append(take_step(seat, action.seat or 0))
        elif effect == "draw":
            self._queue.append(draw_step(seat, card.power))

    def _after_chance(self, step: Step, slot: int, value: int) -> None:
        """A card dealt: the draw at the queue's head has one card fewer to go; a take is done."""
        head = self._queue[0]
        if isinstance(head, DrawStep):
            self._queue[0] = draw_step(head.seat, head.left - 1)
        else:
            self._queue.pop(0)

    def _to_discard(self, seat: int, slot: int, k: int) -> None:
        """Move the card of kind k in `slot` from a hand to the discard pile, face up."""
        self._note(slot, k)  # `_learn_used` of one card (its zip costs more than the card)
        self._discard_slots(seat, (slot,))

    def _hit(self, c: int, damage: int) -> None:
        left = self._hp[c] - damage
        self._hp[c] = left if left > 0 else 0  # not `max`: see `_seat_alive`
        if self._hp[c] == 0:
            alive = self.active_seats()
            if len(alive) <= 1:
                self._finish(alive or [self._owner[c]])

    def _heal(self, c: int, amount: int) -> None:
        if self._hp[c] > 0:  # a KO'd character is healed only by Revive (line 9)
            self._hp[c] = min(self._rules.chars[c].hp, self._hp[c] + amount)

    def _finish(self, winners: list[int]) -> None:
        self._winners = sorted(winners)
        self._phase = OVER
        self._queue.clear()

    # --------------------------------------------------------------- the flow

    def _advance(self) -> None:
        """Resolve automatic steps until a seat or the dealer must act; set `_current`."""
        queue = self._queue
        while True:
            if self._phase == OVER:
                self._current = TERMINAL
                return
            if queue:
                step = queue[0]
                if isinstance(step, DrawStep):
                    if step.left <= 0 or (not self._deck and not self._reshuffle()):
                        queue.pop(0)  # all drawn, or nothing left anywhere to draw
                        continue
                    self._ask_draw(step.seat)
                    return
                if isinstance(step, TakeStep):
                    if not self._hands[step.victim]:
                        queue.pop(0)
                        continue
                    self._ask_take(step.thief, step.victim)
                    return
                if isinstance(step, ReactStep):
                    target = step.target
                    if self._hp[target] <= 0:
                        queue.pop(0)
                        continue
                    # The window opens whenever the owner holds any card, so the
                    # table's rhythm never tells whether it holds a Dodge.
                    owner = self._owner[target]
                    if self._hands[owner]:
                        self._current = owner
                        return
                    queue.pop(0)
                    self._hit(target, step.damage)
                    continue
                assert isinstance(step, DiscardStep)
                if step.left <= 0 or not self._hands[step.seat]:
                    queue.pop(0)
                    continue
                self._current = step.seat
                return
            phase = self._phase
            if phase == DRAFT:
                self._current = self._seat
                return
            seat = self._seat
            if phase == PLAY:
                lineup = self._lineup[seat]
                pos = self._pos
                while pos < len(lineup) and self._hp[lineup[pos]] <= 0:
                    pos += 1
                self._pos = pos
                if pos < len(lineup):
                    self._current = seat
                    return
                self._phase = END if self._seat_alive(seat) else NEXT
                continue
            if phase == END:
                self._current = seat
                return
            self._next_turn()

    def _next_turn(self) -> None:
        seat = self._seat
        n = self._n
        nxt = seat
        for _ in range(n):
            nxt = (nxt + 1) % n
            if self._seat_alive(nxt):
                break
        if nxt <= seat:
            cap = self._options.round_cap
            if cap is not None and self._round >= cap:
                self._finish(self._tie_break())  # the game ends in its last round
                return
            self._round += 1
        self._seat = nxt
        self._phase = PLAY
        self._pos = 0

    def _tie_break(self) -> list[int]:
        """At the round cap: most active characters, then most total HP; a tie shares the win."""

        def score(s: int) -> tuple[int, int]:
            alive = [c for c in self._lineup[s] if self._hp[c] > 0]
            return len(alive), sum(self._hp[c] for c in alive)

        alive = self.active_seats()
        best = max(score(s) for s in alive)
        return [s for s in alive if score(s) == best]

    # ----------------------------------------------------------------- helpers

    def _seat_alive(self, seat: int) -> bool:
        # A plain loop: a playout asks at every turn, and both `any` of a generator and `max`
        # (which parses its keywords on every call in CPython 3.11) cost more.
        hp = self._hp
        for c in self._lineup[seat]:  # noqa: SIM110 (the reason above)
            if hp[c] > 0:
                return True
        return False

    def _opposing_active(self, seat: int) -> list[int]:
        """Opposing active characters, from the next seat round the table, each left to right."""
        out: list[int] = []
        hp, lineup, n = self._hp, self._lineup, self._n
        for i in range(1, n):
            for c in lineup[(seat + i) % n]:  # a loop, not a generator per seat
                if hp[c] > 0:
                    out.append(c)
        return out

    def _char(self, character: str) -> int:
        c = self._rules.char_index.get(character)
        if c is None:
            raise IllegalActionError(f"there is no character called {character!r}")
        return c

    # ------------------------------------------------------- copies and views

    def clone(self) -> RpgBattleState:
        other = self._clone_cards()
        other._options = self._options
        other._owner = self._owner[:]
        other._hp = self._hp[:]
        other._lineup = [line[:] for line in self._lineup]
        other._phase = self._phase
        other._seat = self._seat
        other._picks = self._picks
        other._pos = self._pos
        other._round = self._round
        other._winners = None if self._winners is None else self._winners[:]
        return other

    def search_key(self) -> Hashable:
        """Everything that decides the future, as one tuple (hands as sorted kinds)."""
        return (
            self._phase, self._seat, self._pos, self._round, tuple(map(_encoded, self._queue)),
            tuple(self._hp), tuple(self._owner), self._hands_key(),
            tuple(self._pool), len(self._discard), self._current,
        )  # fmt: skip

    def public_sections(self) -> dict[str, Canonical]:
        return {
            "turn": {
                "phase": PHASE_NAMES[self._phase],
                "seat": self._seat,
                "position": self._pos,
                "round": self._round,
                "picks": self._picks,
                "queue": [list(_encoded(step)) for step in self._queue],
            },
            "piles": {
                "deck": len(self._deck),
                "discard": self.discard_pile(),
                "hands": [len(h) for h in self._hands],
                "reshuffles": self.reshuffles(),
            },
            "board": {
                "owner": list(self._owner),
                "hp": list(self._hp),
                "lineup": [list(line) for line in self._lineup],
            },
            "scores": {"winners": self._winners},
        }

    def to_json(self, seat: int | None = None) -> dict[str, Any]:
        view = self if seat is None else self.observation(seat)
        d = view.decision()
        return {
            "game": self.game.name,
            "seats": self._n,
            "viewer": view.viewer,
            "round": self._round,
            "turn": self._seat,
            "decision": dataclasses.asdict(d),
            "characters": [
                {
                    "id": c.id,
                    "name": c.name,
                    "owner": view.owner(c.id),
                    "hp": self._hp[i],
                    "max_hp": c.hp,
                    "str": c.str,
                    "mag": c.mag,
                }
                for i, c in enumerate(self._rules.chars)
            ],
            "hands": [view.hand(s) for s in range(self._n)],
            "deck": len(self._deck),
            "discard": self.discard_pile(),
            "winners": self.winners(),
        }

    def __repr__(self) -> str:
        d = self.decision()
        return f"<rpg-battle {self._n} seats, round {self._round}, {d.kind} by {d.seat}>"
