"""What the compiled CART builders set up alike before growing (numba).

The arena of rows and sorted lists a node owns segments of, its scratch buffers, the tree's
arrays and the frontier's helpers shared by the classification (``grow.py``) and regression
(``regress.py``) builders."""

from __future__ import annotations

import numpy as np

from dtcli.induction.cart.kernels.fraction import roomy
from dtcli.induction.cart.kernels.frontier import take
from dtcli.induction.cart.kernels.state import Arena, Build, Node
from dtcli.induction.cart.kernels.tree import tree_arrays, undo
from dtcli.induction.kernels.arrays import copy_into
from dtcli.induction.kernels.jit import kernel


@kernel
def _arena(data, room, targets, unit):
    """The rows (with their nominal codes, ``targets`` and weights) and each numeric list (with its
    value ranks, targets and weights unless ``unit``: every weight 1), partitioned as the tree
    grows so that a node reads its rows in order; and scratch buffers of the same layout."""
    n, n_numeric, size = data.y.shape[0], data.lists.shape[0], targets.shape[0]
    # the glue's arrays, or copies with room for fractional cases
    codes, lists, ranks = (
        roomy(data.nominal, data.lists, data.ranks, size) if room.fractional else (data.nominal, data.lists, data.ranks)
    )
    if unit and not room.fractional:
        weights = data.w  # every weight 1: never moved, so read where it is (8 MB less on a million rows)
    else:
        weights = np.zeros(size)
        copy_into(weights[:n], data.w)
    list_targets = np.empty((n_numeric, size), dtype=targets.dtype)
    list_weights = np.empty((n_numeric, 1 if unit else size))
    for s in range(n_numeric):
        for i in range(data.lengths[s]):
            r = lists[s, i]
            list_targets[s, i] = targets[r]
            if not unit:
                list_weights[s, i] = weights[r]
    # row numbers in 4 bytes, as the sorted lists hold them (the glue's tables have fewer than 2**31 rows)
    arena = Arena(np.arange(size, dtype=np.int32), codes, targets, weights, lists, ranks, list_targets, list_weights)
    scratch = Arena(
        np.empty(size, dtype=np.int32),
        np.empty((1, size), dtype=codes.dtype),
        np.empty(size, dtype=targets.dtype),
        np.empty(size),
        np.empty((1, size), dtype=lists.dtype),
        np.empty((1, size), dtype=ranks.dtype),
        np.empty((1, size), dtype=targets.dtype),
        np.empty((1, 1 if unit else size)),
    )
    return arena, scratch


@kernel
def new_build(data, columns, stopping, room, targets, unit, n_classes):
    """The ``state.Build`` of a tree over ``data`` (a ``state.Sorted``), ``targets`` being the rows'
    class codes or numbers with room for fractional cases (``room``)."""
    n = data.y.shape[0]
    arena, scratch = _arena(data, room, targets, unit)
    tree, widest = tree_arrays(room.nodes if room.fractional else 2 * n + 1, columns.is_nominal, columns.n_values)
    tops = np.zeros(data.lists.shape[0] + 1, dtype=np.int64)  # fractional cases: the used part of each array
    tops[0] = n
    copy_into(tops[1:], data.lengths)
    side = np.zeros(n, dtype=np.int8)
    best_first = stopping.max_leaves > 0
    hist = np.zeros((max(widest, 1), n_classes))
    chosen = np.zeros(widest, dtype=np.bool_)
    return Build(arena, scratch, columns, tree, side, tops, room, unit, best_first, stopping, chosen, hist)


@kernel
def expand(frontier, build, leaves, n_nodes, status):
    """The next node to expand, out of the frontier, and whether it may split: best first, not when
    the leaves are all used (every split adds one; the node is a leaf again). Reports the node's
    depth, the nodes so far and the rows expanded so far in ``status`` (read by the glue)."""
    node = take(frontier, build.best_first, -1)
    status[0], status[1], status[2] = node.depth, n_nodes, status[2] + node.re - node.rs
    if build.best_first and leaves + 1 > build.stopping.max_leaves:
        undo(build.tree, node.id)
        return node, False
    return node, True


@kernel
def child(c0, b, lo, hi, list_lo, list_hi, depth, n_const):
    """Child ``b`` of a node split at depth ``depth`` (``partition.split_children``'s bounds)."""
    return Node(c0 + b, lo[b], hi[b], depth + 1, n_const, list_lo[b].copy(), list_hi[b].copy())


@kernel
def with_const(node, n_const):
    """``node`` knowing ``n_const`` constant attributes."""
    return Node(node.id, node.rs, node.re, node.depth, n_const, node.ls, node.le)


@kernel
def nonempty(lo, hi):
    """The children (``partition.split_children``'s bounds) holding entries, the last first."""
    out = np.empty(2, dtype=np.int64)
    k = 0
    for b in (1, 0):
        if hi[b] > lo[b]:
            out[k] = b
            k += 1
    return out[:k]
