"""Threshold search on a numeric attribute: the binary split ``A <= t``.

Contract: ``cut_table`` sorts the known values of one attribute at a node
once and lists every candidate cut (between adjacent distinct values) with
the class counts on each side, all by array operations. The algorithms pick
from it: C4.5 (``c45_cut``, as Weka's J48 does it) and Mitchell §3.7.2's
ID3 extension (``boundary_cut``: cuts where the class changes, plain gain).
Ties go to the lowest cut. Values closer than 1e-5 count as equal (J48).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dtcli.induction.criteria.constants import EQUAL_VALUES, SMALL, eq, gr, gr_or_eq, sm, sm_or_eq
from dtcli.induction.criteria.impurity import entropy, seqsum
from dtcli.induction.criteria.midpoint import midpoint

WEKA_SMALL = SMALL


@dataclass(eq=False)  # arrays inside: a field-wise == would fail on them (and none is needed)
class CutTable:
    """All candidate cuts of one attribute at one node.

    ``lower[i]``/``upper[i]`` are the values either side of cut ``i``;
    ``left[i]`` the class weights at or below it, ``right[i]`` above it;
    ``left_rows[i]`` how many rows (not weights) lie at or below it.
    ``known``: class weights of the rows with a value; ``total``: the weight
    of all rows at the node, missing values included.
    """

    lower: np.ndarray
    upper: np.ndarray
    left: np.ndarray
    right: np.ndarray
    left_rows: np.ndarray
    known: np.ndarray
    known_rows: int
    total: float

    @property
    def n(self) -> int:
        return len(self.lower)


@dataclass(eq=False)  # arrays inside: a field-wise == would fail on them (and none is needed)
class Cut:
    """The chosen threshold with its statistics."""

    threshold: float
    lower: float
    upper: float
    gain: float
    branch_counts: np.ndarray
    n_candidates: int


def cut_table(
    values: np.ndarray,
    y: np.ndarray,
    w: np.ndarray,
    n_classes: int,
    equal: float = EQUAL_VALUES,
    total: float | None = None,
) -> CutTable:
    """Sort the known values once; cumulative class weights give every cut at once.

    Adjacent values closer than ``equal`` are one value (no cut between them).
    ``total``: the node's weight, missing values included (default: the sum of ``w``).
    """
    known = ~np.isnan(values)
    v, cls, wt = values[known], y[known], w[known]
    order = np.argsort(v, kind="stable")
    v, cls, wt = v[order], cls[order], wt[order]
    onehot = np.zeros((len(v), n_classes))
    onehot[np.arange(len(v)), cls] = wt
    running = np.cumsum(onehot, axis=0)
    known_counts = running[-1] if len(v) else np.zeros(n_classes)
    cuts = np.flatnonzero(v[:-1] + equal < v[1:])
    left = running[cuts]
    return CutTable(
        lower=v[cuts],
        upper=v[cuts + 1],
        left=left,
        right=known_counts - left,
        left_rows=cuts + 1,
        known=known_counts,
        known_rows=len(v),
        total=float(w.sum()) if total is None else total,
    )


def xlog2x(x: np.ndarray) -> np.ndarray:
    """``x log2 x``, and 0 below 1e-6 (Weka's logFunc)."""
    safe = np.where(x < WEKA_SMALL, 1.0, x)
    return np.where(x < WEKA_SMALL, 0.0, x * np.log(safe) / math.log(2))


def c45_gains(table: CutTable) -> np.ndarray:
    """C4.5's gain of every cut: known fraction x (H(known) - H(split)), in bits (Quinlan 1993).

    In Weka's order (InfoGainSplitCrit): old = xlog2x(known) - sum of the
    classes' terms; new = -(sum over each side of its classes' terms less
    its own term).
    """
    known_weight = float(seqsum(table.known))
    if known_weight <= 0 or table.n == 0:
        return np.zeros(table.n)
    old = xlog2x(np.array(known_weight)) - seqsum(xlog2x(table.known))
    w_left = seqsum(table.left, axis=1)
    # 0 + the left side's class terms in turn - its own term + the right side's in turn - its own: one
    # running sum along each row (np.add.accumulate adds one term at a time, as a loop over the classes did)
    n_classes = table.left.shape[1]
    steps = np.empty((table.n, 2 * n_classes + 3))
    steps[:, 0] = 0.0
    steps[:, 1 : 1 + n_classes] = xlog2x(table.left)
    steps[:, 1 + n_classes] = -xlog2x(w_left)
    steps[:, 2 + n_classes : 2 + 2 * n_classes] = xlog2x(table.right)
    steps[:, -1] = -xlog2x(known_weight - w_left)
    acc = np.add.accumulate(steps, axis=1)[:, -1]
    numerator = (known_weight / table.total) * (old + acc)
    return np.where(eq(numerator, 0.0), 0.0, numerator / known_weight)


def c45_min_split(known_weight: float, n_classes: int, min_leaf: float) -> float:
    """Cases each side of a cut must hold: ``min(25, max(m, 0.1 known / classes))`` (C4.5 R8)."""
    value = 0.1 * known_weight / n_classes
    if sm_or_eq(value, min_leaf):
        return float(min_leaf)
    return 25.0 if gr(value, 25.0) else value


def first_best(scores: np.ndarray, eligible: np.ndarray, floor: float = 0.0) -> int | None:
    """Index Weka's scan would keep: a score replaces the best only if it beats it by > 1e-6."""
    candidates = np.flatnonzero(eligible & gr(scores, floor))
    if len(candidates) == 0:
        return None
    top = scores[candidates].max()
    best, best_score = None, floor
    for i in candidates[scores[candidates] > top - 1e-4]:  # far lower scores cannot win
        if gr(scores[i], best_score):
            best, best_score = int(i), scores[i]
    return best


def c45_cut(table: CutTable, n_classes: int, min_leaf: float, mdl: bool = True) -> Cut | None:
    """J48's choice: the best-gain cut with enough cases each side, gain less the MDL penalty.

    Penalty: ``log2(number of admissible cuts) / node weight`` (Release 8).
    """
    known_weight = float(seqsum(table.known))
    min_split = c45_min_split(known_weight, n_classes, min_leaf)
    if sm(table.known_rows, 2 * min_split) or table.n == 0:
        return None
    sizes_left = seqsum(table.left, axis=1)
    sizes_right = known_weight - sizes_left
    admissible = gr_or_eq(sizes_left, min_split) & gr_or_eq(sizes_right, min_split)
    n_candidates = int(admissible.sum())
    gains = c45_gains(table)
    best = first_best(gains, admissible)
    if best is None:
        return None
    gain = float(gains[best])
    if mdl:
        gain -= math.log2(n_candidates) / table.total
    if sm_or_eq(gain, 0.0):
        return None
    return _cut(table, best, gain, n_candidates)


def boundary_cut(table: CutTable) -> Cut | None:
    """Mitchell §3.7.2: among cuts where the class changes, the one of highest information gain."""
    if table.n == 0:
        return None
    gains = plain_gains(table)
    boundaries = boundary_mask(table)
    best = first_best(gains, boundaries)
    return None if best is None else _cut(table, best, float(gains[best]), int(boundaries.sum()))


def plain_gains(table: CutTable) -> np.ndarray:
    """Information gain of every cut over the known rows (Mitchell eq. 3.4)."""
    n_left, n_right = table.left.sum(axis=1), table.right.sum(axis=1)
    n = n_left + n_right
    after = (n_left * entropy(table.left) + n_right * entropy(table.right)) / np.where(n > 0, n, 1.0)
    return entropy(table.known) - after


def boundary_mask(table: CutTable) -> np.ndarray:
    """True at cuts that separate different classes (the only cuts that can be best)."""
    # A cut is a boundary unless the values on both sides carry the same single class.
    below = np.vstack([table.left[:1], np.diff(table.left, axis=0)]) if table.n else table.left
    above = np.vstack([below[1:], (table.known - table.left[-1:])]) if table.n else table.left
    single_below = (below > 0).sum(axis=1) == 1
    single_above = (above > 0).sum(axis=1) == 1
    same = single_below & single_above & (below.argmax(axis=1) == above.argmax(axis=1))
    return ~same


def _cut(table: CutTable, i: int, gain: float, n_candidates: int) -> Cut:
    lower, upper = float(table.lower[i]), float(table.upper[i])
    threshold = midpoint(lower, upper)
    counts = np.vstack([table.left[i], table.right[i]])
    return Cut(threshold, lower, upper, gain, counts, n_candidates)
