"""The reference pruning's cases are row positions and weights: each branch must hold exactly the rows,
in order, and the weights that the grower's spread of a Table gives it (J48's fractional cases)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dtcli.induction.prune.pessimistic.reference import TableCases, shares_of
from dtcli.induction.search.missing import spread
from dtcli.induction.search.numeric import seqsum
from dtcli.model.table import MISSING, NOMINAL, NUMERIC, Attribute, Schema, Table
from dtcli.model.tree import NominalTest, NumericTest


def table(rows: int, missing: float, seed: int, fractional: bool) -> Table:
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 9, rows).astype(np.float64)
    x[rng.random(rows) < missing] = np.nan
    c = rng.integers(0, 3, rows).astype(np.int32)
    c[rng.random(rows) < missing] = MISSING
    y = rng.integers(0, 4, rows)
    y[rng.random(rows) < 0.05] = MISSING  # unlabelled rows: not among the cases
    weights = rng.random(rows) + 0.5 if fractional else np.ones(rows)
    attributes = (Attribute("x", NUMERIC), Attribute("c", NOMINAL, ("a", "b", "c")))
    schema = Schema(attributes, Attribute("y", NOMINAL, ("k0", "k1", "k2", "k3")))
    return Table(schema, [x, c], y, weights, origin=np.arange(rows))


def by_tables(data: Table, test, grid: bool):
    """The same step done on Tables, as the grower's spread does it."""
    labelled = data.take(data.labelled())
    branch = test.route(labelled.columns[labelled.schema.index(test.attribute.name)])
    known = branch != MISSING
    sizes = np.bincount(branch[known], weights=labelled.weights[known], minlength=test.n_branches)
    bags = np.zeros((test.n_branches, len(data.classes)))
    for b in range(test.n_branches):
        here = branch == b
        bags[b] = np.bincount(labelled.y[here], weights=labelled.weights[here], minlength=len(data.classes))
    missing = ~known
    if missing.any():
        unknown = np.bincount(labelled.y[missing], weights=labelled.weights[missing], minlength=len(data.classes))
        bags += np.outer(shares_of(sizes), unknown)
    return bags, spread(labelled, branch, shares_of(seqsum(bags, axis=1)), test.n_branches, grid)


@settings(max_examples=60, deadline=None)
@given(
    rows=st.integers(0, 60),
    missing=st.sampled_from([0.0, 0.2, 0.9, 1.0]),
    seed=st.integers(0, 10_000),
    fractional=st.booleans(),
    grid=st.booleans(),
    nominal=st.booleans(),
)
def test_a_branch_holds_the_rows_and_weights_a_table_would(rows, missing, seed, fractional, grid, nominal):
    data = table(rows, missing, seed, fractional)
    test = NominalTest(data.attributes[1]) if nominal else NumericTest(data.attributes[0], 4.0)
    holder = TableCases(data, grid)
    bags, parts = holder.route(test, holder.root)
    expected_bags, expected = by_tables(data, test, grid)
    assert np.array_equal(bags, expected_bags)
    assert len(parts) == len(expected) == test.n_branches
    for cases, part in zip(parts, expected):
        assert np.array_equal(cases.rows, part.origin)
        assert np.array_equal(cases.weights, part.weights)
        assert np.array_equal(holder.counts(cases), part.class_counts())
        assert holder.size(cases) == pytest.approx(float(part.weights.sum()), rel=1e-12, abs=0)


def test_the_root_holds_the_labelled_rows_only():
    data = table(40, 0.0, 3, True)
    holder = TableCases(data)
    assert np.array_equal(holder.root.rows, np.flatnonzero(data.y != MISSING))
    assert np.array_equal(holder.counts(holder.root), data.class_counts())
