"""Passes over a grown tree that return it simplified.

``collapse`` is the step C4.5 (and Weka's J48, even with ``-U``) takes
after growing: a subtree that makes no fewer training errors than a leaf
in its place would (within 1e-3) becomes that leaf.
"""

from __future__ import annotations

from dtcli.induction.search.numeric import seqsum
from dtcli.model.tree import Node


def training_errors(node: Node) -> float:
    """Weighted training cases the subtree misclassifies (its leaves' minority cases)."""
    return _leaf_sums(node, lambda leaf: float(leaf.counts.sum() - leaf.counts.max()))[id(node)]


def collapse(node: Node) -> Node:
    """Replace, top-down, every subtree that is no better than a leaf on the training data."""
    errors = _leaf_sums(node, lambda leaf: float(seqsum(leaf.counts) - leaf.counts.max()))
    stack = [node]
    while stack:
        n = stack.pop()
        if n.is_leaf:
            continue
        if errors[id(n)] >= float(seqsum(n.counts) - n.counts.max()) - 1e-3:
            n.test, n.children, n.score = None, [], None
            continue
        stack.extend(n.children)
    return node


def _leaf_sums(root: Node, leaf_value) -> dict[int, float]:
    """Every node's (by ``id``) sum of ``leaf_value`` over the leaves below it, children added in
    branch order as ``sum`` adds them (one bottom-up pass, no recursion)."""
    sums: dict[int, float] = {}
    for node in reversed(list(root.walk())):  # every node after the nodes below it
        sums[id(node)] = leaf_value(node) if node.is_leaf else sum(sums[id(child)] for child in node.children)
    return sums
