"""The reference of C4.5's error-based (pessimistic) pruning with subtree raising, as Weka's J48 does it.

Contract: ``prune_cases(root, data, holder, cf, raising, bound)`` prunes the tree at
``root`` on its training cases ``data`` (needed to redistribute cases when a subtree is
raised), read through ``holder`` (``TableCases`` for a Table; the Dask engine holds them
on its cluster): the pruned root and the decisions. ``pessimistic.py`` chooses between it
and the compiled kernels. Bottom-up, at every internal node (Quinlan 1993, ch. 4):

- E(leaf): the errors a leaf here would make, ``e + added_errors(N, e)``;
- E(tree): the sum of the estimates of the subtree's leaves;
- E(branch): the estimate if the largest branch replaced the node, with all
  of the node's cases sent down it (subtree raising; off with ``raising``).

The node becomes a leaf if E(leaf) <= E(tree) + 0.1 and E(leaf) <= E(branch)
+ 0.1; otherwise, if E(branch) <= E(tree) + 0.1, the largest branch replaces
it, its cases are redistributed, and the node is pruned again. (0.1 and
Weka's 1e-6 tolerance are J48's.) Missing values are spread as J48 spreads
them. Each decision is recorded as a trace step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from dtcli.induction.criteria.bounds import added_errors
from dtcli.induction.criteria.constants import eq, gr, gr_or_eq, sm_or_eq
from dtcli.induction.prune.pessimistic.steps import Step
from dtcli.induction.search.missing import spread_positions
from dtcli.induction.search.numeric import seqsum
from dtcli.model.table import MISSING, Table
from dtcli.model.tree import Node, Tree, majority


class Cases(NamedTuple):
    """Cases as ``TableCases`` holds them: positions of rows of its table, in order, and their weights
    (fractional where a missing value was spread). No columns are copied: a test reads its own."""

    rows: np.ndarray
    weights: np.ndarray


class TableCases:
    """How the pruning reads the cases of a Table (its labelled rows, weighted); another holder (the Dask
    engine's ``distributed/prune.py``) offers the same methods on cases it keeps elsewhere.
    ``grid``: fractional weights on ``constants.on_grid`` (grown with ``--max-bins``: ``params.fraction_grid``).
    ``root``: all of them, the cases of the tree's root."""

    def __init__(self, table: Table, grid: bool = False):
        self.table, self.grid = table, grid
        self.classes = len(table.classes)
        rows = np.flatnonzero(table.labelled())
        self.root = Cases(rows, table.weights[rows])

    def counts(self, cases: Cases) -> np.ndarray:
        return np.bincount(self.table.y[cases.rows], weights=cases.weights, minlength=self.classes).astype(np.float64)

    @staticmethod
    def size(cases: Cases) -> float:
        return float(seqsum(cases.weights))

    def route(self, test, cases: Cases) -> tuple[np.ndarray, list]:
        """J48's resetDistribution + split: the split's class distribution, cases with a missing
        value spread in proportion to the known ones, and each branch's cases (missing ones with
        their weight multiplied by the branch's share; on the grid with ``grid``)."""
        table = self.table
        branch = test.route(table.columns[table.schema.index(test.attribute.name)][cases.rows])
        missing = branch == MISSING
        known = ~missing
        old_shares = shares_of(np.bincount(branch[known], weights=cases.weights[known], minlength=test.n_branches))
        y, k = table.y[cases.rows], self.classes
        bags = np.zeros((test.n_branches, k))
        for b in range(test.n_branches):
            here = branch == b
            bags[b] = np.bincount(y[here], weights=cases.weights[here], minlength=k)
        if missing.any():
            unknown = np.bincount(y[missing], weights=cases.weights[missing], minlength=k)
            bags += np.outer(old_shares, unknown)
        parts = spread_positions(cases.weights, branch, shares_of(seqsum(bags, axis=1)), test.n_branches, self.grid)
        return bags, [Cases(cases.rows[positions], weights) for positions, weights in parts]

    @staticmethod
    def watch(top) -> None:
        """The pruning's working tree, once built (nodes with ``node.test``, ``children``, ``data``, ``bags``),
        for a holder that fetches counts ahead; a Table has them at hand."""


@dataclass
class _P:
    node: Node
    data: object  # the cases reaching the node, as the Pruner's ``cases`` holds them (``Cases`` for a Table)
    bags: np.ndarray | None = None  # J48's split distribution: (branches, classes)
    children: list[_P] = field(default_factory=list)
    estimate: float = 0.0  # the subtree's estimated errors (E(tree); E(leaf) for a leaf), once pruned


class _Pruner:
    def __init__(self, cf: float, raising: bool, bound: str, cases):
        self.cf, self.raising, self.bound, self.cases = cf, raising, bound, cases
        self.steps: list[Step] = []

    def errors(self, counts: np.ndarray) -> float:
        return estimated_errors(counts, self.cf, self.bound)

    def branch_errors(self, p: _P, data) -> float:
        """E(branch): the estimate if ``data`` went down ``p``'s subtree, summed as J48 sums it
        (each node adds its children's estimates in branch order), with a stack."""
        stack = [(p, data, None, [])]  # (node, its cases, its branches' cases, their estimates so far)
        while True:
            q, cases, parts, below = stack[-1]
            if not q.children:
                value = self.errors(self.cases.counts(cases))
            elif parts is None:
                parts = self.cases.route(q.node.test, cases)[1]
                stack[-1] = (q, cases, parts, below)
                stack.append((q.children[0], parts[0], None, []))
                continue
            elif len(below) < len(q.children):
                stack.append((q.children[len(below)], parts[len(below)], None, []))
                continue
            else:
                value = sum(below)
            stack.pop()
            if not stack:
                return value
            stack[-1][3].append(value)

    def prune(self, root: _P) -> None:
        """Bottom-up, each node once its children are done; a node whose largest branch was
        raised in its place is pruned again, its new children first (J48's recursion, with a
        stack). A node's path is a chain of branch labels (``steps``)."""
        stack = [(root, None, 0, None)]  # (node, its path, next child to prune, its branch labels)
        while stack:
            p, path, i, labels = stack.pop()
            if not p.children:
                p.estimate = self.errors(self.cases.counts(p.data))
                continue
            labels = labels or p.node.test.branch_labels()
            if i < len(p.children):
                stack.append((p, path, i + 1, labels))
                stack.append((p.children[i], (path, labels[i]), 0, None))
            elif self.decide(p, path, labels):
                stack.append((p, path, 0, None))

    def decide(self, p: _P, path, labels: list[str]) -> bool:
        """Leaf, raise or keep ``p`` (its children pruned); True if its largest branch was raised."""
        largest = max_bag(p.bags)
        branch = self.branch_errors(p.children[largest], p.data) if self.raising else None
        leaf = self.errors(self.cases.counts(p.data))
        tree = sum(child.estimate for child in p.children)
        cases = self.cases.size(p.data)
        if _beats(leaf, tree) and (branch is None or _beats(leaf, branch)):
            self.steps.append(Step(path, cases, leaf, tree, branch, "leaf"))
            p.children, p.bags, p.node.test = [], None, None
            p.estimate = leaf
            return False
        if branch is not None and _beats(branch, tree):
            self.steps.append(Step(path, cases, leaf, tree, branch, f"raise {labels[largest]}"))
            raised = p.children[largest]
            p.node.test, p.children, p.bags = raised.node.test, raised.children, raised.bags
            p.node.score = None  # (the raised test was chosen, and scored, on its own node's cases)
            _redistribute(p, p.data, self.cases)
            return True
        self.steps.append(Step(path, cases, leaf, tree, branch, "keep"))
        p.estimate = tree
        return False


def estimated_errors(counts: np.ndarray, cf: float, bound: str) -> float:
    """E(leaf) of a leaf holding ``counts``: its errors plus ``added_errors`` (0 for no cases)."""
    total = float(seqsum(counts))
    if eq(total, 0.0):
        return 0.0
    wrong = total - float(counts.max())
    return wrong + added_errors(total, wrong, cf, bound)


def _beats(a: float, b: float) -> bool:
    """J48's rule: ``a`` is no worse than ``b`` with 0.1 to spare."""
    return sm_or_eq(a, b + 0.1)


def shares_of(sizes: np.ndarray) -> np.ndarray:
    """Each branch's share of the branches' total weight, summed in order as J48 sums it (equal shares
    when the total is 0): the distribution J48 splits a case with a missing value by."""
    total = seqsum(sizes)
    return sizes / total if not eq(total, 0.0) else np.full(len(sizes), 1.0 / len(sizes))


def _build(node: Node, data, holder) -> _P:
    """The pruning's view of the tree: each node with the training cases reaching it."""
    top = _P(node, data)
    stack = [top]
    while stack:
        p = stack.pop()
        if p.node.is_leaf:
            continue
        p.bags, parts = holder.route(p.node.test, p.data)
        p.children = [_P(child, part) for child, part in zip(p.node.children, parts)]
        stack.extend(p.children)
    return top


def _redistribute(p: _P, data, holder) -> None:
    """J48's newDistribution: send ``data`` down ``p``'s (raised) subtree."""
    stack = [(p, data)]
    while stack:
        q, cases = stack.pop()
        q.data = cases
        if q.children:
            q.bags, parts = holder.route(q.node.test, cases)
            stack.extend(zip(q.children, parts))


def max_bag(bags: np.ndarray) -> int:
    """J48's maxBag: the heaviest branch, the last one on ties."""
    best, top = -1, 0.0
    for i, size in enumerate(seqsum(bags, axis=1)):
        if gr_or_eq(size, top):
            best, top = i, size
    return best


def _to_nodes(p: _P) -> Node:
    """Rebuild Nodes; a child's counts are its row of the parent's split distribution (as J48 prints)."""
    stack = [p]
    while stack:
        q = stack.pop()
        node = q.node
        if not q.children:
            node.test, node.children = None, []
            continue
        node.children = []
        for row, child in zip(q.bags, q.children):
            built = child.node
            built.counts = row.copy()
            built.label = majority(row) if gr(row.sum(), 0.0) else majority(q.bags.sum(axis=0))
            node.children.append(built)
        stack.extend(q.children)
    return p.node


def prune_cases(root: Node, data, holder, cf: float, raising: bool, bound: str) -> tuple[Node, list[Step]]:
    """The reference pruning of the tree at ``root`` (its Nodes reused) on the training cases ``data``
    (``holder.root``), read through ``holder`` (a ``TableCases`` for a Table): the pruned root and the decisions."""
    p = _build(root, data, holder)
    holder.watch(p)
    pruner = _Pruner(cf, raising, bound, holder)
    pruner.prune(p)
    pruned_root = _to_nodes(p)
    pruned_root.counts = holder.counts(p.data)
    pruned_root.label = majority(pruned_root.counts)
    return pruned_root, pruner.steps


def pruned_tree(tree: Tree, root: Node, cf: float, raising: bool, bound: str, original_leaves: int) -> Tree:
    """``tree`` with its pruned ``root``, the pruning's settings in its parameters."""
    parameters = dict(tree.parameters)
    parameters["pruning"] = {
        "method": "pessimistic",
        "cf": cf,
        "raising": raising,
        "error_bound": bound,
        "original_leaves": original_leaves,
    }
    return Tree(tree.schema, root, tree.algorithm, parameters, dict(tree.training))
