"""Entropy and Gini of one class vector in plain Python floats (no numpy to import).

``criteria/impurity.py`` computes a single vector with these functions, and
``plain/report.py`` (``dtree gain`` on a small file) computes everything
with them: the same operations in the same order as ``impurity``'s array
formulas, so every path gives the same bits. Sums run strictly in order
(``ordered_sum``), as Weka and the compiled kernels add up.

The logarithm is a parameter: ``impurity`` passes numpy's (which, on a CPU
with AVX-512, is numpy's own and may differ from the C library's in the last
bit), the plain path ``math.log`` (the C library's, as the compiled kernels
use).
"""

from __future__ import annotations

import math

from dtcli.induction.criteria.constants import LN2


def ordered_sum(values: list) -> float:
    """``values[0] + values[1] + ...`` in that order (at least one value)."""
    total = values[0]
    for v in values[1:]:
        total += v
    return total


def entropy_of(values: list, log=math.log) -> float:
    """Shannon entropy in bits of class weights ``values``, as C4.5 and Weka compute it:
    ``log2 N - (sum_i c_i log2 c_i) / N`` (0 log 0 = 0; an empty set has entropy 0)."""
    total = ordered_sum(values) if values else 0.0
    if not total > 0:
        return 0.0
    acc = 0.0
    for value in values:
        acc = acc - (value * (log(value) / LN2) if value > 0 else 0.0)
    return acc / total + log(total) / LN2


def gini_of(values: list) -> float:
    """Gini index ``1 - sum p_i^2`` of class weights ``values`` (0 for an empty set)."""
    total = ordered_sum(values) if values else 0.0
    if not total > 0:
        return 0.0
    shares = [value / total for value in values]
    return 1.0 - ordered_sum([p * p for p in shares])
