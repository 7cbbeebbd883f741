"""C4.5's split scores for every frontier node at once (numba; part of ``engine_kernels``).

Written exactly as the per-node reference (``numeric.c45_cut``,
``c45.c45_gain``, ``c45.c45_gain_ratio``, ``c45.c45_choose``) computes them,
in the same order, so both paths choose the same splits.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from dtcli.induction.criteria.constants import ENTROPY, SMALL


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
    start = 0
    while start < rec_row.shape[0]:
        k = rec_node[start]
        block, start = start, block_end(rec_node, start)
        if not active[k]:
            continue
        value_counts(codes, rec_row, rec_y, rec_w, block, start, counts)
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
def block_end(nodes, start):
    """End of the block of consecutive entries (records grouped by node) that starts at ``start``."""
    end = start
    while end < nodes.shape[0] and nodes[end] == nodes[start]:
        end += 1
    return end


@njit(cache=True, nogil=True)
def value_counts(codes, rec_row, rec_y, rec_w, block, end, counts):
    """A node's (value, class) weights over its records ``block..end`` (missing codes skipped)."""
    counts[:, :] = 0.0
    for r in range(block, end):
        v = codes[rec_row[r]]
        if v >= 0:
            counts[v, rec_y[r]] += rec_w[r]


@njit(cache=True, nogil=True)
def min_split_of(known_weight, n_classes, min_leaf):
    """Cases each side of a cut must hold: ``min(25, max(m, 0.1 known / classes))`` (C4.5 R8)."""
    ms = 0.1 * known_weight / n_classes
    if ms - min_leaf < SMALL:
        return min_leaf
    if ms - 25.0 > SMALL:
        return 25.0
    return ms


@njit(cache=True, nogil=True)
def start_scan(known, left, xl, xr):
    """Reset the running left side; returns the known weight and the entropy term of the node."""
    kw = 0.0
    for c in range(known.shape[0]):
        kw += known[c]
    acc = 0.0
    for c in range(known.shape[0]):
        acc += xlog2x(known[c])
        xr[c] = xlog2x(known[c])
        left[c] = 0.0
        xl[c] = 0.0
    return kw, xlog2x(kw) - acc


@njit(cache=True, nogil=True)
def move_left(c, weight, left, known, xl, xr):
    """Weight of class ``c`` passes to the left of the next cut (its terms kept up to date)."""
    left[c] += weight
    xl[c] = xlog2x(left[c])
    xr[c] = xlog2x(known[c] - left[c])


@njit(cache=True, nogil=True)
def cut_gain(xl, xr, wl, wr, kw, total, old):
    """J48's gain of a cut (``numeric.c45_gains``): known share x (old - new entropy terms)."""
    acc = 0.0
    for c in range(xl.shape[0]):
        acc += xl[c]
    acc -= xlog2x(wl)
    for c in range(xr.shape[0]):
        acc += xr[c]
    acc -= xlog2x(wr)
    numerator = (kw / total) * (old + acc)
    return 0.0 if abs(numerator) < SMALL else numerator / kw


@njit(cache=True, nogil=True)
def admissible_gain(left, xl, xr, kw, ms, total, old):
    """Whether the cut after the current left side leaves ``ms`` cases each side, and its gain."""
    wl = 0.0
    for c in range(left.shape[0]):
        wl += left[c]
    wr = kw - wl
    if not (ms - wl < SMALL and ms - wr < SMALL):
        return False, 0.0
    return True, cut_gain(xl, xr, wl, wr, kw, total, old)


@njit(cache=True, nogil=True)
def finish_cut(best_gain, candidates, total, mdl, best_left, known, branches):
    """The MDL penalty and the gain ratio of a node's best cut: (still a cut, gain, ratio)."""
    if mdl:
        best_gain -= np.log2(candidates) / total
    if best_gain < SMALL:
        return False, best_gain, 0.0
    for c in range(known.shape[0]):
        branches[0, c] = best_left[c]
        branches[1, c] = known[c] - best_left[c]
    return True, best_gain, c45_ratio(branches, total, best_gain)


@njit(cache=True, nogil=True)
def c45_numeric(sv, distinct, starts, sy, sw, active, totals, n_classes, min_leaf, mdl):
    """J48's best cut on one numeric attribute for every active node, in one pass per attribute.

    ``sv, sy, sw``: value (a rank into ``distinct``), class and weight of
    the records with a known value, grouped by node (node ``k``'s from
    ``starts[k]`` to ``starts[k + 1]``), each node's sorted by value (ties in
    row order). Returns per node: found, lower and
    upper value of the cut, gain after the MDL penalty, and gain ratio.
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
    for k in range(n_nodes):
        block, start = starts[k], starts[k + 1]
        if not active[k] or start == block:
            continue
        known[:] = 0.0
        for r in range(block, start):
            known[sy[r]] += sw[r]
        n_known = start - block
        kw, old = start_scan(known, left, xl, xr)
        ms = min_split_of(kw, C, min_leaf)
        if 2 * ms - n_known > SMALL or n_known < 2:
            continue
        best_gain = 0.0
        lower = upper = 0.0
        candidates = 0
        previous = np.nan
        for r in range(block, start):
            value = distinct[sv[r]]
            if not np.isnan(previous) and previous + 1e-5 < value:
                admissible, gain = admissible_gain(left, xl, xr, kw, ms, totals[k], old)
                if admissible:
                    if gain - best_gain > SMALL:
                        best_gain, lower, upper = gain, previous, value
                        found[k] = True
                        best_left[:] = left
                    candidates += 1
            move_left(sy[r], sw[r], left, known, xl, xr)
            previous = value
        if found[k]:
            found[k], best_gains[k], ratios[k] = finish_cut(
                best_gain, candidates, totals[k], mdl, best_left, known, branches
            )
            best_lower[k], best_upper[k] = lower, upper
    return found, best_lower, best_upper, best_gains, ratios


@njit(cache=True, nogil=True)
def c45_select(found, gains, ratios, counted, criterion):
    """J48's choice per node among the attributes' candidates: criterion ``RATIO`` = gain ratio over the
    attributes with at least average gain (``counted`` marks those in the average), ``ENTROPY`` = gain.
    Returns the attribute (-1: none) and its score."""
    n_nodes, n_attributes = found.shape
    best = np.full(n_nodes, -1, dtype=np.int64)
    scores = np.zeros(n_nodes)
    for k in range(n_nodes):
        if criterion == ENTROPY:
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
