"""Response windows (DESIGN.md §10): after a public event, the seats answer in turn.

A window opens by a public rule of the game (a card played, an attack declared, a step of
the turn): it has a `reason` (the game's code for that rule), a `subject` (what it is about,
public: a slot, a seat) and an `order`, the seats it asks, first asked first. The seat asked
acts or passes. A pass moves the window to the next seat; an act makes every seat's pass count
again (the window asks on from the seat after the actor, so the actor too is asked last),
and may open a nested window, a response to the response, which resolves first: windows
form a stack, the innermost last. A window closes once every seat of its order still in the
game has passed in a row; the game then does what the window was about, and the window under
it (if any) goes on. A game may also close the innermost window at once (`close`): what it
was about is gone (cancelled, left play).

Who is asked next follows from public information only, as every replica must agree on it
(DESIGN.md §3). `settle` is given the seats still in the game and the game's public
judgement of whether a seat *could* act as far as the others know (it holds cards, say):
a seat out of the game is skipped, a seat that could not act is taken to pass at no cost,
and every other seat is asked, even one whose only legal answer is to pass, so that the
table's rhythm tells nothing of its hand. At a table each pass is one signed message.

Everything here is an immutable value made of ints and tuples: a state keeps its `Windows`
in one attribute, and clone shares it, digests take `public()`, search keys take `key()`,
and `from_public` reads the public form back (checked, as any value from outside is).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from p2pcards.errors import IllegalActionError, P2PCardsError
from p2pcards.seats import everyone, mask_of

MAX_DEPTH = 64
"""Windows open at once, at most: each is a card answered by the one over it, so a game
never comes near this; a form read from outside with more is refused."""


class WindowFormatError(P2PCardsError, ValueError):
    """The public form of a stack of windows is malformed (wrong shape, seats out of range)."""


@dataclass(frozen=True, slots=True)
class Window:
    """One open window: why it opened, what about, whom it asks, and how far it got."""

    reason: int
    """The game's code for the public rule that opened it."""
    subject: int
    """What the window is about, public (the game's: a slot, a seat; -1 for nothing)."""
    order: tuple[int, ...]
    """The seats it asks, in order (distinct)."""
    at: int = 0
    """The position in `order` of the seat asked next."""
    passed: int = 0
    """The mask of seats that passed since the window opened or someone last acted in it."""

    @property
    def asked(self) -> int:
        """The seat the window asks now."""
        return self.order[self.at]

    def _on(self, passed: int, after: int) -> Window:
        """The window asking the seat after position `after`, with `passed` as its passes."""
        # Built directly: `dataclasses.replace` costs a third of a settle of RPG Get!'s windows.
        return Window(self.reason, self.subject, self.order, (after + 1) % len(self.order), passed)


@dataclass(frozen=True, slots=True)
class Windows:
    """The open windows, innermost (the one asking) last."""

    stack: tuple[Window, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.stack)

    def __len__(self) -> int:
        return len(self.stack)

    @property
    def top(self) -> Window:
        """The innermost window, the one asking; IllegalActionError if none is open."""
        if not self.stack:
            raise IllegalActionError("no response window is open")
        return self.stack[-1]

    @property
    def asked(self) -> int:
        """The seat the innermost window asks (once `settle` has found it one)."""
        return self.top.asked

    def open(self, reason: int, subject: int, order: Sequence[int]) -> Windows:
        """A new innermost window asking the seats of `order`, first first."""
        seats = tuple(order)
        if not seats or len(set(seats)) != len(seats):
            raise IllegalActionError(f"a window asks distinct seats, not {seats}")
        if len(self.stack) >= MAX_DEPTH:
            raise IllegalActionError(f"more than {MAX_DEPTH} windows open at once")
        return Windows((*self.stack, Window(int(reason), subject, seats)))

    def settle(self, live: int, may_act: Callable[[int], bool]) -> tuple[Windows, Window | None]:
        """Find the seat the innermost window asks: skip seats not in `live` (the mask of
        seats still in the game), and take a seat for which `may_act` is false (public: it
        could not act, as far as anyone knows) to have passed. If every seat of the order
        still in the game has passed, the window closes: it comes back second (the windows
        without it first); call again to go on with the one under it."""
        window = self.top
        for _ in range(len(window.order) + 1):
            if not mask_of(window.order) & live & ~window.passed:
                return Windows(self.stack[:-1]), window
            seat, bit = window.asked, 1 << window.asked
            if live & bit and not window.passed & bit:
                if may_act(seat):
                    break
                window = window._on(window.passed | bit, window.at)
            else:
                window = window._on(window.passed, window.at)
        return Windows((*self.stack[:-1], window)), None

    def passed(self, seat: int) -> Windows:
        """The asked seat passed: the window asks the next one."""
        window = self._asking(seat)
        return Windows((*self.stack[:-1], window._on(window.passed | 1 << seat, window.at)))

    def acted(self, seat: int) -> Windows:
        """The asked seat acted: every seat's pass counts again, from the seat after it (the
        game then opens a nested window for the act, if it can be answered)."""
        window = self._asking(seat)
        return Windows((*self.stack[:-1], window._on(0, window.at)))

    def close(self) -> tuple[Windows, Window]:
        """Close the innermost window at once (what it was about is gone): the windows
        without it, and it."""
        return Windows(self.stack[:-1]), self.top

    def _asking(self, seat: int) -> Window:
        window = self.top
        if window.asked != seat:
            raise IllegalActionError(f"the window asks seat {window.asked}, not seat {seat}")
        return window

    # ------------------------------------------------------------ forms

    def public(self) -> list[list[int | list[int]]]:
        """The canonical form, for digests and `to_json`: [reason, subject, order, at, passed]
        per window, outermost first."""
        return [[w.reason, w.subject, list(w.order), w.at, w.passed] for w in self.stack]

    def key(self) -> tuple[tuple[int, ...], ...]:
        """Ints and tuples only, for search keys."""
        return tuple((w.reason, w.subject, w.at, w.passed, *w.order) for w in self.stack)

    @classmethod
    def from_public(cls, data: object, num_players: int) -> Windows:
        """Read `public()` back, checking every field; WindowFormatError says what is wrong."""
        if not isinstance(data, list) or len(data) > MAX_DEPTH:
            raise WindowFormatError(f"windows are a list of at most {MAX_DEPTH} windows")
        return cls(tuple(_window(item, num_players) for item in data))


def _window(item: object, num_players: int) -> Window:
    if not isinstance(item, list) or len(item) != 5:
        raise WindowFormatError("a window is [reason, subject, order, at, passed]")
    reason, subject, order, at, passed = item
    if not all(_is_int(v) for v in (reason, subject, at, passed)):
        raise WindowFormatError("a window's reason, subject, position and passes are numbers")
    if not isinstance(order, list) or not order or not all(_is_int(s) for s in order):
        raise WindowFormatError("a window's order is a list of seats")
    if len(set(order)) != len(order) or not all(0 <= s < num_players for s in order):
        raise WindowFormatError(f"a window's order names distinct seats of {num_players}")
    if not 0 <= at < len(order) or not 0 <= passed <= everyone(num_players):
        raise WindowFormatError("a window's position or passes are out of range")
    return Window(reason, subject, tuple(order), at, passed)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
