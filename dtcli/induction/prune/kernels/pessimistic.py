"""C4.5's error-based pruning with subtree raising, compiled (numba), on a flat tree.

The same algorithm as ``pessimistic`` (the reference, which J48's tests pin
down), step for step and sum for sum, for trees of hundreds of thousands of
nodes: the tree is arrays indexed by node slot (children of a node are
``nb`` consecutive slots from ``cstart``), and a node's training cases are
``(rows, weights)`` arrays made on the way down and dropped on the way up.

Tree arrays (``t``): attr (-1: leaf), thr, nb, cstart, src (whose test the
node carries after raising). Data: nominal / numeric columns by slot, the
class of each row. Decisions are written to ``steps_i`` (node, path entry,
action, largest branch, test source) and ``steps_f`` (cases, leaf, tree and
branch estimates); the path of each visit to ``entries_i`` (parent entry,
test source, branch).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

SMALL = 1e-6
LEAF, RAISE, KEEP = 0, 1, 2


@njit(cache=True, nogil=True)
def _j48(n, e, cf, z):
    if e < 1:
        base = n * (1 - math.pow(cf, 1 / n))
        if e == 0:
            return base
        return base + e * (_j48_one(n, cf, z) - base)
    if e + 0.5 >= n:
        return max(n - e, 0.0)
    f = (e + 0.5) / n
    r = (f + (z * z) / (2 * n) + z * math.sqrt((f / n) - (f * f / n) + (z * z / (4 * n * n)))) / (1 + (z * z) / n)
    return (r * n) - e


@njit(cache=True, nogil=True)
def _j48_one(n, cf, z):
    if n <= 1.5:
        return max(n - 1.0, 0.0)
    f = 1.5 / n
    r = (f + (z * z) / (2 * n) + z * math.sqrt((f / n) - (f * f / n) + (z * z / (4 * n * n)))) / (1 + (z * z) / n)
    return (r * n) - 1.0


@njit(cache=True, nogil=True)
def _r8(n, e, cf, coeff):
    if e < 1e-6:
        return n * (1 - math.exp(math.log(cf) / n))
    if e < 0.9999:
        base = n * (1 - math.exp(math.log(cf) / n))
        return base + e * (_r8_one(n, cf, coeff) - base)
    if e + 0.5 >= n:
        return 0.67 * (n - e)
    pr = (e + 0.5 + coeff / 2 + math.sqrt(coeff * ((e + 0.5) * (1 - (e + 0.5) / n) + coeff / 4))) / (n + coeff)
    return n * pr - e


@njit(cache=True, nogil=True)
def _r8_one(n, cf, coeff):
    if n <= 1.5:
        return 0.67 * (n - 1.0)
    pr = (1.5 + coeff / 2 + math.sqrt(coeff * (1.5 * (1 - 1.5 / n) + coeff / 4))) / (n + coeff)
    return n * pr - 1.0


@njit(cache=True, nogil=True)
def errors(counts, cf, z, r8, coeff):
    """The pessimistic error estimate of a leaf with these class weights (``_Pruner.errors``)."""
    total = 0.0
    top = counts[0]
    for c in range(counts.shape[0]):
        total += counts[c]
        if counts[c] > top:
            top = counts[c]
    if total == 0.0 or abs(total) < SMALL:
        return 0.0
    wrong = total - top
    if total <= 0:
        return wrong
    return wrong + (_r8(total, wrong, cf, coeff) if r8 else _j48(total, wrong, cf, z))


@njit(cache=True, nogil=True)
def class_counts(rows, ws, y, n_classes):
    counts = np.zeros(n_classes)
    for i in range(rows.shape[0]):
        counts[y[rows[i]]] += ws[i]
    return counts


@njit(cache=True, nogil=True)
def split(node, rows, ws, t_attr, t_thr, t_nb, is_nominal, slot, nominal, numeric, y, n_classes):
    """J48's split of a node's cases: the class distribution per branch (cases with a missing
    value spread by the known shares) and each branch's cases, concatenated (``offsets``)."""
    a = t_attr[node]
    nb = t_nb[node]
    n = rows.shape[0]
    branch = np.empty(n, dtype=np.int64)
    sizes = np.zeros(nb)
    bags = np.zeros((nb, n_classes))
    unknown = np.zeros(n_classes)
    any_missing = False
    for i in range(n):
        r = rows[i]
        if is_nominal[a]:
            b = nominal[slot[a], r]
        else:
            v = numeric[slot[a], r]
            b = -1 if np.isnan(v) else (0 if v <= t_thr[node] else 1)
        branch[i] = b
        if b >= 0:
            sizes[b] += ws[i]
            bags[b, y[r]] += ws[i]
        else:
            unknown[y[r]] += ws[i]
            any_missing = True
    total = 0.0
    for b in range(nb):
        total += sizes[b]
    if any_missing:
        for b in range(nb):
            share = sizes[b] / total if not (total == 0.0 or abs(total) < SMALL) else 1.0 / nb
            for c in range(n_classes):
                bags[b, c] += share * unknown[c]
    shares = np.empty(nb)
    btotal = 0.0
    for b in range(nb):
        size = 0.0
        for c in range(n_classes):
            size += bags[b, c]
        shares[b] = size
        btotal += size
    for b in range(nb):
        shares[b] = shares[b] / btotal if not (btotal == 0.0 or abs(btotal) < SMALL) else 1.0 / nb
    offsets = np.zeros(nb + 1, dtype=np.int64)
    for b in range(nb):
        count = 0
        for i in range(n):
            if branch[i] == b or (branch[i] < 0 and shares[b] > SMALL):
                count += 1
        offsets[b + 1] = offsets[b] + count
    out_rows = np.empty(offsets[nb], dtype=rows.dtype)
    out_ws = np.empty(offsets[nb])
    for b in range(nb):
        j = offsets[b]
        for i in range(n):
            if branch[i] == b:
                out_rows[j], out_ws[j] = rows[i], ws[i]
                j += 1
            elif branch[i] < 0 and shares[b] > SMALL:
                out_rows[j], out_ws[j] = rows[i], ws[i] * shares[b]
                j += 1
    return bags, out_rows, out_ws, offsets


