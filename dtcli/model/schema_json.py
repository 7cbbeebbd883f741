"""The schema's JSON, shared by the model and rule-set formats, and the reader that validates parsed JSON.

``FieldReader`` gives field access that names the JSON path of the first bad
field (``root.branches[1].node.counts: expected 2 non-negative numbers``); the
model format (``serialize``) and the rule-set format (``rules``) read with it.
"""

from __future__ import annotations

import math

import numpy as np

from dtcli.errors import ModelFormatError
from dtcli.model.table import KINDS, NOMINAL, NUMERIC, Attribute, Schema


def schema_to_dict(schema: Schema) -> dict:
    attributes = []
    for attribute in schema.attributes:
        entry = {"name": attribute.name, "kind": attribute.kind}
        if attribute.is_nominal:
            entry["values"] = list(attribute.values)
        attributes.append(entry)
    if schema.is_regression:
        target = {"name": schema.target.name, "kind": "numeric"}
    else:
        target = {"name": schema.target.name, "classes": list(schema.target.values)}
    return {"attributes": attributes, "target": target}


class FieldReader:
    """Field access that reports the JSON path of the first bad field."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, path: str, problem: str) -> ModelFormatError:
        return ModelFormatError(f"{self.source}: invalid model: {path}: {problem}")

    def get(self, obj: dict, key: str, kind: type, path: str):
        where = f"{path}.{key}" if path else key
        if key not in obj:
            raise self.fail(where, "missing")
        value = obj[key]
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise self.fail(where, f"expected {kind.__name__}, found {type(value).__name__}")
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
            attributes.append(Attribute(name, kind, values))
        target = self.get(obj, "target", dict, "schema")
        target_name = self.get(target, "name", str, "schema.target")
        if target_name in seen:
            raise self.fail("schema.target.name", f"{target_name!r} is also an attribute")
        if target.get("kind") == "numeric":
            return Schema(tuple(attributes), Attribute(target_name, NUMERIC))
        classes = self.strings(target, "classes", "schema.target")
        if len(classes) < 1:
            raise self.fail("schema.target.classes", "empty")
        target_attr = Attribute(target_name, NOMINAL, tuple(classes))
        return Schema(tuple(attributes), target_attr)

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
        if len(counts) != len(schema.classes) or not all(
            isinstance(c, (int, float)) and not isinstance(c, bool) and math.isfinite(c) and c >= 0 for c in counts
        ):
            raise self.fail(f"{path}.counts", f"expected {len(schema.classes)} non-negative numbers")
        return np.asarray(counts, dtype=np.float64)

    def class_index(self, obj: dict, key: str, schema: Schema, path: str) -> int:
        """The index of the class named by the field ``key``."""
        name = self.get(obj, key, str, path)
        if name not in schema.classes:
            raise self.fail(f"{path}.{key}", f"{name!r} is not one of the classes")
        return schema.classes.index(name)
