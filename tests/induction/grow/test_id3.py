"""ID3 as the seeds define it: Mitchell's PlayTennis tree, the algorithm's rules,
and a brute-force reference implementation written here from Mitchell Table 3.1."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from trees import case_table, fit, named_table, nominal_tables, shape

from dtcli.errors import DataError, ParameterError
from dtcli.induction.predict.apply import predict
from dtcli.model.table import NOMINAL, Attribute, Schema, Table
from helpers import SAMPLES, load


def test_mitchell_playtennis_tree(weather):
    tree, warnings = fit(weather)
    assert warnings == []
    assert shape(tree.root, tree.classes) == (
        "Outlook",
        {
            "Sunny": ("Humidity", {"High": "No", "Normal": "Yes"}),
            "Overcast": "Yes",
            "Rain": ("Wind", {"Weak": "Yes", "Strong": "No"}),
        },
    )
    assert tree.root.score == pytest.approx(0.2467498, abs=1e-6)
    assert tree.root.children[0].score == pytest.approx(0.9709506, abs=1e-6)
    assert list(tree.root.counts) == [5, 9]
    assert [list(c.counts) for c in tree.root.children] == [[3, 2], [0, 4], [2, 3]]


def test_arff_gives_the_same_tree(weather):
    arff = load(SAMPLES / "weather.arff")
    a, _ = fit(arff)
    b, _ = fit(weather)
    assert shape(a.root, a.classes) == shape(b.root, b.classes)


def test_tree_predicts_its_training_data(weather):
    tree, _ = fit(weather)
    assert (predict(tree, weather) == weather.y).all()


def test_empty_branch_gets_parents_majority():
    table = named_table({"A": ["a", "a", "b", "b", "b"]}, ["x", "x", "y", "y", "x"])
    # declare a third value that no row has
    attr = Attribute("A", NOMINAL, ("a", "b", "c"))
    table = Table(Schema((attr,), table.schema.target), table.columns, table.y)
    tree, _ = fit(table)
    empty = tree.root.children[2]
    assert empty.is_leaf and empty.weight == 0
    assert tree.classes[empty.label] == "x"  # root majority: x 3, y 2


def test_majority_leaf_when_attributes_run_out():
    # identical attribute values, different classes: ID3 runs out of attributes
    table = named_table({"A": ["a", "a", "a", "b"]}, ["y", "x", "y", "x"])
    tree, _ = fit(table)
    assert shape(tree.root, tree.classes) == ("A", {"a": "y", "b": "x"})
    assert list(tree.root.children[0].counts) == [2, 1]  # classes in order of appearance: y, x


def test_majority_tie_goes_to_first_class():
    table = named_table({"A": ["a", "a", "b"]}, ["p", "q", "q"])
    tree, _ = fit(table)
    assert tree.classes[tree.root.children[0].label] == "p"


def test_attribute_used_once_per_path():
    table = load(SAMPLES / "restaurant.csv", ignore=("Example",))
    tree, _ = fit(table)

    def check(node, used):
        if node.is_leaf:
            return
        assert node.test.attribute.name not in used
        for child in node.children:
            check(child, used | {node.test.attribute.name})

    check(tree.root, frozenset())


def test_ties_go_to_the_first_column():
    # B and A split identically; A comes first
    table = named_table({"A": ["a", "a", "b", "b"], "B": ["c", "c", "d", "d"]}, ["x", "x", "y", "y"])
    tree, _ = fit(table)
    assert tree.root.test.attribute.name == "A"
    swapped = named_table({"B": ["c", "c", "d", "d"], "A": ["a", "a", "b", "b"]}, ["x", "x", "y", "y"])
    tree, _ = fit(swapped)
    assert tree.root.test.attribute.name == "B"


def test_zero_gain_makes_a_leaf():
    # XOR: no single attribute gains anything, so (like Weka's Id3) no split is made
    table = named_table({"X": ["t", "t", "f", "f"], "Y": ["t", "f", "t", "f"]}, ["no", "yes", "yes", "no"])
    tree, _ = fit(table)
    assert tree.root.is_leaf


@pytest.mark.parametrize("copies", [1, 2])
def test_zero_gain_split_grows_xor(copies):
    """The seeds' ID3 (Mitchell Table 3.1) splits an impure node while attributes remain, whatever
    the gain: X gains E(2,2) - 2/4 E(1,1) - 2/4 E(1,1) = 0, as Y does; X comes first in column
    order, then Y splits each half into pure leaves (gain 1 bit)."""
    xor = {"X": ["t", "t", "f", "f"] * copies, "Y": ["t", "f", "t", "f"] * copies}
    tree, _ = fit(named_table(xor, ["no", "yes", "yes", "no"] * copies), zero_gain="split")
    assert shape(tree.root, tree.classes) == (
        "X",
        {"t": ("Y", {"t": "no", "f": "yes"}), "f": ("Y", {"t": "yes", "f": "no"})},
    )
    assert tree.root.score == 0.0
    assert [child.score for child in tree.root.children] == [1.0, 1.0]
    assert [leaf.weight for child in tree.root.children for leaf in child.children] == [copies] * 4
    assert tree.parameters["zero_gain"] == "split"


def test_zero_gain_split_still_needs_two_branches_with_cases():
    """An attribute with one value at the node separates nothing: it is no candidate, split or not."""
    table = named_table({"X": ["t", "t", "t", "t"]}, ["no", "yes", "yes", "no"])
    assert fit(table, zero_gain="split")[0].root.is_leaf


def test_zero_gain_split_is_for_id3_alone(weather):
    for algorithm, options in (("c45", {}), ("cart", {}), ("id3", {"min_gain": 0.1})):
        with pytest.raises(ParameterError, match="--zero-gain split"):
            fit(weather, algorithm, zero_gain="split", **options)
    with pytest.raises(ParameterError, match="--zero-gain must be one of leaf, split"):
        fit(weather, zero_gain="always")


def test_stopping_rules(weather):
    assert fit(weather, max_depth=0)[0].root.is_leaf
    assert fit(weather, max_depth=1)[0].root.depth() == 1
    assert fit(weather, min_split=15)[0].root.is_leaf
    assert fit(weather, min_gain=0.25)[0].root.is_leaf
    tree = fit(weather, min_gain=0.2)[0]
    assert tree.root.test.attribute.name == "Outlook"
    # purity: the root is 9/14 = 0.643 Yes; Sunny and Rain are 3/5 = 0.6 pure
    assert fit(weather, purity=0.64)[0].root.is_leaf
    assert fit(weather, purity=0.65)[0].root.depth() == 2


def test_bad_parameters(weather):
    for options in ({"purity": 0}, {"purity": 1.5}, {"max_depth": -1}, {"min_gain": -0.1}):
        with pytest.raises(ParameterError):
            fit(weather, **options)


def test_gain_ratio_and_gini_criteria(weather):
    tree, _ = fit(weather, criterion="gain-ratio")
    # gain ratios: Outlook 0.156, Humidity 0.152, Wind 0.049, Temperature 0.019
    assert tree.root.test.attribute.name == "Outlook"
    tree, _ = fit(weather, criterion="gini")
    assert tree.root.test.attribute.name == "Outlook"
    assert tree.parameters["criterion"] == "gini"


def test_gain_ratio_uses_quinlans_average_gain_rule():
    # C has the best gain ratio only because its split information is tiny; its
    # gain is below average, so Quinlan's rule keeps it out.
    # A: p [1x, 4y], q [5x, 2y]; C: r [0x, 1y], s [6x, 5y]
    a = ["p"] * 5 + ["q"] * 7
    y = ["x"] + ["y"] * 4 + ["x"] * 5 + ["y"] * 2
    c = ["s"] + ["r"] + ["s"] * 10
    table = named_table({"A": a, "C": c}, y)
    from dtcli.induction.criteria.impurity import gain_ratio, information_gain
    from dtcli.induction.search.split import nominal_branch_counts

    counts = [nominal_branch_counts(col, table.y, table.weights, 2, 2) for col in table.columns]
    assert gain_ratio(counts[1]) > gain_ratio(counts[0])
    assert information_gain(counts[1]) < information_gain(counts[0])
    assert fit(table, criterion="gain-ratio")[0].root.test.attribute.name == "A"


def test_refuses_numeric_and_missing():
    with pytest.raises(DataError, match="--nominal Temperature"):
        fit(load(SAMPLES / "weather-numeric.csv"))
    table = named_table({"A": ["a", None, "b"]}, ["x", "y", "y"])
    with pytest.raises(DataError, match="missing"):
        fit(table)


# ---------------------------------------------------------------------------
# Brute force: ID3 written directly from Mitchell Table 3.1 over Python lists.


def reference_entropy(labels, classes):
    n = len(labels)
    acc = 0.0
    for c in classes:
        k = labels.count(c)
        if k:
            acc -= k * (math.log(k) / math.log(2))
    return acc / n + math.log(n) / math.log(2)


def reference_id3(rows, labels, attributes, values, classes, parent_majority=None):
    if not rows:
        return parent_majority
    majority = max(classes, key=lambda c: (labels.count(c), -classes.index(c)))
    if len(set(labels)) == 1 or not attributes:
        return majority
    best, best_gain = None, None
    for a in attributes:  # in column order; strictly greater wins
        gain = reference_entropy(labels, classes)
        for v in values[a]:
            sub = [lab for r, lab in zip(rows, labels) if r[a] == v]
            if sub:
                gain -= len(sub) / len(rows) * reference_entropy(sub, classes)
        if best_gain is None or gain > best_gain:
            best, best_gain = a, gain
    if best_gain <= 1e-6:
        return majority
    rest = [a for a in attributes if a != best]
    branches = {}
    for v in values[best]:
        pairs = [(r, lab) for r, lab in zip(rows, labels) if r[best] == v]
        branches[v] = reference_id3([p[0] for p in pairs], [p[1] for p in pairs], rest, values, classes, majority)
    return (best, branches)


@settings(max_examples=150, deadline=None)
@given(nominal_tables())
def test_matches_brute_force_id3(case):
    arity, rows, labels, n_classes = case
    table = case_table(case)
    attributes, classes = table.attributes, table.classes
    if len(set(labels)) < 2:  # Mitchell's first base case: all examples of one class, a single leaf
        tree, _ = fit(table)
        assert tree.root.is_leaf and tree.root.label == labels[0]
        return
    tree, _ = fit(table)
    names = [a.name for a in attributes]
    expected = reference_id3(
        [{names[j]: a.values[r[j]] for j, a in enumerate(attributes)} for r in rows],
        [classes[label] for label in labels],
        names,
        {a.name: a.values for a in attributes},
        classes,
    )
    assert shape(tree.root, classes) == expected
