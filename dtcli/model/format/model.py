"""The JSON model format, version 1; documented in man/dtree-formats.5.

Models are plain JSON, never pickle: loading one runs no code. Writing uses
sorted keys and a trailing newline, so the same tree gives the same bytes.
Reading validates every field and names the first one that is wrong.

Layout: the first ``INDENTED_DEPTH`` levels of nodes are indented as
``json.dumps(indent=2)`` does; a node that deep or deeper is written compactly,
on one line with its subtree: indentation grows with the square of the depth
(a node at depth 60 took 3 KB indented against 100 bytes compact), so deep trees
stay in proportion to their content, and the small trees people read look as
``json.dumps`` writes them. Deep trees: nothing here recurses. A document
``json.loads`` cannot read for its depth is read by ``jsonparse``; a tree
deeper than ``MAX_DEPTH`` levels is refused with one line.
"""

from __future__ import annotations

import functools
import json
import math

import numpy as np

from dtcli.errors import ModelFormatError
from dtcli.model.format import flat as flat_json
from dtcli.model.format import nodes as nodes_json
from dtcli.model.format import parse as jsonparse
from dtcli.model.format import text as jsontext
from dtcli.model.format.schema import FieldReader, JsonPath, schema_to_dict
from dtcli.model.table import Schema
from dtcli.model.tree import TESTS, Node, NominalTest, NumericTest, SubsetTest, Tree, without_gc
from dtcli.version import __version__

FORMAT = "dtree-model"
SCHEMA_VERSION = 1
MAX_DEPTH = 100_000  # the deepest tree a model file may hold (levels: tests on the longest path)
INDENTED_DEPTH = 10  # nodes this deep or deeper are written without line breaks
_COMPACT_FROM = 1 + 3 * INDENTED_DEPTH  # JSON level of such a node: the document, then 3 a tree level
_JSON_DEPTH = 3 * MAX_DEPTH + 16  # JSON levels of the deepest model, with room for its node's fields


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
    """The model as JSON text: sorted keys, two-space indent down to ``INDENTED_DEPTH``, final newline."""
    check_depth(tree)
    with without_gc():
        return jsontext.dumps(tree_to_dict(tree, lazy=True), compact_from=_COMPACT_FROM) + "\n"


def dump_model(tree: Tree, write) -> None:
    """``dumps_model(tree)`` passed to ``write`` in parts (large trees: far less memory)."""
    check_depth(tree)
    with without_gc():
        jsontext.dump(tree_to_dict(tree, lazy=True), write, compact_from=_COMPACT_FROM)
    write("\n")


def check_depth(tree: Tree) -> None:
    """A tree deeper than a model file may hold (``MAX_DEPTH``) is refused before anything is written."""
    depth = tree.root.depth()
    if depth > MAX_DEPTH:
        raise ModelFormatError(
            f"the tree is {depth} levels deep and a model file holds at most {MAX_DEPTH}; "
            "grow a shallower one (e.g. with --max-depth)"
        )


def _node_to_dict(node: Node, classes: tuple[str, ...], lazy: bool = False, depth: int = 0) -> dict:
    """The node's dictionary with its subtree: made at once with a stack, or (``lazy``) with each
    child's dictionary a ``jsontext.Lazy`` made when it is written (``depth``: the node's; a
    child ``INDENTED_DEPTH`` deep is made as its compact text with its subtree, at once)."""
    top = _fields(node, classes)
    stack = [(node, top)]
    while stack:
        node, out = stack.pop()
        if node.is_leaf:
            continue
        branches = []
        for value, child in zip(branch_values(node.test), node.children):
            if lazy and depth + 1 >= INDENTED_DEPTH:
                made = jsontext.Lazy(functools.partial(_compact_text, child, classes))
            elif lazy:
                made = jsontext.Lazy(functools.partial(_node_to_dict, child, classes, True, depth + 1))
            else:
                made = _fields(child, classes)
                stack.append((child, made))
            branches.append({"value": value, "node": made})
        out["branches"] = branches
    return top


