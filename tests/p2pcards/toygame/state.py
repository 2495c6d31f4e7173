"""A position of Toy Brawl, or one seat's replica of it (the rules: the package docstring).

Zones: each seat's deck, hand and discard pile (`seat_zones`), then the stack, where played
cards wait while their windows are open (top last). Per seat: life, and whether it is still
in the game (a mask, `_live`). The open windows are one `Windows` value; what a Flare aims at
is kept by the slot of the card while it waits on the stack.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from enum import IntEnum
from typing import Literal

from p2pcards.deckmodel import KnownDecksModel
from p2pcards.decks import deck_rows
from p2pcards.digest import Canonical
from p2pcards.engine import CHANCE, TERMINAL, Action, Game
from p2pcards.errors import IllegalActionError
from p2pcards.seats import everyone, left_of, seats_from, seats_in
from p2pcards.windows import Window, Windows
from p2pcards.zones import Step, Zone, ZoneRules, ZoneState, own_decks, seat_zones
from toygame.actions import PASS, Pass, Play, Respond
from toygame.cards import Card

DECK_SIZE = 8
HAND_SIZE = 2
LIFE = 3
MAX_LIFE = 5
SEAT_ZONES: tuple[tuple[str, Literal["nobody", "owner", "everyone"]], ...] = (
    ("deck", "nobody"),
    ("hand", "owner"),
    ("discard", "everyone"),
)
DECK, HAND, DISCARD = range(len(SEAT_ZONES))
Phase = Literal["deal", "draw", "main", "window", "over"]
PHASES: tuple[Phase, ...] = ("deal", "draw", "main", "window", "over")


class Reason(IntEnum):
    """Why a window opened."""

    PLAYED = 0  # a card played on a turn
    RESPONSE = 1  # a Counter answering the card under it


class ToyRules(ZoneRules):
    """The toy set with the tables the rules read."""

    def __init__(self, game: Game, cards: Sequence[Card], deck_model: KnownDecksModel) -> None:
        super().__init__(game, cards, deck_model)
        self.cards = tuple(cards)


class ToyState(ZoneState):
    """A position of Toy Brawl, or one seat's replica of it."""

    __slots__ = (
        "_aim", "_deals", "_life", "_live", "_phase", "_round", "_round_cap", "_toy",
        "_turn_seat", "_windows", "_winners",
    )  # fmt: skip

    def __init__(
        self,
        rules: ToyRules,
        num_players: int,
        decks: Sequence[dict[str, int] | None],
        round_cap: int | None,
    ) -> None:
        """`decks`: each seat's card counts, None for a deck this state may not know."""
        layout = [*seat_zones(num_players, SEAT_ZONES), Zone("stack", None, "everyone")]
        rows = deck_rows(rules.card_index, decks)
        super().__init__(rules, num_players, layout, own_decks(rows, DECK_SIZE), private_decks=True)
        self._toy = rules
        self._round_cap = round_cap
        self._life = [LIFE] * num_players
        self._live = everyone(num_players)
        self._turn_seat = 0
        self._round = 0
        self._phase: Phase = "deal"
        self._windows = Windows()
        self._aim: dict[int, int] = {}  # a Flare's slot on the stack -> the seat it chose
        self._winners: tuple[int, ...] | None = None
        self._deals = [seat for _ in range(HAND_SIZE) for seat in range(num_players)]
        self._deal_next()

    # ------------------------------------------------------------------ queries

    def zone_at(self, seat: int, offset: int) -> int:
        """The index of one of a seat's zones (DECK, HAND, DISCARD)."""
        return seat * len(SEAT_ZONES) + offset

    @property
    def windows(self) -> Windows:
        """The open response windows (public)."""
        return self._windows

    def life(self, seat: int) -> int:
        """A seat's life (public)."""
        return self._life[seat]

    def in_game(self) -> tuple[int, ...]:
        """The seats still in the game."""
        return seats_in(self._live, self._n)

    def returns(self) -> list[float]:
        if self._winners is None:
            return [0.0] * self._n
        share = 1.0 / len(self._winners)
        return [share if s in self._winners else 0.0 for s in range(self._n)]

    def card(self, slot: int) -> Card:
        """The card in a slot this state knows."""
        return self._toy.cards[self._kind_at(slot)]

    # ------------------------------------------------------------------ the turn

    def _deal_next(self) -> None:
        """The opening hands, one card at a time; then seat 0's turn."""
        if self._deals:
            seat = self._deals.pop(0)
            self._draw(seat)
            return
        self._begin_turn(0)

    def _draw(self, seat: int) -> None:
        deck, hand = self.zone_at(seat, DECK), self.zone_at(seat, HAND)
        self._ask_chance(Step("draw", deck, hand, 1 << seat))

    def _begin_turn(self, seat: int) -> None:
        """Draw, or lose a life with an empty deck; then the seat decides."""
        self._turn_seat = seat
        if self._zones[self.zone_at(seat, DECK)]:
            self._phase = "draw"
            self._draw(seat)
            return
        self._hurt(seat, 1)
        if self._phase == "over":
            return
        if self._live >> seat & 1:
            self._phase, self._current = "main", seat
        else:
            self._end_turn()

    def _after_chance(self, step: Step, slot: int, value: int) -> None:
        if self._phase == "deal":
            self._deal_next()
        else:
            self._phase, self._current = "main", self._turn_seat

    def _end_turn(self) -> None:
        """The next seat in the game on the left plays; a round ends as the turn wraps."""
        seat = self._turn_seat
        following = left_of(seat, self._live, self._n)
        if following <= seat:
            self._round += 1
            if self._round_cap is not None and self._round >= self._round_cap:
                best = max(self._life[s] for s in self.in_game())
                self._finish(tuple(s for s in self.in_game() if self._life[s] == best))
                return
        self._begin_turn(following)

    def _hurt(self, seat: int, amount: int) -> None:
        """Take life; at 0 the seat is out, and the game over when one seat is left."""
        if not self._live >> seat & 1:
            return
        self._life[seat] = max(0, self._life[seat] - amount)
        if self._life[seat] == 0:
            self._live &= ~(1 << seat)
            if len(self.in_game()) == 1:
                self._finish(self.in_game())

    def _finish(self, winners: tuple[int, ...]) -> None:
        self._winners = winners
        self._phase = "over"
        self._current = TERMINAL

    # ------------------------------------------------------------------ windows

    def _may_answer(self, seat: int) -> bool:
        """Whether a seat could answer, as far as anyone knows: it holds cards."""
        return bool(self._zones[self.zone_at(seat, HAND)])

    def _go_on(self) -> None:
        """Ask the innermost window's next seat; resolve each window that closes; when none
        is left, the turn ends."""
        while self._windows:
            self._windows, closed = self._windows.settle(self._live, self._may_answer)
            if closed is None:
                self._phase, self._current = "window", self._windows.asked
                return
            self._resolve(closed)
            if self._phase == "over":
                return
        self._end_turn()

    def _resolve(self, window: Window) -> None:
        """The card a closed window was about takes effect, then goes to its discard pile."""
        slot = window.subject
        card = self.card(slot)
        owner = self.home(slot)
        if card.effect == "counter":
            stack = self._zones[self.zone("stack")]
            answered = stack[stack.index(slot) - 1]
            self._windows, cancelled = self._windows.close()
            assert cancelled.subject == answered, "a Counter's window sits on its card's"
            self._discard(answered)
        elif card.effect == "damage-left":
            self._hurt(left_of(owner, self._live, self._n), card.amount)
        elif card.effect == "damage-chosen":
            self._hurt(self._aim[slot], card.amount)
        else:
            self._life[owner] = min(MAX_LIFE, self._life[owner] + card.amount)
        self._discard(slot)

    def _discard(self, slot: int) -> None:
        self._aim.pop(slot, None)
        self._move(slot, self.zone_at(self.home(slot), DISCARD))

    # ------------------------------------------------------------------ decisions

    def _decisions(self, cur: int) -> list[Action]:
        hand = self._zones[self.zone_at(cur, HAND)]
        if self._phase == "window":
            answers: list[Action] = [PASS]
            answers += [Respond(s, c.id) for s in hand if (c := self.card(s)).response]
            return answers
        plays: list[Action] = []
        for s in hand:
            card = self.card(s)
            if card.response:
                continue
            if card.effect == "damage-chosen":
                plays += [Play(s, card.id, t) for t in self.in_game() if t != cur]
            else:
                plays.append(Play(s, card.id, -1))
        return [*plays, PASS]

    def _verify_decision(self, cur: int, action: Action) -> None:
        """Checks the named card alone (another seat's replica cannot list the hand)."""
        if isinstance(action, Pass):
            return
        if not isinstance(action, Play | Respond):
            raise IllegalActionError(f"{action} is not a Toy Brawl decision")
        self._check_slot(action.slot)
        if self._where[action.slot] != self.zone_at(cur, HAND):
            raise IllegalActionError(f"slot {action.slot} is not in seat {cur}'s hand")
        k = self._kind(action.card)
        self._check_learnable(action.slot, k)
        card = self._toy.cards[k]
        if isinstance(action, Respond):
            if self._phase != "window" or not card.response:
                raise IllegalActionError(f"{action} answers nothing now")
            return
        if self._phase != "main" or card.response:
            raise IllegalActionError(f"{action} is not a play of this turn")
        aims = card.effect == "damage-chosen"
        if aims and not (0 <= action.target < self._n and action.target != cur
                         and self._live >> action.target & 1):  # fmt: skip
            raise IllegalActionError(f"a Flare aims at another seat in the game, not {action}")
        if not aims and action.target != -1:
            raise IllegalActionError(f"{card.name} aims at no seat")

    def _apply(self, action: Action) -> None:
        if self._current == CHANCE:
            self._apply_outcome(action)
            return
        seat = self._current
        stack = self.zone("stack")
        if isinstance(action, Pass):
            if self._phase == "window":
                self._windows = self._windows.passed(seat)
            else:
                self._end_turn()
                return
        elif isinstance(action, Respond):
            self._show(action.slot, action.card, self._everyone)
            self._move(action.slot, stack)
            order = seats_from(seat + 1, self._n)
            self._windows = self._windows.acted(seat).open(Reason.RESPONSE, action.slot, order)
        else:
            assert isinstance(action, Play)
            self._show(action.slot, action.card, self._everyone)
            self._move(action.slot, stack)
            if action.target >= 0:
                self._aim[action.slot] = action.target
            order = seats_from(seat + 1, self._n)
            self._windows = self._windows.open(Reason.PLAYED, action.slot, order)
        self._go_on()

    # ------------------------------------------------------------ copies and forms

    def clone(self) -> ToyState:
        other = self._clone_zones()
        other._toy = self._toy
        other._round_cap = self._round_cap
        other._life = self._life[:]
        other._live = self._live
        other._turn_seat = self._turn_seat
        other._round = self._round
        other._phase = self._phase
        other._windows = self._windows  # immutable: shared
        other._aim = dict(self._aim)
        other._winners = self._winners
        other._deals = self._deals[:]
        return other

    def public_sections(self) -> dict[str, Canonical]:
        return {
            "turn": {
                "seat": self._turn_seat,
                "round": self._round,
                "phase": self._phase,
                "current": self._current,
                "deals": list(self._deals),
                "windows": self._windows.public(),
                "aims": [[slot, seat] for slot, seat in sorted(self._aim.items())],
                "winners": None if self._winners is None else list(self._winners),
            },
            "zones": self.zones_public(),
            "players": {"life": list(self._life), "live": self._live},
        }

    def search_key(self) -> Hashable:
        return (
            *self._cards_key(),
            tuple(self._life),
            self._live,
            self._turn_seat,
            self._round,
            PHASES.index(self._phase),
            self._current,
            self._windows.key(),
            tuple(sorted(self._aim.items())),
            tuple(self._deals),
            -1 if self._winners is None else self._winners,
        )

    def __str__(self) -> str:
        return f"<Toy Brawl round {self._round} {self._phase}, life {self._life}>"
