"""Trees compared node by node (compare/trees.py): what must be equivalent and what must differ.

Every case is a tree and a copy changed in one known way (through the model's JSON, as a file
would be), so the expected verdict, the node named and the summary follow from the change.
"""

from __future__ import annotations

import copy
import json

import numpy as np
from trees import chain, fit

from dtcli.compare.findings import Tolerance
from dtcli.compare.trees import compare_trees
from dtcli.model.format.model import dumps_model, tree_from_dict
from dtcli.model.tree import Node, NumericTest
from helpers import SAMPLES, load


def doc(tree) -> dict:
    return json.loads(dumps_model(tree))


def tree(document: dict):
    return tree_from_dict(document)


def weather() -> dict:
    return doc(fit(load(SAMPLES / "weather.csv", ignore=["Day"]), "id3")[0])


def golf() -> dict:
    """C4.5 unpruned on the golf data: Outlook; sunny: Humidity <= 75; rainy: Windy."""
    return doc(fit(load(SAMPLES / "weather-numeric.csv"), "c45", prune="none")[0])


def risk() -> dict:
    """CART on Zaki's risk table: Car in {Sports} [Age <= 22.5], not in {Sports}."""
    return doc(fit(load(SAMPLES / "risk.csv", ignore=["Point"]), "cart", criterion="entropy")[0])


def nodes(document: dict):
    """Every node dict of a model document, preorder."""
    stack = [document["root"]]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed([b["node"] for b in node.get("branches", [])]))


def splits_on(document: dict, name: str) -> list[dict]:
    return [n for n in nodes(document) if n["kind"] == "split" and n["test"]["attribute"] == name]


def compared(a: dict, b: dict, **tolerance):
    return compare_trees(tree(a), tree(b), Tolerance(**tolerance))


def consistent(result) -> bool:
    s = result.summary
    return s.matching + s.differing + s.only_a == s.count_a and s.matching + s.differing + s.only_b == s.count_b


def test_a_tree_is_equivalent_to_itself():
    for document in (weather(), golf(), risk()):
        result = compared(document, document)
        assert result.equivalent and result.differences == [] and result.notes == []
        assert result.summary.matching == result.summary.count_a == len(list(nodes(document)))


def test_swapped_branch_order_is_equivalent():
    """The same table with its rows shuffled lists Outlook's values in another order (CSV: order of
    first appearance), so the branches come in another order: the same tree."""
    a = weather()
    b = copy.deepcopy(a)
    outlook = next(x for x in b["schema"]["attributes"] if x["name"] == "Outlook")
    outlook["values"].reverse()
    for node in splits_on(b, "Outlook"):
        node["branches"].reverse()
    assert tree(b).root.children[0].test is not None  # Rain (a split) comes first now
    result = compared(a, b)
    assert result.equivalent and result.summary.matching == 8
    assert consistent(result)


def test_branches_swapped_without_their_values_differ():
    """Branches matched by value name: exchanging two subtrees under the same values is a change."""
    a = weather()
    b = copy.deepcopy(a)
    branches = b["root"]["branches"]
    branches[0]["node"], branches[2]["node"] = branches[2]["node"], branches[0]["node"]
    result = compared(a, b)
    assert not result.equivalent
    first = result.differences[0]
    assert first.path.steps() == ["Outlook = Sunny"] and first.aspects == ("test", "counts")
    assert consistent(result)


def test_changed_threshold_is_found_and_forgiven_within_the_tolerance():
    a = golf()
    b = copy.deepcopy(a)
    (humidity,) = splits_on(b, "Humidity")
    assert humidity["test"]["threshold"] == 75.0
    humidity["test"]["threshold"] = 80.0
    result = compared(a, b)
    assert not result.equivalent
    assert result.summary.differing == 1 and result.summary.matching == 7
    (only,) = result.differences
    assert only.path.steps() == ["Outlook = sunny"] and only.aspects == ("threshold",)
    assert only.a["test"] == {"kind": "numeric", "attribute": "Humidity", "threshold": 75.0}
    assert only.b["test"]["threshold"] == 80.0
    assert compared(a, b, threshold=5.0).equivalent  # |75 - 80| = 5 is within 5
    assert not compared(a, b, threshold=4.999).equivalent


