"""Tree growth: ID3's top-down recursive partitioning (Quinlan 1986; Mitchell Table 3.1).

Contract: ``grow(table, params)`` returns the root Node of a tree built on
the rows of ``table``; it never modifies the table. At each node:

1. stop with a leaf (majority class, first class in order on ties) when the
   node is pure, no attribute is left, or a stopping rule holds;
2. otherwise score every remaining attribute (``split.candidates``) and take
   the best; if it does not improve the criterion by more than ``min_gain``
   (a split that separates nothing) the node is a leaf, as in Weka's Id3;
3. make one branch per value of the attribute; a value without cases gets a
   leaf labelled with this node's majority class (Mitchell Table 3.1);
   the attribute is not tested again below (multiway nominal splits).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dtcli.induction.split import candidates, choose
from dtcli.model.table import Table
from dtcli.model.tree import NominalTest, Node, majority

# A split must gain more than this (on top of --min-gain); Weka's Id3 uses the same 1e-6.
GAIN_TOLERANCE = 1e-6


@dataclass(frozen=True)
class GrowParams:
    """What governs growth; every field is recorded in the model file."""

    criterion: str = "gain"
    max_depth: int | None = None
    min_split: float = 2.0
    min_gain: float = 0.0
    purity: float = 1.0

    def as_dict(self) -> dict:
        return {
            "criterion": self.criterion,
            "max_depth": self.max_depth,
            "min_split": self.min_split,
            "min_gain": self.min_gain,
            "purity": self.purity,
        }


def grow(table: Table, params: GrowParams) -> Node:
    """Grow a tree over every row of ``table`` whose class is known."""
    rows = np.flatnonzero(table.y >= 0)
    nominal = [i for i, a in enumerate(table.attributes) if a.is_nominal]
    return _grow(table, rows, nominal, params, depth=0)


def _node_counts(table: Table, rows: np.ndarray) -> np.ndarray:
    return np.bincount(table.y[rows], weights=table.weights[rows],
                       minlength=len(table.classes)).astype(np.float64)


def _stops(counts: np.ndarray, attributes: list[int], params: GrowParams, depth: int) -> bool:
    total = counts.sum()
    if total <= 0 or np.count_nonzero(counts) <= 1 or not attributes:
        return True
    if params.max_depth is not None and depth >= params.max_depth:
        return True
    if total < params.min_split:
        return True
    return counts.max() / total >= params.purity


def _grow(table: Table, rows: np.ndarray, attributes: list[int], params: GrowParams, depth: int) -> Node:
    counts = _node_counts(table, rows)
    node = Node(counts, majority(counts))
    if _stops(counts, attributes, params, depth):
        return node
    best = choose(candidates(table, rows, attributes, params.criterion), params.criterion)
    if best is None:
        return node
    improvement = best.score if params.criterion == "gini" else best.gain
    if improvement <= params.min_gain + GAIN_TOLERANCE:
        return node
    test = NominalTest(table.attributes[best.attribute])
    node.test, node.score = test, best.score
    remaining = [i for i in attributes if i != best.attribute]
    branch = test.route(table.columns[best.attribute][rows])
    for value in range(test.n_branches):
        subset = rows[branch == value]
        if len(subset) == 0:
            node.children.append(Node(np.zeros_like(counts), node.label))
        else:
            node.children.append(_grow(table, subset, remaining, params, depth + 1))
    return node
