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

from dtcli.induction.cart.kernels.scan import numeric
from dtcli.induction.cart.kernels.scores import CART, best_subset, impurity, proxy


@njit(cache=True, nogil=True)
def evaluate(a, member, hist, ctx, rs, re, ls, le, node_counts, total, to_beat):
    """Attribute ``a`` at the node (rows ``rs:re``, list segments ``ls:le``): (found, key, score,
    threshold); for a nominal attribute ``member`` is left marking the values of the chosen
    side. A nominal attribute that cannot reach a key above ``to_beat`` (the best so far) is
    not searched (``_within_reach``) and reported as not found."""
    is_nominal, slot, n_values, rc, ry, rw, criterion, min_leaf, limit, logs, exact = ctx[:11]
    lv, ly, lw, unit, distinct, far, steps = ctx[11:]
    n_classes = node_counts.shape[0]
    thr = 0.0
    if is_nominal[a]:
        hist[:, :] = 0.0
        n_known = 0
        for i in range(rs, re):
            code = rc[slot[a], i]
            if code >= 0:
                hist[code, ry[i]] += rw[i]
                n_known += 1
        complete = n_known == re - rs
        n_present = 0
        present = np.empty(n_values[a], dtype=np.int64)
        for v in range(n_values[a]):
            size = 0.0
            for c in range(n_classes):
                size += hist[v, c]
            if size > 0:
                present[n_present] = v
                n_present += 1
        if not _within_reach(
            hist[: n_values[a]], present[:n_present], total, criterion, exact, logs, to_beat, node_counts
        ):
            return False, 0.0, 0.0, 0.0
        mask, sc, left, right = best_subset(hist[: n_values[a]], present[:n_present], criterion, min_leaf, limit, logs)
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
        complete = le[slot[a]] - ls[slot[a]] == re - rs
        whole = logs.shape[0] > 1 and complete
        found, sc, key, lower, upper, left, right = numeric(
            slot[a],
            lv,
            ly,
            lw,
            unit,
            distinct,
            far,
            ls,
            le,
            n_classes,
            criterion,
            min_leaf,
            exact,
            logs,
            steps,
            node_counts,
            whole,
        )
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
    if complete:  # no value missing: exactly 1, as cart_choose takes it
        share = 1.0
    if share != 1.0:  # on the proxy's scale, as cart_choose puts it
        sc *= share
        key = sc if criterion == CART else total * sc - total * impurity(node_counts, criterion, logs)
    if not exact:
        key = sc
    return True, key, sc, thr


@njit(cache=True, nogil=True)
def _within_reach(counts, present, total, criterion, exact, logs, to_beat, node_counts):
    """Whether a subset split with these counts by value could have a key above ``to_beat``. For
    a concave impurity (Gini, entropy) a two-way split never weighs less impurity than the split
    into every value, ``sum_v W_v I(v)``, so that split bounds every subset's key (the proxy, or
    the decrease times the known share); a margin covers rounding. Only for whole-number weights
    (a table of logarithms), whose sums are exact, so that the known share is 1 here exactly when
    ``evaluate`` finds it so."""
    if criterion == CART or to_beat == -np.inf or logs.shape[0] <= 1:
        return True
    n_classes = counts.shape[1]
    weighted = 0.0
    known = np.zeros(n_classes)
    for j in range(present.shape[0]):
        v = present[j]
        size = 0.0
        for c in range(n_classes):
            size += counts[v, c]
            known[c] += counts[v, c]
        weighted += size * impurity(counts[v], criterion, logs)
    w_known = 0.0
    for c in range(n_classes):
        w_known += known[c]
    if not w_known > 0:
        return True
    if exact and w_known == total:
        bound = -weighted
    else:
        bound = (impurity(known, criterion, logs) - weighted / w_known) * (w_known / total)
        if exact:  # a split with missing values: its key is on the proxy's scale (evaluate)
            bound = total * bound - total * impurity(node_counts, criterion, logs)
    return bound + 1e-9 * (total + 1.0) >= to_beat
