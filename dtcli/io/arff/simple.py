"""The data section of a plainly written ARFF file, read whole rather than a line at a time.

liac-arff splits each data row with a regular expression (or a CSV reader), unquotes each value
and converts it, a few Python steps a cell: on Weka's credit-g (1,000 rows, 21 attributes, every
row quoted) reading took about a sixth of a ``dtree train``. ``simple_columns`` reads the data
section of the rows most files hold, every row in the form

    value, value, ...     each value plain (no quote, blank, comma, brace, %, backslash or control
                          character), or in single quotes with no quote or backslash inside;
                          blanks only after a comma; blank and comment lines anywhere

with one CSV pass over the whole section, and converts each column at once: the same cells as
liac-arff makes of such rows (a plain ``?`` or empty value is missing, a quoted one is the text
``?`` or empty, which this path leaves to liac-arff), converted as liac-arff converts them
(``float``; an integer attribute ``int(float(x))``; a nominal value must be declared; text as
it is). Anything else (double quotes, escapes, a comment after a row, sparse rows, a value liac-arff would
refuse, a row too many or too short) returns None and liac-arff reads the file as before, so its
errors and their line numbers stay what they were.
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


def simple_columns(text: str, first_line: int, attributes: list, names: list[str], max_rows: int = 0):
    """(columns by name, their length, the file line of each row) of the data section ``text`` (its
    first line is the file's line ``first_line``) for liac-arff's ``attributes`` ((name, type or
    nominal values) in order) named ``names``, or None when it is not written plainly (liac-arff
    then reads it)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n")
        if "\r" in text:  # a lone CR ends a line too: liac-arff's path numbers those
            return None
    if "'?'" in text or "''" in text:  # a quoted ? or empty value is text, not missing
        return None
    rows, lines = [], array("q")
    for number, line in enumerate(text.split("\n"), first_line):
        stripped = line.strip()
        if not stripped or stripped[0] == "%":  # blank, or a comment line
            continue
        if ROW.fullmatch(line) is None:
            return None
        rows.append(line)
        lines.append(number)
    if max_rows and len(rows) > max_rows:
        return None  # (liac-arff's path says so, naming the file)
    n_attributes = len(attributes)
    cells = list(csv.reader(rows, quotechar="'", skipinitialspace=True, strict=True))
    if any(len(row) != n_attributes for row in cells):
        return None
    by_column = list(zip(*cells)) if cells else [()] * n_attributes
    columns = {}
    for name, (_, kind), column in zip(names, attributes, by_column):
        converted = _converted(kind, column)
        if converted is None:
            return None
        columns[name] = converted
    return columns, len(rows), lines


def _converted(kind, column: tuple):
    """One column's cells as the reader makes them from liac-arff's values, or None where
    liac-arff would refuse a value or leave a row unconverted."""
    if isinstance(kind, list):  # nominal: a declared value, or missing
        declared = set(kind)
        if any(cell not in declared and cell not in MISSING for cell in column):
            return None
        return _text(column)
    if kind == "STRING":
        return _text(column)
    try:
        numbers = [math.nan if cell in MISSING else float(cell) for cell in column]
    except ValueError:
        return None
    if kind == "INTEGER":
        if any(not math.isfinite(x) for x, cell in zip(numbers, column) if cell not in MISSING):
            return None  # int() fails on infinity, and on NaN (liac-arff then leaves the row as text)
        numbers = [x if x != x else float(int(x)) for x in numbers]
    return NumberColumn(np.array(numbers, dtype=np.float64))


def _text(column: tuple) -> TextColumn:
    """Cells as codes in order of first appearance, -1 where missing."""
    seen: dict[str, int] = {}
    codes = [-1 if cell in MISSING else seen.setdefault(cell, len(seen)) for cell in column]
    return TextColumn(np.array(codes, dtype=np.int32), list(seen))
