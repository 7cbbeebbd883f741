"""``--max-bins N``: approximate growth on quantile bins of the numeric attributes.

Contract: ``bin_table(table, n)`` returns a copy of ``table`` in which each
numeric attribute with more than ``n`` distinct values has every value
replaced by the largest training value of its bin, the bins holding about
equal numbers of rows (quantiles of the known values). A tree grown on it
can only cut between bins, so the search has at most ``n - 1`` candidate
thresholds per attribute and node instead of one per distinct value: an
approximation of the exact tree (man/dtree-performance.7), cheaper on very large tables.
``snap(root, binned)`` moves each numeric threshold down to the bin
maximum at or below it, so the model routes new (unbinned) values exactly
as its training rows were routed: ``x <= t`` holds for a value exactly
when it holds for its bin's maximum.
"""

from __future__ import annotations

import numpy as np

from dtcli.model.table import Table
from dtcli.model.tree import Node, NumericTest


def bin_codes(column: np.ndarray, labelled: np.ndarray, max_bins: int) -> tuple[np.ndarray, np.ndarray]:
    """Each value's bin (-1 where missing) and each bin's largest value, in increasing order.

    With at most ``max_bins`` distinct values every value is its own bin;
    otherwise the bins are quantiles of the labelled rows' known values.
    """
    known = ~np.isnan(column)
    distinct = np.unique(column[known & labelled])
    if len(distinct) <= max_bins:
        edges = distinct
    else:
        edges = np.unique(
            np.quantile(column[known & labelled], np.linspace(0, 1, max_bins + 1)[1:-1], method="inverted_cdf")
        )
    bins = np.searchsorted(edges, column[known], side="left")  # value <= edges[b]: bin b
    tops = np.full(len(edges) + 1, -np.inf)
    np.maximum.at(tops, bins, column[known])
    used = np.flatnonzero(tops > -np.inf)
    renumber = np.full(len(tops), -1, dtype=np.int32)
    renumber[used] = np.arange(len(used), dtype=np.int32)
    codes = np.full(len(column), -1, dtype=np.int32)
    codes[known] = renumber[bins]
    return codes, tops[used]


def bin_table(table: Table, max_bins: int) -> Table:
    columns = list(table.columns)
    labelled = table.labelled()
    for i, attribute in enumerate(table.attributes):
        if attribute.is_nominal:
            continue
        codes, tops = bin_codes(columns[i], labelled, max_bins)
        if len(tops):
            columns[i] = np.where(codes >= 0, tops[np.maximum(codes, 0)], np.nan)
    return Table(table.schema, columns, table.y, table.weights, table.source, table.sha256, table.lines, table.origin)


class BinnedView:
    """What a threshold is placed on (``Thresholds``, ``levelwise/data.py: Placer``) when an engine
    grows on bin codes: ``columns[i]`` is column ``i`` as ``bin_table`` makes it for the attributes
    in ``binned`` (made when first asked for: only attributes split on are), else the table's."""

    def __init__(self, table: Table, max_bins: int, binned):
        self.table, self.max_bins, self.binned = table, max_bins, set(binned)
        self.columns = _Columns(self)


class _Columns:
    def __init__(self, view: BinnedView):
        self.view, self.made = view, {}

    def __getitem__(self, i: int) -> np.ndarray:
        view = self.view
        if i not in view.binned:
            return view.table.columns[i]
        if i not in self.made:
            column = view.table.columns[i]
            codes, tops = bin_codes(column, view.table.labelled(), view.max_bins)
            self.made[i] = np.where(codes >= 0, tops[np.maximum(codes, 0)], np.nan) if len(tops) else column
        return self.made[i]


def snap(root: Node, binned: Table) -> Node:
    """Every numeric threshold moved down to the largest binned value not above it."""
    values: dict[str, np.ndarray] = {}
    for node in root.walk():
        test = node.test
        if not isinstance(test, NumericTest):
            continue
        name = test.attribute.name
        if name not in values:
            column = binned.columns[binned.schema.index(name)]
            values[name] = np.unique(column[~np.isnan(column)])
        at = int(np.searchsorted(values[name], test.threshold, side="right")) - 1
        if at >= 0 and values[name][at] != test.threshold:
            node.test = NumericTest(test.attribute, float(values[name][at]))
    return root
