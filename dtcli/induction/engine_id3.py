"""ID3's split scores for every frontier node at once (numba; part of ``engine_kernels``).

The scalar twins of ``split.score_split``, ``split.admissible`` and
``split.choose`` and of the measures in ``criteria`` they use
(``information_gain``, ``gini_gain``, ``entropy``), in the same order of
operations, on records grouped by node as the level-wise engine holds them.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from dtcli.induction.cart_kernels import ENTROPY, impurity
from dtcli.induction.cart_kernels import GINI as IMPURITY_GINI
from dtcli.induction.engine_c45 import block_end, value_counts

GAIN, RATIO, GINI = 0, 1, 2
NO_LOGS = np.zeros(1)  # no table of logarithms: weights may be fractional
AVERAGE_GAIN_SLACK = 1e-3


@njit(cache=True, nogil=True)
def _entropy(counts):
    return impurity(counts, ENTROPY, NO_LOGS)


@njit(cache=True, nogil=True)
def _gini(counts):
    return impurity(counts, IMPURITY_GINI, NO_LOGS)


@njit(cache=True, nogil=True)
def score_split(counts, total, criterion):
    """``split.score_split``: (information gain, criterion score) of a (values, classes) split."""
    n_values, n_classes = counts.shape
    sizes = np.zeros(n_values)
    column = np.zeros(n_classes)
    known = 0.0
    for v in range(n_values):
        for c in range(n_classes):
            sizes[v] += counts[v, c]
            column[c] += counts[v, c]
        known += sizes[v]
    share = known / total if total > 0 else 0.0
    gain = _entropy(column)
    for v in range(n_values):
        if sizes[v] > 0:
            gain -= (sizes[v] / known) * _entropy(counts[v])
    if share != 1.0:
        gain *= share
    if criterion == GAIN:
        return gain, gain
    if criterion == GINI:
        weighted = 0.0
        for v in range(n_values):
            if sizes[v] > 0:
                weighted += (sizes[v] / known) * _gini(counts[v])
        return gain, (_gini(column) - weighted) * share
    if total > known:
        with_missing = np.zeros(n_values + 1)
        with_missing[:n_values] = sizes
        with_missing[n_values] = total - known
        split_info = _entropy(with_missing)
    else:
        split_info = _entropy(sizes)
    return gain, (gain / split_info if split_info > 0 else -np.inf)


@njit(cache=True, nogil=True)
def id3_nominal(codes, rec_row, rec_y, rec_w, rec_node, active, available, totals, n_values, n_classes, min_leaf,
                criterion):
    """Per node: admissible (``split.admissible``), gain and score of the split on one nominal
    attribute (``codes`` by row); ``available[k]``: the attribute is not yet used on k's path.
    ``min_leaf`` below 0: none given."""
    n_nodes = active.shape[0]
    ok = np.zeros(n_nodes, dtype=np.bool_)
    gains = np.zeros(n_nodes)
    scores = np.zeros(n_nodes)
    counts = np.zeros((n_values, n_classes))
    start = 0
    while start < rec_row.shape[0]:
        k = rec_node[start]
        block, start = start, block_end(rec_node, start)
        if not (active[k] and available[k]):
            continue
        value_counts(codes, rec_row, rec_y, rec_w, block, start, counts)
        branches = 0
        for v in range(n_values):
            size = 0.0
            for c in range(n_classes):
                size += counts[v, c]
            if (size >= min_leaf - 1e-6) if min_leaf > 0 else (size > 0):
                branches += 1
        if branches < 2:
            continue
        ok[k] = True
        gains[k], scores[k] = score_split(counts, totals[k], criterion)
    return ok, gains, scores


@njit(cache=True, nogil=True)
def id3_select(found, gains, scores, criterion):
    """``split.choose`` per node: the first best finite score (gain ratio: among the candidates
    with at least the average gain, less 1e-3). Returns the attribute (-1: none) and its score."""
    n_nodes, n_attributes = found.shape
    best = np.full(n_nodes, -1, dtype=np.int64)
    best_scores = np.zeros(n_nodes)
    for k in range(n_nodes):
        average, n = 0.0, 0
        if criterion == RATIO:
            for a in range(n_attributes):
                if found[k, a] and np.isfinite(scores[k, a]):
                    average += gains[k, a]
                    n += 1
            if n > 0:
                average = average / n
        for a in range(n_attributes):
            if not (found[k, a] and np.isfinite(scores[k, a])):
                continue
            if criterion == RATIO and not gains[k, a] >= average - AVERAGE_GAIN_SLACK:
                continue
            if best[k] < 0 or scores[k, a] > best_scores[k]:
                best[k], best_scores[k] = a, scores[k, a]
    return best, best_scores
