"""Apply a tree to a table: class probabilities and predicted classes.

All rows descend together, a few array operations per node. A row whose
tested value is missing (or was never seen in training) goes down every
branch with a weight proportional to the training cases in that branch, and
the class distributions it reaches are summed (C4.5's method, Quinlan 1993).
A leaf contributes its training class distribution; an empty leaf (no
training cases) contributes certainty in its label.
"""

from __future__ import annotations

import numpy as np

from dtcli.model.table import Table
from dtcli.model.tree import Node, Tree


def predict_proba(tree: Tree, table: Table) -> np.ndarray:
    """An (rows, classes) matrix of class probabilities; each row sums to 1.

    For a regression tree: a (rows, 1) matrix of predicted values.
    """
    width = 1 if tree.schema.is_regression else len(tree.classes)
    proba = np.zeros((table.n_rows, width), dtype=np.float64)
    index = {a.name: i for i, a in enumerate(table.attributes)}
    rows = np.arange(table.n_rows)
    fractional = tree.parameters.get("missing", "fractional") not in ("majority", "class-majority")
    _descend(tree.root, table, index, rows, np.ones(table.n_rows), proba, fractional)
    return proba


def predict(tree: Tree, table: Table) -> np.ndarray:
    """Predicted class codes: the most probable class, first in order on ties."""
    return np.argmax(predict_proba(tree, table), axis=1)


def predict_values(tree: Tree, table: Table) -> np.ndarray:
    """Regression: the mean of the leaf each row reaches (weighted over leaves when
    a missing value sends it down several branches)."""
    return predict_proba(tree, table)[:, 0]


def _distribution(node: Node) -> np.ndarray:
    if node.value is not None:
        return np.array([node.value])
    total = node.counts.sum()
    if total > 0:
        return node.counts / total
    one_hot = np.zeros_like(node.counts)
    one_hot[node.label] = 1.0
    return one_hot


def _descend(node: Node, table: Table, index: dict, rows: np.ndarray,
             weights: np.ndarray, proba: np.ndarray, fractional: bool) -> None:
    if len(rows) == 0:
        return
    if node.is_leaf:
        proba[rows] += weights[:, None] * _distribution(node)
        return
    column = table.columns[index[node.test.attribute.name]]
    branch = node.test.route(column[rows])
    missing = branch < 0
    sizes = np.array([child.weight for child in node.children])
    shares = sizes / sizes.sum() if sizes.sum() > 0 else np.full(len(sizes), 1.0 / len(sizes))
    if not fractional:
        shares = np.zeros(len(sizes))
        shares[int(np.argmax(sizes))] = 1.0
    for b, child in enumerate(node.children):
        here = branch == b
        take = here | missing if shares[b] > 0 else here
        if not take.any():
            continue
        scale = np.where(missing[take], shares[b], 1.0)
        _descend(child, table, index, rows[take], weights[take] * scale, proba, fractional)
