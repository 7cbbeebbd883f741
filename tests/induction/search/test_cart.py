"""CART: binary splits, subset splits, criteria, and agreement with scikit-learn."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from trees import fit

from dtcli.induction.predict.apply import predict
from dtcli.induction.search.cart import SUBSET_LIMIT, cart_choose, decrease
from dtcli.model.table import NOMINAL, NUMERIC, Attribute, Schema, Table
from dtcli.model.tree import SubsetTest
from helpers import FIXTURES, SAMPLES, WEKA, load

SKLEARN = json.loads((FIXTURES / "sklearn" / "cart.json").read_text())


def test_zaki_risk_tree_with_entropy():
    table = load(SAMPLES / "risk.csv", ignore=("Point",))
    tree, _ = fit(table, "cart", criterion="entropy")
    root = tree.root
    assert isinstance(root.test, SubsetTest) and root.test.values == ("Sports",)
    assert root.score == pytest.approx(0.459, abs=5e-4)  # the seed prints 0.721, a slip
    left = root.children[0]
    assert left.test.attribute.name == "Age" and left.test.threshold == 22.5
    assert root.children[1].is_leaf and tree.classes[root.children[1].label] == "H"
    assert root.test.branch_labels() == ["Car in {Sports}", "Car not in {Sports}"]


def test_cart_measure_is_zakis_equation():
    left, right = np.array([[2.0, 1.0]]), np.array([[0.0, 3.0]])
    # 2 * 3/6 * 3/6 * (|2/3 - 0| + |1/3 - 1|) = 0.5 * 4/3
    assert decrease(left, right, "cart")[0] == pytest.approx(2 / 3)


def make_table(cells: list[str], target: list[str]) -> Table:
    values = tuple(dict.fromkeys(cells))
    classes = tuple(dict.fromkeys(target))
    schema = Schema((Attribute("A", NOMINAL, values),), Attribute("y", NOMINAL, classes))
    return Table(
        schema,
        [np.array([values.index(c) for c in cells], dtype=np.int32)],
        np.array([classes.index(t) for t in target], dtype=np.int32),
    )


def brute_best_subset(cells, target, criterion):
    values = list(dict.fromkeys(cells))
    classes = list(dict.fromkeys(target))
    best = -np.inf
    for r in range(1, len(values)):
        for subset in itertools.combinations(values, r):
            left = np.array([[sum(1 for c, t in zip(cells, target) if c in subset and t == k) for k in classes]], float)
            right = np.array(
                [[sum(1 for c, t in zip(cells, target) if c not in subset and t == k) for k in classes]], float
            )
            best = max(best, float(decrease(left, right, criterion)[0]))
    return best


subset_cases = st.tuples(
    st.lists(st.tuples(st.sampled_from("abcdefghijklmn"[:12]), st.sampled_from("xyz")), min_size=4, max_size=60),
    st.sampled_from(["gini", "entropy", "cart"]),
)


@settings(max_examples=150, deadline=None)
@given(subset_cases)
def test_subset_split_is_the_brute_force_best(case):
    rows, criterion = case
    cells, target = [r[0] for r in rows], [r[1] for r in rows]
    if len(set(cells)) < 2 or len(set(target)) < 2:
        return
    table = make_table(cells, target)
    choice = cart_choose(table, criterion, 1.0)
    best = brute_best_subset(cells, target, criterion)
    if len(set(cells)) <= SUBSET_LIMIT or len(set(target)) == 2 and criterion != "cart":
        assert choice.score == pytest.approx(best, abs=1e-12)  # exact search
    else:
        assert choice.score <= best + 1e-12  # greedy: never better than the optimum


def test_two_class_ordering_is_optimal_beyond_the_limit():
    cells = list("abcdefghijklm") * 3
    target = ["x" if (i * 7) % 5 < 2 else "y" for i in range(len(cells))]
    table = make_table(cells, target)
    assert len(set(cells)) > SUBSET_LIMIT
    for criterion in ("gini", "entropy"):
        assert cart_choose(table, criterion, 1.0).score == pytest.approx(brute_best_subset(cells, target, criterion))


CLASSIFIERS = [r for r in SKLEARN if r["estimator"] == "DecisionTreeClassifier"]


@pytest.mark.parametrize("record", CLASSIFIERS, ids=[f"{r['dataset']}-{r['params']['criterion']}" for r in CLASSIFIERS])
def test_agrees_with_scikit_learn(record):
    table = load(WEKA / "data" / f"{record['dataset']}.arff")
    tree, _ = fit(table, "cart", criterion=record["params"]["criterion"], min_leaf=1)
    predictions = [tree.classes[i] for i in predict(tree, table)]
    assert predictions == record["predictions"]
    assert tree.root.n_leaves() == record["n_leaves"]
    assert tree.root.depth() == record["depth"]


def test_column_order_ties_on_request():
    table = load(WEKA / "data" / "diabetes.arff")
    column, _ = fit(table, "cart", ties="column")
    sklearn, _ = fit(table, "cart")
    assert column.parameters["ties"] == "column" and sklearn.parameters["ties"] == "sklearn"
    assert column.root.n_leaves() == 128 and sklearn.root.n_leaves() == 130  # ties broken differently


REGRESSORS = [r for r in SKLEARN if r["estimator"] == "DecisionTreeRegressor"]


@pytest.mark.parametrize("record", REGRESSORS, ids=[f"cpu-leaf{r['params']['min_samples_leaf']}" for r in REGRESSORS])
def test_regression_agrees_with_scikit_learn(record):
    from dtcli.induction.predict.apply import predict_values

    table = load(WEKA / "data" / "cpu.arff", task="auto")
    assert table.is_regression
    tree, _ = fit(table, "cart", min_leaf=record["params"]["min_samples_leaf"])
    assert tree.root.n_leaves() == record["n_leaves"] and tree.root.depth() == record["depth"]
    assert np.allclose(predict_values(tree, table), record["predictions"], rtol=0, atol=1e-9)


def test_regression_model_round_trip_and_cli(run, tmp_path):
    model = tmp_path / "cpu.json"
    result = run("train", WEKA / "data" / "cpu.arff", "-a", "cart", "-m", "5", "-o", model, "-f", "text")
    assert result.exit_code == 0 and result.stdout.startswith("MMAX <= ")
    doc = json.loads(model.read_text())
    assert doc["schema"]["target"] == {"name": "class", "kind": "numeric"}
    assert set(doc["root"]) >= {"weight", "value", "impurity"} and "counts" not in doc["root"]
    predicted = run("predict", model, WEKA / "data" / "cpu.arff")
    assert predicted.exit_code == 0 and predicted.stderr.startswith("RMSE ")
    assert "R^2 0.84" in predicted.stderr
    classes = run("train", WEKA / "data" / "cpu.arff", "-a", "cart", "--task", "classification", "-q")
    assert classes.exit_code == 0
    refused = run("train", WEKA / "data" / "cpu.arff", "-a", "c45", "--task", "regression", "-q")
    assert refused.exit_code == 1 and "use --algorithm cart" in refused.stderr


def test_gain_shows_variance_reduction(run, tmp_path):
    result = run("gain", WEKA / "data" / "cpu.arff", "--task", "regression", "-f", "json")
    doc = json.loads(result.stdout)
    assert doc["task"] == "regression" and doc["chosen"] == "MMAX" and doc["rows"] == 209
    top = doc["attributes"][0]
    assert top["split"] == "MMAX <= 48000"
    table = load(WEKA / "data" / "cpu.arff", task="auto")
    y = table.y
    left = y[table.columns[table.schema.index("MMAX")] <= 48000]
    right = y[table.columns[table.schema.index("MMAX")] > 48000]
    expected = y.var() - (len(left) * left.var() + len(right) * right.var()) / len(y)
    assert top["mse_decrease"] == pytest.approx(expected)
    assert run("train", WEKA / "data" / "cpu.arff", "-a", "cart", "-q", "-o", tmp_path / "m.json").exit_code == 0
    model = json.loads((tmp_path / "m.json").read_text())
    assert top["threshold"] == model["root"]["test"]["threshold"]  # full precision: the tree's very threshold
    rows = run("gain", WEKA / "data" / "cpu.arff", "--task", "regression", "-f", "csv").stdout.splitlines()
    assert rows[0].endswith(",threshold") and rows[1].endswith("," + repr(top["threshold"]))
    sub = json.loads(
        run("gain", WEKA / "data" / "cpu.arff", "--task", "regression", "-w", "CACH>100", "-f", "json").stdout
    )
    assert sub["rows"] == int((table.columns[table.schema.index("CACH")] > 100).sum())


def test_regression_with_missing_numeric_values():
    """A numeric attribute with missing values: the split is scored on the known rows and
    scaled by their share (this used to index the known rows twice and fail)."""
    from dtcli.model.table import NUMERIC, Attribute, Schema, Table

    rng = np.random.default_rng(0)
    x = rng.normal(0, 1, 400)
    target = np.where(x > 0.3, 5.0, 1.0) + rng.normal(0, 0.1, 400)
    x[::9] = np.nan
    table = Table(Schema((Attribute("x", NUMERIC),), Attribute("t", NUMERIC)), [x], target)
    tree, _ = fit(table, "cart", max_depth=1)
    assert tree.root.test.attribute.name == "x"
    assert tree.root.test.threshold == pytest.approx(0.3, abs=0.1)
    known = ~np.isnan(x)
    assert tree.root.score < 0.95 * np.var(target[known])  # scaled by the known share (8/9)


@pytest.mark.parametrize("missing", ["majority", "fractional"])
def test_a_split_with_missing_values_competes_on_the_proxys_scale(missing):
    """scikit-learn's order compares splits by its proxy (-W_R I(R) - W_L I(L), negative); a
    split with missing values is scored as its decrease times the known share, so it must be put
    on the same scale (W score - W I(node)), or any such split, however weak, beats every
    complete attribute."""
    rng = np.random.default_rng(0)
    n = 400
    good, weak = rng.normal(size=n), rng.normal(size=n)
    weak[::50] = np.nan
    y = (good > 0).astype(np.int32)
    table = Table(
        Schema((Attribute("weak", NUMERIC), Attribute("good", NUMERIC)), Attribute("y", NOMINAL, ("a", "b"))),
        [weak, good],
        y,
    )
    for criterion in ("gini", "entropy"):
        for ties in ("sklearn", "column"):
            tree, _ = fit(table, "cart", ties=ties, max_depth=1, missing=missing, criterion=criterion)
            assert tree.root.test.attribute.name == "good"


@pytest.mark.parametrize("v", [2, 3, 5, 10])
def test_every_subset_holds_the_first_value_and_lists_each_split_once(v):
    """The exhaustive search's masks: every proper subset with the first value, in enumeration order
    (the first best among equals is the first listed), each once, the shared array read-only."""
    import itertools

    from dtcli.induction.search.cart import every_subset

    masks = every_subset(v)
    want = [(True, *bits) for bits in itertools.product([False, True], repeat=v - 1) if not all(bits)]
    assert [tuple(row) for row in masks.tolist()] == want and len(want) == 2 ** (v - 1) - 1
    assert every_subset(v) is masks and not masks.flags.writeable


def test_the_greedy_search_moves_the_best_value_each_step():
    """Beyond the limit with three classes: each step tries every value still outside and moves the first
    best (the lowest value on a tie), and stops once no move improves; brute force step by step."""
    from dtcli.induction.search.cart import _greedy, decrease

    rng = np.random.default_rng(7)
    for _ in range(30):
        v = int(rng.integers(3, 14))
        counts = rng.integers(0, 6, size=(v, 3)).astype(float)
        counts[rng.integers(0, v)] = [2.5, 0.0, 1.25]  # a fractional row too
        tried, scores = _greedy(counts, "gini")
        inside, best = np.zeros(v, dtype=bool), -np.inf
        for step, mask in enumerate(tried):
            options = []
            for j in np.flatnonzero(~inside):
                m = inside.copy()
                m[j] = True
                left = np.zeros(3)
                for i in np.flatnonzero(m):
                    left = left + counts[i]
                options.append((float(decrease(left, counts.sum(axis=0) - left, "gini")), -j, m))
            score, _, want = max(options, key=lambda o: (o[0], o[1]))
            assert mask.tolist() == want.tolist() and scores[step] == score
            if score <= best:
                assert step == len(tried) - 1
                break
            best, inside = score, want
