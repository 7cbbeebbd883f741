"""A level's sparse cells counted node by node, without sorting the records (numba; ``cells.py`` says what a cell is).

``group_by_node`` lists a partition's records node by node (a counting sort: two passes over them);
``grouped_cells`` then visits each node's records once, adding each record's weight to its code's
cell in a scratch row of the attribute's width, and writes the node's occupied cells in code order
(only the codes the node touched are sorted and cleared). The cells are those ``cells.cells_of``
makes by sorting keys; every weight lies on the grid, so each cell's sums are the same in any order.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.kernels.jit import kernel


@kernel
def group_by_node(node, n_nodes):
    """(records in node order, each node's first position and the end)."""
    starts = np.zeros(n_nodes + 1, dtype=np.int64)
    for r in range(node.shape[0]):
        starts[node[r] + 1] += 1
    for k in range(n_nodes):
        starts[k + 1] += starts[k]
    order = np.empty(node.shape[0], dtype=np.int64)
    filled = starts[:-1].copy()
    for r in range(node.shape[0]):
        k = node[r]
        order[filled[k]] = r
        filled[k] += 1
    return order, starts


@kernel
def grouped_cells(order, starts, codes, w, y, width, n_classes):
    """(keys node x width + code ascending, class weights, record counts) of the occupied cells; a
    missing code (negative) is counted at ``width - 1``."""
    n = order.shape[0]
    keys = np.empty(n, dtype=np.int64)
    weights = np.zeros((n, n_classes))
    records = np.zeros(n, dtype=np.int64)
    scratch = np.zeros((width, n_classes))
    seen = np.zeros(width, dtype=np.int64)
    touched = np.empty(width, dtype=np.int64)
    out = 0
    for k in range(starts.shape[0] - 1):
        n_touched = 0
        for p in range(starts[k], starts[k + 1]):
            r = order[p]
            c = codes[r]
            if c < 0:
                c = width - 1
            if seen[c] == 0:
                touched[n_touched] = c
                n_touched += 1
            seen[c] += 1
            scratch[c, y[r]] += w[r]
        here = np.sort(touched[:n_touched])
        for j in range(n_touched):
            c = here[j]
            keys[out] = k * width + c
            for q in range(n_classes):
                weights[out, q] = scratch[c, q]
                scratch[c, q] = 0.0
            records[out] = seen[c]
            seen[c] = 0
            out += 1
    return keys[:out].copy(), weights[:out].copy(), records[:out].copy()
