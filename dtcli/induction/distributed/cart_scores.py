"""CART's split search for every node of a shard at once, from its summed cells (runs on the workers).

Contract: ``shard_choices(cells, counts, layout, rules)`` returns, for each of a shard's nodes, what
``search/cart.first_best`` returns for the node's rows on the binned table (attribute, Choice, known
weight per branch), or None: the same floats, because every sum here is of whole weights (exact in any
order) and every score is computed by the search's own functions (``decrease``, ``midpoint``,
``first_best``) row by row, on arrays of many nodes' candidates where the search has one node's.

- numeric attributes: a node's cells in bin order are its sorted values grouped; a cut lies after
  each cell whose next value (at the same node) is more than 1e-7 above it (``cut_table``), with the
  class weights to its left from one running sum over the shard's cells;
- nominal attributes with at most ``SUBSET_LIMIT`` values present: every subset holding the first
  present value (``subset_candidates``' enumeration), for all nodes with as many values present in
  one matrix product; with more, ``nominal_split`` node by node.
"""

from __future__ import annotations

import itertools

import numpy as np

from dtcli.induction.criteria.constants import FEATURE_THRESHOLD
from dtcli.induction.criteria.midpoint import midpoint
from dtcli.induction.search.cart import SUBSET_LIMIT, decrease, first_best, nominal_split
from dtcli.model.tree import NumericTest, SubsetTest


class Found:
    """One attribute's best split at each node: whether found, its score, its known counts (nodes, 2,
    classes) and what makes its test (numeric: the cut's lower and upper values; nominal: the test)."""

    def __init__(self, m: int, n_classes: int):
        self.found = np.zeros(m, dtype=bool)
        self.score = np.full(m, -np.inf)
        self.known = np.zeros((m, 2, n_classes))
        self.lower, self.upper = np.zeros(m), np.zeros(m)
        self.tests: dict = {}
        self.missing = np.zeros(m, dtype=bool)


def shard_choices(cells: list, counts: np.ndarray, layout, rules) -> list:
    """Each node's (attribute, Choice, known weight per branch) or None (see the module docstring)."""
    m = len(counts)
    found = [_attribute(cells[i], m, i, layout, rules) for i in range(len(layout.is_nominal))]
    totals = counts.sum(axis=1)
    keys = np.full((m, len(found)), -np.inf)
    for i, f in enumerate(found):
        share = np.where(f.missing, f.known.sum(axis=(1, 2)) / np.where(totals > 0, totals, 1.0), 1.0)
        scaled = np.where(f.found & (share != 1.0), f.score * np.where(f.found, share, 1.0), f.score)
        keys[:, i] = np.where(f.found, scaled, -np.inf)
    any_found = np.zeros(m, dtype=bool)
    for f in found:
        any_found |= f.found
    best = np.argmax(keys, axis=1)
    out = []
    for k in range(m):
        if not any_found[k]:
            out.append(None)
            continue
        i = int(best[k])
        f = found[i]
        test = f.tests.get(k) or _numeric_test(rules.attributes[i], f.lower[k], f.upper[k], layout.bins[i][2])
        split = (float(f.score[k]), test, f.known[k], 0.0)
        choice, known = first_best([(split, bool(f.missing[k]))], float(totals[k]), counts[k], rules.criterion)
        out.append((i, choice, known.sum(axis=1)))
    return out


def _numeric_test(attribute, lower: float, upper: float, tops: np.ndarray) -> NumericTest:
    """The test at the midpoint of the cut, moved down to the largest binned value not above it (``snap``)."""
    threshold = midpoint(float(lower), float(upper))
    at = int(np.searchsorted(tops, threshold, side="right")) - 1
    return NumericTest(attribute, float(tops[at]) if at >= 0 else threshold)


def _attribute(cells, m: int, i: int, layout, rules) -> Found:
    n_classes, width = layout.n_classes, layout.width[i]
    starts = np.searchsorted(cells.keys, np.arange(m + 1, dtype=np.int64) * width)
    node = np.repeat(np.arange(m), np.diff(starts))
    codes = cells.keys % width
    known = codes < width - 1
    out = Found(m, n_classes)
    out.missing[node[~known]] = True
    if layout.is_nominal[i]:
        _nominal(out, node[known], codes[known], cells.weights[known], width - 1, i, rules)
    else:
        _numeric(out, node[known], layout.bins[i][2][codes[known]], cells.weights[known], m, rules)
    return out


def _numeric(out: Found, node, values, weights, m: int, rules) -> None:
    if len(node) < 2:
        return
    running = np.cumsum(weights, axis=0)  # whole weights: exact
    first = np.searchsorted(node, np.arange(m + 1))
    before = np.where(first[:-1, None] > 0, running[np.maximum(first[:-1] - 1, 0)], 0.0)
    total = np.where(first[1:, None] > first[:-1, None], running[np.maximum(first[1:] - 1, 0)] - before, 0.0)
    cut = np.flatnonzero((node[:-1] == node[1:]) & (values[:-1] + FEATURE_THRESHOLD < values[1:]))
    if len(cut) == 0:
        return
    at = node[cut]
    left = running[cut] - before[at]
    right = total[at] - left
    ok = (left.sum(axis=1) >= rules.min_leaf) & (right.sum(axis=1) >= rules.min_leaf)
    rank = np.where(ok, decrease(left, right, rules.criterion), -np.inf)
    chosen = _first_max(at, rank, ok)
    k = at[chosen]
    out.found[k] = True
    out.score[k] = rank[chosen]
    out.known[k, 0], out.known[k, 1] = left[chosen], right[chosen]
    out.lower[k], out.upper[k] = values[cut[chosen]], values[cut[chosen] + 1]


