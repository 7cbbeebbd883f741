"""CART grown best first (``--max-leaves``) is scikit-learn's tree with ``max_leaf_nodes``, node for node,
for classes (Gini and entropy) and for numbers, with either engine.

scikit-learn's best-first builder decides each child's split as the child is made, the first branch
first, each node knowing no constant attribute, and expands next the split that improves the tree most
(the node's weight times the criterion's decrease). dtree once decided the last branch first, handed a
node's constant attributes to its children and ranked the splits by information gain: on Weka's cpu
with 20 leaves, a third of the training rows got another prediction (its trace claimed the lesser of
two decreases as the highest).

Reference: scikit-learn's DecisionTreeClassifier and DecisionTreeRegressor, fitted here.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

tree_module = pytest.importorskip("sklearn.tree")

WEKA = Path(__file__).resolve().parent.parent / "fixtures" / "weka" / "data"


def arff_rows(path: Path) -> tuple[list[str], list[list[str]]]:
    """(attribute names, data rows as text) of a small ARFF file without quotes or missing values."""
    names, rows, data = [], [], False
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("%"):
            continue
        if data:
            rows.append([cell.strip() for cell in line.split(",")])
        elif line.lower().startswith("@attribute"):
            names.append(line.split()[1].strip("'"))
        elif line.lower().startswith("@data"):
            data = True
    return names, rows


def walk(model: dict, fitted) -> tuple[int, list[str]]:
    """(nodes compared, differences) between dtree's model and scikit-learn's fitted tree."""
    names = [a["name"] for a in model["schema"]["attributes"]]
    tree, differences, compared = fitted.tree_, [], 0
    stack = [(0, model["root"])]
    while stack:
        i, node = stack.pop()
        compared += 1
        leaf = tree.children_left[i] == -1
        if leaf != (node["kind"] == "leaf"):
            differences.append(f"node {i}: scikit-learn leaf {leaf}, dtree {node.get('test')}")
            continue
        if leaf:
            continue
        feature, threshold = names[tree.feature[i]], float(np.float32(tree.threshold[i]))
        test = node["test"]
        if test["attribute"] != feature or float(np.float32(test["threshold"])) != threshold:
            differences.append(f"node {i}: scikit-learn {feature} <= {threshold}, dtree {test}")
            continue
        branches = {b["value"]: b["node"] for b in node["branches"]}
        stack.append((tree.children_right[i], branches[">"]))
        stack.append((tree.children_left[i], branches["<="]))
    return compared, differences


CASES = [  # (Weka file, dtree options, scikit-learn's estimator and options)
    ("ionosphere.arff", ["--max-leaves", "4"], "DecisionTreeClassifier", {"max_leaf_nodes": 4}),
    ("ionosphere.arff", ["--max-leaves", "8"], "DecisionTreeClassifier", {"max_leaf_nodes": 8}),
    ("ionosphere.arff", ["--max-leaves", "20"], "DecisionTreeClassifier", {"max_leaf_nodes": 20}),
    (
        "glass.arff",
        ["--max-leaves", "15", "-c", "entropy"],
        "DecisionTreeClassifier",
        {"max_leaf_nodes": 15, "criterion": "entropy"},
    ),
    ("cpu.arff", ["--max-leaves", "12"], "DecisionTreeRegressor", {"max_leaf_nodes": 12}),
    ("cpu.arff", ["--max-leaves", "20"], "DecisionTreeRegressor", {"max_leaf_nodes": 20}),
    ("cpu.arff", ["--max-leaves", "50"], "DecisionTreeRegressor", {"max_leaf_nodes": 50}),
]


@pytest.mark.parametrize("engine", ["reference", "compiled"])
@pytest.mark.parametrize(("name", "options", "estimator", "settings"), CASES)
def test_best_first_cart_is_scikit_learns_tree(run, tmp_path, engine, name, options, estimator, settings):
    if engine == "compiled":
        pytest.importorskip("numba")
    names, rows = arff_rows(WEKA / name)
    data = tmp_path / f"{Path(name).stem}.csv"
    with data.open("w", newline="") as handle:
        csv.writer(handle).writerows([names, *rows])
    model = tmp_path / "m.json"
    result = run("train", data, "-a", "cart", *options, "--engine", engine, "-q", "-o", model)
    assert result.exit_code == 0, result.stderr
    x = np.array([[float(cell) for cell in row[:-1]] for row in rows])
    y = [row[-1] for row in rows]
    fitted = getattr(tree_module, estimator)(random_state=0, **settings)
    fitted.fit(x, np.array(y, dtype=float) if estimator.endswith("Regressor") else y)
    compared, differences = walk(json.loads(model.read_text()), fitted)
    assert differences == [] and compared == fitted.tree_.node_count
