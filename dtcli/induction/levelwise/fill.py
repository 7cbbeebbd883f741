"""The level-wise engine's per-node fill-in of missing values (``--missing majority``, ``class-majority``).

The per-node reference (``search/missing.py``) fills each node's missing
values from that node's rows, chooses the split on the filled rows and
sends each row down the branch of its filled value, with its other values
still missing. With these policies no row is ever split into fractions, so
at each level every row is at most one record, at one node. ``NodeFill``
keeps the original values of the columns that have missing values and, per
level, writes into the engine's own copy of the column blocks each missing
value's fill for the record's current node: one grouped count (node, or
node and class, by value) and its maximum per group, ties to the smallest
value (the first in declared order), summed in record order, which is the
reference's row order. The kernels then count and route on the filled
blocks. A numeric attribute with missing values gets a fresh sorted list
each level (its filled values move as the nodes change), instead of the
list carried down.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.levelwise.data import Columns, rank_type
from dtcli.induction.levelwise.kernels.state import SortedList


class NodeFill:
    """The original values of the columns with missing values, and the per-level fill-in."""

    def __init__(self, columns: Columns, policy: str, n_classes: int):
        self.columns, self.by_class, self.n_classes = columns, policy == "class-majority", n_classes
        self.missing, self.original, self.distinct = {}, {}, {}
        for i, nominal in enumerate(columns.is_nominal):
            column = self._column(i)
            mask = column < 0 if nominal else np.isnan(column)
            if mask.any():
                self.missing[i], self.original[i] = mask, column.copy()
                if not nominal:
                    self.distinct[i] = np.unique(column[~mask])

    def _column(self, i: int) -> np.ndarray:
        block = self.columns.nominal if self.columns.is_nominal[i] else self.columns.numeric
        return block[self.columns.slot[i]]

    @property
    def numeric(self) -> list[int]:
        """The numeric attributes whose sorted lists ``refill`` makes (not carried down)."""
        return list(self.distinct)

    def refill(self, recs, n_nodes: int) -> dict:
        """Fill the frontier's missing values in for its nodes; the rebuilt sorted lists."""
        lists = {}
        for i, mask in self.missing.items():
            nominal = i not in self.distinct
            values = self.original[i][recs.row]
            known = ~mask[recs.row]
            index = values if nominal else np.searchsorted(self.distinct[i], values)
            n_index = max(len(self.distinct[i]) if not nominal else int(self.columns.n_values[i]), 1)
            fill = self._fills(recs, known, index, n_index, n_nodes)
            column = self._column(i)
            holes = recs.row[~known]
            if nominal:
                column[holes] = fill
            else:
                column[holes] = np.append(self.distinct[i], np.nan)[fill]  # (-1: NaN, none known)
                lists[i] = self._sorted(recs, column, self.distinct[i], n_nodes)
        return lists

    def _fills(self, recs, known, index, n_index: int, n_nodes: int) -> np.ndarray:
        """The fill (a value index, -1: none known at the node) of each record whose value is missing."""
        node, y, w = recs.node[known], recs.y[known], recs.w[known]
        overall = np.full(n_nodes, -1, dtype=np.int64)
        groups, best = modes(node, index[known], w, n_index)
        overall[groups] = best
        missing = ~known
        fill = overall[recs.node[missing]]
        if self.by_class:
            C = self.n_classes
            by_class = np.full(n_nodes * C, -1, dtype=np.int64)
            groups, best = modes(node.astype(np.int64) * C + y, index[known], w, n_index)
            by_class[groups] = best
            own = by_class[recs.node[missing].astype(np.int64) * C + recs.y[missing]]
            fill = np.where(own >= 0, own, fill)
        return fill

    @staticmethod
    def _sorted(recs, column: np.ndarray, distinct: np.ndarray, n_nodes: int) -> SortedList:
        """The level's sorted list of a filled numeric column: its records with a value, by node,
        then by value, ties in record order (as ``data.sorted_list`` and the carried lists)."""
        values = column[recs.row]
        rec = np.flatnonzero(~np.isnan(values))
        ranks = np.searchsorted(distinct, values[rec]).astype(rank_type(len(distinct)))
        order = np.lexsort((rec, ranks, recs.node[rec]))
        rec, ranks = rec[order], ranks[order]
        starts = np.searchsorted(recs.node[rec], np.arange(n_nodes + 1)).astype(np.int32)
        return SortedList(ranks, starts, rec.astype(np.int32))


def modes(groups: np.ndarray, index: np.ndarray, weights: np.ndarray, n_index: int):
    """Per group present: the value index with the most weight (ties: the smallest), weights
    summed in the order given (as ``missing._mode`` sums a node's rows)."""
    key = groups.astype(np.int64) * n_index + index
    unique, inverse = np.unique(key, return_inverse=True)
    totals = np.bincount(inverse.ravel(), weights=weights, minlength=len(unique))
    group = unique // n_index
    order = np.lexsort((unique, -totals, group))
    first = order[np.r_[True, group[order][1:] != group[order][:-1]]] if len(order) else order
    return group[first], unique[first] % n_index
