"""The log a person can follow: every step of a game told in plain sentences, as one seat may
know it (`p2pcards.history.witnessed` decides what that is), kept whole for the history key
and handed out in news since the person's last decision.

The same narrator tells local play, a seat at a LAN table and `replay`. A collectible game's
view tells the action; what it did, in the order it happened, is told from the viewer's
replica by cli/happenings.py, the same for every such game.
"""

from __future__ import annotations

from collections.abc import Iterable

from cli.happenings import happened, telling_of
from cli.views import Drew, GameView, Told
from cli.wording import Seats, count, listed, sentence
from p2pcards.engine import Action, State
from p2pcards.history import Event, witnessed

PAGE = 20  # history lines a page


def told_of(view: GameView, before: State, event: Event, after: State, seats: Seats) -> list[Told]:
    """A step told whole: the action, then (a collectible game's view) what it did in the
    order it happened and what follows (cli/happenings.py)."""
    told = view.narrate(before, event, after, seats)
    telling = telling_of(view)
    if telling is not None:
        # A view may tell what befell its fighters before the cards that moved because of it
        # (RPG Get!: the last enemy defeated, then the mission scored).
        opening = getattr(telling, "opening", None)
        if opening is not None:
            told += opening(before, after, seats)
        told += happened(telling, before, event, after, seats)
        told += telling.closing(before, after, seats)
    return told


class Narrator:
    """Tells one viewer a game: feed it every step (`saw`), read what is new (`news`) before
    each decision, and any page of the whole history (`page`)."""

    def __init__(self, view: GameView, seats: Seats) -> None:
        self.view = view
        self.seats = seats
        self.history: list[str] = []
        self._draws: list[Drew] = []
        self._shown = 0
        self.reading = 0  # the history page last shown since the last news (0: none)
        self.last: State | None = None  # the state after the last step seen

    def saw(self, before: State, action: Action, after: State) -> None:
        """A step: `action` took `before` to `after` (both as the viewer may know them)."""
        event = witnessed(before, action, self.seats.you)
        self.last = after
        self.tell(told_of(self.view, before, event, after, self.seats))

    def watch(self, before: State, action: Action) -> None:
        """A step seen before it applies (a table's replica): the state after it is worked out
        on a copy."""
        after = before.clone()
        after.apply_action(action)
        self.saw(before, action, after)

    def tell(self, told: Iterable[Told]) -> None:
        """Add sentences (and draws, summed up per run) to the history, each with a capital:
        the views word a line as a clause ('you draw', 'seat 1's Vex') so it can also be built
        into a longer one."""
        for item in told:
            if isinstance(item, Drew):
                self._draws.append(item)
            else:
                self._flush()
                self.history.append(sentence(item))

    def _flush(self) -> None:
        """A run of draws as one line per seat, in the order they drew: 'seat 1 draws 5
        cards', 'you draw Attack and Dodge'."""
        seats: dict[int, list[str | None]] = {}
        for draw in self._draws:
            seats.setdefault(draw.seat, []).append(draw.card)
        self._draws = []
        for seat, cards in seats.items():
            known = [c for c in cards if c is not None]
            drawn = listed(known) if len(known) == len(cards) else count(len(cards), "card")
            self.history.append(sentence(f"{self.seats.says(seat, 'draw')} {drawn}."))

    def news(self) -> list[str]:
        """The lines told since the last call (everything since the viewer's last decision)."""
        self._flush()
        lines = self.history[self._shown :]
        self._shown = len(self.history)
        self.reading = 0
        return lines

    def pages(self) -> int:
        """How many pages the history fills (at least 1)."""
        self._flush()
        return max(1, -(-len(self.history) // PAGE))

    def page(self, number: int) -> list[str]:
        """Page `number` (1-based) of the whole history, each line numbered."""
        self._flush()
        start = (number - 1) * PAGE
        lines = self.history[start : start + PAGE]
        return [f"{i:4}  {line}" for i, line in enumerate(lines, start + 1)]
