"""What each seat is told of a game as it goes: the same actions, each in the form that seat
may know.

One definition serves the terminal's log, the bot protocol's events since the last question
and the game records `simulate` and `tournament` write: a chance outcome is shown whole only
to the seats entitled to its card (`chance_viewers()`), and a decision whole to the seat that
took it, in its public form (`Action.public()`, a push's card blanked) to every other seat.
"""

from __future__ import annotations

from typing import NamedTuple

from p2pcards.engine import CHANCE, Action, ChanceOutcome, State


class Event(NamedTuple):
    """One step of a game as one viewer knows it: who acted (CHANCE for the dealer), what,
    and for a dealt or taken card the seat it went to."""

    actor: int
    action: Action
    to: int | None = None

    def to_json(self) -> dict[str, object]:
        """The wire form: {"seat": actor or null for the dealer, "action": {...}}, plus
        "to" (the receiving seat) for a chance outcome."""
        if self.actor == CHANCE:
            return {"seat": None, "action": self.action.to_json(), "to": self.to}
        return {"seat": self.actor, "action": self.action.to_json()}


def witnessed(before: State, action: Action, viewer: int | None) -> Event:
    """`action`, about to be applied to `before`, as `viewer` may know it (None: a spectator,
    who sees only what every seat sees)."""
    actor = before.current_player()
    if actor == CHANCE:
        to = before.chance_move().to
        if isinstance(action, ChanceOutcome) and viewer not in before.chance_viewers():
            return Event(actor, action.hidden(), to)
        return Event(actor, action, to)
    return Event(actor, action if viewer == actor else action.public())


class Witness:
    """Collects the events one viewer has been told since it last asked: feed it every
    `(before, action)` of a game, `take()` the new ones when the viewer must act."""

    def __init__(self, viewer: int | None) -> None:
        self.viewer = viewer
        self._pending: list[Event] = []

    def saw(self, before: State, action: Action) -> None:
        """Note `action`, about to be applied to `before`."""
        self._pending.append(witnessed(before, action, self.viewer))

    def take(self) -> list[Event]:
        """The events since the last `take()`, oldest first."""
        events, self._pending = self._pending, []
        return events
