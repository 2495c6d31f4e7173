"""Consoles and tables that never lose a character.

rich cuts a table cell that does not fit with "…", and writes to a file or a pipe as if to
an 80-column terminal: a tournament piped to a file lost its intervals ("70.9%–9…"). Here a
console writing to a file or a pipe has no width limit, so a table's rows come out whole,
and every table cell folds (wraps, breaking a long word if it must) instead of being cut,
so a narrow terminal shows every character too.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from rich.console import Console

if TYPE_CHECKING:
    from rich.progress import Progress
    from rich.table import Table

# Wide enough for any row we print; rich pads nothing to it (tables take their own width).
UNLIMITED = 100_000


def console(*, stderr: bool = False, markup: bool = True) -> Console:
    """A console for stdout (or stderr): the terminal's width at a terminal, no limit when
    written to a file or a pipe."""
    stream = sys.stderr if stderr else sys.stdout
    piped = not stream.isatty()
    return Console(
        stderr=stderr, highlight=False, markup=markup, width=UNLIMITED if piped else None
    )


def readable_width(out: Console) -> int:
    """The width to lay out prose in: the terminal's, or 80 columns in a file or pipe."""
    return 80 if out.width >= UNLIMITED else out.width


def whole(table: Table) -> Table:
    """The table with every column folding its cells instead of cutting them with "…"."""
    for column in table.columns:
        column.overflow = "fold"
        column.no_wrap = False
    return table


def progress(to: Console) -> Progress:
    """A progress line for games: what the description says (every agent's score), a bar,
    games done of all, time taken and left. At a terminal it redraws itself; to a file or a
    pipe it is written once, when it stops."""
    from rich.progress import (
        BarColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.table import Column

    # The scores fold onto more lines before the bar and the times are cut.
    scores = Column(overflow="fold", ratio=1)
    return Progress(
        TextColumn("{task.description}", markup=False, table_column=scores), BarColumn(20),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
        console=to, transient=False,
    )  # fmt: skip
