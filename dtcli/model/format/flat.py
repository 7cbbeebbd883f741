"""A model's nodes read from parsed JSON straight into arrays, breadth first, for prediction alone (no Node objects).

``read_flat`` accepts exactly the trees ``nodes_json.read_nodes`` accepts, with the same checks
made per node, and gives None for anything else (the caller then reads the tree the usual way,
which names the problem). ``FlatNodes`` holds the tree breadth first, each split's children in
consecutive slots, as ``induction/predict/apply``'s layout wants it; ``nodes()`` makes the Node
objects from it, the tree ``nodes_json`` would have built, for the commands that need them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import chain

import numpy as np

from dtcli.model.format.nodes import SURPRISES, Doubt, SplitTests
from dtcli.model.table import Schema
from dtcli.model.tree import Node, NumericTest, SubsetTest, Tree

LEAF, NUMERIC, NOMINAL, SUBSET = 0, 1, 2, 3


@dataclass
class FlatNodes:
    """A tree breadth first: per slot its kind (LEAF, NUMERIC, NOMINAL, SUBSET), first child slot
    (``cstart``: for a leaf, where its children would start), parent, attribute (position in the
    schema's attributes, -1 at a leaf), threshold, test (a nominal or subset test's object; None
    at a leaf and a numeric split: ``nodes()`` makes those from the attribute and threshold),
    counts (a row each; regression: the weight), label, value and impurity (regression; NaN
    otherwise), score (NaN where none), and the schema's attributes."""

    kind: np.ndarray
    cstart: np.ndarray
    parent: np.ndarray
    attr: np.ndarray
    thr: np.ndarray
    tests: list
    counts: np.ndarray
    label: np.ndarray
    value: np.ndarray
    impurity: np.ndarray
    score: np.ndarray
    attributes: tuple

    def nodes(self) -> Node:
        """The root Node of the same tree (each node's counts a row of one array)."""
        n = len(self.kind)
        regression = not np.isnan(self.value).all() if n else False
        made = []
        numeric = (self.kind == NUMERIC).tolist()
        for i in range(n):
            test = NumericTest(self.attributes[self.attr[i]], float(self.thr[i])) if numeric[i] else self.tests[i]
            node = Node(self.counts[i], int(self.label[i]), test=test)
            if not math.isnan(self.score[i]):
                node.score = float(self.score[i])
            if regression:
                node.value, node.impurity = float(self.value[i]), float(self.impurity[i])
            made.append(node)
        for i in range(1, n):
            made[self.parent[i]].children.append(made[i])
        return made[0]


@dataclass
class FlatTree:
    """A tree read for prediction alone: its nodes as ``flat_nodes``, no root Node (``tree()`` makes
    the Tree, for everything else)."""

    schema: Schema
    flat_nodes: FlatNodes
    algorithm: str
    parameters: dict
    training: dict

    @property
    def classes(self) -> tuple[str, ...]:
        return self.schema.classes

    def tree(self) -> Tree:
        return Tree(self.schema, self.flat_nodes.nodes(), self.algorithm, self.parameters, self.training)


def read_flat(root: dict, schema: Schema, max_depth: int) -> FlatNodes | None:
    """The tree under ``root`` (a parsed node object) as FlatNodes, or None (see the module)."""
    try:
        return _Reader(schema, max_depth).read(root)
    except (Doubt, *SURPRISES):
        return None


