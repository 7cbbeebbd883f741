"""The schema's JSON, shared by the model and rule-set formats, and the reader that validates parsed JSON.

``FieldReader`` gives field access that names the JSON path of the first bad
field (``root.branches[1].node.counts: expected 2 non-negative numbers``); the
model format (``serialize``) and the rule-set format (``rules``) read with it.
"""

from __future__ import annotations

import math

import numpy as np

from dtcli.errors import ModelFormatError
from dtcli.model.colnames import clash, clash_text
from dtcli.model.dates import DATE_UNIT, DateFormatError, date_format
from dtcli.model.table import KINDS, NOMINAL, NUMERIC, Attribute, Schema


def schema_to_dict(schema: Schema) -> dict:
    attributes = []
    for attribute in schema.attributes:
        entry = {"name": attribute.name, "kind": attribute.kind}
        if attribute.is_nominal:
            entry["values"] = list(attribute.values)
        elif attribute.time:
            entry["date"] = {"format": attribute.time, "unit": DATE_UNIT}
        attributes.append(entry)
    if schema.is_regression:
        target = {"name": schema.target.name, "kind": "numeric"}
    else:
        target = {"name": schema.target.name, "classes": list(schema.target.values)}
    return {"attributes": attributes, "target": target}


def _float(number: int | float) -> float:
    """``number`` as a float; an integer too large for one becomes infinity (then refused as not finite)."""
    try:
        return float(number)
    except OverflowError:
        return math.inf if number > 0 else -math.inf


class JsonPath:
    """Where a field is (``root.branches[1].node``), as a chain of parts written out only for an
    error message, so that reading a deep tree does not build a long string per node. Past
    ``2 * SHOWN`` parts the middle is summarised: ``root.branches[1].node[... 9976 levels ...]...``."""

    __slots__ = ("parent", "part")
    SHOWN = 12

    def __init__(self, parent: JsonPath | None, part: str):
        self.parent, self.part = parent, part

    def __truediv__(self, part: str) -> JsonPath:
        return JsonPath(self, part)

    def __str__(self) -> str:
        parts = []
        at = self
        while at is not None:
            parts.append(at.part)
            at = at.parent
        parts.reverse()
        if len(parts) <= 2 * self.SHOWN:
            return "".join(parts)
        middle = parts[self.SHOWN : -self.SHOWN]
        levels = sum(1 for part in middle if part.endswith(".node"))
        return "".join(parts[: self.SHOWN]) + f"[... {levels} levels ...]" + "".join(parts[-self.SHOWN :])


_NUMBER, _TEXT, _WHOLE = "a number", "a string", "an integer"
PARAMETERS = {  # the recorded growth parameters a model's "parameters" may hold, and what each must be
    "algorithm": (_TEXT, False),
    "criterion": (_TEXT, False),
    "missing": (_TEXT, False),
    "zero_gain": (_TEXT, False),
    "ties": (_TEXT, False),
    "thresholds": (_TEXT, True),
    "min_split": (_NUMBER, False),
    "min_leaf": (_NUMBER, True),
    "min_gain": (_NUMBER, False),
    "purity": (_NUMBER, False),
    "chi2_alpha": (_NUMBER, True),
    "max_depth": (_WHOLE, True),
    "max_leaves": (_WHOLE, True),
    "max_bins": (_WHOLE, True),
    "seed": (_WHOLE, False),
    "collapse": ("true or false", False),
    "costs": ("an object", True),
    "pruning": ("an object", False),
}


def _is(value, kind: str) -> bool:
    if kind == _NUMBER:
        return type(value) in (int, float) and math.isfinite(_float(value))
    if kind == _WHOLE:
        return type(value) is int
    if kind == _TEXT:
        return type(value) is str
    if kind == "an object":
        return type(value) is dict
    return type(value) is bool


