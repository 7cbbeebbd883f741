"""Kept counts for reduced-error pruning: which rows a tree classifies correctly, updated as nodes become leaves.

Contract: ``internal_nodes(root)`` lists the internal nodes in preorder with
their paths (a chain, see ``steps``), no recursion. ``Kept(tree, table,
internal)`` predicts the labelled rows of ``table`` once and then keeps, as
``prune(i)`` makes internal node ``i`` a leaf, which of them the tree gets
right and their weight (``count``). The rows reaching a node are found from
the leaves each row reached in the full tree, in preorder: the rows whose
leaf lies in the node's preorder interval, so the memory is a record a row
(a few a row with a missing value), whatever the depth. A row that followed
one path takes the new leaf's class; a row that went down several branches
(missing values) is predicted again, its own sums as ``predict`` adds them.
A row with a missing value at a wide split of leaves, which ``predict`` gives
the leaves' mixture at once, counts as reaching that split: its class then
depends on that node alone, as a row's that stops at a leaf.
Counts are exact when the weights are whole numbers (``whole``).
"""

from __future__ import annotations

import numpy as np

from dtcli.induction.predict.apply import descend, layout, leaf_distribution
from dtcli.model.table import Table
from dtcli.model.tree import Node, Tree


def internal_nodes(root: Node) -> list[tuple[Node, object]]:
    """Internal nodes in preorder with their paths: chains ``(parent chain, (label, branch))``, None for the root."""
    out = []
    stack = [(root, None)]
    while stack:
        node, chain = stack.pop()
        if node.is_leaf:
            continue
        out.append((node, chain))
        labels = node.test.branch_labels()
        stack.extend((node.children[i], (chain, (labels[i], i))) for i in range(len(node.children) - 1, -1, -1))
    return out


def subtree_sizes(internal: list) -> np.ndarray:
    """For ``internal_nodes``' list: the internal nodes in each one's subtree, itself included
    (its subtree is ``internal[i : i + size[i]]``)."""
    index_of = {id(node): i for i, (node, _) in enumerate(internal)}
    size = np.ones(len(internal), dtype=np.int64)
    for i in range(len(internal) - 1, -1, -1):
        for child in internal[i][0].children:
            if not child.is_leaf:
                size[i] += size[index_of[id(child)]]
    return size


def whole(table: Table) -> bool:
    """Whether the labelled rows' weights are whole numbers whose sum floats hold exactly."""
    weights = table.weights[table.labelled()]
    return bool(np.all(weights == np.floor(weights))) and float(weights.sum()) < 2.0**52


class Kept:
    """The labelled rows of ``table`` under ``tree`` as its internal nodes (``internal``, in
    preorder) become leaves: ``now`` (each row classified correctly), ``count`` (their weight)."""

    def __init__(self, tree: Tree, table: Table, internal: list):
        self.table, self.internal = table, internal
        self.flat = layout(tree, table)
        self._preorder(tree.root)
        known = np.flatnonzero(table.labelled())
        reached: list = []
        proba = descend(self.flat, known, reached)
        self.now = np.zeros(table.n_rows, dtype=bool)
        self.now[known] = np.argmax(proba, axis=1) == table.y[known]
        rec_rows = np.concatenate([r for r, *_ in reached]) if reached else np.zeros(0, dtype=np.int64)
        rec_slots = np.concatenate([s for _, s, _ in reached]) if reached else np.zeros(0, dtype=np.int64)
        self.several = np.bincount(rec_rows, minlength=table.n_rows) > 1  # rows that reached several leaves
        rec_pre = self.pre[rec_slots]
        by_pre = np.argsort(rec_pre, kind="stable")
        self.pre_sorted, self.rows_by_pre = rec_pre[by_pre], rec_rows[by_pre]
        self.several_before = np.concatenate([[0], np.cumsum(self.several[self.rows_by_pre])])
        many = self.several[rec_rows]  # the leaves of the several-branch rows, by row
        by_row = np.argsort(rec_rows[many], kind="stable")
        self.leaves_of = rec_slots[many][by_row]
        self.leaf_bounds = np.searchsorted(rec_rows[many][by_row], np.arange(table.n_rows + 1))
        self.w, self.y = table.weights, table.y
        self.total = float(table.weights[known].sum())
        self.count = float(self.w[self.now].sum())

    def _preorder(self, root: Node) -> None:
        """Each slot's preorder number (``pre``), one past its subtree's (``end``), its parent
        slot (``parent``), and each internal node's slot (``slots``) and its inverse."""
        slot_of = {id(node): slot for slot, node in enumerate(self.flat.nodes)}
        n = len(self.flat.nodes)
        self.pre = np.zeros(n, dtype=np.int64)
        self.end = np.zeros(n, dtype=np.int64)
        self.parent = np.full(n, -1, dtype=np.int64)
        counter = 0
        stack = [(root, False)]
        while stack:
            node, done = stack.pop()
            slot = slot_of[id(node)]
            if done:
                self.end[slot] = counter
                continue
            self.pre[slot] = counter
            counter += 1
            stack.append((node, True))
            for child in reversed(node.children):
                self.parent[slot_of[id(child)]] = slot
                stack.append((child, False))
        self.slots = np.array([slot_of[id(node)] for node, _ in self.internal], dtype=np.int64)
        self.slot_index = np.full(n, -1, dtype=np.int64)
        self.slot_index[self.slots] = np.arange(len(self.internal))

    def rows(self, i: int) -> np.ndarray:
        """The labelled rows reaching internal node ``i`` (each once)."""
        slot = self.slots[i]
        lo, hi = np.searchsorted(self.pre_sorted, (self.pre[slot], self.end[slot]))
        rows = self.rows_by_pre[lo:hi]
        return np.unique(rows) if self.several_before[hi] > self.several_before[lo] else rows

    def correct_if_leaf(self, i: int, rows: np.ndarray) -> np.ndarray:
        """Whether each of ``rows`` (reaching node ``i``) would be classified correctly were ``i`` a leaf."""
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
        return after

    def prune(self, i: int) -> np.ndarray:
        """Make internal node ``i`` a leaf (of its training distribution); returns the rows reaching it."""
        rows = self.rows(i)
        after = self.correct_if_leaf(i, rows)
        slot = self.slots[i]
        self.flat.leaf[slot], self.flat.dist[slot] = True, leaf_distribution(self.internal[i][0])
        before = self.now[rows]
        self.count += float(self.w[rows][after & ~before].sum() - self.w[rows][before & ~after].sum())
        self.now[rows] = after
        return rows

    def sharing(self, rows: np.ndarray) -> np.ndarray:
        """Internal nodes reached by the several-branch rows among ``rows`` (the ancestors of
        their leaves), in slot order."""
        seen = np.zeros(len(self.flat.nodes), dtype=bool)
        for r in rows[self.several[rows]].tolist():
            for slot in self.leaves_of[self.leaf_bounds[r] : self.leaf_bounds[r + 1]].tolist():
                slot = int(self.parent[slot])
                while slot >= 0 and not seen[slot]:
                    seen[slot] = True
                    slot = int(self.parent[slot])
        found = self.slot_index[np.flatnonzero(seen)]
        return found[found >= 0]
