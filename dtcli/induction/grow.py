"""Tree growth: top-down recursive partitioning (Quinlan 1986, 1993; Mitchell Table 3.1).

Contract: ``grow(table, params)`` returns the root Node of a tree built on
the rows of ``table`` whose class is known; it never modifies the table.
Each node holds its own rows as a Table whose weights may be fractional.

1. A node is a leaf (majority class, first in order on ties) when it is
   pure, when no attribute is left, or when a stopping rule holds.
2. Otherwise the algorithm's selector (ID3 here, C4.5 in ``c45``) picks a
   split; none, or one that does not improve the criterion by more than
   ``min_gain``, makes a leaf.
3. The rows go down the branches. A branch without cases gets a leaf
   labelled with this node's majority class. A row whose tested value is
   missing goes down every branch with its weight split in proportion to
   the known cases (``missing="fractional"``, C4.5); ``majority`` and
   ``class-majority`` fill the value in at each node first (Mitchell §3.7.4).
4. Nodes are expanded first in, first out; with ``max_leaves``, the node
   whose split gains most (weight x gain) first, until the budget is spent.
"""

from __future__ import annotations

import heapq
from dataclasses import asdict, dataclass

import numpy as np

from dtcli.induction.costs import AttributeCosts
from dtcli.induction.cart import cart_choose
from dtcli.induction.c45 import Choice, Thresholds, c45_choose, placed
from dtcli.induction.missing import fill_missing, partition
from dtcli.induction.regression import node_stats, regression_choose
from dtcli.induction.split import candidates, choose
from dtcli.model.table import Table
from dtcli.model.tree import NominalTest, Node, majority

# A split must gain more than this (on top of --min-gain); Weka's Id3 uses the same 1e-6.
GAIN_TOLERANCE = 1e-6


@dataclass(frozen=True)
class GrowParams:
    """What governs growth; every field is recorded in the model file."""

    algorithm: str = "id3"
    criterion: str = "gain"
    max_depth: int | None = None
    min_split: float = 2.0
    min_leaf: float | None = None
    min_gain: float = 0.0
    purity: float = 1.0
    max_leaves: int | None = None
    thresholds: str | None = None
    missing: str = "reject"
    collapse: bool = False
    costs: AttributeCosts | None = None

    def as_dict(self) -> dict:
        return asdict(self)


class _Grower:
    def __init__(self, table: Table, params: GrowParams):
        self.params = params
        self.thresholds = Thresholds(table, params.thresholds or "midpoint")
        self.n_classes = len(table.classes)
        self.n_all = table.n_rows

    def choose(self, node: Table, available: list[int]) -> Choice | None:
        p = self.params
        if node.is_regression:
            return regression_choose(node, p.min_leaf or 1.0)
        if p.algorithm == "cart":
            return cart_choose(node, p.criterion, p.min_leaf or 1.0)
        if p.algorithm == "c45":
            return c45_choose(node, p.min_leaf or 2.0, p.criterion, self.thresholds, self.n_all, p.costs)
        found = candidates(node, available, p.criterion, p.thresholds, p.min_leaf)
        rule = p.criterion
        if p.costs is not None:
            for c in found:
                c.score = p.costs.score(c.gain, p.costs.cost(node.attributes[c.attribute].name))
            rule = "gain"  # the cost measure replaces the criterion (and Quinlan's rule)
        best = choose(found, rule)
        if best is None:
            return None
        return placed(Choice(best.test, best.score, best.gain), self.thresholds, node)

    def stops(self, counts: np.ndarray, available: list[int], depth: int) -> bool:
        p = self.params
        total = counts.sum()
        if total <= 0 or np.count_nonzero(counts) <= 1 or not available:
            return True
        if p.max_depth is not None and depth >= p.max_depth:
            return True
        return total < p.min_split or counts.max() / total >= p.purity

    def stops_regression(self, node: Node, available: list[int], depth: int) -> bool:
        """Regression: a leaf when the targets are all equal or a stopping rule holds."""
        p = self.params
        if node.weight <= 0 or node.impurity <= 1e-12 * max(1.0, node.value ** 2) or not available:
            return True
        if p.max_depth is not None and depth >= p.max_depth:
            return True
        return node.weight < p.min_split

    def improves(self, choice: Choice) -> bool:
        p = self.params
        improvement = choice.score if p.criterion == "gini" and p.costs is None else choice.gain
        if p.algorithm == "cart":  # like scikit-learn, a split that decreases nothing is still made
            return choice.score >= p.min_gain - 1e-12
        if p.algorithm == "c45":
            return p.min_gain <= 0 or improvement > p.min_gain
        return improvement > p.min_gain + GAIN_TOLERANCE


def grow(table: Table, params: GrowParams) -> Node:
    """Grow a tree over every row of ``table`` whose class is known."""
    grower = _Grower(table, params)
    root_rows = table.take(table.labelled())
    usable = [i for i, a in enumerate(table.attributes) if a.is_nominal or params.thresholds]
    root, pending = _make(grower, root_rows, usable, 0)
    heap, order, leaves = [], 0, 1
    if pending:
        heapq.heappush(heap, (0.0, order, pending))
    while heap:
        _, _, (node, rows, available, depth, choice) = heapq.heappop(heap)
        children = _split(grower, node, rows, available, depth, choice)
        if params.max_leaves is not None and leaves + len(children) - 1 > params.max_leaves:
            continue
        node.test, node.score = choice.test, choice.score
        leaves += len(children) - 1
        for child, child_pending in children:
            node.children.append(child)
            if child_pending:
                order += 1
                priority = -child.weight * child_pending[4].gain if params.max_leaves else 0.0
                heapq.heappush(heap, (priority, order, child_pending))
    return root


def _make(grower: _Grower, rows: Table, available: list[int], depth: int):
    """A node for ``rows``, and what expanding it needs (None if it stays a leaf)."""
    counts = rows.class_counts()
    node = Node(counts, majority(counts))
    if rows.is_regression:
        _, node.value, node.impurity = node_stats(rows)
        if grower.stops_regression(node, available, depth):
            return node, None
    elif grower.stops(counts, available, depth):
        return node, None
    cart = grower.params.algorithm == "cart"
    filled = rows if cart else fill_missing(rows, grower.params.missing)
    choice = grower.choose(filled, available)
    if choice is None or not grower.improves(choice):
        return node, None
    return node, (node, filled, available, depth, choice)


def _split(grower: _Grower, node: Node, rows: Table, available: list[int], depth: int, choice: Choice):
    test = choice.test
    index = rows.schema.index(test.attribute.name)
    remaining = [i for i in available if i != index] if isinstance(test, NominalTest) else available
    children = []
    heavier = grower.params.algorithm == "cart" and grower.params.missing != "fractional"
    for part in partition(rows, index, test, heavier):
        if part.weights.sum() <= 0:
            empty = Node(np.zeros(len(node.counts)), node.label, value=node.value,
                         impurity=None if node.value is None else 0.0)
            children.append((empty, None))
        else:
            children.append(_make(grower, part, remaining, depth + 1))
    return children