def _first_max(group: np.ndarray, rank: np.ndarray, ok: np.ndarray) -> np.ndarray:
    """Per group (ascending, runs) with some ``ok`` entry: the index of its first largest ``rank``."""
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    top = np.maximum.reduceat(rank, starts)
    size = np.diff(np.r_[starts, len(group)])
    best = ok & (rank == np.repeat(top, size))
    index = np.flatnonzero(best)
    _, first = np.unique(group[index], return_index=True)
    return index[first]


def _nominal(out: Found, node, codes, weights, n_values: int, i: int, rules) -> None:
    present_nodes = np.unique(node)
    if len(present_nodes) == 0:
        return
    place = np.searchsorted(present_nodes, node)
    dense = np.zeros((len(present_nodes), n_values, weights.shape[1]))
    dense[place, codes] = weights
    present = dense.sum(axis=2) > 0
    n_present = present.sum(axis=1)
    attribute = rules.attributes[i]
    for v in np.unique(n_present):
        group = np.flatnonzero(n_present == v)
        if v < 2:
            continue
        if v > SUBSET_LIMIT and dense.shape[2] > 2:
            _greedy(out, dense[group], present[group], present_nodes[group], int(v), attribute, rules)
            continue
        if v > SUBSET_LIMIT:
            for g in group:
                split = nominal_split(dense[g], attribute, rules.criterion, rules.min_leaf, SUBSET_LIMIT)
                if split is not None:
                    k = int(present_nodes[g])
                    out.found[k], out.score[k], out.tests[k], out.known[k] = True, split[0], split[1], split[2]
            continue
        _subsets(out, dense[group], present[group], present_nodes[group], int(v), attribute, rules)


def _subsets(out: Found, dense, present, nodes, v: int, attribute, rules) -> None:
    """Every subset (``subset_candidates``' enumeration) of the ``v`` present values, for these nodes."""
    masks = np.array([[True, *bits] for bits in itertools.product([False, True], repeat=v - 1) if not all(bits)])
    values = np.argsort(~present, axis=1, kind="stable")[:, :v]  # each node's present values, in order
    by_value = np.take_along_axis(dense, values[:, :, None], axis=1)  # (nodes, v, classes)
    left = np.matmul(masks.astype(float)[None], by_value)  # (nodes, masks, classes): whole weights, exact
    _put_best(out, np.broadcast_to(masks, (len(nodes), *masks.shape)), left, dense, values, nodes, attribute, rules)


def _greedy(out: Found, dense, present, nodes, v: int, attribute, rules) -> None:
    """``search/cart._greedy`` for all these nodes at once: from every value on one side, move the value
    that helps most (the first on equal scores) while it helps; the subsets tried are the candidates."""
    values = np.argsort(~present, axis=1, kind="stable")[:, :v]
    by_value = np.take_along_axis(dense, values[:, :, None], axis=1)  # (nodes, v, classes)
    n, n_classes = len(nodes), dense.shape[2]
    total = by_value.sum(axis=1)  # whole weights: exact
    inside = np.zeros((n, v), dtype=bool)
    running = np.ones(n, dtype=bool)
    best = np.full(n, -np.inf)
    tried, kept = [], []
    for _ in range(v - 1):
        left = (inside[:, :, None] * by_value).sum(axis=1)[:, None, :] + by_value  # each value moved in
        right = total[:, None, :] - left
        scores = decrease(left.reshape(-1, n_classes), right.reshape(-1, n_classes), rules.criterion)
        scores = np.where(inside, -np.inf, scores.reshape(n, v))
        j = np.argmax(scores, axis=1)
        score = scores[np.arange(n), j]
        mask = inside.copy()
        mask[np.arange(n), j] = True
        tried.append(mask)
        kept.append(running.copy())
        improves = running & (score > best)
        best = np.where(improves, score, best)
        inside = np.where(improves[:, None], mask, inside)
        running = improves
        if not running.any():
            break
    masks = np.stack(tried, axis=1)  # (nodes, tries, v); a node's tries after it stopped do not count
    left = np.matmul(masks.astype(float), by_value)
    valid = np.stack(kept, axis=1)
    _put_best(out, masks, left, dense, values, nodes, attribute, rules, valid)


def _put_best(out: Found, masks, left, dense, values, nodes, attribute, rules, valid=None) -> None:
    """Each node's first best of its candidate subsets ``masks`` (nodes, candidates, v) with known
    class weights ``left`` on their side (nodes, candidates, classes), as ``nominal_split`` picks it."""
    right = dense.sum(axis=1)[:, None, :] - left
    n_masks, n_classes = masks.shape[1], dense.shape[2]
    flat_left, flat_right = left.reshape(-1, n_classes), right.reshape(-1, n_classes)
    ok = (flat_left.sum(axis=1) >= rules.min_leaf) & (flat_right.sum(axis=1) >= rules.min_leaf)
    if valid is not None:
        ok &= valid.reshape(-1)
    rank = np.where(ok, decrease(flat_left, flat_right, rules.criterion), -np.inf)
    group = np.repeat(np.arange(len(nodes)), n_masks)
    if not ok.any():
        return
    for j in _first_max(group, rank, ok):
        g, b = divmod(int(j), n_masks)
        chosen, others = values[g][masks[g, b]], values[g][~masks[g, b]]
        inside = chosen if len(chosen) <= len(others) else others
        first, second = (left[g, b], right[g, b]) if inside is chosen else (right[g, b], left[g, b])
        k = int(nodes[g])
        out.found[k], out.score[k] = True, rank[j]
        out.tests[k] = SubsetTest(attribute, tuple(attribute.values[c] for c in sorted(inside)))
        out.known[k, 0], out.known[k, 1] = first, second
