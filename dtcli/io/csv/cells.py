"""What a CSV cell means to both CSV parsers (``csv_reader``, ``csv_pandas``): missing markers and numeric columns.

A column is numeric when its first ``SAMPLE_ROWS`` cells hold only numbers
and missing markers (``NUMERIC_MISSING``), and at least one number; in text
columns only ``MISSING_CELLS`` are missing.
"""

from __future__ import annotations

import math
import re

MISSING_CELLS = ["", "?"]
NUMERIC_MISSING = ["", "?", "NA", "NaN", "nan", "NAN", "N/A"]
SAMPLE_ROWS = 2000
_NUMBER = re.compile(r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|(?i:inf|infinity))")
_INFINITY = re.compile(r"[+-]?(?i:inf|infinity)")
_SPACE = " \t\n\r\x0b\x0c"
# a plain number (no space, no inf) or a missing marker: checked by the regular expression's own
# ``fullmatch`` mapped over a column's cells (no Python call a cell), one cell at a time (a pattern
# over the joined column would backtrack through every cell before it on a stray one)
_PLAIN = r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
_MARKERS = "|".join(re.escape(marker) for marker in NUMERIC_MISSING)
_PLAIN_CELL = re.compile(rf"{_PLAIN}|{_MARKERS}")
_PLAIN_NUMBER = re.compile(_PLAIN)
_MISSING_SET = frozenset(NUMERIC_MISSING)


def parse_number(text: str) -> float | None:
    """The number a cell holds, or None if it is not a number (``-0`` reads as 0)."""
    value = c_number(text.strip(_SPACE))
    return None if value is None else value + 0.0


def c_number(text: str) -> float | None:
    """The number as pandas' C parser reads it into a float column (``-0`` stays -0.0), or None.

    Like that parser, white space around digits is ignored, but ``inf`` and ``infinity`` count
    only as written (leading spaces aside, which the CSV readers drop first): ``"inf "`` is text.
    """
    number = text.strip(_SPACE)
    if _NUMBER.fullmatch(number) is None:
        return None
    if number != text.lstrip(" ") and _INFINITY.fullmatch(number):
        return None
    return float(number)


def c_numbers(cells: list[str]) -> list[float] | None:
    """``c_number`` of each cell, NaN for a missing marker (``NUMERIC_MISSING``); None if a cell is
    neither. A column of plain numbers is checked by a match a cell without a Python call and read by
    ``float``, as ``c_number`` reads each (the same values); any other goes through ``c_number``."""
    if all(map(_PLAIN_CELL.fullmatch, cells)):
        return [math.nan if cell in _MISSING_SET else float(cell) for cell in cells]
    values = [math.nan if cell in _MISSING_SET else c_number(cell) for cell in cells]
    return None if any(value is None for value in values) else values


def sniff_separator(header: str, path: str) -> str:
    """The separator: a tab for a ``.tsv`` name, else the first of , tab ; | in the header line (, by default)."""
    if path.lower().removesuffix(".gz").endswith(".tsv"):
        return "\t"
    if "," in header:
        return ","
    for sep in ("\t", ";", "|"):
        if sep in header:
            return sep
    return ","


def looks_numeric(cells: list[str]) -> bool:
    """True if the cells (a column's first rows) hold numbers and missing markers only, and a number."""
    values = {cell.strip() for cell in cells}.difference(NUMERIC_MISSING)  # each distinct cell once
    if values and all(map(_PLAIN_NUMBER.fullmatch, values)):
        return True
    return len(values) > 0 and all(parse_number(value) is not None for value in values)
