"""The actions of Rise of the Guys: every decision a seat makes.

Actions name card slots: a slot id is public (where a card is, not what), and every replica
numbers slots alike (p2pcards/zones.py), so an action finds the same card everywhere. An
action that shows a card names it too (`card`); its public form blanks what the others may
not learn (a face-down play, a private reorder).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

from p2pcards.answers import DECLINE, Decline, Discard, Target, TargetPlayer
from p2pcards.engine import Action
from p2pcards.zones import CHANCE_TYPES

__all__ = [
    "ACTION_TYPES", "CONCEDE", "DECLINE", "PASS", "Concede", "Decline", "Discard", "Lane",
    "Mulligan", "Order", "Pass", "Play", "Prepare", "Reveal", "Target", "TargetPlayer",
    "orders",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Mulligan(Action):
    """Put the hand cards at the positions in `mask` (bit i: position i) on the bottom of
    your deck, then draw back to five (rulebook line 65)."""

    kind = "mulligan"
    mask: int

    def __str__(self) -> str:
        if not self.mask:
            return "keep the hand"
        positions = [str(i + 1) for i in range(self.mask.bit_length()) if self.mask >> i & 1]
        return f"mulligan cards {', '.join(positions)}"


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play the card in hand slot `slot`: a Guy to `lane`, a Pin onto the Guy in slot `host`
    (or into the Vest), a Prank. `enhanced`: paid its Enhance cost; `face_down`: a Sneaky
    Guy, whose card and cost the public form hides."""

    kind = "play"
    slot: int
    card: str | None
    lane: int | None = None
    host: int | None = None
    enhanced: bool = False
    face_down: bool = False

    def named(self, card: str) -> Play:
        """The same play naming its card (a face-down play, where the card is known)."""
        return Play(self.slot, card, self.lane, self.host, self.enhanced, self.face_down)

    def public(self) -> Play:
        if self.face_down:
            return Play(self.slot, None, self.lane, self.host, self.enhanced, True)
        return self

    def __str__(self) -> str:
        name = self.card or "a face-down card"
        where = f" in lane {self.lane + 1}" if self.lane is not None else ""
        down = " face down" if self.face_down else ""
        enhanced = " (enhanced)" if self.enhanced else ""
        return f"play {name}{down}{where}{enhanced}"


@dataclass(frozen=True, slots=True)
class Prepare(Action):
    """Turn the Guy in `slot` sideways to use its Prepare ability (line 197)."""

    kind = "prepare"
    slot: int

    def __str__(self) -> str:
        return f"prepare slot {self.slot}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """End your play phase (phases end only on a pass: rules §4)."""

    kind = "pass"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Lane(Action):
    """Choose a lane (a Guy moving, a token made) for the ability being resolved."""

    kind = "lane"
    lane: int

    def __str__(self) -> str:
        return f"lane {self.lane + 1}"


@dataclass(frozen=True, slots=True)
class Order(Action):
    """Put the looted cards back on your deck in order number `order` of `orders(n)`.

    Private: the public form names no order (None), so the others cannot link the cards'
    old places to their new ones; their replicas knew none of the cards, so nothing they
    hold changes, and the mental layer re-masks the cards afresh (issue 16)."""

    kind = "order"
    order: int | None

    def public(self) -> Order:
        return Order(None)

    def __str__(self) -> str:
        return "put the cards back" if self.order is None else f"order {self.order + 1}"


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    """Flip your face-down Guy in `slot` before combat (line 87), showing `card`."""

    kind = "reveal"
    slot: int
    card: str

    def __str__(self) -> str:
        return f"reveal {self.card}"


@dataclass(frozen=True, slots=True)
class Concede(Action):
    """Concede the game (line 111): accepted at any of your decisions, never listed."""

    kind = "concede"

    def __str__(self) -> str:
        return "concede"


PASS = Pass()
CONCEDE = Concede()


def orders(n: int) -> list[tuple[int, ...]]:
    """Every order of n looted cards, the top card's old position first; `Order.order`
    indexes this list (the first is the order they came in)."""
    return list(permutations(range(n)))


ACTION_TYPES: tuple[type[Action], ...] = (
    Mulligan, Play, Prepare, Pass, Target, TargetPlayer, Lane, Discard, Order, Decline,
    Reveal, Concede, *CHANCE_TYPES,
)  # fmt: skip
