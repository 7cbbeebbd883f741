"""Passes over a grown tree that return it simplified.

``collapse`` is the step C4.5 (and Weka's J48, even with ``-U``) takes
after growing: a subtree that makes no fewer training errors than a leaf
in its place would (within 1e-3) becomes that leaf.
"""

from __future__ import annotations

from dtcli.model.tree import Node


def training_errors(node: Node) -> float:
    """Weighted training cases the subtree misclassifies (its leaves' minority cases)."""
    if node.is_leaf:
        return float(node.counts.sum() - node.counts.max())
    return sum(training_errors(child) for child in node.children)


def collapse(node: Node) -> Node:
    """Replace, top-down, every subtree that is no better than a leaf on the training data."""
    if node.is_leaf:
        return node
    as_leaf = float(node.counts.sum() - node.counts.max())
    if training_errors(node) >= as_leaf - 1e-3:
        node.test, node.children, node.score = None, [], None
        return node
    for child in node.children:
        collapse(child)
    return node
