"""A level's counts as sparse cells: the occupied (node, code) cells of each attribute, per partition and per shard.

A cell is a node (its place among the level's active nodes) and a code of one attribute (a nominal
value or a numeric attribute's bin; the attribute's last code, ``width - 1``, is the missing value),
with its class weights and the number of records in it. Only occupied cells exist, so a deep level
of many small nodes costs what its records cost, not nodes x bins x classes. Every weight lies on
the grid of ``constants.on_grid`` (whole cases, and fractional ones with ``--max-bins``), so sums
are exact in any order: a shard summed from its pieces of every partition holds the very numbers
one pass over the table in row order adds up.

Contract: ``cells_of`` makes one attribute's cells from records; ``pieces`` cuts a partition's cells
into the shards' node ranges; ``merged`` sums pieces; ``rows_of`` gives each node's run of cells.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

DENSE_SPAN = 1 << 22  # pieces whose keys span at most this many (or 8 per cell) are summed by key, unsorted


class Cells(NamedTuple):
    keys: np.ndarray  # int64, ascending: node * width + code
    weights: np.ndarray  # float64 (cells, classes)
    records: np.ndarray  # int64 (cells,)


class NodeOrder:
    """A level's records grouped by node (``kernels/cells.group_by_node``), made when first asked for
    and shared by every attribute's cells."""

    def __init__(self, node: np.ndarray):
        self.node, self.made = node, None

    def grouped(self) -> tuple:
        if self.made is None:
            from dtcli.induction.distributed.kernels.cells import group_by_node

            self.made = group_by_node(self.node.astype(np.int64), int(self.node.max()) + 1)
        return self.made


def cells_of(
    node: np.ndarray, codes: np.ndarray, w: np.ndarray, y: np.ndarray, width: int, n_classes: int, order=None
) -> Cells:
    """The occupied cells of records at ``node`` with ``codes`` (-1: missing, counted at ``width - 1``),
    weights ``w`` and classes ``y``; ``order`` (a ``NodeOrder`` of ``node``): many nodes are counted
    node by node in one compiled pass instead of by sorting their keys."""
    span = (int(node.max()) + 1) * width * n_classes if len(node) else 0
    if order is not None and span > 8 * len(node):
        from dtcli.induction.distributed.kernels.cells import grouped_cells

        by_node, starts = order.grouped()
        return Cells(*grouped_cells(by_node, starts, codes, w, y.astype(np.int64), width, n_classes))
    codes = np.where(codes < 0, width - 1, codes).astype(np.int64)
    full = (node.astype(np.int64) * width + codes) * n_classes + y
    if span <= 8 * len(full):  # (few nodes: counted by key directly, no sort)
        counts = np.bincount(full, minlength=span).reshape(-1, n_classes)
        sums = np.bincount(full, weights=w, minlength=span).reshape(-1, n_classes)
        records = counts.sum(axis=1)
        keys = np.flatnonzero(records)
        return Cells(keys.astype(np.int64), sums[keys], records[keys].astype(np.int64))
    distinct, inverse = np.unique(full, return_inverse=True)
    sums = np.bincount(inverse, weights=w, minlength=len(distinct))
    counts = np.bincount(inverse, minlength=len(distinct))
    keys, at = np.unique(distinct // n_classes, return_inverse=True)
    weights = np.zeros((len(keys), n_classes))
    weights[at, distinct % n_classes] = sums
    records = np.bincount(at, weights=counts, minlength=len(keys)).astype(np.int64)
    return Cells(keys, weights, records)


def pieces(cells: Cells, bounds: np.ndarray, width: int) -> list[Cells]:
    """``cells`` cut at the node ``bounds`` (ascending, from 0 to the level's active nodes): one piece
    a shard, its keys counted from the shard's first node."""
    at = np.searchsorted(cells.keys, bounds * width)
    out = []
    for r in range(len(bounds) - 1):
        lo, hi = at[r], at[r + 1]
        out.append(Cells(cells.keys[lo:hi] - bounds[r] * width, cells.weights[lo:hi], cells.records[lo:hi]))
    return out


def merged(parts: list[Cells], n_classes: int) -> Cells:
    """The sum of ``parts`` (cells of the same nodes and attribute from different partitions)."""
    parts = [p for p in parts if len(p.keys)]
    if not parts:
        return Cells(np.zeros(0, dtype=np.int64), np.zeros((0, n_classes)), np.zeros(0, dtype=np.int64))
    if len(parts) == 1:
        return parts[0]
    keys = np.concatenate([p.keys for p in parts])
    weights = np.concatenate([p.weights for p in parts])
    records = np.concatenate([p.records for p in parts])
    span = int(keys.max()) + 1
    if span <= max(DENSE_SPAN, 8 * len(keys)):  # (counted by key directly: no sort)
        counts = np.bincount(keys, weights=records, minlength=span)
        distinct = np.flatnonzero(counts)
        summed = np.zeros((len(distinct), n_classes))
        for c in range(n_classes):
            summed[:, c] = np.bincount(keys, weights=weights[:, c], minlength=span)[distinct]
        return Cells(distinct.astype(np.int64), summed, counts[distinct].astype(np.int64))
    distinct, inverse = np.unique(keys, return_inverse=True)
    summed = np.zeros((len(distinct), n_classes))
    for c in range(n_classes):
        summed[:, c] = np.bincount(inverse, weights=weights[:, c], minlength=len(distinct))
    counts = np.bincount(inverse, weights=records, minlength=len(distinct)).astype(np.int64)
    return Cells(distinct, summed, counts)


def rows_of(cells: Cells, n_nodes: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Where each of ``n_nodes`` nodes' cells start (and the end), and each cell's code."""
    starts = np.searchsorted(cells.keys, np.arange(n_nodes + 1, dtype=np.int64) * width)
    return starts, cells.keys % width


def dense(cells: Cells, n_nodes: int, width: int) -> np.ndarray:
    """The cells as a (nodes, codes, classes) array of weights (for attributes of few values)."""
    out = np.zeros((n_nodes * width, cells.weights.shape[1]))
    out[cells.keys] = cells.weights
    return out.reshape(n_nodes, width, -1)
