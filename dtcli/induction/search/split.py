"""Split search: score every candidate attribute at a node and pick the best.

Contract: ``candidates`` scores every attribute at a node; ``choice.choose``
returns the best or None. Ties break deterministically (man/dtree-algorithms.7): the
highest score, then the attribute that comes first in column order.

Scores are compared exactly as computed, and they are computed in Weka's
order of operations (see ``criteria/impurity.py``'s ``entropy``). So when two splits have
scores that are equal in exact arithmetic but differ in the last bit, the
tie breaks the same way it does in Weka's Id3; identical computed scores (a
duplicated column, say) go to the first column. ``choice.near_ties`` names such
cases so that reports can point them out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dtcli.induction.criteria.impurity import entropy, gini_gain, information_gain, seqsum
from dtcli.induction.search.numeric import boundary_cut, cut_table
from dtcli.model.table import Table
from dtcli.model.tree import NominalTest, NumericTest


@dataclass(eq=False)  # arrays inside: a field-wise == would fail on them (and none is needed)
class Candidate:
    """A scored split on one attribute: ``branch_counts`` is (branches, classes).

    ``gain`` is the information gain, ``score`` the criterion's value; with
    missing values both are scaled by the known share (C4.5).
    """

    attribute: int
    branch_counts: np.ndarray
    gain: float
    score: float
    test: object = None


def nominal_branch_counts(
    codes: np.ndarray, y: np.ndarray, weights: np.ndarray, n_values: int, n_classes: int
) -> np.ndarray:
    """Weighted class counts per value: a (values, classes) matrix; missing codes skipped."""
    known = codes >= 0
    flat = codes[known].astype(np.int64) * n_classes + y[known]
    counts = np.bincount(flat, weights=weights[known], minlength=n_values * n_classes)
    return counts.reshape(n_values, n_classes)


def score_split(counts: np.ndarray, total: float, criterion: str) -> tuple[float, float]:
    """(information gain, criterion score) of a split whose known cases are ``counts``.

    Cases with a missing value (``total`` less the known weight) are treated
    as C4.5 treats them: gains are multiplied by the known share, and split
    information counts the missing cases as one more branch. With no missing
    value the share is exactly 1 and the arithmetic is Weka's Id3's.
    """
    known = float(seqsum(seqsum(counts, axis=1)))
    share = known / total if total > 0 else 0.0
    gain = information_gain(counts)
    if share != 1.0:
        gain *= share
    if criterion == "gain":
        return gain, gain
    if criterion == "gini":
        return gain, gini_gain(counts) * share
    sizes = seqsum(counts, axis=1)
    split_info = entropy(np.append(sizes, total - known) if total > known else sizes)
    return gain, (gain / split_info if split_info > 0 else float("-inf"))


def admissible(counts: np.ndarray, min_leaf: float | None) -> bool:
    """C4.5's rule: at least two branches hold ``min_leaf`` cases (any two non-empty without it)."""
    sizes = seqsum(counts, axis=1)
    return int((sizes >= (min_leaf or 0) - 1e-6).sum() if min_leaf else (sizes > 0).sum()) >= 2


def candidates(
    table: Table, attributes: list[int], criterion: str, numeric: str | None = None, min_leaf: float | None = None
) -> list[Candidate]:
    """Score a split on each of ``attributes`` over every row of ``table`` (a node's rows).

    Nominal attributes split one branch per value; numeric ones (when
    ``numeric`` names a threshold mode) at the best class-boundary cut.
    """
    y, weights = table.y, table.weights
    n_classes = len(table.classes)
    total = float(np.bincount(y, weights=weights, minlength=n_classes).sum())  # as the level-wise engine
    found = []
    for i in attributes:
        attribute = table.attributes[i]
        if attribute.is_nominal:
            counts = nominal_branch_counts(table.columns[i], y, weights, len(attribute.values), n_classes)
            test = NominalTest(attribute)
        elif numeric:
            cut = boundary_cut(cut_table(table.columns[i], y, weights, n_classes))
            if cut is None:
                continue
            counts, test = cut.branch_counts, NumericTest(attribute, cut.threshold)
        else:
            continue
        if not admissible(counts, min_leaf):
            continue
        gain, score = score_split(counts, total, criterion)
        found.append(Candidate(i, counts, gain, score, test))
    return found
