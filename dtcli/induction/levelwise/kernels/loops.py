"""Compiled loops of the level-wise engine (numba; imported only when the engine runs).

Every kernel works on one level of the tree at once. The rows at a level are
*records* ``(row, weight, node)``: a row whose tested value was missing is
one record in each branch it went down (C4.5's fractional cases). Records of
one node appear in row order, and each numeric attribute keeps a list of
record ids sorted by value (SLIQ), so a scan of that list visits every
node's values in sorted order at once. The arithmetic is written exactly as
the per-node reference (``numeric.c45_cut``, ``c45.c45_gain``) does it, in
the same order, so both give the same trees.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.criteria.constants import SMALL
from dtcli.induction.kernels.arrays import copy_into
from dtcli.induction.kernels.jit import kernel
from dtcli.induction.levelwise.kernels.bins import c45_binned  # noqa: F401
from dtcli.induction.levelwise.kernels.c45 import c45_gain, c45_numeric, c45_ratio, c45_select  # noqa: F401
from dtcli.induction.levelwise.kernels.id3 import id3_contested, id3_numeric, id3_select  # noqa: F401
from dtcli.induction.levelwise.kernels.nominal import C45, c45_nominal_splits, nominal_splits  # noqa: F401
from dtcli.induction.levelwise.kernels.state import Records, SortedList


@kernel
def class_counts(recs, n_nodes, n_classes):
    """Weighted class counts of every node (records summed in order)."""
    counts = np.zeros((n_nodes, n_classes))
    for r in range(recs.y.shape[0]):
        counts[recs.node[r], recs.y[r]] += recs.w[r]
    return counts


@kernel
def route(recs, split_attr, thresholds, n_branches, blocks):
    """Branch of each record at its node's test (-1: missing value, -2: node not split) and the
    known weight each branch receives. ``blocks``: the columns (``state.Blocks``)."""
    rec_row, rec_w, rec_node = recs.row, recs.w, recs.node
    is_nominal, slot, nominal_cols, numeric_cols = blocks.is_nominal, blocks.slot, blocks.nominal, blocks.numeric
    n = rec_row.shape[0]
    branch = np.full(n, -2, dtype=np.int32)
    widest = 0  # (a loop: numba's ndarray.max() compiles for about 2 s of a first run)
    for k in range(n_branches.shape[0]):
        widest = max(widest, n_branches[k])
    sizes = np.zeros((split_attr.shape[0], widest))
    for r in range(n):
        k = rec_node[r]
        a = split_attr[k]
        if a < 0:
            continue
        if is_nominal[a]:
            b = nominal_cols[slot[a], rec_row[r]]
        else:
            value = numeric_cols[slot[a], rec_row[r]]
            b = -1 if np.isnan(value) else (0 if value <= thresholds[k] else 1)
        branch[r] = b
        if b >= 0:
            sizes[k, b] += rec_w[r]
    return branch, sizes


MASK = (1 << 32) - 1


@kernel
def _starts(counts, n_children):
    """Where each child's entries begin when they are laid out child after child, and the total."""
    position = np.zeros(n_children, dtype=np.int64)
    total = 0
    for c in range(n_children):
        position[c] = total
        total += counts[c]
    return position, total


@kernel
def spread(recs, branch, shares, child_base, n_children, scale):
    """The next level's records, grouped by node (each node's records in row order): a known
    record goes to its branch; a missing one to every branch whose share exceeds 1e-6, its weight
    times the share (``scale`` > 0, ``--max-bins``: rounded to a multiple of 1 / scale, as
    ``constants.on_grid`` rounds it).

    ``dest[r]`` tells where old record ``r`` went, in one 8-byte word so that
    carrying a sorted list down costs one look-up an entry: ``new << 32 |
    node`` for a record that went down one branch unchanged, -1 for one
    whose node stopped, ``-2 - d`` for a case with a missing value, whose
    copies are listed at ``dups[d]`` (how many, then the new records).
    """
    rec_row, rec_y, rec_w, rec_node = recs
    n = rec_row.shape[0]
    n_branches = shares.shape[1]
    counts = np.zeros(n_children + 1, dtype=np.int64)
    n_dups = 0
    for r in range(n):
        b = branch[r]
        k = rec_node[r]
        if b >= 0:
            counts[child_base[k] + b] += 1
        elif b == -1:
            n_dups += 1
            for j in range(n_branches):
                if shares[k, j] > SMALL:
                    counts[child_base[k] + j] += 1
                    n_dups += 1
    position, total = _starts(counts, n_children)
    new_row = np.empty(total, dtype=rec_row.dtype)
    new_y = np.empty(total, dtype=rec_y.dtype)
    new_w = np.empty(total)
    new_node = np.empty(total, dtype=rec_node.dtype)
    dest = np.full(n, -1, dtype=np.int64)
    dups = np.empty(n_dups, dtype=np.int64)
    d = 0
    for r in range(n):
        b = branch[r]
        k = rec_node[r]
        if b >= 0:
            c = child_base[k] + b
            i = position[c]
            position[c] += 1
            new_row[i], new_y[i], new_w[i], new_node[i] = rec_row[r], rec_y[r], rec_w[r], c
            dest[r] = (i << 32) | c
        elif b == -1:
            dest[r] = -2 - d
            head = d
            dups[head] = 0
            d += 1
            for j in range(n_branches):
                if shares[k, j] > SMALL:
                    c = child_base[k] + j
                    i = position[c]
                    position[c] += 1
                    new_row[i], new_y[i], new_node[i] = rec_row[r], rec_y[r], c
                    new_w[i] = rec_w[r] * shares[k, j]
                    if scale > 0.0:
                        new_w[i] = np.rint(new_w[i] * scale) / scale
                    dups[d] = i
                    d += 1
                    dups[head] += 1
    return Records(new_row, new_y, new_w, new_node), dest, dups


@kernel
def expand(lst, dest, dups, new_node, n_children):
    """A sorted record list carried to the next level: grouped by the new nodes, each node's
    entries still in value order (a stable partition of each old node's block). ``starts``:
    where each node's block begins (and the end), old and returned new."""
    sv, sr = lst.values, lst.rec
    counts = np.zeros(n_children + 1, dtype=np.int64)
    for j in range(sr.shape[0]):
        e = dest[sr[j]]
        if e >= 0:
            counts[e & MASK] += 1
        elif e <= -2:
            d = -2 - e
            for m in range(1, dups[d] + 1):
                counts[new_node[dups[d + m]]] += 1
    position, total = _starts(counts, n_children)
    new_starts = np.empty(n_children + 1, dtype=np.int32)  # (fewer entries than 2**31: record ids are int32)
    copy_into(new_starts[:n_children], position)
    new_starts[n_children] = total
    ov = np.empty(total, dtype=sv.dtype)
    orr = np.empty(total, dtype=np.int32)
    for j in range(sr.shape[0]):
        e = dest[sr[j]]
        if e >= 0:
            c = e & MASK
            i = position[c]
            position[c] += 1
            ov[i], orr[i] = sv[j], e >> 32
        elif e <= -2:
            d = -2 - e
            for m in range(1, dups[d] + 1):
                new = dups[d + m]
                c = new_node[new]
                i = position[c]
                position[c] += 1
                ov[i], orr[i] = sv[j], new
    return SortedList(ov, new_starts, orr)
