"""Impurity measures and split scores, computed from class-count vectors.

Every function takes weighted class counts, never rows: ``counts`` has the
classes on its last axis, and a split is a ``(branches, classes)`` matrix.
Empty sets and empty branches are allowed (0 log 0 = 0; an empty branch has
weight 0). A split that cannot be scored scores ``-inf``.
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.criteria.scalar import entropy_of, gini_of, ordered_sum

LN2 = float(np.log(2.0))


def _log2(x: np.ndarray) -> np.ndarray:
    return np.log(x) / LN2


def seqsum(x, axis: int = -1) -> np.ndarray | float:
    """Sum along ``axis`` strictly in order, as Weka (and the compiled kernels) add up
    (``np.sum`` adds long runs pairwise, which can differ in the last bit)."""
    x = np.asarray(x, dtype=np.float64)
    if x.shape[axis] == 0:
        return np.sum(x, axis=axis)
    if x.ndim == 1 and x.size <= SMALL_SUM:  # (a class vector: a loop is cheaper)
        return np.float64(ordered_sum(x.tolist()))
    terms = x.shape[axis]
    if terms <= SMALL_SUM and x.size >= MANY_SUMS * terms:  # few terms, many sums: a slice at a time
        parts = x.T if axis in (-1, 1) and x.ndim == 2 else np.moveaxis(x, axis, 0)
        total = parts[0].copy()
        for part in parts[1:]:
            total += part
        return total
    # np.add.accumulate adds each sum's terms one after the other: the same additions, in the same order
    running = np.add.accumulate(x, axis=axis)
    return running[..., -1] if axis in (-1, x.ndim - 1) else np.take(running, -1, axis=axis)


SMALL_SUM = 256  # at most this many terms: added in a loop (the same additions, in the same order) ...
# ... when there are at least this many sums: each slice's addition then does much at once. Fewer sums
# (a node's few subsets of 19 classes: 3 x 19) take one accumulate (6.5 us against 22 us a loop)
MANY_SUMS = 128


def entropy(counts) -> np.ndarray | float:
    """Shannon entropy in bits, ``H = -sum p_i log2 p_i`` (0 log 0 = 0).

    Mitchell (1997) eq. 3.3; Quinlan (1986). Works along the last axis.
    Computed from the counts as C4.5 and Weka do,
    ``H = log2 N - (sum_i c_i log2 c_i) / N``, summing classes in order, so
    that scores which are equal in exact arithmetic compare the way they do
    in the reference implementations.
    """
    counts = np.asarray(counts, dtype=np.float64)
    if counts.ndim == 1 and counts.size <= SMALL_SUM:  # one vector: the same operations on Python floats
        return entropy_of(counts.tolist(), _numpy_log)
    total = seqsum(counts)
    acc = np.zeros(counts.shape[:-1])
    for j in range(counts.shape[-1]):
        c = counts[..., j]
        acc = acc - np.where(c > 0, c * _log2(np.where(c > 0, c, 1.0)), 0.0)
    safe = np.where(total > 0, total, 1.0)
    result = np.where(total > 0, acc / safe + _log2(safe), 0.0)
    return float(result) if result.ndim == 0 else result


def _numpy_log(value: float) -> float:
    return float(np.log(value))  # (numpy's logarithm, as for arrays: math.log may differ in the last bit)


def gini(counts) -> np.ndarray | float:
    """Gini index ``1 - sum p_i^2`` (Breiman et al. 1984); 0 for an empty set."""
    counts = np.asarray(counts, dtype=np.float64)
    if counts.ndim == 1 and counts.size <= SMALL_SUM:  # one vector: the same operations on Python floats
        return gini_of(counts.tolist())
    total = seqsum(counts)
    positive = total > 0
    p = counts / np.where(positive, total, 1.0)[..., None]  # (p is not read where the total is 0)
    result = np.where(positive, 1.0 - seqsum(p * p), 0.0)
    return float(result) if result.ndim == 0 else result


def weighted_impurity(branch_counts, impurity=entropy) -> float:
    """``sum_v |S_v|/|S| I(S_v)``: the expected impurity after a split (branches in order)."""
    branch_counts = np.asarray(branch_counts, dtype=np.float64)
    sizes = seqsum(branch_counts, axis=1)
    total = seqsum(sizes)
    values = impurity(branch_counts)
    result = 0.0
    for size, value in zip(sizes, values):
        if size > 0:
            result += (size / total) * value
    return float(result)


def information_gain(branch_counts) -> float:
    """``Gain(S, A) = H(S) - sum_v |S_v|/|S| H(S_v)`` (Mitchell eq. 3.4).

    Subtracts the branch terms one by one in value order, as Weka's Id3 does.
    """
    branch_counts = np.asarray(branch_counts, dtype=np.float64)
    sizes = seqsum(branch_counts, axis=1)
    total = seqsum(sizes)
    gain = entropy(seqsum(branch_counts, axis=0))
    for size, value in zip(sizes, entropy(branch_counts)):
        if size > 0:
            gain -= (size / total) * value
    return float(gain)


def split_information(branch_counts) -> float:
    """``SplitInfo(S, A) = -sum_v |S_v|/|S| log2 |S_v|/|S|`` (Quinlan 1986; Mitchell eq. 3.5).

    The entropy of the branch sizes themselves, which grows with the number
    of evenly filled branches.
    """
    branch_counts = np.asarray(branch_counts, dtype=np.float64)
    return entropy(branch_counts.sum(axis=1))


def gain_ratio(branch_counts) -> float:
    """``GainRatio(S, A) = Gain(S, A) / SplitInfo(S, A)`` (Mitchell eq. 3.6).

    ``-inf`` when the split information is 0 (all cases in one branch): such
    a split separates nothing and the ratio is undefined.
    """
    info = split_information(branch_counts)
    if info <= 0:
        return float("-inf")
    return information_gain(branch_counts) / info


def gini_gain(branch_counts) -> float:
    """Decrease in Gini index: ``G(S) - sum_v |S_v|/|S| G(S_v)`` (Breiman et al. 1984)."""
    branch_counts = np.asarray(branch_counts, dtype=np.float64)
    return gini(branch_counts.sum(axis=0)) - weighted_impurity(branch_counts, gini)


CRITERIA = {
    "gain": information_gain,
    "gain-ratio": gain_ratio,
    "gini": gini_gain,
    "entropy": information_gain,
    "cart": None,
}
"""Split scores by name: higher is better. ``--criterion`` offers these keys.

``entropy`` is information gain under CART's name; ``cart`` is Zaki's CART
measure (eq. 16.8), defined for binary splits only (``search/cart.py``'s ``decrease``).
"""
