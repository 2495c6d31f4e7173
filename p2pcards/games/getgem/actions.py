"""The actions of GETGEM: every decision a seat makes and every chance outcome.

An action that uses cards of the hand names their slots (public: where a card is, not
what, and numbered alike on every replica) beside the cards, as the zones games' do
(p2pcards/zones.py): the dealer reveals those slots to whoever the action shows them to and
checks they hold the cards named. Several cards of one action are two comma-joined fields
in the same order (`cards="fire,fire,water"`, `slots="12,3,7"`), so a cost read from
cards.toml can change without changing the wire form.
"""

from __future__ import annotations

from dataclasses import dataclass

from p2pcards.engine import Action, ChanceOutcome
from p2pcards.zones import Deal  # the one draw outcome of every game


@dataclass(frozen=True, slots=True)
class Pick(Action):
    """Draft a character card (expansion)."""

    kind = "pick"
    character: str

    def __str__(self) -> str:
        return f"pick {self.character}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline: end the action phase without declaring, accept an effect that chose you
    (no Barrier), or keep the cards one cannot discard."""

    kind = "pass"

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play the action card in hand slot `slot` for one of its effects: at a seat, or
    picking a discarded card."""

    kind = "play"
    slot: int
    card: str
    effect: str
    seat: int | None = None
    pick: str | None = None  # Excavation Arm: the discard-pile card taken

    def __str__(self) -> str:
        text = self.card if self.effect == self.card else f"{self.card} as {self.effect}"
        if self.seat is not None:
            text += f" → seat {self.seat}"
        if self.pick is not None:
            text += f", taking {self.pick}"
        return text


@dataclass(frozen=True, slots=True)
class GemTake(Action):
    """Discard gem cards (line 41: three) to take a random card from a chosen seat."""

    kind = "gem-take"
    cards: str
    slots: str
    seat: int

    def __str__(self) -> str:
        return f"discard {self.cards} to take a random card from seat {self.seat}"


@dataclass(frozen=True, slots=True)
class Element(Action):
    """Discard gem cards (line 42-44: two of that gem) to take a gem element card."""

    kind = "element"
    element: str
    cards: str
    slots: str

    def __str__(self) -> str:
        return f"discard {self.cards} for the {self.element} element"


@dataclass(frozen=True, slots=True)
class Declare(Action):
    """End the action phase and, in the end phase, lay three cards face up: victory declared."""

    kind = "declare"
    cards: str
    slots: str

    def __str__(self) -> str:
        return f"declare victory with {self.cards}"


@dataclass(frozen=True, slots=True)
class Barrier(Action):
    """Answer an effect that chose you with the Barrier card in hand slot `slot`: it is
    cancelled."""

    kind = "barrier"
    slot: int
    card: str

    def __str__(self) -> str:
        return f"barrier ({self.card})"


@dataclass(frozen=True, slots=True)
class Guard(Action):
    """The Guardian's ability: cancel an effect that chose you, without a card."""

    kind = "guard"

    def __str__(self) -> str:
        return "guard"


@dataclass(frozen=True, slots=True)
class Push(Action):
    """Steal & Push: give the card in hand slot `slot` (not the one just taken) to the victim.

    Only the victim may learn the card, so the public form blanks it.
    """

    kind = "push"
    slot: int
    card: str | None

    def public(self) -> Push:
        return Push(self.slot, None)

    def __str__(self) -> str:
        return f"push {self.card or 'a card'}"


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """Discard the card in hand slot `slot`, face up (Excavation Arm's second half, the hand
    limit)."""

    kind = "discard"
    slot: int
    card: str

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class TakeBack(Action):
    """A declaring player takes one of its laid cards back into its hand (line 53)."""

    kind = "take-back"
    card: str

    def __str__(self) -> str:
        return f"take back {self.card}"


@dataclass(frozen=True, slots=True)
class Pickpocket(Action):
    """The Pickpocket's ability: discard gem cards to take a random card from a chosen seat."""

    kind = "pickpocket"
    cards: str
    slots: str
    seat: int

    def __str__(self) -> str:
        return f"pickpocket: discard {self.cards}, take from seat {self.seat}"


@dataclass(frozen=True, slots=True)
class Trade(Action):
    """The Merchant's ability: discard the card in hand slot `slot`, then draw one."""

    kind = "trade"
    slot: int
    card: str

    def __str__(self) -> str:
        return f"trade {self.card} for a draw"


@dataclass(frozen=True, slots=True)
class Take(ChanceOutcome):
    """Chance: a random take pulls the card at `position` of the victim's hand (public);
    `card` is None for a seat that may not learn it."""

    kind = "take"
    position: int
    card: str | None

    def hidden(self) -> Take:
        return Take(self.position, None)

    def __str__(self) -> str:
        return f"take card {self.position + 1}: {self.card or 'hidden'}"


PASS = Pass()
GUARD = Guard()
ACTION_TYPES: tuple[type[Action], ...] = (
    Pick, Pass, Play, GemTake, Element, Declare, Barrier, Guard, Push, Discard, TakeBack,
    Pickpocket, Trade, Deal, Take,
)  # fmt: skip
