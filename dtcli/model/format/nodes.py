"""A model's node tree read from parsed JSON and written as compact JSON text, fast.

``read_nodes`` builds the nodes of a well-formed model with checks inlined per
node and the class counts checked and made into arrays once for the whole tree.
It never reports an error: at the first thing it does not expect (a bad field,
but also a valid model it leaves to the full reader, such as integer counts) it
gives up and returns None, and ``serialize`` reads the tree again with its
validating reader, which names the first bad field. So it only ever accepts
what that reader accepts, and builds the same tree (tests/model/test_nodes_json.py
checks both on valid and damaged models).

``node_text`` writes a subtree as compact JSON text straight from the nodes, the
bytes ``jsontext`` writes for its dictionaries (and ``json.dumps`` with sorted
keys and no spaces); the model file holds nodes 10 or more levels down so.
"""

from __future__ import annotations

import math
from itertools import chain
from json.encoder import encode_basestring
from math import isfinite

import numpy as np

from dtcli.model.format.text import float_text
from dtcli.model.table import Schema
from dtcli.model.tree import Node, NominalTest, NumericTest, SubsetTest

SURPRISES = (LookupError, TypeError, ValueError, AttributeError)  # a field missing or of another type


class Doubt(Exception):
    """Something the fast readers (this one and ``flat_json``'s) leave to the validating one."""


def read_nodes(root: dict, schema: Schema, max_depth: int) -> Node | None:
    """The root Node of the tree under ``root`` (a parsed node object) and every node below it,
    or None when the validating reader must read it (a problem, or anything unusual)."""
    try:
        return _Reader(schema, max_depth).read(root)
    except (Doubt, *SURPRISES):
        return None


class _Reader:
    """One tree being read: the schema's lookups, the tests made so far, the nodes in the order read."""

    def __init__(self, schema: Schema, max_depth: int):
        self.schema, self.max_depth = schema, max_depth
        self.regression = schema.is_regression
        self.classes = {} if self.regression else schema.target.codes
        self.test = SplitTests(schema).test
        self.nodes: list[Node] = []
        self.numbers: list = []  # each node's counts list (regression: its weight)

    def read(self, root: dict) -> Node:
        if type(root) is not dict:
            raise Doubt
        top: list[Node] = []
        stack = [(root, top, 0)]  # (node object, its parent's children, its depth)
        pop, push, split, max_depth = stack.pop, stack.append, self.split, self.max_depth
        numbers, nodes, classes = self.numbers.append, self.nodes.append, self.classes
        width = len(self.schema.classes)
        while stack:
            obj, siblings, depth = pop()
            if self.regression:
                made = self.regression_node(obj)
            else:
                counts = obj["counts"]
                if type(counts) is not list or len(counts) != width:
                    raise Doubt
                numbers(counts)
                made = Node(None, classes[obj["label"]])
            nodes(made)
            siblings.append(made)
            kind = obj["kind"]
            if kind == "leaf":
                continue
            if kind != "split" or depth >= max_depth:
                raise Doubt
            children = made.children
            for branch in reversed(split(made, obj)):  # popped in order: children are appended in order
                child = branch["node"]
                if type(child) is not dict:
                    raise Doubt
                push((child, children, depth + 1))
        self.arrays()
        return top[0]

    def split(self, made: Node, obj: dict) -> list:
        """Give the split node ``made`` its test and score; its branches, checked against the test."""
        made.test, expected = self.test(obj["test"])
        if "score" in obj:
            score = obj["score"]
            if type(score) is not float or not isfinite(score):
                raise Doubt
            made.score = score
        branches = obj["branches"]
        if type(branches) is not list or len(branches) != len(expected):
            raise Doubt
        for branch, value in zip(branches, expected):
            if type(branch) is not dict or branch.get("value") != value:
                raise Doubt
        return branches

    def regression_node(self, obj: dict) -> Node:
        weight, value, impurity = obj["weight"], obj["value"], obj["impurity"]
        if type(weight) is not float or type(value) is not float or type(impurity) is not float:
            raise Doubt
        if not (0.0 <= weight < math.inf and 0.0 <= impurity < math.inf and math.isfinite(value)):
            raise Doubt
        self.numbers.append(weight)
        return Node(None, 0, value=value, impurity=impurity)

    def arrays(self) -> None:
        """Check every node's counts at once and give each node its row of one array."""
        numbers = self.numbers
        if self.regression:
            table = np.array(numbers, dtype=np.float64).reshape(-1, 1)
        else:
            width = len(self.schema.classes)
            # float.__float__ refuses anything but a float (an int, a bool, a string): TypeError
            table = np.fromiter(map(float.__float__, chain.from_iterable(numbers)), np.float64, len(numbers) * width)
            table = table.reshape(len(numbers), width)
            if not (np.isfinite(table).all() and (table >= 0.0).all()):
                raise Doubt
        for made, row in zip(self.nodes, table):
            made.counts = row


