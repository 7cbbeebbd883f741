"""Cost-complexity pruning (Breiman et al. 1984, ch. 3): the weakest-link sequence.

Contract: ``pruning_path(root, criterion)`` lists, from the full tree to the
root alone, the steps of weakest-link pruning: at each step the internal
node ``t`` with the smallest ``g(t) = (R(t) - R(T_t)) / (|leaves(T_t)| - 1)``
(first in preorder on ties) becomes a leaf, and the step records that
``alpha = g(t)`` with the total leaf risk and size after it. ``R(t)`` is
the node's impurity (Gini or entropy in bits for classification, mean
squared error for regression) times its share of the training weight,
as scikit-learn defines it, so the alphas equal ``cost_complexity_pruning_path``.
``prune_at(root, alpha, criterion)`` returns a copy pruned at ``alpha``.
Passes never modify the tree they are given.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dtcli.model.tree import Node

LN2 = math.log(2.0)


@dataclass
class Step:
    """One step of the sequence: the alpha at which it happens and the tree after it."""

    alpha: float
    risk: float
    leaves: int
    pruned: int | None  # preorder index of the node made a leaf (None: the full tree)


def _impurity(node: Node, criterion: str) -> float:
    """The node's impurity, written as scikit-learn computes it (so near-ties agree)."""
    if node.value is not None:
        return float(node.impurity or 0.0)
    w = float(node.counts.sum())
    if w <= 0:
        return 0.0
    if criterion in ("entropy", "gain", "gain-ratio"):
        result = 0.0
        for count in node.counts:
            if count > 0:
                p = count / w
                result -= p * (math.log(p) / LN2)
        return result
    sq = 0.0
    for count in node.counts:
        sq += count * count
    return 1.0 - sq / (w * w)


class _Flat:
    """The tree in preorder arrays, for fast repeated weakest-link scans."""

    DEEP = 64  # from this depth, a cut updates its ancestors with array operations

    def __init__(self, root: Node, criterion: str):
        self.nodes = list(root.walk())
        index = {id(n): i for i, n in enumerate(self.nodes)}
        n = len(self.nodes)
        self.parent = np.full(n, -1)
        self.depth = np.zeros(n, dtype=np.int64)
        for i, node in enumerate(self.nodes):
            for child in node.children:
                c = index[id(child)]
                self.parent[c], self.depth[c] = i, self.depth[i] + 1
        total = root.weight
        self.r_node = np.array([node.weight * _impurity(node, criterion) / total for node in self.nodes])
        self.leaf = np.array([node.is_leaf for node in self.nodes])
        self.alive = np.ones(n, dtype=bool)
        self.r_branch = self._sum_leaves(self.r_node)
        self.n_leaves = self._sum_leaves(np.ones(n))
        self.subtree_end = self._ends()

    def _sum_leaves(self, values: np.ndarray) -> np.ndarray:
        """Each node's sum of ``values`` over the leaves below it (descendants follow in preorder)."""
        out = np.where(self.leaf, values, 0.0).astype(float)
        for i in range(len(out) - 1, 0, -1):
            out[self.parent[i]] += out[i]
        return out

    def _ends(self) -> np.ndarray:
        """Preorder index one past each node's subtree."""
        ends = np.arange(1, len(self.nodes) + 1)
        for i in range(len(self.nodes) - 1, 0, -1):
            ends[self.parent[i]] = max(ends[self.parent[i]], ends[i])
        return ends

    def weakest(self) -> tuple[int, float] | None:
        candidates = self.alive & ~self.leaf
        if not candidates.any():
            return None
        with np.errstate(divide="ignore", invalid="ignore"):
            g = np.where(candidates, (self.r_node - self.r_branch) / (self.n_leaves - 1), np.inf)
        i = int(np.argmin(g))
        return i, float(g[i])

    def cut(self, i: int) -> None:
        """Make node ``i`` a leaf and update its ancestors' sums (each subtracts the same amount
        once, by a walk up the parents or, deep in the tree, as one array operation)."""
        removed_risk = self.r_branch[i] - self.r_node[i]
        removed_leaves = self.n_leaves[i] - 1
        self.alive[i + 1 : self.subtree_end[i]] = False
        self.leaf[i] = True
        self.r_branch[i], self.n_leaves[i] = self.r_node[i], 1
        if self.depth[i] >= self.DEEP:
            above = self.subtree_end[:i] > i  # the ancestors: earlier in preorder, their subtree holds i
            self.r_branch[:i][above] -= removed_risk
            self.n_leaves[:i][above] -= removed_leaves
            return
        j = self.parent[i]
        while j >= 0:
            self.r_branch[j] -= removed_risk
            self.n_leaves[j] -= removed_leaves
            j = self.parent[j]


def pruning_path(root: Node, criterion: str) -> list[Step]:
    """The weakest-link sequence, starting with the full tree at alpha 0."""
    flat = _Flat(root, criterion)
    steps = [Step(0.0, float(flat.r_branch[0]), int(flat.n_leaves[0]), None)]
    while (found := flat.weakest()) is not None:
        i, alpha = found
        flat.cut(i)
        steps.append(Step(alpha, float(flat.r_branch[0]), int(flat.n_leaves[0]), i))
    return steps


def within(value: float, alpha: float) -> bool:
    """``g(t) <= alpha``, with the tolerance ``prune_at`` allows."""
    return value <= alpha + 1e-12 * max(1.0, abs(alpha))


class Cuts:
    """The nodes a tree's ``pruning_path`` cuts, in order, and how many of them ``prune_at``
    cuts for an alpha: the steps up to the first whose ``g(t)`` exceeds it (found by bisection
    on the running maximum of the steps' alphas, so asking for many alphas stays cheap)."""

    def __init__(self, steps: list[Step]):
        self.nodes = [step.pruned for step in steps[1:]]
        self.highest = np.maximum.accumulate(np.array([step.alpha for step in steps[1:]] or [0.0]))[: len(self.nodes)]

    def count(self, alpha: float) -> int:
        return int(np.searchsorted(self.highest, alpha + 1e-12 * max(1.0, abs(alpha)), side="right"))

    def at(self, alpha: float) -> list[int]:
        return self.nodes[: self.count(alpha)]


def prune_at(root: Node, alpha: float, criterion: str, steps: list[Step] | None = None) -> Node:
    """A copy of the tree with every weakest link of ``g(t) <= alpha`` pruned (``steps``: the
    tree's ``pruning_path``, when known)."""
    if steps is None:
        flat = _Flat(root, criterion)
        cut = []
        while (found := flat.weakest()) is not None and within(found[1], alpha):
            flat.cut(found[0])
            cut.append(found[0])
    else:
        cut = Cuts(steps).at(alpha)
    pruned = root.copy()
    nodes = list(pruned.walk())
    for i in cut:
        node = nodes[i]
        node.test, node.children, node.score = None, [], None
    return pruned
