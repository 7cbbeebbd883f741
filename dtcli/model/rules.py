"""Rule sets: ordered IF-THEN rules with a default, and their JSON form ("dtree-rules").

A :class:`Condition` tests one attribute: a nominal one against a set of
allowed values (``A = v`` or ``A in {v, w}``), a numeric one against an
interval ``low < A <= high`` (either end open). A row whose value is missing
does not satisfy a condition, unless the condition is marked ``missing``: the
branch a tree grown with a fill-in policy sends missing values down (its
heaviest), whose condition a missing value (or a value never seen in
training) satisfies too, as the tree routes it. A rule fires when all its
conditions hold; the first rule that fires gives the class (a regression
rule: its number, ``value``), else the default does.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

import numpy as np

from dtcli.errors import ModelFormatError
from dtcli.model.dates import threshold_text
from dtcli.model.format.schema import FieldReader, schema_to_dict
from dtcli.model.table import MISSING, Schema, Table
from dtcli.model.tree import decision_threshold, single_precision
from dtcli.model.value_text import value_set
from dtcli.version import __version__

RULES_FORMAT = "dtree-rules"
RULES_VERSION = 1


@dataclass(frozen=True)
class Condition:
    attribute: str
    values: tuple[str, ...] | None = None  # nominal: the allowed values
    low: float | None = None  # numeric: low < x
    high: float | None = None  # numeric: x <= high
    missing: bool = False  # a missing value (or, nominal, one never seen in training) satisfies it too
    time: str = field(default="", compare=False)  # a date attribute's format (model/dates.py)

    @property
    def is_nominal(self) -> bool:
        return self.values is not None

    def text(self, show=str) -> str:
        """``Outlook = Sunny``, ``Car in {Sports, SUV}``, ``22.5 < Age <= 45``, ``Age > 22.5``
        (names and values written by ``show``: printing escapes control characters)."""
        test = self.bare_text(show)
        return f"({test} or missing)" if self.missing else test

    def bare_text(self, show=str) -> str:
        """``text`` without the ``or missing`` of a marked condition: what a known value meets."""
        name = show(self.attribute)
        if self.is_nominal:
            if len(self.values) == 1:
                return f"{name} = {show(self.values[0])}"
            return f"{name} in {value_set(self.values, show)}"
        if self.low is not None and self.high is not None:
            return f"{threshold_text(self.low, self.time)} < {name} <= {threshold_text(self.high, self.time)}"
        if self.high is not None:
            return f"{name} <= {threshold_text(self.high, self.time)}"
        return f"{name} > {threshold_text(self.low, self.time)}"

    def bounds(self, single: bool = False) -> tuple[float | None, float | None]:
        """(low, high) as a 64-bit value is compared with them: the thresholds, or for a rule set of
        single-precision tests (``RuleSet.single``) the bounds that decide as those tests do
        (``tree.decision_threshold``)."""
        return tuple(None if v is None else decision_threshold(v, single) for v in (self.low, self.high))

    def matches(self, table: Table, single: bool = False) -> np.ndarray:
        """True for the rows of ``table`` that satisfy the condition (missing: ``self.missing``); ``single``:
        values compared in single precision (``bounds``)."""
        i = table.schema.index(self.attribute)
        column = table.columns[i]
        if self.is_nominal:
            codes = [table.attributes[i].code_of(v) for v in self.values]
            return np.isin(column, codes) & (column != MISSING) | (self.missing & (column == MISSING))
        low, high = self.bounds(single)
        with np.errstate(invalid="ignore"):
            absent = np.isnan(column)
            ok = ~absent
            if low is not None:
                ok &= column > low
            if high is not None:
                ok &= column <= high
        return ok | absent if self.missing else ok


@dataclass
class Rule:
    conditions: tuple[Condition, ...]
    label: int
    counts: np.ndarray  # training cases covered, per class ([weight] for a regression rule)
    estimate: float | None = None  # pessimistic accuracy estimate, once pruned
    value: float | None = None  # a regression rule's prediction (``label`` is then 0)

    @property
    def cases(self) -> float:
        return float(self.counts.sum())

    @property
    def accuracy(self) -> float:
        if self.value is not None or self.counts.sum() <= 0:
            return float("nan")
        return float(self.counts[self.label] / self.counts.sum())

    def matches(self, table: Table, single: bool = False) -> np.ndarray:
        mask = np.ones(table.n_rows, dtype=bool)
        for condition in self.conditions:
            mask &= condition.matches(table, single)
        return mask


@dataclass
class RuleSet:
    """Ordered rules and a default class; ``parameters`` say how they were made."""

    schema: Schema
    rules: list[Rule]
    default: int
    default_counts: np.ndarray
    parameters: dict = field(default_factory=dict)
    training: dict = field(default_factory=dict)
    default_value: float | None = None  # a regression rule set's default prediction

    @property
    def classes(self) -> tuple[str, ...]:
        return self.schema.classes

    @property
    def single(self) -> bool:
        """Whether the rules' numeric conditions test values rounded to single precision: those of a CART
        tree grown with scikit-learn's ties (``parameters.ties``; a CART rule set without it: sklearn, the
        default, as files written before it was recorded)."""
        return single_precision(self.parameters.get("algorithm", ""), self.parameters)

    def outcome(self, rule: Rule | None, show=str) -> str:
        """What ``rule`` (None: the default) predicts, as printed: its class written by ``show``, or
        its number (the shortest text that reads back as the same double)."""
        if self.schema.is_regression:
            return repr(float(self.default_value if rule is None else rule.value))
        return show(self.classes[self.default if rule is None else rule.label])

    def first_match(self, table: Table) -> np.ndarray:
        """Index of the first rule each row satisfies; ``len(rules)`` for the default."""
        chosen = np.full(table.n_rows, len(self.rules), dtype=np.int64)
        open_rows = np.ones(table.n_rows, dtype=bool)
        for k, rule in enumerate(self.rules):
            fire = open_rows & rule.matches(table, self.single)
            chosen[fire] = k
            open_rows &= ~fire
        return chosen


def rules_to_dict(ruleset: RuleSet) -> dict:
    return {
        "format": RULES_FORMAT,
        "schema_version": RULES_VERSION,
        "generator": f"dtree {__version__}",
        "parameters": dict(ruleset.parameters),
        "training_data": dict(ruleset.training),
        "schema": schema_to_dict(ruleset.schema),
        "rules": [
            {
                "conditions": [condition_dict(c) for c in rule.conditions],
                **_outcome(ruleset, rule.label, rule.value),
                "counts": [float(x) for x in rule.counts],
                **({} if rule.estimate is None else {"estimate": rule.estimate}),
            }
            for rule in ruleset.rules
        ],
        "default": {
            **_outcome(ruleset, ruleset.default, ruleset.default_value),
            "counts": [float(x) for x in ruleset.default_counts],
        },
    }


def _outcome(ruleset: RuleSet, label: int, value: float | None) -> dict:
    """``{"class": name}``, or a regression rule's ``{"value": number}``."""
    return {"value": float(value)} if ruleset.schema.is_regression else {"class": ruleset.classes[label]}


