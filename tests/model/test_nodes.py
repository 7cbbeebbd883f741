"""Nodes at any depth: copied, compared and shown without recursion; preorder intervals."""

from __future__ import annotations

import numpy as np
from trees import chain as chain_tree

from dtcli.model.table import NUMERIC, Attribute
from dtcli.model.tree import Node, NumericTest, preorder_ends


def chain(depth: int) -> Node:
    return chain_tree(depth).root


def test_a_50000_level_subtree_is_copied_apart():
    root = chain(50_000)
    copied = root.copy()
    assert copied.depth() == 50_000 and copied.n_nodes() == root.n_nodes() == 100_001
    pairs = list(zip(root.walk(), copied.walk()))
    assert all(a is not b and a.counts is not b.counts for a, b in pairs)
    assert all(a.test is b.test and a.label == b.label and np.array_equal(a.counts, b.counts) for a, b in pairs)
    copied.counts[0] = 7.0
    assert root.counts[0] == 1.0


def test_deep_nodes_compare_by_identity_and_show_one_node():
    a, b = chain(20_000), chain(20_000)
    assert a == a and a != b
    assert repr(a) == "Node(split on 'x', 2 branches, counts=array([1., 1.]), label=0)"
    assert repr(a.children[0]) == "Node(leaf, counts=array([1., 0.]), label=0)"


def test_preorder_ends():
    x = Attribute("x", NUMERIC)

    def node(*children):
        return Node(np.zeros(2), 0, NumericTest(x, 0.5) if children else None, list(children))

    root = node(node(node(), node()), node(), node(node(node())))
    # preorder: 0 root, 1 (2, 3 below), 2, 3, 4, 5 (6, 7 below), 6 (7 below), 7
    assert preorder_ends(root).tolist() == [8, 4, 3, 4, 5, 8, 8, 8]
    assert preorder_ends(chain(30_000))[:3].tolist() == [60_001, 2, 60_001]
