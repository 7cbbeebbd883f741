"""The split on a nominal attribute at every frontier node, for C4.5 and for ID3 (numba; gathered by ``loops.py``)."""

from __future__ import annotations

import numpy as np

from dtcli.induction.criteria.constants import SMALL
from dtcli.induction.kernels.jit import kernel
from dtcli.induction.levelwise.kernels.c45 import block_end, branch_size, c45_gain, c45_ratio, value_counts
from dtcli.induction.levelwise.kernels.id3 import id3_admitted, score_split

C45 = -1  # the criterion code of C4.5 (``c45_nominal_splits``: J48's admission, gain and gain ratio)


@kernel
def c45_admitted(counts, min_leaf):
    """How many branches of a (values, classes) split hold ``min_leaf`` cases (within 1e-6)."""
    branches = 0
    for v in range(counts.shape[0]):
        if branch_size(counts, v) - min_leaf > -SMALL:
            branches += 1
    return branches


@kernel
def node_counts(codes, recs, front, available, start, counts):
    """The node ``k`` of record ``start`` and the end of its records (the records come grouped by
    node); when ``available[k]`` and the node is active, its (value, class) weights summed into
    ``counts``, else ``k`` is -1."""
    k = recs.node[start]
    end = block_end(recs.node, start)
    if not (front.active[k] and available[k]):
        return -1, end
    value_counts(codes, recs, start, end, counts)
    return k, end


@kernel
def split_outputs(front, n_values):
    """Per node: admissible, gain and score (all False and 0), and the (values, classes) buffer."""
    n_nodes = front.active.shape[0]
    counts = np.zeros((n_values, front.n_classes))
    return np.zeros(n_nodes, dtype=np.bool_), np.zeros(n_nodes), np.zeros(n_nodes), counts


@kernel
def c45_nominal_splits(codes, n_values, available, recs, front):
    """Per node: admissible, gain and gain ratio of C4.5's split on one nominal attribute (``codes``
    by row): J48's admission (two branches with ``min_leaf`` cases), gain and gain ratio.
    ``available[k]``: the attribute may split node k. Apart from ``nominal_splits``, so that a C4.5
    run does not compile ID3's scores (some 3 s of a first run)."""
    ok, gains, scores, counts = split_outputs(front, n_values)
    start = 0
    while start < recs.row.shape[0]:
        k, start = node_counts(codes, recs, front, available, start, counts)
        if k < 0 or c45_admitted(counts, front.min_leaf) < 2:
            continue
        ok[k] = True
        gains[k] = c45_gain(counts, front.totals[k])
        scores[k] = c45_ratio(counts, front.totals[k], gains[k])
    return ok, gains, scores


@kernel
def nominal_splits(codes, n_values, available, recs, front, criterion):
    """Per node: admissible, gain and score of ID3's split on one nominal attribute (``codes`` by
    row). ``criterion``: an ID3 criterion code (``split.admissible``, ``min_leaf`` below 0: none
    given; ``split.score_split``). ``available[k]``: the attribute may split node k (not yet used
    on its path). Each node's (value, class) weights are summed in a small buffer and scored at once."""
    ok, gains, scores, counts = split_outputs(front, n_values)
    start = 0
    while start < recs.row.shape[0]:
        k, start = node_counts(codes, recs, front, available, start, counts)
        if k < 0 or id3_admitted(counts, front.min_leaf) < 2:
            continue
        ok[k] = True
        gains[k], scores[k] = score_split(counts, front.totals[k], criterion)
    return ok, gains, scores
