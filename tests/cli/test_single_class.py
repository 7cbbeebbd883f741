"""A training table with one class is a single leaf (Mitchell's ID3: all examples positive), everywhere.

References: Weka 3.6.14's J48 and Id3 on weather rows of class yes only (tests/fixtures/weka/single:
": yes (9.0)", one leaf, kappa 1, and a cross-validation whose fold trains on one class), and
scikit-learn's DecisionTreeClassifier, which makes one leaf of one class too.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from trees import fit

from dtcli.render.tree import text_tree
from helpers import WEKA, load

SINGLE = WEKA / "single"
YES = SINGLE / "yes2.arff"  # the class declares yes and no; only yes occurs
ALGORITHMS = ("id3", "c45", "cart")


def weka(name: str) -> str:
    return (SINGLE / name).read_text()


def weka_tree(name: str) -> str:
    """The tree Weka printed (J48: between the dashes and 'Number of Leaves'; Id3: after its name)."""
    text = weka(name)
    if "------------------" in text:
        return text.split("------------------\n")[1].split("\n\nNumber of Leaves")[0].strip() + "\n"
    return text.split("Id3\n")[1].split("\n\n=== Error")[0].strip() + "\n"


def no_nan(name: str):
    raise AssertionError(f"{name} in a JSON document")


def section(text: str, start: str, end: str = "=== Confusion Matrix ===") -> list[str]:
    """The non-blank lines after ``start`` up to ``end``, right-stripped (Weka pads with spaces)."""
    body = text.split(start, 1)[1].split(end, 1)[0]
    return [line.rstrip() for line in body.splitlines() if line.strip()]


@pytest.mark.parametrize(
    ("data", "algorithm", "recorded", "options"),
    [
        ("yes2.arff", "c45", "yes2.j48-pruned.txt", {}),
        ("yes2.arff", "c45", "yes2.j48-unpruned.txt", {"prune": "none"}),
        ("numyes2.arff", "c45", "numyes2.j48-pruned.txt", {}),
    ],
)
def test_c45_is_j48s_single_leaf(data, algorithm, recorded, options):
    tree, _ = fit(load(SINGLE / data), algorithm, **options)
    assert text_tree(tree) == weka_tree(recorded) == ": yes (9.0)\n"


def test_id3_is_weka_id3s_single_leaf():
    tree, _ = fit(load(YES), "id3")
    assert weka_tree("yes2.id3.txt") == ": yes\n"
    assert tree.root.is_leaf and tree.classes[tree.root.label] == "yes"


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_train_prints_a_leaf(run, tmp_path, algorithm):
    path = tmp_path / "m.json"
    done = run("train", YES, "-a", algorithm, "-o", path)
    assert done.exit_code == 0
    title = {"id3": "ID3", "c45": "C4.5", "cart": "CART"}[algorithm]
    assert done.stderr.splitlines()[-2:] == [
        "Training set: 9 of 9 correct (100.0%)",
        f"{title} tree: 1 leaf, 1 node, depth 0; model written to {path}",
    ]
    doc = json.loads(path.read_text())
    assert doc["root"] == {"counts": [9.0, 0.0], "kind": "leaf", "label": "yes"}
    assert run("show", path).stdout == done.stdout == "play [9+, 0-] → yes\n"
    assert run("show", path, "-f", "text").stdout == weka_tree("yes2.j48-pruned.txt")


def test_cart_leaf_is_scikit_learns(run):
    from sklearn.tree import DecisionTreeClassifier

    table = load(SINGLE / "numyes2.arff")
    x = np.column_stack([c if not a.is_nominal else c.astype(float) for a, c in zip(table.attributes, table.columns)])
    fitted = DecisionTreeClassifier(random_state=0).fit(x, table.y)
    tree, _ = fit(table, "cart")
    assert (fitted.get_n_leaves(), fitted.get_depth()) == (1, 0) == (tree.root.n_leaves(), tree.root.depth())
    assert list(fitted.predict(x)) == [tree.root.label] * table.n_rows


def test_a_class_that_declares_one_value(run):
    """Weka refuses a class of one declared value ("unary"); dtree grows the same leaf as when it declares two."""
    assert "Cannot handle unary class!" in weka("yes1.j48-pruned.txt")
    for algorithm in ALGORITHMS:
        done = run("train", SINGLE / "yes1.arff", "-a", algorithm)
        assert done.exit_code == 0 and done.stdout == "play [yes 9] → yes\n"
        assert done.stderr.splitlines()[-1].endswith("tree: 1 leaf, 1 node, depth 0")


@pytest.mark.parametrize("algorithm", ["c45", "id3", "cart"])
def test_cross_validation_of_one_class_is_wekas(run, algorithm):
    done = run("evaluate", YES, "-a", algorithm, "--cv", "3")
    assert done.exit_code == 0
    recorded = weka("yes2.j48-x3.txt").split("=== Stratified cross-validation ===")[1]
    assert section(done.stdout, "=== Summary ===", "=== Detailed") == section(recorded, "\n", "=== Detailed")
    assert "Kappa statistic                          1" in done.stdout
    assert section(done.stdout, "=== Confusion Matrix ===", "\0") == section(recorded, "=== Confusion Matrix ===", "\0")
    doc = json.loads(run("evaluate", YES, "-a", algorithm, "--cv", "3", "-f", "json").stdout, parse_constant=no_nan)
    assert doc["summary"]["correct"] == 9


def test_folds_that_train_on_one_class_are_j48s(run):
    """One row of class no: the fold that tests it trains on yes rows only (a leaf); J48's numbers."""
    done = run("evaluate", SINGLE / "oneno.arff", "-a", "c45", "--cv", "3")
    assert done.exit_code == 0
    recorded = weka("oneno.j48-x3.txt").split("=== Stratified cross-validation ===")[1]
    assert section(done.stdout, "=== Summary ===", "=== Detailed") == section(recorded, "\n")
    assert "Kappa statistic                          0" in done.stdout
    pruned = run("train", SINGLE / "oneno.arff", "-a", "cart", "--cv-folds", "3")
    assert pruned.exit_code == 0