def _compact_text(node: Node, classes: tuple[str, ...]) -> jsontext.Raw:
    return jsontext.Raw(nodes_json.node_text(node, classes))


def _fields(node: Node, classes: tuple[str, ...]) -> dict:
    """A node's dictionary but for its branches."""
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
    return out


def branch_values(test) -> list[str]:
    """What each branch is called in the file: the nominal value, or ``<=``/``>``."""
    if isinstance(test, (NumericTest, SubsetTest)):
        return list(test.BRANCHES)
    return list(test.attribute.values)


_LOADED: dict = {}  # the last model text loads_once parsed -> its Tree


def loads_once(text: str, source: str = "<model>") -> Tree:
    """``loads_model(text, source)``, kept for the next call with the same text (a Dask worker
    parses a model shipped to it once, not once a partition)."""
    if text not in _LOADED:
        _LOADED.clear()
        _LOADED[text] = loads_model(text, source)
    return _LOADED[text]


def loads_model(text: str, source: str = "<model>", on_schema=None, flat: bool = False) -> Tree:
    """Parse and validate model JSON (or a rule set); raise ModelFormatError naming the problem.
    ``on_schema(schema)``, when given, is called as soon as a tree's schema is read (before its nodes);
    with ``flat``, a well-formed tree comes as a ``flat_json.FlatTree`` (for prediction alone)."""
    with without_gc():
        return tree_from_dict(loads_document(text, source), source, on_schema=on_schema, flat=flat)


def loads_document(text: str, source: str):
    """The parsed JSON of a model or rule set file: ``json.loads``, or for a document nested
    too deeply for it (or holding an integer longer than it converts) ``jsonparse``, which
    refuses documents deeper than the deepest model; strings must be valid Unicode."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _invalid_json(exc, source) from None
    except (RecursionError, ValueError):
        try:
            data = jsonparse.loads(text, _JSON_DEPTH)
        except jsonparse.TooDeep:
            raise too_deep(source) from None
        except json.JSONDecodeError as exc:
            raise _invalid_json(exc, source) from None
    found = jsonparse.lone_surrogate(data) if jsonparse.may_hold_surrogates(text) else None
    if found is not None:
        where = JsonPath(None, "")
        for part in found:
            where = where / (f"[{part}]" if type(part) is int else f".{part}")
        raise ModelFormatError(
            f"{source}: invalid model: {str(where).lstrip('.') or 'the document'}: a string holds a lone "
            "surrogate (an unpaired \\ud800-\\udfff escape), which is not text; correct or remove it"
        )
    return data


def _invalid_json(exc: json.JSONDecodeError, source: str) -> ModelFormatError:
    return ModelFormatError(
        f"{source}: not a dtree model: invalid JSON at line {exc.lineno}, "
        f"column {exc.colno} ({exc.msg}); give a file written by 'dtree train -o'"
    )


def too_deep(source: str) -> ModelFormatError:
    """The error for a model deeper than ``MAX_DEPTH`` levels."""
    return ModelFormatError(
        f"{source}: model is deeper than {MAX_DEPTH} levels; dtree reads trees of at most {MAX_DEPTH} levels "
        "(grow a shallower one, e.g. with --max-depth)"
    )


def tree_from_dict(data: object, source: str = "<model>", fast: bool = True, on_schema=None, flat: bool = False):
    """Build a Tree (or, for ``"format": "dtree-rules"``, a RuleSet) from a parsed model
    dictionary, validating as it goes (``fast``: the nodes of a well-formed model are read by
    ``nodes_json``; False: always by the validating reader, which tests compare it with)."""
    reader = _TreeReader(source, fast)
    if isinstance(data, dict) and data.get("format") == "dtree-rules":
        from dtcli.model.rules import rules_from_dict  # here: only rule-set documents need it

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
    if on_schema is not None:
        on_schema(schema)
    nodes = flat_json.read_flat(reader.get(data, "root", dict, ""), schema, MAX_DEPTH) if flat and fast else None
    if nodes is not None:
        algorithm = reader.get(data, "algorithm", str, "")
        parameters = upgraded(reader.parameters(data))
        return flat_json.FlatTree(schema, nodes, algorithm, parameters, reader.get(data, "training_data", dict, ""))
    root = reader.tree(reader.get(data, "root", dict, ""), schema)
    return Tree(
        schema=schema,
        root=root,
        algorithm=reader.get(data, "algorithm", str, ""),
        parameters=upgraded(reader.parameters(data)),
        training=reader.get(data, "training_data", dict, ""),
    )


def upgraded(parameters: dict) -> dict:
    """A model's parameters as this dtree names them. Files written before dtree recorded
    ``zero_gain`` grew ``--missing majority`` and ``class-majority`` trees of
    ID3 and C4.5 by filling the whole table once: those policies are now called
    ``root-majority`` and ``root-class-majority`` (regrowing gives the same tree; predictions
    are unchanged either way). CART's ``majority`` never filled values in and stays."""
    if "zero_gain" in parameters or parameters.get("algorithm") == "cart":
        return parameters
    if parameters.get("missing") in ("majority", "class-majority"):
        return {**parameters, "missing": "root-" + parameters["missing"]}
    return parameters


