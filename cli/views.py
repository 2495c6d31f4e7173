"""Which terminal view draws which game, and what every view provides."""

import io
from collections import Counter
from collections.abc import Callable, Sequence
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


class HandLine(NamedTuple):
    """A card of the hand as a line of the turn's first menu, there whether or not it can be
    played now, so that no other card's number moves when it becomes playable or not."""

    label: str  # the first label of its plays (`choice_path`), copies once
    why: str  # why it may not be played now, in a few words ('' when not said cheaply)


class GameView(Protocol):
    """What the terminal needs from a game's view module. A view may also give, as module
    functions: `picks(state)` (above); `choice_path(state, action)`, an action's labels level
    by level in the menus; `choice_order(state, action)`, a sort key keeping menus in a
    stable order; `follows_up(before, after)`, whether the decision after an action is asked
    with it; `hand_lines(state)`, the hand (`HandLine`s in the hand's order) where the
    decision is the turn's own, None elsewhere (cli/menus.py)."""

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
    order: Sequence[int],
    lead: Callable[[int], str],
    card_line: Callable[[str], str],
    hand_key: Callable[[str], tuple[int | str, ...]],
    tail: Callable[[int], str] = lambda seat: "",
) -> list[RenderableType]:
    """Below a board of own decks: each seat's line (`lead`: its resources; its hand, deck
    and discard pile sizes; `tail`: what else), then the viewer's hand, a card a line, copies
    together, in the order of `hand_key` (the menus' order too)."""
    parts: list[RenderableType] = []
    for seat in order:
        piles = (
            f", hand {state.hand_size(seat)}, deck {len(state.zone_slots(f'deck:{seat}'))}"
            f", discard {len(state.zone_slots(f'discard:{seat}'))}"
        )
        line = f"{sentence(seats.on_board(seat))}: {lead(seat)}{piles}{tail(seat)}"
        parts.append(Text(line))
    if seats.you is not None:
        hand = sorted_hand(state, seats.you, hand_key)
        parts.append(Text("your hand:", style="bold"))
        for card, copies in hand:
            parts.append(Text(f"  {copies} × " if copies > 1 else "  ") + Text(card_line(card)))
        if not hand:
            parts.append(Text("  (empty)"))
    return parts


def sorted_hand(
    state: ZoneState, seat: int, key: Callable[[str], tuple[int | str, ...]]
) -> list[tuple[str, int]]:
    """A hand in a stable order (not the order drawn, which moves every card after one
    played), each card once with its copies."""
    copies = Counter(c for c in state.hand(seat) if c is not None)
    return [(card, copies[card]) for card in sorted(copies, key=key)]


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
