"""Tree growth: top-down recursive partitioning (Quinlan 1986, 1993; Mitchell Table 3.1).

Contract: ``grow(table, params)`` returns the root Node of a tree built on
the rows of ``table`` whose class is known; it never modifies the table.
Each node holds its own rows as a Table whose weights may be fractional.

1. A node is a leaf (majority class, first in order on ties) when it is
   pure, when no attribute is left, or when a stopping rule holds.
2. Otherwise the algorithm's selector (ID3 here, C4.5 in ``c45``) picks a
   split; none, or one that does not improve the criterion by more than
   ``min_gain``, makes a leaf.
3. The rows go down the branches. A branch without cases gets a leaf
   labelled with this node's majority class. A row whose tested value is
   missing goes down every branch with its weight split in proportion to
   the known cases (``missing="fractional"``, C4.5); ``majority`` and
   ``class-majority`` fill the node's missing values in from the node's rows
   (Mitchell §3.7.4), choose the split on the filled rows and send each row
   down the branch of its filled value, its other values still missing
   (``root-majority``, ``root-class-majority``: filled once before growth).
4. Nodes are expanded first in, first out; with ``max_leaves``, the node
   whose split gains most first (weight x CART's decrease of its criterion, as
   scikit-learn's best-first builder ranks them, or x the information gain),
   until the budget is spent.

A growth may be given a ``Watch`` (``backend.grow_watched``): past its deadline the grower asks
whether to give up, and raises ``Overdue`` if so (a compiled engine then grows the same tree).
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from dtcli.induction.criteria.chisquare import ChiStep, chi_square
from dtcli.induction.criteria.constants import GAIN_TOLERANCE
from dtcli.induction.params import GrowParams
from dtcli.induction.search.c45 import Choice, Thresholds, c45_choose, placed
from dtcli.induction.search.cart import cart_choose
from dtcli.induction.search.choice import choose
from dtcli.induction.search.missing import fill_missing, filled_at_root, partition
from dtcli.induction.search.regression import node_stats, regression_choose
from dtcli.induction.search.split import candidates
from dtcli.induction.search.ties import SklearnOrder
from dtcli.model.table import Table
from dtcli.model.tree import Node, NominalTest, majority

if TYPE_CHECKING:  # (the narration loads only for a traced growth)
    from dtcli.induction.grow.narrate import GrowStep, Narrator

# A split must gain more than GAIN_TOLERANCE (on top of --min-gain); Weka's Id3 uses the same 1e-6.
# A regression node whose mean squared error is at most this is pure (as scikit-learn).
EPSILON = float(np.finfo(np.float64).eps)


class Grower:
    """The reference's split decision at one node: stopping rules, the split search, and
    whether the split improves enough (also used by the level-wise engine's ID3)."""

    def __init__(self, table: Table, params: GrowParams):
        self.params = params
        self.thresholds = Thresholds(table, params.thresholds or "midpoint")
        self.n_classes = len(table.classes)
        self.n_all = table.n_rows
        self.sklearn = None
        self.trace: list[ChiStep] = []
        self.narrator: Narrator | None = None  # set when growth is traced (grow/narrate.py)
        if params.algorithm == "cart" and params.ties == "sklearn":
            self.sklearn = SklearnOrder(len(table.attributes), params.seed)

    def decide(self, item: _Pending) -> Choice | None:
        """The split to make at a pending node (None: it stays a leaf); stores it on the item."""
        node, rows, p = item.node, item.rows, self.params
        if rows.is_regression:
            if self.stops_regression(node, item.available, item.depth):
                return self.leaf(item, "stop")
        elif self.stops(node.counts, item.available, item.depth):
            return self.leaf(item, "stop")
        if p.algorithm == "cart" and node.weight < 2 * (p.min_leaf or 1.0):
            return self.leaf(item, "min-leaf")
        if p.algorithm != "cart":
            item.filled = rows = fill_missing(rows, p.missing)  # (per-node policies; else rows itself)
        order = None
        if self.sklearn is not None:  # best first, scikit-learn knows no constant attribute at a node
            known = 0 if p.max_leaves is not None else item.n_constant  # (BestFirstTreeBuilder: 0 each)
            order, item.n_constant = self.sklearn.visit(rows, known)
        choice = self.choose(rows, item.available, order)
        if choice is None or not self.improves(choice):
            return self.leaf(item, "no-split" if choice is None else "min-gain", choice)
        if p.chi2_alpha is not None and not self.significant(rows, choice, item.depth):
            return self.leaf(item, "not-significant", choice)
        item.choice = choice
        if self.narrator is not None:
            self.narrator.split(item, choice)
        return choice

    def leaf(self, item: _Pending, reason: str, choice: Choice | None = None) -> None:
        """``item`` stays a leaf (the trace, if any, records why)."""
        if self.narrator is not None:
            self.narrator.leaf(item, reason, choice)

    def significant(self, rows: Table, choice: Choice, depth: int) -> bool:
        """Chi-square pre-pruning: is the split's association with the class significant?"""
        test = choice.test
        branch = test.route(rows.columns[rows.schema.index(test.attribute.name)])
        known = branch >= 0
        counts = np.zeros((test.n_branches, len(rows.classes)))
        np.add.at(counts, (branch[known], rows.y[known]), rows.weights[known])
        statistic, df, p_value = chi_square(counts)
        keep = p_value < self.params.chi2_alpha
        self.trace.append(
            ChiStep(
                depth,
                float(rows.weights.sum()),
                test.attribute.name,
                statistic,
                df,
                p_value,
                "split" if keep else "leaf",
            )
        )
        return keep

    def choose(self, node: Table, available: list[int], order: list[int] | None = None) -> Choice | None:
        p = self.params
        if node.is_regression:
            return regression_choose(node, p.min_leaf or 1.0, order)
        if p.algorithm == "cart":
            return cart_choose(node, p.criterion, p.min_leaf or 1.0, order=order)
        if p.algorithm == "c45":
            return c45_choose(node, p.min_leaf or 2.0, p.criterion, self.thresholds, self.n_all, p.costs)
        found = candidates(node, available, p.criterion, p.thresholds, p.min_leaf)
        rule = p.criterion
        if p.costs is not None:
            for c in found:
                c.score = p.costs.score(c.gain, p.costs.cost(node.attributes[c.attribute].name))
            rule = "gain"  # the cost measure replaces the criterion (and Quinlan's rule)
        best = choose(found, rule)
        if best is None:
            return None
        return placed(Choice(best.test, best.score, best.gain), self.thresholds, node)

    def stops(self, counts: np.ndarray, available: list[int], depth: int) -> bool:
        return stops(self.params, counts, bool(available), depth)

    def stops_regression(self, node: Node, available: list[int], depth: int) -> bool:
        """Regression: a leaf when the targets are all equal or a stopping rule holds."""
        p = self.params
        if node.weight <= 0 or node.impurity <= EPSILON or not available:
            return True
        if p.max_depth is not None and depth >= p.max_depth:
            return True
        return node.weight < p.min_split

    def improves(self, choice: Choice) -> bool:
        p = self.params
        improvement = choice.score if p.criterion == "gini" and p.costs is None else choice.gain
        if p.algorithm == "cart":  # like scikit-learn, a split that decreases nothing is still made
            return choice.score >= p.min_gain - 1e-12
        if p.algorithm == "c45":
            return p.min_gain <= 0 or improvement > p.min_gain
        if p.zero_gain == "split":  # ID3 as in Mitchell Table 3.1: split an impure node whatever the gain
            return True
        return improvement > p.min_gain + GAIN_TOLERANCE


def stops(p: GrowParams, counts: np.ndarray, available: bool, depth: int) -> bool:
    """Whether a classification node with class weights ``counts`` at ``depth`` stays a leaf by the
    stopping rules (``available``: some attribute may still split it)."""
    total = counts.sum()
    if total <= 0 or np.count_nonzero(counts) <= 1 or not available:
        return True
    if p.max_depth is not None and depth >= p.max_depth:
        return True
    return total < p.min_split or counts.max() / total >= p.purity


@dataclass
class _Pending:
    """A node waiting to be expanded, with its rows and what its split search needs."""

    node: Node
    rows: Table
    available: list[int]
    depth: int
    n_constant: int = 0
    choice: Choice | None = None
    filled: Table | None = None  # the rows with missing values filled in at this node (if any)
    step: GrowStep | None = None  # its record in a growth trace
    via: tuple | None = None  # a traced node's (parent record id, branch, condition)


class Overdue(Exception):
    """Raised by ``grow`` when its ``Watch`` gave up on it (nothing of the growth is kept)."""


@dataclass
class Watch:
    """A growth's deadline (``time.process_time()``: CPU seconds, as the estimates count them, so that a
    loaded machine does not make it look overdue) and what decides, once it has passed,
    whether to give up (``give_up()``: True raises ``Overdue``; False lets the growth go on unwatched,
    or, with ``every``, asks again that many CPU seconds later: kernels compiled by another process
    are looked for while the reference works)."""

    deadline: float
    give_up: object
    every: float | None = None

    def overdue(self) -> bool:
        """Whether the growth should stop now (asked every ``WATCH_NODES`` nodes)."""
        now = time.process_time()
        if now <= self.deadline:
            return False
        self.deadline = float("inf") if self.every is None else now + self.every  # asked once, or again later
        return bool(self.give_up())


WATCH_NODES = 64  # nodes expanded between looks at the clock (a node costs the reference 0.1-2 ms)


def grow(
    table: Table,
    params: GrowParams,
    trace: list | None = None,
    progress=None,
    narrate: bool = False,
    watch: Watch | None = None,
) -> Node:
    """Grow a tree over every row of ``table`` whose class is known.

    Nodes are expanded depth first, left branch first (the order in which
    scikit-learn's builder draws its random attribute order), or best first
    with ``max_leaves``. ``progress(depth, nodes, rows, seconds)`` is called
    every 256 nodes. (``backend`` chooses between this and the compiled engines.) With
    ``narrate``, ``trace`` also receives a ``GrowStep`` for every node (``grow/narrate.py``).
    A ``watch`` past its deadline may stop the growth (``Overdue``; ``trace`` is left as it was).
    """
    grower = Grower(table, params)
    table = filled_at_root(table, params.missing)  # root-majority, root-class-majority
    if narrate:
        from dtcli.induction.grow.narrate import Narrator

        grower.narrator = Narrator(grower)
    usable = [i for i, a in enumerate(table.attributes) if a.is_nominal or params.thresholds]
    root = _Pending(_node(table.take(table.labelled())), table.take(table.labelled()), usable, 0)
    best_first = params.max_leaves is not None
    cart = params.algorithm == "cart"
    frontier, order, leaves = [], 0, 1
    if not best_first or grower.decide(root):
        heapq.heappush(frontier, (0.0, 0, root))
    expanded = 0
    while frontier:
        _, _, item = heapq.heappop(frontier)
        expanded += 1
        if watch is not None and expanded % WATCH_NODES == 0 and watch.overdue():
            raise Overdue
        if progress is not None and expanded % 256 == 0:
            progress(item.depth, expanded, item.rows.n_rows, 0.0)
        choice = item.choice if best_first else grower.decide(item)
        if choice is None:
            continue
        children = _split(grower, item, choice)
        if best_first and leaves + len(children) - 1 > params.max_leaves:
            if grower.narrator is not None:
                grower.narrator.over_budget(item)
            continue
        if grower.narrator is not None:
            grower.narrator.children(item, choice, children)
        item.node.test, item.node.score = choice.test, choice.score
        item.node.children = [child.node for child in children]
        leaves += len(children) - 1
        growing = [c for c in children if c.rows is not None]
        if best_first:  # each child's split is decided as it is made: CART's as scikit-learn's best-first
            # builder does, the first branch first (its visiting order follows), the others' the last first
            made = {id(c) for c in (growing if cart else growing[::-1]) if grower.decide(c)}
            growing = [c for c in growing if id(c) in made]
        for child in reversed(growing):  # the first branch is popped first
            order += 1
            # best first, the split that improves the tree most comes next: the weight times CART's
            # decrease of its criterion (scikit-learn's), or times the information gain
            key = -child.node.weight * (child.choice.score if cart else child.choice.gain) if best_first else 0.0
            heapq.heappush(frontier, (key, order if best_first else -order, child))
    if trace is not None:
        trace.extend(grower.narrator.steps if narrate else [])
        trace.extend(grower.trace)
    return root.node


def _node(rows: Table) -> Node:
    counts = rows.class_counts()
    node = Node(counts, majority(counts))
    if rows.is_regression:
        _, node.value, node.impurity = node_stats(rows)
    return node


def _split(grower: Grower, item: _Pending, choice: Choice) -> list[_Pending]:
    test, rows, node = choice.test, item.rows, item.node
    index = rows.schema.index(test.attribute.name)
    remaining = [i for i in item.available if i != index] if isinstance(test, NominalTest) else item.available
    children = []
    heavier = grower.params.algorithm == "cart" and grower.params.missing != "fractional"
    for part in partition(rows, index, test, heavier, item.filled, grower.params.grid):
        if part.weights.sum() <= 0:
            empty = Node(
                np.zeros(len(node.counts)), node.label, value=node.value, impurity=None if node.value is None else 0.0
            )
            children.append(_Pending(empty, None, remaining, item.depth + 1))
        else:
            children.append(_Pending(_node(part), part, remaining, item.depth + 1, item.n_constant))
    return children


def node_choice(table: Table, rows: np.ndarray, params: GrowParams, available: list[int]) -> Choice | None:
    """The split ``grow`` makes at a node holding ``rows`` of ``table`` (labelled rows; None: it stays a
    leaf), decided by the very code that grows the tree (``dtree gain`` stars this choice).

    ``available`` are the attributes the node may test (a nominal one tested above it is not); the
    grower is made on the whole ``table``, as for the tree (C4.5's thresholds and its many-valued
    rule read the whole training set), and the node is taken at depth 0.
    """
    grower = Grower(table, params)
    part = table.take(rows)
    usable = [i for i in available if table.attributes[i].is_nominal or params.thresholds]
    return grower.decide(_Pending(_node(part), part, usable, 0))
