"""CART's splits of a node's attributes side by side (``cart.numeric_splits``, ``cart.nominal_splits``)
against the split of each attribute alone (``cart.numeric_split``, ``cart.nominal_split`` of its
``nominal_branch_counts``), which the scikit-learn fixtures and the compiled builders check: the same
score, threshold or subset, branch counts and key, bit for bit.

The nodes reach the edges: missing values (none, some, all), values within scikit-learn's 1e-7 of each
other, a single value, values in single precision (scikit-learn's order) or not, whole and fractional
weights, every criterion, ``min_leaf`` above a side's weight, more classes than ``seqsum`` adds in a
loop, nominal attributes with 0 to 14 values present (the exhaustive search, the two-class prefix and
the greedy search past ``SUBSET_LIMIT``), batches split by ``BATCH_CELLS``, and nodes of fewer than two
rows.
"""

from __future__ import annotations

import numpy as np
import pytest
from drawn_columns import SKLEARN_NEIGHBOURS, found_pairs
from drawn_columns import numeric_column as drawn_column
from hypothesis import given, settings
from hypothesis import strategies as st

from dtcli.induction.search import cart
from dtcli.induction.search.batched import nominal_block
from dtcli.induction.search.split import nominal_branch_counts
from dtcli.induction.search.ties import single
from dtcli.model.table import NOMINAL, Attribute

CRITERIA = ["gini", "entropy", "cart"]


def assert_same(got, expected):
    for (score, test, counts, key), b in found_pairs(got, expected):
        assert (score, key) == (b[0], b[3]) and type(score) is type(b[0]) and type(key) is type(b[3])
        assert test == b[1]
        assert counts.tobytes() == b[2].tobytes()


def numeric_column(rng, n: int) -> np.ndarray:
    return drawn_column(rng, n, SKLEARN_NEIGHBOURS)


def drawn_node(seed: int, most_rows: int, classes: list[int]):
    """(generator, rows, classes, class codes, weights) of a drawn node."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, most_rows))
    return (rng, n, *labels(rng, n, classes))


def labels(rng, n: int, classes: list[int]):
    k = int(rng.choice(classes))
    y = rng.integers(0, k, n)
    w = np.ones(n) if rng.random() < 0.5 else rng.random(n) * rng.choice([0.3, 1.0, 2.0])
    return k, y, w


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_numeric_splits_are_each_attributes_alone(seed):
    rng, n, k, y, w = drawn_node(seed, 60, [1, 2, 3, 7, 300])
    exact = bool(rng.random() < 0.5)
    columns = [numeric_column(rng, n) for _ in range(int(rng.integers(1, 7)))]
    if exact:
        columns = [single(c) for c in columns]
    criterion = str(rng.choice(CRITERIA))
    min_leaf = float(rng.choice([1.0, 2.0, 0.5, 7.0]))
    got = cart.numeric_splits(columns, y, w, k, criterion, min_leaf, exact)
    assert_same(got, [cart.numeric_split(c, y, w, k, criterion, min_leaf, exact) for c in columns])


def test_numeric_batches_split_by_cells_give_the_same_splits(monkeypatch):
    rng = np.random.default_rng(5)
    k, y, w = labels(rng, 40, [3])
    columns = [numeric_column(rng, 40) for _ in range(9)]
    expected = [cart.numeric_split(c, y, w, k, "gini", 1.0, False) for c in columns]
    monkeypatch.setattr(cart, "BATCH_CELLS", 2 * 40 * k)  # two attributes a batch
    assert_same(cart.numeric_splits(columns, y, w, k, "gini", 1.0, False), expected)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_nominal_splits_are_each_attributes_alone(seed):
    rng, n, k, y, w = drawn_node(seed, 80, [1, 2, 3, 5, 300])
    sizes = [int(rng.integers(1, 15)) for _ in range(int(rng.integers(1, 8)))]
    columns = []
    for size in sizes:
        codes = rng.integers(0, size, n)
        if rng.random() < 0.4:  # some values absent at the node
            codes = np.where(codes % 3 == 0, 0, codes)
        codes[rng.random(n) < rng.choice([0.0, 0.2, 1.0])] = -1
        columns.append(codes.astype(np.int16))
    attributes = [Attribute(f"a{j}", NOMINAL, tuple(f"v{v}" for v in range(size))) for j, size in enumerate(sizes)]
    criterion = str(rng.choice(CRITERIA))
    min_leaf = float(rng.choice([1.0, 2.0, 0.5, 9.0]))
    limit = int(rng.choice([cart.SUBSET_LIMIT, 4]))
    block = nominal_block(columns, sizes, y, w, k)
    got = cart.nominal_splits(block, attributes, criterion, min_leaf, limit)
    expected = [
        cart.nominal_split(nominal_branch_counts(c, y, w, size, k), a, criterion, min_leaf, limit)
        for c, size, a in zip(columns, sizes, attributes)
    ]
    assert_same(got, expected)


@pytest.mark.parametrize("criterion", CRITERIA)
def test_decrease_of_many_splits_is_each_splits_alone(criterion):
    rng = np.random.default_rng(11)
    left, right = rng.random((20, 4)) * 5, rng.random((20, 4)) * 5
    left[3] = 0.0
    together = cart.decrease(left, right, criterion)
    for i in range(20):
        assert together[i] == cart.decrease(left[i : i + 1], right[i : i + 1], criterion)[0]
