"""Weka's comparisons with a tolerance of 1e-6 (weka.core.Utils), written the same way.

C4.5 as J48 implements it compares weights, gains and thresholds with these;
writing each exactly as Weka does (``a - b > 1e-6``, not ``a > b + 1e-6``)
keeps borderline cases identical, down to the last bit.
"""

from __future__ import annotations

SMALL = 1e-6


def gr(a, b):
    """a > b by more than 1e-6."""
    return a - b > SMALL


def gr_or_eq(a, b):
    """a >= b, within 1e-6."""
    return b - a < SMALL


def sm(a, b):
    """a < b by more than 1e-6."""
    return b - a > SMALL


def sm_or_eq(a, b):
    """a <= b, within 1e-6."""
    return a - b < SMALL


def eq(a, b):
    """a == b, within 1e-6."""
    return (a == b) | ((a - b < SMALL) & (b - a < SMALL))
