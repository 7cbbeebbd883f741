"""Class probabilities of rows that met a missing value, summed in J48's order, so they equal J48's to the last bit.

A row whose tested value is missing goes down every non-empty branch with
weight ``weight x (branch's training weight / node's)`` and its probability is
the sum of what the branches return (ClassifierTree.getProbs in Weka 3.6): a
sum shaped like the tree, each node adding its branches' sums left to right.
The level-by-level descent of ``predict.descend`` adds the same terms in
another order, which changes the last bits; rows that should tie (say at 1.0)
then do not, and the ROC area, which counts ties as half, differs from
Weka's. Here the records of those rows are kept level by level and summed
bottom-up, one pass per branch position, in Weka's order. Empty branches
(training weight at most ``EMPTY``) are skipped, as Weka skips its empty sons.
"""

from __future__ import annotations

import numpy as np

EMPTY = 1e-6  # a node of no more training weight than this is empty (Weka's Utils.eq tolerance)


def in_weka_order(flat, rows: np.ndarray) -> np.ndarray:
    """The (len(rows), classes) probabilities of table ``rows`` through the layout ``flat``."""
    totals, children, empty = _sizes(flat)
    n = len(rows)
    level = (np.zeros(n, dtype=np.int64), np.ones(n), np.full(n, -1), np.zeros(n, dtype=np.int64), np.arange(n))
    levels = []
    while True:
        levels.append(level)
        slots, weights, _, _, owner = level
        inner = np.flatnonzero(~flat.leaf[slots])
        if not len(inner):
            break
        branch = flat.route(rows[owner[inner]], slots[inner])
        known = branch >= 0
        parents, kids, shares = [inner[known]], [flat.cstart[slots[inner[known]]] + branch[known]], [None]
        missing = inner[~known]
        if len(missing):
            many = children[slots[missing]]
            picked = np.repeat(missing, many)
            offset = np.arange(len(picked)) - np.repeat(np.cumsum(many) - many, many)
            kid = flat.cstart[slots[picked]] + offset
            keep = ~empty[kid]
            picked, kid = picked[keep], kid[keep]
            parents.append(picked)
            kids.append(kid)
            shares.append(totals[kid] / totals[slots[picked]])
        parent = np.concatenate(parents)
        kid = np.concatenate(kids)
        weight = np.concatenate([weights[p] if s is None else s * weights[p] for p, s in zip(parents, shares)])
        level = (kid, weight, parent, kid - flat.cstart[slots[parent]], owner[parent])
    return _sum_up(flat, levels)


def _sizes(flat):
    """Each slot's training weight, number of branches, and whether it is an empty leaf."""
    totals = flat.totals
    children = np.diff(np.append(flat.cstart, len(flat.leaf)))
    empty = flat.leaf & (totals <= EMPTY)
    return totals, children, empty


def _sum_up(flat, levels) -> np.ndarray:
    """Each record's probabilities, from the deepest level up: a leaf's are ``weight x`` its
    distribution; a split's, the sum of its branches' in branch order (starting from 0, as Weka)."""
    below = None
    values = None
    for slots, weights, parent, position, _ in reversed(levels):
        values = np.zeros((len(slots), flat.dist.shape[1]))
        leaf = flat.leaf[slots]
        values[leaf] = weights[leaf, None] * flat.dist[slots[leaf]]
        if below is not None:
            up, at, sums = below
            for j in np.flatnonzero(np.bincount(at)).tolist():  # branch positions in order; one record per parent each
                chosen = at == j
                values[up[chosen]] += sums[chosen]
        below = (parent, position, values)
    return values
