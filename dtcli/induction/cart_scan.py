"""CART's scan of a numeric attribute's sorted segment, compiled (part of the CART engine).

``numeric`` is ``cart._numeric`` on the CART builder's layout (``cart_grow``):
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
  (the sums of squares are exact for whole-number weights below 2^26).
- Otherwise every admissible cut is scored exactly.

A cut whose bound is below the best key so far cannot be the first best, so
skipping it leaves the result unchanged (tests/test_cart_engine.py).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from dtcli.induction.cart_kernels import ENTROPY, GINI, LN2, decrease, proxy

FEATURE_THRESHOLD = 1e-7
RESYNC = 1024
EPS = 2.220446049250313e-16


@njit(cache=True, nogil=True)
def _xlogx(x, logs):
    return x * logs[int(x)] if x > 0 else 0.0


@njit(cache=True, nogil=True)
def _class_part(left, known, logs):
    acc = 0.0
    for c in range(left.shape[0]):
        acc += _xlogx(left[c], logs) + _xlogx(known[c] - left[c], logs)
    return acc


@njit(cache=True, nogil=True)
def numeric(s, lv, ly, lw, ls, le, n_classes, criterion, min_leaf, exact, logs, node_counts, whole):
    """``cart._numeric`` on the node's sorted segment (values, classes, weights in list order):
    (found, score, key, lower, upper, left, right). ``whole``: every row of the node has a value
    here and the weights are whole numbers, so the node's class counts are the known ones."""
    if whole:
        known = node_counts.copy()
    else:
        known = np.zeros(n_classes)
        for i in range(ls[s], le[s]):
            known[ly[s, i]] += lw[s, i]
    total = 0.0
    square_sum = 0.0
    for c in range(n_classes):
        total += known[c]
        square_sum += known[c] * known[c]
    # 0: score every admissible cut; 1: entropy bound from the table of logs; 2: Gini bound
    mode = 0
    if exact and logs.shape[0] > 1 and total < logs.shape[0]:
        if criterion == ENTROPY:
            mode = 1
        elif criterion == GINI and total < 67_108_864.0:
            mode = 2
    margin = 0.0
    if mode == 1:
        margin = 3e-12 * (total * (logs[int(total)] + 1.0) + 1.0) + 8.0 * RESYNC * EPS * (_xlogx(total, logs) + 1.0)
    elif mode == 2:
        margin = 1e-12 * (total + 1.0)
    left = np.zeros(n_classes)
    right = np.zeros(n_classes)
    best_left = np.zeros(n_classes)
    sq_left = 0.0
    sq_right = square_sum
    part = _class_part(left, known, logs) if mode == 1 else 0.0
    since = 0
    w_left = 0.0
    best_key = -np.inf
    found = False
    lower = upper = 0.0
    for i in range(ls[s], le[s] - 1):
        k = ly[s, i]
        wt = lw[s, i]
        before = left[k]
        left[k] = before + wt
        w_left += wt
        if mode == 1:
            rest = known[k] - before
            part += (_xlogx(before + wt, logs) - _xlogx(before, logs)
                     + _xlogx(rest - wt, logs) - _xlogx(rest, logs))
            since += 1
            if since == RESYNC:
                part = _class_part(left, known, logs)
                since = 0
        elif mode == 2:
            rest = known[k] - before
            sq_left += (2.0 * before + wt) * wt
            sq_right -= (2.0 * rest - wt) * wt
        v, nxt = lv[s, i], lv[s, i + 1]
        if not v + FEATURE_THRESHOLD < nxt:
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
            found, best_key, lower, upper = True, key, v, nxt
            best_left[:] = left
    best_right = known - best_left
    score = decrease(best_left, best_right, criterion, logs) if found else 0.0
    return found, score, best_key, lower, upper, best_left, best_right
