"""What the compiled CART builder needs for ``--chi2-alpha`` and ``--max-leaves`` (numba).

``chi_square`` is ``chisquare.chi_square`` on a split's (2, classes) counts,
bit for bit: numpy's sums (``pairwise_sum``) in numpy's order (checked by
tests/test_cart_engine.py against the reference on random tables), and the
p-value's series or continued fraction with the C library's ``exp`` and
``log``, as Python's ``math`` calls them; ``lgammas[df]`` is
``math.lgamma(df / 2)``, computed in Python, since numba's ``lgamma`` is
not the one Python uses. ``split_gain`` is ``cart_choose``'s ``gain`` of
the chosen split (information gain times the known share), which orders
best-first growth. ``heap_push``/``heap_pop`` keep the best-first frontier
as ``heapq`` keeps ``(key, order)`` pairs.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from dtcli.induction.cart.kernels.scores import ENTROPY, impurity, pairwise_sum

NO_LOGS = np.zeros(1)


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def chi2_sf(statistic, df, lgamma_a):
    """``chisquare.chi2_sf``: Q(df / 2, statistic / 2), ``lgamma_a`` being lgamma(df / 2)."""
    if statistic <= 0:
        return 1.0
    a = df / 2.0
    x = statistic / 2.0
    if x < a + 1:
        term = 1.0 / a
        total = term
        n = a
        for _ in range(10_000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - lgamma_a))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(-x + a * math.log(x) - lgamma_a) * h)


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def heap_push(keys, orders, slots, size, key, order, slot):
    """Add ``(key, order)`` with its payload ``slot``; returns the new size."""
    i = size
    while i > 0:
        parent = (i - 1) // 2
        if keys[parent] < key or (keys[parent] == key and orders[parent] < order):
            break
        keys[i], orders[i], slots[i] = keys[parent], orders[parent], slots[parent]
        i = parent
    keys[i], orders[i], slots[i] = key, order, slot
    return size + 1


@njit(cache=True, nogil=True)
def heap_pop(keys, orders, slots, size):
    """Remove the smallest ``(key, order)``; returns its slot and the new size."""
    top = slots[0]
    size -= 1
    key, order, slot = keys[size], orders[size], slots[size]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and (
            keys[child + 1] < keys[child] or (keys[child + 1] == keys[child] and orders[child + 1] < orders[child])
        ):
            child += 1
        if key < keys[child] or (key == keys[child] and order < orders[child]):
            break
        keys[i], orders[i], slots[i] = keys[child], orders[child], slots[child]
        i = child
    if size > 0:
        keys[i], orders[i], slots[i] = key, order, slot
    return top, size
