"""C4.5's cuts of a node's numeric attributes side by side (``batched.c45_cuts``) against the cut of each
attribute alone (``numeric.c45_cut`` of its ``cut_table``), which the J48 fixtures check: the same cut,
threshold, gain, counts and number of candidates, bit for bit.

The columns are made to reach the edges: missing values (none, some, all), values within J48's 1e-5 of
each other, a single value, fractional and whole weights, a node weight above the known rows' (missing
classes' share), MDL on and off, more classes than ``seqsum`` adds in a loop, batches split by
``BATCH_CELLS``, and nodes of fewer than two rows.
"""

from __future__ import annotations

import numpy as np
import pytest
from drawn_columns import J48_NEIGHBOURS, numeric_column
from hypothesis import given, settings
from hypothesis import strategies as st

from dtcli.induction.search import batched
from dtcli.induction.search.batched import c45_cuts
from dtcli.induction.search.numeric import c45_cut, cut_table


def alone(columns, y, w, n_classes, min_leaf, total, mdl):
    return [c45_cut(cut_table(c, y, w, n_classes, total=total), n_classes, min_leaf, mdl=mdl) for c in columns]


def assert_same(got, expected):
    assert len(got) == len(expected)
    for a, b in zip(got, expected):
        if b is None:
            assert a is None
            continue
        assert a is not None
        assert (a.threshold, a.lower, a.upper, a.n_candidates) == (b.threshold, b.lower, b.upper, b.n_candidates)
        assert a.gain == b.gain and type(a.gain) is type(b.gain)
        assert a.branch_counts.tobytes() == b.branch_counts.tobytes()


def column(rng, n: int) -> np.ndarray:
    return numeric_column(rng, n, J48_NEIGHBOURS)


def node(rng, rows: tuple[int, int], classes: list[int], attributes: tuple[int, int]):
    n = int(rng.integers(*rows))
    k = int(rng.choice(classes))
    y = rng.integers(0, k, n)
    w = np.ones(n) if rng.random() < 0.5 else rng.random(n) * rng.choice([0.3, 1.0, 2.0])
    columns = [column(rng, n) for _ in range(int(rng.integers(*attributes)))]
    total = float(w.sum()) + float(rng.choice([0.0, 0.0, 1.5]))
    return columns, y, w, k, total


@pytest.mark.parametrize("seed", range(4))
def test_small_nodes_bit_for_bit(seed):
    rng = np.random.default_rng(seed)
    for _ in range(400):
        columns, y, w, k, total = node(rng, (0, 60), [1, 2, 3, 5], (1, 7))
        min_leaf, mdl = float(rng.choice([0.5, 1.0, 2.0, 3.0])), bool(rng.random() < 0.8)
        assert_same(c45_cuts(columns, y, w, k, min_leaf, total, mdl), alone(columns, y, w, k, min_leaf, total, mdl))


@pytest.mark.parametrize("seed", range(2))
def test_large_nodes_and_many_classes_bit_for_bit(seed):
    rng = np.random.default_rng(100 + seed)
    for _ in range(12):
        columns, y, w, k, total = node(rng, (200, 2500), [2, 10, 30, 300], (1, 4))
        assert_same(c45_cuts(columns, y, w, k, 2.0, total, True), alone(columns, y, w, k, 2.0, total, True))


def test_batches_split_by_their_cells_give_the_same_cuts(monkeypatch):
    rng = np.random.default_rng(7)
    columns, y, w, k, total = node(rng, (300, 301), [3], (9, 10))
    expected = alone(columns, y, w, k, 2.0, total, True)
    monkeypatch.setattr(batched, "BATCH_CELLS", 300 * 3 * 2)  # two attributes a batch, the last alone
    assert_same(c45_cuts(columns, y, w, k, 2.0, total, True), expected)


