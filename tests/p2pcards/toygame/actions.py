"""Toy Brawl's decisions: play a card, answer one with a Counter, or pass."""

from __future__ import annotations

from dataclasses import dataclass

from p2pcards.engine import Action
from p2pcards.zones import CHANCE_TYPES


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play a card of kind "play" from hand (slot and card named); `target` the seat a Flare
    chose, -1 for other cards."""

    kind = "play"
    slot: int
    card: str
    target: int

    def __str__(self) -> str:
        return f"play {self.card}" + (f" at seat {self.target}" if self.target >= 0 else "")


@dataclass(frozen=True, slots=True)
class Respond(Action):
    """Answer the card the window is about with a Counter from hand."""

    kind = "respond"
    slot: int
    card: str

    def __str__(self) -> str:
        return f"respond with {self.card}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Play nothing this turn, or let the card the window is about stand."""

    kind = "pass"

    def __str__(self) -> str:
        return "pass"


PASS = Pass()
ACTION_TYPES: tuple[type[Action], ...] = (Play, Respond, Pass, *CHANCE_TYPES)
