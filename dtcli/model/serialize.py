"""The JSON model format (DESIGN §5), version 1; documented in README.md.

Models are plain JSON, never pickle: loading one runs no code. Writing uses
sorted keys and a trailing newline, so the same tree gives the same bytes.
Reading validates every field and names the first one that is wrong.
"""

from __future__ import annotations

import functools
import json
import math

import numpy as np

from dtcli import __version__
from dtcli.errors import ModelFormatError
from dtcli.model import jsontext
from dtcli.model.rules import rules_from_dict
from dtcli.model.schema_json import FieldReader, schema_to_dict
from dtcli.model.table import Schema
from dtcli.model.tree import TESTS, Node, NominalTest, NumericTest, SubsetTest, Tree

FORMAT = "dtree-model"
SCHEMA_VERSION = 1


def tree_to_dict(tree: Tree, lazy: bool = False) -> dict:
    """The JSON-ready dictionary of a model (``lazy``: each node's dictionary is made when
    ``jsontext`` writes it, so a large tree never exists twice)."""
    return {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "generator": f"dtree {__version__}",
        "algorithm": tree.algorithm,
        "parameters": dict(tree.parameters),
        "training_data": dict(tree.training),
        "schema": schema_to_dict(tree.schema),
        "root": _node_to_dict(tree.root, tree.schema.classes, lazy),
    }


def dumps_model(tree: Tree) -> str:
    """The model as JSON text: sorted keys, two-space indent, final newline."""
    return jsontext.dumps(tree_to_dict(tree, lazy=True)) + "\n"


def dump_model(tree: Tree, write) -> None:
    """``dumps_model(tree)`` passed to ``write`` in parts (large trees: far less memory)."""
    jsontext.dump(tree_to_dict(tree, lazy=True), write)
    write("\n")


def _node_to_dict(node: Node, classes: tuple[str, ...], lazy: bool = False) -> dict:
    out = {"kind": "leaf" if node.is_leaf else "split"}
    if node.value is not None:  # regression
        out.update(weight=float(node.weight), value=float(node.value), impurity=float(node.impurity or 0.0))
    else:
        out.update(counts=[float(c) for c in node.counts], label=classes[node.label])
    if node.is_leaf:
        return out
    out["test"] = {"kind": node.test.kind, "attribute": node.test.attribute.name}
    if isinstance(node.test, NumericTest):
        out["test"]["threshold"] = float(node.test.threshold)
    if isinstance(node.test, SubsetTest):
        out["test"]["values"] = list(node.test.values)
    if node.score is not None:
        out["score"] = float(node.score)
    pairs = zip(branch_values(node.test), node.children)
    if lazy:
        make = functools.partial
        out["branches"] = [
            {"value": value, "node": jsontext.Lazy(make(_node_to_dict, child, classes, True))} for value, child in pairs
        ]
    else:
        out["branches"] = [{"value": value, "node": _node_to_dict(child, classes)} for value, child in pairs]
    return out


def branch_values(test) -> list[str]:
    """What each branch is called in the file: the nominal value, or ``<=``/``>``."""
    if isinstance(test, (NumericTest, SubsetTest)):
        return list(test.BRANCHES)
    return list(test.attribute.values)


