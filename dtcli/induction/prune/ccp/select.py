"""Choosing the cost-complexity alpha: the subtree table and k-fold cross-validation.

Contract: ``subtrees(root, criterion)`` gives one row per distinct alpha of
the weakest-link sequence (like rpart's cp table): alpha, leaves and
training error of the subtree pruned at that alpha. ``cross_validate``
fills in each row's cross-validated error and its standard error, and
``select`` picks the row with the lowest CV error (the smaller tree on
ties) or, with the 1-SE rule, the smallest tree within one standard error
of it (Breiman et al. 1984, §3.4.3).

Cross-validation follows Breiman: the k trees are grown on k-1 folds with
the same parameters, each is pruned at ``sqrt(alpha_k alpha_k+1)`` (the
geometric mean of a row's alpha and the next one's), and errors on the
held-out fold are summed. Folds are a random permutation of the rows
(``seed``). Classification errors are misclassifications (SE from the
binomial), regression errors squared errors (SE from their spread).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dtcli.induction.prune.ccp.path import Cuts, prune_at, pruning_path
from dtcli.model.table import Table
from dtcli.model.tree import Node, Tree, preorder_ends


@dataclass
class Row:
    alpha: float
    leaves: int
    train_error: float
    cv_error: float | None = None
    cv_se: float | None = None


def training_error(root: Node) -> float:
    """Resubstitution error: misclassified weight share, or weighted mean squared error."""
    total = root.weight
    leaves = [n for n in root.walk() if n.is_leaf]
    if root.value is not None:
        return sum(n.weight * (n.impurity or 0.0) for n in leaves) / total
    return sum(n.weight - float(n.counts.max()) for n in leaves if n.weight > 0) / total


def subtrees(root: Node, criterion: str) -> list[Row]:
    """One row per distinct alpha of the weakest-link sequence, full tree first.

    Each row describes ``prune_at(root, alpha)``; all come from one pruning path, the trees
    made by cutting its nodes in turn (not a pruned copy a row)."""
    steps = pruning_path(root, criterion)
    alphas: list[float] = []
    for step in steps:
        if not alphas or not math.isclose(step.alpha, alphas[-1], rel_tol=1e-12, abs_tol=1e-15):
            alphas.append(step.alpha)
    nodes = list(root.walk())  # preorder, as the steps number them
    total = root.weight
    if root.value is not None:
        terms = np.array([n.weight * (n.impurity or 0.0) for n in nodes])
        counted = np.ones(len(nodes), dtype=bool)
    else:
        terms = np.array([n.weight - float(n.counts.max()) for n in nodes])
        counted = np.array([n.weight > 0 for n in nodes])
    leaf = np.array([n.is_leaf for n in nodes])
    alive = np.ones(len(nodes), dtype=bool)
    ends = preorder_ends(root)
    cuts = Cuts(steps)
    counts = [cuts.count(alpha) for alpha in alphas]
    rows: list[Row | None] = [None] * len(alphas)
    done = 0  # the first ``done`` cuts are made
    for r in sorted(range(len(alphas)), key=counts.__getitem__):
        for i in cuts.nodes[done : counts[r]]:
            leaf[i] = True
            alive[i + 1 : ends[i]] = False
        done = max(done, counts[r])
        leaves = alive & leaf
        error = sum(terms[leaves & counted].tolist()) / total  # leaves in preorder, as training_error adds them
        rows[r] = Row(alphas[r], int(leaves.sum()), error)
    return rows


def cross_validate(table: Table, grow, apply, rows: list[Row], criterion: str, folds: int, seed: int) -> None:
    """Fill ``cv_error``/``cv_se`` of each row. ``grow(table) -> Node``; ``apply(root, table) -> predictions``."""
    labelled = np.flatnonzero(table.labelled())
    order = np.random.default_rng(seed).permutation(labelled)
    parts = np.array_split(order, folds)
    betas = [math.sqrt(a * b) for a, b in zip([r.alpha for r in rows], [r.alpha for r in rows[1:]])] + [math.inf]
    losses = np.zeros((len(rows), len(labelled)))
    position = {row: k for k, row in enumerate(order)}
    for held in parts:
        train = np.setdiff1d(order, held)
        root = grow(table.take(np.sort(train)))
        test = table.take(held)
        steps = pruning_path(root, criterion)
        for r, beta in enumerate(betas):
            pruned = prune_at(root, beta, criterion, steps)
            predicted = apply(pruned, test)
            if table.is_regression:
                loss = (predicted - test.y) ** 2
            else:
                loss = (predicted != test.y).astype(float)
            losses[r, [position[i] for i in held]] = loss
    n = len(labelled)
    for r, row in enumerate(rows):
        row.cv_error = float(losses[r].mean())
        if table.is_regression:
            row.cv_se = float(losses[r].std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0
        else:
            p = row.cv_error
            row.cv_se = math.sqrt(p * (1 - p) / n)


def select(rows: list[Row], one_se: bool = False) -> Row:
    """The row to prune at: lowest CV error (smaller tree on ties), or the 1-SE rule."""
    best = min(rows, key=lambda r: (r.cv_error, r.leaves))
    if not one_se:
        return best
    limit = best.cv_error + best.cv_se
    return min((r for r in rows if r.cv_error <= limit + 1e-12), key=lambda r: (r.leaves, -r.alpha))


def pruned_tree(tree: Tree, alpha: float, criterion: str, info: dict) -> Tree:
    """A new Tree pruned at ``alpha``, recording how (``parameters["pruning"]``)."""
    root = prune_at(tree.root, alpha, criterion)
    parameters = dict(tree.parameters)
    parameters["pruning"] = {
        "method": "cost-complexity",
        "alpha": alpha,
        "original_leaves": tree.root.n_leaves(),
        **info,
    }
    return Tree(tree.schema, root, tree.algorithm, parameters, dict(tree.training))
