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
    branch order as ``sum`` adds them (one depth-first pass with a stack, no recursion)."""
    sums: dict[int, float] = {}
    stack = [(root, iter(root.children), [])]  # a node, its children still to visit, their sums so far
    while stack:
        node, children, below = stack[-1]
        child = next(children, None)
        if child is not None:
            stack.append((child, iter(child.children), []))
            continue
        stack.pop()
        sums[id(node)] = value = leaf_value(node) if node.is_leaf else sum(below)
        if stack:
            stack[-1][2].append(value)
    return sums