class _Reader:
    """One tree being read breadth first."""

    def __init__(self, schema: Schema, max_depth: int):
        self.schema, self.max_depth = schema, max_depth
        self.regression = schema.is_regression
        self.position = {a.name: i for i, a in enumerate(schema.attributes)}
        self.numeric = {a.name: i for i, a in enumerate(schema.attributes) if not a.is_nominal}
        self.test = SplitTests(schema).test
        self.splits: list = []  # per split: its slot, kind, attribute position, threshold, score
        self.kinds: list = []
        self.attrs: list = []
        self.thresholds: list = []
        self.scores: list = []

    def read(self, root: dict) -> FlatNodes:
        if type(root) is not dict:
            raise Doubt
        queue, cstart, tests, numbers, labels = [root], [], [None], [], []
        values, impurities = [], []
        classes, width, regression = self.schema.target.codes, len(self.schema.classes), self.regression
        add_start, add_number, add_label, add_node = cstart.append, numbers.append, labels.append, queue.append
        i, depth, level_end = 0, 0, 1  # the slot being read, its depth, where its level ends
        for obj in queue:  # (the queue grows as it is read: breadth first)
            if i == level_end:
                depth, level_end = depth + 1, len(queue)
            if regression:
                self.regression_node(obj, numbers, values, impurities)
                add_label(0)
            else:
                counts = obj["counts"]
                if type(counts) is not list or len(counts) != width:
                    raise Doubt
                add_number(counts)
                add_label(classes[obj["label"]])
            add_start(len(queue))
            kind = obj["kind"]
            if kind == "leaf":
                i += 1
                continue
            if kind != "split" or depth >= self.max_depth:
                raise Doubt
            expected = self.split(i, obj, tests)
            branches = obj["branches"]
            if type(branches) is not list or len(branches) != len(expected):
                raise Doubt
            for branch, value in zip(branches, expected):
                if type(branch) is not dict or branch.get("value") != value:
                    raise Doubt
                node = branch["node"]
                if type(node) is not dict:
                    raise Doubt
                add_node(node)
                tests.append(None)
            i += 1
        return self.arrays(cstart, tests, numbers, labels, values, impurities)

    def split(self, slot: int, obj: dict, tests: list) -> tuple:
        """Read a split's test (a numeric one as its attribute and threshold alone: ``FlatNodes.nodes``
        makes the test) and score; the values its branches must have, in order."""
        test = obj["test"]
        if type(test) is dict and test["kind"] == "numeric":
            threshold = test["threshold"]
            if type(threshold) is not float or not math.isfinite(threshold):
                raise Doubt
            self.attrs.append(self.numeric[test["attribute"]])
            self.thresholds.append(threshold)
            self.kinds.append(NUMERIC)
            expected = NumericTest.BRANCHES
        else:
            made, expected = self.test(test)
            tests[slot] = made
            self.attrs.append(self.position[made.attribute.name])
            self.thresholds.append(0.0)
            self.kinds.append(SUBSET if type(made) is SubsetTest else NOMINAL)
        self.splits.append(slot)
        if "score" not in obj:
            self.scores.append(math.nan)
            return expected
        score = obj["score"]
        if type(score) is not float or not math.isfinite(score):
            raise Doubt
        self.scores.append(score)
        return expected

    def arrays(self, cstart, tests, numbers, labels, values, impurities) -> FlatNodes:
        """The arrays of the nodes read."""
        n = len(tests)
        if self.regression:
            counts = np.array(numbers, dtype=np.float64).reshape(-1, 1)
        else:
            width = len(self.schema.classes)
            # float.__float__ refuses anything but a float (an int, a bool, a string): TypeError
            counts = np.fromiter(map(float.__float__, chain.from_iterable(numbers)), np.float64, n * width)
            counts = counts.reshape(n, width)
            if not (np.isfinite(counts).all() and (counts >= 0.0).all()):
                raise Doubt
        splits = np.array(self.splits, dtype=np.int64)
        kind, attr = np.zeros(n, dtype=np.int8), np.full(n, -1, dtype=np.int64)
        thr, score = np.zeros(n), np.full(n, np.nan)
        kind[splits], attr[splits], thr[splits], score[splits] = self.kinds, self.attrs, self.thresholds, self.scores
        cstart = np.array(cstart, dtype=np.int64)
        many = np.diff(np.append(cstart, n))  # children of each slot
        parent = np.concatenate([[-1], np.repeat(np.arange(n), many)]).astype(np.int64)
        nan = np.full(n, np.nan)
        return FlatNodes(
            kind, cstart, parent, attr, thr, tests, counts, np.array(labels, dtype=np.int64),
            np.array(values, dtype=np.float64) if self.regression else nan,
            np.array(impurities, dtype=np.float64) if self.regression else nan, score, self.schema.attributes,
        )  # fmt: skip

    def regression_node(self, obj: dict, numbers: list, values: list, impurities: list) -> None:
        weight, value, impurity = obj["weight"], obj["value"], obj["impurity"]
        if type(weight) is not float or type(value) is not float or type(impurity) is not float:
            raise Doubt
        if not (0.0 <= weight < math.inf and 0.0 <= impurity < math.inf and math.isfinite(value)):
            raise Doubt
        numbers.append(weight)
        values.append(value)
        impurities.append(impurity)
