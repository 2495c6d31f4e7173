"""Time controls as cutechess-cli writes them, and each seat's chess clock.

`40/60+0.5`: 60 seconds for every 40 moves, and half a second more after each move; `60+0.5`:
one period for the whole game; `60`: no increment. A seat whose clock runs out loses on time
(status "time"), counted apart from a crash or a move over `--move-timeout`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ai.errors import AgentFailure

_FORMAT = re.compile(r"(?:(\d+)/)?(\d+(?:\.\d+)?)(?:\+(\d+(?:\.\d+)?))?")
MAX_SECONDS = 86_400.0  # a day a period: more is a typo, not a time control
MAX_MOVES = 10_000


class AgentLostOnTime(AgentFailure):
    """The agent's clock ran out: it used more than the time its time control gave it."""

    status = "time"


@dataclass(frozen=True)
class TimeControl:
    """Moves per period (None: the whole game), seconds a period, seconds added a move."""

    moves: int | None
    seconds: float
    increment: float = 0.0

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """`40/60+0.5`, `60+0.5` or `60`; ValueError, in one line, for anything else."""
        found = _FORMAT.fullmatch(text.strip())
        if found is None:
            raise ValueError(
                f"--tc is MOVES/SECONDS+INCREMENT as cutechess writes it (40/60+0.5, 60+0.5, "
                f"60), not {text!r}"
            )
        moves, seconds, increment = found.groups()
        tc = cls(None if moves is None else int(moves), float(seconds), float(increment or 0))
        if tc.moves is not None and not 1 <= tc.moves <= MAX_MOVES:
            raise ValueError(f"--tc: moves per period must be 1 to {MAX_MOVES}, not {tc.moves}")
        if not 0 < tc.seconds <= MAX_SECONDS or not tc.increment <= MAX_SECONDS:
            raise ValueError(f"--tc: seconds must be more than 0 and at most {MAX_SECONDS:g}")
        return tc

    def __str__(self) -> str:
        """The cutechess form: 40/60+0.5."""
        moves = "" if self.moves is None else f"{self.moves}/"
        return f"{moves}{self.seconds:g}" + (f"+{self.increment:g}" if self.increment else "")


class Clock:
    """One seat's clock under a time control: the time left, and the moves made."""

    def __init__(self, control: TimeControl) -> None:
        self.control = control
        self.left = control.seconds
        self.moves = 0

    def moves_to_go(self) -> int | None:
        """Moves until the next period's time is added (None: one period for the game)."""
        period = self.control.moves
        return None if period is None else period - self.moves % period

    def spend(self, seconds: float) -> None:
        """A move that took `seconds`: AgentLostOnTime if the clock ran out, else the time
        taken off, the increment added, and a new period's time at the end of one."""
        if not math.isfinite(seconds) or seconds > self.left:
            raise AgentLostOnTime(
                f"lost on time: move {self.moves + 1} took {seconds:.3f} s with "
                f"{self.left:.3f} s on its clock (--tc {self.control})"
            )
        self.left += self.control.increment - seconds
        self.moves += 1
        if self.control.moves is not None and self.moves % self.control.moves == 0:
            self.left += self.control.seconds

    def to_json(self) -> dict[str, int | None]:
        """What a bot is told of its clock with each question."""
        return {
            "time_ms": round(self.left * 1000),
            "increment_ms": round(self.control.increment * 1000),
            "moves_to_go": self.moves_to_go(),
        }
