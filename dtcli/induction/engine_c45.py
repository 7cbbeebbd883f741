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
def c45_nominal(counts, totals, active, min_leaf):
    """Per node: admissible (two branches with ``min_leaf`` cases), gain, gain ratio."""
    n_nodes, n_values, n_classes = counts.shape
    ok = np.zeros(n_nodes, dtype=np.bool_)
    gains = np.zeros(n_nodes)
    ratios = np.zeros(n_nodes)
    for k in range(n_nodes):
        if not active[k]:
            continue
        branches = 0
        for v in range(n_values):
            size = 0.0
            for c in range(n_classes):
                size += counts[k, v, c]
            if size - min_leaf > -SMALL:
                branches += 1
        if branches < 2:
            continue
        ok[k] = True
        gains[k] = c45_gain(counts[k], totals[k])
        ratios[k] = c45_ratio(counts[k], totals[k], gains[k])
    return ok, gains, ratios


@njit(cache=True, nogil=True)
def c45_numeric(sv, sn, sy, sw, active, totals, n_classes, min_leaf, mdl):
    """J48's best cut on one numeric attribute for every active node, in one pass per attribute.

    ``sv, sn, sy, sw``: value, node, class and weight of the records with a
    known value, sorted by value (ties in row order). Returns per node:
    found, lower and upper value of the cut, gain after the MDL penalty,
    and gain ratio. A node's running state is one row of ``state`` (one
    or two cache lines), since the scan visits the nodes in no order.
    """
    n_nodes = active.shape[0]
    # state[k]: previous value, min split, known weight, old entropy term, rows known, usable,
    # then per class: left weight, known weight, xlog2x(left), xlog2x(known - left).
    C = n_classes
    L, K, XL, XR = 6, 6 + C, 6 + 2 * C, 6 + 3 * C
    state = np.zeros((n_nodes, 6 + 4 * C))
    for r in range(sv.shape[0]):
        k = sn[r]
        if active[k]:
            state[k, K + sy[r]] += sw[r]
            state[k, 4] += 1.0
    for k in range(n_nodes):
        if not active[k]:
            continue
        kw = 0.0
        for c in range(C):
            kw += state[k, K + c]
        state[k, 2] = kw
        ms = 0.1 * kw / C
        if ms - min_leaf < SMALL:
            ms = min_leaf
        elif ms - 25.0 > SMALL:
            ms = 25.0
        state[k, 1] = ms
        n_known = state[k, 4]
        state[k, 5] = 0.0 if (2 * ms - n_known > SMALL or n_known < 2) else 1.0
        acc = 0.0
        for c in range(C):
            acc += xlog2x(state[k, K + c])
            state[k, XR + c] = xlog2x(state[k, K + c])
        state[k, 3] = xlog2x(kw) - acc
        state[k, 0] = np.nan
    best_gain = np.zeros(n_nodes)
    best_lower = np.zeros(n_nodes)
    best_upper = np.zeros(n_nodes)
    best_left = np.zeros((n_nodes, C))
    found = np.zeros(n_nodes, dtype=np.bool_)
    candidates = np.zeros(n_nodes, dtype=np.int64)
    for r in range(sv.shape[0]):
        k = sn[r]
        if state[k, 5] == 0.0:
            continue
        value = sv[r]
        previous = state[k, 0]
        if not np.isnan(previous) and previous + 1e-5 < value:
            wl = 0.0
            for c in range(C):
                wl += state[k, L + c]
            known_weight = state[k, 2]
            wr = known_weight - wl
            ms = state[k, 1]
            if ms - wl < SMALL and ms - wr < SMALL:
                acc = 0.0
                for c in range(C):
                    acc += state[k, XL + c]
                acc -= xlog2x(wl)
                for c in range(C):
                    acc += state[k, XR + c]
                acc -= xlog2x(wr)
                numerator = (known_weight / totals[k]) * (state[k, 3] + acc)
                gain = 0.0 if abs(numerator) < SMALL else numerator / known_weight
                if gain - best_gain[k] > SMALL:
                    best_gain[k] = gain
                    best_lower[k] = previous
                    best_upper[k] = value
                    found[k] = True
                    for c in range(C):
                        best_left[k, c] = state[k, L + c]
                candidates[k] += 1
        c = sy[r]
        left = state[k, L + c] + sw[r]
        state[k, L + c] = left
        state[k, XL + c] = xlog2x(left)
        state[k, XR + c] = xlog2x(state[k, K + c] - left)
        state[k, 0] = value
    ratios = np.zeros(n_nodes)
    branches = np.zeros((2, C))
    for k in range(n_nodes):
        if not found[k]:
            continue
        if mdl:
            best_gain[k] -= np.log2(candidates[k]) / totals[k]
        if best_gain[k] < SMALL:
            found[k] = False
            continue
        for c in range(C):
            branches[0, c] = best_left[k, c]
            branches[1, c] = state[k, K + c] - best_left[k, c]
        ratios[k] = c45_ratio(branches, totals[k], best_gain[k])
    return found, best_lower, best_upper, best_gain, ratios


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
