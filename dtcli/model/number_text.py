"""How a threshold is written, as Weka writes it (``format_threshold``), in plain Python.

No numpy here: ``dtree gain``'s plain path (``cli/gain.py``) writes thresholds
with these very functions, and every printout, model and rule does too.
"""

from __future__ import annotations

import math

LONG_MAX = 9.223372036854775807e18  # Java's Long.MAX_VALUE, as a double


def format_threshold(value: float) -> str:
    """A threshold as Weka prints it (``Utils.doubleToString(value, 6)``): rounded half up to
    6 decimals, zeros stripped; a number too large for that (a million times it at least
    2^63), infinite or NaN as Java's ``Double.toString``: ``1.7976931348623157E308``."""
    scaled = value * 1e6
    if not abs(scaled) < LONG_MAX:
        return java_double(value)
    units = int(scaled + 0.5) if scaled > 0 else -int(abs(scaled) + 0.5)
    sign = "-" if units < 0 else ""
    whole, frac = divmod(abs(units), 1_000_000)
    text = f"{sign}{whole}.{frac:06d}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def java_double(value: float) -> str:
    """Java's ``Double.toString`` of a number of magnitude 1e7 or more (scientific, as ``1.0E13``),
    or of an infinity or NaN (``Infinity``, ``-Infinity``, ``NaN``).

    The digits are the shortest that read back as ``value`` (Python's ``repr``, as Java's); the
    exponent has at least two digits (``1.0E07``: format_threshold never writes one below 12).
    """
    if value != value:
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    if not digits:
        return f"{sign}0.0E00"
    power = int(exponent or 0) + len(whole) - 1 - (len(whole + fraction) - len(digits) if whole == "0" else 0)
    digits = digits.rstrip("0") or "0"
    text = f"{digits[0]}.{digits[1:] or '0'}E{'-' if power < 0 else ''}{abs(power):02d}"
    return sign + text
