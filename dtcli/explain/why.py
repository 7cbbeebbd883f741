"""Why each row got its prediction, as data: the leaves (or the rule) it reached, their weights, and the steps.

``row_paths(model, table)`` runs the descent of ``predict_proba`` (so the
probabilities are the ones ``dtree predict`` gives) and keeps every leaf each
row reached. A row whose tested values are all known reaches one leaf, with
weight 1. A row whose value is missing at a split (or was never seen in
training) goes down every branch with a positive share of the training cases,
its weight multiplied by that share (C4.5's fractional cases, Quinlan 1993), so
it may reach several leaves; a path's weight is the product of the shares of
the branches taken for missing values. The row's class distribution is the
weighted sum of the leaves' distributions, ``p = sum_k w_k * counts_k / |counts_k|``
(an empty leaf: its parent's class shares, as J48; a regression leaf: its mean).

The steps of a path (the attribute tested, the branch taken, the row's value)
are made when asked, one row at a time, walking up from the leaf with a loop:
nothing recurses, and predicting without an explanation costs nothing more.
For a rule set the explanation is the rule that fired (or the default rule),
its conditions with the row's values.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dtcli.induction.predict.apply import descend, layout
from dtcli.induction.rules import predict_rules
from dtcli.model.rules import RuleSet
from dtcli.model.table import Table
from dtcli.model.tree import NominalTest, Tree


@dataclass(slots=True)
class Step:
    """One test on a path: the branch taken, as dtree prints it (``Outlook = Rain``, ``Humidity > 75``,
    ``Car in {Sports}``, a rule's ``22.5 < Age <= 45``), ``relation`` the same without the attribute's
    name (``= Rain``, ``> 75``; None for a rule's interval), and the row's value (None: missing or never
    seen). ``share`` is 1 for a known value; for a missing one, the branch's share of the training
    cases, ``fraction`` = (the branch's cases, the cases of all branches) when it is a proper share."""

    attribute: str
    test: str  # "nominal", "numeric", "subset" (a rule's condition: "nominal" or "numeric")
    branch: str
    relation: str | None
    value: str | float | None
    share: float = 1.0
    fraction: tuple[float, float] | None = None


@dataclass(slots=True)
class Path:
    """A leaf a row reached, the steps that led there and the path's weight. ``distribution`` is what
    the leaf adds to the row's class distribution per unit of weight; ``counts`` its training class
    counts (regression: ``[cases]``, and ``value`` the leaf's mean). For a rule set, ``rule`` is the
    rule's number (1-based), 0 for the default. ``mixed`` > 0: the path ends at a split of that many
    leaves whose mixture a missing value took at once (the last step's branch says so)."""

    steps: tuple[Step, ...]
    label: int
    value: float | None
    counts: np.ndarray
    weight: float
    distribution: np.ndarray
    rule: int | None = None
    mixed: int = 0


def row_paths(model, table: Table):
    """The explanation of every row of ``table`` under ``model`` (a Tree or a RuleSet): an object
    with ``proba`` (as ``predict_proba`` / ``predict_rules`` give it) and ``paths(i)`` for row ``i``."""
    if isinstance(model, RuleSet):
        return RuleExplanation(model, table)
    return TreeExplanation(model, table)


def row_value(table: Table, attribute: int, row: int):
    """The value of ``row`` in column ``attribute``: its label, its number, or None when missing."""
    value = table.columns[attribute][row]
    if table.attributes[attribute].is_nominal:
        return None if value < 0 else table.attributes[attribute].values[int(value)]
    return None if np.isnan(value) else float(value)


class TreeExplanation:
    """The leaves each row of ``table`` reaches in ``tree``, by row, in tree order (branches left to
    right), with their weights; ``paths(i)`` makes row ``i``'s paths."""

    def __init__(self, tree: Tree, table: Table):
        self.tree, self.table = tree, table
        flat = self.flat = layout(tree, table)
        reached: list = []
        self.proba = descend(flat, np.arange(table.n_rows), reached)
        self.codes = np.argmax(self.proba, axis=1)
        rows, slots, weights = (np.concatenate(part) for part in zip(*reached)) if reached else ([], [], [])
        rows, slots = np.asarray(rows, dtype=np.int64), np.asarray(slots, dtype=np.int64)
        self._links()
        self._cache: dict = {}
        order = np.lexsort((self.pre[slots], rows))
        self.rows, self.slots, self.weights = rows[order], slots[order], np.asarray(weights, dtype=float)[order]
        self.bounds = np.searchsorted(self.rows, np.arange(table.n_rows + 1))

    def _links(self) -> None:
        """Each slot's parent slot, branch number and share of a missing value (0: not taken), and
        its preorder number (tree order of leaves)."""
        flat, n = self.flat, len(self.flat.nodes)
        self.parent = np.full(n, -1, dtype=np.int64)
        self.branch = np.zeros(n, dtype=np.int64)
        for slot, node in enumerate(flat.nodes):
            if node.children:
                first = int(flat.cstart[slot])
                self.parent[first : first + len(node.children)] = slot
                self.branch[first : first + len(node.children)] = np.arange(len(node.children))
        self.up = self.parent.tolist()  # read a step at a time: a list is quicker to index
        self.share = np.zeros(n)
        self.share[flat.fan_child] = flat.fan_share
        self.pre = np.zeros(n, dtype=np.int64)
        stack, number = [0], 0
        while stack:
            slot = stack.pop()
            self.pre[slot], number = number, number + 1
            k = len(flat.nodes[slot].children)
            stack.extend(range(int(flat.cstart[slot]) + k - 1, int(flat.cstart[slot]) - 1, -1))

    def paths(self, i: int) -> list[Path]:
        """Row ``i``'s paths, leaves in tree order."""
        start, end = int(self.bounds[i]), int(self.bounds[i + 1])
        return [self._path(i, s, w) for s, w in zip(self.slots[start:end].tolist(), self.weights[start:end].tolist())]

    def _path(self, row: int, slot: int, weight: float) -> Path:
        flat = self.flat
        node = flat.nodes[slot]
        steps = []
        mixed = 0
        if not node.is_leaf:  # a wide split of leaves, mixed at once for a missing value
            mixed = int(flat.fanout[slot])
            test = node.test
            what = f"any of {mixed} branches"
            steps.append(Step(test.attribute.name, test.kind, f"{test.attribute.name}: {what}", what, None))
        child, up = slot, self.up
        while child != 0:  # up to the root: a loop, however deep the leaf
            parent = up[child]
            steps.append(self._step(row, parent, child))
            child = parent
        steps.reverse()
        distribution = flat.mixture[slot] if mixed else flat.dist[slot]  # leaf_distribution(node)
        label, value = node.label, node.value
        if mixed:  # the mixture's class, or its mean
            label, value = (0, float(distribution[0])) if value is not None else (int(np.argmax(distribution)), None)
        return Path(tuple(steps), label, value, node.counts, weight, distribution, mixed=mixed)

    def _step(self, row: int, parent: int, child: int) -> Step:
        known, missing, column, nominal = self._static(parent, child)
        value = column[row]
        if nominal:
            if value < 0:
                return missing
            step = known.get(int(value))
            if step is None:  # one Step a value, made when first met (a split may have a million values)
                labels = self.table.attributes[int(self.flat.attr[parent])].values
                step = known[int(value)] = Step(
                    missing.attribute, missing.test, missing.branch, missing.relation, labels[int(value)]
                )
            return step
        if value != value:  # NaN
            return missing
        return Step(known.attribute, known.test, known.branch, known.relation, float(value))

    def _static(self, parent: int, child: int):
        """What every row's step from ``parent`` to ``child`` shares, made once: the step of a known
        value (nominal: by code), the step of a missing one, the column, whether it is nominal."""
        cached = self._cache.get(child)
        if cached is not None:
            return cached
        test, b = self.flat.nodes[parent].test, int(self.branch[child])
        name = test.attribute.name
        branch = f"{name} = {test.attribute.values[b]}" if isinstance(test, NominalTest) else test.branch_labels()[b]
        relation = branch[len(name) + 1 :]
        attribute = int(self.flat.attr[parent])
        nominal = self.table.attributes[attribute].is_nominal
        known = {} if nominal else Step(name, test.kind, branch, relation, None)
        share = float(self.share[child])
        total = float(sum(c.weight for c in self.flat.nodes[parent].children))
        fraction = (self.flat.nodes[child].weight, total) if share < 1.0 and total > 0 else None
        missing = Step(name, test.kind, branch, relation, None, share, fraction)
        cached = self._cache[child] = (known, missing, self.table.columns[attribute], nominal)
        return cached


class RuleExplanation:
    """The rule each row of ``table`` fires (or the default), and the probabilities it gives."""

    def __init__(self, ruleset: RuleSet, table: Table):
        self.ruleset, self.table = ruleset, table
        self.chosen = ruleset.first_match(table)
        self.codes, self.proba = predict_rules(ruleset, table)
        self.index = {a.name: j for j, a in enumerate(table.attributes)}

    def paths(self, i: int) -> list[Path]:
        k = int(self.chosen[i])
        rules = self.ruleset.rules
        if k == len(rules):
            rs = self.ruleset
            return [Path((), rs.default, rs.default_value, rs.default_counts, 1.0, self.proba[i], rule=0)]
        rule = rules[k]
        steps = []
        for c in rule.conditions:
            kind, text = ("nominal" if c.is_nominal else "numeric"), c.bare_text()
            relation = text[len(c.attribute) + 1 :] if text.startswith(c.attribute + " ") else None
            value = row_value(self.table, self.index[c.attribute], i)
            if value is None:  # a condition marked 'or missing' that holds as the value is missing
                text, relation = f"{text} or missing", None
            steps.append(Step(c.attribute, kind, text, relation, value))
        return [Path(tuple(steps), rule.label, rule.value, rule.counts, 1.0, self.proba[i], rule=k + 1)]
