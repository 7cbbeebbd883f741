"""The compiled descent (predict/kernels/descend.py) gives numpy's probabilities to the last bit.

numpy's level-by-level descent (``predict.descend``, with ``weka_order`` for rows that met a
missing value) is the reference, itself checked against J48's numbers and worked examples in
test_predict.py. Here every kind of tree is walked both ways and the float64 results compared
bit for bit: ID3, C4.5 and CART, classification and regression, fractional and filled missing
values, subset tests, empty leaves, wide splits taking a mixture, drawn tables with missing values.
"""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from trees import fit, generated

from dtcli.induction.backend import PREDICT_MIN_WORK, compiled_prediction
from dtcli.induction.predict.apply import MIX_FANOUT, depth, layout, predict_proba
from dtcli.model.table import MISSING, NOMINAL, NUMERIC, Attribute, Schema, Table
from dtcli.model.tree import Node, NominalTest, NumericTest, Tree
from helpers import SAMPLES, WEKA, load

numba = pytest.importorskip("numba")

MANIFEST = json.loads((WEKA / "manifest.json").read_text())
WEKA_FILES = sorted({m["file"] for m in MANIFEST if m["ok"] and m["file"].endswith(".arff")})


def holed(table: Table, share: float, seed: int) -> Table:
    """``table`` with about ``share`` of its cells made missing (NaN, or the code -1)."""
    rng = np.random.default_rng(seed)
    columns = []
    for attribute, column in zip(table.attributes, table.columns):
        column = column.copy()
        hole = rng.random(len(column)) < share
        column[hole] = np.nan if attribute.kind == NUMERIC else MISSING
        columns.append(column)
    return replace(table, columns=columns)


def assert_same_bits(tree: Tree, table: Table, chunk: int = 100_000) -> None:
    reference = predict_proba(tree, table, engine="reference")
    compiled = predict_proba(tree, table, engine="compiled", chunk=chunk, done=lambda n: None)
    assert reference.shape == compiled.shape
    assert np.array_equal(reference.view(np.int64), compiled.view(np.int64)), np.flatnonzero(
        (reference.view(np.int64) != compiled.view(np.int64)).any(axis=1)
    )[:10]


@pytest.mark.parametrize("name", WEKA_FILES)
@pytest.mark.parametrize("algorithm", ["c45", "cart", "id3"])
def test_weka_files(name, algorithm):
    table = load(WEKA / name)
    options = {"missing": "fractional"} if algorithm != "cart" else {}
    if algorithm == "c45":
        options["prune"] = "none"
    try:
        tree, _ = fit(table, algorithm, **options)
    except Exception as exc:  # (ID3 refuses numeric attributes)
        pytest.skip(str(exc))
    assert_same_bits(tree, table)
    assert_same_bits(tree, holed(table, 0.2, 1), chunk=7)


@pytest.mark.parametrize("missing", ["fractional", "majority", "class-majority", "root-majority"])
@pytest.mark.parametrize("algorithm", ["c45", "id3", "cart"])
def test_missing_policies(algorithm, missing):
    table = generated(600, 3)
    if algorithm == "id3":
        table = replace(table, columns=[c if a.is_nominal else (c > 0.5).astype(np.int32) for a, c in
                                        zip(table.attributes, table.columns)],  # fmt: skip
                        schema=Schema(tuple(Attribute(a.name, NOMINAL, ("no", "yes")) if not a.is_nominal else a
                                            for a in table.attributes), table.schema.target))  # fmt: skip
    if algorithm == "cart" and missing != "majority":
        pytest.skip("CART fills by its own majority")
    tree, _ = fit(table, algorithm, missing=missing)
    assert_same_bits(tree, holed(table, 0.3, 2))


@pytest.mark.parametrize("missing", ["majority", "fractional"])
def test_regression_trees(missing):
    table = load(WEKA / "data" / "cpu.with.vendor.arff", task="regression")
    tree, _ = fit(table, "cart", missing=missing)
    tree.parameters["missing"] = missing  # fractional: every branch, summed level by level
    assert any(type(n.test).__name__ == "SubsetTest" for n in _nodes(tree.root))
    assert_same_bits(tree, table)
    assert_same_bits(tree, holed(table, 0.25, 3))


def test_subset_tests_of_cart():
    table = load(WEKA / "data" / "soybean.arff")
    tree, _ = fit(table, "cart")
    assert any(type(n.test).__name__ == "SubsetTest" for n in _nodes(tree.root))
    assert_same_bits(tree, holed(table, 0.2, 4))
    tree.parameters["missing"] = "fractional"
    assert_same_bits(tree, holed(table, 0.2, 5))


@pytest.mark.parametrize("name", ["weather.csv", "restaurant.csv", "contact-lenses.csv", "iris.csv", "risk.csv"])
def test_sample_data(name):
    table = load(SAMPLES / name)
    for algorithm in ("c45", "cart"):
        tree, _ = fit(table, algorithm)
        assert_same_bits(tree, holed(table, 0.3, 6))


