"""Predicting with a split on a nominal attribute of 200,000 values: memory in proportion to the tree.

A dense (nodes x widest split) matrix of branch shares needed 298 GiB here;
the layout lists each split's branches sparsely and a missing value at a
wide split of leaves takes the leaves' mixture at once. The numbers are
checked by hand: a row with a known value gets its leaf's distribution, a
row with a missing value the leaves' distributions weighted by their cases.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from dtcli.induction.predict.apply import predict_proba
from dtcli.model.table import MISSING, NOMINAL, Attribute, Schema, Table
from dtcli.model.tree import Node, NominalTest, Tree

VALUES = 200_000


def wide_tree() -> tuple[Tree, Schema]:
    """x = v0 ... v199999: leaf i holds i % 3 + 1 cases, of class a when i is even, else b."""
    x = Attribute("x", NOMINAL, tuple(f"v{i}" for i in range(VALUES)))
    schema = Schema((x,), Attribute("y", NOMINAL, ("a", "b")))
    sizes = np.arange(VALUES) % 3 + 1.0
    children = [
        Node(np.array([size, 0.0]) if i % 2 == 0 else np.array([0.0, size]), i % 2) for i, size in enumerate(sizes)
    ]
    root = Node(np.array([sizes[::2].sum(), sizes[1::2].sum()]), 0, NominalTest(x), children)
    return Tree(schema, root, "id3", {"missing": "fractional"}), schema


def test_a_split_of_200000_values_predicts_in_little_memory():
    tree, schema = wide_tree()
    codes = np.array([0, 1, 199_999, MISSING, 7, MISSING] * 500, dtype=np.int32)
    table = Table(schema, [codes], np.zeros(len(codes), dtype=np.int32))
    tracemalloc.start()
    try:
        proba = predict_proba(tree, table)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 200 * 2**20, f"peak {peak / 2**20:.0f} MiB"
    sizes = np.arange(VALUES) % 3 + 1.0
    a_share = sizes[::2].sum() / sizes.sum()
    expected = {0: [1, 0], 1: [0, 1], 199_999: [0, 1], MISSING: [a_share, 1 - a_share], 7: [0, 1]}
    for code, row in zip(codes[:6], proba[:6]):
        assert np.allclose(row, expected[int(code)], rtol=1e-12), (code, row)
    assert np.array_equal(proba[6:12], proba[:6])


@pytest.mark.parametrize("policy", ["majority", "class-majority", "root-majority", "root-class-majority"])
def test_majority_missing_policy_follows_the_heaviest_branch(policy):
    tree, schema = wide_tree()
    tree.parameters["missing"] = policy
    table = Table(schema, [np.array([MISSING], dtype=np.int32)], np.zeros(1, dtype=np.int32))
    # the first branch with the most cases (3) is v2, of class a
    assert predict_proba(tree, table).tolist() == [[1.0, 0.0]]
