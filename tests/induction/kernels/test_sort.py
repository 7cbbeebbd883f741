"""The compiled stable sort against numpy's: the same order, ties and both zeros included."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from dtcli.induction.kernels.sort import stable_order


def reference(values: np.ndarray) -> np.ndarray:
    known = np.flatnonzero(~np.isnan(values))
    return known[np.argsort(values[known], kind="stable")]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.0, -0.0, 1.0, -1.0])), max_size=300
    )
)
def test_same_order_as_numpy(values):
    values = np.array(values, dtype=np.float64)
    assert np.array_equal(stable_order(values), reference(values))


@pytest.mark.parametrize("seed", range(3))
def test_same_order_on_many_values_with_ties(seed):
    rng = np.random.default_rng(seed)
    values = np.round(rng.normal(0, 50, 200_000), 1)  # many ties, both signs
    values[rng.random(len(values)) < 0.05] = np.nan
    values[rng.random(len(values)) < 0.01] = -0.0
    assert np.array_equal(stable_order(values), reference(values))


def test_empty_and_all_missing():
    assert len(stable_order(np.zeros(0))) == 0
    assert len(stable_order(np.full(5, np.nan))) == 0


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.0, -0.0, 2.5])), max_size=200)
)
def test_ranks_index_the_distinct_values(values):
    from dtcli.induction.kernels.sort import ranked_order

    values = np.array(values, dtype=np.float64)
    order, ranks = np.full(len(values), -1), np.full(len(values), -1)
    m, distinct = ranked_order(values, order, ranks)
    expected = reference(values)
    assert m == len(expected) and np.array_equal(order[:m], expected)
    assert np.array_equal(distinct[ranks[:m]], values[expected])  # -0.0 == 0.0
    assert np.all(np.diff(distinct) > 0) and np.all(np.diff(ranks[:m]) >= 0)