def _nodes(root: Node):
    todo = [root]
    while todo:
        node = todo.pop()
        yield node
        todo.extend(node.children)


def wide_tree(values: int, regression: bool = False) -> tuple[Tree, Schema]:
    """x = v0 ... v{values-1} under a numeric split on z; leaf i of i % 3 cases (some empty), a
    deeper split below the first branch, so a mixture meets leaves of other levels."""
    x = Attribute("x", NOMINAL, tuple(f"v{i}" for i in range(values)))
    z = Attribute("z", NUMERIC)
    target = Attribute("y", NUMERIC) if regression else Attribute("y", NOMINAL, ("a", "b"))
    schema = Schema((x, z), target)

    def leaf(i, size):
        if regression:
            return Node(np.array([float(size)]), 0, value=float(i % 7) - 3.0)
        return Node(np.array([size, 0.0]) if i % 2 == 0 else np.array([0.0, size]), i % 2)

    sizes = np.arange(values) % 3.0
    counts = np.array([sizes.sum()]) if regression else np.array([sizes[::2].sum(), sizes[1::2].sum()])
    leaves = [leaf(i, s) for i, s in enumerate(sizes)]
    wide = Node(counts, 0, NominalTest(x), leaves, value=0.5 if regression else None)
    deep = Node(wide.counts * 2, 1, NumericTest(z, 0.25), [wide, leaf(1, 5.0)], value=1.5 if regression else None)
    root = Node(deep.counts + 3, 0, NumericTest(z, 0.75), [deep, leaf(4, 3.0)], value=2.0 if regression else None)
    return Tree(schema, root, "cart", {"missing": "fractional"}), schema


@pytest.mark.parametrize("regression", [False, True])
def test_wide_splits_take_the_mixture(regression):
    tree, schema = wide_tree(MIX_FANOUT * 2, regression)
    assert layout(tree, table := _rows(schema, 400)).mixture is not None
    assert_same_bits(tree, table)


def _rows(schema: Schema, n: int) -> Table:
    rng = np.random.default_rng(7)
    x = rng.integers(-1, len(schema.attributes[0].values), n).astype(np.int32)
    z = rng.random(n)
    z[rng.random(n) < 0.3] = np.nan
    return Table(schema, [x, z], np.zeros(n, dtype=np.int32) if schema.target.is_nominal else np.zeros(n))


def test_splits_without_training_weight_share_alike():
    x = Attribute("x", NOMINAL, ("p", "q", "r"))
    schema = Schema((x,), Attribute("y", NOMINAL, ("a", "b")))
    empty = Node(np.zeros(2), 1, NominalTest(x), [Node(np.zeros(2), 0), Node(np.zeros(2), 1), Node(np.zeros(2), 1)])
    root = Node(
        np.array([3.0, 1.0]), 0, NominalTest(x), [Node(np.array([3.0, 0.0]), 0), empty, Node(np.array([0.0, 1.0]), 1)]
    )
    table = Table(schema, [np.array([0, 1, 2, MISSING] * 4, dtype=np.int32)], np.zeros(16, dtype=np.int32))
    for missing in ("fractional", "majority"):
        assert_same_bits(Tree(schema, root, "id3", {"missing": missing}), table)


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(1, 400),
    seed=st.integers(0, 10**6),
    share=st.sampled_from([0.0, 0.05, 0.3, 0.8]),
    algorithm=st.sampled_from(["c45", "cart"]),
    missing=st.sampled_from(["fractional", "majority", "class-majority"]),
    chunk=st.integers(1, 500),
)
def test_drawn_tables(n, seed, share, algorithm, missing, chunk):
    table = generated(max(n, 20), seed)
    tree, _ = fit(table, algorithm, **({} if algorithm == "cart" else {"missing": missing}))
    tree.parameters["missing"] = missing
    assert_same_bits(tree, holed(generated(n, seed + 1), share, seed), chunk)


def test_the_choice_of_path():
    assert not compiled_prediction(10**9, 40, "reference")
    assert not compiled_prediction(1000, 5)
    assert compiled_prediction(PREDICT_MIN_WORK // 8, 8)  # (whether numba can run is predict/apply.py's to ask)
    tree, _ = fit(generated(200, 1), "cart")
    assert depth(layout(tree, generated(5, 2))) == max(_depth_of(tree.root), 0)


def _depth_of(root: Node) -> int:
    deepest, todo = 0, [(root, 0)]
    while todo:
        node, d = todo.pop()
        deepest = max(deepest, d)
        todo.extend((child, d + 1) for child in node.children)
    return deepest


def test_warm_up_compiles():
    from dtcli.induction.predict.kernels.descend import warm_up

    warm_up()
