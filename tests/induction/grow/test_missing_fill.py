"""Mitchell's fill-in of missing values at each node (3.7.4), worked by hand and checked by brute force,
against the whole-table fill (``root-majority``, ``root-class-majority``)."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from trees import case_table, fit, named_table, nominal_tables, shape

from dtcli.induction.criteria.impurity import information_gain


def entropy(*counts: int) -> float:
    n = sum(counts)
    return -sum(k / n * math.log2(k / n) for k in counts if k)


# Twelve rows; row 6 lacks B. Declared orders: A a1 a2 a3, B b1 b2, C c1 c2, classes yes no.
#  1 a1 b1 c1 yes    5 a2 b1 c1 yes    9 a3 b1 c1 no
#  2 a1 b1 c2 yes    6 a2 ?  c2 no    10 a3 b1 c2 no
#  3 a2 b2 c1 no     7 a2 b1 c2 yes   11 a3 b1 c1 no
#  4 a2 b2 c2 no     8 a2 b2 c1 no    12 a3 b1 c2 no
HAND = named_table(
    {
        "A": ["a1", "a1", "a2", "a2", "a2", "a2", "a2", "a2", "a3", "a3", "a3", "a3"],
        "B": ["b1", "b1", "b2", "b2", "b1", None, "b1", "b2", "b1", "b1", "b1", "b1"],
        "C": ["c1", "c2", "c1", "c2", "c1", "c2", "c2", "c1", "c1", "c2", "c1", "c2"],
    },
    ["yes", "yes", "no", "no", "yes", "no", "yes", "no", "no", "no", "no", "no"],
)


def test_the_root_is_the_same_for_both_fills():
    """At the root the node's rows are the whole table, so both fills agree: B is known on 11
    rows, b1 on 8 (rows 1 2 5 7 9-12), b2 on 3 (3 4 8), so row 6 becomes b1; among the class-no
    rows b1 4 (9-12) beats b2 3 (3 4 8), so class-majority gives b1 too. The root is [4 yes, 8 no]:
      Gain(A) = E(4,8) - 2/12 E(2,0) - 6/12 E(2,4) - 4/12 E(0,4) = 0.918 - 0.459 = 0.459
      Gain(B) = E(4,8) - 9/12 E(4,5) - 3/12 E(0,3) = 0.918 - 0.743 = 0.175   (b1: 1 2 5 6 7 9-12)
      Gain(C) = E(4,8) - 6/12 E(2,4) - 6/12 E(2,4) = 0
    so A is the root's test under every policy."""
    root_gain = entropy(4, 8) - 6 / 12 * entropy(2, 4)
    assert entropy(4, 8) - 9 / 12 * entropy(4, 5) == pytest.approx(0.1750, abs=1e-4)
    for policy in ("majority", "class-majority", "root-majority", "root-class-majority"):
        tree, _ = fit(HAND, missing=policy)
        assert tree.root.test.attribute.name == "A"
        assert tree.root.score == pytest.approx(root_gain, abs=1e-12)
        assert [list(child.counts) for child in tree.root.children] == [[2, 0], [2, 4], [0, 4]]


@pytest.mark.parametrize("policy", ["majority", "class-majority"])
def test_per_node_fill_worked_by_hand(policy):
    """At a2 (rows 3-8, [2 yes, 4 no]) B is known on 5 rows: b2 on 3 (3 4 8), b1 on 2 (5 7), so
    row 6 becomes b2 (class-majority: the no rows there, 3 4 8, are all b2: b2 as well).
      Gain(B) = E(2,4) - 2/6 E(2,0) - 4/6 E(0,4) = 0.918          (b2: 3 4 6 8)
      Gain(C) = E(2,4) - 3/6 E(1,2) - 3/6 E(1,2) = 0             (c1: 3 5 8, c2: 4 6 7)
    B splits a2 into two pure leaves: b1 [2 yes], b2 [4 no]."""
    tree, _ = fit(HAND, missing=policy)
    assert shape(tree.root, tree.classes) == ("A", {"a1": "yes", "a2": ("B", {"b1": "yes", "b2": "no"}), "a3": "no"})
    a2 = tree.root.children[1]
    assert a2.score == pytest.approx(entropy(2, 4), abs=1e-12)
    assert [list(child.counts) for child in a2.children] == [[2, 0], [0, 4]]


@pytest.mark.parametrize("policy", ["root-majority", "root-class-majority"])
def test_root_fill_worked_by_hand(policy):
    """Filled once at the root, row 6 keeps b1 in a2 as well:
      Gain(B) = E(2,4) - 3/6 E(2,1) - 3/6 E(0,3) = 0.918 - 0.459 = 0.459   (b1: 5 6 7, b2: 3 4 8)
      Gain(C) = 0, as above
    and a2 = b1 (rows 5 6 7, [2 yes, 1 no]) still has C to split on:
      Gain(C) = E(2,1) - 1/3 E(1,0) - 2/3 E(1,1) = 0.918 - 0.667 = 0.252   (c1: 5, c2: 6 7)
    whose c2 leaf [1 yes, 1 no] takes the first class, yes."""
    tree, _ = fit(HAND, missing=policy)
    assert shape(tree.root, tree.classes) == (
        "A",
        {"a1": "yes", "a2": ("B", {"b1": ("C", {"c1": "yes", "c2": "yes"}), "b2": "no"}), "a3": "no"},
    )
    a2 = tree.root.children[1]
    assert a2.score == pytest.approx(entropy(2, 4) - 3 / 6 * entropy(2, 1), abs=1e-12)
    b1 = a2.children[0]
    assert list(b1.counts) == [2, 1]
    assert b1.score == pytest.approx(entropy(2, 1) - 2 / 3 * entropy(1, 1), abs=1e-12)
    assert b1.score == pytest.approx(0.2516, abs=1e-4)


