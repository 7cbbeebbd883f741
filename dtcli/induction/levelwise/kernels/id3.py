"""ID3's split scores for every frontier node at once (numba; gathered by ``levelwise/kernels/loops.py``).

The scalar twins of ``split.score_split``, ``split.admissible`` and
``choice.choose`` and of the measures in ``criteria`` they use
(``information_gain``, ``gini_gain``, ``entropy``), in the same order of
operations, on records grouped by node as the level-wise engine holds them.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.criteria.constants import ENTROPY, GINI, RATIO
from dtcli.induction.kernels.arrays import copy_into
from dtcli.induction.kernels.impurity import impurity, sides
from dtcli.induction.kernels.jit import kernel
from dtcli.induction.levelwise.kernels.c45 import branch_size, cut_outputs

NO_LOGS = np.zeros(1)  # no table of logarithms: weights may be fractional
AVERAGE_GAIN_SLACK = 1e-3


@kernel
def _entropy(counts):
    return impurity(counts, ENTROPY, NO_LOGS)


@kernel
def _gini(counts):
    return impurity(counts, GINI, NO_LOGS)


@kernel
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
    if criterion == ENTROPY:
        return gain, gain
    if criterion == GINI:
        weighted = 0.0
        for v in range(n_values):
            if sizes[v] > 0:
                weighted += (sizes[v] / known) * _gini(counts[v])
        return gain, (_gini(column) - weighted) * share
    if total > known:
        with_missing = np.zeros(n_values + 1)
        for v in range(n_values):  # (a loop: a slice assignment compiles numpy's shape checks)
            with_missing[v] = sizes[v]
        with_missing[n_values] = total - known
        split_info = _entropy(with_missing)
    else:
        split_info = _entropy(sizes)
    return gain, (gain / split_info if split_info > 0 else -np.inf)


@kernel
def id3_admitted(counts, min_leaf):
    """How many branches of a (branches, classes) split ``split.admissible`` counts: those with
    ``min_leaf`` cases (less 1e-6), or with any weight when ``min_leaf`` is below 0 (none given)."""
    branches = 0
    for b in range(counts.shape[0]):
        size = branch_size(counts, b)
        if (size >= min_leaf - 1e-6) if min_leaf > 0 else (size > 0):
            branches += 1
    return branches


@kernel
def average_gain(found, gains, scores, k):
    """The average gain of node ``k``'s candidates with a finite score (0 when none)."""
    average, n = 0.0, 0
    for a in range(found.shape[1]):
        if found[k, a] and np.isfinite(scores[k, a]):
            average += gains[k, a]
            n += 1
    if n > 0:
        average = average / n
    return average


@kernel
def id3_select(found, gains, scores, criterion):
    """``choice.choose`` per node: the first best finite score (gain ratio: among the candidates
    with at least the average gain, less 1e-3). Returns the attribute (-1: none) and its score."""
    n_nodes, n_attributes = found.shape
    best = np.full(n_nodes, -1, dtype=np.int64)
    best_scores = np.zeros(n_nodes)
    for k in range(n_nodes):
        average = average_gain(found, gains, scores, k) if criterion == RATIO else 0.0
        for a in range(n_attributes):
            if not (found[k, a] and np.isfinite(scores[k, a])):
                continue
            if criterion == RATIO and not gains[k, a] >= average - AVERAGE_GAIN_SLACK:
                continue
            if best[k] < 0 or scores[k, a] > best_scores[k]:
                best[k], best_scores[k] = a, scores[k, a]
    return best, best_scores


@kernel
def _cut_gain(left, known, right, known_entropy):
    """``numeric.plain_gains`` of one cut: H(known) less the weighted entropy of its two sides."""
    n_left, n_right = sides(left, known, right)
    n = n_left + n_right
    after = (n_left * _entropy(left) + n_right * _entropy(right)) / (n if n > 0 else 1.0)
    return known_entropy - after


@kernel
def _single(counts):
    """The one class present in ``counts``, or -1 (none or several)."""
    single = -1
    for c in range(counts.shape[0]):
        if counts[c] > 0:
            if single >= 0:
                return -1
            single = c
    return single


