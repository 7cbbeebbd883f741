"""C4.5 with the Gini criterion in the level-wise engine (``--criterion gini``).

J48's candidates are found as usual (each numeric attribute's cut by gain,
the MDL penalty and the minimum split); the criterion then picks among them
by the decrease in Gini index of each candidate's known cases, times their
share of the node's weight (``split.score_split``), the first best by more
than 1e-6 (``c45._first_max``). ``gini_scores`` gives that score for every
(node, attribute) of a level at once: one ``bincount`` per attribute of the
level's records by node, branch and class (records are grouped by node and
in row order, so the counts are the per-node path's), then the Gini
arithmetic of ``criteria`` on all nodes together.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.criteria.impurity import gini, seqsum


def gini_scores(columns, level, attributes, n_classes: int) -> np.ndarray:
    """The Gini score of each found candidate at the level (``level``: the engine's ``Candidates``)."""
    n_nodes = level.found.shape[0]
    scores = np.zeros(level.found.shape)
    recs = level.recs
    node = recs.node.astype(np.int64)
    totals = np.bincount(node, weights=recs.w, minlength=n_nodes)  # each node's weight, missing values too
    for i, attribute in enumerate(attributes):
        if not level.found[:, i].any():
            continue
        if attribute.is_nominal:
            branch = columns.nominal[columns.slot[i]][recs.row].astype(np.int64)
            width = columns.n_values[i]
        else:
            values = columns.numeric[columns.slot[i]][recs.row]
            lower = level.cuts[i][0]
            branch = np.where(np.isnan(values), -1, np.where(values <= lower[node], 0, 1))
            width = 2
        known = branch >= 0
        index = (node[known] * width + branch[known]) * n_classes + recs.y[known]
        counts = np.bincount(index, weights=recs.w[known], minlength=n_nodes * width * n_classes)
        scores[:, i] = np.where(level.found[:, i], gini_split(counts.reshape(n_nodes, width, n_classes), totals), 0.0)
    return scores


def gini_split(counts: np.ndarray, totals: np.ndarray) -> np.ndarray:
    """``score_split(c, total, "gini")[1]`` for each node's (branches, classes) counts ``c`` of its known
    cases and its ``totals`` weight (the known share scales the decrease, as ``c45_gain`` scales the gain)."""
    n_nodes = counts.shape[0]
    with np.errstate(divide="ignore", invalid="ignore"):
        known = seqsum(seqsum(counts, axis=-1), axis=-1)
        share = np.where(totals > 0, known / totals, 0.0)
        share = np.where(known == totals, 1.0, share)  # no value missing: exactly 1, as score_split takes it
        sizes = seqsum(counts, axis=-1)
        whole = seqsum(sizes, axis=-1)
        values = gini(counts)
        weighted = np.zeros(n_nodes)
        for b in range(counts.shape[1]):  # branch by branch, as weighted_impurity adds them
            weighted = np.where(sizes[:, b] > 0, weighted + (sizes[:, b] / whole) * values[:, b], weighted)
        return (gini(counts.sum(axis=1)) - weighted) * share
