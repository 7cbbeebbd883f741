"""The compiled CART builder against the per-node reference: the same trees, node for node."""

from __future__ import annotations

import json

import numpy as np
import pytest
from trees import both, generated, same, tied, without_missing

from dtcli.model.table import NOMINAL, NUMERIC, Attribute, Schema, Table
from helpers import FIXTURES, WEKA, load

pytest.importorskip("numba")


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"criterion": "entropy"},
        {"criterion": "cart"},
        {"ties": "column"},
        {"ties": "column", "criterion": "entropy"},
        {"min_leaf": 5.0},
        {"max_depth": 3},
        {"min_split": 30.0, "purity": 0.9},
        {"seed": 7},
        {"missing": "reject"},
    ],
)
def test_same_trees_on_generated_data(seed, options):
    table = generated(1200, seed)
    if options.get("missing") == "reject":
        without_missing(table)
    reference, compiled = both(table, **options)
    assert same(reference, compiled)


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize(
    "options",
    [
        {"chi2_alpha": 0.05},
        {"chi2_alpha": 1e-4, "criterion": "entropy"},
        {"chi2_alpha": 0.3, "ties": "column"},
        {"max_leaves": 12},
        {"max_leaves": 40, "criterion": "entropy"},
        {"max_leaves": 5, "ties": "column"},
        {"max_leaves": 25, "chi2_alpha": 0.01},
        {"max_leaves": 100000, "min_leaf": 3.0},
    ],
)
def test_same_trees_with_pre_pruning_and_best_first_growth(seed, options):
    """--chi2-alpha and --max-leaves in the compiled builder: the same trees, and the same
    chi-square tests (statistic, df, p-value) in the same order."""
    from dtcli.induction.backend import grow_nodes
    from dtcli.induction.params import GrowParams

    table = generated(1500, seed)
    reference, compiled = both(table, **options)
    assert same(reference, compiled)
    traces = []
    for engine in ("reference", "compiled"):
        trace: list = []
        defaults = {"thresholds": "midpoint", "missing": "majority", "min_leaf": 1.0, "ties": "sklearn"}
        grow_nodes(table, GrowParams(algorithm="cart", **{**defaults, **options}), engine, trace=trace)
        traces.append(trace)
    assert traces[0] == traces[1] and (len(traces[0]) > 0) == ("chi2_alpha" in options)


def test_chi_square_twin_is_the_reference_bit_for_bit():
    import math

    from dtcli.induction.cart.kernels.chi import chi_square as compiled
    from dtcli.induction.criteria.chisquare import chi_square

    rng = np.random.default_rng(3)
    lgammas = np.array([math.lgamma(df / 2) if df else 0.0 for df in range(12)])
    for _ in range(300):
        n_classes = int(rng.integers(2, 11))
        counts = rng.integers(0, 30, (2, n_classes)) * rng.choice([1.0, 0.37], (2, n_classes))
        counts[:, rng.random(n_classes) < 0.2] = 0.0
        assert compiled(counts, lgammas) == chi_square(counts)


def many_values(n: int, n_classes: int, seed: int) -> Table:
    """Nominal attributes with more values than the exhaustive subset search takes (greedy search
    for 3 classes, the ordering by class share for 2), and one with few."""
    rng = np.random.default_rng(seed)
    wide = rng.integers(-1, 14, n).astype(np.int32)
    narrow = rng.integers(0, 5, n).astype(np.int32)
    y = ((wide % 3 == 0).astype(int) + (narrow == 2)) % n_classes
    flip = rng.random(n) < 0.15
    y[flip] = rng.integers(0, n_classes, flip.sum())
    attributes = (
        Attribute("wide", NOMINAL, tuple(f"w{i}" for i in range(14))),
        Attribute("narrow", NOMINAL, tuple(f"n{i}" for i in range(5))),
    )
    target = Attribute("y", NOMINAL, tuple(f"k{i}" for i in range(n_classes)))
    return Table(Schema(attributes, target), [wide, narrow], y.astype(np.int32))


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_same_trees_with_many_valued_attributes(n_classes, criterion):
    reference, compiled = both(many_values(1500, n_classes, n_classes), criterion=criterion)
    assert same(reference, compiled)


SKLEARN = [
    r
    for r in json.loads((FIXTURES / "sklearn" / "cart.json").read_text())
    if r["estimator"] == "DecisionTreeClassifier"
]


@pytest.mark.parametrize("record", SKLEARN, ids=[f"{r['dataset']}-{r['params']['criterion']}" for r in SKLEARN])
def test_same_trees_on_the_scikit_learn_fixtures(record):
    table = load(WEKA / "data" / f"{record['dataset']}.arff")
    reference, compiled = both(table, criterion=record["params"]["criterion"], min_leaf=1)
    assert same(reference, compiled)


