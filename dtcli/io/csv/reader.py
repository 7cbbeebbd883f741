"""CSV parsing: numeric columns as float64, the rest as text, every row as wide as the header.

Widths are checked against the header first (``csv_lines``; pandas would pad
short rows silently). Small plain files are read in Python; the rest by pandas' C parser
(``csv_pandas``); what a cell means to both is in ``csv_cells``.
"""

from __future__ import annotations

import re
import threading

import numpy as np

from dtcli.errors import DataError
from dtcli.io.columns import Columns, NumberColumn, TextColumn
from dtcli.io.csv import cells as csv_cells
from dtcli.io.csv.cells import MISSING_CELLS, c_numbers, looks_numeric
from dtcli.io.csv.decimal_comma import decimal_points
from dtcli.io.csv.dialect import detect
from dtcli.io.csv.lines import first_line, header_record, record_lines
from dtcli.model.colnames import aliases, clash, clash_text

LINE_END = re.compile(r"\r\n|\r|\n")


LAST_COLUMN = "\x00last"  # in text_columns: the last column, whatever its name
PLAIN_MAX = 1 << 20  # bytes: files up to this size without quotes are read without pandas
# Set when parse_csv has found a file's records and begins to parse their values: work meant to run
# beside the parse (numba's set-up: cli/train.py) waits for it, so as not to take the GIL from the scan
PARSING = threading.Event()


def parse_csv(data, source: str, path: str, text_columns=(), max_rows: int = 0, sep=None, decimal=None, notes=None):
    """The table's columns, the file line of each row, the separator, the bytes the values were read
    from (``data``, perhaps mended in place or without its blank lines: ``csv_lines``) and the decimal
    mark, from the file's bytes (UTF-8, checked, no byte-order mark).

    Columns whose first rows (``csv_cells.SAMPLE_ROWS``) hold only numbers (or missing
    markers) are numbers, with empty cells, ``?``, ``NA`` and ``NaN``
    missing (NaN), unless a later row holds something else: then every
    column of the file is text. Every other column, and those named in
    ``text_columns``, are text: the cells as written (leading spaces
    dropped), with empty cells and ``?`` missing. Small plain files are read
    here in Python (no pandas to import: start-up matters to scripts that
    call dtree thousands of times); the rest by pandas' C parser
    (``csv_pandas``), which gives the same columns. Line ends may be LF, CRLF
    or CR, mixed; a quoted value keeps the line ends it holds.

    The separator and decimal mark are ``sep`` and ``decimal`` (--sep, --decimal), else detected
    (``csv_dialect``; what detection assumed, when unsure, is appended to ``notes``). An Excel
    ``sep=`` first line is read as a blank line. A decimal-comma file's cells are read from a
    copy with decimal points; the bytes returned are those written, for echoing rows.
    """
    data = data if isinstance(data, bytearray) else bytearray(data)  # record_lines may mend it in place
    dialect = detect(data, path, source, sep, decimal)
    if dialect.skip:
        del data[: dialect.skip]  # its line end stays: a blank first line, so the lines keep their numbers
    if dialect.note and notes is not None:
        notes.append(dialect.note)
    first = first_line(data)
    if first is None:
        raise DataError(f"{source}: file is empty; a CSV file needs a header line naming the columns")
    if not first.strip():
        raise DataError(
            f"{source}: the first line that is not empty holds only blanks; delete it, so that the header "
            "line naming the columns comes first"
        )
    sep = dialect.sep
    header = [name.strip() for name in header_record(data, sep, first)]
    written = None
    if dialect.decimal == ",":
        head = first.encode("utf-8")
        written, data = data, decimal_points(data, sep, source, data.find(head) + len(head))
    lines, data = record_lines(data, sep, len(header), source, max_rows)
    if len(lines) and lines.max() < 2**31:  # the table keeps them (for messages): 4 bytes a row, not 8
        lines = lines.astype(np.int32)
    texts = aliases(text_columns, header) | ({header[-1]} if LAST_COLUMN in text_columns else set())
    PARSING.set()
    columns = None
    if len(data) <= PLAIN_MAX or len(header) > len(lines):  # pandas spends a millisecond a column
        columns = plain_columns(data.decode("utf-8"), sep, len(header), texts, header)
    if columns is None:
        from dtcli.io.csv.pandas_reader import read_columns

        columns = read_columns(data, header, sep, texts, source, len(lines))
    return _named(columns, header, source), lines, sep, data if written is None else written, dialect.decimal


def plain_columns(text: str, sep: str, width: int, texts: set, header: list[str]) -> list | None:
    """The columns of a plain file, read as pandas' C parser reads them; None for any other file,
    which then goes to pandas. Plain: no quotes, every record ``width`` fields, and no line of
    white space (with or without separators). Line ends: LF, CRLF or CR."""
    if '"' in text or "\x00" in text:
        return None
    rows = []
    for line in LINE_END.split(text) if "\r" in text else text.split("\n"):
        if not line:
            continue
        rest = line.replace(sep, "")
        if rest and not rest.strip():  # separators and white space only: pandas may skip the line
            return None
        fields = line.split(sep)
        if len(fields) != width:
            return None
        rows.append([field.lstrip(" ") for field in fields])
    cells = list(zip(*rows[1:])) if len(rows) > 1 else [()] * width
    numeric = [
        header[i] not in texts and looks_numeric(list(column[: csv_cells.SAMPLE_ROWS]))
        for i, column in enumerate(cells)
    ]
    numbers = {}
    for i, column in enumerate(cells):
        if numeric[i]:
            values = c_numbers(list(column))
            if values is None:  # as pandas: the whole file is read as text
                numbers = {}
                break
            numbers[i] = NumberColumn(np.array(values, dtype=np.float64))
    return [
        numbers[i] if i in numbers else TextColumn.of([None if cell in MISSING_CELLS else cell for cell in column])
        for i, column in enumerate(cells)
    ]


def _named(columns: list, header: list[str], source: str) -> Columns:
    """The columns under their header names; an unnamed column must be empty and is dropped."""
    seen: dict[str, int] = {}
    for position, name in enumerate(header, start=1):
        if name in seen and name != "":  # (unnamed columns: dropped below when empty, else refused)
            raise DataError(
                f"{source}: column name {name!r} appears twice (columns {seen[name]} and {position}); "
                "rename one of them"
            )
        seen[name] = position
    same = clash(header)
    if same is not None:
        first, second = (header[i] for i in same)
        raise DataError(
            f"{source}: columns {same[0] + 1} and {same[1] + 1}: {clash_text(first, second)}; rename one of them"
        )
    named = {}
    for i, (name, column) in enumerate(zip(header, columns)):
        if name == "":
            if _has_content(column):
                raise DataError(f"{source}: column {i + 1} has no name in the header line; name it")
            continue
        named[name] = column
    rows = len(columns[0]) if columns else 0
    return Columns(named, rows)


def _has_content(column) -> bool:
    if isinstance(column, NumberColumn):
        return bool((~np.isnan(column.values)).any())
    present = set(column.codes[column.codes >= 0].tolist())
    return any(str(column.uniques[code]).strip() != "" for code in present)
