"""Thresholds computed in single precision (CART's, as scikit-learn places them) print as the shortest decimal
that splits single-precision values as they do: ``33.27``, not Weka's six decimals ``33.269999``.

References: numpy's single-precision arithmetic (a second implementation of the rounding), scikit-learn's own
tree on its breast_cancer data (whose thresholds, read as single precision, print ``33.27``).
"""

from __future__ import annotations

import json
import math
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dtcli.induction.criteria.midpoint_single import single_midpoint
from dtcli.model.number_text import format_threshold

singles = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, width=32).filter(lambda v: abs(v) > 1e-3)


def weka(value: float) -> str:
    """Weka's Utils.doubleToString(value, 6) in the range of these tests."""
    text = f"{Decimal(value).quantize(Decimal('0.000001'), rounding='ROUND_HALF_UP'):f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


@settings(max_examples=2000, deadline=None)
@given(singles, singles)
def test_the_printed_threshold_splits_single_values_as_the_stored_one(x, y):
    lower, upper = sorted((float(np.float32(x)), float(np.float32(y))))
    if lower == upper:
        return
    t = single_midpoint(lower, upper)
    printed = format_threshold(t)
    assert len(printed) <= len(weka(t))
    if printed == weka(t):
        return  # Weka's six decimals, shortest already (or rounding half up as J48 does)
    printed = Decimal(printed)
    for v in (lower, upper, t):
        for near in (np.float32(v), np.nextafter(np.float32(v), np.float32(-np.inf)), np.nextafter(np.float32(v), 1e9)):
            assert (float(near) <= t) == (Decimal(float(near)) <= printed), (lower, upper, t, str(printed))


@pytest.mark.parametrize(
    ("lower", "upper", "text"),
    [(33.17, 33.37, "33.27"), (33.51, 33.61, "33.56"), (810.2, 810.4, "810.3"), (-33.37, -33.17, "-33.27")],
)
def test_noise_free_forms(lower, upper, text):
    t = single_midpoint(float(np.float32(lower)), float(np.float32(upper)))
    assert format_threshold(t) == text


def test_weka_forms_stay():
    """Values not computed in single precision (C4.5's data values) print as J48 does."""
    assert format_threshold(33.269999) == "33.269999"
    assert format_threshold(0.1 + 0.2) == "0.3"
    assert format_threshold(1.0000005) == "1.000001"


def fewest_decimals(t: float) -> str:
    """The decimal with the fewest digits after the point in [a, b): a the largest single at or below t, b the next."""
    a = np.float32(t)
    if float(a) > t:
        a = np.nextafter(a, np.float32(-np.inf))
    low, high = Fraction(float(a)), Fraction(float(np.nextafter(a, np.float32(np.inf))))
    for places in range(20):
        candidate = Fraction(math.ceil(low * 10**places), 10**places)
        if candidate < high:
            return f"{float(candidate):.{places}f}"
    raise AssertionError(t)


def test_breast_cancer_tree_prints_shortest_thresholds_that_split_the_rows_alike(run, tmp_path):
    datasets = pytest.importorskip("sklearn.datasets")
    tree_module = pytest.importorskip("sklearn.tree")
    frame = datasets.load_breast_cancer(as_frame=True).frame
    frame["target"] = frame["target"].map({0: "malignant", 1: "benign"})
    frame.to_csv(tmp_path / "bc.csv", index=False)
    result = run("train", tmp_path / "bc.csv", "-a", "cart", "-f", "text", "-o", tmp_path / "bc.json")
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    assert "worst texture <= 33.27:" in text and "33.269999" not in text
    # scikit-learn's tree on the same data has the same thresholds; each prints as the decimal with the fewest
    # digits after the point that splits single-precision values as it does (found here with exact fractions),
    # when that is shorter than Weka's six decimals
    features = frame.drop(columns="target")
    reference = tree_module.DecisionTreeClassifier(random_state=0).fit(features, frame["target"]).tree_
    for node in range(reference.node_count):
        if reference.feature[node] >= 0:
            name = features.columns[reference.feature[node]]
            t = float(reference.threshold[node])
            shortest = fewest_decimals(t)
            assert f"{name} <= {shortest if len(shortest) < len(weka(t)) else weka(t)}" in text
    # every printed threshold splits the training rows, read in single precision, as the stored one
    model = json.loads((tmp_path / "bc.json").read_text())
    stack = [model["root"]]
    while stack:
        node = stack.pop()
        if node["kind"] != "split":
            continue
        test = node["test"]
        printed = Decimal(format_threshold(test["threshold"]))
        column = frame[test["attribute"]].to_numpy().astype(np.float32).astype(np.float64)
        assert ((column <= test["threshold"]) == np.array([Decimal(v) <= printed for v in column])).all()
        stack.extend(branch["node"] for branch in node["branches"])
