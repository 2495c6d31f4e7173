"""The actions that answer a choice inside an ability (p2pcards/interpreter.py): the same in
every collectible game, so one interpreter lists, checks and applies them. A game's action
types include the ones its words can ask for."""

from __future__ import annotations

from dataclasses import dataclass

from p2pcards.engine import Action


@dataclass(frozen=True, slots=True)
class Target(Action):
    """Choose the card in `slot` for the ability being resolved."""

    kind = "target"
    slot: int

    def __str__(self) -> str:
        return f"target slot {self.slot}"


@dataclass(frozen=True, slots=True)
class TargetPlayer(Action):
    """Choose a player for the ability being resolved."""

    kind = "target-player"
    seat: int

    def __str__(self) -> str:
        return f"target seat {self.seat}"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Discard the card in hand slot `slot`, shown to everyone (an ability's discard, or a
    game's hand limit)."""

    kind = "discard"
    slot: int
    card: str

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class Decline(Action):
    """Decline an optional choice ("you may")."""

    kind = "decline"

    def __str__(self) -> str:
        return "decline"


@dataclass(frozen=True, slots=True)
class Take(Action):
    """Take `card` from your deck into your hand (a search), shown to all; None: the deck
    holds no card the search may take."""

    kind = "take"
    card: str | None

    def __str__(self) -> str:
        return "find nothing" if self.card is None else f"take {self.card}"


DECLINE = Decline()
