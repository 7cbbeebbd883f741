"""The overfitting picture: accuracy against tree size as reduced-error pruning proceeds.

Contract: ``pruning_curve(tree, validation, test)`` replays reduced-error
pruning on ``validation`` and returns one point per tree in the sequence,
from the full tree to the pruned one: number of nodes and leaves, training
accuracy (from the training counts at the leaves), validation accuracy and,
when ``test`` is given, test accuracy (Mitchell 1997, Figure 3.7).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from dtcli.induction.prune.reduced_error import (
    accuracy,
    reduced_error_prune,
    training_accuracy,
)
from dtcli.model.table import Table
from dtcli.model.tree import Tree


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
    work = Tree(tree.schema, copy.deepcopy(tree.root), tree.algorithm, tree.parameters)
    points = [_point(work, validation, test)]
    for step in steps:
        node = _find(work, step.branches)
        node.test, node.children, node.score = None, [], None
        points.append(_point(work, validation, test))
    return points


def _point(tree: Tree, validation: Table, test: Table | None) -> Point:
    return Point(
        tree.root.n_nodes(),
        tree.root.n_leaves(),
        training_accuracy(tree.root),
        accuracy(tree, validation),
        None if test is None else accuracy(tree, test),
    )


def _find(tree: Tree, branches: tuple[int, ...]):
    node = tree.root
    for i in branches:
        node = node.children[i]
    return node