@njit(cache=True, nogil=True)
def branch_errors(
    node, rows, ws, t_attr, t_thr, t_nb, t_cstart, is_nominal, slot, nominal, numeric, y, n_classes, cf, z, r8, coeff
):
    """The estimate if all of ``rows`` went down the subtree at ``node`` (``_Pruner.branch_errors``)."""
    if t_attr[node] < 0:
        return errors(class_counts(rows, ws, y, n_classes), cf, z, r8, coeff)
    _, parts, part_ws, offsets = split(
        node, rows, ws, t_attr, t_thr, t_nb, is_nominal, slot, nominal, numeric, y, n_classes
    )
    total = 0.0
    for b in range(t_nb[node]):
        lo, hi = offsets[b], offsets[b + 1]
        total += branch_errors(
            t_cstart[node] + b,
            parts[lo:hi],
            part_ws[lo:hi],
            t_attr,
            t_thr,
            t_nb,
            t_cstart,
            is_nominal,
            slot,
            nominal,
            numeric,
            y,
            n_classes,
            cf,
            z,
            r8,
            coeff,
        )
    return total


@njit(cache=True, nogil=True)
def tree_errors(node, t_attr, t_nb, t_cstart, dcounts, cf, z, r8, coeff):
    """The sum of the estimates of the subtree's leaves (``_Pruner.tree_errors``)."""
    if t_attr[node] < 0:
        return errors(dcounts[node], cf, z, r8, coeff)
    total = 0.0
    for b in range(t_nb[node]):
        total += tree_errors(t_cstart[node] + b, t_attr, t_nb, t_cstart, dcounts, cf, z, r8, coeff)
    return total


@njit(cache=True, nogil=True)
def redistribute(
    node, rows, ws, t_attr, t_thr, t_nb, t_cstart, is_nominal, slot, nominal, numeric, y, n_classes, bags3, dcounts
):
    """Send ``rows`` down the subtree at ``node``, renewing its distributions (J48's newDistribution)."""
    dcounts[node] = class_counts(rows, ws, y, n_classes)
    if t_attr[node] < 0:
        return 0
    bags, parts, part_ws, offsets = split(
        node, rows, ws, t_attr, t_thr, t_nb, is_nominal, slot, nominal, numeric, y, n_classes
    )
    bags3[node, : t_nb[node]] = bags
    for b in range(t_nb[node]):
        lo, hi = offsets[b], offsets[b + 1]
        redistribute(
            t_cstart[node] + b,
            parts[lo:hi],
            part_ws[lo:hi],
            t_attr,
            t_thr,
            t_nb,
            t_cstart,
            is_nominal,
            slot,
            nominal,
            numeric,
            y,
            n_classes,
            bags3,
            dcounts,
        )
    return 0


