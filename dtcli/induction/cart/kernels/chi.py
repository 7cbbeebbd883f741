"""What the compiled CART builder needs for ``--chi2-alpha`` and ``--max-leaves`` (numba).

``chi_square`` is ``criteria/chisquare.py: chi_square`` on a split's (2, classes) counts,
bit for bit: numpy's sums (``pairwise_sum``) in numpy's order (checked by
tests/induction/cart/test_cart_engine.py against the reference on random
tables), and the p-value by ``chisquare.upper_gamma`` itself, compiled (the
C library's ``exp`` and ``log``, as Python's ``math`` calls them); ``lgammas[df]`` is
``math.lgamma(df / 2)``, computed in Python, since numba's ``lgamma`` is
not the one Python uses. ``split_gain`` is ``search/cart.py: cart_choose``'s
``gain`` of the chosen split (information gain times the known share), which
orders best-first growth.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.cart.kernels.scores import pairwise_sum
from dtcli.induction.criteria.chisquare import upper_gamma as _upper_gamma
from dtcli.induction.criteria.constants import ENTROPY
from dtcli.induction.kernels.impurity import impurity
from dtcli.induction.kernels.jit import kernel

NO_LOGS = np.zeros(1)
upper_gamma = kernel(_upper_gamma)  # the very function the reference calls


@kernel
def chi_square(counts, lgammas):
    """(statistic, df, p-value) of the (branches, classes) ``counts``: empty rows and columns
    left out, df = (rows - 1)(columns - 1)."""
    n_rows, n_cols = counts.shape
    keep_rows = np.empty(n_rows, dtype=np.int64)
    keep_cols = np.empty(n_cols, dtype=np.int64)
    r = 0
    for i in range(n_rows):
        if pairwise_sum(np.ascontiguousarray(counts[i])) > 0:
            keep_rows[r] = i
            r += 1
    k = 0
    for j in range(n_cols):
        column = 0.0
        for i in range(n_rows):
            column += counts[i, j]
        if column > 0:
            keep_cols[k] = j
            k += 1
    if r < 2 or k < 2:
        return 0.0, 0, 1.0
    table = np.empty((r, k))
    for i in range(r):
        for j in range(k):
            table[i, j] = counts[keep_rows[i], keep_cols[j]]
    # numpy's boolean indexing leaves the table in column-major order: its total adds the cells
    # column by column (pairwise), its row sums add them in order
    total = pairwise_sum(table.T.copy().ravel())
    row_sums = np.zeros(r)
    for i in range(r):
        for j in range(k):
            row_sums[i] += table[i, j]
    col_sums = table[0].copy()
    for i in range(1, r):
        for j in range(k):
            col_sums[j] += table[i, j]
    terms = np.empty(r * k)
    for i in range(r):
        for j in range(k):
            expected = row_sums[i] * col_sums[j] / total
            d = table[i, j] - expected
            terms[i * k + j] = d * d / expected
    statistic = pairwise_sum(terms)
    df = (r - 1) * (k - 1)
    return statistic, df, chi2_sf(statistic, df, lgammas[df])


@kernel
def chi2_sf(statistic, df, lgamma_a):
    """``chisquare.chi2_sf``: Q(df / 2, statistic / 2), ``lgamma_a`` being lgamma(df / 2)."""
    if statistic <= 0:
        return 1.0
    return upper_gamma(df / 2.0, statistic / 2.0, lgamma_a)


@kernel
def split_gain(counts, total):
    """Information gain of a (2, classes) split of the known cases, times their share of
    ``total`` (the node's weight)."""
    n_classes = counts.shape[1]
    column = np.zeros(n_classes)
    for c in range(n_classes):
        column[c] = counts[0, c] + counts[1, c]
    known = pairwise_sum(counts.ravel())
    after = pairwise_sum(counts[0].copy()) * impurity(counts[0], ENTROPY, NO_LOGS) + pairwise_sum(
        counts[1].copy()
    ) * impurity(counts[1], ENTROPY, NO_LOGS)
    gain = impurity(column, ENTROPY, NO_LOGS) - after / known
    return gain * (known / total if total > 0 else 0.0)
