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

from dataclasses import dataclass

import numpy as np

from dtcli.errors import ParameterError
from dtcli.induction.predict.apply import predict
from dtcli.induction.prune.pessimistic.steps import path_text, unchain
from dtcli.induction.prune.reduced_error.rounds import Kept, internal_nodes, subtree_sizes, whole
from dtcli.model.table import Table
from dtcli.model.tree import Node, Tree


@dataclass
class Step:
    """One pruning: the node made a leaf (``where``: its path as a chain, see ``steps``; ``index``:
    its number among the internal nodes in preorder), validation accuracy before and after, size after."""

    where: object
    cases: float
    before: float
    after: float
    nodes: int
    leaves: int
    index: int = 0

    @property
    def path(self) -> str:
        return path_text([label for label, _ in unchain(self.where)])

    @property
    def branches(self) -> tuple[int, ...]:
        """The branch taken at each level from the root."""
        return tuple(branch for _, branch in unchain(self.where))


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


def reduced_error_prune(tree: Tree, validation: Table) -> tuple[Tree, list[Step]]:
    """Mitchell's reduced-error pruning of a copy of ``tree`` on ``validation``.

    With whole-number weights (a CSV file's are all 1) each round's accuracies
    come from kept counts (``_Rounds``): exact sums, so the same choices as
    predicting the whole validation set for every candidate, which
    ``_plain_rounds`` does for other weights."""
    if tree.schema.is_regression:
        raise ParameterError(
            "reduced-error pruning counts correctly classified rows and needs classes; "
            "prune a regression tree by cost complexity (--method cost-complexity)"
        )
    work = Tree(tree.schema, tree.root.copy(), tree.algorithm, dict(tree.parameters), dict(tree.training))
    if whole(validation) and not work.root.is_leaf:
        steps = _Rounds(work, validation).run()
    else:
        steps = _plain_rounds(work, validation)
    parameters = dict(tree.parameters)
    parameters["pruning"] = {
        "method": "reduced-error",
        "validation_rows": int(validation.labelled().sum()),
        "original_leaves": tree.root.n_leaves(),
    }
    return Tree(tree.schema, work.root, tree.algorithm, parameters, dict(tree.training)), steps


def _plain_rounds(work: Tree, validation: Table) -> list[Step]:
    """Mitchell's procedure as written: each round predicts the validation set once per candidate."""
    steps: list[Step] = []
    current = accuracy(work, validation)
    internal = internal_nodes(work.root)
    size = subtree_sizes(internal)
    alive = np.ones(len(internal), dtype=bool)
    while True:
        best = None
        for index in np.flatnonzero(alive).tolist():
            node = internal[index][0]
            saved = node.test, node.children, node.score
            node.test, node.children, node.score = None, [], None
            trial = accuracy(work, validation)
            node.test, node.children, node.score = saved
            if best is None or trial > best[0]:
                best = (trial, index)
        if best is None or not best[0] >= current:
            break
        trial, index = best
        node, where = internal[index]
        node.test, node.children, node.score = None, [], None
        alive[index : index + size[index]] = False
        steps.append(Step(where, node.weight, current, trial, work.root.n_nodes(), work.root.n_leaves(), index))
        current = trial
    return steps


class _Rounds:
    """The rounds of ``_plain_rounds`` from kept counts (``rounds.Kept``). For every internal node,
    ``delta`` holds how much correctly classified validation weight pruning it would add to the
    current tree's. Pruning a node changes the counts of its ancestors by its own delta, and those
    of nodes that share a several-branch row with it are computed again."""

    DEEP = 64  # from this depth, a pruning updates its ancestors with array operations

    def __init__(self, work: Tree, validation: Table):
        self.work = work
        self.internal = internal_nodes(work.root)  # preorder: (node, path)
        self.kept = Kept(work, validation, self.internal)
        n = len(self.internal)
        index_of = {id(node): i for i, (node, _) in enumerate(self.internal)}
        self.parent = np.full(n, -1, dtype=np.int64)
        self.depth = np.zeros(n, dtype=np.int64)
        self.size = subtree_sizes(self.internal)  # internal nodes in the subtree
        self.sub_nodes = np.zeros(n, dtype=np.int64)
        self.sub_leaves = np.zeros(n, dtype=np.int64)
        for i, (node, _) in enumerate(self.internal):
            for c in node.children:
                if not c.is_leaf:
                    self.parent[index_of[id(c)]], self.depth[index_of[id(c)]] = i, self.depth[i] + 1
        for i in range(n - 1, -1, -1):
            node = self.internal[i][0]
            self.sub_nodes[i] = 1 + sum(self.sub_nodes[index_of[id(c)]] if not c.is_leaf else 1 for c in node.children)
            self.sub_leaves[i] = sum(self.sub_leaves[index_of[id(c)]] if not c.is_leaf else 1 for c in node.children)
        self.delta = np.array([self._gain(i) for i in range(n)])

    def _gain(self, i: int) -> float:
        """Correct weight added by making internal node ``i`` a leaf of the current tree."""
        kept = self.kept
        rows = kept.rows(i)
        after = kept.correct_if_leaf(i, rows)
        before = kept.now[rows]
        return float(kept.w[rows][after & ~before].sum() - kept.w[rows][before & ~after].sum())

    def run(self) -> list[Step]:
        steps: list[Step] = []
        kept = self.kept
        alive = np.ones(len(self.internal), dtype=bool)
        n_nodes, n_leaves = int(self.sub_nodes[0]), int(self.sub_leaves[0])
        while alive.any():
            candidates = np.flatnonzero(alive)
            current = kept.count / kept.total
            trials = (kept.count + self.delta[candidates]) / kept.total
            k = int(np.argmax(trials))  # the first best in preorder
            if not trials[k] >= current:
                break
            i = int(candidates[k])
            node, where = self.internal[i]
            change = float(self.delta[i])
            rows = kept.prune(i)
            node.test, node.children, node.score = None, [], None
            alive[i : i + self.size[i]] = False
            removed_nodes, removed_leaves = self.sub_nodes[i] - 1, self.sub_leaves[i] - 1
            n_nodes, n_leaves = n_nodes - int(removed_nodes), n_leaves - int(removed_leaves)
            above = self._ancestors(i)
            self.delta[above] -= change
            self.sub_nodes[above] -= removed_nodes
            self.sub_leaves[above] -= removed_leaves
            is_above = np.zeros(len(self.internal), dtype=bool)
            is_above[above] = True
            for j in kept.sharing(rows).tolist():  # nodes elsewhere that a several-branch row also reaches
                if alive[j] and not is_above[j]:
                    self.delta[j] = self._gain(j)
            steps.append(Step(where, node.weight, current, float(trials[k]), n_nodes, n_leaves, i))
        return steps

    def _ancestors(self, i: int) -> np.ndarray:
        """The internal nodes above ``i`` (a walk up the parents, or in a deep tree one array
        operation over the preorder intervals)."""
        if self.depth[i] >= self.DEEP:
            return np.flatnonzero(np.arange(i) + self.size[:i] > i)
        above = []
        a = self.parent[i]
        while a >= 0:
            above.append(a)
            a = self.parent[a]
        return np.array(above, dtype=np.int64)


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
