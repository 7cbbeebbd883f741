"""Read an attribute-cost file: CSV with the columns ``attribute,cost``."""

from __future__ import annotations

import csv
import io
import math

from dtcli.errors import DataError
from dtcli.io.source import COSTS, read_text
from dtcli.model.colnames import find, missing_text


def read_costs(path: str, attributes: list[str]) -> dict[str, float]:
    """Costs by attribute; every name must be an attribute, every cost a finite number (not
    ``nan``, ``inf`` or a number beyond the 64-bit range such as ``1e400``)."""
    text = read_text(path, COSTS)
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        raise DataError(f"{path}: empty cost file; give lines 'attribute,cost'")
    start = 1 if [c.strip().lower() for c in rows[0]] == ["attribute", "cost"] else 0
    costs: dict[str, float] = {}
    for line, row in enumerate(rows[start:], start=start + 1):
        if not row or not "".join(row).strip():
            continue
        if len(row) != 2:
            raise DataError(f"{path}, line {line}: expected 'attribute,cost', found {len(row)} fields")
        name, value = row[0].strip(), row[1].strip()
        found = find(name, attributes)
        if found is None:
            listing = missing_text(name, attributes, "attribute")
            raise DataError(f"{path}, line {line}: no attribute {name!r}; {listing}")
        try:
            costs[found] = float(value)
        except ValueError:
            raise DataError(f"{path}, line {line}: cost {value!r} is not a number") from None
        if not math.isfinite(costs[found]):
            raise DataError(f"{path}, line {line}: cost {value!r} is not a finite number; give a number such as 2.5")
    return costs
