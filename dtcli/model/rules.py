"""Rule sets: ordered IF-THEN rules with a default, and their JSON form ("dtree-rules").

A :class:`Condition` tests one attribute: a nominal one against a set of
allowed values (``A = v`` or ``A in {v, w}``), a numeric one against an
interval ``low < A <= high`` (either end open). A row whose value is missing
does not satisfy a condition. A rule fires when all its conditions hold; the
first rule that fires gives the class, else the default does.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

import numpy as np

from dtcli import __version__
from dtcli.errors import ModelFormatError
from dtcli.model.dates import threshold_text
from dtcli.model.schema_json import FieldReader, schema_to_dict
from dtcli.model.table import MISSING, Schema, Table

RULES_FORMAT = "dtree-rules"
RULES_VERSION = 1


@dataclass(frozen=True)
class Condition:
    attribute: str
    values: tuple[str, ...] | None = None  # nominal: the allowed values
    low: float | None = None  # numeric: low < x
    high: float | None = None  # numeric: x <= high
    time: str = field(default="", compare=False)  # a date attribute's format (model/dates.py)

    @property
    def is_nominal(self) -> bool:
        return self.values is not None

    def text(self, show=str) -> str:
        """``Outlook = Sunny``, ``Car in {Sports, SUV}``, ``22.5 < Age <= 45``, ``Age > 22.5``
        (names and values written by ``show``: printing escapes control characters)."""
        name = show(self.attribute)
        if self.is_nominal:
            if len(self.values) == 1:
                return f"{name} = {show(self.values[0])}"
            return f"{name} in {{{', '.join(map(show, self.values))}}}"
        if self.low is not None and self.high is not None:
            return f"{threshold_text(self.low, self.time)} < {name} <= {threshold_text(self.high, self.time)}"
        if self.high is not None:
            return f"{name} <= {threshold_text(self.high, self.time)}"
        return f"{name} > {threshold_text(self.low, self.time)}"

    def matches(self, table: Table) -> np.ndarray:
        """True for the rows of ``table`` that satisfy the condition (missing: False)."""
        i = table.schema.index(self.attribute)
        column = table.columns[i]
        if self.is_nominal:
            codes = [table.attributes[i].code_of(v) for v in self.values]
            return np.isin(column, codes) & (column != MISSING)
        with np.errstate(invalid="ignore"):
            ok = ~np.isnan(column)
            if self.low is not None:
                ok &= column > self.low
            if self.high is not None:
                ok &= column <= self.high
        return ok


@dataclass
class Rule:
    conditions: tuple[Condition, ...]
    label: int
    counts: np.ndarray  # training cases covered, per class
    estimate: float | None = None  # pessimistic accuracy estimate, once pruned

    @property
    def cases(self) -> float:
        return float(self.counts.sum())

    @property
    def accuracy(self) -> float:
        return float(self.counts[self.label] / self.counts.sum()) if self.counts.sum() > 0 else float("nan")

    def matches(self, table: Table) -> np.ndarray:
        mask = np.ones(table.n_rows, dtype=bool)
        for condition in self.conditions:
            mask &= condition.matches(table)
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

    @property
    def classes(self) -> tuple[str, ...]:
        return self.schema.classes

    def first_match(self, table: Table) -> np.ndarray:
        """Index of the first rule each row satisfies; ``len(rules)`` for the default."""
        chosen = np.full(table.n_rows, len(self.rules), dtype=np.int64)
        open_rows = np.ones(table.n_rows, dtype=bool)
        for k, rule in enumerate(self.rules):
            fire = open_rows & rule.matches(table)
            chosen[fire] = k
            open_rows &= ~fire
        return chosen


def rules_to_dict(ruleset: RuleSet) -> dict:
    classes = ruleset.classes
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
                "class": classes[rule.label],
                "counts": [float(x) for x in rule.counts],
                **({} if rule.estimate is None else {"estimate": rule.estimate}),
            }
            for rule in ruleset.rules
        ],
        "default": {"class": classes[ruleset.default], "counts": [float(x) for x in ruleset.default_counts]},
    }


def condition_dict(condition: Condition) -> dict:
    """A condition as the rule-set file writes it: ``attribute`` and ``in``, or ``above``/``at_most``."""
    if condition.is_nominal:
        return {"attribute": condition.attribute, "in": list(condition.values)}
    out = {"attribute": condition.attribute}
    if condition.low is not None:
        out["above"] = condition.low
    if condition.high is not None:
        out["at_most"] = condition.high
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
    if schema.is_regression:
        raise ModelFormatError(f"{source}: invalid rule set: rules need classes")
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
            if names[name].is_nominal:
                values = reader.strings(item, "in", where)
                if not values or any(v not in names[name].codes for v in values):
                    raise reader.fail(f"{where}.in", f"expected values of {name!r}")
                conditions.append(Condition(name, values=tuple(values)))
            else:
                low = reader.get(item, "above", float, where) if "above" in item else None
                high = reader.get(item, "at_most", float, where) if "at_most" in item else None
                if (low is None and high is None) or any(v is not None and not math.isfinite(v) for v in (low, high)):
                    raise reader.fail(where, "a numeric condition needs a finite 'above' or 'at_most'")
                conditions.append(Condition(name, low=low, high=high, time=names[name].time))
        rules.append(
            Rule(
                tuple(conditions),
                reader.class_index(entry, "class", schema, path),
                reader.counts(entry, schema, path),
                None if entry.get("estimate") is None else reader.number(entry, "estimate", path),
            )
        )
    default = reader.get(data, "default", dict, "")
    return RuleSet(
        schema,
        rules,
        reader.class_index(default, "class", schema, "default"),
        reader.counts(default, schema, "default"),
        reader.get(data, "parameters", dict, ""),
        reader.get(data, "training_data", dict, ""),
    )
