"""One attribute scored at a CART node, compiled (part of the CART engine, ``grow.py``).

``evaluate`` scores one attribute at a node as ``search/cart.py: cart_choose``
does: the best subset of a nominal attribute's present values or the best cut
of a numeric one, scaled by the share of the node's weight whose value is
known. ``build`` is the builder's ``state.Build``, ``scoring`` its ``state.Scoring``.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.cart.kernels.scan import numeric
from dtcli.induction.cart.kernels.scores import proxy
from dtcli.induction.cart.kernels.subsets import best_subset
from dtcli.induction.criteria.constants import CART
from dtcli.induction.kernels.impurity import impurity
from dtcli.induction.kernels.jit import kernel
from dtcli.induction.kernels.midpoint import midpoint, single_midpoint


@kernel  # not inlined: in both loops over the attributes, each builder variant would compile it twice
def evaluate(build, scoring, a, node, node_counts, total, to_beat, work, tally):
    """Attribute ``a`` at ``node`` (rows ``rs:re``, list segments ``ls:le``): (found, key, score,
    threshold); for a nominal attribute ``build.chosen`` is left marking the values of the chosen
    side. A nominal attribute that cannot reach a key above ``to_beat`` (the best so far) is
    not searched (``_within_reach``) and reported as not found. ``work`` and ``tally`` are
    ``scratch(n_classes)``, made once a node for all its attributes (``scan.numeric``)."""
    criterion, exact, logs = scoring.criterion, scoring.exact, scoring.logs
    n_classes = node_counts.shape[0]
    thr = 0.0
    if build.columns.is_nominal[a]:
        found, key, sc, left, right, complete = _subset(build, scoring, a, node, node_counts, total, to_beat)
    else:
        s = build.columns.slot[a]
        complete = node.le[s] - node.ls[s] == node.re - node.rs
        whole = logs.shape[0] > 1 and complete
        found, sc, key, lower, upper, left, right = numeric(build, scoring, s, node, node_counts, whole, work, tally)
        if found:
            thr = single_midpoint(lower, upper) if exact else midpoint(lower, upper)
    if not found:
        return False, 0.0, 0.0, 0.0
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


@kernel
def scratch(n_classes):
    """The scratch rows ``evaluate`` reuses at a node: 8 of floats, 8 of integers."""
    return np.empty((8, n_classes)), np.empty((8, n_classes), dtype=np.int64)


@kernel(inline="always")  # no structures passed per call
def _subset(build, scoring, a, node, node_counts, total, to_beat):
    """The best subset of nominal attribute ``a``'s values at ``node``: (found, key, score, left
    counts, right counts, whether every row has a value); the chosen side's values marked in
    ``build.chosen``."""
    criterion, logs, hist, member = scoring.criterion, scoring.logs, build.hist, build.chosen
    codes, targets, weights = build.arena.codes[build.columns.slot[a]], build.arena.targets, build.arena.weights
    n_values = build.columns.n_values[a]
    nothing = np.zeros(0)
    hist[:, :] = 0.0
    n_known = 0
    for i in range(node.rs, node.re):
        code = codes[i]
        if code >= 0:
            hist[code, targets[i]] += weights[i]
            n_known += 1
    complete = n_known == node.re - node.rs
    n_present = 0
    present = np.empty(n_values, dtype=np.int64)
    for v in range(n_values):
        if hist[v].sum() > 0:
            present[n_present] = v
            n_present += 1
    counts, present = hist[:n_values], present[:n_present]
    if not _within_reach(counts, present, total, criterion, scoring.exact, logs, to_beat, node_counts):
        return False, 0.0, 0.0, nothing, nothing, complete
    mask, sc, left, right = best_subset(counts, present, criterion, build.stopping.min_leaf, scoring.limit, logs)
    if mask.shape[0] == 0:
        return False, 0.0, 0.0, nothing, nothing, complete
    n_in = 0
    for j in range(n_present):
        if mask[j]:
            n_in += 1
    inside_chosen = n_in <= n_present - n_in
    member[:] = False
    for j in range(n_present):
        if mask[j] == inside_chosen:
            member[present[j]] = True
    return True, proxy(left, right, criterion, logs), sc, left, right, complete


@kernel
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
