"""Columnar data: attributes, the schema and the table induction works on.

Nominal columns hold integer codes into the attribute's value list, with
``MISSING`` (-1) for a missing value; numeric columns hold float64 with NaN
for missing. The target is held as class codes. Every row has a float64
weight (1.0 when read from a file; C4.5 splits rows into fractions).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from dtcli.model.identifiers import IDENTIFIER_MIN_ROWS, identifies, may_identify

MISSING = -1
NOMINAL = "nominal"
NUMERIC = "numeric"
KINDS = (NOMINAL, NUMERIC)
LARGEST = float(np.finfo(np.float64).max)  # 1.7976931348623157e308: growth holds inf as this


def saturate(values: np.ndarray) -> np.ndarray:
    """``values`` with ``inf`` and ``-inf`` replaced by ``LARGEST`` and ``-LARGEST`` (NaN stays NaN;
    the array itself when none is infinite). An attribute's infinite values thus sort to their
    end, and every threshold between two of its values is a finite number."""
    if not np.isinf(values).any():
        return values
    return np.clip(values, -LARGEST, LARGEST)


class LineRun:
    """The file lines ``first``, ``first + 1``, ... of ``n`` rows in a row (a file without blank lines
    or records over several lines, the common case): two numbers instead of an array of ``n`` (on a
    million rows 4 MB less, all through training). Indexed as the array would be."""

    __slots__ = ("first", "n")

    def __init__(self, first: int, n: int):
        self.first, self.n = first, n

    @classmethod
    def of(cls, lines):
        """``lines`` as a LineRun when they follow each other, else as they are."""
        if lines is None or isinstance(lines, LineRun) or len(lines) < 2:
            return lines
        first = int(lines[0])
        if int(lines[-1]) - first == len(lines) - 1 and bool(np.all(np.diff(lines) == 1)):
            return cls(first, len(lines))
        return lines

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, rows):
        if isinstance(rows, (int, np.integer)):
            if not -self.n <= rows < self.n:
                raise IndexError(f"row {rows} of {self.n}")
            return self.first + int(rows) % self.n
        return np.arange(self.first, self.first + self.n, dtype=np.int64)[rows]

    def tolist(self) -> list[int]:
        return list(range(self.first, self.first + self.n))


BOOLEAN_WORDS = ("true", "false")


@dataclass(frozen=True)
class Attribute:
    """One column: its name, kind and (for nominal columns) its values in order; ``time``: a numeric
    column of dates, the date format they are read and printed in (``model/dates.py``), else empty."""

    name: str
    kind: str
    values: tuple[str, ...] = ()
    time: str = ""

    @property
    def is_nominal(self) -> bool:
        return self.kind == NOMINAL

    @cached_property
    def codes(self) -> dict[str, int]:
        """Each value's code (made once: attributes may have hundreds of thousands of values)."""
        codes: dict[str, int] = {}
        for code, value in enumerate(self.values):
            codes.setdefault(value, code)
        return codes

    def code_of(self, value: str) -> int:
        """The code of ``value``, or ``MISSING`` when the attribute lacks it; ``true`` and ``false`` in any
        case are the attribute's true and false (a Parquet boolean reads ``true``, pandas writes ``True``)."""
        code = self.codes.get(value, MISSING)
        if code == MISSING and isinstance(value, str) and value.lower() in BOOLEAN_WORDS:
            return self.codes.get(self.booleans.get(value.lower(), ""), MISSING)
        return code

    @cached_property
    def booleans(self) -> dict[str, str]:
        """``true``/``false`` -> the value written so in another case, when the attribute has one."""
        found: dict[str, str] = {}
        for value in self.values:
            if value.lower() in BOOLEAN_WORDS:
                found.setdefault(value.lower(), value)
        return found


@dataclass(frozen=True)
class Schema:
    """The attributes a model was trained on and its target with its classes."""

    attributes: tuple[Attribute, ...]
    target: Attribute

    @property
    def classes(self) -> tuple[str, ...]:
        return self.target.values

    @property
    def is_regression(self) -> bool:
        return self.target.kind == NUMERIC

    @cached_property
    def positions(self) -> dict[str, int]:
        """Each attribute's position by name (the first, should two share a name)."""
        positions: dict[str, int] = {}
        for i, attribute in enumerate(self.attributes):
            positions.setdefault(attribute.name, i)
        return positions

    def index(self, name: str) -> int:
        """Position of the attribute called ``name`` (KeyError if absent)."""
        return self.positions[name]


