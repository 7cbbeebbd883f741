"""CART's tests decide as scikit-learn's: a value goes left when, rounded to single precision, it is at
most the threshold. A value written as the printed threshold (``worst texture <= 19.91``, stored as
single(19.91) = 19.90999984741211) goes left in predict, --explain, the rules and their exports, as in
scikit-learn, whose input is single precision.

References: numpy's rounding to single precision (``x.astype(float32)``) and scikit-learn's trees.
"""

from __future__ import annotations

import csv
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_export_agreement import check, predicted

from dtcli.induction.predict.apply import single_boundaries
from dtcli.model.number_text import format_threshold, single_boundary

sklearn = pytest.importorskip("sklearn")
datasets = pytest.importorskip("sklearn.datasets")
tree_module = pytest.importorskip("sklearn.tree")


def as_single(x: float) -> float:
    return float(np.float32(x))


@settings(max_examples=3000, deadline=None)
@given(st.floats(min_value=-1e30, max_value=1e30, allow_nan=False), st.floats(allow_nan=False, allow_infinity=False))
def test_the_boundary_decides_as_single_precision_does(t, far):
    c = single_boundary(t)
    assert single_boundaries(np.array([t]))[0] == c
    below = np.nextafter(np.float32(t), np.float32(-np.inf))
    near = [c, math.nextafter(c, math.inf), math.nextafter(c, -math.inf), t, as_single(t), float(below)]
    for x in [*near, far]:
        if abs(x) < 3.4e38:
            assert (x <= c) == (as_single(x) <= t), (t, c, x)


def numeric_tests(model: dict) -> list[tuple[str, float]]:
    """(attribute, threshold) of each numeric test of a model file."""
    tests, stack = [], [model["root"]]
    while stack:
        node = stack.pop()
        test = node.get("test")
        if test and "threshold" in test:
            tests.append((test["attribute"], test["threshold"]))
        stack.extend(branch["node"] for branch in node.get("branches", []))
    assert tests, "no numeric test found"
    return tests


def thresholds(model: dict) -> list[float]:
    return [t for _, t in numeric_tests(model)]


def edge_rows(model: dict, frame, columns: list[str], seed: int):
    """The rows with, in turn, each tested attribute set to its printed threshold (as text) and to the
    values just around it: the cells a reader copies from the printed tree."""
    rng = np.random.default_rng(seed)
    rows = []
    tests = numeric_tests(model)
    picked_tests = [tests[i] for i in sorted(rng.choice(len(tests), min(len(tests), 40), replace=False))]
    for name, threshold in picked_tests:  # (a regression tree has hundreds: 40 of them, drawn)
        printed = format_threshold(threshold)
        for text in (printed, repr(as_single(threshold)), repr(float(np.nextafter(np.float32(threshold), 1e9)))):
            picked = frame.iloc[rng.choice(len(frame), 4, replace=False)].copy()
            picked[name] = float(text)
            rows.append(picked)
    import pandas as pd

    return pd.concat(rows, ignore_index=True)[columns]


@pytest.mark.parametrize("name", ["breast_cancer", "wine", "diabetes"])
def test_values_at_printed_thresholds_go_as_in_scikit_learn(run, tmp_path, name):
    loaded = getattr(datasets, f"load_{name}")(as_frame=True)
    frame = loaded.frame
    regression = name == "diabetes"
    if not regression:
        frame["target"] = [f"c{v}" for v in frame["target"]]
    data = tmp_path / "data.csv"
    frame.to_csv(data, index=False)
    model = tmp_path / "model.json"
    assert run("train", data, "-a", "cart", "-q", "-o", model).exit_code == 0
    doc = json.loads(model.read_text())
    features = [c for c in frame.columns if c != "target"]
    edge = edge_rows(doc, frame, features + ["target"], seed=len(name))
    edges = tmp_path / "edge.csv"
    edge.to_csv(edges, index=False)
    kind = tree_module.DecisionTreeRegressor if regression else tree_module.DecisionTreeClassifier
    reference = kind(random_state=0).fit(frame[features], frame["target"])
    expected = reference.predict(edge[features])
    got = predicted(run, model, edges)
    if regression:
        assert np.allclose(np.asarray(got, dtype=float), expected, rtol=1e-12, atol=0)
    else:
        assert got == expected.tolist()
    explained = run("predict", model, edges, "--explain", "-q").stdout
    stored: dict[str, list[float]] = {}  # printed text -> the thresholds printed so (a few may share one)
    for t in thresholds(doc):
        stored.setdefault(format_threshold(t), []).append(t)
    for line in csv.DictReader(explained.splitlines()):
        for step in line["path"].split(" -> ")[:-1]:
            value, test, bound = step.split(" = ")[1].split(" ")[:3]  # each step as scikit-learn decides it
            assert any((as_single(float(value)) <= t) == (test == "<=") for t in stored[bound]), step
    rows = list(csv.DictReader(edges.read_text().splitlines()))
    assert check(run, tmp_path, edges, rows, ("-a", "cart")) is None  # rules, Python and SQL agree with predict
