"""C4.5: numeric thresholds, gain ratio, missing values, costs and stopping rules,
against the seeds' worked examples and brute-force references written here."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from trees import fit

from dtcli.errors import ParameterError
from dtcli.explain.report import gain_report
from dtcli.induction.criteria.costs import AttributeCosts
from dtcli.induction.search.c45 import Thresholds, c45_choose
from dtcli.induction.search.numeric import boundary_cut, c45_cut, cut_table
from dtcli.model.table import NOMINAL, NUMERIC, Attribute, Schema, Table
from helpers import SAMPLES, load


def test_mitchell_temperature_candidate_thresholds():
    table = load(SAMPLES / "temperature.csv")
    report = gain_report(table, all_cuts=True)
    cuts = report.attributes[0].cuts
    assert [c.threshold for c in cuts if c.boundary] == [54.0, 85.0]
    assert report.attributes[0].threshold == 54.0  # Temperature > 54 is the best (Mitchell)


def test_zaki_risk_numbers():
    # Corrected values: H(D) = 0.918; Car in {Sports} 0.459; Age <= 22.5 0.252; Age <= 35 0.109
    table = load(SAMPLES / "risk.csv", ignore=("Point",))
    report = gain_report(table, all_cuts=True)
    assert round(report.entropy, 3) == 0.918
    age = next(a for a in report.attributes if a.name == "Age")
    assert {c.threshold: round(c.gain, 3) for c in age.cuts} == {22.5: 0.252, 35.0: 0.109}
    sports = np.array([[2, 1], [0, 3]])  # Car in {Sports} against the rest
    from dtcli.induction.criteria.impurity import information_gain

    assert round(information_gain(sports), 3) == 0.459


def test_gain_ratio_with_missing_values_counts_them_as_a_branch():
    table = make_table({"A": (NOMINAL, ["a", "a", "b", "b", None, None])}, ["x", "x", "y", "y", "x", "y"])
    report = gain_report(table)
    a = report.attributes[0]
    assert a.missing == 2
    assert a.gain == pytest.approx(4 / 6 * 1.0)  # perfect on the known 4, scaled by 4/6
    assert a.split_info == pytest.approx(math.log2(3))  # three branches of 2
    assert a.gain_ratio == pytest.approx((4 / 6) / math.log2(3))


def make_table(columns: dict, target: list[str]) -> Table:
    attributes, data = [], []
    for name, (kind, cells) in columns.items():
        if kind == NOMINAL:
            values = tuple(dict.fromkeys(c for c in cells if c is not None))
            attributes.append(Attribute(name, NOMINAL, values))
            data.append(np.array([values.index(c) if c is not None else -1 for c in cells], dtype=np.int32))
        else:
            attributes.append(Attribute(name, NUMERIC))
            data.append(np.array([np.nan if c is None else c for c in cells], dtype=float))
    classes = tuple(dict.fromkeys(target))
    schema = Schema(tuple(attributes), Attribute("class", NOMINAL, classes))
    return Table(schema, data, np.array([classes.index(c) for c in target], dtype=np.int32))


# ---------------------------------------------------------------------------
# Brute force: every cut evaluated one at a time, in plain Python.


def brute_gain(left, right, total):
    def h(counts):
        n = sum(counts)
        return -sum(c / n * math.log2(c / n) for c in counts if c > 0) if n > 0 else 0.0

    known = sum(left) + sum(right)
    parent = [a + b for a, b in zip(left, right)]
    after = (sum(left) * h(left) + sum(right) * h(right)) / known
    return known / total * (h(parent) - after)


def brute_cuts(values, y, w, k):
    pairs = sorted((v, c, wt) for v, c, wt in zip(values, y, w) if not math.isnan(v))
    distinct = sorted({v for v, _, _ in pairs})
    out = []
    for lo, hi in zip(distinct, distinct[1:]):
        if hi - lo <= 1e-5:
            continue
        left, right = [0.0] * k, [0.0] * k
        rows_left = 0
        for v, c, wt in pairs:
            if v <= lo:
                left[c] += wt
                rows_left += 1
            else:
                right[c] += wt
        out.append((lo, hi, left, right))
    return out


numeric_cases = st.integers(2, 3).flatmap(
    lambda k: st.tuples(
        st.just(k),
        st.lists(
            st.tuples(
                st.one_of(st.none(), st.integers(0, 12)), st.integers(0, k - 1), st.sampled_from([1.0, 1.0, 0.5, 2.0])
            ),
            min_size=2,
            max_size=40,
        ),
    )
)


@settings(max_examples=200, deadline=None)
@given(numeric_cases)
def test_c45_cut_matches_brute_force(case):
    k, rows = case
    values = np.array([np.nan if v is None else float(v) for v, _, _ in rows])
    y = np.array([c for _, c, _ in rows])
    w = np.array([wt for _, _, wt in rows])
    total = w.sum()
    cuts = brute_cuts(values, y, w, k)
    known = w[~np.isnan(values)].sum()
    min_split = min(25.0, max(2.0, 0.1 * known / k))
    ok = [c for c in cuts if sum(c[2]) >= min_split - 1e-6 and sum(c[3]) >= min_split - 1e-6]
    result = c45_cut(cut_table(values, y, w, k), k, 2.0)
    if (~np.isnan(values)).sum() < 2 * min_split or not ok:
        assert result is None
        return
    gains = [brute_gain(c[2], c[3], total) for c in ok]
    best = max(gains)
    assume(sorted(gains)[-2] < best - 1e-6 if len(gains) > 1 else True)  # a clear winner
    winner = ok[gains.index(best)]
    penalised = best - math.log2(len(ok)) / total
    if penalised <= 1e-6:
        assert result is None
        return
    assert result is not None
    assert (result.lower, result.upper) == (winner[0], winner[1])
    assert result.gain == pytest.approx(penalised, abs=1e-9)
    assert result.n_candidates == len(ok)


complete_cases = st.integers(2, 3).flatmap(
    lambda k: st.tuples(
        st.just(k),
        st.lists(st.tuples(st.integers(0, 12), st.integers(0, k - 1), st.just(1.0)), min_size=2, max_size=40),
    )
)


@settings(max_examples=200, deadline=None)
@given(complete_cases)
def test_boundary_cut_is_the_best_cut_overall(case):
    # Fayyad & Irani: the best information-gain cut lies on a class boundary
    k, rows = case
    values = np.array([float(v) for v, _, _ in rows])
    y = np.array([c for _, c, _ in rows])
    w = np.ones(len(rows))
    cuts = brute_cuts(values, y, w, k)
    result = boundary_cut(cut_table(values, y, w, k))
    if not cuts:
        assert result is None
        return
    best = max(brute_gain(c[2], c[3], w.sum()) for c in cuts)
    if best <= 1e-6:
        return
    assert result is not None and result.gain == pytest.approx(best, abs=1e-9)


mixed_tables = st.integers(6, 40).flatmap(
    lambda n: st.tuples(
        st.lists(st.one_of(st.none(), st.sampled_from("abc")), min_size=n, max_size=n),
        st.lists(st.one_of(st.none(), st.integers(0, 9)), min_size=n, max_size=n),
        st.lists(st.sampled_from("xy"), min_size=n, max_size=n),
    )
)


def brute_c45_root(nominal, numeric, target):
    """J48's choice at the root, by brute force: (attribute, lower value of the cut)."""
    classes = sorted(set(target), key=target.index)
    k = len(classes)
    y = [classes.index(t) for t in target]
    total = float(len(target))
    found = []
    known = [(v, c) for v, c in zip(nominal, y) if v is not None]
    values = sorted({v for v, _ in known}, key=[v for v, _ in known].index)
    bags = [[sum(1 for v2, c in known if v2 == v and c == j) for j in range(k)] for v in values]
    if sum(1 for b in bags if sum(b) >= 2) >= 2:
        gain = _brute_multi_gain(bags, total)
        found.append(("A", None, gain, _ratio(bags, total, gain)))
    vals = np.array([np.nan if v is None else float(v) for v in numeric])
    cut = c45_cut(cut_table(vals, np.array(y), np.ones(len(y)), k), k, 2.0)
    if cut is not None:
        found.append(("B", cut.lower, cut.gain, _ratio(cut.branch_counts.tolist(), total, cut.gain)))
    if not found or len(target) < 4 or len(set(target)) < 2:
        return None
    # J48 leaves a nominal attribute with >= 0.3 N values out of the average (B is numeric)
    counted = [f for f in found if f[0] == "B" or len(values) < 0.3 * len(target)]
    if not counted:
        return None
    average = sum(f[2] for f in counted) / len(counted)
    best, best_ratio = None, 0.0
    for f in found:
        if f[2] >= average - 1e-3 and f[3] - best_ratio > 1e-6:
            best, best_ratio = f, f[3]
    return None if best is None else (best[0], best[1])


