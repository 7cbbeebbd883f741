"""The compiled CART regression builder against the per-node reference: the same trees."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from trees import both, same

from dtcli.model.table import NOMINAL, NUMERIC, Attribute, Schema, Table
from helpers import WEKA, load

pytest.importorskip("numba")


def numbers(n: int, seed: int, weights: np.ndarray | None = None) -> Table:
    """A numeric target from nominal and numeric attributes, with missing values, ties (values
    rounded to one decimal, a coarse attribute) and noise."""
    rng = np.random.default_rng(seed)
    colour = rng.integers(-1, 6, n).astype(np.int32)
    size = np.round(rng.normal(10, 3, n), 1)
    size[rng.random(n) < 0.05] = np.nan
    coarse = rng.integers(0, 4, n).astype(np.float64)
    flag = rng.integers(0, 2, n).astype(np.int32)
    y = 3.0 * (colour % 3) + 0.7 * np.nan_to_num(size) + 2.0 * coarse * flag + rng.normal(0, 1.5, n)
    y[rng.random(n) < 0.02] = np.nan  # unlabelled rows
    attributes = (
        Attribute("colour", NOMINAL, tuple(f"c{i}" for i in range(6))),
        Attribute("size", NUMERIC),
        Attribute("coarse", NUMERIC),
        Attribute("flag", NOMINAL, ("no", "yes")),
    )
    return Table(Schema(attributes, Attribute("y", NUMERIC)), [colour, size, coarse, flag], y, weights=weights)


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"min_leaf": 5.0},
        {"max_depth": 4},
        {"min_split": 40.0},
        {"min_gain": 0.01},
        {"seed": 3},
        {"ties": "column"},
        {"min_leaf": 3.0, "ties": "column"},
        {"max_leaves": 9},
        {"max_leaves": 40, "min_leaf": 2.0},
        {"max_leaves": 6, "ties": "column"},
    ],
)
def test_same_regression_trees_on_generated_data(seed, options):
    reference, compiled = both(numbers(1500, seed), **options)
    assert same(reference, compiled)


def test_same_regression_trees_with_whole_weights_and_no_missing_values():
    table = numbers(1200, 4, weights=np.random.default_rng(4).integers(0, 4, 1200).astype(np.float64))
    reference, compiled = both(table)
    assert same(reference, compiled)
    for i, column in enumerate(table.columns):
        if table.attributes[i].is_nominal:
            column[column < 0] = 0
        else:
            column[np.isnan(column)] = 0.0
    reference, compiled = both(table, missing="reject")
    assert same(reference, compiled)


@pytest.mark.parametrize("seed", range(3))
def test_same_regression_trees_with_fractional_weights(seed):
    """Sums of fractional weights depend on their order: the builder adds them up in the
    reference's (running sums along the values, numpy's pairwise sums elsewhere)."""
    rng = np.random.default_rng(seed)
    table = numbers(1500, seed, weights=rng.choice([0.1, 0.25, 1.3, 2.7], 1500))
    for options in ({}, {"min_leaf": 2.5}, {"ties": "column"}):
        reference, compiled = both(table, **options)
        assert same(reference, compiled)


@pytest.mark.parametrize("leaf", [1, 5])
def test_same_tree_on_cpu(leaf):
    reference, compiled = both(load(WEKA / "data" / "cpu.arff", task="auto"), min_leaf=float(leaf))
    assert same(reference, compiled)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), max_size=700))
def test_pairwise_sum_is_numpys(values):
    from dtcli.induction.cart.kernels.scores import pairwise_sum

    a = np.array(values, dtype=np.float64)
    assert pairwise_sum(a) == np.sum(a) or (len(a) == 0 and np.sum(a) == 0)


def test_pairwise_sum_is_numpys_at_every_length_up_to_a_thousand():
    from dtcli.induction.cart.kernels.scores import pairwise_sum

    values = np.random.default_rng(7).normal(0, 1e3, 1000) ** 3
    assert all(pairwise_sum(values[:n]) == np.sum(values[:n]) for n in range(1001))


@pytest.mark.parametrize("options", [{}, {"ties": "column"}, {"max_leaves": 25}, {"min_leaf": 3.0}])
def test_same_regression_trees_with_fractional_cases(options):
    """--missing fractional for regression trees: cases with a missing value go down both branches
    (cart/kernels/fraction.py), their weights times the branch's share."""
    for seed in range(2):
        reference, compiled = both(numbers(1500, seed), missing="fractional", **options)
        assert same(reference, compiled)


def test_chi_square_pre_pruning_is_refused_for_regression():
    from trees import fit

    from dtcli.errors import ParameterError

    with pytest.raises(ParameterError, match="--chi2-alpha.*regression"):
        fit(load(WEKA / "data" / "cpu.arff", task="regression"), "cart", chi2_alpha=0.05)


@pytest.mark.parametrize("ties", ["sklearn", "column"])
def test_nominal_and_incomplete_attributes_compete_on_the_proxys_scale(ties):
    """In scikit-learn's order splits compare by its proxy S_L^2/W_L + S_R^2/W_R; a nominal
    attribute's best subset and a split with missing values (W x decrease + S^2/W) must be on
    that scale too, or they lose (or win) whatever their merit."""
    from trees import fit

    rng = np.random.default_rng(0)
    n = 400
    code, noise, good = rng.integers(0, 3, n).astype(np.int32), rng.normal(size=n), rng.normal(size=n)
    y = 10.0 * code + rng.normal(size=n) * 0.1
    schema = Schema((Attribute("noise", NUMERIC), Attribute("code", NOMINAL, ("a", "b", "c"))), Attribute("y", NUMERIC))
    tree, _ = fit(Table(schema, [noise, code], y), "cart", ties=ties, max_depth=1)
    assert tree.root.test.attribute.name == "code"
    target = 5.0 * (good > 0) + rng.normal(size=n) * 0.1
    gappy = good.copy()
    gappy[::40] = np.nan
    schema = Schema((Attribute("noise", NUMERIC), Attribute("good", NUMERIC)), Attribute("y", NUMERIC))
    tree, _ = fit(Table(schema, [noise, gappy], target), "cart", ties=ties, max_depth=1)
    assert tree.root.test.attribute.name == "good"
    weak = noise.copy()
    weak[::40] = np.nan
    tree, _ = fit(Table(schema, [weak, good], target), "cart", ties=ties, max_depth=1)
    assert tree.root.test.attribute.name == "good"
