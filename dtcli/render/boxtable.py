"""Plain tables and lines written as rich prints them on a pipe, without importing rich.

Importing rich's console and table costs a fifth of a small run's start-up (issue 18), and on a
pipe rich writes plain text: no colour, the width fixed. ``BoxTable`` holds a table of the one
kind dtree's listings use (rich's heavy-head box without outer edge or edge padding, a bold
header, left- or right-justified columns, an optional left-justified title); ``plain`` writes it,
or a string, exactly as rich would at a given width, and says ``None`` when it cannot be sure:
a character whose width is not one cell, a table or line wider than the console (rich would
shrink or wrap it). Then the caller prints ``to_rich(...)`` with rich.
"""

from __future__ import annotations

# Characters that are one cell wide under every Unicode version rich knows, and are not whitespace
# other than the space (rich strips and splits at whitespace): printable ASCII, Latin-1 and Latin
# Extended, Greek and Cyrillic (without the combining marks after U+0482). Any other character: rich.
_RANGES = ((0x20, 0x7E), (0xA1, 0xAC), (0xAE, 0x2FF), (0x370, 0x482))
SIMPLE = frozenset("\n".join("".join(map(chr, range(start, end + 1))) for start, end in _RANGES))
HEAD_RULE, HEAD_BAR, BODY_BAR, HEAD_CROSS = "━", "┃", "│", "╇"


class BoxTable:
    """A table as dtree lists things: columns (title, justify ``left`` or ``right``), rows of strings
    (a cell may hold several lines), and an optional title above it."""

    def __init__(self, title: str | None = None, columns=None, rows=None):
        self.title = title
        self.columns: list[tuple[str, str]] = list(columns or [])
        self.rows: list[list[str]] = [list(row) for row in rows or []]

    def add_column(self, header: str, justify: str = "left") -> None:
        self.columns.append((header, justify))

    def add_row(self, *cells: str) -> None:
        self.rows.append(list(cells))


def to_rich(part):
    """The rich renderable for ``part``: a rich Table for a ``BoxTable``, anything else as it is."""
    if not isinstance(part, BoxTable):
        return part
    from rich.table import Table

    table = Table(title=part.title, show_edge=False, pad_edge=False, title_justify="left")
    for header, justify in part.columns:
        table.add_column(header, justify=justify)
    for row in part.rows:
        table.add_row(*row)
    return table


def plain(parts: tuple, width: int) -> str | None:
    """What rich prints for ``parts`` (nothing, one string or one ``BoxTable``) on a console
    ``width`` cells wide without colour, or None when only rich can say."""
    if not parts:
        return "\n"
    if len(parts) > 1 or width < 1:
        return None
    part = parts[0]
    if isinstance(part, str):
        return part + "\n" if _fits(part, width) else None
    if isinstance(part, BoxTable):
        return _table(part, width)
    return None


def _fits(text: str, width: int) -> bool:
    """True when ``text`` holds only one-cell characters and no line is wider than ``width``."""
    return SIMPLE.issuperset(text) and all(len(line) <= width for line in text.split("\n"))


def _table(table: BoxTable, width: int) -> str | None:
    """The table's lines, or None when rich would have to shrink it (or cannot be matched)."""
    count = len(table.columns)
    if count == 0:
        return None
    if any(len(row) != count for row in table.rows):
        return None
    columns = [[header, *(row[k] for row in table.rows)] for k, (header, _) in enumerate(table.columns)]
    if not all(SIMPLE.issuperset(cell) for column in columns for cell in column):
        return None
    if any(_longest(column) == 0 and "\n" in "".join(column) for column in columns):
        return None  # rich draws a column of nothing but line breaks otherwise
    pads = [(0 if k == 0 else 1, 0 if k == count - 1 else 1) for k in range(count)]
    widths = [_longest(column) + sum(pad) or 1 for column, pad in zip(columns, pads)]
    table_width = sum(widths) + count - 1
    if table_width > width:
        return None
    out = []
    if table.title:
        if not _fits(table.title, table_width):
            return None
        out += [line.ljust(table_width) for line in table.title.split("\n")]
    justify = [j for _, j in table.columns]
    out += _row([column[0] for column in columns], widths, pads, justify, HEAD_BAR, bottom=True)
    out.append(HEAD_CROSS.join(HEAD_RULE * w for w in widths))
    for index in range(len(table.rows)):
        out += _row([column[index + 1] for column in columns], widths, pads, justify, BODY_BAR, bottom=False)
    return "\n".join(out) + "\n"


def _longest(cells: list[str]) -> int:
    return max(len(line) for cell in cells for line in cell.split("\n"))


def _row(cells: list[str], widths: list[int], pads: list, justify: list[str], bar: str, bottom: bool) -> list[str]:
    """The lines of one row: each cell's lines justified in its column, the shorter cells filled
    with blank lines below (above in the header, which rich aligns at the bottom)."""
    blocks = []
    for cell, total, (left, right), how in zip(cells, widths, pads, justify):
        inner = total - left - right
        lines = [line.ljust(inner) if how == "left" else line.rstrip().rjust(inner) for line in cell.split("\n")]
        blocks.append([" " * left + line + " " * right for line in lines])
    height = max(len(block) for block in blocks)
    for block, total in zip(blocks, widths):
        fill = [" " * total] * (height - len(block))
        block[:] = fill + block if bottom else block + fill
    return [bar.join(block[k] for block in blocks) for k in range(height)]