def _brute_multi_gain(bags, total):
    def h(counts):
        n = sum(counts)
        return -sum(c / n * math.log2(c / n) for c in counts if c > 0) if n > 0 else 0.0

    known = sum(map(sum, bags))
    parent = [sum(col) for col in zip(*bags)]
    after = sum(sum(b) * h(b) for b in bags) / known
    return known / total * (h(parent) - after)


def _ratio(bags, total, gain):
    sizes = [sum(b) for b in bags] + [total - sum(map(sum, bags))]
    split = -sum(s / total * math.log2(s / total) for s in sizes if s > 0)
    return gain / split if split > 1e-9 else 0.0


@settings(max_examples=150, deadline=None)
@given(mixed_tables)
def test_c45_root_choice_matches_brute_force(case):
    nominal, numeric, target = case
    table = make_table({"A": (NOMINAL, nominal), "B": (NUMERIC, numeric)}, target)
    assume(table.attributes[0].values)  # at least one known nominal value
    expected = brute_c45_root(nominal, numeric, target)
    choice = c45_choose(table, 2.0, "gain-ratio", Thresholds(table, "midpoint"), table.n_rows)
    if expected is None or choice is None:
        assert expected is None and choice is None
        return
    name, lower = expected
    assert choice.test.attribute.name == name
    if lower is not None:
        assert choice.test.threshold >= lower


