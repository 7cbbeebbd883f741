"""The overfitting picture: accuracy against tree size as reduced-error pruning proceeds.

Contract: ``pruning_curve(tree, validation, test)`` replays reduced-error
pruning on ``validation`` and returns one point per tree in the sequence,
from the full tree to the pruned one: number of nodes and leaves, training
accuracy (from the training counts at the leaves), validation accuracy and,
when ``test`` is given, test accuracy (Mitchell 1997, Figure 3.7).

Each point comes from the one before: the pruning's own sizes and validation
accuracy, the training counts of the leaves as they are now (added in
preorder, as ``training_accuracy`` adds them), and the test rows kept as
``rounds.Kept`` keeps them (predicted again in whole only when the test
weights are not whole numbers).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dtcli.induction.prune.reduced_error.prune import accuracy, reduced_error_prune, training_accuracy
from dtcli.induction.prune.reduced_error.rounds import Kept, internal_nodes, whole
from dtcli.model.table import Table
from dtcli.model.tree import Tree, preorder_ends


@dataclass
class Point:
    nodes: int
    leaves: int
    training: float
    validation: float
    test: float | None


def pruning_curve(tree: Tree, validation: Table, test: Table | None = None) -> list[Point]:
    """One point for the full tree and one after each reduced-error pruning step."""
    _, steps = reduced_error_prune(tree, validation)
    work = Tree(tree.schema, tree.root.copy(), tree.algorithm, tree.parameters)
    internal = internal_nodes(work.root)
    training = _Training(work)
    kept = Kept(work, test, internal) if test is not None and whole(test) and not work.root.is_leaf else None

    def tested() -> float | None:
        if test is None:
            return None
        if kept is None:
            return accuracy(work, test)
        return kept.count / kept.total if kept.total > 0 else float("nan")

    points = [
        Point(
            work.root.n_nodes(),
            work.root.n_leaves(),
            training_accuracy(work.root),
            accuracy(work, validation),
            tested(),
        )
    ]
    for step in steps:
        node = internal[step.index][0]
        if kept is not None:
            kept.prune(step.index)
        node.test, node.children, node.score = None, [], None
        training.cut(node)
        points.append(Point(step.nodes, step.leaves, training.accuracy(), step.after, tested()))
    return points


class _Training:
    """``training_accuracy`` of the tree as its nodes become leaves: each node's correct training
    weight in preorder, summed over the current leaves in that order."""

    def __init__(self, tree: Tree):
        nodes = list(tree.root.walk())
        self.index = {id(node): i for i, node in enumerate(nodes)}
        self.correct = np.array([float(node.counts[node.label]) for node in nodes])
        self.leaf = np.array([node.is_leaf for node in nodes])
        self.alive = np.ones(len(nodes), dtype=bool)
        self.end = preorder_ends(tree.root)
        self.total = tree.root.weight

    def cut(self, node) -> None:
        i = self.index[id(node)]
        self.leaf[i] = True
        self.alive[i + 1 : self.end[i]] = False

    def accuracy(self) -> float:
        return sum(self.correct[self.leaf & self.alive].tolist()) / self.total
