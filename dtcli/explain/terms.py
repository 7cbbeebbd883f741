"""Arithmetic as data: the terms of a worked computation, which renderers write and anyone can evaluate.

A derivation (``explain/worked.py``) is made of equations whose right-hand
sides are small expression trees: fractions of counts (``Frac``, kept
unreduced, 8/14 stays 8/14), intermediate figures shown rounded (``Value``),
``log2``, products, signed sums, powers, absolute values and quotients.
``evaluate(expr)`` computes an expression exactly (each ``Value`` at full
precision); ``evaluate(expr, digits)`` plugs in every figure as printed,
rounded to ``digits`` decimals, which is what a text that rounds as it goes
obtains. Comparing the two is how a derivation notices that a seed's
printed figure (Mitchell's 0.246 for Outlook) differs from the exact one (0.247).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field


def rounded(value: float, digits: int) -> float:
    """``value`` as printed with ``digits`` decimals, read back as a number."""
    return float(f"{value:.{digits}f}")


def whole(value: float) -> bool:
    return float(value).is_integer()


@dataclass(frozen=True)
class Const:
    """An exact constant of a formula (the 1 of Gini, the 2 of the CART measure)."""

    value: float


@dataclass(frozen=True)
class Frac:
    """``num/den`` of (weighted) counts, unreduced; with fractional weights shown as a rounded decimal."""

    num: float
    den: float

    @property
    def exact(self) -> bool:
        return whole(self.num) and whole(self.den)


@dataclass(frozen=True)
class Value:
    """An intermediate figure (an entropy, a gain) printed rounded; ``value`` is exact."""

    value: float


@dataclass(frozen=True)
class Log2:
    arg: object


@dataclass(frozen=True)
class Product:
    factors: tuple


@dataclass(frozen=True)
class Sum:
    """``terms``: (sign, term) pairs, sign +1 or -1; a leading -1 prints as a leading minus."""

    terms: tuple


@dataclass(frozen=True)
class Paren:
    inner: object


@dataclass(frozen=True)
class Power:
    base: object
    exponent: object


@dataclass(frozen=True)
class Abs:
    inner: object


@dataclass(frozen=True)
class Ratio:
    num: object
    den: object


@dataclass(frozen=True)
class SetName:
    """A set of cases: ``S``, or ``S`` with a subscript of values (``S_Sunny``, ``S_Sunny,High``)."""

    parts: tuple = ()

    def branch(self, value: str) -> SetName:
        return SetName(self.parts + (value,))


@dataclass(frozen=True)
class Name:
    """An attribute, value or split named in a formula (``Wind``, ``Age <= 22.5``)."""

    text: str


@dataclass(frozen=True)
class Call:
    """A named measure of its arguments: ``Entropy(S)``, ``Gain(S, Wind)``."""

    function: str
    args: tuple


@dataclass
class Equation:
    """``lhs = forms[0] = forms[1] = ... = value``; ``value`` is exact and printed rounded at the end only.

    ``plugged``: the value the last form gives with its figures as printed
    (None when it has no rounded figure in it, or gives the same at ``digits``).
    ``remark``: a short aside printed after the value (``pure``, ``boundary``).
    """

    lhs: object
    forms: tuple
    value: float
    plugged: float | None = None
    remark: str = ""


@dataclass
class Section:
    """A heading and its lines: equations, or plain sentences (``str``)."""

    heading: str
    lines: list = field(default_factory=list)


def equation(lhs, forms, digits: int, remark: str = "", value: float | None = None) -> Equation:
    """The equation with its exact value and, where plugging in the rounded figures differs, that figure.

    ``value`` is needed only when there are no forms (an empty set's entropy is 0).
    """
    forms = tuple(forms)
    if not forms:
        return Equation(lhs, forms, float(value), None, remark)
    value = evaluate(forms[-1])
    plugged = evaluate(forms[-1], digits)
    differs = math.isfinite(value) and math.isfinite(plugged) and rounded(plugged, digits) != rounded(value, digits)
    return Equation(lhs, forms, value, plugged if differs else None, remark)


def evaluate(expr, digits: int | None = None) -> float:
    """The value of ``expr``: exact, or with every printed figure rounded to ``digits`` decimals."""
    return fold(expr, lambda node, values: _combine(node, values, digits))


def fold(expr, combine):
    """``combine(node, [results of its parts])`` bottom-up over ``expr``, with an explicit stack."""
    stack: list = [(expr, False)]
    results: list = []
    while stack:
        node, ready = stack.pop()
        parts = children(node)
        if not ready and parts:
            stack.append((node, True))
            stack.extend((p, False) for p in reversed(parts))
            continue
        values = [results.pop() for _ in parts][::-1] if parts else []
        results.append(combine(node, values))
    return results[0]


def children(node) -> tuple:
    """The sub-expressions of ``node``, in writing order."""
    if isinstance(node, Sum):
        return tuple(t for _, t in node.terms)
    if isinstance(node, Product):
        return node.factors
    if isinstance(node, Power):
        return (node.base, node.exponent)
    if isinstance(node, Ratio):
        return (node.num, node.den)
    if isinstance(node, Log2):
        return (node.arg,)
    if isinstance(node, (Paren, Abs)):
        return (node.inner,)
    if isinstance(node, Call):
        return node.args
    return ()


def _combine(node, values: list[float], digits: int | None) -> float:
    if isinstance(node, Const):
        return float(node.value)
    if isinstance(node, Value):
        return node.value if digits is None else rounded(node.value, digits)
    if isinstance(node, Frac):
        exact = node.num / node.den if node.den else 0.0
        return exact if digits is None or node.exact else rounded(exact, digits)
    if isinstance(node, Sum):
        return math.fsum(sign * v for (sign, _), v in zip(node.terms, values))
    if isinstance(node, Product):
        return math.prod(values)
    if isinstance(node, Log2):
        return math.log2(values[0]) if values[0] > 0 else 0.0
    if isinstance(node, Power):
        return values[0] ** values[1]
    if isinstance(node, Ratio):
        return values[0] / values[1] if values[1] else math.inf
    if isinstance(node, Abs):
        return abs(values[0])
    if isinstance(node, Paren):
        return values[0]
    raise TypeError(f"cannot evaluate {type(node).__name__}")