@dataclass
class Table:
    """The training or test data, column by column.

    ``columns[i]`` belongs to ``schema.attributes[i]``; ``y`` holds class
    codes (``MISSING`` where the class is unknown); ``weights`` one weight a
    row. ``source`` names where the data came from, for messages, and
    ``sha256`` fingerprints the bytes it was read from; ``lines`` holds the
    file line of each row when known (for messages); ``origin`` each row's index in the
    table as read, when a trace asks which rows reach a node (``take`` carries both).
    """

    schema: Schema
    columns: list[np.ndarray]
    y: np.ndarray
    weights: np.ndarray = field(default=None)  # type: ignore[assignment]
    source: str = "<data>"
    sha256: str = ""
    lines: np.ndarray | LineRun | None = None
    origin: np.ndarray | None = None

    def __post_init__(self) -> None:
        if self.weights is None:
            self.weights = np.ones(len(self.y), dtype=np.float64)

    @property
    def n_rows(self) -> int:
        return len(self.y)

    @property
    def attributes(self) -> tuple[Attribute, ...]:
        return self.schema.attributes

    @property
    def classes(self) -> tuple[str, ...]:
        return self.schema.classes

    @property
    def is_regression(self) -> bool:
        """True when the target is numeric (``y`` holds float values, NaN if unknown)."""
        return self.schema.is_regression

    def labelled(self) -> np.ndarray:
        """True for the rows whose target value is known."""
        return ~np.isnan(self.y) if self.is_regression else self.y != MISSING

    def missing_mask(self, i: int) -> np.ndarray:
        """True where column ``i`` has no value."""
        column = self.columns[i]
        if self.attributes[i].is_nominal:
            return column == MISSING
        return np.isnan(column)

    def take(self, rows: np.ndarray) -> Table:
        """A new table with only ``rows`` (a boolean mask or index array)."""
        if isinstance(rows, np.ndarray) and rows.dtype == bool:  # positions once, not a mask's scan a column
            rows = np.flatnonzero(rows)
        return Table(
            schema=self.schema,
            columns=[column[rows] for column in self.columns],
            y=self.y[rows],
            weights=self.weights[rows],
            source=self.source,
            sha256=self.sha256,
            lines=None if self.lines is None else self.lines[rows],
            origin=None if self.origin is None else self.origin[rows],
        )

    def saturated(self) -> Table:
        """This table with the infinite values of its numeric attributes ``saturate``d (itself when none is)."""
        numeric = [i for i, a in enumerate(self.attributes) if not a.is_nominal]
        if not any(np.isinf(self.columns[i]).any() for i in numeric):
            return self
        columns = [column if a.is_nominal else saturate(column) for a, column in zip(self.attributes, self.columns)]
        return Table(self.schema, columns, self.y, self.weights, self.source, self.sha256, self.lines, self.origin)

    def where(self, row: int) -> str:
        """Where row ``row`` (0-based) is in the file: ``line 12``, or ``row 11``."""
        if self.lines is not None:
            return f"line {int(self.lines[row])}"
        return f"row {row + 1}"

    def class_counts(self) -> np.ndarray:
        """Weighted count of each class over the rows whose class is known
        (for regression: a single entry, the total weight of the labelled rows)."""
        if self.is_regression:
            return np.array([self.weights[self.labelled()].sum()], dtype=np.float64)
        known = self.y != MISSING
        return np.bincount(self.y[known], weights=self.weights[known], minlength=len(self.classes)).astype(np.float64)


def identifier_columns(table: Table) -> list[tuple[str, int, int]]:
    """The nominal attributes with a distinct value on (nearly) every row, as an identifier has, or on
    more than half the rows (``identifiers.identifies``):
    ``(name, distinct values, rows with a value)`` for each, in column order (Mitchell §3.7.3:
    gain favours such attributes, the "Date" example). One bincount per column that can qualify."""
    found = []
    for attribute, column in zip(table.attributes, table.columns):
        if not attribute.is_nominal or len(attribute.values) < IDENTIFIER_MIN_ROWS:
            continue
        known = column[column != MISSING]
        if not may_identify(len(attribute.values), len(known)):
            continue
        distinct = int(np.count_nonzero(np.bincount(known, minlength=len(attribute.values))))
        if identifies(distinct, len(known)):
            found.append((attribute.name, distinct, len(known)))
    return found
