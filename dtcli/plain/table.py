"""A small training table in plain Python lists: what ``dtree gain``'s plain path reads and scores.

``plain/read.py`` builds it from a small, plain CSV file and
``plain/report.py`` scores it, both without numpy (its import takes
about as long as the rest of a small run). It holds what ``model/table.py``'s
Table holds for such a file, with every case weight 1: a nominal column's
codes (``MISSING`` where the value is missing) into its values in order of
first appearance, a numeric column's numbers (NaN missing, infinities held as
``LARGEST``, as ``table.saturate`` holds them), and the class codes.
"""

from __future__ import annotations

from dataclasses import dataclass

MISSING = -1  # as model/table.py's


@dataclass(frozen=True)
class PlainColumn:
    """One attribute: ``values`` are a nominal attribute's labels (None: numeric), ``cells`` its codes
    or numbers, row by row."""

    name: str
    values: tuple[str, ...] | None
    cells: list

    @property
    def is_nominal(self) -> bool:
        return self.values is not None


@dataclass(frozen=True)
class PlainTable:
    """The attributes (file order, target and ignored columns left out), the target's name, its classes
    and each row's class code (``MISSING``: unlabelled)."""

    source: str
    attributes: tuple[PlainColumn, ...]
    target: str
    classes: tuple[str, ...]
    y: list[int]

    @property
    def n_rows(self) -> int:
        return len(self.y)
