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

from dtcli.errors import ParameterError
from dtcli.induction.apply.predict import descend, layout, leaf_distribution, predict
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
    work = Tree(tree.schema, copy.deepcopy(tree.root), tree.algorithm, dict(tree.parameters), dict(tree.training))
    weights = validation.weights[validation.labelled()]
    whole = bool(np.all(weights == np.floor(weights))) and float(weights.sum()) < 2.0**52
    steps = _Rounds(work, validation).run() if whole and not work.root.is_leaf else _plain_rounds(work, validation)
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
    return steps


class _Rounds:
    """The rounds of ``_plain_rounds`` from kept counts. For every internal node, ``delta`` holds
    how much correctly classified validation weight pruning it would add to the current tree's.
    A row that follows one path (no missing value on it) reaching a node is correct, once the
    node is a leaf, when the leaf's distribution favours its class; a row that went down
    several branches is predicted again (``predict.descend``, its own sums, so the numbers of a
    whole prediction). Pruning a node changes the counts of its ancestors by its own delta, and
    those of nodes that share a several-branch row with it are computed again."""

    def __init__(self, work: Tree, validation: Table):
        self.work, self.table = work, validation
        self.internal = list(_paths(work.root))  # preorder: (node, path, branches)
        self.flat = layout(work, validation)
        slot_of = {id(node): slot for slot, node in enumerate(self.flat.nodes)}
        self.slots = np.array([slot_of[id(node)] for node, _, _ in self.internal], dtype=np.int64)
        index_of = {id(node): i for i, (node, _, _) in enumerate(self.internal)}
        self.parent = np.full(len(self.internal), -1, dtype=np.int64)
        self.size = np.zeros(len(self.internal), dtype=np.int64)  # internal nodes in the subtree
        self.sub_nodes = np.zeros(len(self.internal), dtype=np.int64)
        self.sub_leaves = np.zeros(len(self.internal), dtype=np.int64)
        for i in range(len(self.internal) - 1, -1, -1):
            node = self.internal[i][0]
            self.size[i] = 1 + sum(self.size[index_of[id(c)]] for c in node.children if not c.is_leaf)
            self.sub_nodes[i] = 1 + sum(self.sub_nodes[index_of[id(c)]] if not c.is_leaf else 1 for c in node.children)
            self.sub_leaves[i] = sum(self.sub_leaves[index_of[id(c)]] if not c.is_leaf else 1 for c in node.children)
            for c in node.children:
                if not c.is_leaf:
                    self.parent[index_of[id(c)]] = i
        self.slot_index = np.full(len(self.flat.nodes), -1, dtype=np.int64)
        self.slot_index[self.slots] = np.arange(len(self.internal))
        known = np.flatnonzero(validation.labelled())
        visits: list = []
        proba = descend(self.flat, known, visits)
        self.now = np.zeros(validation.n_rows, dtype=bool)
        self.now[known] = np.argmax(proba, axis=1) == validation.y[known]
        rec_rows = np.concatenate([r for r, _ in visits])
        rec_slots = np.concatenate([sl for _, sl in visits])
        leaves = np.bincount(rec_rows[self.flat.leaf[rec_slots]], minlength=validation.n_rows)
        self.several = leaves > 1  # rows that went down several branches
        by_slot = np.argsort(rec_slots, kind="stable")
        self.rows_sorted = rec_rows[by_slot]  # the rows reaching each slot: rows_sorted[bounds[s]:bounds[s + 1]]
        self.bounds = np.searchsorted(rec_slots[by_slot], np.arange(len(self.flat.nodes) + 1))
        by_row = np.argsort(rec_rows, kind="stable")
        self.slots_by_row = rec_slots[by_row]
        self.row_bounds = np.searchsorted(rec_rows[by_row], np.arange(validation.n_rows + 1))
        self.w, self.y = validation.weights, validation.y
        self.total = float(validation.weights[known].sum())
        self.count = float(self.w[self.now].sum())
        self.delta = np.array([self._gain(i) for i in range(len(self.internal))])

    def _rows(self, i: int) -> np.ndarray:
        slot = self.slots[i]
        return self.rows_sorted[self.bounds[slot] : self.bounds[slot + 1]]

    def _gain(self, i: int) -> float:
        """Correct weight added by making internal node ``i`` a leaf of the current tree."""
        rows = self._rows(i)
        node, slot = self.internal[i][0], self.slots[i]
        after = np.argmax(leaf_distribution(node)) == self.y[rows]
        several = self.several[rows]
        if several.any():
            saved = self.flat.leaf[slot], self.flat.dist[slot].copy()
            self.flat.leaf[slot], self.flat.dist[slot] = True, leaf_distribution(node)
            picked = rows[several]
            proba = descend(self.flat, picked)
            self.flat.leaf[slot], self.flat.dist[slot] = saved
            after[several] = np.argmax(proba, axis=1) == self.y[picked]
        before = self.now[rows]
        return float(self.w[rows][after & ~before].sum() - self.w[rows][before & ~after].sum())

    def run(self) -> list[Step]:
        steps: list[Step] = []
        alive = np.ones(len(self.internal), dtype=bool)
        n_nodes, n_leaves = int(self.sub_nodes[0]), int(self.sub_leaves[0])
        while alive.any():
            candidates = np.flatnonzero(alive)
            current = self.count / self.total
            trials = (self.count + self.delta[candidates]) / self.total
            k = int(np.argmax(trials))  # the first best in preorder
            if not trials[k] >= current:
                break
            i = int(candidates[k])
            node, path, branches = self.internal[i]
            change = float(self.delta[i])
            node.test, node.children, node.score = None, [], None
            self.flat.leaf[self.slots[i]], self.flat.dist[self.slots[i]] = True, leaf_distribution(node)
            rows = self._rows(i)
            self.now[rows] = self._correct(rows)
            self.count += change
            alive[i : i + self.size[i]] = False
            removed_nodes, removed_leaves = self.sub_nodes[i] - 1, self.sub_leaves[i] - 1
            n_nodes, n_leaves = n_nodes - int(removed_nodes), n_leaves - int(removed_leaves)
            a = self.parent[i]
            ancestors = set()
            while a >= 0:
                self.delta[a] -= change
                self.sub_nodes[a] -= removed_nodes
                self.sub_leaves[a] -= removed_leaves
                ancestors.add(int(a))
                a = self.parent[a]
            for j in self._sharing(rows):  # nodes elsewhere that a several-branch row also reaches
                if alive[j] and j not in ancestors:
                    self.delta[j] = self._gain(j)
            steps.append(Step(path, node.weight, current, float(trials[k]), n_nodes, n_leaves, branches))
        return steps

    def _correct(self, rows: np.ndarray) -> np.ndarray:
        proba = descend(self.flat, rows)
        return np.argmax(proba, axis=1) == self.y[rows]

    def _sharing(self, rows: np.ndarray) -> np.ndarray:
        """Internal nodes reached by the several-branch rows among ``rows``."""
        picked = rows[self.several[rows]]
        if len(picked) == 0:
            return np.zeros(0, dtype=np.int64)
        slots = np.concatenate([self.slots_by_row[self.row_bounds[r] : self.row_bounds[r + 1]] for r in picked])
        found = self.slot_index[np.unique(slots)]
        return found[found >= 0]


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
