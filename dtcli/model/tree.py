"""Tree nodes and the tests at their splits.

A :class:`Node` is a leaf when it has no test. Every node keeps its weighted
class distribution (``counts``, in class order) and the class it predicts
(``label``), so a tree can be printed, pruned and explained without the data.
A test routes rows to branches with array operations (``route``), returning a
branch index per row and ``MISSING`` where the tested value is missing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

import numpy as np

from dtcli.model.table import Attribute, Schema


@dataclass(frozen=True)
class NominalTest:
    """``A = v``: one branch per value of nominal attribute ``A`` (ID3, C4.5)."""

    attribute: Attribute
    kind: str = field(default="nominal", init=False)

    @property
    def n_branches(self) -> int:
        return len(self.attribute.values)

    def branch_labels(self) -> list[str]:
        """The condition each branch stands for, e.g. ``Outlook = Sunny``."""
        return [f"{self.attribute.name} = {v}" for v in self.attribute.values]

    def route(self, column: np.ndarray) -> np.ndarray:
        """Branch index of each row: its value code (``MISSING`` stays missing)."""
        return column


Test = NominalTest
TESTS = {"nominal": NominalTest}


@dataclass
class Node:
    """A node of a decision tree: a leaf, or a test with one child per branch.

    ``score`` is the value of the split criterion that chose the test (for
    explanations); ``counts`` the weighted training class distribution.
    """

    counts: np.ndarray
    label: int
    test: Test | None = None
    children: list["Node"] = field(default_factory=list)
    score: float | None = None

    @property
    def is_leaf(self) -> bool:
        return self.test is None

    @property
    def weight(self) -> float:
        return float(self.counts.sum())

    def walk(self) -> Iterator["Node"]:
        """This node and every node below it, depth first, branches in order."""
        yield self
        for child in self.children:
            yield from child.walk()

    def n_nodes(self) -> int:
        return sum(1 for _ in self.walk())

    def n_leaves(self) -> int:
        return sum(1 for node in self.walk() if node.is_leaf)

    def depth(self) -> int:
        """Number of tests on the longest path from here to a leaf."""
        if self.is_leaf:
            return 0
        return 1 + max(child.depth() for child in self.children)


def majority(counts: np.ndarray) -> int:
    """Index of the largest count; ties go to the first class in order."""
    return int(np.argmax(counts))


@dataclass
class Tree:
    """A trained tree with what is needed to apply and describe it."""

    schema: Schema
    root: Node
    algorithm: str
    parameters: dict
    training: dict = field(default_factory=dict)

    @property
    def classes(self) -> tuple[str, ...]:
        return self.schema.classes