@kernel
def id3_numeric(lst, recs, distinct, front, criterion, margin):
    """Mitchell's numeric cut (``numeric.boundary_cut``) on one attribute for every active node,
    then ``split.admissible`` and ``score_split`` of that cut.

    ``lst``: the attribute's ``SortedList`` (node ``k``'s records from
    ``starts[k]`` to ``starts[k + 1]``, sorted by value; classes and weights are the records'
    in ``recs``). A cut lies between values more than 1e-5 apart and must
    separate classes (not one single class on both sides); the first cut whose
    gain beats the best so far by more than 1e-6 is kept. ``contested[k]``:
    some comparison fell within ``margin`` of its threshold, so that the
    reference's arithmetic (numpy's logarithm) might decide it otherwise.
    Returns per node: found, lower and upper value of the cut, gain, score,
    contested.
    """
    n_nodes = front.active.shape[0]
    C = front.n_classes
    sv, sr, sy, sw = lst.values, lst.rec, recs.y, recs.w
    found, lowers, uppers, gains, scores = cut_outputs(n_nodes)
    contested = np.zeros(n_nodes, dtype=np.bool_)
    known = np.zeros(C)
    left = np.zeros(C)
    right = np.zeros(C)
    below = np.zeros(C)  # the pending cut's rows since the cut before it
    pending_left = np.zeros(C)
    previous_left = np.zeros(C)
    above = np.zeros(C)
    best_left = np.zeros(C)
    branches = np.zeros((2, C))
    for k in range(n_nodes):
        block, end = lst.starts[k], lst.starts[k + 1]
        if not front.active[k] or end - block < 2:
            continue
        known[:] = 0.0
        for r in range(block, end):
            known[sy[sr[r]]] += sw[sr[r]]
        known_entropy = _entropy(known)
        left[:] = 0.0
        previous_left[:] = 0.0
        pending = False
        pending_gain, pending_lower, pending_upper = 0.0, 0.0, 0.0
        best_gain, lower, upper = 0.0, 0.0, 0.0
        previous = np.nan
        for r in range(block, end + 1):
            value = distinct[sv[r]] if r < end else np.nan
            if r == end or (not np.isnan(previous) and previous + 1e-5 < value):
                if pending:  # the pending cut's class boundary test needs the rows up to this cut
                    for c in range(C):
                        above[c] = (left[c] if r < end else known[c]) - pending_left[c]
                    one = _single(below)
                    if not (one >= 0 and one == _single(above)):
                        if abs(pending_gain - best_gain - 1e-6) <= margin:
                            contested[k] = True
                        if pending_gain - best_gain > 1e-6:
                            best_gain, lower, upper = pending_gain, pending_lower, pending_upper
                            copy_into(best_left, pending_left)
                            found[k] = True
                    pending = False
                if r < end:
                    for c in range(C):
                        below[c] = left[c] - previous_left[c]
                        pending_left[c] = left[c]
                        previous_left[c] = left[c]
                    pending_gain = _cut_gain(left, known, right, known_entropy)
                    pending_lower, pending_upper = previous, value
                    pending = True
            if r < end:
                left[sy[sr[r]]] += sw[sr[r]]
                previous = value
        if not found[k]:
            continue
        for c in range(C):
            branches[0, c] = best_left[c]
            branches[1, c] = known[c] - best_left[c]
        if id3_admitted(branches, front.min_leaf) < 2:
            found[k] = False
            continue
        lowers[k], uppers[k] = lower, upper
        gains[k], scores[k] = score_split(branches, front.totals[k], criterion)
    return found, lowers, uppers, gains, scores, contested


@kernel
def id3_contested(found, gains, scores, criterion, best, best_scores, margin):
    """Nodes whose choice (``id3_select``) rests on a comparison within ``margin``: another
    candidate scores within it of the best, or (gain ratio) a gain lies within it of the average
    gain less the slack. The reference decides those (its logarithms may differ in the last bit)."""
    n_nodes, n_attributes = found.shape
    contested = np.zeros(n_nodes, dtype=np.bool_)
    for k in range(n_nodes):
        average = average_gain(found, gains, scores, k)
        for a in range(n_attributes):
            if not (found[k, a] and np.isfinite(scores[k, a])):
                continue
            if criterion == RATIO and abs(gains[k, a] - (average - AVERAGE_GAIN_SLACK)) <= margin:
                contested[k] = True
            if a != best[k] and best[k] >= 0 and abs(scores[k, a] - best_scores[k]) <= margin:
                contested[k] = True
    return contested
