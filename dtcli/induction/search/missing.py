"""Missing values during growth: C4.5's fractional cases and Mitchell's fill-ins.

``partition`` sends a node's rows down the branches of a test. A row whose
tested value is missing goes down every branch, its weight multiplied by
the branch's share of the known weight (Quinlan 1993); branches with no
known weight get none of it.

``fill_missing`` implements Mitchell §3.7.4 for the ``majority`` and
``class-majority`` policies of ID3 and C4.5 (CART's ``majority`` instead
sends the case down the heavier branch of the chosen split). At each node,
each attribute's missing values among the node's rows become the value
with the most weight among the node's rows that know it (``class-majority``:
among those of the same class; a class with no such row takes the node's
overall value); ties go to the first value in declared order (the smallest
number). The node's split is chosen on these filled rows and each row goes
down the branch of its filled value, but the child receives the row as it
was: its other missing values are filled again from the child's rows. An
attribute with no known value among the node's rows stays missing there
and is no candidate (no two branches hold cases).

``filled_at_root`` is the older whole-table fill (``root-majority``,
``root-class-majority``): the rule above applied once to all labelled rows
before growth, so the children inherit the filled values. Numeric
attributes are filled with their most common value too (Weka's
ReplaceMissingValues filter, which fills whole tables the same way, uses the
mean for numeric attributes).
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.criteria.constants import gr, on_grid
from dtcli.induction.names import MISSING_POLICIES
from dtcli.model.table import MISSING, Table

POLICIES = MISSING_POLICIES  # --missing (induction/names.py)
NODE_FILL = ("majority", "class-majority")  # filled at every node (ID3 and C4.5; CART's majority is not a fill)
ROOT_FILL = {"root-majority": "majority", "root-class-majority": "class-majority"}  # filled once, before growth
FILL = (*NODE_FILL, *ROOT_FILL)  # every policy that fills values in (prediction: the heaviest branch)


def partition(
    rows: Table, index: int, test, heavier: bool = False, filled: Table | None = None, grid: bool = False
) -> list[Table]:
    """One Table per branch of ``test`` (on column ``index``).

    Missing values are spread fractionally, or (``heavier``, CART's
    ``majority``) all sent down the branch with the most known weight.
    ``filled`` (the node's rows as ``fill_missing`` filled them): each row goes
    down the branch of its filled value, and the branches get the rows of
    ``rows`` (their other missing values kept).
    """
    branch = test.route((rows if filled is None else filled).columns[index])
    missing = branch == MISSING
    known_sizes = np.bincount(branch[~missing], weights=rows.weights[~missing], minlength=test.n_branches)
    total = known_sizes.sum()
    shares = known_sizes / total if total > 0 else np.full(test.n_branches, 1.0 / test.n_branches)
    if heavier:
        shares = np.zeros(test.n_branches)
        shares[int(np.argmax(known_sizes))] = 1.0
    return spread(rows, branch, shares, test.n_branches, grid)


def spread(rows: Table, branch: np.ndarray, shares: np.ndarray, n_branches: int, grid: bool = False) -> list[Table]:
    """The rows of each branch; a row with no branch (missing) joins every branch whose share
    exceeds 1e-6, its weight multiplied by that share (C4.5, as J48 splits instances); with
    ``grid`` (``--max-bins``) the product is rounded to the grid of ``constants.on_grid``, so
    that every sum of weights is exact in any order (the Dask engine's partitions)."""
    parts = []
    for positions, weights in spread_positions(rows.weights, branch, shares, n_branches, grid):
        part = rows.take(positions)
        part.weights = weights
        parts.append(part)
    return parts


def spread_positions(
    weights: np.ndarray, branch: np.ndarray, shares: np.ndarray, n_branches: int, grid: bool = False
) -> list[tuple[np.ndarray, np.ndarray]]:
    """``spread`` on positions: for each branch, the positions of its rows (in order) and their weights
    (``weights`` of the rows routed to ``branch``; a missing one's multiplied by the branch's share)."""
    missing = branch == MISSING
    spreads = bool(missing.any())
    parts = []
    for b in range(n_branches):
        here = branch == b
        if spreads and gr(shares[b], 0.0):
            positions = np.flatnonzero(here | missing)
            part = weights[positions]
            fractional = part * shares[b]
            part = np.where(missing[positions], on_grid(fractional) if grid else fractional, part)
        else:
            positions = np.flatnonzero(here)
            part = weights[positions]
        parts.append((positions, part))
    return parts


def fill_missing(rows: Table, policy: str) -> Table:
    """``rows`` (a node's rows) with missing attribute values filled in from these rows (the
    per-node policies ``majority``, ``class-majority``), else unchanged."""
    if policy not in NODE_FILL:
        return rows
    columns = list(rows.columns)
    changed = False
    for i, column in enumerate(columns):
        missing = rows.missing_mask(i)
        if not missing.any() or missing.all():
            continue
        changed = True
        column = column.copy()
        if policy == "majority":
            column[missing] = _mode(column[~missing], rows.weights[~missing])
        else:
            for cls in np.unique(rows.y[missing]):
                donors = ~missing & (rows.y == cls)
                pool = donors if donors.any() else ~missing
                column[missing & (rows.y == cls)] = _mode(column[pool], rows.weights[pool])
        columns[i] = column
    if not changed:
        return rows
    filled = rows.take(np.arange(rows.n_rows))
    filled.columns = columns
    return filled


def _mode(values: np.ndarray, weights: np.ndarray):
    """The value with the most weight; ties go to the smallest code or number."""
    unique, inverse = np.unique(values, return_inverse=True)
    totals = np.bincount(inverse, weights=weights)
    return unique[int(np.argmax(totals))]


def unfillable(table: Table) -> bool:
    """Whether some attribute has no value in any labelled row."""
    labelled = table.labelled()
    return any(table.missing_mask(i)[labelled].all() for i in range(len(table.attributes)))


def filled_at_root(table: Table, policy: str) -> Table:
    """``table`` with its labelled rows' missing values filled in once, before growth, for
    ``root-majority`` and ``root-class-majority`` (``fill_missing`` over all labelled rows);
    the children inherit the filled values. Other policies: ``table`` itself."""
    if policy not in ROOT_FILL:
        return table
    labelled = np.flatnonzero(table.labelled())
    root = fill_missing(table.take(labelled), ROOT_FILL[policy])
    filled = table.take(np.arange(table.n_rows))
    for i, column in enumerate(root.columns):
        filled.columns[i][labelled] = column
    return filled
