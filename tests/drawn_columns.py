"""Drawn numeric columns for the tests that compare a node's attributes scored side by side with each
attribute scored alone (C4.5's, CART's and regression's batched searches), and the comparison of
their results."""

from __future__ import annotations

import numpy as np

J48_NEIGHBOURS = [0.0, 1e-6, 5e-6, 2e-5]  # closer than J48's 1e-5, and just farther
SKLEARN_NEIGHBOURS = [0.0, 5e-8, 2e-7]  # closer than scikit-learn's 1e-7, and just farther


def numeric_column(rng, n: int, neighbours: list[float]) -> np.ndarray:
    """``n`` values of one of five kinds (spread, few distinct, ``neighbours`` apart, one value, large),
    none, some, half or all of them missing (NaN)."""
    kind = int(rng.integers(0, 5))
    if kind == 0:
        values = rng.normal(size=n)
    elif kind == 1:
        values = rng.integers(0, 5, n).astype(np.float64)
    elif kind == 2:
        values = np.round(rng.normal(size=n), 1) + rng.choice(neighbours, n)
    elif kind == 3:
        values = np.full(n, 3.0)
    else:
        values = rng.normal(size=n) * 1e6
    values[rng.random(n) < rng.choice([0.0, 0.1, 0.5, 1.0])] = np.nan
    return values


def found_pairs(got: list, expected: list) -> list[tuple]:
    """The (got, expected) pairs where an attribute has a split, after checking that ``got`` has one
    exactly where ``expected`` has."""
    assert len(got) == len(expected)
    for a, b in zip(got, expected):
        assert (a is None) == (b is None)
    return [(a, b) for a, b in zip(got, expected) if b is not None]
