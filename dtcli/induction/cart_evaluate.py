"""One attribute scored at a CART node, compiled (part of the CART engine, ``cart_grow``).

``evaluate`` scores one attribute at a node as ``cart_choose`` does: the
best subset of a nominal attribute's present values or the best cut of a
numeric one, scaled by the share of the node's weight whose value is known.
``ctx`` is the builder's data: (is_nominal, slot, n_values, codes, classes,
weights, criterion, min_leaf, limit, logs, exact, value ranks, list classes,
list weights, unit, distinct values, far, steps).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from dtcli.induction.cart_kernels import best_subset, proxy
from dtcli.induction.cart_scan import numeric


@njit(cache=True, nogil=True)
def evaluate(a, member, hist, ctx, rs, re, ls, le, node_counts, total):
    """Attribute ``a`` at the node (rows ``rs:re``, list segments ``ls:le``): (found, key, score,
    threshold); for a nominal attribute ``member`` is left marking the values of the chosen
    side."""
    is_nominal, slot, n_values, rc, ry, rw, criterion, min_leaf, limit, logs, exact = ctx[:11]
    lv, ly, lw, unit, distinct, far, steps = ctx[11:]
    n_classes = node_counts.shape[0]
    thr = 0.0
    if is_nominal[a]:
        hist[:, :] = 0.0
        for i in range(rs, re):
            code = rc[slot[a], i]
            if code >= 0:
                hist[code, ry[i]] += rw[i]
        n_present = 0
        present = np.empty(n_values[a], dtype=np.int64)
        for v in range(n_values[a]):
            size = 0.0
            for c in range(n_classes):
                size += hist[v, c]
            if size > 0:
                present[n_present] = v
                n_present += 1
        mask, sc, left, right = best_subset(hist[:n_values[a]], present[:n_present], criterion, min_leaf, limit,
                                            logs)
        if mask.shape[0] == 0:
            return False, 0.0, 0.0, 0.0
        n_in = 0
        for j in range(n_present):
            if mask[j]:
                n_in += 1
        key = proxy(left, right, criterion, logs)
        inside_chosen = n_in <= n_present - n_in
        member[:] = False
        for j in range(n_present):
            if mask[j] == inside_chosen:
                member[present[j]] = True
    else:
        whole = logs.shape[0] > 1 and le[slot[a]] - ls[slot[a]] == re - rs
        found, sc, key, lower, upper, left, right = numeric(slot[a], lv, ly, lw, unit, distinct, far, ls, le,
                                                            n_classes, criterion, min_leaf, exact, logs, steps,
                                                            node_counts, whole)
        if not found:
            return False, 0.0, 0.0, 0.0
        thr = lower / 2.0 + upper / 2.0 if exact else (lower + upper) / 2
        if thr == upper or not np.isfinite(thr):
            thr = lower
    known_weight = 0.0
    for c in range(n_classes):
        known_weight += left[c]
    for c in range(n_classes):
        known_weight += right[c]
    share = known_weight / total if total > 0 else 0.0
    if share != 1.0:
        sc *= share
        key = sc
    if not exact:
        key = sc
    return True, key, sc, thr
