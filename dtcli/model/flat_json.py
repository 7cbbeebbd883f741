"""A model's nodes read from parsed JSON straight into arrays, breadth first, for prediction alone (no Node objects).

``read_flat`` accepts exactly the trees ``nodes_json.read_nodes`` accepts, with the same checks
made per node, and gives None for anything else (the caller then reads the tree the usual way,
which names the problem). ``FlatNodes`` holds the tree breadth first, each split's children in
consecutive slots, as ``induction/apply/predict``'s layout wants it; ``nodes()`` makes the Node
objects from it, the tree ``nodes_json`` would have built, for the commands that need them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import chain

import numpy as np

from dtcli.model.nodes_json import SURPRISES, Doubt, SplitTests
from dtcli.model.table import Schema
from dtcli.model.tree import Node, NominalTest, NumericTest, SubsetTest, Tree

LEAF, NUMERIC, NOMINAL, SUBSET = 0, 1, 2, 3


@dataclass
class FlatNodes:
    """A tree breadth first: per slot its kind (LEAF, NUMERIC, NOMINAL, SUBSET), first child slot
    (``cstart``: for a leaf, where its children would start), parent, attribute (position in the
    schema's attributes, -1 at a leaf), threshold, test (the test object), counts (a row each;
    regression: the weight), label, value and impurity (regression; NaN otherwise) and score
    (NaN where none)."""

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

    def nodes(self) -> Node:
        """The root Node of the same tree (each node's counts a row of one array)."""
        n = len(self.kind)
        regression = not np.isnan(self.value).all() if n else False
        made = []
        for i in range(n):
            node = Node(self.counts[i], int(self.label[i]), test=self.tests[i])
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
        self.test = SplitTests(schema).test

    def read(self, root: dict) -> FlatNodes:
        if type(root) is not dict:
            raise Doubt
        queue, depths, parents = [root], [0], [-1]
        cstart, tests, numbers, labels, splits, scores = [], [], [], [], [], []
        values, impurities = [], []
        classes, width, regression = self.schema.target.codes, len(self.schema.classes), self.regression
        add_start, add_test, add_number, add_label = cstart.append, tests.append, numbers.append, labels.append
        i = 0
        for obj in queue:  # (the queue grows as it is read: breadth first)
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
                add_test(None)
                i += 1
                continue
            depth = depths[i]
            if kind != "split" or depth >= self.max_depth:
                raise Doubt
            test, expected = self.test(obj["test"])
            add_test(test)
            splits.append(i)
            scores.append(self.score(obj))
            branches = obj["branches"]
            if type(branches) is not list or len(branches) != len(expected):
                raise Doubt
            for branch, value in zip(branches, expected):
                if type(branch) is not dict or branch.get("value") != value or type(branch["node"]) is not dict:
                    raise Doubt
                queue.append(branch["node"])
            depths.extend([depth + 1] * len(branches))
            parents.extend([i] * len(branches))
            i += 1
        return self.arrays(cstart, parents, tests, numbers, labels, (splits, scores), values, impurities)

    def arrays(self, cstart, parents, tests, numbers, labels, split_scores, values, impurities) -> FlatNodes:
        """The arrays of the nodes read (``split_scores``: the split slots and their scores)."""
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
        splits, scores = split_scores
        made = [tests[i] for i in splits]
        kind, attr = np.zeros(n, dtype=np.int8), np.full(n, -1, dtype=np.int64)
        thr, score = np.zeros(n), np.full(n, np.nan)
        codes = {NumericTest: NUMERIC, NominalTest: NOMINAL, SubsetTest: SUBSET}
        kind[splits] = [codes[type(test)] for test in made]
        attr[splits] = [self.position[test.attribute.name] for test in made]
        thr[splits] = [getattr(test, "threshold", 0.0) for test in made]
        score[splits] = scores
        nan = np.full(n, np.nan)
        return FlatNodes(
            kind, np.array(cstart, dtype=np.int64), np.array(parents, dtype=np.int64), attr, thr, tests, counts,
            np.array(labels, dtype=np.int64), np.array(values, dtype=np.float64) if self.regression else nan,
            np.array(impurities, dtype=np.float64) if self.regression else nan, score,
        )  # fmt: skip

    @staticmethod
    def score(obj: dict) -> float:
        if "score" not in obj:
            return math.nan
        score = obj["score"]
        if type(score) is not float or not math.isfinite(score):
            raise Doubt
        return score

    def regression_node(self, obj: dict, numbers: list, values: list, impurities: list) -> None:
        weight, value, impurity = obj["weight"], obj["value"], obj["impurity"]
        if type(weight) is not float or type(value) is not float or type(impurity) is not float:
            raise Doubt
        if not (0.0 <= weight < math.inf and 0.0 <= impurity < math.inf and math.isfinite(value)):
            raise Doubt
        numbers.append(weight)
        values.append(value)
        impurities.append(impurity)
