"""The scan of a numeric attribute's sorted segment at a CART node for its best cut, compiled.

``numeric`` is ``search/cart.py: _numeric`` on the CART builders' layout (``grow.py``):
the cuts of a node's segment in value order, the best by scikit-learn's
proxy, the first of equals. It scores exactly only the cuts that can win:

- With whole-number weights and the entropy, the proxy is
  ``(sum_c f(l_c) + sum_c f(r_c) - f(W_L) - f(W_R)) / ln 2`` with
  ``f(x) = x ln x`` read from the table of logarithms. Moving one row of
  class k to the left changes two of its terms, so the class part is kept
  up to date with four lookups per row and recomputed from scratch every
  ``RESYNC`` rows; the bound adds a margin above both the rounding
  difference to the exact proxy and the drift of the running sum.
- With the Gini index, ``proxy = sum_c l_c^2 / W_L + sum_c r_c^2 / W_R - W``
  (the sums of squares are exact for whole-number weights below 2^26). With
  unit weights (``_unit_gini``) the counts and sums are integers and the
  bound is multiplied out by ``W_L W_R``, so a cut costs no division.
- Otherwise every admissible cut is scored exactly.

A cut whose bound is below the best key so far cannot be the first best, so
skipping it leaves the result unchanged (tests/induction/cart/test_cart_engine.py).
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.cart.kernels.scores import decrease, proxy
from dtcli.induction.criteria.constants import ENTROPY, EPSILON, GINI, LN2
from dtcli.induction.kernels.arrays import copy_into
from dtcli.induction.kernels.jit import kernel

RESYNC = 1024


@kernel(inline="always")  # no structures passed per call
def values_of(columns, s):
    """The distinct values of the numeric attribute in slot ``s`` (a ``state.Columns``), indexed by
    its value ranks, and for each rank the first of its ranks far enough above it (or -1 each)."""
    start, end = columns.offsets[s], columns.offsets[s + 1]
    return columns.distinct[start:end], columns.far[start:end]


@kernel
def _xlogx(x, logs):
    return x * logs[int(x)] if x > 0 else 0.0


@kernel
def _class_part(left, known, logs):
    acc = 0.0
    for c in range(left.shape[0]):
        acc += _xlogx(left[c], logs) + _xlogx(known[c] - left[c], logs)
    return acc


@kernel(inline="always")  # no structures passed per call
def numeric(build, scoring, s, node, node_counts, whole, work, tally):
    """``search/cart.py: _numeric`` on list ``s``'s segment at ``node`` (in list order: value ranks ``lv``,
    classes ``ly``, weights ``lw``; ``build.unit``: every weight is 1 and ``lw`` is not read):
    (found, score, key, lower, upper, left, right). A rank indexes ``distinct``, the attribute's values in order;
    ``far[r]`` is the first rank whose value exceeds ``distinct[r] + FEATURE_THRESHOLD``, so a
    cut between ranks r and q is admissible when ``q >= far[r]`` (negative for every rank of an
    attribute whose distinct values all lie that far apart). ``whole``: every row of the node has
    a value here and the weights are whole numbers, so the node's class counts are the known
    ones. ``steps[x] = f(x + 1) - f(x)``, ``f(x) = x ln x``, for whole x below the table's size
    (with unit weights, one row moving left changes the entropy bound by four of these). ``work``
    (8 float rows) and ``tally`` (8 integer rows), as wide as the classes, are the scan's scratch:
    a node's attributes reuse them, so that no scan allocates (the counts returned are two of its
    rows)."""
    lv, ly, lw, unit = build.arena.ranks, build.arena.list_targets, build.arena.list_weights, build.unit
    (distinct, far), ls, le = values_of(build.columns, s), node.ls, node.le
    criterion, exact, logs = scoring.criterion, scoring.exact, scoring.logs
    n_classes, min_leaf = node_counts.shape[0], build.stopping.min_leaf
    spaced = le[s] > ls[s] and far[lv[s, ls[s]]] < 0  # the attribute's distinct values are all far enough apart
    known, total, square_sum = _known(build, s, node, node_counts, whole, work[4], tally)
    mode, margin = _mode(scoring, total, unit)
    left, right, best_left, best_right = work[0], work[1], work[2], work[3]
    left[:] = 0.0
    right[:] = 0.0
    best_left[:] = 0.0
    sq_left = 0.0
    sq_right = square_sum
    part = _class_part(left, known, logs) if mode == 1 else 0.0
    since = 0
    w_left = 0.0
    best_key = -np.inf
    found = False
    lower = upper = 0.0
    stop = le[s] - 1
    if mode == 3:  # a loop of its own, and nothing left for the general one
        found, best_key, lower, upper = _unit_entropy(
            build, scoring, s, node, spaced, known, margin, best_left, work, tally
        )
        stop = ls[s]
    elif mode == 2 and unit:
        found, best_key, lower, upper = _unit_gini(
            build, scoring, s, node, spaced, known, square_sum, margin, best_left, work, tally
        )
        stop = ls[s]
    for i in range(ls[s], stop):
        k = ly[s, i]
        wt = 1.0 if unit else lw[s, i]
        before = left[k]
        left[k] = before + wt
        if mode == 1:
            rest = known[k] - before
            part += _xlogx(before + wt, logs) - _xlogx(before, logs) + _xlogx(rest - wt, logs) - _xlogx(rest, logs)
            since += 1
            if since == RESYNC:
                part = _class_part(left, known, logs)
                since = 0
        elif mode == 2:
            rest = known[k] - before
            sq_left += (2.0 * before + wt) * wt
            sq_right -= (2.0 * rest - wt) * wt
        w_left += wt
        if spaced:
            if lv[s, i + 1] == lv[s, i]:
                continue
        elif lv[s, i + 1] < far[lv[s, i]]:  # not distinct from the next value
            continue
        w_right = total - w_left
        if mode == 0:
            n_left = 0.0
            n_right = 0.0
            for c in range(n_classes):
                right[c] = known[c] - left[c]
                n_left += left[c]
                n_right += right[c]
        else:  # whole numbers: the running sums are exact
            n_left, n_right = w_left, w_right
        if not (n_left >= min_leaf and n_right >= min_leaf):
            continue
        if found and mode == 1:
            if (part - _xlogx(w_left, logs) - _xlogx(w_right, logs)) / LN2 + margin < best_key:
                continue
        elif found and mode == 2:
            if sq_left / w_left + sq_right / w_right - total + margin < best_key:
                continue
        if mode != 0:
            for c in range(n_classes):
                right[c] = known[c] - left[c]
        key = proxy(left, right, criterion, logs) if exact else decrease(left, right, criterion, logs)
        if not found or key > best_key:
            found, best_key, lower, upper = True, key, distinct[lv[s, i]], distinct[lv[s, i + 1]]
            copy_into(best_left, left)
    for c in range(n_classes):
        best_right[c] = known[c] - best_left[c]
    score = decrease(best_left, best_right, criterion, logs) if found else 0.0
    return found, score, best_key, lower, upper, best_left, best_right


@kernel(inline="always")  # no structures passed per call
def _known(build, s, node, node_counts, whole, known, tally):
    """The class counts of list ``s``'s segment at ``node`` (the node's own when ``whole``), put in
    ``known``, their total and their sum of squares (``tally``: ``_counted``'s scratch)."""
    ly, lw, unit, n_classes = build.arena.list_targets, build.arena.list_weights, build.unit, node_counts.shape[0]
    if whole:
        copy_into(known, node_counts)
    elif unit:  # whole numbers, in any order: four counters a class, so that no sum waits on the last
        _counted(ly[s], node.ls[s], node.le[s], known, tally)
    else:
        known[:] = 0.0
        for i in range(node.ls[s], node.le[s]):
            known[ly[s, i]] += lw[s, i]
    total = 0.0
    square_sum = 0.0
    for c in range(n_classes):
        total += known[c]
        square_sum += known[c] * known[c]
    return known, total, square_sum


@kernel
def _counted(targets, start, end, known, tally):
    """The entries ``start:end`` counted by class (``targets``), as floats, into ``known`` (four lanes
    in ``tally``'s last four rows)."""
    n_classes = known.shape[0]
    lanes = tally[4:8, :n_classes]
    lanes[:, :] = 0
    i = start
    while i + 4 <= end:
        lanes[0, targets[i]] += 1
        lanes[1, targets[i + 1]] += 1
        lanes[2, targets[i + 2]] += 1
        lanes[3, targets[i + 3]] += 1
        i += 4
    for j in range(i, end):
        lanes[0, targets[j]] += 1
    for c in range(n_classes):
        known[c] = lanes[0, c] + lanes[1, c] + lanes[2, c] + lanes[3, c]


@kernel(inline="always")  # no structures passed per call
def _mode(scoring, total, unit):
    """How ``numeric`` scans, and the margin of its bounds: 0, score every admissible cut; 1, an
    entropy bound from the table of logs (3: from the table of steps, for unit weights); 2, a Gini
    bound."""
    criterion, logs, steps = scoring.criterion, scoring.logs, scoring.steps
    mode = 0
    if scoring.exact and logs.shape[0] > 1 and total < logs.shape[0]:
        if criterion == ENTROPY:
            mode = 3 if unit and total < steps.shape[0] else 1
        elif criterion == GINI and total < 67_108_864.0:
            mode = 2
    margin = 0.0
    if mode == 1 or mode == 3:
        margin = 3e-12 * (total * (logs[int(total)] + 1.0) + 1.0) + 16.0 * RESYNC * EPSILON * (
            _xlogx(total, logs) + 1.0
        )
    elif mode == 2:
        margin = 1e-12 * (total + 1.0)
    return mode, margin


@kernel(inline="always")  # no structures passed per call
def _unit_entropy(build, scoring, s, node, spaced, known, margin, best_left, work, tally):
    """``numeric``'s loop for the entropy with unit weights, on whole-number counts, with few
    branches: each row moved left updates the bound ``part`` by four table steps.

    ``part / ln 2`` is within ``margin`` of a cut's exact key, so two cuts whose approximations
    differ by more than twice the margin compare the same way exactly; only closer ones are
    scored exactly. The cut kept is always the first of the best so far. Returns (found, best
    key, lower, upper) and leaves the best cut's left counts in ``best_left`` (scratch: ``work``'s
    rows 5 and 6, ``tally``'s first three)."""
    lv, ly, (distinct, far) = build.arena.ranks, build.arena.list_targets, values_of(build.columns, s)
    ls, le, logs, steps, min_leaf = node.ls, node.le, scoring.logs, scoring.steps, build.stopping.min_leaf
    n_classes = known.shape[0]
    total = 0.0
    for c in range(n_classes):
        total += known[c]
    count, whole, kept = tally[0, :n_classes], tally[1, :n_classes], tally[2, :n_classes]
    count[:] = 0
    for c in range(n_classes):
        whole[c] = np.int64(known[c])
    n = np.int64(total)
    left, right = work[5, :n_classes], work[6, :n_classes]
    left[:] = 0.0
    right[:] = 0.0
    part = _class_part(left, known, logs) - _xlogx(total, logs)  # the bound with every row on the right
    kept[:] = 0  # the best cut's left counts
    kept_at = -1
    kept_approx = -np.inf
    kept_key = np.nan  # its exact key, once computed
    w_left = 0
    rows, ranks = ly[s], lv[s]
    reach = kept_approx  # a cut needs an approximate key of at least this to be looked at
    start, stop = ls[s], le[s] - 1
    while start < stop:
        end = min(start + RESYNC, stop)
        for i in range(start, end):
            k = rows[i]
            before = count[k]
            count[k] = before + 1
            part += steps[before] - steps[whole[k] - before - 1] - steps[w_left] + steps[n - w_left - 1]
            w_left += 1
            here, there = ranks[i], ranks[i + 1]
            admissible = there != here if spaced else there >= far[here]
            approx = part / LN2
            if admissible & (w_left >= min_leaf) & (n - w_left >= min_leaf) & (approx >= reach):
                if approx - 2.0 * margin <= kept_approx:  # too close to call: compare exactly
                    if kept_at >= 0 and kept_key != kept_key:
                        kept_key = _exact(kept, known, left, right, logs)
                    key = _exact(count, known, left, right, logs)
                    if kept_at >= 0 and not key > kept_key:
                        continue
                else:
                    key = np.nan
                copy_into(kept, count)
                kept_at, kept_approx, kept_key = i, approx, key
                reach = kept_approx - 2.0 * margin
        for c in range(n_classes):  # the running sum drifts: start each block afresh
            left[c] = count[c]
        part = _class_part(left, known, logs) - _xlogx(float(w_left), logs) - _xlogx(float(n - w_left), logs)
        start = end
    if kept_at < 0:
        return False, -np.inf, 0.0, 0.0
    if kept_key != kept_key:
        kept_key = _exact(kept, known, left, right, logs)
    for c in range(n_classes):
        best_left[c] = kept[c]
    return True, kept_key, distinct[lv[s, kept_at]], distinct[lv[s, kept_at + 1]]


@kernel
def _exact(count, known, left, right, logs):
    """The exact proxy of the cut with left counts ``count`` (``left``, ``right``: scratch)."""
    for c in range(known.shape[0]):
        left[c] = count[c]
        right[c] = known[c] - left[c]
    return proxy(left, right, ENTROPY, logs)


@kernel(inline="always")  # no structures passed per call
def _unit_gini(build, scoring, s, node, spaced, known, square_sum, margin, best_left, work, tally):
    """``numeric``'s loop for the Gini index with unit weights: the counts, their sums of squares and
    the left weight in integers (exact), and the bound without a division: a cut is skipped when
    ``sq_L W_R + sq_R W_L < (best + W - margin) W_L W_R``, its bound ``sq_L / W_L + sq_R / W_R - W``
    multiplied out (the rounding of both sides is some 1e-15 W, the margin 1e-12 (W + 1)). Returns
    (found, best key, lower, upper) and leaves the best cut's left counts in ``best_left`` (scratch:
    ``work``'s rows 5 and 6, ``tally``'s first two)."""
    lv, ly, (distinct, far) = build.arena.ranks, build.arena.list_targets, values_of(build.columns, s)
    ls, le, logs, criterion, min_leaf = node.ls, node.le, scoring.logs, scoring.criterion, build.stopping.min_leaf
    n_classes = known.shape[0]
    whole, count = tally[0, :n_classes], tally[1, :n_classes]
    n = 0
    for c in range(n_classes):
        whole[c] = np.int64(known[c])
        n += whole[c]
    count[:] = 0
    left, right = work[5, :n_classes], work[6, :n_classes]
    left[:] = 0.0
    right[:] = 0.0
    sq_left = 0
    sq_right = np.int64(square_sum)
    w_left = 0
    found = False
    best_key = -np.inf
    reach = -np.inf  # a cut is looked at when its multiplied-out bound reaches this times W_L W_R
    best_at = -1
    rows, ranks = ly[s], lv[s]
    for i in range(ls[s], le[s] - 1):
        k = rows[i]
        before = count[k]
        count[k] = before + 1
        sq_left += 2 * before + 1
        sq_right -= 2 * (whole[k] - before) - 1
        w_left += 1
        here, there = ranks[i], ranks[i + 1]
        if not (there != here if spaced else there >= far[here]):
            continue
        wl, wr = float(w_left), float(n - w_left)
        if not (wl >= min_leaf and wr >= min_leaf):
            continue
        if float(sq_left) * wr + float(sq_right) * wl < reach * (wl * wr):
            continue
        for c in range(n_classes):
            left[c] = count[c]
            right[c] = known[c] - left[c]
        key = proxy(left, right, criterion, logs)
        if not found or key > best_key:
            found, best_key, best_at = True, key, i
            reach = best_key + float(n) - margin
            copy_into(best_left, left)
    if not found:
        return False, -np.inf, 0.0, 0.0
    return True, best_key, distinct[lv[s, best_at]], distinct[lv[s, best_at + 1]]