def condition_dict(condition: Condition) -> dict:
    """A condition as the rule-set file writes it: ``attribute`` and ``in``, or ``above``/``at_most``;
    ``"missing": true`` when a missing value satisfies it."""
    out = {"attribute": condition.attribute}
    if condition.is_nominal:
        out["in"] = list(condition.values)
    if condition.low is not None:
        out["above"] = condition.low
    if condition.high is not None:
        out["at_most"] = condition.high
    if condition.missing:
        out["missing"] = True
    return out


def dumps_rules(ruleset: RuleSet) -> str:
    return json.dumps(rules_to_dict(ruleset), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def rules_from_dict(data: dict, source: str) -> RuleSet:
    """Validate and build a RuleSet; ModelFormatError names the first bad field."""
    reader = FieldReader(source)
    version = reader.get(data, "schema_version", int, "")
    if version != RULES_VERSION:
        raise ModelFormatError(f"{source}: rule set schema_version {version} is not supported (this dtree reads 1)")
    schema = reader.schema(reader.get(data, "schema", dict, ""))
    names = {a.name: a for a in schema.attributes}
    rules = []
    for k, entry in enumerate(reader.get(data, "rules", list, "")):
        path = f"rules[{k}]"
        conditions = []
        for j, item in enumerate(reader.get(entry, "conditions", list, path)):
            where = f"{path}.conditions[{j}]"
            name = reader.get(item, "attribute", str, where)
            if name not in names:
                raise reader.fail(f"{where}.attribute", f"{name!r} is not in the schema")
            missing = reader.get(item, "missing", bool, where) if "missing" in item else False
            if names[name].is_nominal:
                values = reader.strings(item, "in", where)
                if not values or any(v not in names[name].codes for v in values):
                    raise reader.fail(f"{where}.in", f"expected values of {name!r}")
                conditions.append(Condition(name, values=tuple(values), missing=missing))
            else:
                low = reader.get(item, "above", float, where) if "above" in item else None
                high = reader.get(item, "at_most", float, where) if "at_most" in item else None
                if (low is None and high is None) or any(v is not None and not math.isfinite(v) for v in (low, high)):
                    raise reader.fail(where, "a numeric condition needs a finite 'above' or 'at_most'")
                conditions.append(Condition(name, low=low, high=high, missing=missing, time=names[name].time))
        label, value = _read_outcome(reader, entry, schema, path)
        counts = _read_counts(reader, entry, schema, path)
        estimate = None if entry.get("estimate") is None else reader.number(entry, "estimate", path)
        rules.append(Rule(tuple(conditions), label, counts, estimate, value))
    default = reader.get(data, "default", dict, "")
    label, value = _read_outcome(reader, default, schema, "default")
    return RuleSet(
        schema,
        rules,
        label,
        _read_counts(reader, default, schema, "default"),
        reader.get(data, "parameters", dict, ""),
        reader.get(data, "training_data", dict, ""),
        value,
    )


def _read_outcome(reader: FieldReader, entry: dict, schema: Schema, path: str) -> tuple[int, float | None]:
    """(class index, None), or for a regression rule set (0, its finite ``value``)."""
    if schema.is_regression:
        return 0, reader.number(entry, "value", path)
    return reader.class_index(entry, "class", schema, path), None


def _read_counts(reader: FieldReader, entry: dict, schema: Schema, path: str) -> np.ndarray:
    """``counts``: one number per class, or a regression rule's [weight]."""
    if not schema.is_regression:
        return reader.counts(entry, schema, path)
    weight = reader.get(entry, "counts", list, path)
    if len(weight) != 1 or isinstance(weight[0], bool) or not isinstance(weight[0], (int, float)):
        raise reader.fail(f"{path}.counts", "expected [weight], one non-negative number")
    if not 0 <= weight[0] < math.inf:
        raise reader.fail(f"{path}.counts", "expected [weight], one non-negative number")
    return np.asarray(weight, dtype=np.float64)
