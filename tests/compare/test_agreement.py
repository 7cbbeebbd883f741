"""How many rows two models predict alike (compare/agreement.py), on rows whose predictions are known."""

from __future__ import annotations

import numpy as np
from trees import fit

from dtcli.compare.agreement import agreement, predictions
from dtcli.compare.findings import Tolerance
from dtcli.induction.rules import extract
from dtcli.model.table import NUMERIC, Attribute, Schema, Table
from dtcli.model.tree import Node, NumericTest, Tree
from helpers import SAMPLES, load


def golf():
    table = load(SAMPLES / "weather-numeric.csv")
    return fit(table, "c45", prune="none")[0], table


def test_a_tree_agrees_with_itself_and_with_its_rules():
    tree, table = golf()
    assert list(predictions(tree, table)) == [tree.classes[c] for c in table.y]  # the unpruned tree fits them all
    assert agreement(tree, table, tree, table).same == 14
    assert agreement(tree, table, extract(tree), table) == agreement(tree, table, tree, table)


def test_a_moved_threshold_changes_the_rows_it_moves():
    """Humidity <= 65 instead of 75 under sunny: the two sunny days with humidity 70 (both yes) go to no."""
    tree, table = golf()
    moved = tree.root.copy()
    sunny = moved.children[0]
    sunny.test = NumericTest(sunny.test.attribute, 65.0)
    other = Tree(tree.schema, moved, tree.algorithm, tree.parameters)
    found = agreement(tree, table, other, table)
    assert (found.rows, found.same, found.share) == (14, 12, 12 / 14)


def regression(mean: float) -> tuple[Tree, Table]:
    x = Attribute("x", NUMERIC)
    root = Node(np.array([4.0]), 0, NumericTest(x, 1.5), value=2.5, impurity=1.0)
    root.children = [Node(np.array([2.0]), 0, value=1.0, impurity=0.0), Node(np.array([2.0]), 0, value=mean)]
    schema = Schema((x,), Attribute("y", NUMERIC))
    table = Table(schema, [np.array([1.0, 1.0, 2.0, 3.0])], np.zeros(4))
    return Tree(schema, root, "cart", {}), table


def test_regression_predictions_agree_within_the_count_tolerance():
    a, table = regression(4.0)
    b, _ = regression(4.5)
    assert agreement(a, table, b, table).same == 2  # the rows x = 1 reach the same leaf
    assert agreement(a, table, b, table, Tolerance(counts=0.5)).same == 4
    assert agreement(a, table, a, table).share == 1.0
    empty = Table(table.schema, [np.array([])], np.array([]))
    assert agreement(a, empty, b, empty).share is None