def test_a_pruned_subtree_differs_and_is_named():
    """Humidity's split replaced by a leaf with its counts: one node differs (leaf against split),
    its two children exist in A only."""
    a = golf()
    b = copy.deepcopy(a)
    sunny = b["root"]["branches"][0]["node"]
    b["root"]["branches"][0]["node"] = {"kind": "leaf", "counts": sunny["counts"], "label": sunny["label"]}
    result = compared(a, b)
    assert not result.equivalent
    s = result.summary
    assert (s.count_a, s.count_b, s.matching, s.differing, s.only_a, s.only_b) == (8, 6, 5, 1, 2, 0)
    first = result.differences[0]
    assert first.path.steps() == ["Outlook = sunny"] and first.aspects == ("kind",)
    assert first.a["kind"] == "split" and first.b["kind"] == "leaf"
    assert [d.path.steps() for d in result.differences[1:]] == [
        ["Outlook = sunny", "Humidity <= 75"],
        ["Outlook = sunny", "Humidity > 75"],
    ]
    assert all(d.aspects == ("only in A",) and d.b is None for d in result.differences[1:])
    assert compared(b, a).summary.only_b == 2


def test_class_order_alone_does_not_matter():
    a = golf()
    b = copy.deepcopy(a)
    b["schema"]["target"]["classes"].reverse()
    for node in nodes(b):
        node["counts"].reverse()
    result = compared(a, b)
    assert result.equivalent
    assert result.notes == ["the classes are listed in another order (counts are compared class by class)"]


def test_training_metadata_does_not_matter():
    a = golf()
    b = copy.deepcopy(a)
    b["training_data"] = {"source": "elsewhere/shuffled.csv", "rows": 14, "sha256": "0" * 64}
    b["generator"] = "dtree 9.9"
    for node in nodes(b):
        if "score" in node:
            node["score"] += 0.5
    assert compared(a, b).equivalent


def test_counts_compare_to_float_noise_unless_a_tolerance_is_given():
    a = golf()
    b = copy.deepcopy(a)
    leaf = b["root"]["branches"][1]["node"]  # overcast: yes (4)
    leaf["counts"] = [c * (1 + 1e-12) for c in leaf["counts"]]
    assert compared(a, b).equivalent  # the last bits of sums of fractions
    leaf["counts"] = [c + 0.25 for c in leaf["counts"]]
    result = compared(a, b)
    assert not result.equivalent and result.differences[0].aspects == ("counts",)
    assert result.differences[0].path.steps() == ["Outlook = overcast"]
    assert compared(a, b, counts=0.25).equivalent


def test_a_leaf_predicting_another_class_differs():
    a = golf()
    b = copy.deepcopy(a)
    b["root"]["branches"][1]["node"]["label"] = "no"
    result = compared(a, b)
    assert result.differences[0].aspects == ("label",)


def test_a_test_on_another_attribute_pairs_nothing_below_it():
    a = golf()
    b = copy.deepcopy(a)
    (windy,) = splits_on(b, "Windy")
    windy["test"] = {"kind": "numeric", "attribute": "Temperature", "threshold": 70.0}
    windy["branches"] = [{"value": "<=", "node": windy["branches"][0]["node"]},
                         {"value": ">", "node": windy["branches"][1]["node"]}]  # fmt: skip
    result = compared(a, b)
    s = result.summary
    assert (s.matching, s.differing, s.only_a, s.only_b) == (5, 1, 2, 2)
    assert result.differences[0].aspects == ("test",)
    assert result.differences[0].path.steps() == ["Outlook = rainy"]
    assert consistent(result)


