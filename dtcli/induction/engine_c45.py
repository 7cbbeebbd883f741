"""C4.5's split scores for every frontier node at once (numba; part of ``engine_kernels``).

Written exactly as the per-node reference (``numeric.c45_cut``,
``c45.c45_gain``, ``c45.c45_gain_ratio``, ``c45.c45_choose``) computes them,
in the same order, so both paths choose the same splits.
"""

from __future__ import annotations

import numpy as np
from numba import njit

SMALL = 1e-6


@njit(cache=True, nogil=True)
def xlog2x(x):
    if x < 1e-6:
        return 0.0
    return x * np.log(x) / np.log(2.0)


@njit(cache=True, nogil=True)
def c45_gain(counts, total):
    """J48's gain of a (branches, classes) distribution; as ``c45.c45_gain``, in Weka's order."""
    n_branches, n_classes = counts.shape
    known = 0.0
    for b in range(n_branches):
        size = 0.0
        for c in range(n_classes):
            size += counts[b, c]
        known += size
    if known <= 0:
        return 0.0
    acc = 0.0
    for c in range(n_classes):
        column = 0.0
        for b in range(n_branches):
            column += counts[b, c]
        acc += xlog2x(column)
    old = xlog2x(known) - acc
    acc = 0.0
    for b in range(n_branches):
        size = 0.0
        for c in range(n_classes):
            size += counts[b, c]
            acc += xlog2x(counts[b, c])
        acc -= xlog2x(size)
    numerator = (known / total) * (old + acc)
    if abs(numerator) < SMALL:
        return 0.0
    return numerator / known


@njit(cache=True, nogil=True)
def c45_ratio(counts, total, gain):
    """Gain over split information (unknown cases as one more branch); as ``c45.c45_gain_ratio``."""
    n_branches, n_classes = counts.shape
    known = 0.0
    split = 0.0
    for b in range(n_branches):
        size = 0.0
        for c in range(n_classes):
            size += counts[b, c]
        known += size
        split -= xlog2x(size)
    if not known > SMALL:
        return 0.0
    split = split - xlog2x(total - known) + xlog2x(total)
    if abs(split) < SMALL:
        return 0.0
    return gain / (split / total)


@njit(cache=True, nogil=True)
def c45_nominal(codes, rec_row, rec_y, rec_w, rec_node, active, totals, n_values, n_classes, min_leaf):
    """Per node: admissible (two branches with ``min_leaf`` cases), gain, gain ratio of the split
    on a nominal attribute (``codes`` by row). The records come grouped by node, so each node's
    (value, class) weights are summed in a small buffer and scored at once."""
    n_nodes = active.shape[0]
    ok = np.zeros(n_nodes, dtype=np.bool_)
    gains = np.zeros(n_nodes)
    ratios = np.zeros(n_nodes)
    counts = np.zeros((n_values, n_classes))
    n = rec_row.shape[0]
    start = 0
    while start < n:
        k = rec_node[start]
        end = start
        while end < n and rec_node[end] == k:
            end += 1
        block = start
        start = end
        if not active[k]:
            continue
        counts[:, :] = 0.0
        for r in range(block, end):
            v = codes[rec_row[r]]
            if v >= 0:
                counts[v, rec_y[r]] += rec_w[r]
        branches = 0
        for v in range(n_values):
            size = 0.0
            for c in range(n_classes):
                size += counts[v, c]
            if size - min_leaf > -SMALL:
                branches += 1
        if branches < 2:
            continue
        ok[k] = True
        gains[k] = c45_gain(counts, totals[k])
        ratios[k] = c45_ratio(counts, totals[k], gains[k])
    return ok, gains, ratios


