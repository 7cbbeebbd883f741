"""--max-bins puts C4.5's fractional case weights on a grid of 2**-24 (``constants.on_grid``): every sum of
weights is then exact, so the tree does not depend on the order of the rows (what lets the Dask engine add
partitions in any order and still write the local binned engine's model file)."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from trees import fit, generated, same

from dtcli.induction.criteria.constants import GRID_SCALE, on_grid
from dtcli.induction.params import fraction_grid
from dtcli.model.format.model import dumps_model


@given(st.floats(0.0, 1.0))
def test_on_grid_is_the_nearest_multiple_of_the_grid(x):
    """The nearest multiple of 2**-24 (ties to the even multiple), computed exactly with fractions."""
    got = Fraction(float(on_grid(x)))
    step = Fraction(1, 2**24)
    assert (got / step).denominator == 1
    distance = abs(got - Fraction(x))
    assert distance <= step / 2
    if distance == step / 2:
        assert (got / step).numerator % 2 == 0


def test_on_grid_takes_arrays_as_numbers():
    values = np.array([0.0, 1.0, 1 / 3, 2.5 / 2**24, 3.5 / 2**24, 1e-9])
    assert list(on_grid(values)) == [float(on_grid(v)) for v in values]
    assert list(on_grid(values) * GRID_SCALE) == [0.0, 2**24, 5592405.0, 2.0, 4.0, 0.0]


def test_only_binned_id3_and_c45_use_the_grid():
    assert fraction_grid("c45", 256) and fraction_grid("id3", 8)
    assert not fraction_grid("c45", None) and not fraction_grid("c45", 0) and not fraction_grid("cart", 256)


def _model(table, engine: str, **options) -> dict:
    tree, _ = fit(table, "c45", engine=engine, **options)
    model = json.loads(dumps_model(tree))
    del model["training_data"]
    return model


def _counts(model: dict) -> list[list[float]]:
    out, stack = [], [model["root"]]
    while stack:
        node = stack.pop()
        out.append(node["counts"])
        stack.extend(branch["node"] for branch in node.get("branches", ()))
    return out


def _off_grid(model: dict) -> int:
    return sum(float(c) * GRID_SCALE != round(float(c) * GRID_SCALE) for counts in _counts(model) for c in counts)


@pytest.mark.parametrize("engine", ["reference", "compiled"])
def test_binned_growth_counts_lie_on_the_grid(engine):
    """Every node's class weights are sums of weights on the grid; unbinned, J48's own products are not."""
    pytest.importorskip("numba") if engine == "compiled" else None
    table = generated(3000, 5)
    binned = _model(table, engine, max_bins=16, prune="none")
    assert _off_grid(binned) == 0
    assert any(c != round(c) for counts in _counts(binned) for c in counts)  # (fractional cases there are)
    assert _off_grid(_model(table, engine, prune="none")) > 0


@pytest.mark.parametrize("engine", ["reference", "compiled"])
@pytest.mark.parametrize("options", [{"prune": "none"}, {}, {"raising": False}, {"cf": 0.1}])
def test_binned_trees_do_not_depend_on_the_order_of_the_rows(engine, options):
    """Shuffled rows give the same model file, every count and score to the last bit, grown and pruned
    (pruning spreads cases on the grid too): sums on the grid are exact in any order."""
    pytest.importorskip("numba") if engine == "compiled" else None
    table = generated(3000, 7)
    expected = _model(table, engine, max_bins=12, **options)
    for seed in (1, 2):
        order = np.random.default_rng(seed).permutation(table.n_rows)
        assert _model(table.take(order), engine, max_bins=12, **options) == expected


@pytest.mark.parametrize("options", [{}, {"raising": False}, {"prune": "none", "min_leaf": 5}])
def test_binned_engines_agree_with_fractional_cases(options):
    """The compiled level-wise engine and pruner put the same weights on the grid as the reference (floats
    to 1e-12: numpy's log and the C library's may differ in the last bit)."""
    pytest.importorskip("numba")
    table = generated(4000, 11)
    compiled = _model(table, "compiled", max_bins=9, **options)
    reference = _model(table, "reference", max_bins=9, **options)
    assert same(compiled, reference)
