"""Which terminal view draws which game, and what every view provides."""

import io
from collections.abc import Callable
from typing import NamedTuple, Protocol, cast

from rich.console import Console, RenderableType
from rich.text import Text

from cli.wording import Seats, sentence
from p2pcards import games
from p2pcards.engine import Action, State
from p2pcards.history import Event
from p2pcards.zones import ZoneState


class Drew:
    """A card drawn, as the viewer knows it (`card` None: hidden): the log sums a run of
    draws up in one line per seat."""

    __slots__ = ("card", "seat")

    def __init__(self, seat: int, card: str | None) -> None:
        self.seat = seat
        self.card = card


Told = str | Drew  # one item of what a viewer is told: a sentence, or a card drawn

RESHUFFLED = "The deck ran out: the discard pile is shuffled into a new deck."


def reshuffled(before: State, after: State) -> bool:
    """Whether cards were gathered into a new deck during the step."""
    return after.reshuffles() > before.reshuffles()


class Picks(NamedTuple):
    """A decision that is a choice of some items of a list (the cards a mulligan puts back),
    asked as one line of their numbers rather than a menu of every subset. A view offers
    it with a function `picks(state) -> Picks | None` (a view without one asks menus)."""

    items: list[str]  # what each number (from 1) names
    question: str  # how to answer, 0 for none included
    action: Callable[[frozenset[int]], Action]  # the legal action for the items picked


class GameView(Protocol):
    """What the terminal needs from a game's view module."""

    HELP: str  # the game's own help at the prompt (`?`)

    def board(self, state: State, seats: Seats) -> RenderableType: ...
    def prompt(self, state: State, seats: Seats) -> str: ...
    def describe_choice(self, state: State, action: Action) -> str: ...
    def narrate(self, before: State, event: Event, after: State, seats: Seats) -> list[Told]: ...
    def result(self, state: State, seats: Seats) -> str: ...
    def is_reaction(self, state: State) -> bool: ...


def piles_and_hand(
    state: ZoneState,
    seats: Seats,
    order: tuple[int, int],
    lead: Callable[[int], str],
    card_line: Callable[[str], str],
    tail: Callable[[int], str] = lambda seat: "",
) -> list[RenderableType]:
    """Below a board of own decks: each seat's line (`lead`: its resources; its hand, deck
    and discard pile sizes; `tail`: what else), then the viewer's hand, a card a line."""
    parts: list[RenderableType] = []
    for seat in order:
        piles = (
            f", hand {state.hand_size(seat)}, deck {len(state.zone_slots(f'deck:{seat}'))}"
            f", discard {len(state.zone_slots(f'discard:{seat}'))}"
        )
        line = f"{sentence(seats.on_board(seat))}: {lead(seat)}{piles}{tail(seat)}"
        parts.append(Text(line))
    if seats.you is not None:
        hand = [c for c in state.hand(seats.you) if c is not None]
        parts.append(Text("your hand:", style="bold"))
        parts.extend(Text(f"  {card_line(c)}") for c in hand)
        if not hand:
            parts.append(Text("  (empty)"))
    return parts


def view_for(game_name: str) -> GameView:
    """The view of a game, where its registration says (`GameInfo.view`), imported on first
    use (each view loads its game's cards)."""
    return cast(GameView, games.resolve(games.info(game_name).view))


def board_text(state: State, seat: int | None = None) -> str:
    """The board of any game as plain text, as `seat` (None: a spectator) sees it: what the
    PettingZoo adapter renders in its "ansi" mode."""
    text = io.StringIO()
    console = Console(file=text, width=100, color_system=None, highlight=False)
    console.print(view_for(state.game.name).board(state, Seats(you=seat)))
    return text.getvalue()
