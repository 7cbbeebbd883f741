"""The data section of a plainly written ARFF file, read whole rather than a line at a time.

liac-arff splits each data row with a regular expression (or a CSV reader), unquotes each value
and converts it, a few Python steps a cell: on Weka's credit-g (1,000 rows, 21 attributes, every
row quoted) reading took about a sixth of a ``dtree train``. ``simple_columns`` reads the data
section of the rows most files hold, every row in the form

    value, value, ...     each value plain (no quote, blank, comma, brace, %, backslash or control
                          character), or in single quotes with no quote or backslash inside;
                          blanks only after a comma; blank and comment lines anywhere

with one CSV pass over a batch of rows (``BATCH``) at a time, and converts each column of the
batch at once: the same cells as liac-arff makes of such rows (a plain ``?`` or empty value is
missing, a quoted one is the text ``?`` or empty, which this path leaves to liac-arff), converted
as liac-arff converts them (``float``; an integer attribute ``int(float(x))``; a nominal value
must be declared; text as it is). Anything else (double quotes, escapes, a comment after a row,
sparse rows, a value liac-arff would refuse, a row too many or too short) returns None and
liac-arff reads the file as before, so its errors and their line numbers stay what they were.
The batches keep memory to liac-arff's path's: 50,000 rows of 101 attributes (24 MB) peaked at
153 MB against 150, and were read in 2.9-3.2 s against 4.5-5.0 s.
"""

from __future__ import annotations

import csv
import math
import re
from array import array

import numpy as np

from dtcli.io.columns import NumberColumn, TextColumn

PLAIN = r"[^'\",\s{}%\\\x00-\x1f\x7f]*"
QUOTED = r"'[^'\\\x00-\x1f\x7f]*'"
ROW = re.compile(rf"(?:{PLAIN}|{QUOTED})(?:, *(?:{PLAIN}|{QUOTED}))*")
MISSING = ("?", "")
BATCH = 4096  # rows converted at a time
AS_NUMBER = dict.fromkeys(MISSING, "nan")  # a cell as float reads it


def simple_columns(text: str, first_line: int, attributes: list, names: list[str], max_rows: int = 0):
    """(columns by name, their length, the file line of each row) of the data section ``text`` (its
    first line is the file's line ``first_line``) for liac-arff's ``attributes`` ((name, type or
    nominal values) in order) named ``names``, or None when it is not written plainly (liac-arff
    then reads it). The rows are converted ``BATCH`` at a time, so that a large file's cells are
    never all held as Python strings at once."""
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:  # a lone CR ends a line too: liac-arff's path numbers those
            return None
    if "'?'" in text or "''" in text:  # a quoted ? or empty value is text, not missing
        return None
    columns = [_Column(kind) for _, kind in attributes]
    rows, lines = [], array("q")
    for number, line in enumerate(_lines(text), first_line):
        stripped = line.strip()
        if not stripped or stripped[0] == "%":  # blank, or a comment line
            continue
        if ROW.fullmatch(line) is None or (max_rows and len(lines) == max_rows):
            return None  # (liac-arff's path reads it, or says that the file has too many rows)
        rows.append(line)
        lines.append(number)
        if len(rows) == BATCH:
            if not _added(rows, columns):
                return None
            rows = []
    if not _added(rows, columns):
        return None
    return {name: column.made() for name, column in zip(names, columns)}, len(lines), lines


def _lines(text: str):
    """The lines of ``text`` (LF ends them), one at a time: no copy of the whole text."""
    start, end = 0, len(text)
    while start < end:
        stop = text.find("\n", start)
        if stop < 0:
            stop = end
        yield text[start:stop]
        start = stop + 1


def _added(rows: list[str], columns: list) -> bool:
    """Whether ``rows`` were split into as many cells as ``columns`` and each cell converted."""
    try:
        cells = list(csv.reader(rows, quotechar="'", skipinitialspace=True, strict=True))
    except csv.Error:  # such as a value longer than the csv module's field limit (128 KiB)
        return False
    if any(len(row) != len(columns) for row in cells):
        return False
    return all(column.add(cells) for column, cells in zip(columns, zip(*cells))) if cells else True


class _Column:
    """One attribute's cells as the reader makes them from liac-arff's values: numbers (NaN where
    missing), or text as codes in order of first appearance (-1 where missing)."""

    def __init__(self, kind):
        self.kind = kind
        self.declared = set(kind) if isinstance(kind, list) else None
        self.text = isinstance(kind, list) or kind == "STRING"
        self.values = array("i") if self.text else array("d")
        self.codes = dict.fromkeys(MISSING, -1)  # each cell's code: missing -1, then in order of appearance

    def add(self, cells: tuple) -> bool:
        """Append ``cells``; False where liac-arff would refuse a value or leave a row unconverted."""
        if self.text:
            codes = self.codes
            for cell in dict.fromkeys(cells):  # the batch's distinct cells, in order of first appearance
                if cell not in codes:
                    if self.declared is not None and cell not in self.declared:
                        return False
                    codes[cell] = len(codes) - len(MISSING)
            self.values.extend(map(codes.__getitem__, cells))
            return True
        if self.kind != "INTEGER":  # a missing cell read as "nan": float's NaN, as liac-arff's path writes
            try:
                self.values.extend(map(float, map(AS_NUMBER.get, cells, cells)))
            except ValueError:
                return False
            return True
        try:
            numbers = [math.nan if cell in MISSING else float(cell) for cell in cells]
        except ValueError:
            return False
        if any(not math.isfinite(x) for x, cell in zip(numbers, cells) if cell not in MISSING):
            return False  # int() fails on infinity, and on NaN (liac-arff then leaves the row as text)
        self.values.extend(x if x != x else float(int(x)) for x in numbers)
        return True

    def made(self):
        if self.text:
            uniques = [cell for cell, code in self.codes.items() if code >= 0]
            return TextColumn(np.frombuffer(self.values, dtype=np.int32).copy(), uniques)
        return NumberColumn(np.frombuffer(self.values, dtype=np.float64).copy())
