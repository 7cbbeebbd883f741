"""C4.5's error-based (pessimistic) pruning with subtree raising, as Weka's J48 does it.

Contract: ``pessimistic_prune(tree, table, cf, raising, bound)`` returns a new
Tree; ``table`` is the training data (needed to redistribute cases when a
subtree is raised). Bottom-up, at every internal node (Quinlan 1993, ch. 4):

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

import copy
from dataclasses import dataclass, field

import numpy as np

from dtcli.induction.backend import compiled_pruning
from dtcli.induction.criteria.bounds import added_errors
from dtcli.induction.criteria.constants import eq, gr, gr_or_eq, sm_or_eq
from dtcli.induction.grow.flat import FlatTree, from_nodes, n_leaves
from dtcli.induction.prune.pessimistic_flat import flat_prune
from dtcli.induction.prune.steps import Step
from dtcli.induction.search.missing import spread
from dtcli.induction.search.numeric import seqsum
from dtcli.model.table import MISSING, Table
from dtcli.model.tree import Node, Tree, majority


@dataclass
class _P:
    node: Node
    data: Table
    bags: np.ndarray | None = None  # J48's split distribution: (branches, classes)
    children: list[_P] = field(default_factory=list)


class _Pruner:
    def __init__(self, cf: float, raising: bool, bound: str):
        self.cf, self.raising, self.bound = cf, raising, bound
        self.steps: list[Step] = []

    def errors(self, counts: np.ndarray) -> float:
        total = float(seqsum(counts))
        if eq(total, 0.0):
            return 0.0
        wrong = total - float(counts.max())
        return wrong + added_errors(total, wrong, self.cf, self.bound)

    def tree_errors(self, p: _P) -> float:
        if not p.children:
            return self.errors(p.data.class_counts())
        return sum(self.tree_errors(c) for c in p.children)

    def branch_errors(self, p: _P, data: Table) -> float:
        if not p.children:
            return self.errors(data.class_counts())
        _, parts = _route(p.node.test, data)
        return sum(self.branch_errors(c, part) for c, part in zip(p.children, parts))

    def prune(self, p: _P, path: str) -> None:
        if not p.children:
            return
        for i, child in enumerate(p.children):
            self.prune(child, f"{path}/{p.node.test.branch_labels()[i]}")
        largest = _max_bag(p.bags)
        branch = self.branch_errors(p.children[largest], p.data) if self.raising else None
        leaf = self.errors(p.data.class_counts())
        tree = self.tree_errors(p)
        if _beats(leaf, tree) and (branch is None or _beats(leaf, branch)):
            self.steps.append(Step(path or "/", float(seqsum(p.data.weights)), leaf, tree, branch, "leaf"))
            p.children, p.bags, p.node.test = [], None, None
            return
        if branch is not None and _beats(branch, tree):
            self.steps.append(
                Step(
                    path or "/",
                    float(seqsum(p.data.weights)),
                    leaf,
                    tree,
                    branch,
                    f"raise {p.node.test.branch_labels()[largest]}",
                )
            )
            raised = p.children[largest]
            p.node.test, p.children, p.bags = raised.node.test, raised.children, raised.bags
            _redistribute(p, p.data)
            self.prune(p, path)
            return
        self.steps.append(Step(path or "/", float(seqsum(p.data.weights)), leaf, tree, branch, "keep"))


def _beats(a: float, b: float) -> bool:
    """J48's rule: ``a`` is no worse than ``b`` with 0.1 to spare."""
    return sm_or_eq(a, b + 0.1)


def _shares(bags: np.ndarray) -> np.ndarray:
    sizes = seqsum(bags, axis=1)
    total = seqsum(sizes)
    return sizes / total if not eq(total, 0.0) else np.full(len(sizes), 1.0 / len(sizes))


def _route(test, data: Table) -> tuple[np.ndarray, list[Table]]:
    """J48's resetDistribution + split: the split's class distribution, cases with a missing
    value spread in proportion to the known ones, and each branch's cases (missing ones with
    their weight multiplied by the branch's share)."""
    old_shares = _known_shares(test, data)
    branch = test.route(data.columns[data.schema.index(test.attribute.name)])
    missing = branch == MISSING
    k = len(data.classes)
    bags = np.zeros((test.n_branches, k))
    for b in range(test.n_branches):
        here = branch == b
        bags[b] = np.bincount(data.y[here], weights=data.weights[here], minlength=k)
    if missing.any():
        unknown = np.bincount(data.y[missing], weights=data.weights[missing], minlength=k)
        bags += np.outer(old_shares, unknown)
    return bags, spread(data, branch, _shares(bags), test.n_branches)


