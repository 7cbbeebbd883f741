"""Gini and entropy of one class-count vector and the sides of a cut, compiled (numba): shared by the engines.

The CART builders (``cart/kernels/``) and ID3's level-wise kernels (``levelwise/kernels/id3.py``)
both take them from here.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.criteria.constants import GINI, LN2
from dtcli.induction.kernels.jit import kernel


@kernel
def log_of(x, logs):
    """``np.log(x)``; from the table when ``x`` is a whole number it holds (the table's entries
    are the same ``np.log`` values, so the result is identical)."""
    if logs.shape[0] > 1 and x < logs.shape[0] and x == np.floor(x):
        return logs[int(x)]
    return np.log(x)


@kernel
def impurity(counts, criterion, logs):
    """``criteria.gini`` (criterion ``GINI``) or ``criteria.entropy`` (else) of one class-count vector."""
    total = 0.0
    for c in range(counts.shape[0]):
        total += counts[c]
    if criterion == GINI:
        if not total > 0:
            return 0.0
        squares = 0.0
        for c in range(counts.shape[0]):
            p = counts[c] / total
            squares += p * p
        return 1.0 - squares
    acc = 0.0
    for c in range(counts.shape[0]):
        if counts[c] > 0:
            acc = acc - counts[c] * (log_of(counts[c], logs) / LN2)
    if not total > 0:
        return 0.0
    return acc / total + log_of(total, logs) / LN2


@kernel
def sides(left, whole, right):
    """A two-way split's right side (``whole - left``, written to ``right``) and the weights of
    the left and right sides, summed class by class."""
    n_left = 0.0
    n_right = 0.0
    for c in range(left.shape[0]):
        right[c] = whole[c] - left[c]
        n_left += left[c]
        n_right += right[c]
    return n_left, n_right
