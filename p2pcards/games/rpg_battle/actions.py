"""The actions of rpg-battle: every decision a seat makes and every chance outcome.

An action that uses a card of the hand names its slot (public: where a card is, not what,
and numbered alike on every replica) and the card, which everyone sees as it is played
(p2pcards/zones.py): the dealer reveals that slot and checks it holds the card.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pcards.engine import Action, ChanceOutcome
from p2pcards.zones import Deal  # the one draw outcome of every game


@dataclass(frozen=True, slots=True)
class Pick(Action):
    """Draft a character."""

    kind = "pick"
    character: str

    def __str__(self) -> str:
        return f"pick {self.character}"


@dataclass(frozen=True, slots=True)
class Play(Action):
    """The acting character plays the card in hand slot `slot` (a `card`): at a character
    (`target`), at a seat, or at no one.

    An Absorb names the damage it moves (`amount`, rules.md §10); every other play leaves it
    None. A card played at no one when its text names a target does nothing (rules.md §8).
    """

    kind = "play"
    slot: int
    card: str
    target: str | None = None
    seat: int | None = None
    amount: int | None = None

    def __str__(self) -> str:
        if self.target is not None:
            moved = f" ({self.amount})" if self.amount is not None else ""
            return f"{self.card} → {self.target}{moved}"
        if self.seat is not None:
            return f"{self.card} → seat {self.seat}"
        return self.card


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline: the acting character does nothing, or an attacked character takes the hit."""

    kind = "pass"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class React(Action):
    """Answer an attack with the Quick Action card (Dodge or Counter) in hand slot `slot`."""

    kind = "react"
    slot: int
    card: str

    def __str__(self) -> str:
        return f"react with {self.card}"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Discard the card in hand slot `slot`, when an opponent's Discard card demands it."""

    kind = "discard"
    slot: int
    card: str

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    """End the turn: draw back up to a full hand (`refill`), or draw one card."""

    kind = "end-turn"
    refill: bool

    def __str__(self) -> str:
        return "end turn, draw up to 5" if self.refill else "end turn, draw 1"


@dataclass(frozen=True, slots=True)
class Take(ChanceOutcome):
    """Chance: a Steal takes the card at `index` of the victim's hand; `card` is None when hidden.

    The position is public (everyone sees which card is pulled from the hand);
    the card is known only to the thief, the victim and whoever knew it before.
    """

    kind = "take"
    index: int
    card: str | None

    @property
    def position(self) -> int:
        """The position picked, as the zones read any random pick (the wire says `index`)."""
        return self.index

    def hidden(self) -> Take:
        """The outcome as a seat that may not see the card applies it."""
        return Take(self.index, None)

    def __str__(self) -> str:
        return f"take card {self.index + 1}: {self.card or 'hidden'}"


PASS = Pass()
ACTION_TYPES: tuple[type[Action], ...] = (Pick, Play, Pass, React, Discard, EndTurn, Deal, Take)