# ---------------------------------------------------------------------------
# Missing-value policies, costs, stopping rules


def test_fractional_cases_keep_their_weight():
    table = make_table(
        {"A": (NOMINAL, ["a", "a", "a", "b", "b", "b", None]), "B": (NOMINAL, ["p", "q", "p", "q", "p", "q", "p"])},
        ["x", "x", "x", "y", "y", "y", "x"],
    )
    tree, _ = fit(table, "c45", min_leaf=1, prune="none")
    assert tree.root.test.attribute.name == "A"
    assert [round(c.weight, 6) for c in tree.root.children] == [3.5, 3.5]
    assert tree.root.weight == 7


def test_majority_policies_fill_in_values():
    cells = ["a", "a", "b", "b", None, None]
    target = ["x", "x", "y", "y", "y", "y"]
    majority, _ = fit(make_table({"A": (NOMINAL, cells)}, target), "id3", missing="majority")
    assert [c.weight for c in majority.root.children] == [4, 2]  # both missing become "a"
    by_class, _ = fit(make_table({"A": (NOMINAL, cells)}, target), "id3", missing="class-majority")
    assert [c.weight for c in by_class.root.children] == [2, 4]  # class y's most common value is "b"


def test_cost_measures():
    costs = AttributeCosts({"A": 2.0}, "ratio")
    assert costs.score(0.5, 2.0) == 0.25
    assert AttributeCosts({}, "tan-schlimmer").score(0.5, 2.0) == 0.125
    assert AttributeCosts({}, "nunez", 0.5).score(1.0, 3.0) == pytest.approx(1 / 2)
    assert costs.cost("unlisted") == 1.0
    with pytest.raises(ParameterError):
        AttributeCosts({"A": 0.0}, "ratio")
    with pytest.raises(ParameterError):
        AttributeCosts({}, "nunez", 2.0)


def test_costs_change_the_choice(weather):
    expensive = AttributeCosts({"Outlook": 4.0}, "ratio")
    tree, _ = fit(weather, costs=expensive)
    assert tree.root.test.attribute.name == "Humidity"  # 0.152 / 1 beats 0.247 / 4


def test_min_leaf_and_max_leaves(weather):
    assert fit(weather, min_leaf=8)[0].root.is_leaf  # no attribute has two branches of 8 cases
    tree, _ = fit(weather, max_leaves=3)
    assert tree.root.n_leaves() <= 3
    assert fit(weather, max_leaves=5)[0].root.n_leaves() == 5


def test_thresholds_data_mode_uses_a_training_value():
    table = load(SAMPLES / "temperature.csv")
    tree, _ = fit(table, "id3", thresholds="data")
    assert tree.root.test.threshold == 48.0  # the largest value not above the cut at 54
    tree, _ = fit(table, "id3", thresholds="midpoint")
    assert tree.root.test.threshold == 54.0


def test_data_threshold_never_below_the_cut_lower_value():
    # J48 scans the column in file order and keeps a value only if it beats the one held by more
    # than 1e-6: 0.0 comes first, so 5e-7 is never taken, and J48's threshold for the cut between
    # 5e-7 and 1 is 0.0. A model routes x <= t exactly: 5e-7 would go right, away from the side it
    # was scored on (a node holding only 5e-7 and 1 then grew forever); the threshold is 5e-7.
    table = Table(
        Schema((Attribute("x", NUMERIC),), Attribute("y", NOMINAL, ("a", "b"))),
        [np.array([0.0, 5e-7, 1.0])],
        np.array([0, 0, 1], dtype=np.int32),
    )
    thresholds = Thresholds(table, "data")
    assert thresholds.place(0, 0.5) == 0.0  # J48's value
    assert thresholds.place(0, 0.5, lower=5e-7) == 5e-7
    # colour splits first (it ties with x and comes first); the green node holds 5e-7 and 1 only
    table = Table(
        Schema((Attribute("colour", NOMINAL, ("red", "green")), Attribute("x", NUMERIC)), table.schema.target),
        [np.array([0, 1, 1, 0], dtype=np.int32), np.array([0.0, 5e-7, 1.0, 2.0])],
        np.array([0, 0, 1, 0], dtype=np.int32),
    )
    tree, _ = fit(table, "id3", thresholds="data")
    green = tree.root.children[1]
    assert green.test.threshold == 5e-7 and [child.label for child in green.children] == [0, 1]
