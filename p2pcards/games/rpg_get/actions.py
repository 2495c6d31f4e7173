"""RPG Get!'s decisions, one frozen dataclass per kind. An action that shows a card names its
slot and the card; a list of slots (targets, missions paid) is a string of slot numbers
joined by commas, lowest first, since a wire form holds scalars only (`slot_list`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from p2pcards.answers import Decline, Take, Target
from p2pcards.engine import Action
from p2pcards.errors import IllegalActionError
from p2pcards.zones import CHANCE_TYPES

MAX_LIST = 8
"""Slots one list may name: more targets or missions than any card or score pile needs."""


def slot_list(slots: Iterable[int]) -> str:
    """The wire form of a set of slots: distinct, lowest first."""
    return ",".join(str(s) for s in sorted(set(slots)))


def parse_slots(text: str) -> tuple[int, ...]:
    """Read `slot_list`'s form back; IllegalActionError unless it is exactly that form."""
    if not text:
        return ()
    parts = text.split(",")
    if len(parts) > MAX_LIST or not all(p.isdigit() and len(p) <= 6 for p in parts):
        raise IllegalActionError(f"{text[:40]!r} is not a list of at most {MAX_LIST} slots")
    slots = tuple(int(p) for p in parts)
    if slot_list(slots) != text:
        raise IllegalActionError(f"{text[:40]!r} must name distinct slots, lowest first")
    return slots


@dataclass(frozen=True, slots=True)
class Start(Action):
    """Keep the opening hand and play this Character from it as the starting party."""

    kind = "start"
    slot: int
    card: str

    def __str__(self) -> str:
        return f"keep the hand and start with {self.card}"


@dataclass(frozen=True, slots=True)
class Mulligan(Action):
    """Shuffle the opening hand back into the deck and draw 9 anew."""

    kind = "mulligan"

    def __str__(self) -> str:
        return "redraw the opening hand"


@dataclass(frozen=True, slots=True)
class Redraw(Action):
    """Redraw phase: discard this card and draw one."""

    kind = "redraw"
    slot: int
    card: str

    def __str__(self) -> str:
        return f"redraw {self.card}"


@dataclass(frozen=True, slots=True)
class Recruit(Action):
    """Play phase: play this Character into the party (a duplicate name replaces)."""

    kind = "character"
    slot: int
    card: str

    def __str__(self) -> str:
        return f"play {self.card} into the party"


@dataclass(frozen=True, slots=True)
class Bank(Action):
    """Play phase: put this Reward into the bank face down, for free; with a full bank,
    first discard the bank card in slot `drop` (-1: the bank has room). The public form
    hides the banked card."""

    kind = "bank"
    slot: int
    card: str | None
    drop: int
    drop_card: str | None

    def public(self) -> Bank:
        return Bank(self.slot, None, self.drop, self.drop_card)

    def __str__(self) -> str:
        dropped = f" (discarding {self.drop_card} from it)" if self.drop >= 0 else ""
        return f"bank {self.card or 'a card'}{dropped}"


@dataclass(frozen=True, slots=True)
class Equip(Action):
    """Play phase: put this Reward into the inventory from the hand or the bank, paying its
    RP cost in reward counters."""

    kind = "equip"
    slot: int
    card: str

    def __str__(self) -> str:
        return f"equip {self.card}"


@dataclass(frozen=True, slots=True)
class Attempt(Action):
    """Mission phase: attempt this Mission."""

    kind = "attempt"
    slot: int
    card: str

    def __str__(self) -> str:
        return f"attempt {self.card}"


@dataclass(frozen=True, slots=True)
class Enlist(Action):
    """Party step: this party character joins the active party."""

    kind = "enlist"
    slot: int

    def __str__(self) -> str:
        return f"send the character in slot {self.slot} on the mission"


@dataclass(frozen=True, slots=True)
class Oppose(Action):
    """Enemy step: play this Enemy or Roadblock against the attempt; a Roadblock's attack
    hits the active members in `targets`."""

    kind = "oppose"
    slot: int
    card: str
    targets: str

    def __str__(self) -> str:
        aim = f" at slots {self.targets}" if self.targets else ""
        return f"oppose with {self.card}{aim}"


@dataclass(frozen=True, slots=True)
class Act(Action):
    """Use combat action `index` of the card in slot `source` (a character or enemy of the
    attempt, or a Reward in the inventory used by the active member in slot `user`), on the
    targets named."""

    kind = "act"
    source: int
    user: int
    index: int
    targets: str

    def __str__(self) -> str:
        by = "" if self.user == self.source else f" used by slot {self.user}"
        aim = f" on slots {self.targets}" if self.targets else ""
        return f"use action {self.index + 1} of slot {self.source}{by}{aim}"


@dataclass(frozen=True, slots=True)
class Defend(Action):
    """Answer the attack in the window: the targeted card in slot `target` uses defense
    action `index` of slot `source` (itself, or a Reward in the inventory)."""

    kind = "defend"
    target: int
    source: int
    index: int

    def __str__(self) -> str:
        return f"defend slot {self.target} with action {self.index + 1} of slot {self.source}"


@dataclass(frozen=True, slots=True)
class Activate(Action):
    """Use Ability number `ability` (line 93) of the card in slot `slot` (a character, an
    enemy, or an inventory Reward used by the character in slot `user`)."""

    kind = "activate"
    slot: int
    ability: int
    user: int

    def __str__(self) -> str:
        by = "" if self.user == self.slot else f" used by slot {self.user}"
        return f"use ability {self.ability + 1} of slot {self.slot}{by}"


@dataclass(frozen=True, slots=True)
class PlayEvent(Action):
    """Play this Event card from the hand (line 77-78)."""

    kind = "event"
    slot: int
    card: str

    def __str__(self) -> str:
        return f"play the event {self.card}"


@dataclass(frozen=True, slots=True)
class Flip(Action):
    """Turn this bank card face up (line 167): its identity is shown to the table."""

    kind = "flip"
    slot: int
    card: str

    def __str__(self) -> str:
        return f"turn {self.card} face up in the bank"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Reconcile phase: discard this card (down to 9)."""

    kind = "discard"
    slot: int
    card: str

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class MakeRoom(Action):
    """A used Reward came back to a full bank (line 130): discard this bank card to make
    room for it."""

    kind = "make-room"
    slot: int
    card: str

    def __str__(self) -> str:
        return f"discard {self.card} from the bank to make room"


@dataclass(frozen=True, slots=True)
class Reshuffle(Action):
    """Decking: put these scored missions (2 VP or more) out of play and shuffle the discard
    pile into a new deck."""

    kind = "reshuffle"
    missions: str

    def __str__(self) -> str:
        return f"pay the missions in slots {self.missions} to reshuffle"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Do nothing more in this phase, step or window (at decking: lose)."""

    kind = "pass"

    def __str__(self) -> str:
        return "pass"


PASS = Pass()
MULLIGAN = Mulligan()
ACTION_TYPES: tuple[type[Action], ...] = (
    Start, Mulligan, Redraw, Recruit, Bank, Equip, Attempt, Enlist, Oppose, Act, Defend,
    Discard, Reshuffle, Pass, Activate, PlayEvent, Flip, MakeRoom, Target, Decline, Take,
    *CHANCE_TYPES,
)  # fmt: skip