class FieldReader:
    """Field access that reports the JSON path of the first bad field."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, path, problem: str) -> ModelFormatError:
        return ModelFormatError(f"{self.source}: invalid model: {path}: {problem}")

    def get(self, obj: dict, key: str, kind: type, path):
        """``obj[key]``, checked to be a ``kind`` (an int is taken for a float); ``path`` (a str
        or JsonPath) is where ``obj`` is, named in the error."""
        if type(obj) is not dict:
            raise self.fail(path or "the document", f"expected an object, found {type(obj).__name__}")
        if key not in obj:
            raise self.fail(f"{path}.{key}" if path else key, "missing")
        value = obj[key]
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = _float(value)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise self.fail(f"{path}.{key}" if path else key, f"expected {kind.__name__}, found {type(value).__name__}")
        return value

    def schema(self, obj: dict) -> Schema:
        attributes = []
        seen = set()
        for i, entry in enumerate(self.get(obj, "attributes", list, "schema")):
            path = f"schema.attributes[{i}]"
            if not isinstance(entry, dict):
                raise self.fail(path, "expected an object")
            name = self.get(entry, "name", str, path)
            kind = self.get(entry, "kind", str, path)
            if kind not in KINDS:
                raise self.fail(f"{path}.kind", f"unknown kind {kind!r} (expected one of {', '.join(KINDS)})")
            if name in seen:
                raise self.fail(f"{path}.name", f"duplicate attribute {name!r}")
            seen.add(name)
            values = tuple(self.strings(entry, "values", path)) if kind == NOMINAL else ()
            attributes.append(Attribute(name, kind, values, self.date(entry, path) if kind == NUMERIC else ""))
        target = self.get(obj, "target", dict, "schema")
        target_name = self.get(target, "name", str, "schema.target")
        if target_name in seen:
            raise self.fail("schema.target.name", f"{target_name!r} is also an attribute")
        names = [a.name for a in attributes] + [target_name]
        if (same := clash(names)) is not None:  # (one name written two ways: colnames)
            where = f"schema.attributes[{same[1]}].name" if same[1] < len(attributes) else "schema.target.name"
            raise self.fail(where, clash_text(names[same[0]], names[same[1]]))
        if target.get("kind") == "numeric":
            return Schema(tuple(attributes), Attribute(target_name, NUMERIC))
        classes = self.strings(target, "classes", "schema.target")
        if len(classes) < 1:
            raise self.fail("schema.target.classes", "empty")
        target_attr = Attribute(target_name, NOMINAL, tuple(classes))
        return Schema(tuple(attributes), target_attr)

    def date(self, entry: dict, path: str) -> str:
        """A numeric attribute's date format (``date.format``; empty when it holds plain numbers)."""
        if "date" not in entry:
            return ""
        date = self.get(entry, "date", dict, path)
        time = self.get(date, "format", str, f"{path}.date")
        if self.get(date, "unit", str, f"{path}.date") != DATE_UNIT:
            raise self.fail(f"{path}.date.unit", f"expected {DATE_UNIT!r}")
        try:
            date_format(time)
        except DateFormatError as exc:
            raise self.fail(f"{path}.date.format", str(exc)) from None
        return time

    def parameters(self, obj: dict) -> dict:
        """The ``parameters`` object: the known growth parameters must have their types (the
        others are kept as they are); ``costs`` as ``AttributeCosts`` writes it."""
        parameters = self.get(obj, "parameters", dict, "")
        for key, (kind, nullable) in PARAMETERS.items():
            if key in parameters and not (_is(parameters[key], kind) or (nullable and parameters[key] is None)):
                raise self.fail(f"parameters.{key}", f"expected {kind}{' or null' if nullable else ''}")
        if "weights" in parameters and not _is(parameters["weights"], _TEXT):
            raise self.fail("parameters.weights", "expected the name of the weights column")
        weights = parameters.get("class_weight", "balanced")
        if weights != "balanced" and not (
            isinstance(weights, dict) and all(_is(v, _NUMBER) and v >= 0 for v in weights.values())
        ):
            raise self.fail("parameters.class_weight", 'expected "balanced" or a number of at least 0 per class')
        costs = parameters.get("costs")
        if costs is not None:
            if set(costs) - {"costs", "measure", "nunez_w"} or not isinstance(costs.get("costs", {}), dict):
                raise self.fail("parameters.costs", "expected costs, measure and nunez_w")
            if not all(type(k) is str and _is(v, _NUMBER) for k, v in costs.get("costs", {}).items()):
                raise self.fail("parameters.costs.costs", "expected a number per attribute")
            if not _is(costs.get("measure", ""), _TEXT) or not _is(costs.get("nunez_w", 1.0), _NUMBER):
                raise self.fail("parameters.costs", "expected measure (a string) and nunez_w (a number)")
        return parameters

    def strings(self, obj: dict, key: str, path: str) -> list[str]:
        values = self.get(obj, key, list, path)
        if not all(isinstance(v, str) for v in values):
            raise self.fail(f"{path}.{key}", "expected a list of strings")
        if len(set(values)) != len(values):
            raise self.fail(f"{path}.{key}", "values repeat")
        return values

    def number(self, obj: dict, key: str, path: str, minimum: float | None = None) -> float:
        value = self.get(obj, key, float, path)
        if not math.isfinite(value) or (minimum is not None and value < minimum):
            raise self.fail(
                f"{path}.{key}", "expected a finite number" + ("" if minimum is None else f" >= {minimum:g}")
            )
        return value

    def counts(self, obj: dict, schema: Schema, path: str) -> np.ndarray:
        """The ``counts`` field: one finite, non-negative number per class."""
        counts = self.get(obj, "counts", list, path)
        if len(counts) != len(schema.classes) or not (
            all(type(c) is float and 0.0 <= c < math.inf for c in counts)  # NaN fails the comparison
            or all(
                isinstance(c, (int, float)) and not isinstance(c, bool) and 0 <= _float(c) < math.inf for c in counts
            )
        ):
            raise self.fail(f"{path}.counts", f"expected {len(schema.classes)} non-negative numbers")
        return np.asarray(counts, dtype=np.float64)

    def class_index(self, obj: dict, key: str, schema: Schema, path: str) -> int:
        """The index of the class named by the field ``key``."""
        name = self.get(obj, key, str, path)
        code = schema.target.code_of(name)
        if code < 0:
            raise self.fail(f"{path}.{key}", f"{name!r} is not one of the classes")
        return code
