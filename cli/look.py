"""The `i` key: read any card the viewer can see, in full, without leaving the game.

A view lists what its viewer may see (`cards_seen(state, seats)`: the hand, the board, the
public piles, read off the viewer's own observation, so a card it may not know is never
there); `i` lists them numbered, `i N` shows one, `i NAME` the ones of that name. The same
key serves `play`, a seat at a LAN table and `replay --look`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from cli.views import GameView
    from cli.wording import Seats
    from p2pcards.engine import State

USAGE = "i: the cards you can see; i N: card N of that list; i NAME: a card by its name."


class Seen(NamedTuple):
    """A card the viewer can see: its name, where it is, and all there is to read about it
    (printed text and stats, then what is on it now: damage, statuses, attachments)."""

    name: str
    where: str
    details: list[str]


def cards_seen(view: GameView, state: State, seats: Seats) -> list[Seen]:
    """What the view lets the viewer look at (nothing for a view without `cards_seen`)."""
    seen: Callable[[State, Seats], list[Seen]] | None = getattr(view, "cards_seen", None)
    return [] if seen is None else seen(state, seats)


def look(view: GameView, state: State, seats: Seats, asked: str) -> str:
    """What `i …` shows: `asked` is what follows the i ('' for the list)."""
    cards = cards_seen(view, state, seats)
    if not cards:
        return "There is no card you can see yet."
    asked = asked.strip()
    if not asked:
        width = len(str(len(cards)))
        lines = [f"{i:>{width}}  {card.name} — {card.where}" for i, card in enumerate(cards, 1)]
        return "\n".join(["The cards you can see (i N: read one):", *lines])
    if asked.isdecimal() and len(asked) <= 6:
        number = int(asked)
        if 1 <= number <= len(cards):
            return _shown(cards[number - 1])
        return f"There are {len(cards)} cards you can see: type i 1 to i {len(cards)}."
    wanted = asked.casefold()
    named = [c for c in cards if c.name.casefold() == wanted] or [
        c for c in cards if wanted in c.name.casefold()
    ]
    if not named:
        return f"No card you can see is called {asked!r}. {USAGE}"
    return "\n\n".join(_shown(card) for card in _distinct(named))


def _distinct(cards: list[Seen]) -> list[Seen]:
    """Cards named alike shown once each where they read the same (copies in a pile)."""
    out: list[Seen] = []
    for card in cards:
        if not any(c.name == card.name and c.details == card.details for c in out):
            out.append(card)
    return out


def _shown(card: Seen) -> str:
    return "\n".join([f"{card.name} — {card.where}", *(f"  {line}" for line in card.details)])
