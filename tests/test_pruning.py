"""Pruning: the error bounds, pessimistic pruning's invariants and trace."""

from __future__ import annotations

import math

import pytest

from dtcli.induction.algorithms import train
from dtcli.induction.bounds import added_errors, r8_coefficient, upper_rate
from helpers import WEKA, load


def test_bounds_at_the_published_values():
    assert round(upper_rate(6, 0), 3) == 0.206  # both bounds: 1 - 0.25^(1/6)
    assert round(upper_rate(6, 0, bound="c45r8"), 3) == 0.206
    assert round(upper_rate(16, 1), 3) == 0.155  # J48
    assert round(upper_rate(16, 1, bound="c45r8"), 3) == 0.157  # the C4.5 book
    assert math.sqrt(r8_coefficient(0.25)) == pytest.approx(0.6925)


def test_bound_cases():
    assert added_errors(0, 0) == 0
    assert added_errors(6, 0) == pytest.approx(6 * (1 - 0.25 ** (1 / 6)))
    half = added_errors(6, 0.5)  # interpolated between e = 0 and e = 1
    assert half == pytest.approx((added_errors(6, 0) + added_errors(6, 1)) / 2, rel=0, abs=1e-12)
    assert added_errors(4, 3.6) == pytest.approx(0.4)  # e + 0.5 >= N: N - e
    assert added_errors(4, 3.6, bound="c45r8") == pytest.approx(0.67 * 0.4)
    assert upper_rate(100, 10, cf=0.1) > upper_rate(100, 10, cf=0.25)  # lower CF, higher bound


def test_quinlan_congressional_voting_example():
    # C4.5 book ch. 4: a subtree with leaves of 6, 9 and 1 cases and no errors is
    # estimated at 6 x 0.206 + 9 x 0.143 + 1 x 0.750 = 3.273 errors; a leaf in its
    # place, 16 cases with 1 error, at 16 x 0.157 = 2.512 (2.507 unrounded), so the
    # subtree is pruned.
    subtree = sum(n * upper_rate(n, 0, bound="c45r8") for n in (6, 9, 1))
    leaf = 16 * upper_rate(16, 1, bound="c45r8")
    assert round(upper_rate(9, 0, bound="c45r8"), 3) == 0.143 and upper_rate(1, 0) == pytest.approx(0.75)
    assert round(subtree, 3) == 3.273 and round(leaf / 16, 3) == 0.157 and round(leaf, 3) == 2.507
    assert leaf < subtree


@pytest.mark.parametrize("name", ["labor", "vote", "breast-cancer", "soybean", "credit-g"])
def test_pessimistic_pruning_never_grows_the_tree(name):
    table = load(WEKA / "data" / f"{name}.arff")
    unpruned, _ = train(table, "c45", prune="none")
    pruned, _ = train(table, "c45")
    assert pruned.root.n_nodes() <= unpruned.root.n_nodes()
    assert pruned.parameters["pruning"]["original_leaves"] == unpruned.root.n_leaves()
    assert pruned.root.weight == pytest.approx(unpruned.root.weight)
    assert len(pruned.trace) >= 1 and {s.action.split()[0] for s in pruned.trace} <= {"leaf", "raise", "keep"}


def test_smaller_confidence_prunes_more():
    table = load(WEKA / "data" / "credit-g.arff")
    sizes = [train(table, "c45", cf=cf)[0].root.n_nodes() for cf in (0.5, 0.25, 0.1, 0.01)]
    assert sizes == sorted(sizes, reverse=True) and sizes[0] > sizes[-1]
