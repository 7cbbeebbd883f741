"""Extreme numbers through every algorithm: inf, -inf, values near +-1.8e308, subnormals, single-precision ties.

Generated numeric columns mix ordinary values with those, and missing cells. Each algorithm
(ID3 with thresholds, C4.5, CART with either tie order, CART regression) must either train or
refuse with dtree's own error; never another exception, a numpy warning or a hang. What it
trains must be a model JSON can hold (finite numbers only), read back to the same text, and
predict the training rows as before the round trip; every numeric split must send known rows
both ways (a split that does not would grow forever).
"""

from __future__ import annotations

import json
import math
import signal
import warnings
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from trees import fit, same

from dtcli.errors import DtreeError
from dtcli.induction.predict.apply import predict_proba
from dtcli.model.format.model import dumps_model, loads_model
from dtcli.model.table import NOMINAL, NUMERIC, Attribute, Schema, Table
from dtcli.model.tree import NumericTest

SPECIAL = [
    math.inf,
    -math.inf,
    1.7e308,
    -1.7e308,
    1.75e308,
    1e308,
    -1e308,
    1.7976931348623157e308,
    -1.7976931348623157e308,
    3.4028234663852886e38,
    -3.4028234663852886e38,
    3.5e38,
    5e-324,
    -5e-324,
    1e-310,
    0.0,
    -0.0,
    1.0000001192092896,  # single-precision neighbours whose midpoint rounds up
    1.0000001788139343,
    16777218.0,
    16777219.0,
    math.nan,
]
value = st.one_of(st.sampled_from(SPECIAL), st.integers(-4, 4).map(float), st.floats(-1e3, 1e3))

CONFIGURATIONS = {
    "id3-midpoint": ("id3", {"thresholds": "midpoint", "missing": "majority"}),
    "id3-data": ("id3", {"thresholds": "data", "missing": "fractional", "min_leaf": 1.0}),
    "c45": ("c45", {}),
    "c45-m1-midpoint": ("c45", {"min_leaf": 1.0, "thresholds": "midpoint"}),
    "cart": ("cart", {}),
    "cart-column": ("cart", {"ties": "column", "missing": "fractional"}),
    "cart-bins": ("cart", {"max_bins": 3}),
}


@st.composite
def extreme_tables(draw, regression: bool = False):
    n_rows = draw(st.integers(2, 14))
    n_numeric = draw(st.integers(1, 3))
    columns = [np.array(draw(st.lists(value, min_size=n_rows, max_size=n_rows))) for _ in range(n_numeric)]
    attributes = [Attribute(f"x{j}", NUMERIC) for j in range(n_numeric)]
    if draw(st.booleans()):
        columns.append(np.array(draw(st.lists(st.integers(-1, 2), min_size=n_rows, max_size=n_rows)), dtype=np.int32))
        attributes.append(Attribute("colour", NOMINAL, ("red", "green", "blue")))
    if regression:
        y = np.array(draw(st.lists(st.floats(-1e3, 1e3), min_size=n_rows, max_size=n_rows)))
        target = Attribute("y", NUMERIC)
    else:
        y = np.array(draw(st.lists(st.integers(0, 2), min_size=n_rows, max_size=n_rows)), dtype=np.int32)
        target = Attribute("y", NOMINAL, ("a", "b", "c"))
    return Table(Schema(tuple(attributes), target), columns, y, source="extreme.csv")


@contextmanager
def no_hang(seconds: int = 10):
    """Raise TimeoutError if the block runs longer than ``seconds`` (a hang fails the test)."""

    def alarm(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def strict_json(text: str):
    """The model text parsed as strict JSON: NaN and Infinity are not JSON."""

    def refuse(token):
        raise AssertionError(f"the model holds {token}, which JSON has not")

    return json.loads(text, parse_constant=refuse)


def check_round_trip(table: Table, algorithm: str, engine: str = "reference", **options) -> None:
    with no_hang(), warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # a numpy warning would reach the user's terminal
        try:
            tree, _ = fit(table, algorithm, engine=engine, **options)
        except DtreeError as exc:
            event(f"refused: {type(exc).__name__}")
            return
        event(f"trained: {tree.root.n_leaves()} leaves" if tree.root.n_leaves() < 3 else "trained: 3+ leaves")
        text = dumps_model(tree)
        strict_json(text)
        again = loads_model(text, "m.json")
        assert dumps_model(again) == text
        before, after = predict_proba(tree, table), predict_proba(again, table)
    assert np.array_equal(before, after, equal_nan=True)
    assert np.isfinite(before).all()
    for node in tree.root.walk():
        if isinstance(node.test, NumericTest):
            assert math.isfinite(node.test.threshold)
            weights = [child.weight for child in node.children]
            assert all(w > 0 for w in weights), f"a split that sends every row one way: {node.test}"


@pytest.mark.parametrize("name", sorted(CONFIGURATIONS))
@settings(max_examples=40, deadline=None)
@given(table=extreme_tables())
def test_extreme_numbers_train_round_trip_and_predict(name, table):
    algorithm, options = CONFIGURATIONS[name]
    check_round_trip(table, algorithm, **options)


@settings(max_examples=40, deadline=None)
@given(table=extreme_tables(regression=True), ties=st.sampled_from(["sklearn", "column"]))
def test_extreme_numbers_in_regression_trees(table, ties):
    check_round_trip(table, "cart", ties=ties)


@pytest.mark.parametrize("name", ["c45", "cart", "cart-column", "id3-midpoint"])
@settings(max_examples=8, deadline=None)
@given(table=extreme_tables())
def test_extreme_numbers_compiled_engine_agrees(name, table):
    algorithm, options = CONFIGURATIONS[name]
    with no_hang(120), warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        try:
            reference, _ = fit(table, algorithm, engine="reference", **options)
        except DtreeError:
            return
        compiled, _ = fit(table, algorithm, engine="compiled", **options)
    assert same(json.loads(dumps_model(compiled)), json.loads(dumps_model(reference)))  # scores to 1e-12
    check_round_trip(table, algorithm, engine="compiled", **options)


@pytest.mark.parametrize(
    "column, threshold",
    [
        ([5.0, math.inf], 5.0),
        ([-math.inf, 5.0], -1.7976931348623157e308),
        ([-math.inf, math.inf], -1.7976931348623157e308),
        ([1.7e308, 1.75e308], 1.725e308),
    ],
)
def test_thresholds_between_infinite_or_huge_neighbours(column, threshold):
    table = Table(
        Schema((Attribute("x", NUMERIC),), Attribute("y", NOMINAL, ("a", "b"))),
        [np.array(column)],
        np.array([0, 1], dtype=np.int32),
    )
    for algorithm, options in [("id3", {"thresholds": "midpoint"}), ("cart", {"ties": "column"})]:
        tree, _ = fit(table, algorithm, min_leaf=1.0, **options)
        assert tree.root.test.threshold == threshold
    tree, _ = fit(table, "c45", min_leaf=1.0, prune="none")  # C4.5's data value: the lower one
    assert tree.root.test.threshold == max(column[0], -1.7976931348623157e308)
