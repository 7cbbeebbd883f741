"""What a CSV cell means to both CSV parsers (``csv_reader``, ``csv_pandas``): missing markers and numeric columns.

A column is numeric when its first ``SAMPLE_ROWS`` cells hold only numbers
and missing markers (``NUMERIC_MISSING``), and at least one number; in text
columns only ``MISSING_CELLS`` are missing.
"""

from __future__ import annotations

from dtcli.io.columns import parse_number

MISSING_CELLS = ["", "?"]
NUMERIC_MISSING = ["", "?", "NA", "NaN", "nan", "NAN", "N/A"]
SAMPLE_ROWS = 2000


def looks_numeric(cells: list[str]) -> bool:
    """True if the cells (a column's first rows) hold numbers and missing markers only, and a number."""
    values = {cell.strip() for cell in cells}.difference(NUMERIC_MISSING)  # each distinct cell once
    return len(values) > 0 and all(parse_number(value) is not None for value in values)
