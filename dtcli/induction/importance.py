"""Feature importances of a tree: each attribute's weighted impurity decrease, as scikit-learn defines them."""

from __future__ import annotations

import numpy as np


def importances(tree) -> np.ndarray:
    """One number per attribute of ``tree.schema`` (in its order): the weighted impurity decrease
    ``N_t * I(t) - sum N_c * I(c)`` summed over the splits on it and normalised to sum 1 (scikit-learn's
    ``feature_importances_``), in the algorithm's own measure (``impurity``); zeros for a tree that is one leaf."""
    names = {a.name: j for j, a in enumerate(tree.schema.attributes)}
    found = np.zeros(len(names))
    criterion = tree.parameters.get("criterion")
    for node in tree.root.walk():
        if node.test is None:
            continue
        decrease = node.weight * impurity(node, criterion)
        decrease -= sum(child.weight * impurity(child, criterion) for child in node.children)
        found[names[node.test.attribute.name]] += decrease
    total = found.sum()
    return found / total if total > 0 else found


def impurity(node, criterion: str) -> float:
    """A node's impurity in the measure of ``criterion``: Gini for gini (and CART's measure), else entropy
    in bits; a regression node's squared error."""
    if node.value is not None:
        return float(node.impurity or 0.0)
    total = node.counts.sum()
    if total <= 0:
        return 0.0
    shares = node.counts[node.counts > 0] / total
    if criterion in ("gini", "cart"):
        return float(1.0 - np.sum(shares**2))
    return float(-np.sum(shares * np.log2(shares)))


def measure(tree) -> str:
    """The impurity the importances are measured in: ``gini``, ``entropy`` or ``squared-error``."""
    if tree.schema.is_regression:
        return "squared-error"
    return "gini" if tree.parameters.get("criterion") in ("gini", "cart") else "entropy"


def ranked(tree) -> list[tuple[str, float]]:
    """(attribute, importance) of every attribute of ``tree``, the most important first (ties: in the
    training order of the attributes)."""
    found = importances(tree)
    names = [a.name for a in tree.schema.attributes]
    order = sorted(range(len(names)), key=lambda j: (-found[j], j))
    return [(names[j], float(found[j])) for j in order]
