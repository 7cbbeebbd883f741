"""C4.5's best cut of every numeric attribute at a node, the attributes side by side.

Contract: ``c45_cuts(columns, y, w, n_classes, min_leaf, total, mdl)`` returns, for each column,
what ``numeric.c45_cut(numeric.cut_table(column, y, w, n_classes, total=total), n_classes,
min_leaf, mdl)`` returns, bit for bit, in a few array operations for a batch of attributes
instead of a few dozen for each one (the per-node reference's cost on classroom tables is numpy's
call overhead, not arithmetic).

Why the bits are the same:

- each column is sorted with a stable sort, missing values last: its known rows come first, in the
  order a stable sort of the known rows alone gives;
- the running class weights add the rows in that order, one at a time (``np.cumsum`` along the
  rows); the missing rows, after every known one, add nothing to a cut;
- every other sum is a running sum along one cut's row or one attribute's classes, in the order
  ``numeric`` adds them, and every logarithm is numpy's of the same value;
- the first-best scan (``numeric.first_best``) and the MDL correction run per attribute, as there.
"""

from __future__ import annotations

import math

import numpy as np

from dtcli.induction.criteria.constants import EQUAL_VALUES, eq, gr, gr_or_eq, sm, sm_or_eq
from dtcli.induction.criteria.impurity import seqsum
from dtcli.induction.criteria.midpoint import midpoint
from dtcli.induction.search.numeric import Cut, c45_min_split, xlog2x

BATCH_CELLS = 1 << 22  # rows x classes x attributes of running weights held at once (32 MB)


