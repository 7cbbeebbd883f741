"""Box tables and lines written without rich are the text rich itself prints on a pipe.

rich is the reference: for drawn tables (cells with wide, combining and zero-width characters,
numbers, empty and multi-line cells, titles) and strings, at drawn console widths, what
``console.print`` writes to a pipe must be what a rich Console set up for a pipe prints for the
same table as a rich Table. And ``plain`` must not give up on a table that rich does not shrink
when every character is plain ASCII.
"""

from __future__ import annotations

import contextlib
import io
import os
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from dtcli.render.boxtable import BoxTable, plain, to_rich
from dtcli.render.console import MIN_WIDTH, console

# One-cell letters, spaces, digits and marks gain uses, and characters of other widths or kinds.
PLAIN = list("ab XyZ09.-*+[],?<=>|") + ["é", "Ω", "Ж", "ß"]
ODD = ["中", "😀", "\u0301", "\u200b", "\u200d", "\ufe0f", "\u00a0", "\u00ad", "\t", "\x1b", "\r", "\u0483"]
WIDTH = st.one_of(st.integers(1, 130), st.integers(90, 200))  # mostly wide enough, some not
NUMBER = st.floats(-1e6, 1e6, allow_nan=False).map(lambda x: f"{x:.3f}")
LINE = st.text(st.sampled_from(PLAIN), max_size=14)
ODD_LINE = st.text(st.sampled_from(PLAIN + ODD), min_size=1, max_size=8)
CELL = st.one_of(st.just(""), NUMBER, st.lists(LINE, min_size=1, max_size=4).map("\n".join))


@st.composite
def tables(draw) -> BoxTable:
    """A table of plain cells; half of them with one cell (or the title) holding odd characters."""
    count = draw(st.integers(1, 6))
    table = BoxTable(title=draw(st.one_of(st.none(), LINE)))
    for _ in range(count):
        table.add_column(draw(st.one_of(LINE, CELL)), justify=draw(st.sampled_from(["left", "right"])))
    for _ in range(draw(st.integers(0, 5))):
        table.add_row(*draw(st.lists(CELL, min_size=count, max_size=count)))
    if draw(st.booleans()):
        odd = draw(st.lists(ODD_LINE, min_size=1, max_size=2).map("\n".join))
        row = draw(st.integers(-2, len(table.rows) - 1))
        column = draw(st.integers(0, count - 1))
        if row == -2:
            table.title = odd
        elif row == -1:
            table.columns[column] = (odd, table.columns[column][1])
        else:
            table.rows[row][column] = odd
    return table


def rich_text(part, width: int) -> str:
    """What rich prints for ``part`` on a pipe ``width`` cells wide (as dtree's Console is set up there)."""
    buffer = io.StringIO()
    options = {"markup": False, "highlight": False, "emoji": False, "soft_wrap": False}
    Console(file=buffer, force_terminal=False, width=width, no_color=True, **options).print(to_rich(part))
    return buffer.getvalue()


def printed(part, width: int) -> str:
    """What ``console.print`` writes for ``part`` to a pipe with ``COLUMNS=width`` (dtree takes a
    narrower one than MIN_WIDTH as MIN_WIDTH: the tests compare with rich at ``max(width, MIN_WIDTH)``)."""
    out = io.StringIO()
    with mock.patch.dict(os.environ, {"COLUMNS": str(width)}), contextlib.redirect_stdout(out):
        console.print(part)
    return out.getvalue()


@settings(max_examples=200, deadline=None)
@given(tables(), WIDTH)
def test_tables_print_as_rich_prints_them(table, width):
    assert printed(table, width) == rich_text(table, max(width, MIN_WIDTH))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(LINE, ODD_LINE), min_size=1, max_size=3).map("\n".join), st.integers(1, 40))
def test_lines_print_as_rich_prints_them(text, width):
    assert printed(text, width) == rich_text(text, max(width, MIN_WIDTH))


@settings(max_examples=150, deadline=None)
@given(tables(), WIDTH)
def test_plain_ascii_tables_that_rich_does_not_shrink_need_no_rich(table, width):
    cells = [table.title or ""] + [h for h, _ in table.columns] + [c for row in table.rows for c in row]
    if not all(c.isascii() and c.replace("\n", "").isprintable() for c in cells):
        return
    if any(not "".join(column).replace("\n", "") and "\n" in "".join(column) for column in columns_of(table)):
        return  # a column of nothing but line breaks: left to rich
    unshrunk = rich_text(BoxTable(columns=table.columns, rows=table.rows), 10_000)  # at its natural width
    widest = max(len(line) for line in unshrunk.split("\n"))
    title_fits = all(len(line) <= widest for line in (table.title or "").split("\n"))
    assert (plain((table,), width) is not None) == (widest <= width and title_fits)


def columns_of(table: BoxTable) -> list[list[str]]:
    return [[header, *(row[k] for row in table.rows)] for k, (header, _) in enumerate(table.columns)]


def test_nothing_prints_an_empty_line():
    assert printed_nothing() == "\n" == rich_text("", 80)


def printed_nothing() -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        console.print()
    return out.getvalue()
