"""CART's split scores, compiled (numba; part of the CART engine).

Each function is the scalar twin of the numpy code in ``search/cart.py`` and
``criteria/impurity.py`` (``decrease``, ``proxy``, ``entropy``, ``gini``), written
with the same operations in the same order; ``pairwise_sum`` is numpy's ``np.sum``.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.criteria.constants import CART, GINI, LN2
from dtcli.induction.kernels.impurity import impurity
from dtcli.induction.kernels.jit import kernel


@kernel
def decrease(left, right, criterion, logs):
    """``search/cart.py: decrease`` for one split."""
    n_left = 0.0
    n_right = 0.0
    for c in range(left.shape[0]):
        n_left += left[c]
        n_right += right[c]
    n = n_left + n_right
    safe = n if n > 0 else 1.0
    if criterion == CART:
        p_left, p_right = n_left / safe, n_right / safe
        s = 0.0
        for c in range(left.shape[0]):
            c_left = left[c] / n_left if n_left > 0 else 0.0
            c_right = right[c] / n_right if n_right > 0 else 0.0
            s += abs(c_left - c_right)
        return 2 * p_left * p_right * s
    both = left + right
    return (
        impurity(both, criterion, logs)
        - (n_left * impurity(left, criterion, logs) + n_right * impurity(right, criterion, logs)) / safe
    )


@kernel
def proxy(left, right, criterion, logs):
    """``search/cart.py: proxy`` (scikit-learn's ``-W_R I(R) - W_L I(L)``) for one split."""
    if criterion == CART:
        return decrease(left, right, criterion, logs)
    w_left = 0.0
    w_right = 0.0
    for c in range(left.shape[0]):
        w_left += left[c]
        w_right += right[c]
    if criterion == GINI:
        sq_left = 0.0
        sq_right = 0.0
        for c in range(left.shape[0]):
            sq_left = sq_left + left[c] * left[c]
            sq_right = sq_right + right[c] * right[c]
        impurity_left = 1.0 - sq_left / (w_left * w_left)
        impurity_right = 1.0 - sq_right / (w_right * w_right)
    else:
        impurity_left = 0.0
        impurity_right = 0.0
        for c in range(left.shape[0]):
            p = left[c] / w_left
            if left[c] > 0:
                impurity_left -= p * (np.log(p) / LN2)
            p = right[c] / w_right
            if right[c] > 0:
                impurity_right -= p * (np.log(p) / LN2)
    return -w_right * impurity_right - w_left * impurity_left


@kernel
def log_table(n):
    """``np.log(k)`` for k = 0..n, computed by the same compiled log as every other use."""
    logs = np.empty(n + 1)
    logs[0] = -np.inf
    for k in range(1, n + 1):
        logs[k] = np.log(float(k))
    return logs


@kernel
def pairwise_sum(a):
    """``np.sum(a)`` for a contiguous float64 array, bit for bit: numpy's pairwise summation
    (in order below 8 values, eight accumulators over blocks of up to 128, halves beyond: the
    halves are summed with a stack of pending left sums, no recursion)."""
    n = a.shape[0]
    if n <= 128:
        return _block_sum(a, 0, n)
    starts = np.empty(64, dtype=np.int64)  # the pending halves: start, length, left sum once known
    lengths = np.empty(64, dtype=np.int64)
    lefts = np.empty(64)
    have_left = np.zeros(64, dtype=np.bool_)
    top = 0
    starts[0], lengths[0] = 0, n
    value = 0.0
    returning = False
    while True:
        if not returning:
            m = lengths[top]
            if m <= 128:
                value = _block_sum(a, starts[top], m)
                top -= 1
                returning = True
            else:
                half = m // 2
                half -= half % 8
                have_left[top] = False
                top += 1
                starts[top], lengths[top] = starts[top - 1], half
            continue
        if top < 0:
            return value
        if not have_left[top]:
            lefts[top], have_left[top] = value, True
            half = lengths[top] // 2
            half -= half % 8
            start, m = starts[top] + half, lengths[top] - half
            top += 1
            starts[top], lengths[top] = start, m
            returning = False
        else:
            value = lefts[top] + value
            top -= 1


@kernel
def _block_sum(a, start, n):
    """numpy's sum of ``a[start:start + n]`` for ``n <= 128``."""
    if n < 8:
        res = 0.0
        for i in range(n):
            res += a[start + i]
        return res
    r = a[start : start + 8].copy()
    i = 8
    while i < n - (n % 8):
        for j in range(8):
            r[j] += a[start + i + j]
        i += 8
    res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    while i < n:
        res += a[start + i]
        i += 1
    return res