def test_a_row_keeps_its_other_missing_values_for_the_child():
    """Row 3 (A = a) lacks B. At the root B is known on 7 rows, p on 4 (1 5 6 7), q on 3 (2 4 8), so
    row 3 counts as p there; A is chosen ([5 x, 3 y]: Gain(A) = E(5,3) - 4/8 E(1,3) = 0.549 against
    Gain(B) = E(5,3) - 5/8 E(4,1) - 3/8 E(1,2) = 0.159). In A = a (rows 1-4) B is known on
    rows 1 2 4 (p, q, q): row 3's B is filled again from these rows, q, and B splits a into
    pure leaves; filled once at the root it stays p, and the p leaf holds rows 1 and 3 [1 x, 1 y]."""
    table = named_table(
        {"A": ["a", "a", "a", "a", "b", "b", "b", "b"], "B": ["p", "q", None, "q", "p", "p", "p", "q"]},
        ["x", "y", "y", "y", "x", "x", "x", "x"],
    )
    per_node, _ = fit(table, missing="majority")
    assert shape(per_node.root, per_node.classes) == ("A", {"a": ("B", {"p": "x", "q": "y"}), "b": "x"})
    assert [list(c.counts) for c in per_node.root.children[0].children] == [[1, 0], [0, 3]]
    whole, _ = fit(table, missing="root-majority")
    assert [list(c.counts) for c in whole.root.children[0].children] == [[1, 1], [0, 2]]


# Brute force: the per-node fill written directly from Mitchell 3.7.4 over Python lists.


def mode(values: list[int]) -> int:
    counts = Counter(values)
    top = max(counts.values())
    return min(v for v, k in counts.items() if k == top)  # ties: the first value in declared order


def filled_at(rows: list[list], labels: list[int], policy: str) -> list[list]:
    """The node's rows with each missing value (None) filled in from the node's rows."""
    filled = [list(r) for r in rows]
    for a in range(len(rows[0])):
        known = [(r[a], lab) for r, lab in zip(rows, labels) if r[a] is not None]
        if not known:
            continue
        for f, lab in zip(filled, labels):
            if f[a] is None:
                own = [v for v, k in known if k == lab]
                f[a] = mode(own) if policy == "class-majority" and own else mode([v for v, _ in known])
    return filled


def brute_force(rows, labels, arity, n_classes, names, classes, policy, zero_gain):
    """ID3 with the per-node fill, as nested shapes (``trees.shape``); scores by dtree's own
    ``information_gain`` so that ties break on the same bits."""
    result = {}
    stack = [(list(range(len(rows))), list(range(len(arity))), None, result, "tree")]
    while stack:
        members, available, parent, into, key = stack.pop()
        labs = [labels[m] for m in members]
        if not members:
            into[key] = parent
            continue
        majority = classes[max(range(n_classes), key=lambda c: (labs.count(c), -c))]
        if len(set(labs)) == 1 or not available:
            into[key] = majority
            continue
        filled = filled_at([rows[m] for m in members], labs, policy)
        best, best_gain = None, None
        for a in available:
            counts = np.zeros((arity[a], n_classes))
            for f, lab in zip(filled, labs):
                if f[a] is not None:
                    counts[f[a], lab] += 1
            if (counts.sum(axis=1) > 0).sum() < 2:
                continue
            gain = information_gain(counts)
            if best_gain is None or gain > best_gain:
                best, best_gain = a, gain
        if best is None or (zero_gain == "leaf" and best_gain <= 1e-6):
            into[key] = majority
            continue
        branches = {}
        into[key] = (names[best], branches)
        rest = [a for a in available if a != best]
        for v in range(arity[best]):
            down = [m for m, f in zip(members, filled) if f[best] == v]
            stack.append((down, rest, majority, branches, f"v{v}"))
    return result["tree"]


@st.composite
def tables_with_holes(draw):
    arity, rows, labels, n_classes = draw(nominal_tables())
    holes = draw(st.lists(st.booleans(), min_size=len(rows) * len(arity), max_size=len(rows) * len(arity)))
    rows = [[None if holes[i * len(arity) + j] else v for j, v in enumerate(r)] for i, r in enumerate(rows)]
    return arity, rows, labels, n_classes


@settings(max_examples=120, deadline=None)
@given(tables_with_holes(), st.sampled_from(["majority", "class-majority"]), st.sampled_from(["leaf", "split"]))
def test_matches_brute_force_per_node_fill(case, policy, zero_gain):
    arity, rows, labels, n_classes = case
    assume(len(set(labels)) >= 2)
    table = case_table((arity, [[-1 if v is None else v for v in r] for r in rows], labels, n_classes))
    tree, _ = fit(table, missing=policy, zero_gain=zero_gain)
    names = [a.name for a in table.attributes]
    expected = brute_force(rows, labels, arity, n_classes, names, table.classes, policy, zero_gain)
    assert shape(tree.root, table.classes) == expected
