"""Tree nodes and the tests at their splits.

A :class:`Node` is a leaf when it has no test. Every node keeps its weighted
class distribution (``counts``, in class order) and the class it predicts
(``label``), so a tree can be printed, pruned and explained without the data.
A test routes rows to branches with array operations (``route``), returning a
branch index per row and ``MISSING`` where the tested value is missing.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from dtcli.model.dates import threshold_text
from dtcli.model.number_text import single_boundary
from dtcli.model.table import MISSING, Attribute, Schema
from dtcli.model.value_text import value_set


@dataclass(frozen=True)
class NominalTest:
    """``A = v``: one branch per value of nominal attribute ``A`` (ID3, C4.5)."""

    attribute: Attribute
    kind: str = field(default="nominal", init=False)

    @property
    def n_branches(self) -> int:
        return len(self.attribute.values)

    def branch_labels(self, show=str) -> list[str]:
        """The condition each branch stands for, e.g. ``Outlook = Sunny`` (names and values
        written by ``show``: printing escapes control characters)."""
        name = show(self.attribute.name)
        return [f"{name} = {show(v)}" for v in self.attribute.values]

    def route(self, column: np.ndarray) -> np.ndarray:
        """Branch index of each row: its value code (``MISSING`` stays missing)."""
        return column


@dataclass(frozen=True)
class NumericTest:
    """``A <= t``: two branches, ``A <= t`` and ``A > t`` (C4.5, CART, ID3 with thresholds)."""

    attribute: Attribute
    threshold: float
    kind: str = field(default="numeric", init=False)

    n_branches = 2
    BRANCHES = ("<=", ">")

    def branch_labels(self, show=str) -> list[str]:
        t, name = threshold_text(self.threshold, self.attribute.time), show(self.attribute.name)
        return [f"{name} <= {t}", f"{name} > {t}"]

    def route(self, column: np.ndarray) -> np.ndarray:
        """0 where the value is at most the threshold, 1 above it, ``MISSING`` where NaN."""
        with np.errstate(invalid="ignore"):
            side = np.where(column <= self.threshold, 0, 1)
        return np.where(np.isnan(column), MISSING, side).astype(np.int32)


@dataclass(frozen=True)
class SubsetTest:
    """``A in V``: two branches, values in ``V`` and the rest (CART; Zaki & Meira ch. 16).

    ``values`` lists ``V`` in the attribute's value order. A value outside
    ``V`` (including one absent at this node in training) takes the second
    branch; a missing value neither.
    """

    attribute: Attribute
    values: tuple[str, ...]
    kind: str = field(default="subset", init=False)

    n_branches = 2
    BRANCHES = ("in", "not in")

    def branch_labels(self, show=str) -> list[str]:
        listed, name = value_set(self.values, show), show(self.attribute.name)
        return [f"{name} in {listed}", f"{name} not in {listed}"]

    def route(self, column: np.ndarray) -> np.ndarray:
        """0 for codes in ``V``, 1 for other codes, ``MISSING`` where missing."""
        codes = [self.attribute.codes[v] for v in self.values]
        side = np.where(np.isin(column, codes), 0, 1)
        return np.where(column < 0, MISSING, side).astype(np.int32)


Test = NominalTest | NumericTest | SubsetTest
TESTS = {"nominal": NominalTest, "numeric": NumericTest, "subset": SubsetTest}


@dataclass(eq=False, repr=False)
class Node:
    """A node of a decision tree: a leaf, or a test with one child per branch.

    ``score`` is the value of the split criterion that chose the test (for
    explanations); ``counts`` the weighted training class distribution.
    A regression node has ``counts`` = [weight], its mean target ``value``
    and the weighted mean squared error ``impurity`` around it.
    Nodes compare by identity and their ``repr`` names the node only: the
    dataclass versions would recurse through the children.
    """

    counts: np.ndarray
    label: int
    test: Test | None = None
    children: list[Node] = field(default_factory=list)
    score: float | None = None
    value: float | None = None
    impurity: float | None = None

    def __repr__(self) -> str:
        what = "leaf" if self.test is None else f"split on {self.test.attribute.name!r}, {len(self.children)} branches"
        return f"Node({what}, counts={self.counts!r}, label={self.label})"

    @property
    def is_leaf(self) -> bool:
        return self.test is None

    def copy(self) -> Node:
        """A copy of the subtree below this node: new Nodes and count arrays, the same (immutable)
        tests; built with a stack, so any depth is copied (``copy.deepcopy`` recurses)."""
        top = self._copy_one()
        stack = [(self, top)]
        while stack:
            node, made = stack.pop()
            made.children = [child._copy_one() for child in node.children]
            stack.extend(zip(node.children, made.children))
        return top

    def _copy_one(self) -> Node:
        return Node(self.counts.copy(), self.label, self.test, [], self.score, self.value, self.impurity)

    @property
    def weight(self) -> float:
        return float(self.counts.sum())

    def walk(self) -> Iterator[Node]:
        """This node and every node below it, depth first, branches in order."""
        stack = [self]  # not recursive: a generator chain as deep as the tree costs a frame per level
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def levels(self) -> Iterator[list[Node]]:
        """This subtree level by level: this node, then its children, then theirs, each level in order
        (a list comprehension a level: far faster than a node at a time on a large tree)."""
        level = [self]
        while level:
            yield level
            level = [child for node in level for child in node.children]

    def n_nodes(self) -> int:
        return sum(map(len, self.levels()))

    def n_leaves(self) -> int:
        return self.shape()[0]

    def depth(self) -> int:
        """Number of tests on the longest path from here to a leaf."""
        return sum(1 for _ in self.levels()) - 1

    def shape(self) -> tuple[int, int, int]:
        """(leaves, nodes, depth) of this subtree, in one pass."""
        leaves, nodes, depth = 0, 0, -1
        for level in self.levels():
            depth += 1
            nodes += len(level)
            leaves += sum(1 for node in level if node.test is None)
        return leaves, nodes, depth


def preorder_ends(root: Node) -> np.ndarray:
    """For the nodes of ``root.walk()`` (preorder), the position one past each one's subtree:
    node ``i``'s descendants are ``i + 1`` up to ``ends[i]``."""
    ends: list[int] = []
    open_starts: list[int] = []  # the nodes entered and not yet left
    stack = [(root, False)]
    while stack:
        node, leaving = stack.pop()
        if leaving:
            ends[open_starts.pop()] = len(ends)
            continue
        open_starts.append(len(ends))
        ends.append(0)
        stack.append((node, True))
        stack.extend((child, False) for child in reversed(node.children))
    return np.array(ends, dtype=np.int64)


