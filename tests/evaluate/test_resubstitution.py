"""The training line's count read from a CART tree's leaves is the count of its own predictions."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from trees import fit, generated

from dtcli.evaluate.resubstitution import leaf_correct
from dtcli.induction.fit import cost_complexity
from dtcli.induction.params import CostComplexity
from dtcli.induction.predict.apply import predict
from dtcli.model.table import MISSING
from helpers import SAMPLES, load

GROWTH = [
    {},
    {"criterion": "entropy"},
    {"max_depth": 3},
    {"min_leaf": 7},
    {"min_split": 40, "criterion": "cart"},
    {"prune": "none"},
]


def predicted_correct(tree, table) -> int:
    """The rows predicted correctly, each row walked down the tree (the training line's other way)."""
    known = table.labelled()
    return int((predict(tree, table)[known] == table.y[known]).sum())


def unlabelled(table, seed: int):
    """``table`` with about a tenth of its classes unknown (never all of them)."""
    y = table.y.copy()
    lost = np.random.default_rng(seed).random(len(y)) < 0.1
    lost[0] = False
    y[lost] = MISSING
    return replace(table, y=y)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31), n=st.integers(2, 300), growth=st.sampled_from(GROWTH), lose=st.booleans())
def test_leaves_count_what_prediction_counts(seed, n, growth, lose):
    # missing nominal codes and numbers (each goes down the heavier branch), values shared by several
    # classes (impure leaves), and rows without a class
    table = generated(n, seed)
    if lose:
        table = unlabelled(table, seed)
    assume(len(np.unique(table.y[table.labelled()])) > 1)  # (a tree needs two classes)
    tree, _ = fit(table, "cart", **growth)
    counted = leaf_correct(tree, table)
    assert counted is not None
    assert counted == predicted_correct(tree, table)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_compiled_builders_trees_too(seed):
    table = unlabelled(generated(6_000, seed), seed)
    tree, _ = fit(table, "cart", engine="compiled")
    assert leaf_correct(tree, table) == predicted_correct(tree, table)


@pytest.mark.parametrize("alpha", [0.0, 0.01, 0.05])
def test_trees_pruned_by_cost_complexity(alpha):
    table = load(SAMPLES / "iris.csv")
    grown, _ = fit(table, "cart", prune="none")
    pruned = cost_complexity(grown, table, CostComplexity(alpha=alpha))
    pruned = pruned[0] if isinstance(pruned, tuple) else pruned
    assert pruned.parameters["pruning"]["method"] == "cost-complexity"
    assert leaf_correct(pruned, table) == predicted_correct(pruned, table)


def test_no_count_where_rows_may_reach_other_leaves():
    table = generated(300, 5)
    assert leaf_correct(fit(table, "c45")[0], table) is None  # fractional cases
    assert leaf_correct(fit(table, "cart", missing="fractional")[0], table) is None
    assert leaf_correct(fit(table, "cart", prune="pessimistic")[0], table) is None  # (raising counts again)
    assert leaf_correct(fit(table, "cart", prune="reduced-error")[0], table) is None
    weighted = replace(table, weights=np.where(np.arange(table.n_rows) % 2 == 0, 1.0, 2.0))
    assert leaf_correct(fit(weighted, "cart")[0], weighted) is None
    grown_on_half = fit(replace(table, y=table.y.copy()), "cart")[0]
    half = table.take(np.arange(150))
    assert leaf_correct(grown_on_half, half) is None  # not the rows the tree was grown on