def test_model_commands_on_a_leaf(run, tmp_path):
    models = {}
    for algorithm in ALGORITHMS:
        models[algorithm] = tmp_path / f"{algorithm}.json"
        assert run("train", YES, "-a", algorithm, "-q", "-o", models[algorithm]).exit_code == 0
    for path in models.values():
        rules = run("rules", path)
        assert rules.exit_code == 0 and "THEN play = yes" in rules.stdout
        assert run("rules", path, "--prune", "--data", YES).exit_code == 0
        predicted = run("predict", path, YES)
        assert predicted.exit_code == 0 and predicted.stdout.count(",yes,yes\n") == 9
        assert "Kappa statistic: 1" in predicted.stderr
        for args in (("--path",), ("--method", "pessimistic", "--data", YES), ("--cv-folds", "3", "--data", YES)):
            pruned = run("prune", path, *args)
            assert pruned.exit_code == 0, pruned.stderr
        assert run("prune", path, "--ccp-alpha", "0").stderr.endswith("pruned from 1 to 1 leaf\n")
        compared = run("diff", path, models["c45"])
        assert compared.exit_code == 0 and "equivalent" in compared.stdout
    for picture in ("svg", "dot", "mermaid"):
        assert run("show", models["c45"], "-f", picture).exit_code == 0
    assert "1 leaf, 1 node, depth 0" in run("show", models["c45"], "-f", "svg").stdout


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_engine_grows_the_leaf(algorithm):
    """The per-node reference and the compiled engines (level-wise for ID3 and C4.5, CART's builders)."""
    from dtcli.model.table import NOMINAL, Attribute, Schema, Table

    rng = np.random.default_rng(0)
    n = 6000
    attributes = (Attribute("a", NOMINAL, ("p", "q", "r")), Attribute("b", NOMINAL, ("s", "t")))
    columns = [rng.integers(0, 3, n).astype(np.int32), rng.integers(0, 2, n).astype(np.int32)]
    table = Table(Schema(attributes, Attribute("y", NOMINAL, ("k0", "k1"))), columns, np.ones(n, dtype=np.int32))
    for engine in ("reference", "compiled", "auto"):
        tree, _ = fit(table, algorithm, engine=engine)
        assert tree.root.is_leaf and tree.classes[tree.root.label] == "k1"
        assert list(tree.root.counts) == [0.0, float(n)]


def test_no_class_at_all_is_still_an_error(run, tmp_path):
    unlabelled, empty = tmp_path / "unlabelled.csv", tmp_path / "empty.csv"
    unlabelled.write_text("a,c\nx,?\ny,\n")
    empty.write_text("a,c\n")
    for algorithm in ALGORITHMS:
        done = run("train", unlabelled, "-a", algorithm)
        assert done.exit_code == 1 and "every row lacks a value in the target column 'c'" in done.stderr
        done = run("train", empty, "-a", algorithm)
        assert done.exit_code == 1 and "no data rows" in done.stderr