def test_builder_is_used_for_large_tables_only():
    from dtcli.induction.backend import CART, REFERENCE, choose
    from dtcli.induction.params import GrowParams

    params = GrowParams(
        algorithm="cart", criterion="gini", thresholds="midpoint", missing="majority", min_leaf=1.0, ties="sklearn"
    )
    assert choose(generated(100, 0), params, "auto") == REFERENCE
    assert choose(generated(100, 0), params, "compiled") == CART
    assert (
        choose(generated(100, 0), GrowParams(algorithm="cart", missing="fractional", max_leaves=5), "compiled") == CART
    )
    assert choose(generated(100, 0), params, "reference") == REFERENCE


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"criterion": "entropy"},
        {"criterion": "cart"},
        {"ties": "column"},
        {"min_leaf": 4.0},
        {"chi2_alpha": 0.05},
        {"max_depth": 5, "criterion": "entropy"},
        {"max_leaves": 30},
        {"max_leaves": 300, "chi2_alpha": 0.2},
        {"max_leaves": 12, "ties": "column"},
    ],
)
def test_same_trees_with_fractional_cases(seed, options):
    """--missing fractional: a case with a missing value goes down both branches, so children
    hold more entries than their parent (cart/kernels/fraction.py)."""
    reference, compiled = both(generated(2000, seed), missing="fractional", **options)
    assert same(reference, compiled)


def test_fractional_cases_that_outgrow_the_first_room(monkeypatch):
    """Most cases lack a value, so the entries soon outnumber the room first given: the builder
    starts again with twice the room, and the tree is the same."""
    table = generated(800, 5)
    rng = np.random.default_rng(5)
    for i, column in enumerate(table.columns):
        gone = rng.random(len(column)) < 0.6
        column[gone] = -1 if table.attributes[i].is_nominal else np.nan
    from dtcli.induction.cart import engine as cart_engine
    from dtcli.induction.cart.kernels import grow as cart_grow

    monkeypatch.setattr(cart_engine, "first_room", lambda n, missing: n)
    runs = []
    grow = cart_grow.grow_cart
    monkeypatch.setattr(cart_grow, "grow_cart", lambda *args: runs.append(args[-2].rows) or grow(*args))
    reference, compiled = both(table, missing="fractional")
    assert same(reference, compiled)
    assert len(runs) > 2 and runs[:3] == [800, 1600, 3200]
    runs.clear()
    reference, compiled = both(table, missing="fractional", max_leaves=60)
    assert same(reference, compiled)
    assert len(runs) > 1


@pytest.mark.parametrize("name", ["breast-cancer", "labor", "vote", "soybean"])
def test_same_trees_with_fractional_cases_on_weka_files(name):
    reference, compiled = both(load(WEKA / "data" / f"{name}.arff"), missing="fractional")
    assert same(reference, compiled)


@pytest.mark.variants
def test_same_trees_with_a_nominal_attribute_of_more_than_127_values():
    """Codes wider than a byte take the builder's 32-bit path."""
    rng = np.random.default_rng(5)
    n = 1500
    wide = rng.integers(-1, 140, n).astype(np.int32)
    x = rng.normal(size=n)
    y = ((wide % 4 == 0) ^ (x > 0.3)).astype(np.int32)
    attributes = (Attribute("wide", NOMINAL, tuple(f"w{i}" for i in range(140))), Attribute("x", NUMERIC))
    target = Attribute("y", NOMINAL, ("a", "b"))
    table = Table(Schema(attributes, target), [wide, x], y)
    for criterion in ("gini", "entropy"):
        reference, compiled = both(table, criterion=criterion)
        assert same(reference, compiled)


@pytest.mark.parametrize("criterion", ["gini", "entropy"])
@pytest.mark.parametrize("weighting", ["unit", "whole", "fractional"])
def test_same_trees_when_scores_tie_exactly(criterion, weighting):
    n = 1200
    weights = {"unit": None, "whole": np.full(n, 2.0), "fractional": np.full(n, 0.5)}[weighting]
    for seed in range(2):
        reference, compiled = both(tied(n, seed, weights), criterion=criterion)
        assert same(reference, compiled)


def test_growth_leaves_the_table_as_it_was():
    """The builder holds the nominal codes in bytes while it runs (the table lends its columns): after
    it, every column holds the values, and the dtype, it had before."""
    from dtcli.induction.cart.engine import grow_cart
    from dtcli.induction.params import GrowParams

    table = generated(1500, 3)
    before = [column.copy() for column in table.columns]
    grow_cart(table, GrowParams(algorithm="cart", criterion="gini", missing="majority"))
    for column, old in zip(table.columns, before):
        assert column.dtype == old.dtype
        np.testing.assert_array_equal(column, old)
