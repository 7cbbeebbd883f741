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
    if node.is_leaf:
        return float(node.counts.sum() - node.counts.max())
    return sum(training_errors(child) for child in node.children)


def collapse(node: Node) -> Node:
    """Replace, top-down, every subtree that is no better than a leaf on the training data."""
    errors: dict[int, float] = {}

    def subtree_errors(n: Node) -> float:  # every node's errors, in one bottom-up pass
        if n.is_leaf:
            value = float(seqsum(n.counts) - n.counts.max())
        else:
            value = sum(subtree_errors(child) for child in n.children)
        errors[id(n)] = value
        return value

    subtree_errors(node)

    def visit(n: Node) -> None:
        if n.is_leaf:
            return
        if errors[id(n)] >= float(seqsum(n.counts) - n.counts.max()) - 1e-3:
            n.test, n.children, n.score = None, [], None
            return
        for child in n.children:
            visit(child)

    visit(node)
    return node
