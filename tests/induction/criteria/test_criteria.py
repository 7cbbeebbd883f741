"""Impurity measures and split scores against the seeds' worked examples and properties.

Worked numbers (computed exactly; the seeds round intermediate values):
Mitchell's PlayTennis gains 0.247/0.152/0.048/0.029 (printed 0.246/0.151),
Gain(S_sunny, Humidity) = 0.971 (printed .970), the 9/5/4 three-class
entropy, the COMP9417 64-example A1/A2 gains, Russell & Norvig's Patrons.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dtcli.induction.criteria.impurity import (
    CRITERIA,
    entropy,
    gain_ratio,
    gini,
    gini_gain,
    information_gain,
    seqsum,
    split_information,
    weighted_impurity,
)

# PlayTennis branch counts (No, Yes) per value, from Mitchell Table 3.2.
OUTLOOK = [[3, 2], [0, 4], [2, 3]]  # Sunny, Overcast, Rain
HUMIDITY = [[4, 3], [1, 6]]  # High, Normal
WIND = [[2, 6], [3, 3]]  # Weak, Strong
TEMPERATURE = [[2, 2], [2, 4], [1, 3]]  # Hot, Mild, Cool


def test_entropy_of_playtennis():
    assert entropy([9, 5]) == pytest.approx(0.940286, abs=1e-6)
    assert round(entropy([9, 5]), 3) == 0.940


@pytest.mark.parametrize(
    "counts, expected",
    [
        (OUTLOOK, 0.247),
        (HUMIDITY, 0.152),
        (WIND, 0.048),
        (TEMPERATURE, 0.029),
    ],
)
def test_playtennis_gains_exact_to_three_places(counts, expected):
    assert round(information_gain(counts), 3) == expected


def test_playtennis_gains_full_precision():
    # -(9/14)log2(9/14) - (5/14)log2(5/14) - (5/14)(0.971) - (5/14)(0.971)

    def h(*c):
        return -sum(x / sum(c) * math.log2(x / sum(c)) for x in c if x)

    expected = h(9, 5) - 5 / 14 * h(3, 2) - 4 / 14 * h(4) - 5 / 14 * h(2, 3)
    assert information_gain(OUTLOOK) == pytest.approx(expected, abs=1e-15)
    assert information_gain(OUTLOOK) == pytest.approx(0.246749819774439, abs=1e-12)


def test_sunny_subtree_humidity():
    # Gain(S_sunny, Humidity) = .970 in the seeds; exactly H(2/5) = 0.97095
    assert information_gain([[3, 0], [0, 2]]) == pytest.approx(0.970950594, abs=1e-9)
    assert round(information_gain([[3, 0], [0, 2]]), 3) == 0.971
    assert round(information_gain([[2, 0], [1, 1], [0, 1]]), 3) == 0.571  # Temperature, printed .570
    assert round(information_gain([[2, 1], [1, 1]]), 3) == 0.020  # Wind, printed .019


def test_three_class_entropy():
    expected = -(9 / 18) * math.log2(9 / 18) - (5 / 18) * math.log2(5 / 18) - (4 / 18) * math.log2(4 / 18)
    assert entropy([9, 5, 4]) == pytest.approx(expected, abs=1e-15)
    assert round(entropy([9, 5, 4]), 3) == 1.496


def test_sixty_four_examples_a1_a2():
    # COMP9417: S = [29+, 35-]; A1: t [21+, 5-], f [8+, 30-]; A2: t [18+, 33-], f [11+, 2-].
    assert round(entropy([29, 35]), 4) == 0.9937  # printed 0.9936 (truncated)
    assert round(information_gain([[21, 5], [8, 30]]), 4) == 0.2659  # printed 0.2658
    # The slides print 0.9936 - (0.7464 + 0.0828) = 0.1643; the second term is
    # really 13/64 H(11/13) = 0.1258, so the gain is 0.1214.
    assert 51 / 64 * entropy([18, 33]) == pytest.approx(0.7464, abs=1e-4)
    assert round(information_gain([[18, 33], [11, 2]]), 4) == 0.1214


def test_restaurant_patrons():
    # Russell & Norvig: Gain(Patrons) = 0.541, Gain(Type) = 0.
    assert round(information_gain([[4, 0], [2, 4], [0, 2]]), 3) == 0.541
    assert information_gain([[1, 1], [2, 2], [2, 2], [1, 1]]) == pytest.approx(0, abs=1e-12)


def test_entropy_extremes():
    assert entropy([7, 0]) == pytest.approx(0, abs=1e-15)
    assert entropy([0, 0]) == 0
    assert entropy([3, 3]) == pytest.approx(1)
    assert entropy([2, 2, 2, 2]) == pytest.approx(2)


def test_split_information_and_gain_ratio():
    # Outlook: branch sizes 5, 4, 5
    si = -(5 / 14) * math.log2(5 / 14) * 2 - (4 / 14) * math.log2(4 / 14)
    assert split_information(OUTLOOK) == pytest.approx(si)
    assert round(split_information(OUTLOOK), 3) == 1.577
    assert gain_ratio(OUTLOOK) == pytest.approx(information_gain(OUTLOOK) / si)
    assert round(gain_ratio(HUMIDITY), 3) == 0.152  # split information of 7/7 is 1
    assert gain_ratio([[3, 2], [0, 0]]) == float("-inf")  # one non-empty branch


def test_gini():
    assert gini([9, 5]) == pytest.approx(1 - (9 / 14) ** 2 - (5 / 14) ** 2)
    assert gini([0, 0]) == 0
    assert gini_gain(HUMIDITY) == pytest.approx(gini([9, 5]) - 7 / 14 * gini([4, 3]) - 7 / 14 * gini([1, 6]))


def test_vectorised_along_last_axis():
    rows = np.array([[9, 5], [3, 3], [4, 0]])
    assert np.allclose(entropy(rows), [entropy(r) for r in rows])
    assert np.allclose(gini(rows), [gini(r) for r in rows])


def test_criteria_table():
    assert sorted(CRITERIA) == ["cart", "entropy", "gain", "gain-ratio", "gini"]


counts = st.lists(st.integers(0, 50), min_size=2, max_size=5)
splits = st.integers(2, 4).flatmap(
    lambda k: st.lists(st.lists(st.integers(0, 30), min_size=k, max_size=k), min_size=1, max_size=5)
)


def naive_entropy(c):
    n = sum(c)
    return -sum(x / n * math.log2(x / n) for x in c if x) if n else 0.0


@settings(max_examples=200, deadline=None)
@given(counts)
def test_entropy_bounds_and_definition(c):
    h = entropy(c)
    assert -1e-12 <= h <= math.log2(len(c)) + 1e-12
    assert h == pytest.approx(naive_entropy(c), abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(splits)
def test_gain_is_non_negative_and_bounded(branches):
    g = information_gain(branches)
    parent = np.asarray(branches).sum(axis=0)
    assert -1e-12 <= g <= entropy(parent) + 1e-12
    assert gini_gain(branches) >= -1e-12
    assert weighted_impurity(branches) == pytest.approx(entropy(parent) - g, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(splits)
def test_gain_ignores_branch_order_and_empty_branches(branches):
    g = information_gain(branches)
    assert information_gain(branches[::-1]) == pytest.approx(g, abs=1e-12)
    padded = branches + [[0] * len(branches[0])]
    assert information_gain(padded) == pytest.approx(g, abs=1e-12)


_weights = st.floats(min_value=-1e12, max_value=1e12, allow_nan=False, allow_subnormal=True)


@given(st.lists(st.lists(_weights, min_size=1, max_size=20), min_size=1, max_size=14))
@settings(max_examples=300, deadline=None)
def test_seqsum_adds_in_order_whatever_the_size(rows):
    """Small vectors are summed in a Python loop, larger ones with numpy: either way each row's values are
    added one after another from the first, as ``np.cumsum`` adds them (not pairwise as ``np.sum``)."""
    width = len(rows[0])
    x = np.array([(row * width)[:width] for row in rows])
    want = np.cumsum(x, axis=1)[:, -1]
    assert seqsum(x, axis=1).tolist() == want.tolist() and seqsum(x).tolist() == want.tolist()
    single = seqsum(x[0])
    assert isinstance(single, np.float64) and single == want[0]
    assert math.copysign(1, single) == math.copysign(1, want[0])  # (-0.0 stays -0.0)
    tall = np.tile(x, (30, 1))  # (more values than the loop takes)
    assert seqsum(tall, axis=1).tolist() == np.cumsum(tall, axis=1)[:, -1].tolist()
    assert seqsum(x, axis=0).tolist() == np.cumsum(x, axis=0)[-1].tolist()


_counts = st.floats(min_value=0, max_value=1e9, allow_nan=False, allow_subnormal=True)


@given(st.lists(st.lists(_counts, min_size=1, max_size=6), min_size=1, max_size=40), st.sampled_from([0, 1, 2]))
@settings(max_examples=300, deadline=None)
def test_gini_of_a_vector_and_of_a_matrix_agree_to_the_bit(rows, zeroed):
    """One class vector is scored in Python floats, a matrix with numpy: both ``1 - sum_c (c / W)^2`` with
    the squares added in class order, to the same bits as the formula written out with ``np.cumsum``;
    0 for an empty set."""
    width = len(rows[0])
    x = np.array([(row * width)[:width] for row in rows])
    x[: min(zeroed, len(x))] = 0.0  # some rows weigh nothing
    total = np.cumsum(x, axis=1)[:, -1]
    with np.errstate(divide="ignore", invalid="ignore"):
        p = x / total[:, None]
    want = np.where(total > 0, 1.0 - np.cumsum(p * p, axis=1)[:, -1], 0.0)
    got = gini(x)
    assert got.tolist() == want.tolist()
    for i, row in enumerate(x):
        one = gini(row)
        assert isinstance(one, float) and one == want[i] and math.copysign(1, one) == math.copysign(1, want[i])


@pytest.mark.parametrize("cf", [0.25, 0.1, 0.5, 0.01, 0.3])
def test_the_normal_deviate_is_statistics_to_the_last_bit(cf):
    """The default confidence's deviate is kept as a number (no statistics at start-up): the same float."""
    from statistics import NormalDist

    from dtcli.induction.criteria.bounds import normal_deviate

    assert normal_deviate(cf) == NormalDist().inv_cdf(1 - cf)