def majority(counts: np.ndarray) -> int:
    """Index of the largest count; ties go to the first class in order."""
    return int(np.argmax(counts))


def single_precision(algorithm: str, parameters: dict) -> bool:
    """Whether a tree's numeric tests are scikit-learn's, made of single-precision values: CART grown
    with scikit-learn's ties (``--ties sklearn``, its default). Such a test ``A <= t`` holds for a value
    ``x`` when ``x`` rounded to single precision is at most ``t``; ``decision_threshold`` gives the
    64-bit threshold that decides so (what prediction, rules and exports compare with)."""
    return algorithm == "cart" and parameters.get("ties", "sklearn") == "sklearn"


def decision_threshold(threshold: float, single: bool) -> float:
    """The threshold a 64-bit value is compared with (``x <= it``): ``threshold`` itself, or for a test
    made of single-precision values (``single_precision``) ``number_text.single_boundary(threshold)``."""
    return single_boundary(threshold) if single else threshold


@dataclass
class Tree:
    """A trained tree with what is needed to apply and describe it."""

    schema: Schema
    root: Node
    algorithm: str
    parameters: dict
    training: dict = field(default_factory=dict)
    trace: list = field(default_factory=list, compare=False)  # pruning decisions (not saved)

    @property
    def classes(self) -> tuple[str, ...]:
        return self.schema.classes


@contextlib.contextmanager
def without_gc():
    """Python's cycle collector paused: making, reading or writing a large tree makes millions of
    objects (none in a cycle), and each full collection would walk them all again (loading a
    126,839-node model took 4 s with it, 0.8 s without; making its Nodes 0.53 s against 0.29 s)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
