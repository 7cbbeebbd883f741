"""The chi-square test of independence between a split's branches and the classes.

``chi_square(counts)`` takes a (branches, classes) table of weighted counts
and returns the Pearson statistic, its degrees of freedom and its p-value,
``P(X^2_df >= statistic)``. Empty branches and absent classes are left out
(they carry no information), so df = (branches - 1)(classes - 1) over the
rest. The p-value is the regularized upper incomplete gamma function
``Q(df/2, statistic/2)``, by its series or its continued fraction.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass
class ChiStep:
    """A chi-square pre-pruning check: the node's depth and cases, the test, the verdict."""

    depth: int
    cases: float
    attribute: str
    statistic: float
    df: int
    p_value: float
    action: str


def chi_square(counts: np.ndarray) -> tuple[float, int, float]:
    counts = np.asarray(counts, dtype=np.float64)
    counts = counts[counts.sum(axis=1) > 0][:, counts.sum(axis=0) > 0]
    rows, cols = counts.shape if counts.ndim == 2 else (0, 0)
    if rows < 2 or cols < 2:
        return 0.0, 0, 1.0
    total = counts.sum()
    expected = np.outer(counts.sum(axis=1), counts.sum(axis=0)) / total
    statistic = float(((counts - expected) ** 2 / expected).sum())
    df = (rows - 1) * (cols - 1)
    return statistic, df, chi2_sf(statistic, df)


def chi2_sf(x: float, df: int) -> float:
    """Survival function of the chi-square distribution with ``df`` degrees of freedom."""
    if x <= 0:
        return 1.0
    a = df / 2.0
    return upper_gamma(a, x / 2.0, math.lgamma(a))


def upper_gamma(a: float, x: float, lgamma_a: float) -> float:
    """Regularized Q(a, x) = Gamma(a, x) / Gamma(a), ``lgamma_a`` being ``math.lgamma(a)``: by the
    series of P(a, x) for x < a + 1, else by the continued fraction. Plain Python that numba
    compiles unchanged (``cart/kernels/chi.py``), so both give the same bits."""
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - lgamma_a))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(-x + a * math.log(x) - lgamma_a) * h)
