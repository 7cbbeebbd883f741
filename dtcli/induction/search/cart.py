"""CART's split search: binary splits only (Breiman et al. 1984; Zaki & Meira ch. 16).

Contract: ``cart_choose(node, ...)`` returns the best binary split of a
node's rows, or None when no attribute can split them.

- numeric ``A <= v`` at the midpoint between adjacent distinct values;
- nominal ``A in V``: every subset of the values present at the node,
  each split counted once (``V`` and its complement are the same split),
  exhaustively when there are at most ``subset_limit`` values; with more,
  for two classes the optimal subset is a prefix of the values ordered by
  the proportion of the first class (Breiman et al. 1984, Theorem 4.5),
  and otherwise a greedy search moves one value at a time to the smaller
  side while that improves the score;
- scores: ``gini`` (decrease in Gini index), ``entropy`` (information gain)
  or ``cart`` (Zaki eq. 16.8, ``2 P_L P_R sum_c |P(c|L) - P(c|R)|``);
- every split must leave ``min_leaf`` weight on each side; ties go to the
  first attribute in column order, the lowest threshold, and the first
  subset in enumeration order. With missing values the score is computed
  on the known cases and scaled by their share (as C4.5 does); scikit-learn's
  order compares such a split by ``W x score - W x I(node)``, the value its
  proxy would have.
"""

from __future__ import annotations

import functools
import itertools

import numpy as np

from dtcli.induction.criteria.constants import FEATURE_THRESHOLD
from dtcli.induction.criteria.impurity import entropy, gini, seqsum
from dtcli.induction.criteria.midpoint import midpoint
from dtcli.induction.criteria.midpoint_single import single_midpoint
from dtcli.induction.search.batched import BATCH_CELLS, nominal_block, sorted_cuts
from dtcli.induction.search.c45 import Choice
from dtcli.induction.search.numeric import cut_table
from dtcli.induction.search.split import nominal_branch_counts
from dtcli.induction.search.ties import single
from dtcli.model.table import Table
from dtcli.model.tree import NumericTest, SubsetTest

SUBSET_LIMIT = 10


def decrease(left: np.ndarray, right: np.ndarray, criterion: str) -> np.ndarray:
    """Score of each binary split given its (n, classes) left and right counts; higher is better."""
    n_left, n_right = left.sum(axis=-1), right.sum(axis=-1)
    n = n_left + n_right
    safe = np.where(n > 0, n, 1.0)
    if criterion == "cart":
        p_left, p_right = n_left / safe, n_right / safe
        with np.errstate(invalid="ignore", divide="ignore"):
            c_left = np.where(n_left[..., None] > 0, left / np.where(n_left > 0, n_left, 1.0)[..., None], 0.0)
            c_right = np.where(n_right[..., None] > 0, right / np.where(n_right > 0, n_right, 1.0)[..., None], 0.0)
        return 2 * p_left * p_right * np.abs(c_left - c_right).sum(axis=-1)
    impurity = gini if criterion == "gini" else entropy
    if left.ndim != 2:  # one split (a class vector each side): impurity's plain-float path
        return impurity(left + right) - (n_left * impurity(left) + n_right * impurity(right)) / safe
    # the node, the left and the right sides' impurities in one call: each row's arithmetic is its own
    m = len(left)
    rows = impurity(np.concatenate((left + right, left, right)))
    return rows[:m] - (n_left * rows[m : 2 * m] + n_right * rows[2 * m :]) / safe


def proxy(left: np.ndarray, right: np.ndarray, criterion: str) -> np.ndarray:
    """scikit-learn's proxy of the decrease, ``-W_R I(R) - W_L I(L)``, in its order of operations.

    It ranks splits like ``decrease``; computing it the same way makes ties
    and near-ties come out as they do in scikit-learn.
    """
    w_left, w_right = left.sum(axis=-1), right.sum(axis=-1)
    if criterion == "cart":
        return decrease(left, right, criterion)
    # each side's terms added (subtracted) class by class in order, from 0, as scikit-learn does: seqsum
    # and accumulate make the same additions one after the other, with a call each rather than one a class
    if criterion == "gini":
        sq_left, sq_right = seqsum(left * left), seqsum(right * right)
        with np.errstate(divide="ignore", invalid="ignore"):
            impurity_left = 1.0 - sq_left / (w_left * w_left)
            impurity_right = 1.0 - sq_right / (w_right * w_right)
    else:
        impurity_left, impurity_right = (_minus_plogp(left, w_left), _minus_plogp(right, w_right))
    return -w_right * impurity_right - w_left * impurity_left