@njit(cache=True, nogil=True)
def _max_bag(bags, nb):
    best, top = -1, 0.0
    for b in range(nb):
        size = 0.0
        for c in range(bags.shape[1]):
            size += bags[b, c]
        if top - size < SMALL:
            best, top = b, size
    return best


@njit(cache=True, nogil=True)
def prune(
    node,
    rows,
    ws,
    entry,
    t_attr,
    t_thr,
    t_nb,
    t_cstart,
    t_src,
    is_nominal,
    slot,
    nominal,
    numeric,
    y,
    n_classes,
    bags3,
    dcounts,
    cf,
    z,
    r8,
    coeff,
    raising,
    steps_i,
    steps_f,
    entries_i,
    counters,
):
    """``_Pruner.prune`` at ``node`` whose cases are ``rows``/``ws`` (their class weights are in
    ``dcounts[node]`` already). Returns 1 if the step or entry buffers ran out."""
    if t_attr[node] < 0:
        return 0
    bags, parts, part_ws, offsets = split(
        node, rows, ws, t_attr, t_thr, t_nb, is_nominal, slot, nominal, numeric, y, n_classes
    )
    nb = t_nb[node]
    bags3[node, :nb] = bags
    for b in range(nb):
        child = t_cstart[node] + b
        lo, hi = offsets[b], offsets[b + 1]
        dcounts[child] = class_counts(parts[lo:hi], part_ws[lo:hi], y, n_classes)
        e = counters[1]
        if e >= entries_i.shape[0]:
            return 1
        counters[1] += 1
        entries_i[e, 0], entries_i[e, 1], entries_i[e, 2] = entry, t_src[node], b
        if prune(
            child,
            parts[lo:hi],
            part_ws[lo:hi],
            e,
            t_attr,
            t_thr,
            t_nb,
            t_cstart,
            t_src,
            is_nominal,
            slot,
            nominal,
            numeric,
            y,
            n_classes,
            bags3,
            dcounts,
            cf,
            z,
            r8,
            coeff,
            raising,
            steps_i,
            steps_f,
            entries_i,
            counters,
        ):
            return 1
    largest = _max_bag(bags3[node], nb)
    branch = np.nan
    if raising:
        branch = branch_errors(
            t_cstart[node] + largest,
            rows,
            ws,
            t_attr,
            t_thr,
            t_nb,
            t_cstart,
            is_nominal,
            slot,
            nominal,
            numeric,
            y,
            n_classes,
            cf,
            z,
            r8,
            coeff,
        )
    leaf = errors(dcounts[node], cf, z, r8, coeff)
    tree = tree_errors(node, t_attr, t_nb, t_cstart, dcounts, cf, z, r8, coeff)
    s = counters[0]
    if s >= steps_i.shape[0]:
        return 1
    counters[0] += 1
    cases = 0.0
    for i in range(ws.shape[0]):
        cases += ws[i]
    steps_i[s, 0], steps_i[s, 1], steps_i[s, 3], steps_i[s, 4] = node, entry, largest, t_src[node]
    steps_f[s, 0], steps_f[s, 1], steps_f[s, 2], steps_f[s, 3] = cases, leaf, tree, branch
    if leaf - (tree + 0.1) < SMALL and (not raising or leaf - (branch + 0.1) < SMALL):
        steps_i[s, 2] = LEAF
        t_attr[node] = -1
        return 0
    if raising and branch - (tree + 0.1) < SMALL:
        steps_i[s, 2] = RAISE
        raised = t_cstart[node] + largest
        t_attr[node], t_thr[node], t_nb[node] = t_attr[raised], t_thr[raised], t_nb[raised]
        t_cstart[node], t_src[node] = t_cstart[raised], t_src[raised]
        redistribute(
            node,
            rows,
            ws,
            t_attr,
            t_thr,
            t_nb,
            t_cstart,
            is_nominal,
            slot,
            nominal,
            numeric,
            y,
            n_classes,
            bags3,
            dcounts,
        )
        return prune(
            node,
            rows,
            ws,
            entry,
            t_attr,
            t_thr,
            t_nb,
            t_cstart,
            t_src,
            is_nominal,
            slot,
            nominal,
            numeric,
            y,
            n_classes,
            bags3,
            dcounts,
            cf,
            z,
            r8,
            coeff,
            raising,
            steps_i,
            steps_f,
            entries_i,
            counters,
        )
    steps_i[s, 2] = KEEP
    return 0
