"""Cost-complexity pruning: the alpha sequence against scikit-learn, pruning at
an alpha, cross-validated selection, and the prune command."""

from __future__ import annotations

import json

import numpy as np
import pytest
from trees import fit

from dtcli.induction.fit import cost_complexity
from dtcli.induction.params import CostComplexity
from dtcli.induction.prune.ccp.path import prune_at, pruning_path
from dtcli.induction.prune.ccp.select import Row, select, subtrees
from helpers import FIXTURES, WEKA, load

SKLEARN = json.loads((FIXTURES / "sklearn" / "cart.json").read_text())
CASES = SKLEARN


def grown(record):
    regression = record["estimator"] == "DecisionTreeRegressor"
    table = load(WEKA / "data" / f"{record['dataset']}.arff", task="auto" if regression else "classification")
    criterion = "gini" if regression else record["params"]["criterion"]
    tree, _ = fit(table, "cart", criterion=criterion, min_leaf=record["params"]["min_samples_leaf"])
    return table, tree, criterion


@pytest.mark.parametrize(
    "record",
    CASES,
    ids=[f"{r['dataset']}-{r['params'].get('criterion')}-{r['params']['min_samples_leaf']}" for r in CASES],
)
def test_alpha_sequence_equals_scikit_learn(record):
    _, tree, criterion = grown(record)
    steps = pruning_path(tree.root, criterion)
    assert len(steps) == len(record["ccp_alphas"])
    assert np.allclose([s.alpha for s in steps], record["ccp_alphas"], rtol=0, atol=1e-9)
    assert np.allclose([s.risk for s in steps], record["impurities"], rtol=0, atol=1e-9)


def test_pruning_never_grows_and_shrinks_monotonically():
    table = load(WEKA / "data" / "glass.arff")
    tree, _ = fit(table, "cart")
    rows = subtrees(tree.root, "gini")
    leaves = [r.leaves for r in rows]
    assert leaves == sorted(leaves, reverse=True) and leaves[-1] == 1
    assert [r.alpha for r in rows] == sorted(r.alpha for r in rows)
    for row in rows:
        pruned = prune_at(tree.root, row.alpha, "gini")
        assert pruned.n_leaves() == row.leaves <= tree.root.n_leaves()
    assert tree.root.n_leaves() == rows[0].leaves  # the original is untouched


def test_cross_validation_is_deterministic_and_one_se_is_smaller():
    table = load(WEKA / "data" / "diabetes.arff")
    tree, _ = fit(table, "cart")
    a, rows_a, chosen_a = cost_complexity(tree, table, CostComplexity(folds=5, seed=3))
    b, rows_b, chosen_b = cost_complexity(tree, table, CostComplexity(folds=5, seed=3))
    assert [r.cv_error for r in rows_a] == [r.cv_error for r in rows_b]
    assert chosen_a.cv_error == min(r.cv_error for r in rows_a)
    c, _, chosen_c = cost_complexity(tree, table, CostComplexity(folds=5, seed=3, one_se=True))
    assert c.root.n_leaves() <= a.root.n_leaves()
    assert chosen_c.cv_error <= chosen_a.cv_error + chosen_a.cv_se + 1e-12
    assert a.parameters["pruning"] == {
        "method": "cost-complexity",
        "alpha": chosen_a.alpha,
        "original_leaves": tree.root.n_leaves(),
        "cv_folds": 5,
        "one_se": False,
        "seed": 3,
    }


def test_select_rules():
    rows = [
        Row(0.0, 9, 0.0, 0.30, 0.02),
        Row(0.1, 5, 0.1, 0.20, 0.02),
        Row(0.2, 3, 0.2, 0.21, 0.02),
        Row(0.5, 1, 0.5, 0.50, 0.03),
    ]
    assert select(rows).leaves == 5
    assert select(rows, one_se=True).leaves == 3


def test_train_and_prune_commands(run, tmp_path):
    iris = WEKA / "data" / "iris.arff"
    model = tmp_path / "iris.json"
    assert run("train", iris, "-a", "cart", "-q", "-o", model).exit_code == 0
    path = run("prune", model, "--path", "-f", "json")
    doc = json.loads(path.stdout)
    assert doc["format"] == "dtree-cp" and [r["leaves"] for r in doc["rows"]] == [9, 7, 5, 4, 3, 2, 1]
    pruned = tmp_path / "pruned.json"
    result = run("prune", model, "--ccp-alpha", "0.02", "-o", pruned, "-f", "text")
    assert result.exit_code == 0 and "pruned from 9 to 4 leaves" in result.stderr
    assert json.loads(pruned.read_text())["parameters"]["pruning"]["original_leaves"] == 9
    cv = run("prune", model, "--data", iris, "--cv-folds", "5", "-q")
    assert cv.exit_code == 0 and "5-fold cross-validation" in cv.stderr and "CV error" in cv.stderr
    trained = run("train", iris, "-a", "cart", "--ccp-alpha", "0.02", "-f", "text")
    assert trained.stdout == result.stdout
    bad = run("prune", model)
    assert bad.exit_code == 1 and "--ccp-alpha" in bad.stderr
    no_data = run("prune", model, "--cv-folds", "5")
    assert no_data.exit_code == 1 and "--data" in no_data.stderr
