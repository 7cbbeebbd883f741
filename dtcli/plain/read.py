"""A small, plain CSV file read into a ``PlainTable`` without numpy (``dtree gain``'s plain path), or None.

Contract: ``read_plain`` returns exactly the table the full reader
(``read.read_data`` then ``encode.infer_table``) builds for the file, as
plain lists, or None whenever the file is outside the class read here; the
caller then runs the full reader, which reads the file again and reports
whatever is wrong with it. The class: a regular file of at most
``PLAIN_BYTES`` read as CSV (no ``.gz``, ``.arff`` or ``.parquet`` name, no
Parquet magic), UTF-8, with no quotes and no NUL; every line a record of the
header's width, none of only separators and spaces; column names unique (also
under NFC, ``colnames``) and not empty; at least one data row and one class; no column read as nominal
that holds a number or an ISO 8601 date, or has no value (a column of numbers
with stray text, or of dates, is the full reader's to judge). The bytes come from ``source.read_input``, as for the
full reader, so a file too large for ``--max-bytes`` or not UTF-8 gets the
same error either way. Cells mean what they mean to both CSV parsers
(``csv_cells``); kinds and codes follow ``encode.infer_table``.
"""

from __future__ import annotations

import math
import os
import re
import stat

from dtcli.io.csv.cells import (
    MISSING_CELLS,
    NUMERIC_MISSING,
    SAMPLE_ROWS,
    c_numbers,
    looks_numeric,
    parse_number,
)
from dtcli.io.csv.dialect import detect
from dtcli.io.source import DATA, Limits, read_input
from dtcli.model.colnames import clash
from dtcli.plain.table import MISSING, PlainColumn, PlainTable

PLAIN_BYTES = 1 << 16  # larger files: numpy's import is small beside the work, and the full reader does it
LINE_END = re.compile(r"\r\n|\r|\n")
DATE_LIKE = re.compile(r"\s*\d{4}-\d{2}-\d{2}")  # a column with such a cell may be dates: the full reader's
LARGEST = 1.7976931348623157e308  # an infinite number is held as the largest finite one (table.saturate)


def read_plain(path: str, target: str | None, ignore, limits: Limits, numeric_class: bool = True) -> PlainTable | None:
    """The training table of ``path`` (the class ``target``, default the last column; the columns
    ``ignore(names)`` names left out, given the header's names), or None for a file the full reader
    must read (see the module)."""
    if path == "-" or path.endswith(".gz") or path.lower().endswith((".arff", ".parquet")):
        return None
    try:
        status = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(status.st_mode) or status.st_size > PLAIN_BYTES or _parquet_mark(path):
        return None
    got = read_input(path, DATA, limits.max_bytes, fingerprint=False)
    data = bytes(got.data)
    if data.startswith(b"PAR1") or b'"' in data or b"\x00" in data:
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    dialect = detect(data, path, got.source, limits.sep, limits.decimal)
    if not dialect.plain:
        return None  # (a decimal comma, a sep= line or a note: the full reader's)
    records = _records(text, dialect.sep)
    if records is None:
        return None
    header, sep, rows = records
    if not rows or (limits.max_rows and len(rows) > limits.max_rows):
        return None
    if len(set(header)) != len(header) or "" in header or clash(header) or len(header) == 1:
        return None  # (one column: the full reader judges whether it looks like several run together)
    target = header[-1] if target is None else target
    ignored = ignore(header)
    if target not in header or target in ignored or any(name not in header for name in ignored):
        return None
    columns = dict(zip(header, zip(*rows)))
    for name, cells in columns.items():
        if name != target and looks_numeric(list(cells[:SAMPLE_ROWS])):
            numbers = c_numbers(list(cells))
            if numbers is None:
                return None  # (the full reader reads such a file as text)
            columns[name] = numbers
    attributes = []
    for name in header:
        if name in ignored or name == target:
            continue
        column = _attribute(name, columns[name])
        if column is None:
            return None
        attributes.append(column)
    numbers = _numbers(columns[target]) is not None
    if not numeric_class and (numbers or any(DATE_LIKE.match(cell) for cell in columns[target])):
        return None  # (a numeric target, or one of dates, without --task classification: the full reader's to judge)
    classes, y = _nominal(columns[target], numbers)
    if not classes or (numbers and len({parse_number(c) for c in classes}) < len(classes)):
        return None  # (1 and 1.0: one class to the full reader, encode._same_numbers)
    return PlainTable(got.source, tuple(attributes), target, classes, y)


def _parquet_mark(path: str) -> bool:
    """Whether the file starts with Parquet's mark (read before the text check, which a Parquet file fails)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(4) == b"PAR1"
    except OSError:
        return False


def _records(text: str, sep: str):
    """(the header's names, the separator, the data rows' cells with leading spaces dropped), or None."""
    lines = [line for line in (LINE_END.split(text) if "\r" in text else text.split("\n")) if line]
    if not lines or not lines[0].strip():
        return None
    width = lines[0].count(sep) + 1
    rows = []
    for line in lines:
        rest = line.replace(sep, "")
        if line.count(sep) + 1 != width or (rest and not rest.strip()):
            return None
        rows.append([cell.lstrip(" ") for cell in line.split(sep)])
    return [name.strip() for name in lines[0].split(sep)], sep, rows[1:]


def _attribute(name: str, cells) -> PlainColumn | None:
    """A column's kind and cells as ``encode.infer_table`` makes them; None where the full reader must
    judge (a column read as nominal that holds a number: perhaps numbers with stray text)."""
    if isinstance(cells, list):  # numbers already
        return PlainColumn(name, None, [_held(v) for v in cells]) if any(v == v for v in cells) else None
    numbers = _numbers(cells)
    if numbers is not None:
        return PlainColumn(name, None, [_held(v) for v in numbers])
    for cell in set(cells):
        text = cell.strip()
        if (text not in NUMERIC_MISSING and parse_number(text) is not None) or DATE_LIKE.match(text):
            return None
    values, codes = _nominal(cells, False)
    return PlainColumn(name, values, codes) if values else None


def _numbers(cells) -> list[float] | None:
    """The text cells as numbers (NaN missing) when every one is a number or missing, and one a number."""
    values, known = [], False
    for cell in cells:
        text = cell.strip()
        if text in NUMERIC_MISSING:  # (the markers of a column of numbers: encode's MISSING_ANY and MISSING_NUMERIC)
            values.append(math.nan)
            continue
        value = parse_number(text)
        if value is None:
            return None
        values.append(value)
        known = True
    return values if known else None


def _nominal(cells, numbers_too: bool) -> tuple[tuple[str, ...], list[int]]:
    """Values in order of first appearance (surrounding white space dropped) and each row's code;
    ``numbers_too``: a column of numbers read as nominal, where NA and its kin are missing too."""
    drop = set(NUMERIC_MISSING if numbers_too else MISSING_CELLS)
    index: dict[str, int] = {}
    codes = []
    for cell in cells:
        label = cell.strip()
        codes.append(MISSING if label in drop else index.setdefault(label, len(index)))
    return tuple(index), codes


def _held(value: float) -> float:
    """A number as training holds it: an infinity as the largest finite number of its sign."""
    return math.copysign(LARGEST, value) if math.isinf(value) else value