def _minus_plogp(counts: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``0 - t_1 - t_2 - ...`` for each row, ``t_c = p_c log2 p_c`` (0 where the count is 0), in class order."""
    with np.errstate(divide="ignore", invalid="ignore"):
        p = counts / w[:, None]
        terms = np.where(counts > 0, p * (np.log(np.where(p > 0, p, 1.0)) / LN2), 0.0)
    steps = np.concatenate([np.zeros((len(counts), 1)), terms], axis=1)
    return np.subtract.accumulate(steps, axis=1)[:, -1]


LN2 = float(np.log(2.0))


def _numeric(table: Table, i: int, criterion: str, min_leaf: float, exact: bool = False):
    values = single(table.columns[i]) if exact else table.columns[i]
    split = numeric_split(values, table.y, table.weights, len(table.classes), criterion, min_leaf, exact)
    return None if split is None else (split[0], NumericTest(table.attributes[i], split[1]), *split[2:])


def numeric_split(values, y, w, n_classes: int, criterion: str, min_leaf: float, exact: bool = False):
    """The best cut ``<= v`` of a node's ``values`` (NaN: missing) with classes ``y`` and weights ``w``:
    (score, threshold v, (2, classes) known counts, key), or None. The rows may come in any order,
    and grouped (one a value and class, weighing their sum): with whole weights the sums are the same."""
    cuts = cut_table(values, y, w, n_classes, FEATURE_THRESHOLD)
    if cuts.n == 0:
        return None
    ok = (cuts.left.sum(axis=1) >= min_leaf) & (cuts.right.sum(axis=1) >= min_leaf)
    if not ok.any():
        return None
    rank = proxy(cuts.left, cuts.right, criterion) if exact else decrease(cuts.left, cuts.right, criterion)
    best = int(np.argmax(np.where(ok, rank, -np.inf)))
    # the best cut's score alone: each row is scored on its own, so its bits are those of the whole table's
    score = rank[best] if not exact else decrease(cuts.left[best], cuts.right[best], criterion)
    lower, upper = float(cuts.lower[best]), float(cuts.upper[best])
    threshold = single_midpoint(lower, upper) if exact else midpoint(lower, upper)
    key = float(rank[best])
    return float(score), threshold, np.vstack([cuts.left[best], cuts.right[best]]), key


def numeric_splits(columns: list[np.ndarray], y, w, n_classes: int, criterion: str, min_leaf: float, exact=False):
    """``numeric_split`` of each of ``columns`` (a node's numeric attributes, NaN missing, already in
    single precision when ``exact``), bit for bit, the attributes side by side: a few array operations
    for a batch of attributes rather than a few dozen for each (the per-node reference's cost on
    classroom tables is numpy's call overhead). The bits are the same for the reasons
    ``batched.c45_cuts`` gives (a stable sort with missing values last, running weights added row by
    row), and every score is computed row by row with the same operations; each attribute's best cut
    is ``np.argmax`` over its own cuts, as there."""
    per_batch = max(1, BATCH_CELLS // max(1, len(y) * n_classes))
    found = []
    for start in range(0, len(columns), per_batch):
        found.extend(_numeric_batch(columns[start : start + per_batch], y, w, n_classes, criterion, min_leaf, exact))
    return found


def _numeric_batch(columns, y, w, n_classes: int, criterion: str, min_leaf: float, exact: bool) -> list:
    n_attributes = len(columns)
    cut = sorted_cuts(columns, y, w, n_classes, FEATURE_THRESHOLD)
    if cut is None or not len(cut[4]):
        return [None] * n_attributes
    v, running, known, _, attribute, position = cut
    left = running[attribute, position]
    right = known[attribute] - left
    ok = (left.sum(axis=1) >= min_leaf) & (right.sum(axis=1) >= min_leaf)
    rank = proxy(left, right, criterion) if exact else decrease(left, right, criterion)
    ranked = np.where(ok, rank, -np.inf)
    bounds = np.searchsorted(attribute, np.arange(n_attributes + 1)).tolist()  # each attribute's cuts
    found = []
    for j in range(n_attributes):
        start, end = bounds[j], bounds[j + 1]
        if start == end or not ok[start:end].any():
            found.append(None)
            continue
        best = start + int(np.argmax(ranked[start:end]))
        score = rank[best] if not exact else decrease(left[best], right[best], criterion)
        lower, upper = float(v[j, position[best]]), float(v[j, position[best] + 1])
        threshold = single_midpoint(lower, upper) if exact else midpoint(lower, upper)
        found.append((float(score), threshold, np.array([left[best], right[best]]), float(rank[best])))
    return found


def subset_candidates(counts: np.ndarray, criterion: str, limit: int) -> tuple[np.ndarray, np.ndarray] | None:
    """(membership mask over the present values, scores) of the candidate subsets."""
    found = _subset_search(counts, criterion, limit)
    return None if found is None else found[:2]


def _subset_search(counts: np.ndarray, criterion: str, limit: int):
    """``subset_candidates``' (masks, scores) and the class weights on each mask's side (None when the
    greedy search made them: its own additions, in value order)."""
    v = len(counts)
    if v < 2:
        return None
    if v <= limit:
        masks, weights = every_subset(v), _subset_weights(v)
    elif counts.shape[1] == 2:
        share = counts[:, 0] / counts.sum(axis=1)
        order = np.argsort(share, kind="stable")
        masks = np.zeros((v - 1, v), dtype=bool)
        for k in range(1, v):
            masks[k - 1, order[:k]] = True
        weights = masks.astype(float)
    else:
        return (*_greedy(counts, criterion), None)
    left = weights @ counts
    return masks, decrease(left, counts.sum(axis=0) - left, criterion), left


@functools.cache
def every_subset(v: int) -> np.ndarray:
    """The (2^(v-1) - 1, v) membership masks of every subset of ``v`` values that holds the first value
    and not all values, in enumeration order: each binary split once. Made once for each ``v`` (a node
    asks for them for every nominal attribute), read-only."""
    masks = np.array([[True, *bits] for bits in itertools.product([False, True], repeat=v - 1) if not all(bits)])
    masks.flags.writeable = False
    return masks


@functools.cache
def _subset_weights(v: int) -> np.ndarray:
    """``every_subset(v)`` as 0/1 floats (the matrix that sums each subset's counts), read-only."""
    weights = every_subset(v).astype(float)
    weights.flags.writeable = False
    return weights


def _greedy(counts: np.ndarray, criterion: str) -> tuple[np.ndarray, np.ndarray]:
    """Start with every value on one side; move the value that helps most while it helps."""
    v = len(counts)
    inside = np.zeros(v, dtype=bool)
    whole = counts.sum(axis=0)
    tried, scores, best = [], [], -np.inf
    while inside.sum() < v - 1:
        outside = np.flatnonzero(~inside)
        masks = np.repeat(inside[None, :], len(outside), axis=0)  # one option a value still outside
        masks[np.arange(len(outside)), outside] = True
        lefts = np.zeros((len(outside), counts.shape[1]))
        for i in range(v):  # each option's values added in value order, as the compiled twin adds them
            lefts += np.where(masks[:, i, None], counts[i], 0.0)
        options = decrease(lefts, whole - lefts, criterion)
        k = _first_best(options)
        tried.append(masks[k])
        scores.append(float(options[k]))
        if options[k] <= best:
            break
        best, inside = float(options[k]), masks[k]
    return np.array(tried), np.array(scores)


def _first_best(scores: np.ndarray) -> int:
    """The position of the first highest of ``scores`` (strictly higher than every one before it)."""
    if not np.isnan(scores).any():
        return int(np.argmax(scores))
    k = 0
    for j in range(1, len(scores)):
        if scores[j] > scores[k]:
            k = j
    return k


def _nominal(table: Table, i: int, criterion: str, min_leaf: float, limit: int):
    attribute = table.attributes[i]
    counts = nominal_branch_counts(table.columns[i], table.y, table.weights, len(attribute.values), len(table.classes))
    return nominal_split(counts, attribute, criterion, min_leaf, limit)


def nominal_split(counts: np.ndarray, attribute, criterion: str, min_leaf: float, limit: int = SUBSET_LIMIT):
    """The best ``A in V`` of a node whose known class weights per value are ``counts`` (values,
    classes): (score, test, (2, classes) counts of the test's branches, key), or None."""
    present = np.flatnonzero(counts.sum(axis=1) > 0)
    found = _subset_search(counts[present], criterion, limit)
    if found is None:
        return None
    masks, scores, left = found
    if left is None:
        left = masks.astype(float) @ counts[present]
    right = counts.sum(axis=0) - left
    ok = (left.sum(axis=1) >= min_leaf) & (right.sum(axis=1) >= min_leaf)
    if not ok.any():
        return None
    return _subset_split(present, masks, np.where(ok, scores, -np.inf), left, right, attribute, criterion)


def _subset_split(present, masks, scores, left, right, attribute, criterion: str):
    """``nominal_split``'s result for the first best of ``scores`` (-inf: not admissible)."""
    best = int(np.argmax(scores))
    key = float(proxy(left[best : best + 1], right[best : best + 1], criterion)[0])
    return _subset_result(present, masks[best], float(scores[best]), left[best], right[best], attribute, key)


def _subset_result(present, mask, score: float, left, right, attribute, key: float):
    """``nominal_split``'s result for the subset ``mask`` of the ``present`` values, its class weights
    ``left`` and the others' ``right``."""
    chosen = present[mask]
    others = present[~mask]
    # Show the smaller side as V (on equal sizes, the side with the first value).
    inside = chosen if len(chosen) <= len(others) else others
    values = tuple(attribute.values[j] for j in sorted(inside.tolist()))
    first, second = (left, right) if inside is chosen else (right, left)
    return score, SubsetTest(attribute, values), np.array([first, second]), key


def nominal_splits(block: np.ndarray, attributes: list, criterion: str, min_leaf: float, limit: int = SUBSET_LIMIT):
    """``nominal_split`` of each of ``attributes`` from ``batched.nominal_block``'s ``block`` (attributes,
    values, classes; zeros after an attribute's values), bit for bit: the attributes with as many values
    present (at most ``limit``) search their subsets together, one matrix product and one scoring for
    them all; each row's sums and scores are made with the same operations as for one attribute alone
    (a node's class weights summed over the attribute's own values: numpy adds a sum of one class's
    rows pairwise, in an order that depends on how many rows there are)."""
    present_cells = block.sum(axis=2) > 0
    n_present = present_cells.sum(axis=1)
    found: list = [None] * len(attributes)
    counts_of = [block[j, : len(a.values)] for j, a in enumerate(attributes)]
    for j in np.flatnonzero(n_present > limit).tolist():  # the prefix or greedy searches: one at a time
        found[j] = nominal_split(counts_of[j], attributes[j], criterion, min_leaf, limit)
    for v in np.unique(n_present[(n_present >= 2) & (n_present <= limit)]).tolist():
        group = np.flatnonzero(n_present == v)
        present = np.nonzero(present_cells[group])[1].reshape(len(group), v)  # each one's values, in order
        counts = block[group[:, None], present]  # (group, v, classes)
        masks, n_masks, n_classes = every_subset(v), (1 << (v - 1)) - 1, block.shape[2]
        left = _subset_weights(v) @ counts
        scores = decrease(
            left.reshape(-1, n_classes), (counts.sum(axis=1)[:, None, :] - left).reshape(-1, n_classes), criterion
        ).reshape(len(group), n_masks)
        right = np.stack([counts_of[j].sum(axis=0) for j in group.tolist()])[:, None, :] - left
        ok = (left.sum(axis=2) >= min_leaf) & (right.sum(axis=2) >= min_leaf)
        ranked = np.where(ok, scores, -np.inf)
        best = np.argmax(ranked, axis=1)  # each attribute's first best, as np.argmax of its row alone
        rows = np.arange(len(group))
        keys = proxy(left[rows, best], right[rows, best], criterion).tolist()  # row by row, as for one
        admissible = ok.any(axis=1).tolist()
        for g, j in enumerate(group.tolist()):
            if admissible[g]:
                b = int(best[g])
                found[j] = _subset_result(
                    present[g], masks[b], float(ranked[g, b]), left[g, b], right[g, b], attributes[j], keys[g]
                )
    return found


def _on_proxy_scale(counts: np.ndarray, criterion: str, total: float, score: float) -> float:
    """A scaled decrease as a key comparable with scikit-learn's proxies: ``W dI - W I(node)``
    (the proxy of a split of all the node's cases is exactly that)."""
    impurity = gini if criterion == "gini" else entropy
    return total * score - total * float(impurity(counts))


def cart_choose(
    table: Table, criterion: str, min_leaf: float, subset_limit: int = SUBSET_LIMIT, order: list[int] | None = None
) -> Choice | None:
    """The best binary split over the attributes of a node's rows (``table``).

    With ``order`` (scikit-learn's visiting order, ``search/ties.py``) the
    attributes are tried in that order, numbers in single precision, and
    splits compared by scikit-learn's proxy; otherwise in column order.
    """
    exact = order is not None
    visiting = list(order) if exact else list(range(len(table.attributes)))
    splits = node_splits(table, visiting, criterion, min_leaf, subset_limit, exact)

    def found(i: int):
        split = splits[i]
        return split, split is not None and bool(table.missing_mask(i).any())

    best = first_best(
        (found(i) for i in visiting),
        float(table.weights.sum()),
        table.class_counts(),
        criterion,
        exact,
    )
    return None if best is None else best[0]


def node_splits(table: Table, attributes: list[int], criterion: str, min_leaf: float, limit: int, exact: bool):
    """{attribute: its best split (``numeric_split``/``nominal_split``'s result, or None)} for each of
    ``attributes`` at a node (``table``): the nominal ones' counts in one pass (``batched.nominal_block``,
    the same sums as one attribute's count alone), the numeric ones' cuts side by side (``numeric_splits``)."""
    n_classes = len(table.classes)
    nominal = [i for i in attributes if table.attributes[i].is_nominal]
    numeric = [i for i in attributes if not table.attributes[i].is_nominal]
    splits: dict[int, tuple | None] = {}
    if nominal:
        sizes = [len(table.attributes[i].values) for i in nominal]
        if len(nominal) * max(sizes) * n_classes <= BATCH_CELLS and max(sizes) > 0:
            block = nominal_block([table.columns[i] for i in nominal], sizes, table.y, table.weights, n_classes)
            attributes = [table.attributes[i] for i in nominal]
            splits.update(zip(nominal, nominal_splits(block, attributes, criterion, min_leaf, limit)))
        else:  # very many values: one attribute at a time
            for i in nominal:
                splits[i] = _nominal(table, i, criterion, min_leaf, limit)
    if numeric:
        columns = [single(table.columns[i]) if exact else table.columns[i] for i in numeric]
        found = numeric_splits(columns, table.y, table.weights, n_classes, criterion, min_leaf, exact)
        for i, split in zip(numeric, found):
            splits[i] = None if split is None else (split[0], NumericTest(table.attributes[i], split[1]), *split[2:])
    return splits


def first_best(splits, total: float, counts: np.ndarray, criterion: str, exact: bool = False):
    """(Choice, its (branches, classes) known counts) of the first best of ``splits``, each
    (``numeric_split``/``nominal_split``'s result, whether the node lacks that attribute's value in
    some case), in visiting order; None when none. ``total``: the node's weight; ``counts``: its class
    weights. A split over part of the node is scored times the known share (C4.5's way)."""
    best, best_key, best_counts = None, -np.inf, None
    for split, missing in splits:
        if split is None:
            continue
        score, test, known, key = split
        # the known share; exactly 1 when no value is missing (sums of fractional weights in
        # another order could make it differ from 1 in the last bit)
        share = 1.0 if not missing else (known.sum() / total if total > 0 else 0.0)
        if share != 1.0:
            score *= share
            key = score if criterion == "cart" else _on_proxy_scale(counts, criterion, total, score)
        if not exact:
            key = score
        if best is None or key > best_key:
            gain = float(entropy(known.sum(axis=0)) - (known.sum(axis=1) @ entropy(known)) / known.sum())
            best, best_key, best_counts = Choice(test, score, gain * share), key, known
    return None if best is None else (best, best_counts)


def cart_candidates(
    table: Table, criterion: str, min_leaf: float, subset_limit: int = SUBSET_LIMIT
) -> list[tuple[int, float, object]]:
    """Each attribute's best binary split at a node, in column order, as ``cart_choose`` scores them
    without scikit-learn's order: (attribute index, score scaled by the known share, test). For traces."""
    total = float(table.weights.sum())
    found = []
    for i, attribute in enumerate(table.attributes):
        if attribute.is_nominal:
            split = _nominal(table, i, criterion, min_leaf, subset_limit)
        else:
            split = _numeric(table, i, criterion, min_leaf)
        if split is None:
            continue
        score, test, counts, _ = split
        if table.missing_mask(i).any():
            score *= counts.sum() / total if total > 0 else 0.0
        found.append((i, float(score), test))
    return found
