"""A regression node's numeric cuts side by side (``regression.numeric_splits``) against each attribute's
alone (``regression.numeric_split``), and its nominal attributes' subsets (``nominal_splits``) against
each one's (``nominal_split``), which the scikit-learn fixtures and the compiled regression
builder check: the same decrease, threshold, known weight and key, bit for bit.

The columns reach the edges: missing values (none, some, all), values within scikit-learn's 1e-7 of
each other, a single value, single precision (scikit-learn's order) or not, whole and fractional
weights, ``min_leaf`` above a side's weight, targets of either sign, batches split by ``BATCH_CELLS``,
and nodes of fewer than two rows.
"""

from __future__ import annotations

import numpy as np
import pytest
from drawn_columns import SKLEARN_NEIGHBOURS, found_pairs, numeric_column
from hypothesis import given, settings
from hypothesis import strategies as st

from dtcli.induction.search import regression
from dtcli.model.table import NOMINAL, NUMERIC, Attribute, Schema, Table


def column(rng, n: int) -> np.ndarray:
    return numeric_column(rng, n, SKLEARN_NEIGHBOURS)


def node(rng) -> Table:
    n = int(rng.integers(0, 70))
    attributes, columns = [], []
    for j in range(int(rng.integers(1, 8))):
        if rng.random() < 0.25:
            attributes.append(Attribute(f"n{j}", NOMINAL, ("a", "b", "c")))
            codes = rng.integers(-1, 3, n).astype(np.int32)
            columns.append(codes)
        else:
            attributes.append(Attribute(f"x{j}", NUMERIC))
            columns.append(column(rng, n))
    y = rng.normal(size=n) * rng.choice([1.0, 100.0]) + rng.choice([0.0, -50.0])
    if rng.random() < 0.3:
        y = np.round(y)
    weights = np.ones(n) if rng.random() < 0.5 else rng.random(n) * 2
    return Table(Schema(tuple(attributes), Attribute("y", NUMERIC)), columns, y, weights)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_numeric_splits_are_each_attributes_alone(seed):
    rng = np.random.default_rng(seed)
    table = node(rng)
    numeric = [i for i, a in enumerate(table.attributes) if not a.is_nominal]
    exact = bool(rng.random() < 0.5)
    min_leaf = float(rng.choice([1.0, 2.0, 0.5, 9.0]))
    cells = int(rng.integers(1, 3)) * 8 * max(1, table.n_rows) if rng.random() < 0.3 else None
    with pytest.MonkeyPatch.context() as patch:
        if cells is not None:  # a batch of one or two attributes
            patch.setattr(regression, "BATCH_CELLS", cells)
        got = regression.numeric_splits(table, numeric, min_leaf, exact)
    expected = [regression.numeric_split(table, i, min_leaf, exact) for i in numeric]
    for a, b in found_pairs(got, expected):
        assert (a[0], a[2], a[3]) == (b[0], b[2], b[3]) or all(np.isnan(x) for x in (a[3], b[3]))
        assert a[1] == b[1]


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_nominal_splits_are_each_attributes_alone(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 70))
    attributes, columns = [], []
    for j in range(int(rng.integers(1, 7))):
        size = int(rng.integers(1, 14))
        attributes.append(Attribute(f"n{j}", NOMINAL, tuple(f"v{v}" for v in range(size))))
        codes = rng.integers(0, size, n)
        if rng.random() < 0.4:  # some values absent at the node
            codes = np.where(codes % 3 == 0, 0, codes)
        codes[rng.random(n) < rng.choice([0.0, 0.2, 1.0])] = -1
        columns.append(codes.astype(np.int32))
    y = rng.normal(size=n) * rng.choice([1.0, 100.0]) + rng.choice([0.0, -50.0])
    if rng.random() < 0.3:
        y = np.round(y)
    weights = np.ones(n) if rng.random() < 0.5 else rng.random(n) * 2
    table = Table(Schema(tuple(attributes), Attribute("y", NUMERIC)), columns, y, weights)
    min_leaf = float(rng.choice([1.0, 2.0, 0.5, 9.0]))
    everyone = list(range(len(attributes)))
    got = regression.nominal_splits(table, everyone, min_leaf)
    expected = [regression.nominal_split(table, i, min_leaf) for i in everyone]
    for a, b in found_pairs(got, expected):
        assert (a[0], a[2], a[3]) == (b[0], b[2], b[3]) and a[1] == b[1]
        assert all(type(x) is float for x in (a[0], a[2], a[3]))
