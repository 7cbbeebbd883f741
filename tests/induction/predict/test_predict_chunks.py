"""Predicting in chunks of rows (for the progress bar) gives exactly what predicting all rows at once gives."""

from __future__ import annotations

import numpy as np
import pytest
from trees import fit, generated

from dtcli.induction.predict.apply import predict_proba
from dtcli.induction.rules import extract, predict_rules
from helpers import WEKA, load


@pytest.mark.parametrize("algorithm", ["c45", "cart"])
@pytest.mark.parametrize("chunk", [1, 7, 1000, 5000])
def test_tree_chunks_give_the_same_numbers(algorithm, chunk):
    table = generated(3000, 5)  # missing values in three columns: rows that go down several branches
    tree, _ = fit(table, algorithm, engine="reference")
    whole = predict_proba(tree, table)
    sizes = []
    chunked = predict_proba(tree, table, done=sizes.append, chunk=chunk)
    assert np.array_equal(whole, chunked)  # bit for bit, not approximately
    assert sum(sizes) == 3000 and all(n == min(chunk, 3000) for n in sizes[:-1])


def test_rule_chunks_give_the_same_labels_and_numbers():
    table = load(WEKA / "data" / "iris.arff")
    rules = extract(fit(table, "c45")[0])
    labels, proba = predict_rules(rules, table)
    sizes = []
    chunked_labels, chunked_proba = predict_rules(rules, table, done=sizes.append, chunk=40)
    assert np.array_equal(labels, chunked_labels) and np.array_equal(proba, chunked_proba)
    assert sizes == [40, 40, 40, 30]


def test_no_rows_no_chunks(weather):
    tree, _ = fit(weather)
    sizes = []
    empty = weather.take(np.zeros(weather.n_rows, dtype=bool))
    assert predict_proba(tree, empty, done=sizes.append).shape == (0, 2) and sizes == []
    assert predict_rules(extract(tree), empty, done=sizes.append)[0].shape == (0,) and sizes == []