def c45_cuts(
    columns: list[np.ndarray],
    y: np.ndarray,
    w: np.ndarray,
    n_classes: int,
    min_leaf: float,
    total: float,
    mdl: bool = True,
) -> list[Cut | None]:
    """J48's cut of each of ``columns`` (a node's numeric attributes, one value a row, NaN if
    missing; ``y`` the rows' classes, ``w`` their weights, ``total`` the node's weight)."""
    per_batch = max(1, BATCH_CELLS // max(1, len(y) * n_classes))
    found: list[Cut | None] = []
    for start in range(0, len(columns), per_batch):
        found.extend(_batch(columns[start : start + per_batch], y, w, n_classes, min_leaf, total, mdl))
    return found


def sorted_cuts(columns: list[np.ndarray], y: np.ndarray, w: np.ndarray, n_classes: int, equal: float):
    """Each of ``columns`` sorted (a stable sort, missing values last) with its rows' running class
    weights, and its cuts (adjacent known values more than ``equal`` apart): (sorted values
    (attributes, rows), running weights (attributes, rows, classes), each attribute's known rows'
    class weights, how many rows have a value, each cut's attribute and the position of the value
    below it), or None for fewer than two rows. The running weights add the rows one at a time in
    that order, so a cut's are those of a sort of its known rows alone."""
    n_attributes, n_rows = len(columns), len(y)
    if n_rows < 2:  # no cut
        return None
    values = np.stack(columns)
    order = np.argsort(values, axis=1, kind="stable")  # NaN last
    v = np.take_along_axis(values, order, axis=1)
    missing = np.isnan(v)
    known_rows = n_rows - missing.sum(axis=1)
    onehot = np.zeros((n_attributes, n_rows, n_classes))
    onehot[np.arange(n_attributes)[:, None], np.arange(n_rows)[None, :], y[order]] = np.where(missing, 0.0, w[order])
    running = np.cumsum(onehot, axis=1)
    known = running[np.arange(n_attributes), np.maximum(known_rows - 1, 0)]
    known[known_rows == 0] = 0.0
    with np.errstate(invalid="ignore", over="ignore"):
        attribute, position = np.nonzero(v[:, :-1] + equal < v[:, 1:])
    return v, running, known, known_rows, attribute, position


def _batch(columns, y, w, n_classes: int, min_leaf: float, total: float, mdl: bool) -> list[Cut | None]:
    n_attributes = len(columns)
    found = sorted_cuts(columns, y, w, n_classes, EQUAL_VALUES)
    if found is None:
        return [None] * n_attributes
    v, running, known, known_rows, attribute, position = found
    known_weight = seqsum(known, axis=1) if n_classes else np.zeros(n_attributes)
    min_split = np.array([c45_min_split(float(x), n_classes, min_leaf) for x in known_weight])
    n_cuts = np.bincount(attribute, minlength=n_attributes)
    alive = ~(sm(known_rows, 2 * min_split) | (n_cuts == 0))
    if not alive.any():
        return [None] * n_attributes
    keep = alive[attribute]
    attribute, position = attribute[keep], position[keep]

    left = running[attribute, position]
    right = known[attribute] - left
    weight = known_weight[attribute]
    sizes_left = seqsum(left, axis=1)
    need = min_split[attribute]
    admissible = gr_or_eq(sizes_left, need) & gr_or_eq(weight - sizes_left, need)
    n_candidates = np.bincount(attribute[admissible], minlength=n_attributes)
    gains = _gains(left, right, sizes_left, weight, known, known_weight, attribute, total)

    best = _first_best(gains, admissible, attribute)
    cuts: list[Cut | None] = [None] * n_attributes
    for j, c in best.items():
        gain = float(gains[c])
        if mdl:
            gain -= math.log2(int(n_candidates[j])) / total
        if sm_or_eq(gain, 0.0):
            continue
        lower, upper = float(v[j, position[c]]), float(v[j, position[c] + 1])
        counts = np.vstack([left[c], right[c]])
        cuts[j] = Cut(midpoint(lower, upper), lower, upper, gain, counts, int(n_candidates[j]))
    return cuts


def _gains(left, right, sizes_left, weight, known, known_weight, attribute, total: float) -> np.ndarray:
    """``numeric.c45_gains`` of every cut, each with its own attribute's known weights."""
    n_classes = left.shape[1]
    old = xlog2x(known_weight) - seqsum(xlog2x(known), axis=1)
    steps = np.empty((len(left), 2 * n_classes + 3))  # the weights, then their terms in place: one call
    steps[:, 0] = 0.0
    steps[:, 1 : 1 + n_classes] = left
    steps[:, 1 + n_classes] = sizes_left
    steps[:, 2 + n_classes : 2 + 2 * n_classes] = right
    steps[:, -1] = weight - sizes_left
    steps[:, 1:] = xlog2x(steps[:, 1:])
    steps[:, 1 + n_classes] *= -1.0  # less each side's own term (negation is exact)
    steps[:, -1] *= -1.0
    acc = np.add.accumulate(steps, axis=1)[:, -1]
    with np.errstate(invalid="ignore", divide="ignore"):
        numerator = (weight / total) * (old[attribute] + acc)
        gains = np.where(eq(numerator, 0.0), 0.0, numerator / weight)
    gains[weight <= 0] = 0.0
    return gains


def _first_best(gains: np.ndarray, admissible: np.ndarray, attribute: np.ndarray) -> dict[int, int]:
    """Each attribute's cut (an index into ``gains``) as ``numeric.first_best`` keeps it: a gain
    replaces the best only if it beats it by more than 1e-6, in the attribute's cut order."""
    candidates = np.flatnonzero(admissible & gr(gains, 0.0))
    if not len(candidates):
        return {}
    owner = attribute[candidates]
    starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
    top = np.maximum.reduceat(gains[candidates], starts)
    top_of = np.repeat(top, np.diff(np.r_[starts, len(candidates)]))
    best: dict[int, int] = {}
    held: dict[int, float] = {}
    for c in candidates[gains[candidates] > top_of - 1e-4].tolist():  # far lower gains cannot win
        j = int(attribute[c])
        if gr(gains[c], held.get(j, 0.0)):
            best[j], held[j] = c, gains[c]
    return best


def nominal_block(columns: list[np.ndarray], n_values: list[int], y: np.ndarray, w: np.ndarray, n_classes: int):
    """The class weights of each value of each of ``columns`` (nominal codes, -1 missing), in one
    (attributes, most values, classes) array, an attribute's values first and zeros after: one
    ``np.bincount`` adds every cell's rows' weights in row order, as a count of one attribute
    alone does (the same sums, bit for bit); missing values are left out."""
    width = max(n_values) * n_classes
    codes = np.stack(columns, axis=1).astype(np.int64)
    cells = codes * n_classes + y.astype(np.int64)[:, None] + (np.arange(len(columns)) * width)[None, :]
    cells[codes < 0] = len(columns) * width  # missing: counted apart, and dropped
    weights = np.broadcast_to(w[:, None], codes.shape)
    flat = np.bincount(cells.ravel(), weights=weights.ravel(), minlength=len(columns) * width + 1)
    return flat[:-1].reshape(len(columns), max(n_values), n_classes)


def nominal_scores(counts: np.ndarray, total: float) -> tuple[list[float], list[float]]:
    """(gains, gain ratios) of each attribute of ``nominal_block``'s ``counts``: what
    ``c45.c45_scores(counts[j, :values], total, ratio=True)`` gives each, bit for bit. The zero rows
    after an attribute's values add 0 at the end of each running sum, which changes no sum."""
    n_attributes, n_values, n_classes = counts.shape
    if not n_values or not n_classes:
        return [0.0] * n_attributes, [0.0] * n_attributes
    sizes = np.add.accumulate(counts, axis=2)[:, :, -1]  # each branch's weight, its classes in turn
    known = np.add.accumulate(sizes, axis=1)[:, -1]
    classes = np.add.accumulate(counts, axis=1)[:, -1, :]  # each class's weight, the branches in turn
    old = xlog2x(known) - np.add.accumulate(xlog2x(classes), axis=1)[:, -1]
    block = np.empty((n_attributes, n_values, n_classes + 1))  # each branch's class terms, less its own
    block[:, :, :n_classes] = counts
    block[:, :, n_classes] = sizes
    block = xlog2x(block)
    size_terms = block[:, :, n_classes].copy()
    block[:, :, n_classes] *= -1.0  # (negation is exact)
    new = -np.add.accumulate(block.reshape(n_attributes, -1), axis=1)[:, -1]
    split_sum = np.add.accumulate(size_terms, axis=1)[:, -1]
    unknown_terms = xlog2x(total - known)
    total_term = float(xlog2x(np.array(total)))
    gains, ratios = [], []
    for j in range(n_attributes):
        weight = float(known[j])
        if weight <= 0:
            gains.append(0.0)
            ratios.append(0.0)
            continue
        numerator = float((weight / total) * (old[j] - new[j]))
        gain = 0.0 if eq(numerator, 0.0) else numerator / weight
        gains.append(gain)
        split = -float(split_sum[j]) - float(unknown_terms[j]) + total_term
        ratios.append(0.0 if not gr(weight, 0.0) or eq(split, 0.0) else gain / (split / total))
    return gains, ratios
