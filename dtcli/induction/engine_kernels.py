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
from numba import njit

from dtcli.induction.engine_c45 import (  # noqa: F401
    SMALL,
    c45_gain,
    c45_nominal,
    c45_numeric,
    c45_ratio,
    c45_select,
)


@njit(cache=True, nogil=True)
def class_counts(rec_y, rec_w, rec_node, n_nodes, n_classes):
    """Weighted class counts of every node (records summed in order)."""
    counts = np.zeros((n_nodes, n_classes))
    for r in range(rec_y.shape[0]):
        counts[rec_node[r], rec_y[r]] += rec_w[r]
    return counts


@njit(cache=True, nogil=True)
def nominal_counts(codes, rec_row, rec_y, rec_w, rec_node, active, n_values, n_classes):
    """(node, value, class) weights of the records with a known value, for the active nodes."""
    counts = np.zeros((active.shape[0], n_values, n_classes))
    for r in range(rec_row.shape[0]):
        k = rec_node[r]
        if not active[k]:
            continue
        v = codes[rec_row[r]]
        if v >= 0:
            counts[k, v, rec_y[r]] += rec_w[r]
    return counts


@njit(cache=True, nogil=True)
def route(rec_row, rec_w, rec_node, split_attr, is_nominal, thresholds, n_branches, nominal_cols,
          numeric_cols, slot):
    """Branch of each record at its node's test (-1: missing value, -2: node not split) and the
    known weight each branch receives."""
    n = rec_row.shape[0]
    branch = np.full(n, -2, dtype=np.int64)
    sizes = np.zeros((split_attr.shape[0], n_branches.max()))
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


@njit(cache=True, nogil=True)
def spread(rec_row, rec_y, rec_w, rec_node, branch, shares, child_base):
    """The next level's records: a known record goes to its branch; a missing one to every branch
    whose share exceeds 1e-6, its weight times the share. Also each old record's first new record
    and how many it became (for the sorted lists)."""
    n = rec_row.shape[0]
    n_branches = shares.shape[1]
    first = np.zeros(n, dtype=np.int64)
    count = np.zeros(n, dtype=np.int64)
    total = 0
    for r in range(n):
        b = branch[r]
        first[r] = total
        if b >= 0:
            count[r] = 1
        elif b == -1:
            k = rec_node[r]
            for j in range(n_branches):
                if shares[k, j] > SMALL:
                    count[r] += 1
        total += count[r]
    new_row = np.empty(total, dtype=np.int64)
    new_y = np.empty(total, dtype=np.int64)
    new_w = np.empty(total)
    new_node = np.empty(total, dtype=np.int64)
    for r in range(n):
        b = branch[r]
        if count[r] == 0:
            continue
        k = rec_node[r]
        i = first[r]
        if b >= 0:
            new_row[i], new_y[i], new_w[i], new_node[i] = rec_row[r], rec_y[r], rec_w[r], child_base[k] + b
            continue
        for j in range(n_branches):
            if shares[k, j] > SMALL:
                new_row[i], new_y[i], new_node[i] = rec_row[r], rec_y[r], child_base[k] + j
                new_w[i] = rec_w[r] * shares[k, j]
                i += 1
    # One row per old record, so that carrying a sorted list down costs one cache miss an entry:
    # its first new record, how many it became, and the first one's node and weight.
    packed = np.empty((n, 4))
    for r in range(n):
        packed[r, 0] = first[r]
        packed[r, 1] = count[r]
        if count[r] > 0:
            packed[r, 2] = new_node[first[r]]
            packed[r, 3] = new_w[first[r]]
    return new_row, new_y, new_w, new_node, packed


@njit(cache=True, nogil=True)
def expand(sv, sn, sy, sw, sr, packed, new_node, new_w):
    """A sorted record list carried to the next level: each record replaced by the ones it
    became (none for a node that stopped), in the same order."""
    total = 0
    for j in range(sr.shape[0]):
        total += int(packed[sr[j], 1])
    ov = np.empty(total)
    on = np.empty(total, dtype=np.int32)
    oy = np.empty(total, dtype=sy.dtype)
    ow = np.empty(total)
    orr = np.empty(total, dtype=np.int32)
    i = 0
    for j in range(sr.shape[0]):
        p = packed[sr[j]]
        count = int(p[1])
        if count == 0:
            continue
        first = int(p[0])
        ov[i], on[i], oy[i], ow[i], orr[i] = sv[j], int(p[2]), sy[j], p[3], first
        i += 1
        for m in range(1, count):
            ov[i], on[i], oy[i], ow[i], orr[i] = sv[j], new_node[first + m], sy[j], new_w[first + m], first + m
            i += 1
    return ov, on, oy, ow, orr