@njit(cache=True, nogil=True)
def c45_numeric(sv, distinct, sn, sy, sw, active, totals, n_classes, min_leaf, mdl):
    """J48's best cut on one numeric attribute for every active node, in one pass per attribute.

    ``sv, sn, sy, sw``: value (a rank into ``distinct``), node, class and
    weight of the records with a known value, grouped by node, each node's
    sorted by value (ties in row order). Returns per node: found, lower and upper value of the cut, gain
    after the MDL penalty, and gain ratio.
    """
    n_nodes = active.shape[0]
    C = n_classes
    found = np.zeros(n_nodes, dtype=np.bool_)
    best_lower = np.zeros(n_nodes)
    best_upper = np.zeros(n_nodes)
    best_gains = np.zeros(n_nodes)
    ratios = np.zeros(n_nodes)
    known = np.zeros(C)
    left = np.zeros(C)
    xl = np.zeros(C)
    xr = np.zeros(C)
    best_left = np.zeros(C)
    branches = np.zeros((2, C))
    n = sv.shape[0]
    start = 0
    while start < n:
        k = sn[start]
        end = start
        while end < n and sn[end] == k:
            end += 1
        block_start = start
        start = end
        if not active[k]:
            continue
        known[:] = 0.0
        for r in range(block_start, end):
            known[sy[r]] += sw[r]
        n_known = end - block_start
        kw = 0.0
        for c in range(C):
            kw += known[c]
        ms = 0.1 * kw / C
        if ms - min_leaf < SMALL:
            ms = min_leaf
        elif ms - 25.0 > SMALL:
            ms = 25.0
        if 2 * ms - n_known > SMALL or n_known < 2:
            continue
        acc = 0.0
        for c in range(C):
            acc += xlog2x(known[c])
            xr[c] = xlog2x(known[c])
            left[c] = 0.0
            xl[c] = 0.0
        old = xlog2x(kw) - acc
        total = totals[k]
        best_gain = 0.0
        lower = upper = 0.0
        candidates = 0
        previous = np.nan
        for r in range(block_start, end):
            value = distinct[sv[r]]
            if not np.isnan(previous) and previous + 1e-5 < value:
                wl = 0.0
                for c in range(C):
                    wl += left[c]
                wr = kw - wl
                if ms - wl < SMALL and ms - wr < SMALL:
                    acc = 0.0
                    for c in range(C):
                        acc += xl[c]
                    acc -= xlog2x(wl)
                    for c in range(C):
                        acc += xr[c]
                    acc -= xlog2x(wr)
                    numerator = (kw / total) * (old + acc)
                    gain = 0.0 if abs(numerator) < SMALL else numerator / kw
                    if gain - best_gain > SMALL:
                        best_gain, lower, upper = gain, previous, value
                        found[k] = True
                        for c in range(C):
                            best_left[c] = left[c]
                    candidates += 1
            c = sy[r]
            left[c] += sw[r]
            xl[c] = xlog2x(left[c])
            xr[c] = xlog2x(known[c] - left[c])
            previous = value
        if not found[k]:
            continue
        if mdl:
            best_gain -= np.log2(candidates) / total
        if best_gain < SMALL:
            found[k] = False
            continue
        best_lower[k], best_upper[k], best_gains[k] = lower, upper, best_gain
        for c in range(C):
            branches[0, c] = best_left[c]
            branches[1, c] = known[c] - best_left[c]
        ratios[k] = c45_ratio(branches, total, best_gain)
    return found, best_lower, best_upper, best_gains, ratios


@njit(cache=True, nogil=True)
def c45_select(found, gains, ratios, counted, criterion):
    """J48's choice per node among the attributes' candidates: criterion 0 = gain ratio over the
    attributes with at least average gain (``counted`` marks those in the average), 1 = gain.
    Returns the attribute (-1: none) and its score."""
    n_nodes, n_attributes = found.shape
    best = np.full(n_nodes, -1, dtype=np.int64)
    scores = np.zeros(n_nodes)
    for k in range(n_nodes):
        if criterion == 1:
            top = 0.0
            for a in range(n_attributes):
                if found[k, a] and gains[k, a] - top > SMALL:
                    best[k], top = a, gains[k, a]
            scores[k] = top
            continue
        total, n = 0.0, 0
        for a in range(n_attributes):
            if found[k, a] and counted[a]:
                total += gains[k, a]
                n += 1
        if n == 0:
            continue
        average = total / n
        top = 0.0
        for a in range(n_attributes):
            if found[k, a] and gains[k, a] >= average - 1e-3 and ratios[k, a] - top > SMALL:
                best[k], top = a, ratios[k, a]
        scores[k] = top
    return best, scores

