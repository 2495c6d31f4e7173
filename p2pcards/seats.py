"""Seats are a number, never a pair (DESIGN.md §10): masks and turn order from `num_players`.

A set of seats is a bit mask (bit s for seat s), as a card's knowledge mask is: "every
seat", "the seats still in the game", "the seats that passed". Turn order goes up the seat
numbers and wraps round (seat s+1 sits to the left of seat s), skipping seats out of the game.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable


def everyone(num_players: int) -> int:
    """The mask of every seat at a table of `num_players`."""
    return (1 << num_players) - 1


def mask_of(seats: Iterable[int]) -> int:
    """The mask of the given seats."""
    mask = 0
    for seat in seats:
        mask |= 1 << seat
    return mask


def seats_in(mask: int, num_players: int) -> tuple[int, ...]:
    """The seats of a mask, lowest first."""
    return tuple(s for s in range(num_players) if mask >> s & 1)


@functools.cache  # read at every node of a search (triggers' order, statics); few answers
def seats_from(start: int, num_players: int) -> tuple[int, ...]:
    """Every seat in turn order, `start` first (then the seat to its left, and so on)."""
    return tuple((start + i) % num_players for i in range(num_players))


def left_of(seat: int, live: int, num_players: int) -> int:
    """The first seat to the left of `seat` still in `live` (-1 if no other seat is)."""
    for other in seats_from(seat + 1, num_players)[:-1]:
        if live >> other & 1:
            return other
    return -1
