"""ARFF parsing with liac-arff: declared types kept, cells as text."""

from __future__ import annotations

import re

import numpy as np

from dtcli.errors import DataError
from dtcli.io.columns import Columns, NumberColumn, TextColumn
from dtcli.model.table import NOMINAL, NUMERIC, Attribute

ARFF_MISSING = "?"
_HINTS = {
    "BadNumericalValue": "a value of a numeric attribute is not a number",
    "BadAttributeType": "unsupported attribute type (dtree reads numeric, real, integer, string and nominal {...})",
    "BadLayout": "expected @relation, then @attribute lines, then @data",
}


def parse_arff(text: str, source: str) -> tuple[Columns, dict[str, Attribute], np.ndarray]:
    """The cells (numbers for numeric attributes, text for the rest), the declared attributes,
    and the file line of each row."""
    import arff  # liac-arff: imported here so CSV users do not pay for it

    if not text.strip():
        raise DataError(f"{source}: file is empty; an ARFF file needs @relation, @attribute and @data sections")
    try:
        parsed = arff.loads(text)
    except arff.ArffException as exc:
        line = getattr(exc, "line", None)
        where = f", line {line}" if line and line > 0 else ""
        message = _HINTS.get(type(exc).__name__) or re.sub(r",? (at|in) line \d+\.?", "", str(exc)).rstrip(".")
        raise DataError(f"{source}{where}: invalid ARFF: {message}") from None
    declared: dict[str, Attribute] = {}
    names = []
    for name, kind in parsed["attributes"]:
        if name in declared:
            raise DataError(f"{source}: attribute {name!r} is declared twice; rename one")
        if isinstance(kind, list):
            declared[name] = Attribute(name, NOMINAL, tuple(str(v) for v in kind))
        elif kind.upper() in ("NUMERIC", "REAL", "INTEGER"):
            declared[name] = Attribute(name, NUMERIC)
        names.append(name)
    rows = parsed["data"]
    columns = {}
    for j, name in enumerate(names):
        if name in declared and declared[name].kind == NUMERIC:
            values = np.array([np.nan if row[j] is None else row[j] for row in rows], dtype=np.float64)
            columns[name] = NumberColumn(values)
        else:
            columns[name] = TextColumn.of([None if row[j] is None else str(row[j]) for row in rows])
    return Columns(columns, len(rows)), declared, _data_lines(text)


def _data_lines(text: str) -> np.ndarray:
    """File line numbers of the data rows (non-blank, non-comment lines after @data)."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip().lower().startswith("@data")), len(lines))
    rows = [i + 1 for i in range(start + 1, len(lines)) if lines[i].strip() and not lines[i].lstrip().startswith("%")]
    return np.asarray(rows, dtype=np.int64)