def _known_shares(test, data: Table) -> np.ndarray:
    branch = test.route(data.columns[data.schema.index(test.attribute.name)])
    known = branch != MISSING
    sizes = np.bincount(branch[known], weights=data.weights[known], minlength=test.n_branches)
    total = seqsum(sizes)
    return sizes / total if not eq(total, 0.0) else np.full(test.n_branches, 1.0 / test.n_branches)


def _build(node: Node, data: Table) -> _P:
    p = _P(node, data)
    if node.is_leaf:
        return p
    p.bags, parts = _route(node.test, data)
    p.children = [_build(child, part) for child, part in zip(node.children, parts)]
    return p


def _redistribute(p: _P, data: Table) -> None:
    """J48's newDistribution: send ``data`` down ``p``'s (raised) subtree."""
    p.data = data
    if not p.children:
        return
    p.bags, parts = _route(p.node.test, data)
    for child, part in zip(p.children, parts):
        _redistribute(child, part)


def _max_bag(bags: np.ndarray) -> int:
    """J48's maxBag: the heaviest branch, the last one on ties."""
    best, top = -1, 0.0
    for i, size in enumerate(seqsum(bags, axis=1)):
        if gr_or_eq(size, top):
            best, top = i, size
    return best


def _to_nodes(p: _P) -> Node:
    """Rebuild Nodes; a child's counts are its row of the parent's split distribution (as J48 prints)."""
    node = p.node
    if not p.children:
        node.test, node.children = None, []
        return node
    node.children = []
    for row, child in zip(p.bags, p.children):
        built = _to_nodes(child)
        built.counts = row.copy()
        built.label = majority(row) if gr(row.sum(), 0.0) else majority(p.bags.sum(axis=0))
        node.children.append(built)
    return node


def pessimistic_prune(
    tree: Tree,
    table: Table,
    cf: float = 0.25,
    raising: bool = True,
    bound: str = "j48",
    in_place: bool = False,
    flat: FlatTree | None = None,
    record: bool = True,
    engine: str = "auto",
) -> tuple[Tree, list[Step]]:
    """A pruned copy of ``tree`` (trained on ``table``) and the decisions taken, bottom-up.

    With ``in_place`` the given tree's nodes are reused (and changed) instead of copied.
    ``flat``: the tree as the level-wise engine grew it (``tree.root`` is then not used).
    Large tables are pruned by the compiled kernels (``pessimistic_flat``) as ``backend`` decides
    for the request ``engine`` (auto, reference, compiled), with the same result; there,
    ``record=False`` skips listing the decisions (the steps are then empty).
    """
    if flat is None:
        original_leaves = tree.root.n_leaves()
        root = tree.root if in_place else copy.deepcopy(tree.root)
        flat = from_nodes(root, table.attributes) if compiled_pruning(table, engine) else None
    else:
        original_leaves = n_leaves(flat)
    done = flat_prune(flat, table, cf, raising, bound, record) if flat is not None else None
    if done is None and flat is not None and flat.nodes is None:
        root = flat.to_nodes()  # no compiler here after all: the reference does it
    if done is not None:
        pruned_root, steps = done
    else:
        data = table.take(table.labelled())
        p = _build(root, data)
        pruner = _Pruner(cf, raising, bound)
        pruner.prune(p, "")
        pruned_root = _to_nodes(p)
        pruned_root.counts = p.data.class_counts()
        pruned_root.label = majority(pruned_root.counts)
        steps = pruner.steps
    parameters = dict(tree.parameters)
    parameters["pruning"] = {
        "method": "pessimistic",
        "cf": cf,
        "raising": raising,
        "error_bound": bound,
        "original_leaves": original_leaves,
    }
    return Tree(tree.schema, pruned_root, tree.algorithm, parameters, dict(tree.training)), steps