def test_subset_and_its_complement_are_the_same_split():
    """``Car in {Sports}`` with its branches the other way round is ``Car in {Family, SUV}``."""
    a = risk()
    b = copy.deepcopy(a)
    root = b["root"]
    assert root["test"]["kind"] == "subset"
    values = next(x["values"] for x in b["schema"]["attributes"] if x["name"] == "Car")
    root["test"]["values"] = [v for v in values if v not in root["test"]["values"]]
    first, second = root["branches"]
    first["node"], second["node"] = second["node"], first["node"]
    result = compared(a, b)
    assert result.equivalent and result.summary.matching == 5
    root["test"]["values"] = values[:1]  # another subset (unless it was this one)
    if values[:1] != a["root"]["test"]["values"]:
        assert compared(a, b).differences[0].aspects[0] == "branches"


def test_a_two_valued_nominal_test_is_its_subset_test():
    a = golf()
    b = copy.deepcopy(a)
    (windy,) = splits_on(b, "Windy")
    windy["test"] = {"kind": "subset", "attribute": "Windy", "values": ["true"]}
    windy["branches"] = [{"value": "in", "node": windy["branches"][1]["node"]},
                         {"value": "not in", "node": windy["branches"][0]["node"]}]  # fmt: skip
    assert next(x["values"] for x in a["schema"]["attributes"] if x["name"] == "Windy") == ["false", "true"]
    assert compared(a, b).equivalent


def test_schema_problems_make_trees_differ():
    a = golf()
    b = copy.deepcopy(a)
    b["schema"]["target"]["classes"] = ["no", "maybe"]
    for node in nodes(b):
        if node["label"] == "yes":
            node["label"] = "maybe"
    result = compared(a, b)
    assert result.problems == ["the classes differ: 'yes' only in A, 'maybe' only in B"]
    assert not result.equivalent
    c = copy.deepcopy(a)
    c["schema"]["target"]["name"] = "other"
    name = a["schema"]["target"]["name"]
    assert compared(a, c).problems == [f"the targets differ: {name!r} in A, 'other' in B"]


def test_a_deep_chain_compares_without_recursion():
    deep = chain(10_000)
    result = compare_trees(deep, chain(10_000))
    assert result.equivalent and result.summary.matching == 20_001
    changed = chain(10_000)
    node = changed.root
    for _ in range(5_000):
        node = node.children[1]
    node.test = NumericTest(node.test.attribute, 5_000.75)
    bottom = changed.root
    while bottom.children:
        bottom = bottom.children[1]
    bottom.counts = np.array([0.0, 2.0])
    result = compare_trees(deep, changed)
    assert not result.equivalent
    assert [d.aspects for d in result.differences] == [("threshold",), ("counts",)]
    assert len(result.differences[0].path.steps()) == 5_000
    assert result.differences[1].path.steps()[-1] == "x > 9999.5" and len(result.differences[1].path.steps()) == 10_000
    pruned = chain(10_000)
    node = pruned.root
    for _ in range(9_000):
        node = node.children[1]
    node.test, node.children = None, []
    result = compare_trees(deep, pruned)
    s = result.summary
    assert (s.differing, s.only_a, s.count_b) == (1, 2_000, 18_001)
    assert result.differences[0].aspects == ("kind",) and len(result.differences[0].path.steps()) == 9_000


def test_regression_trees_compare_weight_and_mean():
    from dtcli.model.table import NUMERIC, Attribute, Schema
    from dtcli.model.tree import Tree

    x = Attribute("x", NUMERIC)

    def regression(mean: float) -> Tree:
        root = Node(np.array([4.0]), 0, NumericTest(x, 1.5), value=2.5, impurity=1.25)
        root.children = [Node(np.array([2.0]), 0, value=1.0, impurity=0.0), Node(np.array([2.0]), 0, value=mean)]
        return Tree(Schema((x,), Attribute("y", NUMERIC)), root, "cart", {})

    assert compare_trees(regression(4.0), regression(4.0)).equivalent
    result = compare_trees(regression(4.0), regression(4.5))
    assert result.differences[0].aspects == ("value",) and result.differences[0].a == {
        "kind": "leaf", "weight": 2.0, "value": 4.0,
    }  # fmt: skip
    assert compare_trees(regression(4.0), regression(4.5), Tolerance(counts=0.5)).equivalent
    classes = tree(golf())
    assert compare_trees(regression(4.0), classes).problems[0] == (
        "A is a regression model and B is a classification model"
    )