def loads_model(text: str, source: str = "<model>") -> Tree:
    """Parse and validate model JSON; raise ModelFormatError naming the problem."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ModelFormatError(
            f"{source}: not a dtree model: invalid JSON at line {exc.lineno}, "
            f"column {exc.colno} ({exc.msg}); give a file written by 'dtree train -o'"
        ) from None
    return tree_from_dict(data, source)


def tree_from_dict(data: object, source: str = "<model>"):
    """Build a Tree (or, for ``"format": "dtree-rules"``, a RuleSet) from a parsed model
    dictionary, validating as it goes."""
    reader = _TreeReader(source)
    if isinstance(data, dict) and data.get("format") == "dtree-rules":
        return rules_from_dict(data, source)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ModelFormatError(
            f'{source}: not a dtree model (no "format": "{FORMAT}" field); give a file written by \'dtree train -o\''
        )
    version = reader.get(data, "schema_version", int, "")
    if version > SCHEMA_VERSION or version < 1:
        raise ModelFormatError(
            f"{source}: model schema_version {version} is not supported; this dtree "
            f"({__version__}) reads version {SCHEMA_VERSION}: upgrade dtree or retrain"
        )
    schema = reader.schema(reader.get(data, "schema", dict, ""))
    root = reader.node(reader.get(data, "root", dict, ""), schema, "root")
    return Tree(
        schema=schema,
        root=root,
        algorithm=reader.get(data, "algorithm", str, ""),
        parameters=reader.get(data, "parameters", dict, ""),
        training=reader.get(data, "training_data", dict, ""),
    )


class _TreeReader(FieldReader):
    """A FieldReader that also reads the tree's nodes and tests."""

    def node(self, obj: dict, schema: Schema, path: str) -> Node:
        kind = self.get(obj, "kind", str, path)
        if schema.is_regression:
            node = self.regression_node(obj, path)
        else:
            node = self.class_node(obj, schema, path)
        if kind == "leaf":
            return node
        if kind != "split":
            raise self.fail(f"{path}.kind", f"unknown node kind {kind!r} (expected leaf or split)")
        node.test = self.test(self.get(obj, "test", dict, path), schema, f"{path}.test")
        if "score" in obj:
            node.score = self.get(obj, "score", float, path)
            if not math.isfinite(node.score):
                raise self.fail(f"{path}.score", "expected a finite number")
        branches = self.get(obj, "branches", list, path)
        expected = branch_values(node.test)
        if [b.get("value") if isinstance(b, dict) else None for b in branches] != expected:
            raise self.fail(f"{path}.branches", f"expected one branch per value, in order: {expected}")
        node.children = [
            self.node(self.get(b, "node", dict, f"{path}.branches[{i}]"), schema, f"{path}.branches[{i}].node")
            for i, b in enumerate(branches)
        ]
        return node

    def regression_node(self, obj: dict, path: str) -> Node:
        weight = self.number(obj, "weight", path, 0.0)
        return Node(
            np.array([weight]),
            0,
            value=self.number(obj, "value", path),
            impurity=self.number(obj, "impurity", path, 0.0),
        )

    def class_node(self, obj: dict, schema: Schema, path: str) -> Node:
        counts = self.counts(obj, schema, path)
        return Node(counts, self.class_index(obj, "label", schema, path))

    def test(self, obj: dict, schema: Schema, path: str):
        kind = self.get(obj, "kind", str, path)
        if kind not in TESTS:
            raise self.fail(f"{path}.kind", f"unknown test kind {kind!r} (expected one of {', '.join(sorted(TESTS))})")
        name = self.get(obj, "attribute", str, path)
        try:
            attribute = schema.attributes[schema.index(name)]
        except KeyError:
            raise self.fail(f"{path}.attribute", f"{name!r} is not in the schema") from None
        if kind == "numeric":
            if attribute.is_nominal:
                raise self.fail(f"{path}.attribute", f"{name!r} is nominal; a numeric test needs a numeric attribute")
            threshold = self.get(obj, "threshold", float, path)
            if not math.isfinite(threshold):
                raise self.fail(f"{path}.threshold", "expected a finite number")
            return NumericTest(attribute, threshold)
        if not attribute.is_nominal:
            raise self.fail(f"{path}.attribute", f"{name!r} is numeric; a {kind} test needs a nominal attribute")
        if kind == "subset":
            values = self.strings(obj, "values", path)
            unknown = [v for v in values if v not in attribute.values]
            if unknown or not values:
                raise self.fail(f"{path}.values", f"expected values of {name!r}, found {unknown or 'none'}")
            return SubsetTest(attribute, tuple(values))
        return NominalTest(attribute)
