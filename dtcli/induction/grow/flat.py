"""A tree as arrays, for trees too large to handle node by node in Python.

Contract: a ``FlatTree`` holds one entry per node *slot*; the children of a
node are ``nb`` consecutive slots from ``cstart`` (a parent's slot is below
its children's). The level-wise engine grows one directly; ``from_nodes``
lays out a Node tree the same way. ``collapse`` is ``prune/collapse.py`` on the
arrays; ``to_nodes`` makes the Node tree (the model file, printing and
prediction work on Nodes) for the slots still reachable from the root.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from dtcli.induction.search.numeric import seqsum
from dtcli.model.table import Attribute
from dtcli.model.tree import Node, NominalTest, NumericTest, without_gc


@dataclass
class FlatTree:
    attributes: tuple[Attribute, ...]
    attr: np.ndarray  # attribute index of the test, -1 for a leaf
    thr: np.ndarray  # threshold of a numeric test
    nb: np.ndarray  # number of branches
    cstart: np.ndarray  # slot of the first child
    counts: np.ndarray  # (slots, classes) training class weights
    label: np.ndarray
    score: np.ndarray  # the split's score (NaN: none)
    tests: list | None = None  # Test objects by slot, when laid out from Nodes
    nodes: list | None = None  # the Nodes it was laid out from (reused by to_nodes)
    value: np.ndarray | None = None  # regression: each node's mean target
    impurity: np.ndarray | None = None  # regression: each node's mean squared error
    grafts: dict | None = None  # leaf slot -> Graft: a subtree grown, collapsed and pruned elsewhere

    @property
    def n_slots(self) -> int:
        return len(self.attr)

    def test(self, slot: int):
        if self.tests is not None:
            return self.tests[slot]
        attribute = self.attributes[int(self.attr[slot])]
        if attribute.is_nominal:
            return NominalTest(attribute)
        return NumericTest(attribute, float(self.thr[slot]))

    def to_nodes(self) -> Node:
        """The Node tree of the slots reachable from the root (slot 0), made with the collector paused."""
        with without_gc():
            return self._made()

    def _made(self) -> Node:
        attr, cstart, nb = self.attr.tolist(), self.cstart.tolist(), self.nb.tolist()  # plain ints: fast
        scores = self.score.tolist()
        order = [0]
        i = 0
        while i < len(order):  # breadth first: every reachable slot once
            slot = order[i]
            i += 1
            if attr[slot] >= 0:
                order.extend(range(cstart[slot], cstart[slot] + nb[slot]))
        labels = self.label.tolist() if self.nodes is None else None
        rows = list(self.counts) if labels is not None else None  # every row's view at once
        means = None if self.value is None else self.value.tolist()
        errors = None if self.impurity is None else self.impurity.tolist()
        grafts = self.grafts or {}
        made: list = [None] * len(attr)  # by slot: its Node
        for slot in order:
            if slot in grafts:  # (a leaf here) the subtree grown below it, as pruned where it grew
                made[slot] = grafts[slot].root
                continue
            node = self.nodes[slot] if labels is None else Node(rows[slot], labels[slot])
            if means is not None:
                node.value, node.impurity = means[slot], errors[slot]
            node.score = None if scores[slot] != scores[slot] else scores[slot]  # NaN: no score
            made[slot] = node
        test = self.test if self.tests is None else self.tests.__getitem__
        for slot in order:
            if slot in grafts:
                continue
            node = made[slot]
            if attr[slot] >= 0:
                node.test = test(slot)
                node.children = made[cstart[slot] : cstart[slot] + nb[slot]]
            else:
                node.test, node.children = None, []
        return made[0]


def from_nodes(root: Node, attributes: tuple[Attribute, ...]) -> FlatTree | None:
    """``root``'s tree laid out breadth first, or None if a test is neither nominal nor numeric
    (CART's subsets) or a node is a regression node."""
    nodes, starts = [root], []
    i = 0
    while i < len(nodes):
        node = nodes[i]
        if node.value is not None or (node.test is not None and not isinstance(node.test, (NominalTest, NumericTest))):
            return None
        starts.append(len(nodes))
        nodes.extend(node.children)
        i += 1
    names = {a.name: j for j, a in enumerate(attributes)}
    tests = [node.test for node in nodes]
    return FlatTree(
        attributes=attributes,
        attr=np.array([-1 if t is None else names[t.attribute.name] for t in tests], dtype=np.int64),
        thr=np.array([t.threshold if isinstance(t, NumericTest) else 0.0 for t in tests]),
        nb=np.array([0 if t is None else t.n_branches for t in tests], dtype=np.int64),
        cstart=np.array(starts, dtype=np.int64),
        counts=np.array([node.counts for node in nodes], dtype=np.float64),
        label=np.array([node.label for node in nodes], dtype=np.int64),
        score=np.array([np.nan if node.score is None else node.score for node in nodes]),
        tests=tests,
        nodes=nodes,
    )


class Graft(NamedTuple):
    """A subtree that stands at a leaf slot of a FlatTree (the Dask engine grows and prunes the
    last levels on its workers: ``distributed/finish.py``): the training errors of its leaves as
    grown (what ``collapse`` weighs above it), its leaves after collapsing, and its pruned root."""

    errors: float
    leaves: int
    root: Node


def subtree_errors(flat: FlatTree) -> np.ndarray:
    """Each slot's training errors: a leaf's cases not of its class; a split's, its children's
    summed (a graft's: as it grew)."""
    leaf_errors = seqsum(flat.counts, axis=1) - flat.counts.max(axis=1)
    errors = leaf_errors.copy()
    for slot, graft in (flat.grafts or {}).items():
        errors[slot] = graft.errors
    internal = np.flatnonzero(flat.attr >= 0)
    for slot in internal[::-1]:  # children sit in later slots: bottom up
        total = 0
        for child in range(int(flat.cstart[slot]), int(flat.cstart[slot] + flat.nb[slot])):
            total += errors[child]
        errors[slot] = total
    return errors


def collapse(flat: FlatTree, roots=(0,)) -> FlatTree:
    """``prune/collapse.py`` on the arrays: top down from each of ``roots``, a subtree whose leaves
    misclassify no fewer training cases than a leaf in its place would (within 1e-3) becomes that
    leaf (a graft's leaves counted as grown)."""
    leaf_errors = seqsum(flat.counts, axis=1) - flat.counts.max(axis=1)
    errors = subtree_errors(flat)
    internal = np.flatnonzero(flat.attr >= 0)
    reach = np.zeros(flat.n_slots, dtype=bool)
    reach[list(roots)] = True
    for slot in internal:  # parents first: top down
        if not reach[slot]:
            continue
        if errors[slot] >= leaf_errors[slot] - 1e-3:
            flat.attr[slot] = -1
            flat.score[slot] = np.nan
            continue
        reach[flat.cstart[slot] : flat.cstart[slot] + flat.nb[slot]] = True
    return flat


def n_leaves(flat: FlatTree) -> int:
    """Leaves reachable from the root (a graft's: its leaves as collapsed, before pruning)."""
    count, stack = 0, [0]
    grafts = flat.grafts or {}
    while stack:
        slot = stack.pop()
        if slot in grafts:
            count += grafts[slot].leaves
        elif flat.attr[slot] < 0:
            count += 1
        else:
            stack.extend(range(int(flat.cstart[slot]), int(flat.cstart[slot] + flat.nb[slot])))
    return count


def best_first(flat: FlatTree, gain: np.ndarray, max_leaves: int) -> list[int]:
    """The tree ``grow/grower.py`` grows best first (``--max-leaves``), from the fully grown one: a node's
    split does not depend on the others, so expanding nodes in the per-node grower's order (the
    largest weight times information gain first, ties to the node queued first, children queued
    last branch first) and skipping a split that would exceed ``max_leaves`` leaves the same
    nodes split. The others become leaves (in place). Returns the split nodes in the order they
    were expanded."""
    attr, cstart, nb = flat.attr.tolist(), flat.cstart.tolist(), flat.nb.tolist()
    expanded = np.zeros(flat.n_slots, dtype=bool)
    order_expanded = []
    frontier = [(0.0, 0, 0)] if attr[0] >= 0 else []
    leaves, order = 1, 0
    while frontier:
        _, _, slot = heapq.heappop(frontier)
        if leaves + nb[slot] - 1 > max_leaves:
            continue
        expanded[slot] = True
        order_expanded.append(slot)
        leaves += nb[slot] - 1
        for child in reversed(range(cstart[slot], cstart[slot] + nb[slot])):
            weight = float(flat.counts[child].sum())
            if weight <= 0 or attr[child] < 0:  # no rows, or no split to make
                continue
            order += 1
            heapq.heappush(frontier, (-weight * float(gain[child]), order, child))
    unexpanded = (flat.attr >= 0) & ~expanded
    flat.attr[unexpanded] = -1
    flat.score[unexpanded] = np.nan
    return order_expanded


def subtree(flat: FlatTree, slot: int) -> FlatTree:
    """The slots reachable from ``slot`` as a FlatTree of their own, ``slot`` its root (breadth first)."""
    order, starts, i = [slot], [], 0
    while i < len(order):
        at = order[i]
        i += 1
        starts.append(len(order))
        if flat.attr[at] >= 0:
            order.extend(range(int(flat.cstart[at]), int(flat.cstart[at] + flat.nb[at])))
    taken = np.array(order, dtype=np.int64)
    attr = flat.attr[taken].copy()
    return FlatTree(
        attributes=flat.attributes,
        attr=attr,
        thr=flat.thr[taken].copy(),
        nb=np.where(attr >= 0, flat.nb[taken], 0),
        cstart=np.array(starts, dtype=np.int64),
        counts=flat.counts[taken].copy(),
        label=flat.label[taken].copy(),
        score=flat.score[taken].copy(),
    )