def test_no_attributes_and_too_few_rows():
    assert c45_cuts([], np.zeros(0, dtype=np.int64), np.zeros(0), 2, 2.0, 0.0) == []
    one = [np.array([1.0])]
    assert c45_cuts(one, np.array([0]), np.array([1.0]), 2, 2.0, 1.0) == [None]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.lists(st.one_of(st.none(), st.sampled_from([0.0, 1.0, 1.000001, 2.0, 2.5, -3.0])), min_size=12),
            st.integers(0, 2),
        ),
        min_size=1,
        max_size=3,
    ),
    st.integers(0, 2**31),
)
def test_any_columns_bit_for_bit(spec, seed):
    rng = np.random.default_rng(seed)
    n = min(len(cells) for cells, _ in spec)
    columns = [np.array([np.nan if v is None else v for v in cells[:n]]) for cells, _ in spec]
    y = np.array([c for _, c in spec] * n)[:n] if len(spec) > 1 else rng.integers(0, 3, n)
    w = rng.choice([1.0, 0.5, 0.25], n)
    total = float(w.sum())
    assert_same(c45_cuts(columns, y, w, 3, 1.0, total, True), alone(columns, y, w, 3, 1.0, total, True))


def mixed_table(rng, rows: int, n_classes: int):
    """A node's rows: nominal attributes of 1 to 12 values (some never seen, some missing) and numeric ones."""
    from dtcli.model.table import NOMINAL, NUMERIC, Attribute, Schema, Table

    attributes, columns = [], []
    for j in range(int(rng.integers(1, 8))):
        if rng.random() < 0.5:
            n_values = int(rng.integers(1, 13))
            attributes.append(Attribute(f"n{j}", NOMINAL, tuple(f"v{v}" for v in range(n_values))))
            codes = rng.integers(0, max(1, n_values - int(rng.integers(0, 2))), rows).astype(np.int32)
            codes[rng.random(rows) < rng.choice([0.0, 0.2])] = -1
            columns.append(codes)
        else:
            attributes.append(Attribute(f"x{j}", NUMERIC))
            columns.append(column(rng, rows))
    target = Attribute("y", NOMINAL, tuple(f"k{k}" for k in range(n_classes)))
    weights = np.ones(rows) if rng.random() < 0.5 else rng.random(rows) * 2
    return Table(Schema(tuple(attributes), target), columns, rng.integers(0, n_classes, rows), weights)


@pytest.mark.parametrize("seed", range(3))
def test_a_nodes_candidates_side_by_side_are_those_one_by_one(seed):
    """``c45_candidates`` (nominal scores and numeric cuts side by side) against ``c45_candidate`` of
    each attribute alone: the same attributes, tests, gains, ratios, counts and MDL corrections."""
    from dtcli.induction.search.c45 import Thresholds, c45_candidate, c45_candidates

    rng = np.random.default_rng(200 + seed)
    for _ in range(150):
        table = mixed_table(rng, int(rng.integers(2, 120)), int(rng.choice([1, 2, 3, 7, 19])))
        min_leaf = float(rng.choice([0.5, 1.0, 2.0]))
        thresholds = Thresholds(table, "midpoint", mdl=bool(rng.random() < 0.8))
        total = float(table.weights.sum()) + float(rng.choice([0.0, 1.25]))
        together = c45_candidates(table, min_leaf, thresholds, total)
        alone = [
            c
            for i in range(len(table.attributes))
            if (c := c45_candidate(table, i, None, table.weights, min_leaf, thresholds, total)) is not None
        ]
        assert [c.attribute for c in together] == [c.attribute for c in alone]
        for a, b in zip(together, alone):
            assert repr(a.test) == repr(b.test)
            assert (a.gain, a.ratio, a.mdl) == (b.gain, b.ratio, b.mdl)
            assert type(a.gain) is float and type(a.ratio) is float
            assert a.counts.tobytes() == b.counts.tobytes() and a.counts.shape == b.counts.shape