def node_text(node: Node, classes: tuple[str, ...]) -> str:
    """The compact JSON text of ``node`` and its subtree: what ``jsontext`` writes compactly
    (sorted keys, no spaces) for the node's dictionary (``serialize.tree_to_dict``), made
    straight from the nodes with a stack."""
    out: list[str] = []
    stack: list = [node]
    pop, push, append = stack.pop, stack.append, out.append
    fields_text = _FieldTexts(classes).text
    joints: dict = {}  # a test's branch values -> the texts between its children, and after the last
    while stack:
        item = pop()
        if type(item) is str:
            append(item)
            continue
        fields = fields_text(item)
        test = item.test
        if test is None:
            append("{" + fields)
            continue
        append('{"branches":[{"node":')
        values = getattr(test, "BRANCHES", None) or test.attribute.values
        joint = joints.get(values)
        if joint is None:
            texts = [encode_basestring(value) for value in values]
            between = [',"value":' + text + '},{"node":' for text in texts[:-1]]
            joint = joints[values] = (between, ',"value":' + texts[-1] + "}],")
        between, last = joint
        children = item.children
        push(last + fields)
        for i in range(len(children) - 1, 0, -1):
            push(children[i])
            push(between[i - 1])
        push(children[0])
    return "".join(out)


class _FieldTexts:
    """A node's fields but its branches, sorted, and the closing brace (``text``), with the texts
    nodes share (class labels, a test's attribute and kind) made once."""

    def __init__(self, classes: tuple[str, ...]):
        self.labels = [encode_basestring(label) for label in classes]
        self.tests: dict = {}  # (attribute name, kind) -> the test's text up to its threshold or values

    def text(self, node: Node) -> str:
        test = node.test
        extra = "" if test is None else self.test_text(node, test)
        kind = '"kind":"leaf"' if test is None else '"kind":"split"'
        if node.value is None:
            counts = ",".join(map(float.__repr__, node.counts.tolist()))
            if "n" in counts:  # nan or inf, which JSON text calls NaN and Infinity
                counts = ",".join(map(float_text, node.counts.tolist()))
            return '"counts":[' + counts + "]," + kind + ',"label":' + self.labels[node.label] + extra + "}"
        impurity = float_text(float(node.impurity or 0.0))
        value, weight = float_text(float(node.value)), float_text(float(node.weight))
        return '"impurity":' + impurity + "," + kind + extra + ',"value":' + value + ',"weight":' + weight + "}"

    def test_text(self, node: Node, test) -> str:
        """``,"score":...,"test":{...}`` of a split node."""
        extra = "" if node.score is None else ',"score":' + float_text(float(node.score))
        kind = test.kind
        key = (test.attribute.name, kind)
        head = self.tests.get(key)
        if head is None:
            head = self.tests[key] = ',"test":{"attribute":' + encode_basestring(key[0]) + ',"kind":"' + kind + '"'
        if kind == "numeric":
            return extra + head + ',"threshold":' + float_text(float(test.threshold)) + "}"
        if kind == "subset":
            return extra + head + ',"values":[' + ",".join(map(encode_basestring, test.values)) + "]}"
        return extra + head + "}"


class SplitTests:
    """Split tests read from their JSON objects for the fast readers: each distinct nominal or
    subset test made once (nodes share it), with the values its branches must have, in order;
    ``Doubt`` for anything unusual."""

    def __init__(self, schema: Schema):
        self.numeric = {a.name: a for a in schema.attributes if not a.is_nominal}
        self.nominal = {a.name: a for a in schema.attributes if a.is_nominal}
        self.known: dict = {}  # nominal and subset tests, made once per attribute (and values)

    def test(self, obj: dict):
        """The test of a split and the values its branches must have, in order."""
        if type(obj) is not dict:
            raise Doubt
        kind, name = obj["kind"], obj["attribute"]
        if kind == "numeric":
            threshold = obj["threshold"]
            if type(threshold) is not float or not math.isfinite(threshold):
                raise Doubt
            return NumericTest(self.numeric[name], threshold), NumericTest.BRANCHES
        if kind == "nominal":
            key = name
        elif kind == "subset" and type(obj["values"]) is list:
            key = (name, tuple(obj["values"]))
        else:
            raise Doubt
        known = self.known.get(key)
        if known is None:
            known = self.known[key] = self.new_test(kind, self.nominal[name], key)
        return known

    @staticmethod
    def new_test(kind: str, attribute, key):
        if kind == "nominal":
            return NominalTest(attribute), tuple(attribute.values)
        values = key[1]
        if not values or len(set(values)) != len(values) or not all(type(v) is str for v in values):
            raise Doubt
        if not all(v in attribute.codes for v in values):
            raise Doubt
        return SubsetTest(attribute, values), SubsetTest.BRANCHES
