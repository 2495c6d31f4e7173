"""Words every game's view uses for seats: 'you' for the person's own seat, names where the
table knows them, and verbs that agree with their subject."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

_IRREGULAR = {"be": "is", "have": "has", "do": "does", "go": "goes"}


def third_person(verb: str) -> str:
    """'draws', 'pushes', 'carries', 'has': the verb (its first word) after he, she or it."""
    word, space, rest = verb.partition(" ")
    if word in _IRREGULAR:
        word = _IRREGULAR[word]
    elif word.endswith(("s", "sh", "ch", "x", "z")):
        word += "es"
    elif word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u"):
        word = word[:-1] + "ies"
    else:
        word += "s"
    return word + space + rest


@dataclass(frozen=True)
class Seats:
    """How one viewer's screen names the seats: `you` is the viewer's own seat (None for a
    spectator); `names[seat]` a player's or an agent's name ("" where none). With `by_name`,
    sentences call a seat by its name (LAN players); otherwise only the board shows names."""

    you: int | None
    names: Sequence[str] = ()
    by_name: bool = False

    def name(self, seat: int) -> str:
        """The seat's name, or ''."""
        return self.names[seat] if 0 <= seat < len(self.names) else ""

    def label(self, seat: int) -> str:
        """'you', 'Ann (seat 2)' or 'seat 2'."""
        if seat == self.you:
            return "you"
        name = self.name(seat)
        if not (self.by_name and name):
            return f"seat {seat}"
        if name.endswith(")"):  # 'AI 1 (greedy)' -> 'AI 1 (greedy, seat 2)'
            return f"{name[:-1]}, seat {seat})"
        return f"{name} (seat {seat})"

    def on_board(self, seat: int) -> str:
        """The seat's row on a board: 'you', 'seat 2 (expectimax)', 'Ann (seat 2)'."""
        name = self.name(seat)
        if seat == self.you or self.by_name or not name:
            return self.label(seat)
        return f"seat {seat} ({name})"

    def whose(self, seat: int) -> str:
        """'your', "Ann's" or "seat 2's"."""
        if seat == self.you:
            return "your"
        name = self.name(seat)
        return f"{name}'s" if self.by_name and name else f"seat {seat}'s"

    def its(self, seat: int) -> str:
        """'your' or 'its': the seat's own, after the seat was named."""
        return "your" if seat == self.you else "its"

    def turn(self, seat: int, when: str) -> str:
        """'— your turn (round 2) —': the line that opens a turn in the log."""
        return f"— {self.whose(seat)} turn ({when}) —"

    def verb(self, seat: int, verb: str) -> str:
        """The verb agreeing with the seat as subject: 'draw' for you, 'draws' otherwise."""
        if seat == self.you:
            return "are" + verb[2:] if verb.partition(" ")[0] == "be" else verb
        return third_person(verb)

    def says(self, seat: int, verb: str) -> str:
        """'you draft' or 'seat 1 drafts': subject and verb agreeing."""
        return f"{self.label(seat)} {self.verb(seat, verb)}"


def sentence(text: str) -> str:
    """The text with its first letter a capital (the rest untouched, unlike str.capitalize)."""
    return text[:1].upper() + text[1:]


def count(n: int, noun: str) -> str:
    """'1 card', '4 cards'."""
    return f"{n} {noun}" + ("" if n == 1 else "s")


def listed(items: Sequence[str]) -> str:
    """'A', 'A and B', 'A, B and C'."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"
