"""From a tree to rules (Zaki & Meira §16; Quinlan 1993 ch. 5) and rule post-pruning (Mitchell §3.7.1.2).

Contract: ``extract(tree)`` gives one rule per leaf, in tree order: the
conditions on the path, those on the same attribute merged (an interval for
numbers, the intersection of allowed values for nominal attributes), the
leaf's class and training distribution (a regression leaf: its value); the
default is the root's majority (mean). A tree grown with a fill-in policy
sends a missing value down each split's heaviest branch: that branch's
condition is marked ``missing`` (a merged condition keeps the mark only if
all its parts have it), so the rules route such rows as the tree does.
``prune_rules(ruleset, table, cf, bound)`` post-prunes against the training
data: for each rule, repeatedly drop the precondition whose removal gives
the best pessimistic accuracy estimate, as long as that estimate is no worse
than the rule's; then drop duplicate rules (keeping the first), sort by
estimated accuracy (stable), and make the default the majority class of the
training cases no rule covers (of all cases, if every case is covered).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dtcli.induction.criteria.bounds import upper_rate
from dtcli.induction.search.missing import FILL
from dtcli.model.rules import Condition, Rule, RuleSet
from dtcli.model.table import Table
from dtcli.model.tree import NominalTest, SubsetTest, Tree, majority


def _branch_condition(test, branch: int, missing: bool = False) -> Condition:
    name = test.attribute.name
    if isinstance(test, NominalTest):
        return Condition(name, values=(test.attribute.values[branch],), missing=missing)
    if isinstance(test, SubsetTest):
        inside = test.values if branch == 0 else tuple(v for v in test.attribute.values if v not in test.values)
        return Condition(name, values=inside, missing=missing)
    if branch == 0:
        return Condition(name, high=test.threshold, missing=missing, time=test.attribute.time)
    return Condition(name, low=test.threshold, missing=missing, time=test.attribute.time)


def heaviest_branch(node) -> int:
    """The branch prediction sends a missing value down in a tree grown with a fill-in policy:
    the one most training cases took, the first of equals (as ``predict``'s layout chooses it)."""
    return int(np.argmax([child.counts.sum() for child in node.children]))


def merge(conditions: list[Condition]) -> tuple[Condition, ...]:
    """One condition per attribute, in order of first appearance."""
    merged: dict[str, Condition] = {}
    for c in conditions:
        old = merged.get(c.attribute)
        if old is None:
            merged[c.attribute] = c
        elif c.is_nominal:
            values = tuple(v for v in old.values if v in c.values)
            merged[c.attribute] = Condition(c.attribute, values=values, missing=old.missing and c.missing)
        else:
            lows = [x for x in (old.low, c.low) if x is not None]
            highs = [x for x in (old.high, c.high) if x is not None]
            merged[c.attribute] = Condition(
                c.attribute,
                low=max(lows) if lows else None,
                high=min(highs) if highs else None,
                missing=old.missing and c.missing,
                time=c.time,
            )
    return tuple(merged.values())


def extract(tree: Tree) -> RuleSet:
    """One rule per leaf (Zaki: 'each path from the root to a leaf can be written as a rule')."""
    regression = tree.schema.is_regression
    filled = tree.parameters.get("missing", "fractional") in FILL  # missing values take the heaviest branch
    rules: list[Rule] = []

    def leaf_rule(node, conditions) -> Rule:
        return Rule(conditions, 0 if regression else node.label, node.counts.copy(), value=_value(node, regression))

    if tree.root.is_leaf:
        rules.append(leaf_rule(tree.root, merge([])))
    path = _Path()

    def entered(node) -> tuple:  # the node, its branches, and the one a missing value takes (-1: none)
        return node, iter(enumerate(node.children)), heaviest_branch(node) if filled and node.children else -1

    stack = [entered(tree.root)]  # a leaf root has no branches
    while stack:  # depth first, so leaves left to right, each with the conditions on its path
        node, branches, heaviest = stack[-1]
        b, child = next(branches, (None, None))
        if child is None:
            stack.pop()
            if stack:
                path.pop()  # the condition of the branch that led to ``node``
            continue
        path.push(_branch_condition(node.test, b, b == heaviest))
        if child.is_leaf:
            rules.append(leaf_rule(child, path.merged()))
            path.pop()
        else:
            stack.append(entered(child))
    parameters = {"source": "tree", "algorithm": tree.algorithm, "pruned": False}
    if tree.algorithm == "cart":  # (scikit-learn's ties: tests of single-precision values, model/tree.py)
        parameters["ties"] = tree.parameters.get("ties", "sklearn")
    root = tree.root
    default = 0 if regression else root.label
    return RuleSet(
        tree.schema, rules, default, root.counts.copy(), parameters, dict(tree.training), _value(root, regression)
    )


def _value(node, regression: bool) -> float | None:
    return float(node.value) if regression else None


class _Path:
    """The conditions on the path to a node, merged as ``merge`` merges them, kept up to date as
    the walk goes down (``push``) and back up (``pop``): a rule costs the attributes on its path,
    not the path's length."""

    def __init__(self):
        self.conditions: dict[str, Condition] = {}  # attribute -> merged condition, in order of first appearance
        self.undo: list[tuple[str, Condition | None]] = []

    def push(self, condition: Condition) -> None:
        old = self.conditions.get(condition.attribute)
        self.undo.append((condition.attribute, old))
        self.conditions[condition.attribute] = condition if old is None else merge([old, condition])[0]

    def pop(self) -> None:
        attribute, old = self.undo.pop()
        if old is None:
            del self.conditions[attribute]  # the last attribute to appear: order is kept
        else:
            self.conditions[attribute] = old

    def merged(self) -> tuple[Condition, ...]:
        return tuple(self.conditions.values())


@dataclass
class Drop:
    """A precondition dropped from a rule, and the estimates compared."""

    rule: int
    condition: str
    before: float
    after: float


def _coverage(conditions, table: Table, single: bool = False) -> np.ndarray:
    mask = np.ones(table.n_rows, dtype=bool)
    for condition in conditions:
        mask &= condition.matches(table, single)
    return mask


def _estimate(
    conditions, label: int, table: Table, cf: float, bound: str, single: bool = False
) -> tuple[float, np.ndarray]:
    """Pessimistic accuracy ``1 - U_CF(E, N)`` of a rule on the training data, and its counts."""
    covered = _coverage(conditions, table, single)
    counts = np.bincount(table.y[covered], weights=table.weights[covered], minlength=len(table.classes))
    n = float(counts.sum())
    if n <= 0:
        return 0.0, counts
    return 1.0 - upper_rate(n, n - float(counts[label]), cf, bound), counts


def prune_rules(ruleset: RuleSet, table: Table, cf: float = 0.25, bound: str = "j48") -> tuple[RuleSet, list[Drop]]:
    """Post-prune every rule, remove duplicates, sort by estimate, and set the default."""
    table = table.take(table.labelled())
    single = ruleset.single
    drops: list[Drop] = []
    pruned: list[Rule] = []
    for k, rule in enumerate(ruleset.rules):
        conditions = list(rule.conditions)
        estimate, counts = _estimate(conditions, rule.label, table, cf, bound, single)
        while conditions:
            trials = [
                (_estimate(conditions[:j] + conditions[j + 1 :], rule.label, table, cf, bound, single), j)
                for j in range(len(conditions))
            ]
            (best, best_counts), j = max(trials, key=lambda t: (t[0][0], -t[1]))
            if best < estimate:
                break
            drops.append(Drop(k + 1, conditions[j].text(), estimate, best))
            del conditions[j]
            estimate, counts = best, best_counts
        pruned.append(Rule(tuple(conditions), rule.label, counts, estimate))
    unique: list[Rule] = []
    seen: set = set()
    for rule in pruned:
        if (rule.conditions, rule.label) not in seen:
            seen.add((rule.conditions, rule.label))
            unique.append(rule)
    unique.sort(key=lambda r: -r.estimate)
    covered = np.zeros(table.n_rows, dtype=bool)
    for rule in unique:
        covered |= _coverage(rule.conditions, table, single)
    rest = ~covered if (~covered).any() else np.ones(table.n_rows, dtype=bool)
    default_counts = np.bincount(table.y[rest], weights=table.weights[rest], minlength=len(table.classes))
    parameters = dict(ruleset.parameters, pruned=True, cf=cf, error_bound=bound)
    result = RuleSet(
        ruleset.schema,
        unique,
        majority(default_counts),
        default_counts.astype(float),
        parameters,
        dict(ruleset.training),
    )
    return result, drops


def predict_rules(ruleset: RuleSet, table: Table, done=None, chunk: int = 100_000) -> tuple[np.ndarray, np.ndarray]:
    """(class codes, probabilities): each row takes the first rule that fires, else the default.

    Probabilities are the firing rule's training distribution (certainty in
    its class if it covered no training case); for a regression rule set, (the firing rule's
    values, a (rows, 1) matrix of them, as ``predict_proba`` gives a regression tree's). With
    ``done``, the rows are matched ``chunk`` at a time and ``done(n)`` is called after each chunk of
    ``n`` rows (the same result).
    """
    if done is None:
        chosen = ruleset.first_match(table)
    else:
        parts = []
        for start in range(0, table.n_rows, max(1, chunk)):
            parts.append(ruleset.first_match(table.take(slice(start, start + max(1, chunk)))))
            done(len(parts[-1]))
        chosen = np.concatenate(parts) if parts else ruleset.first_match(table)
    if ruleset.schema.is_regression:
        values = np.array([r.value for r in ruleset.rules] + [ruleset.default_value], dtype=np.float64)
        return values[chosen], values[chosen][:, None]
    k = len(ruleset.classes)
    table_of = np.zeros((len(ruleset.rules) + 1, k))
    for i, rule in enumerate(ruleset.rules + [Rule((), ruleset.default, ruleset.default_counts)]):
        total = rule.counts.sum()
        if total > 0:
            table_of[i] = rule.counts / total
        else:
            table_of[i, rule.label] = 1.0
    labels = np.array([r.label for r in ruleset.rules] + [ruleset.default])
    return labels[chosen], table_of[chosen]


def spreads_missing(tree: Tree) -> bool:
    """True when ``predict`` sends a row with a missing value down several branches of ``tree`` at
    once (C4.5's fractional cases; any policy but a fill-in), which no rule can do."""
    return not tree.root.is_leaf and tree.parameters.get("missing", "fractional") not in FILL


def missing_disagreements(tree: Tree, ruleset: RuleSet, table: Table) -> tuple[int, int]:
    """(rows of ``table`` with a missing value in an attribute the tree tests that ``ruleset``
    predicts otherwise than ``tree``, rows of ``table``). A value never seen in training is
    missing (as ``encode_for_schema`` makes it); a regression prediction differs if not equal."""
    from dtcli.induction.predict.apply import predict_proba

    tested = {node.test.attribute.name for node in tree.root.walk() if node.test is not None}
    missing = np.zeros(table.n_rows, dtype=bool)
    for name in tested:
        missing |= table.missing_mask(table.schema.index(name))
    if not missing.any():
        return 0, table.n_rows
    part = table.take(missing)
    proba = predict_proba(tree, part)
    codes, rule_proba = predict_rules(ruleset, part)
    if tree.schema.is_regression:
        differ = proba[:, 0] != rule_proba[:, 0]
    else:
        differ = np.argmax(proba, axis=1) != codes
    return int(differ.sum()), table.n_rows
