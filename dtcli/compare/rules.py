"""Two rule sets (``dtree-rules``) compared rule by rule (``dtree diff``).

A rule set is applied first match first, so its order is part of its meaning: rule k of A is
compared with rule k of B, and the defaults with each other. Within a rule the conditions are a
set (``A = x AND B <= 3`` is ``B <= 3 AND A = x``); a nominal condition's values are a set, a
numeric one's bounds compare within the threshold tolerance. When the rules are the same but in
another order, the sets still differ (a row two rules cover may get another class), and a note
says so.
"""

from __future__ import annotations

from collections import Counter

from dtcli.compare.findings import EXACT, ROOT, Comparison, Difference, Summary, Tolerance, compare_schemas
from dtcli.model.colnames import name_key, same_name
from dtcli.model.rules import Condition, Rule, RuleSet, condition_dict


def compare_rule_sets(a: RuleSet, b: RuleSet, tolerance: Tolerance = EXACT) -> Comparison:
    """The :class:`Comparison` of rule set ``a`` with ``b``: rule k with rule k, then the defaults."""
    out = Comparison("rules", Summary("rules", len(a.rules) + 1, len(b.rules) + 1))
    compare_schemas(a.schema, b.schema, out)
    rules = _Rules(a, b, tolerance)
    for k in range(max(len(a.rules), len(b.rules))):
        rule_a = a.rules[k] if k < len(a.rules) else None
        rule_b = b.rules[k] if k < len(b.rules) else None
        path = ROOT / f"R{k + 1}"
        if rule_a is None or rule_b is None:
            side = "A" if rule_b is None else "B"
            out.summary.add_only(side, 1)
            out.record(Difference.only(path, side, rules.view(rule_a or rule_b, side)))
            continue
        rules.judge(rule_a, rule_b, path, out)
    default_a = Rule((), a.default, a.default_counts, value=a.default_value)
    default_b = Rule((), b.default, b.default_counts, value=b.default_value)
    rules.judge(default_a, default_b, ROOT / "default", out)
    if not out.summary.same and len(a.rules) == len(b.rules) and _same_rules(a, b):
        out.notes.append("the same rules in another order: with first-match semantics a row two rules cover may "
                         "be classified differently")  # fmt: skip
    return out


class _Rules:
    """Compares rules of A and B (class and counts by class name)."""

    def __init__(self, a: RuleSet, b: RuleSet, tolerance: Tolerance):
        self.tolerance = tolerance
        self.sets = {"A": a, "B": b}
        self.classes = {"A": a.classes, "B": b.classes}
        index_a = {name_key(c): i for i, c in enumerate(a.classes)}
        index_b = {name_key(c): i for i, c in enumerate(b.classes)}
        names = list(index_a) + [c for c in index_b if c not in index_a]
        self.by_name = [(index_a.get(c), index_b.get(c)) for c in names]

    def judge(self, rule_a: Rule, rule_b: Rule, path, out: Comparison) -> None:
        aspects = []
        if not same_conditions(rule_a.conditions, rule_b.conditions, self.tolerance):
            aspects.append("conditions")
        if name_key(self.sets["A"].outcome(rule_a)) != name_key(self.sets["B"].outcome(rule_b)):
            aspects.append("value" if self.sets["A"].schema.is_regression else "class")
        if not self._same_counts(rule_a, rule_b):
            aspects.append("counts")
        if aspects:
            out.summary.differing += 1
            out.record(Difference(path, tuple(aspects), self.view(rule_a, "A"), self.view(rule_b, "B")))
        else:
            out.summary.matching += 1

    def _same_counts(self, rule_a: Rule, rule_b: Rule) -> bool:
        """The same counts, class by class name (a regression rule's: its weight)."""
        if not self.by_name:
            return len(rule_a.counts) == len(rule_b.counts) and all(
                map(self.tolerance.same_count, rule_a.counts.tolist(), rule_b.counts.tolist())
            )
        return all(
            self.tolerance.same_count(
                0.0 if i is None else float(rule_a.counts[i]), 0.0 if j is None else float(rule_b.counts[j])
            )
            for i, j in self.by_name
        )

    def view(self, rule: Rule, side: str) -> dict:
        classes, ruleset = self.classes[side], self.sets[side]
        if ruleset.schema.is_regression:
            value = ruleset.default_value if rule.value is None else rule.value
            return {
                "conditions": [condition_dict(c) for c in rule.conditions],
                "value": value,
                "counts": [float(x) for x in rule.counts],
            }
        return {
            "conditions": [condition_dict(c) for c in rule.conditions],
            "class": classes[rule.label],
            "counts": {c: float(x) for c, x in zip(classes, rule.counts)},
        }


def same_conditions(a: tuple[Condition, ...], b: tuple[Condition, ...], tolerance: Tolerance) -> bool:
    """The two conjunctions hold the same conditions, in any order (each matched once)."""
    if len(a) != len(b):
        return False
    left = list(b)
    for condition in a:
        k = next((k for k, other in enumerate(left) if same_condition(condition, other, tolerance)), None)
        if k is None:
            return False
        left.pop(k)
    return True


def same_condition(a: Condition, b: Condition, tolerance: Tolerance) -> bool:
    if not same_name(a.attribute, b.attribute) or a.is_nominal != b.is_nominal or a.missing != b.missing:
        return False
    if a.is_nominal:
        return set(map(name_key, a.values)) == set(map(name_key, b.values))
    return _same_bound(a.low, b.low, tolerance) and _same_bound(a.high, b.high, tolerance)


def _same_bound(x: float | None, y: float | None, tolerance: Tolerance) -> bool:
    if x is None or y is None:
        return x is None and y is None
    return tolerance.same_threshold(x, y)


def _same_rules(a: RuleSet, b: RuleSet) -> bool:
    """The rules of ``a`` and ``b`` are the same (conditions as sets, class by name), in whatever order."""

    def written(rule: Rule, ruleset: RuleSet) -> tuple:
        conditions = frozenset(
            (name_key(c.attribute), frozenset(map(name_key, c.values)), c.missing)
            if c.is_nominal
            else (name_key(c.attribute), c.low, c.high, c.missing)
            for c in rule.conditions
        )
        return conditions, name_key(ruleset.outcome(rule))

    return Counter(written(r, a) for r in a.rules) == Counter(written(r, b) for r in b.rules)