class _TreeReader(FieldReader):
    """A FieldReader that also reads the tree's nodes and tests."""

    def __init__(self, source: str, fast: bool = True):
        super().__init__(source)
        self.fast = fast

    def tree(self, obj: dict, schema: Schema) -> Node:
        """The root Node and every node below it, read in preorder with a stack (so the first bad
        field in the file's order is named), refusing a tree deeper than ``MAX_DEPTH``."""
        fast = nodes_json.read_nodes(obj, schema, MAX_DEPTH) if self.fast else None
        if fast is not None:
            return fast
        path = JsonPath(None, "root")
        root, branches = self.node(obj, schema, path)
        stack = [(root, iter(enumerate(branches)), path)]  # nodes whose branches are being read
        while stack:
            parent, pending, path = stack[-1]
            i, branch = next(pending, (None, None))
            if branch is None:
                stack.pop()
                continue
            if len(stack) > MAX_DEPTH:
                raise too_deep(self.source)
            where = path / f".branches[{i}].node"
            obj = branch.get("node")  # ``branch`` is a dict: its value was checked
            if type(obj) is not dict:
                raise self.fail(
                    where, "missing" if "node" not in branch else f"expected dict, found {type(obj).__name__}"
                )
            child, below = self.node(obj, schema, where)
            parent.children.append(child)
            if below:
                stack.append((child, iter(enumerate(below)), where))
        return root

    def node(self, obj: dict, schema: Schema, path: JsonPath) -> tuple[Node, list]:
        """One node without its children, and its branches (checked against its test) to read."""
        kind = self.get(obj, "kind", str, path)
        if schema.is_regression:
            node = self.regression_node(obj, path)
        else:
            node = self.class_node(obj, schema, path)
        if kind == "leaf":
            return node, []
        if kind != "split":
            raise self.fail(path / ".kind", f"unknown node kind {kind!r} (expected leaf or split)")
        node.test = self.test(self.get(obj, "test", dict, path), schema, path / ".test")
        if "score" in obj:
            node.score = self.get(obj, "score", float, path)
            if not math.isfinite(node.score):
                raise self.fail(path / ".score", "expected a finite number")
        branches = self.get(obj, "branches", list, path)
        expected = branch_values(node.test)
        if [b.get("value") if isinstance(b, dict) else None for b in branches] != expected:
            shown = repr(expected) if len(expected) <= 10 else f"{expected[:10]!r} and {len(expected) - 10} more"
            raise self.fail(path / ".branches", f"expected one branch per value, in order: {shown}")
        return node, branches

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
            unknown = [v for v in values if v not in attribute.codes]
            if unknown or not values:
                raise self.fail(f"{path}.values", f"expected values of {name!r}, found {unknown or 'none'}")
            return SubsetTest(attribute, tuple(values))
        return NominalTest(attribute)
