"""The split on a nominal attribute at every frontier node, for C4.5 and ID3 (numba; gathered by ``loops.py``)."""

from __future__ import annotations

import numpy as np

from dtcli.induction.criteria.constants import SMALL
from dtcli.induction.kernels.jit import kernel
from dtcli.induction.levelwise.kernels.c45 import block_end, branch_size, c45_gain, c45_ratio, value_counts
from dtcli.induction.levelwise.kernels.id3 import id3_admitted, score_split

C45 = -1  # ``criterion`` of ``nominal_splits`` for C4.5: J48's admission, gain and gain ratio


@kernel
def c45_admitted(counts, min_leaf):
    """How many branches of a (values, classes) split hold ``min_leaf`` cases (within 1e-6)."""
    branches = 0
    for v in range(counts.shape[0]):
        if branch_size(counts, v) - min_leaf > -SMALL:
            branches += 1
    return branches


@kernel
def nominal_splits(codes, n_values, available, recs, front, criterion):
    """Per node: admissible, gain and score of the split on one nominal attribute (``codes`` by
    row). ``criterion``: ``C45`` (two branches with ``min_leaf`` cases; the score is the gain
    ratio) or an ID3 criterion code (``split.admissible``, ``min_leaf`` below 0: none given;
    ``split.score_split``). ``available[k]``: the attribute may split node k (ID3: not yet used
    on its path). The records come grouped by node, so each node's (value, class) weights are
    summed in a small buffer and scored at once."""
    n_nodes = front.active.shape[0]
    ok = np.zeros(n_nodes, dtype=np.bool_)
    gains = np.zeros(n_nodes)
    scores = np.zeros(n_nodes)
    counts = np.zeros((n_values, front.n_classes))
    start = 0
    while start < recs.row.shape[0]:
        k = recs.node[start]
        block, start = start, block_end(recs.node, start)
        if not (front.active[k] and available[k]):
            continue
        value_counts(codes, recs, block, start, counts)
        if criterion == C45:
            if c45_admitted(counts, front.min_leaf) < 2:
                continue
            ok[k] = True
            gains[k] = c45_gain(counts, front.totals[k])
            scores[k] = c45_ratio(counts, front.totals[k], gains[k])
        else:
            if id3_admitted(counts, front.min_leaf) < 2:
                continue
            ok[k] = True
            gains[k], scores[k] = score_split(counts, front.totals[k], criterion)
    return ok, gains, scores
