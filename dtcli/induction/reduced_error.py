"""Reduced-error pruning (Mitchell 1997, §3.7.1.1) and stratified hold-out sets.

Contract: ``reduced_error_prune(tree, validation)`` returns a pruned copy and
its steps. Each round considers every internal node: replacing it by a leaf
labelled with the majority class of the training cases there. The node
whose removal gives the highest validation accuracy is pruned, provided the
accuracy is no lower than before (no worse is enough); ties go to the first
node in preorder. Rounds repeat until every further pruning would lower
validation accuracy. Each step records the node, the accuracies compared,
and the tree's size, so the accuracy-versus-size curve can be drawn.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import numpy as np

from dtcli.induction.predict import predict
from dtcli.model.table import Table
from dtcli.model.tree import Node, Tree


@dataclass
class Step:
    """One pruning: the node made a leaf, validation accuracy before and after, size after."""

    path: str
    cases: float
    before: float
    after: float
    nodes: int
    leaves: int
    branches: tuple[int, ...] = ()  # the branch taken at each level from the root


def accuracy(tree: Tree, table: Table) -> float:
    """Share of the labelled rows (by weight) whose class the tree predicts."""
    known = table.labelled()
    if not known.any():
        return float("nan")
    hits = predict(tree, table)[known] == table.y[known]
    weights = table.weights[known]
    return float(weights[hits].sum() / weights.sum())


def training_accuracy(root: Node) -> float:
    """Resubstitution accuracy from the training counts at the leaves."""
    leaves = [n for n in root.walk() if n.is_leaf]
    return sum(float(n.counts[n.label]) for n in leaves) / root.weight


def _paths(node: Node, path: str = "", branches: tuple[int, ...] = ()):
    """Internal nodes in preorder with their printable path and branch indices."""
    if node.is_leaf:
        return
    yield node, path or "/", branches
    for i, (label, child) in enumerate(zip(node.test.branch_labels(), node.children)):
        yield from _paths(child, f"{path}/{label}", branches + (i,))


def reduced_error_prune(tree: Tree, validation: Table) -> tuple[Tree, list[Step]]:
    """Mitchell's reduced-error pruning of a copy of ``tree`` on ``validation``."""
    work = Tree(tree.schema, copy.deepcopy(tree.root), tree.algorithm, dict(tree.parameters), dict(tree.training))
    steps: list[Step] = []
    current = accuracy(work, validation)
    while True:
        best = None
        for node, path, branches in list(_paths(work.root)):
            saved = node.test, node.children, node.score
            node.test, node.children, node.score = None, [], None
            trial = accuracy(work, validation)
            node.test, node.children, node.score = saved
            if best is None or trial > best[0]:
                best = (trial, node, path, branches)
        if best is None or not best[0] >= current:
            break
        trial, node, path, branches = best
        node.test, node.children, node.score = None, [], None
        steps.append(Step(path, node.weight, current, trial, work.root.n_nodes(), work.root.n_leaves(), branches))
        current = trial
    parameters = dict(tree.parameters)
    parameters["pruning"] = {"method": "reduced-error", "validation_rows": int(validation.labelled().sum()),
                             "original_leaves": tree.root.n_leaves()}
    return Tree(tree.schema, work.root, tree.algorithm, parameters, dict(tree.training)), steps


def stratified_holdout(table: Table, share: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(training rows, validation rows): ``share`` of each class's rows held out at random."""
    rng = np.random.default_rng(seed)
    labelled = np.flatnonzero(table.labelled())
    held = []
    for cls in np.unique(table.y[labelled]):
        rows = labelled[table.y[labelled] == cls]
        rows = rows[rng.permutation(len(rows))]
        held.extend(rows[: int(round(share * len(rows)))])
    held = np.sort(np.array(held, dtype=np.int64))
    return np.setdiff1d(labelled, held), held
