"""The decisions of Gammasphere: play a card, attack, switch a character's mode, end the
turn, discard down to the hand limit, concede.

Actions name card slots (p2pcards/zones.py): a slot id is public, and every replica numbers
slots alike, so an action finds the same card everywhere; an action that shows a card from a
hidden hand names the card too.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pcards.answers import Discard, Take, Target
from p2pcards.engine import Action
from p2pcards.zones import CHANCE_TYPES

__all__ = [
    "ACTION_TYPES", "CONCEDE", "DIRECT", "END", "Activate", "Attack", "Concede", "Discard",
    "End", "Play", "Switch", "Take", "Target",
]  # fmt: skip

DIRECT = -1
"""An attack's target when it is the opposing player."""


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play the card in hand slot `slot` (named `card`): a character in Attack Mode or, with
    `defense`, Defense Mode; a weapon onto its `host`; a building, an event or a Pylon."""

    kind = "play"
    slot: int
    card: str
    defense: bool = False
    host: int | None = None

    def __str__(self) -> str:
        mode = " in Defense Mode" if self.defense else ""
        onto = "" if self.host is None else f" onto slot {self.host}"
        return f"play {self.card}{mode}{onto}"


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """Attack with the character in slot `attacker`: the entity in slot `target`, or the
    opposing player (`DIRECT`)."""

    kind = "attack"
    attacker: int
    target: int

    def __str__(self) -> str:
        at = "the player" if self.target == DIRECT else f"slot {self.target}"
        return f"attack {at} with slot {self.attacker}"


@dataclass(frozen=True, slots=True)
class Switch(Action):
    """Switch the untapped character in `slot` between Attack and Defense Mode (line 29; once
    a turn: rules.md)."""

    kind = "switch"
    slot: int

    def __str__(self) -> str:
        return f"switch the mode of slot {self.slot}"


@dataclass(frozen=True, slots=True)
class End(Action):
    """Declare the turn over (line 30)."""

    kind = "end"

    def __str__(self) -> str:
        return "end the turn"


@dataclass(frozen=True, slots=True)
class Activate(Action):
    """Use activated ability number `ability` of the card in `slot`, paying its cost."""

    kind = "activate"
    slot: int
    ability: int

    def __str__(self) -> str:
        return f"activate slot {self.slot}"


@dataclass(frozen=True, slots=True)
class Concede(Action):
    """Concede the game: accepted at any of your decisions, never listed."""

    kind = "concede"

    def __str__(self) -> str:
        return "concede"


END = End()
CONCEDE = Concede()
ACTION_TYPES: tuple[type[Action], ...] = (
    Play, Attack, Switch, End, Discard, Activate, Target, Take, Concede, *CHANCE_TYPES,
)  # fmt: skip
