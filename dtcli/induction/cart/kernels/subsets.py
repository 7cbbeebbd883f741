"""CART's search for the best subset of a nominal attribute's values, compiled (numba).

The scalar twin of ``search/cart.py``'s ``_nominal``, ``subset_candidates`` and ``_greedy``, written with
the same operations in the same order; for whole-number counts an exhaustive search in Gray code
order that scores exactly only the subsets that can win (``_exhaustive``).
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.cart.kernels.scores import decrease
from dtcli.induction.criteria.constants import ENTROPY, GINI, LN2
from dtcli.induction.kernels.arrays import copy_into
from dtcli.induction.kernels.impurity import impurity, sides
from dtcli.induction.kernels.jit import kernel


@kernel
def _scored(left, right, total, min_leaf, criterion, logs):
    """A subset split's right side (``total - left``), whether both sides hold ``min_leaf``, and
    its score."""
    n_left, n_right = sides(left, total, right)
    if not (n_left >= min_leaf and n_right >= min_leaf):
        return False, 0.0
    return True, decrease(left, right, criterion, logs)


@kernel
def best_subset(counts, present, criterion, min_leaf, limit, logs):
    """``search/cart.py: _nominal``'s search over the present values (``counts`` by value): the mask of the
    best subset over ``present`` (or an empty array: none), its score and its left/right counts."""
    v = present.shape[0]
    n_classes = counts.shape[1]
    empty = np.zeros(0, dtype=np.bool_)
    nothing = np.zeros(n_classes)
    if v < 2:
        return empty, 0.0, nothing, nothing
    total = np.zeros(n_classes)
    for j in range(counts.shape[0]):
        for c in range(n_classes):
            total[c] += counts[j, c]
    if v <= limit and logs.shape[0] > 1:
        return _exhaustive(counts, present, total, criterion, min_leaf, logs)
    if v <= limit:
        n_masks = (1 << (v - 1)) - 1
        masks = np.zeros((n_masks, v), dtype=np.bool_)
        for m in range(n_masks):
            masks[m, 0] = True
            for j in range(1, v):
                masks[m, j] = (m >> (v - 1 - j)) & 1 == 1
    elif n_classes == 2:
        share = np.empty(v)
        for j in range(v):
            share[j] = counts[present[j], 0] / (counts[present[j], 0] + counts[present[j], 1])
        order = np.argsort(share, kind="mergesort")
        masks = np.zeros((v - 1, v), dtype=np.bool_)
        for k in range(1, v):
            for j in range(k):
                masks[k - 1, order[j]] = True
    else:
        masks = _greedy(counts, present, total, criterion, logs)
    best, best_score = -1, -np.inf
    best_left = np.zeros(n_classes)
    left = np.zeros(n_classes)
    right = np.zeros(n_classes)
    for m in range(masks.shape[0]):
        left[:] = 0.0
        for j in range(v):
            if masks[m, j]:
                for c in range(n_classes):
                    left[c] += counts[present[j], c]
        ok, score = _scored(left, right, total, min_leaf, criterion, logs)
        if not ok:
            continue
        if best < 0 or score > best_score:
            best, best_score = m, score
            copy_into(best_left, left)
    if best < 0:
        return empty, 0.0, nothing, nothing
    return masks[best].copy(), best_score, best_left, total - best_left


@kernel
def _greedy(counts, present, total, criterion, logs):
    """``search/cart.py: _greedy``: every mask tried, in order."""
    v = present.shape[0]
    n_classes = counts.shape[1]
    inside = np.zeros(v, dtype=np.bool_)
    tried = np.zeros((v, v), dtype=np.bool_)
    n_tried = 0
    best = -np.inf
    left = np.zeros(n_classes)
    while inside.sum() < v - 1:
        top, top_j = -np.inf, -1
        for j in range(v):
            if inside[j]:
                continue
            left[:] = 0.0
            for i in range(v):
                if inside[i] or i == j:
                    for c in range(n_classes):
                        left[c] += counts[present[i], c]
            score = decrease(left, total - left, criterion, logs)
            if top_j < 0 or score > top:
                top, top_j = score, j
        mask = inside.copy()
        mask[top_j] = True
        copy_into(tried[n_tried], mask)
        n_tried += 1
        if top <= best:
            break
        best, inside = top, mask
    return tried[:n_tried]


@kernel
def _bound(left, total, n_left, n_right, weight, parent, criterion, logs):
    """``decrease`` of a split with whole-number counts, computed the cheap way (up to rounding,
    which the caller's margin covers): for the entropy, ``I(parent) + (sum_c f(l_c) - f(W_L) +
    the same for R) / (W ln 2)`` with ``f(x) = x ln x`` from the table of logarithms; for the
    Gini index, ``I(parent) - (W - sum_c l_c^2 / W_L - sum_c r_c^2 / W_R) / W``."""
    if criterion == ENTROPY:
        acc = 0.0
        for c in range(left.shape[0]):
            r = total[c] - left[c]
            if left[c] > 0:
                acc += left[c] * logs[int(left[c])]
            if r > 0:
                acc += r * logs[int(r)]
        acc -= n_left * logs[int(n_left)] + n_right * logs[int(n_right)]
        return parent + acc / (LN2 * weight)
    sq_left = 0.0
    sq_right = 0.0
    for c in range(left.shape[0]):
        r = total[c] - left[c]
        sq_left += left[c] * left[c]
        sq_right += r * r
    return parent - (weight - sq_left / n_left - sq_right / n_right) / weight


@kernel
def _exhaustive(counts, present, total, criterion, min_leaf, logs):
    """``best_subset``'s exhaustive search for whole-number counts, visiting the subsets in Gray
    code order (one value moves side per step, so each step is one vector addition) and keeping,
    among the best, the first in ``itertools.product``'s order, as ``np.argmax`` does there."""
    v = present.shape[0]
    n_classes = counts.shape[1]
    inside = np.zeros(v, dtype=np.bool_)
    inside[0] = True
    left = np.zeros(n_classes)
    right = np.zeros(n_classes)
    for c in range(n_classes):
        left[c] = counts[present[0], c]
    every = (1 << (v - 1)) - 1  # all values on the left: not a split
    code = 0  # the subset's index in itertools.product order (value 1 is the highest bit)
    best_code, best_score = -1, -np.inf
    best_left = np.zeros(n_classes)
    weight = 0.0
    for c in range(n_classes):
        weight += total[c]
    # a subset whose cheap bound is below the best score so far is not scored exactly (_bound)
    bounded = weight < logs.shape[0] and (criterion == ENTROPY or (criterion == GINI and weight < 67_108_864.0))
    parent = impurity(total, criterion, logs) if bounded else 0.0
    margin = 1e-11 * (logs[int(weight)] + 1.0) if bounded and weight > 0 else 0.0
    for step in range(1 << (v - 1)):
        if step > 0:
            bit = 0
            while (step >> bit) & 1 == 0:
                bit += 1
            j = v - 1 - bit
            if inside[j]:
                for c in range(n_classes):
                    left[c] -= counts[present[j], c]
                code -= 1 << bit
            else:
                for c in range(n_classes):
                    left[c] += counts[present[j], c]
                code += 1 << bit
            inside[j] = not inside[j]
        if code == every:
            continue
        if best_code >= 0 and bounded:
            n_left = 0.0
            for c in range(n_classes):
                n_left += left[c]
            n_right = weight - n_left
            if n_left >= min_leaf and n_right >= min_leaf and n_left > 0 and n_right > 0:
                if _bound(left, total, n_left, n_right, weight, parent, criterion, logs) + margin < best_score:
                    continue
        ok, score = _scored(left, right, total, min_leaf, criterion, logs)
        if not ok:
            continue
        if best_code < 0 or score > best_score or (score == best_score and code < best_code):
            best_code, best_score = code, score
            copy_into(best_left, left)
    if best_code < 0:
        return np.zeros(0, dtype=np.bool_), 0.0, np.zeros(n_classes), np.zeros(n_classes)
    mask = np.zeros(v, dtype=np.bool_)
    mask[0] = True
    for j in range(1, v):
        mask[j] = (best_code >> (v - 1 - j)) & 1 == 1
    return mask, best_score, best_left, total - best_left
