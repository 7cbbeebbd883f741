"""A cut's threshold (criteria/midpoint.py): between the two values, finite, without overflow.

Facts: worked midpoints of huge numbers, J48's and scikit-learn's fall-back to the lower value
where the midpoint is infinite, and single precision's rounding (ties to even); properties
against the defining inequalities, checked on the numbers themselves.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dtcli.induction.criteria.midpoint import LARGEST, midpoint
from dtcli.induction.criteria.midpoint_single import LARGEST_SINGLE, single_midpoint
from dtcli.induction.search.ties import single
from dtcli.model.table import LARGEST as TABLE_LARGEST
from dtcli.model.table import saturate

INF = math.inf


def test_the_largest_numbers_are_float64s_and_float32s():
    assert LARGEST == TABLE_LARGEST == np.finfo(np.float64).max
    assert float(np.finfo(np.float32).max) == LARGEST_SINGLE


@pytest.mark.parametrize(
    "lower, upper, threshold",
    [
        (1.0, 2.0, 1.5),
        (40.0, 48.0, 44.0),
        (1.7e308, 1.75e308, 1.725e308),  # (1.7e308 + 1.75e308) overflows; the halves do not
        (-1.75e308, -1.7e308, -1.725e308),
        (-1.7e308, 1.7e308, 0.0),
        (1e16, 1e16 + 2, 1e16),  # the midpoint rounds onto the upper value: the lower one (J48, scikit-learn)
        (0.0, 5e-324, 0.0),
        (5.0, INF, 5.0),  # the midpoint is infinite: the lower value, as J48 and scikit-learn
        (5.0, LARGEST, 5.0),  # growth holds inf as LARGEST
        (-INF, 5.0, -LARGEST),  # J48 and scikit-learn would write -inf; a model holds finite numbers
        (-LARGEST, 5.0, -LARGEST),
        (-INF, INF, -LARGEST),
    ],
)
def test_midpoint_facts(lower, upper, threshold):
    assert midpoint(lower, upper) == threshold


finite = st.floats(allow_nan=False, allow_infinity=False)


@settings(max_examples=300, deadline=None)
@given(finite, finite)
def test_midpoint_lies_between_and_is_the_plain_midpoint_where_that_is_exact(a, b):
    lower, upper = sorted((a, b))
    if lower == upper:
        return
    t = midpoint(lower, upper)
    assert math.isfinite(t) and lower <= t < upper
    plain = (lower + upper) / 2
    if math.isfinite(plain) and plain != upper and upper != LARGEST and lower != -LARGEST:
        assert t == plain  # the formula J48 and scikit-learn use, wherever it is defined


def f32(x: float) -> float:
    return float(np.float32(x))


def test_single_midpoint_facts():
    u = 2.0**-23  # single precision's step at 1
    # 1 + 1.5u is halfway between 1 + u (odd) and 1 + 2u (even): it rounds up, so the threshold is
    # the 64-bit number just below it, and a value of exactly 1 + 1.5u goes right, as in single precision
    assert single_midpoint(1 + u, 1 + 2 * u) == np.nextafter(1 + 1.5 * u, -INF)
    assert single_midpoint(1.0, 1 + u) == 1 + u / 2  # rounds down to 1.0 (even): scikit-learn's midpoint
    assert single_midpoint(16777218.0, 16777220.0) == np.nextafter(16777219.0, -INF)
    assert single_midpoint(1.0, 2.0) == 1.5
    # an infinite side (saturated at the largest single): the largest number that rounds to the lower value
    t = single_midpoint(5.0, LARGEST_SINGLE)
    assert f32(t) == 5.0 and f32(np.nextafter(t, INF)) > 5.0
    t = single_midpoint(-LARGEST_SINGLE, 5.0)
    assert f32(t) == -LARGEST_SINGLE and f32(np.nextafter(t, INF)) > -LARGEST_SINGLE
    assert single_midpoint(-INF, INF) == single_midpoint(-LARGEST_SINGLE, 5.0)


singles = st.floats(width=32, allow_nan=False, allow_infinity=False)


@settings(max_examples=300, deadline=None)
@given(singles, singles, st.lists(finite, max_size=5))
def test_a_64_bit_value_goes_left_exactly_when_its_single_precision_value_does(a, b, others):
    lower, upper = sorted((float(a), float(b)))
    if lower == upper:
        return
    t = single_midpoint(lower, upper)
    assert math.isfinite(t) and lower <= t < upper
    probes = [t, float(np.nextafter(t, INF)), float(np.nextafter(t, -INF)), lower, upper, *others]
    for x in probes:
        rounded = float(single(np.array([x]))[0])
        if rounded <= lower or rounded >= upper:  # values between lower and upper are no training values
            assert (x <= t) == (rounded <= lower), (lower, upper, t, x)
    plain = lower / 2.0 + upper / 2.0
    if f32(plain) != upper and upper != LARGEST_SINGLE and lower != -LARGEST_SINGLE:
        assert t == plain  # scikit-learn's threshold, wherever it routes as scikit-learn does


def test_single_saturates_instead_of_overflowing():
    with np.errstate(over="raise"):
        held = single(np.array([1.7e308, -INF, INF, 3.5e38, np.nan, 1.5]))
    assert held[:4].tolist() == [LARGEST_SINGLE, -LARGEST_SINGLE, LARGEST_SINGLE, LARGEST_SINGLE]
    assert math.isnan(held[4]) and held[5] == 1.5


def test_saturate_holds_infinities_as_the_largest_numbers():
    values = np.array([INF, -INF, np.nan, 1.0, 1e308])
    held = saturate(values)
    assert held[[0, 1, 3, 4]].tolist() == [LARGEST, -LARGEST, 1.0, 1e308] and math.isnan(held[2])
    finite_values = np.array([1.0, np.nan])
    assert saturate(finite_values) is finite_values
