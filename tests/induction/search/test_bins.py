"""--max-bins: growth on quantile bins, in the engine and in the per-node path."""

from __future__ import annotations

import json

import numpy as np
import pytest
from trees import fit, generated, same

from dtcli.induction.predict.apply import predict
from dtcli.induction.search.bins import bin_codes, bin_table
from dtcli.model.format.model import dumps_model
from dtcli.model.tree import NumericTest

pytest.importorskip("numba")


def complete(n: int, seed: int):
    """A generated table without missing values (so every weight sum is an exact integer)."""
    table = generated(n, seed)
    for i, column in enumerate(table.columns):
        if table.attributes[i].is_nominal:
            column[column < 0] = 0
        else:
            column[np.isnan(column)] = 50.0
    return table


def test_bins_hold_about_equal_rows_and_end_at_data_values():
    rng = np.random.default_rng(0)
    column = np.round(rng.normal(0, 1, 10_000), 3)
    column[::50] = np.nan
    codes, tops = bin_codes(column, np.ones(len(column), dtype=bool), 8)
    assert len(tops) == 8 and np.all(np.diff(tops) > 0)
    assert set(tops) <= set(column[~np.isnan(column)])
    sizes = np.bincount(codes[codes >= 0])
    assert sizes.min() > 0.8 * sizes.mean()
    known = codes >= 0
    assert np.all(column[known] <= tops[codes[known]])
    assert np.all(codes[~known] == -1)


def test_few_distinct_values_are_kept_exactly():
    column = np.array([3.0, 1.0, 2.0, np.nan, 1.0])
    codes, tops = bin_codes(column, np.ones(5, dtype=bool), 16)
    assert list(tops) == [1.0, 2.0, 3.0] and list(codes) == [2, 0, 1, -1, 0]


@pytest.mark.parametrize("bins", [4, 32])
@pytest.mark.parametrize("criterion", ["gain-ratio", "gini"])
def test_engine_and_reference_agree_on_binned_growth(bins, criterion):
    table = complete(3000, 5)
    reference, _ = fit(table, "c45", engine="reference", max_bins=bins, criterion=criterion)
    engine, _ = fit(table, "c45", engine="compiled", max_bins=bins, criterion=criterion)
    assert same(json.loads(dumps_model(reference)), json.loads(dumps_model(engine)))


@pytest.mark.parametrize("algorithm", ["c45", "cart"])
def test_thresholds_are_bin_maxima_and_route_raw_values_as_in_training(algorithm):
    table = generated(2000, 2)
    tree, _ = fit(table, algorithm, engine="reference", max_bins=6, prune="none")
    binned = bin_table(table, 6)
    tests = [node.test for node in tree.root.walk() if isinstance(node.test, NumericTest)]
    assert tests
    for test in tests:
        column = binned.columns[binned.schema.index(test.attribute.name)]
        assert test.threshold in set(column[~np.isnan(column)])
    assert np.array_equal(predict(tree, table), predict(tree, binned))
    assert tree.parameters["max_bins"] == 6


def test_binned_tree_is_close_to_the_exact_one():
    table = generated(4000, 3)
    exact, _ = fit(table, "c45")
    binned, _ = fit(table, "c45", max_bins=64)
    agree = np.mean(predict(exact, table) == predict(binned, table))
    assert agree > 0.9


def test_max_bins_must_be_two_or_more(run):
    result = run("train", "sample_data/weather-numeric.csv", "-a", "c45", "--max-bins", "1")
    assert result.exit_code == 1
    assert "--max-bins must be 2 or more" in result.stderr
