"""Printing a threshold (model/number_text.py: format_threshold) as Weka's Utils.doubleToString(value, 6) does.

Facts: Weka rounds half up to 6 decimals while a million times the value fits in a Java long,
and otherwise prints Java's Double.toString (shortest digits, ``d.dddE<n>``): 1.0E13,
1.7976931348623157E308, Infinity.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dtcli.model.number_text import format_threshold, java_double


@pytest.mark.parametrize(
    "value, text",
    [
        (44.0, "44"),
        (0.5, "0.5"),
        (70.5, "70.5"),
        (1.0000004, "1"),
        (1.0000005, "1.000001"),  # half up
        (-2.5, "-2.5"),
        (-0.0000001, "0"),
        (9.2e12, "9200000000000"),  # 9.2e18 < 2^63: still Weka's decimals
        (9.3e12, "9.3E12"),  # 9.3e18 >= 2^63: Java's Double.toString
        (1e13, "1.0E13"),
        (12345678901234.5, "1.23456789012345E13"),
        (-1.725e308, "-1.725E308"),
        (1.7976931348623157e308, "1.7976931348623157E308"),
        (-3.4028234663852886e38, "-3.4028234663852886E38"),
        (math.inf, "Infinity"),
        (-math.inf, "-Infinity"),
        (math.nan, "NaN"),
    ],
)
def test_format_threshold_as_weka(value, text):
    assert format_threshold(value) == text


@settings(max_examples=3000, deadline=None)
@given(st.floats(allow_nan=False, allow_infinity=False))
def test_java_double_has_the_shortest_digits(value):
    """The digits are the shortest that read back (as numpy's ``format_float_scientific`` finds them,
    a second implementation); the exponent has two digits at least."""
    numpy = pytest.importorskip("numpy")
    expected = numpy.format_float_scientific(value, unique=True, trim="0").replace("e+", "E").replace("e", "E")
    assert java_double(value) == expected
    assert float(java_double(value).replace("E", "e")) == value
