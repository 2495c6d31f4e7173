"""The rules of rpg-battle as a state machine.

Layout of a state (all plain lists of ints, so `clone()` is a handful of list
copies and a random playout costs microseconds a step):

- characters are numbered in database order; `_owner[c]` is the drafting seat
  (or -1), `_hp[c]` the hit points (0 means KO'd);
- the 100 action cards are slots numbered 0..99 that live in exactly one of
  `_deck`, `_discard` or a hand `_hands[seat]`; `_ident[slot]` is the card kind
  or UNKNOWN, `_known[slot]` the bit mask of seats that know it;
- `_pool[kind]` counts the copies of each kind whose slot this state does not
  know: the undealt deck in a complete state, plus other seats' hidden cards in
  a replica. Deal and Take outcomes are weighted by it.

Pending effects (draws, reactions to attacks, forced discards, steals) wait in
`_queue` and are resolved before the acting character's turn goes on, so
reactions and chance nodes can interrupt any turn.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from p2pcards.digest import Canonical
from p2pcards.engine import CHANCE, TERMINAL, Action, ChanceMove, Game, Reveal, Sighting, State
from p2pcards.errors import HiddenInformationError, IllegalActionError
from p2pcards.games.rpg_battle.actions import (
    DEAL_HIDDEN,
    PASS,
    Deal,
    Discard,
    EndTurn,
    Pass,
    Pick,
    Play,
    React,
    Take,
)
from p2pcards.games.rpg_battle.cards import CardDatabase, CardType, Character

UNKNOWN = -1
HAND_SIZE = 5

# Phases of a turn.
DRAFT, PLAY, END, NEXT, OVER = range(5)
PHASE_NAMES = ("draft", "play", "end", "next", "over")

# Pending steps in the queue: (DRAW, seat, count), (TAKE, thief, victim),
# (REACT, target, attacker, damage), (DISCARD, victim, count).
DRAW, TAKE, REACT, DISCARD = range(4)
STEP_NAMES = ("draw", "take", "react", "discard")

Step = tuple[int, ...]


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


class Rules:
    """Static tables derived once from the card database: indices, effects, cached actions."""

    def __init__(self, game: Game, db: CardDatabase) -> None:
        self.game = game
        self.db = db
        self.chars = db.characters
        self.cards = db.cards
        self.char_index = {c.id: i for i, c in enumerate(self.chars)}
        self.card_index = {c.id: i for i, c in enumerate(self.cards)}
        self.composition = [c.qty for c in self.cards]
        self.deck_size = db.deck_size
        self.deals = [Deal(c.id) for c in self.cards]  # every Deal outcome, built once
        self.everyone = [frozenset(range(n)) for n in range(game.max_players + 1)]
        self.quick = [c.quick for c in db.cards]
        self.dodge = [i for i, c in enumerate(self.cards) if c.effect == "dodge"]
        self.counter = [i for i, c in enumerate(self.cards) if c.effect == "counter"]


@cache
def _play(card: str, target: str | None = None, seat: int | None = None) -> Play:
    return Play(card, target, seat)


_ONE: dict[tuple[type[Action], Any], Action] = {}


def _one(cls: type[Action], value: Any) -> Action:
    """The shared instance of a one-field action (actions are immutable, so one is enough)."""
    action = _ONE.get((cls, value))
    if action is None:
        action = _ONE[(cls, value)] = cls(value)  # type: ignore[call-arg]
    return action


class RpgBattleState(State):
    """A position of rpg-battle, or one seat's replica of it."""

    __slots__ = (
        "_current", "_deck", "_discard", "_generation", "_hands", "_hp", "_ident", "_known",
        "_lineup", "_n", "_options", "_owner", "_phase", "_picks", "_pool", "_pos", "_queue",
        "_round", "_rules", "_seat", "_shown", "_winners", "viewer",
    )  # fmt: skip

    def __init__(self, rules: Rules, num_players: int, options: Options) -> None:
        self._rules = rules
        self._n = num_players
        self._options = options
        self.viewer: int | None = None
        nchars = len(rules.chars)
        self._owner = [-1] * nchars
        self._hp = [c.hp for c in rules.chars]
        self._lineup: list[list[int]] = [[] for _ in range(num_players)]
        self._hands: list[list[int]] = [[] for _ in range(num_players)]
        self._ident = [UNKNOWN] * rules.deck_size
        self._known = [0] * rules.deck_size
        self._deck = list(range(rules.deck_size))
        self._discard: list[int] = []
        self._pool = list(rules.composition)
        self._generation = 0
        self._phase = DRAFT
        self._seat = 0
        self._picks = 0
        self._pos = 0
        self._round = 1
        self._queue: list[Step] = []
        self._winners: list[int] | None = None
        self._current = 0
        self._shown = -1  # the slot `see` pinned for the next card shown, or -1

    # ----------------------------------------------------------------- queries

    @property
    def game(self) -> Game:
        return self._rules.game

    @property
    def num_players(self) -> int:
        return self._n

    @property
    def options(self) -> Options:
        """The options this table was made with."""
        return self._options

    def current_player(self) -> int:
        return self._current

    def decision(self) -> Decision:
        """What is being decided now, in public terms."""
        names = [c.id for c in self._rules.chars]
        if self._current == TERMINAL:
            return Decision("over", TERMINAL)
        if self._current == CHANCE:
            step = self._queue[0]
            if step[0] == DRAW:
                return Decision("deal", CHANCE, count=step[2], receiver=step[1])
            return Decision("take", CHANCE, receiver=step[1], victim=step[2])
        if self._queue:
            step = self._queue[0]
            if step[0] == REACT:
                return Decision(
                    "react", self._current, names[step[1]], names[step[2]], damage=step[3]
                )
            return Decision("discard", self._current, count=step[2])
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
        incoming: dict[int, int] = {}
        for step in self._queue:
            if step[0] == REACT:
                incoming[step[1]] = incoming.get(step[1], 0) + step[3]
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

    def hand(self, seat: int) -> list[str | None]:
        """The cards of a seat's hand in order, None for each one this state does not know."""
        return [self._card_id(self._ident[s]) for s in self._hands[seat]]

    def unseen_cards(self) -> dict[str, int]:
        """How many copies of each card this state has not seen (the deck and hidden hands)."""
        cards = self._rules.cards
        return {cards[k].id: n for k, n in enumerate(self._pool) if n}

    def hand_size(self, seat: int) -> int:
        """How many cards a seat holds (public)."""
        return len(self._hands[seat])

    def deck_size(self) -> int:
        """Cards left in the draw deck."""
        return len(self._deck)

    def discard_pile(self) -> list[str]:
        """The discard pile, oldest first (face up, public)."""
        return [self._rules.cards[self._ident[s]].id for s in self._discard]

    def reshuffles(self) -> int:
        """How many times the discard pile has been shuffled into a new deck."""
        return self._generation

    def slots(self) -> Iterator[tuple[int, str, str | None, int]]:
        """Every card slot as (slot id, place, card or None, bit mask of seats that know it)."""
        for s in self._deck:
            yield s, "deck", self._card_id(self._ident[s]), self._known[s]
        for s in self._discard:
            yield s, "discard", self._card_id(self._ident[s]), self._known[s]
        for seat, hand in enumerate(self._hands):
            for s in hand:
                yield s, f"hand:{seat}", self._card_id(self._ident[s]), self._known[s]

    def winners(self) -> list[int]:
        """The seats that won (several only after a round-cap tie); empty until the end."""
        return list(self._winners or [])

    def returns(self) -> list[float]:
        if not self._winners:
            return [0.0] * self._n
        share = 1.0 / len(self._winners)
        return [share if s in self._winners else 0.0 for s in range(self._n)]

    def pending_hits(self) -> list[tuple[str, int]]:
        """Attacks waiting for their target's answer: (character, damage), in order."""
        chars = self._rules.chars
        return [(chars[step[1]].id, step[3]) for step in self._queue if step[0] == REACT]

    def pending_discards(self) -> list[tuple[int, int]]:
        """Forced discards the victim has yet to choose: (seat, count)."""
        return [(step[1], step[2]) for step in self._queue if step[0] == DISCARD]

    def chance_move(self) -> ChanceMove:
        """Deals come from the deck; a Steal's take comes from the victim's hand."""
        if self._current != CHANCE:
            raise IllegalActionError("not a chance node")
        step = self._queue[0]
        if step[0] == DRAW:
            return ChanceMove("deal", step[1])
        return ChanceMove("take", step[1], source=step[2])

    def chance_outcome_for(self, card: str | None, position: int = 0) -> Action:
        """Deal(card), or Take(position, card), whichever this chance node is."""
        if self.chance_move().kind == "deal":
            return DEAL_HIDDEN if card is None else _one(Deal, card)
        return Take(position, card)

    def reveals(self, action: Action) -> list[Reveal]:
        """Play, React and Discard show the card they name to everyone; nothing else shows one."""
        if isinstance(action, Play | React | Discard):
            return [Reveal(self._current, self._rules.everyone[self._n], (action.card,))]
        return []

    def see(self, sightings: Sequence[Sighting]) -> None:
        """Learn the cards the dealer opened; a pinned one is the card the next action shows.

        A replica that cannot see the hand must be told which slot (it refuses the action
        otherwise): removing some other hidden slot would leave the cards it does know at
        positions the other replicas no longer agree on.
        """
        for sighting in sightings:
            hand = self._hands[sighting.seat]
            if not 0 <= sighting.position < len(hand):
                raise IllegalActionError(
                    f"seat {sighting.seat} has no card at position {sighting.position}"
                )
            slot = hand[sighting.position]
            if sighting.card is not None:
                self._learn(slot, self._kind(sighting.card))
            if sighting.pinned:
                self._shown = slot

    def _learn(self, slot: int, k: int) -> None:
        """This state now knows that `slot` holds kind k (told by the dealer)."""
        if self._ident[slot] == UNKNOWN:
            if self._pool[k] <= 0:
                raise IllegalActionError(f"no unseen {self._rules.cards[k].id} is left")
            self._ident[slot] = k
            self._pool[k] -= 1
        elif self._ident[slot] != k:
            raise IllegalActionError(f"slot {slot} is not {self._rules.cards[k].id}")

    def positions_of(self, seat: int, cards: Sequence[str]) -> list[int]:
        """Where in `seat`'s hand the named cards are (distinct; the best-known copies first)."""
        hand = self._hands[seat]
        taken: list[int] = []
        for card in cards:
            slot = self._pick_shown(seat, self._kind(card), exclude=taken)
            taken.append(slot)
        return [hand.index(slot) for slot in taken]

    def hand_slots(self, seat: int) -> list[int]:
        return list(self._hands[seat])

    def deck_slots(self) -> list[int]:
        return list(self._deck)

    def chance_viewers(self) -> frozenset[int]:
        """At a chance node, the seats entitled to learn the outcome's identity."""
        step = self._queue[0] if self._current == CHANCE else None
        if step is None:
            return frozenset()
        if step[0] == DRAW:
            return frozenset((step[1],))
        return frozenset((step[1], step[2]))

    # ------------------------------------------------------------ legal moves

    def legal_actions(self) -> list[Action]:
        cur = self._current
        if cur == TERMINAL:
            return []
        if cur == CHANCE:
            return [outcome for outcome, _ in self.chance_outcomes()]
        rules = self._rules
        if self._queue:
            step = self._queue[0]
            kinds = self._hand_kinds(cur)
            if step[0] == REACT:
                quick = [k for k in kinds if k in rules.dodge or k in rules.counter]
                return [PASS] + [_one(React, rules.cards[k].id) for k in quick]
            return [_one(Discard, rules.cards[k].id) for k in kinds]
        if self._phase == DRAFT:
            return [_one(Pick, c.id) for i, c in enumerate(rules.chars) if self._owner[i] < 0]
        if self._phase == END:
            if len(self._hands[cur]) < HAND_SIZE - 1:
                return [_one(EndTurn, True), _one(EndTurn, False)]
            return [_one(EndTurn, False)]
        actions: list[Action] = [PASS]
        for k in self._hand_kinds(cur):
            actions.extend(self._plays(k))
        return actions

    def _plays(self, k: int) -> Iterator[Play]:
        """Every way the acting character can play a card of kind k now."""
        rules = self._rules
        card = rules.cards[k]
        effect = card.effect
        seat = self._seat
        actor = self._lineup[seat][self._pos]
        chars = rules.chars
        if effect == "attack":
            for c in self._opposing_active(seat):
                yield _play(card.id, chars[c].id)
        elif effect == "attack-all":
            yield _play(card.id)
        elif effect == "heal":
            for c in self._lineup[seat]:
                if 0 < self._hp[c] < chars[c].hp:
                    yield _play(card.id, chars[c].id)
        elif effect == "heal-all":
            if any(0 < self._hp[c] < chars[c].hp for c in self._lineup[seat]):
                yield _play(card.id)
        elif effect == "absorb":
            for c in self._lineup[seat]:
                if c != actor and self._absorb_amount(actor, c, card.power) > 0:
                    yield _play(card.id, chars[c].id)
        elif effect == "revive":
            for c in self._lineup[seat]:
                if self._hp[c] == 0:
                    yield _play(card.id, chars[c].id)
        elif effect in ("discard", "steal"):
            for other in range(self._n):
                if other != seat and self._seat_alive(other) and self._hands[other]:
                    yield _play(card.id, seat=other)
        elif effect == "draw" and (self._deck or self._discard):
            yield _play(card.id)
        # dodge and counter are Quick Actions: never played on one's own turn (line 30).

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self._current != CHANCE:
            raise IllegalActionError("not a chance node")
        step = self._queue[0]
        viewer = self.viewer
        if step[0] == DRAW:
            if viewer is not None and viewer != step[1]:
                return [(DEAL_HIDDEN, 1.0)]
            # Deck slots are never known to anyone, so the deck is the pool.
            deals = self._rules.deals
            total = sum(self._pool)
            return [(deals[k], n / total) for k, n in enumerate(self._pool) if n]
        may_see = viewer is None or viewer in (step[1], step[2])
        hand = self._hands[step[2]]
        share = 1.0 / len(hand)
        outcomes: list[tuple[Action, float]] = []
        for i, slot in enumerate(hand):
            k = self._ident[slot]
            if k != UNKNOWN or not may_see:
                outcomes.append((Take(i, self._card_id(k)), share))
            else:  # the thief's replica, at a card it has not seen: spread over the pool
                outcomes.extend((Take(i, card), share * w) for card, w in self._spread(self._pool))
        return outcomes

    def _spread(self, weights: list[int]) -> list[tuple[str, float]]:
        total = sum(weights)
        return [(self._rules.cards[k].id, w / total) for k, w in enumerate(weights) if w > 0]

    # ------------------------------------------------------------- validation

    def verify_action(self, action: Action) -> None:
        cur = self._current
        if cur == TERMINAL:
            raise IllegalActionError("the game is over")
        if cur == CHANCE:
            self._verify_outcome(action)
            return
        rules = self._rules
        if self._queue:
            step = self._queue[0]
            if step[0] == REACT:
                if isinstance(action, Pass):
                    return
                if not isinstance(action, React):
                    raise IllegalActionError(f"seat {cur} must answer the attack: pass or react")
                k = self._kind(action.card)
                if k not in rules.dodge and k not in rules.counter:
                    raise IllegalActionError(f"{action.card} is not a Quick Action")
                self._verify_holds(cur, k)
                return
            if not isinstance(action, Discard):
                raise IllegalActionError(f"seat {cur} must choose a card to discard")
            self._verify_holds(cur, self._kind(action.card))
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
        self._verify_holds(cur, k)
        self._verify_play(k, action)

    def _verify_play(self, k: int, action: Play) -> None:
        """Check a play's target against the card's effect."""
        card = self._rules.cards[k]
        if card.quick:
            raise IllegalActionError(f"{card.name} is a Quick Action, used only when attacked")
        needs_target = card.effect in ("attack", "heal", "absorb", "revive")
        needs_seat = card.effect in ("discard", "steal")
        if needs_target != (action.target is not None) or needs_seat != (action.seat is not None):
            what = "a character" if needs_target else "a seat" if needs_seat else "no target"
            raise IllegalActionError(f"{card.name} takes {what}")
        if action not in self._plays(k):
            raise IllegalActionError(f"{action} is not a legal target for {card.name} now")

    def _verify_holds(self, seat: int, k: int) -> None:
        """A seat can show a card of kind k: the card shown is one, or one it is known to hold."""
        hand = self._hands[seat]
        ident = self._ident
        if self._shown >= 0:
            if self._shown not in hand or ident[self._shown] != k:
                raise IllegalActionError(
                    f"the card seat {seat} showed is not a {self._rules.cards[k].name}"
                )
            return
        if self.viewer is not None and self.viewer != seat:
            raise IllegalActionError(
                f"this replica cannot see seat {seat}'s hand: `see` must pin the card it shows"
            )
        for s in hand:
            if ident[s] == k:
                return
        if self._pool[k] > 0 and any(ident[s] == UNKNOWN for s in hand):
            return
        raise IllegalActionError(f"seat {seat} holds no {self._rules.cards[k].name}")

    def _knows_taken(self, action: Action, k: int) -> bool:
        """Whether this replica already knows that a Take takes card kind `k`: an onlooker
        that once held or stole that very card follows it (rules.md §12), so being told
        it again teaches it nothing."""
        if not isinstance(action, Take):
            return False
        hand = self._hands[self._queue[0][2]]
        return 0 <= action.index < len(hand) and self._ident[hand[action.index]] == k

    def _verify_outcome(self, action: Action) -> None:
        step = self._queue[0]
        cls = Deal if step[0] == DRAW else Take
        if not isinstance(action, cls):
            raise IllegalActionError(f"the chance node needs a {cls.kind} outcome, not {action}")
        assert isinstance(action, Deal | Take)
        viewers = self.chance_viewers()
        if action.card is None:
            if self.viewer is None or self.viewer in viewers:
                raise IllegalActionError("this state must be told which card it is")
            if isinstance(action, Take) and not 0 <= action.index < len(self._hands[step[2]]):
                raise IllegalActionError(f"the victim's hand has no card {action.index}")
            return
        k = self._kind(action.card)
        if (
            self.viewer is not None
            and self.viewer not in viewers
            and not self._knows_taken(action, k)
        ):
            raise IllegalActionError(f"seat {self.viewer} may not learn this card")
        if isinstance(action, Take):
            hand = self._hands[step[2]]
            if not 0 <= action.index < len(hand):
                raise IllegalActionError(f"the victim's hand has no card {action.index}")
            known = self._ident[hand[action.index]]
            if known != UNKNOWN:
                if known != k:
                    raise IllegalActionError(f"the card taken is not {action.card}")
                return
        if self._pool[k] <= 0:
            raise IllegalActionError(f"{action.card} cannot be there")

    # ---------------------------------------------------------------- applying

    def _apply(self, action: Action) -> None:
        cur = self._current
        if cur == CHANCE:
            self._apply_outcome(action)
        elif self._queue:
            step = self._queue[0]
            if step[0] == REACT:
                self._queue.pop(0)
                target, attacker, damage = step[1], step[2], step[3]
                if isinstance(action, React):
                    k = self._kind(action.card)
                    self._to_discard(cur, k)
                    if k in self._rules.counter:
                        self._hit(attacker, damage)
                else:
                    self._hit(target, damage)
            else:
                assert isinstance(action, Discard)
                self._to_discard(cur, self._kind(action.card))
                self._queue[0] = (DISCARD, step[1], step[2] - 1)
        elif self._phase == DRAFT:
            assert isinstance(action, Pick)
            self._pick(self._char(action.character))
        elif self._phase == END:
            assert isinstance(action, EndTurn)
            hand = len(self._hands[cur])
            self._queue.append((DRAW, cur, HAND_SIZE - hand if action.refill else 1))
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
        self._queue.extend((DRAW, s, HAND_SIZE) for s in range(self._n))
        self._seat = 0
        self._phase = PLAY
        self._pos = 0

    def _play_card(self, action: Play) -> None:
        rules = self._rules
        k = self._kind(action.card)
        card = rules.cards[k]
        seat = self._seat
        actor = self._lineup[seat][self._pos]
        self._to_discard(seat, k)
        effect = card.effect
        if effect == "attack":
            damage = rules.chars[actor].str * card.power
            self._queue.append((REACT, self._char(action.target or ""), actor, damage))
        elif effect == "attack-all":
            damage = rules.chars[actor].str * card.power
            self._queue.extend((REACT, c, actor, damage) for c in self._opposing_active(seat))
        elif effect == "heal":
            self._heal(self._char(action.target or ""), rules.chars[actor].mag * card.power)
        elif effect == "heal-all":
            for c in self._lineup[seat]:
                self._heal(c, rules.chars[actor].mag * card.power)
        elif effect == "absorb":
            source = self._char(action.target or "")
            amount = self._absorb_amount(actor, source, card.power)
            self._hp[source] += amount
            self._hp[actor] -= amount
        elif effect == "revive":
            c = self._char(action.target or "")
            self._hp[c] = min(rules.chars[c].hp, rules.chars[actor].mag * card.power)
        elif effect == "discard":
            self._queue.append((DISCARD, action.seat or 0, card.power))
        elif effect == "steal":
            self._queue.append((TAKE, seat, action.seat or 0))
        elif effect == "draw":
            self._queue.append((DRAW, seat, card.power))

    def _apply_outcome(self, action: Action) -> None:
        assert isinstance(action, Deal | Take)
        step = self._queue[0]
        k = UNKNOWN if action.card is None else self._kind(action.card)
        if step[0] == DRAW:
            seat = step[1]
            slot = self._deck.pop()
            self._hands[seat].append(slot)
            self._known[slot] = 1 << seat
            if k != UNKNOWN:
                self._ident[slot] = k
                self._pool[k] -= 1
            self._queue[0] = (DRAW, seat, step[2] - 1)
            return
        assert isinstance(action, Take)
        thief, victim = step[1], step[2]
        self._queue.pop(0)
        slot = self._hands[victim].pop(action.index)
        self._hands[thief].append(slot)
        self._known[slot] |= 1 << thief
        if k != UNKNOWN and self._ident[slot] == UNKNOWN:
            self._ident[slot] = k
            self._pool[k] -= 1

    def _pick_shown(self, seat: int, k: int, exclude: Sequence[int] = ()) -> int:
        """The slot a card of kind k is shown from: the one just shown, else the copy the
        most seats already know (it reveals the least)."""
        if self._shown >= 0:
            return self._shown
        hand = self._hands[seat]
        ident = self._ident
        known = self._known
        best = -1
        for s in hand:
            if (
                ident[s] == k
                and s not in exclude
                and (best < 0 or bin(known[s]).count("1") > bin(known[best]).count("1"))
            ):
                best = s
        if best < 0:
            raise HiddenInformationError(f"seat {seat} must show which card it plays")
        return best

    def _to_discard(self, seat: int, k: int) -> None:
        """Move a card of kind k from a hand to the discard pile, face up."""
        slot = self._pick_shown(seat, k)
        self._shown = -1
        self._hands[seat].remove(slot)
        self._discard.append(slot)
        self._known[slot] = (1 << self._n) - 1

    def _reshuffle(self) -> None:
        """The discard pile becomes a new, face-down deck."""
        for s in self._discard:
            self._pool[self._ident[s]] += 1
            self._ident[s] = UNKNOWN
            self._known[s] = 0
        self._deck = self._discard
        self._discard = []
        self._generation += 1

    def _hit(self, c: int, damage: int) -> None:
        self._hp[c] = max(0, self._hp[c] - damage)
        if self._hp[c] == 0:
            alive = self.active_seats()
            if len(alive) <= 1:
                self._finish(alive or [self._owner[c]])

    def _heal(self, c: int, amount: int) -> None:
        if self._hp[c] > 0:  # a KO'd character is healed only by Revive (line 9)
            self._hp[c] = min(self._rules.chars[c].hp, self._hp[c] + amount)

    def _absorb_amount(self, actor: int, source: int, power: int) -> int:
        """Damage an Absorb moves: MAG x power at most, no more than the source's, no KO."""
        if self._hp[source] <= 0:
            return 0
        damage = self._rules.chars[source].hp - self._hp[source]
        return max(0, min(self._rules.chars[actor].mag * power, damage, self._hp[actor] - 1))

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
                kind = step[0]
                if kind == DRAW:
                    if step[2] <= 0:
                        queue.pop(0)
                        continue
                    if not self._deck:
                        if not self._discard:
                            queue.pop(0)  # nothing left anywhere to draw
                            continue
                        self._reshuffle()
                    self._current = CHANCE
                    return
                if kind == TAKE:
                    if not self._hands[step[2]]:
                        queue.pop(0)
                        continue
                    self._current = CHANCE
                    return
                if kind == REACT:
                    target = step[1]
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
                    self._hit(target, step[3])
                    continue
                if step[2] <= 0 or not self._hands[step[1]]:
                    queue.pop(0)
                    continue
                self._current = step[1]
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
        hp = self._hp
        return any(hp[c] > 0 for c in self._lineup[seat])

    def _opposing_active(self, seat: int) -> list[int]:
        """Opposing active characters, from the next seat round the table, each left to right."""
        out: list[int] = []
        for i in range(1, self._n):
            other = (seat + i) % self._n
            out.extend(c for c in self._lineup[other] if self._hp[c] > 0)
        return out

    def _hand_kinds(self, seat: int) -> list[int]:
        """The distinct kinds in a hand, in database order; raises if the hand is hidden here."""
        ident = self._ident
        kinds = set()
        for s in self._hands[seat]:
            k = ident[s]
            if k == UNKNOWN:
                raise HiddenInformationError(
                    f"seat {seat}'s hand is hidden from this state (viewer {self.viewer})"
                )
            kinds.add(k)
        return sorted(kinds)

    def _card_id(self, k: int) -> str | None:
        return None if k == UNKNOWN else self._rules.cards[k].id

    def _kind(self, card: str) -> int:
        k = self._rules.card_index.get(card)
        if k is None:
            raise IllegalActionError(f"there is no card called {card!r}")
        return k

    def _char(self, character: str) -> int:
        c = self._rules.char_index.get(character)
        if c is None:
            raise IllegalActionError(f"there is no character called {character!r}")
        return c

    # ------------------------------------------------------- copies and views

    def clone(self) -> RpgBattleState:
        other = RpgBattleState.__new__(RpgBattleState)
        other._rules = self._rules
        other._n = self._n
        other._options = self._options
        other.viewer = self.viewer
        other._owner = self._owner[:]
        other._hp = self._hp[:]
        other._lineup = [line[:] for line in self._lineup]
        other._hands = [hand[:] for hand in self._hands]
        other._ident = self._ident[:]
        other._known = self._known[:]
        other._deck = self._deck[:]
        other._discard = self._discard[:]
        other._pool = self._pool[:]
        other._generation = self._generation
        other._phase = self._phase
        other._seat = self._seat
        other._picks = self._picks
        other._pos = self._pos
        other._round = self._round
        other._queue = self._queue[:]
        other._winners = None if self._winners is None else self._winners[:]
        other._current = self._current
        other._shown = self._shown
        return other

    def determinize(self, rng: random.Random) -> RpgBattleState:
        """Every hidden card in a hand gets an identity drawn from the unseen cards (by their
        counts, without replacement); the deck stays a pool, as in any complete state."""
        full = self.clone()
        full.viewer = None
        pool = full._pool
        ident = full._ident
        for hand in full._hands:
            for slot in hand:
                if ident[slot] == UNKNOWN:
                    k = rng.choices(range(len(pool)), weights=pool)[0]
                    ident[slot] = k
                    pool[k] -= 1
        return full

    def search_key(self) -> Hashable:
        """Everything that decides the future, as one tuple (hands as sorted kinds)."""
        ident = self._ident
        return (
            self._phase, self._seat, self._pos, self._round, tuple(self._queue),
            tuple(self._hp), tuple(self._owner),
            tuple(tuple(sorted(ident[s] for s in hand)) for hand in self._hands),
            tuple(self._pool), len(self._discard), self._current,
        )  # fmt: skip

    def observation(self, seat: int) -> RpgBattleState:
        if not 0 <= seat < self._n:
            raise IllegalActionError(f"no seat {seat} at a table of {self._n}")
        if self.viewer is not None and self.viewer != seat:
            raise HiddenInformationError(
                f"a replica of seat {self.viewer} cannot see as seat {seat}"
            )
        view = self.clone()
        view.viewer = seat
        ident = view._ident
        for s, k in enumerate(ident):
            if k != UNKNOWN and not view._known[s] >> seat & 1:
                view._pool[k] += 1
                ident[s] = UNKNOWN
        return view

    def public_sections(self) -> dict[str, Canonical]:
        return {
            "turn": {
                "phase": PHASE_NAMES[self._phase],
                "seat": self._seat,
                "position": self._pos,
                "round": self._round,
                "picks": self._picks,
                "queue": [list(step) for step in self._queue],
            },
            "piles": {
                "deck": len(self._deck),
                "discard": self.discard_pile(),
                "hands": [len(h) for h in self._hands],
                "reshuffles": self._generation,
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
