"""FlatTree.to_nodes and a Node tree's shape (levels, leaves, nodes, depth) against plain references.

The trees are drawn: nominal and numeric tests, any shape, and FlatTrees holding slots the
root no longer reaches (a split made a leaf, as ``collapse`` leaves them), so ``to_nodes``
must make exactly the reachable slots, each child in its branch's place.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dtcli.induction.grow.flat import FlatTree, from_nodes
from dtcli.model.table import NUMERIC, Attribute
from dtcli.model.tree import Node, NominalTest, NumericTest

ATTRIBUTES = (
    Attribute("colour", "nominal", ("red", "green", "blue")),
    Attribute("x", NUMERIC),
    Attribute("flag", "nominal", ("no", "yes")),
)


@st.composite
def node_trees(draw, max_nodes: int = 60):
    """A Node tree: each node, breadth first, drawn a leaf or a test on one of ``ATTRIBUTES``."""
    root = Node(np.array(draw(st.lists(st.floats(0, 50), min_size=2, max_size=2))), draw(st.integers(0, 1)))
    pending, made = [root], 1
    while pending:
        node = pending.pop(0)
        if made >= max_nodes or not draw(st.booleans()):
            continue
        a = draw(st.integers(0, len(ATTRIBUTES) - 1))
        attribute = ATTRIBUTES[a]
        if attribute.is_nominal:
            node.test = NominalTest(attribute)
        else:
            node.test = NumericTest(attribute, draw(st.floats(-1e6, 1e6)))
        node.score = draw(st.one_of(st.none(), st.floats(0, 1)))
        for _ in range(node.test.n_branches):
            counts = np.array(draw(st.lists(st.floats(0, 50), min_size=2, max_size=2)))
            node.children.append(Node(counts, draw(st.integers(0, 1))))
        pending.extend(node.children)
        made += len(node.children)
    return root


def walked(root: Node) -> list:
    """Every node's own fields, in preorder (``Node.walk``), children counted: the tree as data."""
    return [
        (n.counts.tolist(), n.label, n.test, n.score, len(n.children)) for n in root.walk()
    ]  # fmt: skip


def reference_shape(root: Node) -> tuple[int, int, int]:
    """(leaves, nodes, depth) counted node by node with a stack."""
    leaves = nodes = deepest = 0
    stack = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        nodes += 1
        leaves += node.test is None
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in node.children)
    return leaves, nodes, deepest


@settings(max_examples=150, deadline=None)
@given(node_trees())
def test_shape_levels_and_depth_agree_with_a_walk(root):
    leaves, nodes, depth = reference_shape(root)
    assert root.shape() == (leaves, nodes, depth)
    assert (root.n_leaves(), root.n_nodes(), root.depth()) == (leaves, nodes, depth)
    levels = list(root.levels())
    assert len(levels) == depth + 1 and levels[0] == [root]
    assert sorted(map(id, (n for level in levels for n in level))) == sorted(map(id, root.walk()))


@settings(max_examples=150, deadline=None)
@given(node_trees(), st.data())
def test_to_nodes_makes_the_reachable_slots(root, data):
    flat = from_nodes(root, ATTRIBUTES)
    assert flat is not None
    expected = walked(root)
    fresh = FlatTree(
        flat.attributes, flat.attr, flat.thr, flat.nb, flat.cstart, flat.counts, flat.label, flat.score
    )  # no Nodes to reuse, no tests: made from the arrays, as the compiled builders' trees are
    assert walked(fresh.to_nodes()) == expected
    splits = np.flatnonzero(flat.attr >= 0)
    if len(splits):  # one split made a leaf: its subtree's slots stay in the arrays, unreachable
        slot = int(data.draw(st.sampled_from(splits.tolist())))
        attr = flat.attr.copy()
        attr[slot] = -1
        cut = FlatTree(flat.attributes, attr, flat.thr, flat.nb, flat.cstart, flat.counts, flat.label, flat.score)
        pruned = root.copy()
        order = [pruned]
        for node in order:  # breadth first, the order from_nodes lays the slots out in
            order.extend(node.children)
        order[slot].test, order[slot].children = None, []
        assert walked(cut.to_nodes()) == walked(pruned)
