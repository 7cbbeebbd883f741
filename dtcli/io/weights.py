"""The --weights column of a table as read: each row's case weight, checked; and a table without some rows."""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from dtcli.errors import DataError
from dtcli.io.columns import Columns, NumberColumn, TextColumn
from dtcli.io.read import RawData


def weight_cells(raw: RawData, name: str, target: str, origin: str = "--weights") -> np.ndarray:
    """The numbers of the column ``name`` (named by ``origin``), one a row: DataError naming the line of the
    first missing, non-numeric, negative, NaN or infinite weight."""
    if name not in raw.frame:
        columns = ", ".join(map(str, raw.frame.columns))
        raise DataError(f"{raw.source}: no column {name!r} (from {origin}); columns are: {columns}")
    if name == target:
        raise DataError(f"{raw.source}: --weights {name!r} is the target column; give a column of case weights")
    column = raw.frame[name]
    if isinstance(column, NumberColumn):
        weights = np.asarray(column.values, dtype=np.float64)
        cells = None
    else:
        cells = column.uniques
        numbers = np.array([_number(cell) for cell in cells] + [math.nan], dtype=np.float64)
        weights = numbers[np.asarray(column.codes, dtype=np.int64)]  # (code -1: the NaN at the end)
    bad = ~np.isfinite(weights) | (weights < 0)
    if bad.any():
        row = int(np.argmax(bad))
        where = f"line {int(raw.lines[row])}" if raw.lines is not None else f"row {row + 1}"
        cell = None if cells is None else column.cell(row)
        why = _why(float(weights[row]), cell)
        raise DataError(f"{raw.source}: {where}: {why} in column {name!r} ({origin}); give every row a finite "
                        "weight of at least 0 (0 leaves the row out)")  # fmt: skip
    return weights


def _number(cell) -> float:
    try:
        return float(cell)
    except (TypeError, ValueError):
        return math.nan


def _why(weight: float, cell) -> str:
    if cell is not None and math.isnan(_number(cell)) and cell.strip().lower() != "nan":
        return f"the weight {cell!r} is not a number"
    if math.isnan(weight):
        return "no weight" if cell is None else "the weight is NaN"
    return f"the weight {weight:g} is {'infinite' if math.isinf(weight) else 'negative'}"


def kept_rows(raw: RawData, kept: np.ndarray) -> RawData:
    """``raw`` with only the rows where ``kept`` is True (their text cells' distinct values again in order
    of first appearance among them, as a reader of those rows alone would give them)."""
    data = {}
    for name in raw.frame.columns:
        column = raw.frame[name]
        if isinstance(column, NumberColumn):
            data[name] = NumberColumn(column.values[kept])
            continue
        codes = np.asarray(column.codes)[kept].astype(np.int64)
        present = codes >= 0
        seen, first = np.unique(codes[present], return_index=True)
        order = seen[np.argsort(first, kind="stable")]  # old codes in order of first appearance
        renumber = np.full(len(column.uniques) + 1, -1, dtype=np.int64)
        renumber[order] = np.arange(len(order))
        new = np.where(present, renumber[codes], -1).astype(np.int32)
        data[name] = TextColumn(new, [column.uniques[int(k)] for k in order])
    lines = None if raw.lines is None else raw.lines[kept]
    return dataclasses.replace(raw, frame=Columns(data, int(kept.sum())), lines=lines, raw=None)
