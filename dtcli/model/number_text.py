"""How a threshold is written, as Weka writes it (``format_threshold``), in plain Python.

No numpy here: ``dtree gain``'s plain path (``cli/gain.py``) writes thresholds
with these very functions, and every printout, model and rule does too.
A threshold computed in single precision (CART's, as scikit-learn places it:
a single-precision number or the midpoint of two adjacent ones) prints as the
shortest decimal that splits single-precision values as it does (``33.27``,
not Weka's six decimals ``33.269999``), when that is shorter.
"""

from __future__ import annotations

import math
import struct
from decimal import ROUND_CEILING, Decimal

LONG_MAX = 9.223372036854775807e18  # Java's Long.MAX_VALUE, as a double
# The most significant bits of a threshold computed in single precision: a single number has 24, the
# midpoint of two whose exponents differ by up to 7 at most 32.
SINGLE_BITS = 32


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
    text = "0" if text in ("-0", "") else text
    short = single_text(value)
    return short if short is not None and len(short) < len(text) else text


def _single_bits(value: float) -> int:
    return struct.unpack("<i", struct.pack("<f", value))[0]


def _single(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<i", bits))[0]


def single_cell(value: float) -> tuple[float, float] | None:
    """(a, b): the single-precision number ``a`` at or below ``value`` and the next one ``b``, when
    ``value`` looks computed in single precision: at most SINGLE_BITS significant bits, as a single
    number or the midpoint of two (a number read from text has some 53); otherwise (or beyond single
    precision's range, or 0) None. For every single-precision ``x``, ``x <= value`` exactly when ``x < b``."""
    if not math.isfinite(value) or value == 0 or abs(value) >= 3.4e38:
        return None
    numerator = value.as_integer_ratio()[0]
    numerator = abs(numerator) >> ((abs(numerator) & -abs(numerator)).bit_length() - 1)
    if numerator.bit_length() > SINGLE_BITS:
        return None
    near = _single(_single_bits(value))  # rounded to nearest
    bits = _single_bits(near)
    if near > value:  # the one below: one step towards minus infinity
        bits = bits - 1 if near > 0 else bits + 1
    a = _single(bits)
    b = _single(bits + 1 if a > 0 else bits - 1) if a != 0 else _single(1)
    return (a, b) if a <= value < b else None


def single_boundary(value: float) -> float:
    """The double ``c`` with ``x <= c`` exactly when ``x``, rounded to single precision (to nearest,
    ties to even, as numpy casts), is at most ``value``, for every double ``x``: the test scikit-learn
    makes of its single-precision input, made of 64-bit values. ``c`` is the midpoint of the
    single-precision number ``a`` at or below ``value`` and the next one ``b`` (a tie rounds to the
    one whose last bit is 0: to ``a``, ``c`` is the midpoint, else the double just below it).
    ``value`` itself when it is not finite or lies beyond single precision's range."""
    if not math.isfinite(value) or abs(value) >= 3.4e38:
        return value
    bits = _single_bits(value)  # rounded to nearest; as a signed integer, negative numbers below 0
    if _single(bits) > value:  # one step towards minus infinity
        bits = bits - 1 if bits > 0 else -(2**31) + 1 if bits == 0 else bits + 1
    a = _single(bits)
    b = _single(bits + 1 if bits >= 0 else 1 if bits == -(2**31) else bits - 1)
    middle = (a + b) / 2  # exact: two single-precision neighbours
    return middle if bits % 2 == 0 else math.nextafter(middle, -math.inf)


def single_text(value: float) -> str | None:
    """The shortest decimal ``d`` with ``a <= d < b`` for ``value``'s :func:`single_cell` (so ``x <= d``
    for exactly the single-precision ``x`` with ``x <= value``), positional; None for other values."""
    cell = single_cell(value)
    if cell is None:
        return None
    low, high = Decimal(cell[0]), Decimal(cell[1])
    top = low.adjusted()
    for digits in range(1, 18):
        step = Decimal(1).scaleb(top - digits + 1)
        candidate = (low / step).to_integral_value(rounding=ROUND_CEILING) * step
        if candidate < high:
            text = format(candidate.normalize(), "f")
            return "0" if text in ("-0", "") else text
    return None


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
