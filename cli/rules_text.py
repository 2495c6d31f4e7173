"""A rules page laid out for the width it is read at.

rich shares a terminal's width among a Markdown table's columns: the nine columns of a card
list at 80 or 100 columns left card names cut ("Manapu…") and card text one word a line.
A table wider than the page is written instead as a list, one item a row, each cell named
by its column's header, which wraps as prose does and loses nothing.
"""

from __future__ import annotations

from rich.cells import cell_len

# A table's frame: a bar and a space either side of every cell, one bar more at the end.
_FRAME_PER_COLUMN = 3


def _cells(line: str) -> list[str]:
    """The cells of a Markdown table row, trimmed."""
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _width(rows: list[list[str]]) -> int:
    """How wide the table is with no cell wrapped."""
    columns = max(len(row) for row in rows)
    widest = [max((cell_len(row[i]) for row in rows if i < len(row)), default=0)
              for i in range(columns)]  # fmt: skip
    return sum(widest) + _FRAME_PER_COLUMN * columns + 1


def _as_list(header: list[str], rows: list[list[str]]) -> list[str]:
    """The rows as list items: the first cell in bold, then each other cell with its header."""
    items = []
    for row in rows:
        first, *rest = row
        named = [f"{name}: {cell}" for name, cell in zip(header[1:], rest, strict=False) if cell]
        items.append(f"- **{first}** — " + " · ".join(named) if named else f"- **{first}**")
    return items


def fitted(markdown: str, width: int) -> str:
    """The Markdown with every table too wide for `width` columns written as a list."""
    lines = markdown.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        if not lines[i].lstrip().startswith("|"):
            out.append(lines[i])
            i += 1
            continue
        start = i
        while i < len(lines) and lines[i].lstrip().startswith("|"):
            i += 1
        block = lines[start:i]
        if len(block) < 2 or set(block[1].replace("|", "").strip()) - set("-: "):
            out.extend(block)  # not a table (no --- line under a header)
            continue
        header, rows = _cells(block[0]), [_cells(line) for line in block[2:]]
        if _width([header, *rows]) <= width:
            out.extend(block)
        else:
            out.extend(_as_list(header, rows))
    return "\n".join(out) + ("\n" if markdown.endswith("\n") else "")
