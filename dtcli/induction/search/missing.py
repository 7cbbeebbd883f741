"""Missing values during growth: C4.5's fractional cases and Mitchell's fill-ins.

``partition`` sends a node's rows down the branches of a test. A row whose
tested value is missing goes down every branch, its weight multiplied by
the branch's share of the known weight (Quinlan 1993); branches with no
known weight get none of it.

``fill_missing`` implements Mitchell §3.7.4 for the ``majority`` and
``class-majority`` policies of ID3 and C4.5 (CART's ``majority`` instead
sends the case down the heavier branch of the chosen split): at each node, a missing value becomes the most
common value among the node's rows (of the same class, for
``class-majority``), ties to the first value in order (the smallest number).
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.criteria.constants import gr
from dtcli.model.table import MISSING, Table

POLICIES = ("reject", "fractional", "majority", "class-majority")


def partition(rows: Table, index: int, test, heavier: bool = False) -> list[Table]:
    """One Table per branch of ``test`` (on column ``index``).

    Missing values are spread fractionally, or (``heavier``, CART's
    ``majority``) all sent down the branch with the most known weight.
    """
    branch = test.route(rows.columns[index])
    missing = branch == MISSING
    known_sizes = np.bincount(branch[~missing], weights=rows.weights[~missing], minlength=test.n_branches)
    total = known_sizes.sum()
    shares = known_sizes / total if total > 0 else np.full(test.n_branches, 1.0 / test.n_branches)
    if heavier:
        shares = np.zeros(test.n_branches)
        shares[int(np.argmax(known_sizes))] = 1.0
    return spread(rows, branch, shares, test.n_branches)


def spread(rows: Table, branch: np.ndarray, shares: np.ndarray, n_branches: int) -> list[Table]:
    """The rows of each branch; a row with no branch (missing) joins every branch whose share
    exceeds 1e-6, its weight multiplied by that share (C4.5, as J48 splits instances)."""
    missing = branch == MISSING
    parts = []
    for b in range(n_branches):
        here = branch == b
        if missing.any() and gr(shares[b], 0.0):
            take = here | missing
            part = rows.take(take)
            part.weights = np.where(missing[take], part.weights * shares[b], part.weights)
        else:
            part = rows.take(here)
        parts.append(part)
    return parts


def fill_missing(rows: Table, policy: str) -> Table:
    """``rows`` with missing attribute values filled in (majority policies), else unchanged."""
    if policy not in ("majority", "class-majority"):
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
    """``table`` with its labelled rows' missing values filled in by ``policy`` (``majority``,
    ``class-majority``) as the per-node grower fills them at the root (``fill_missing``
    over the labelled rows); the children inherit the filled values, so no node below has any
    to fill. Other policies: ``table`` itself."""
    if policy not in ("majority", "class-majority"):
        return table
    labelled = np.flatnonzero(table.labelled())
    root = fill_missing(table.take(labelled), policy)
    filled = table.take(np.arange(table.n_rows))
    for i, column in enumerate(root.columns):
        filled.columns[i][labelled] = column
    return filled
