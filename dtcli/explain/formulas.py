"""The seeds' formulas written out as terms: entropy, Gini, gain, split information, gain ratio, costs.

Each function returns an ``Equation`` (``explain/terms.py``) whose right-hand
side is the formula with the counts put in, in the order the seeds write it
(Mitchell 1997 eqs. 3.3 to 3.6 and §3.7.5; Quinlan 1993 for the known share;
Breiman et al. 1984 for Gini; Zaki & Meira eq. 16.8 for the CART measure).
``order`` lists the class indices in the order their terms are written
(Mitchell writes the positive class first). Classes with no case drop out
(0 log 0 = 0).
"""

from __future__ import annotations

import math

import numpy as np

from dtcli.explain.terms import (
    Abs,
    Call,
    Const,
    Frac,
    Log2,
    Name,
    Paren,
    Power,
    Product,
    Ratio,
    Sum,
    Value,
    equation,
)


def _order(counts, order):
    return list(range(len(counts))) if order is None else list(order)


def entropy_of(name, counts, digits: int, order=None):
    """``Entropy(S) = -(9/14) log2(9/14) - (5/14) log2(5/14)``."""
    counts = np.asarray(counts, dtype=float)
    total = float(counts.sum())
    terms = tuple(
        (-1, Product((Frac(counts[c], total), Log2(Frac(counts[c], total)))))
        for c in _order(counts, order)
        if counts[c] > 0
    )
    lhs = Call("Entropy", (name,))
    if not terms:
        return equation(lhs, (), digits, value=0.0, remark="empty")
    return equation(lhs, (Sum(terms),), digits, remark="pure" if len(terms) == 1 else "")


def gini_of(name, counts, digits: int, order=None):
    """``Gini(S) = 1 - (9/14)^2 - (5/14)^2``."""
    counts = np.asarray(counts, dtype=float)
    total = float(counts.sum())
    lhs = Call("Gini", (name,))
    if total <= 0:
        return equation(lhs, (), digits, value=0.0, remark="empty")
    terms = tuple((-1, Power(Frac(counts[c], total), Const(2))) for c in _order(counts, order) if counts[c] > 0)
    return equation(lhs, (Sum(((1, Const(1)),) + terms),), digits)


def expected(parent: float, sizes, values, known: float) -> Sum:
    """``I(S) - sum_v |S_v|/|S| I(S_v)`` with the branch impurities as printed figures."""
    terms = [(1, Value(parent))]
    terms += [(-1, Product((Frac(size, known), Value(value)))) for size, value in zip(sizes, values)]
    return Sum(tuple(terms))


def scaled(share: Frac | None, inner: Sum):
    """C4.5's known share: ``F x (...)``, or the sum itself when every value is known."""
    return inner if share is None else Product((share, Paren(inner)))


def gain_of(lhs, parent: float, sizes, values, known: float, share: Frac | None, digits: int, remark: str = ""):
    """``Gain(S, A) = 0.940 - (8/14)(0.811) - (6/14)(1.000)`` (times F with missing values)."""
    return equation(lhs, (scaled(share, expected(parent, sizes, values, known)),), digits, remark=remark)


def split_info_of(lhs, sizes, missing: float, digits: int):
    """``SplitInfo(S, A) = -(5/14) log2(5/14) - ...``; missing cases are one more branch (C4.5)."""
    sizes = [float(s) for s in sizes] + ([float(missing)] if missing > 0 else [])
    total = sum(sizes)
    terms = tuple((-1, Product((Frac(s, total), Log2(Frac(s, total))))) for s in sizes if s > 0)
    if not terms:
        return equation(lhs, (), digits, value=0.0)
    return equation(lhs, (Sum(terms),), digits)


def ratio_of(lhs, gain: float, split_info: float, digits: int):
    """``GainRatio(S, A) = Gain / SplitInfo`` (undefined, None, when the split information is 0)."""
    if split_info <= 0:
        return None
    return equation(lhs, (Ratio(Value(gain), Value(split_info)),), digits)


COST_TITLES = {"ratio": "Gain/Cost", "tan-schlimmer": "Gain^2/Cost", "nunez": "Nunez"}
COST_FORMULAS = {"ratio": "Gain/Cost", "tan-schlimmer": "Gain^2/Cost", "nunez": "(2^Gain - 1)/(Cost + 1)^w"}


def cost_of(name, attribute: str, gain: float, costs, digits: int):
    """The cost measure written out (Mitchell §3.7.5): Gain/Cost, Gain^2/Cost or Nunez's."""
    cost = costs.cost(attribute)
    lhs = Call(COST_TITLES[costs.measure], (name, Name(attribute)))
    if costs.measure == "ratio":
        form = Ratio(Value(gain), Const(cost))
    elif costs.measure == "tan-schlimmer":
        form = Ratio(Power(Value(gain), Const(2)), Const(cost))
    else:
        top = Sum(((1, Power(Const(2), Value(gain))), (-1, Const(1))))
        form = Ratio(top, Power(Paren(Sum(((1, Const(cost)), (1, Const(1))))), Const(costs.nunez_w)))
    return equation(lhs, (form,), digits)


def cart_measure_of(lhs, left, right, digits: int, share: Frac | None = None, order=None):
    """Zaki & Meira eq. 16.8: ``2 P_L P_R sum_c |P(c|L) - P(c|R)|``."""
    left, right = np.asarray(left, dtype=float), np.asarray(right, dtype=float)
    n_left, n_right = float(left.sum()), float(right.sum())
    n = n_left + n_right
    diffs = tuple(
        (1, Abs(Sum(((1, Frac(left[c], n_left)), (-1, Frac(right[c], n_right))))))
        for c in _order(left, order)
        if left[c] + right[c] > 0
    )
    form = Product((Const(2), Frac(n_left, n), Frac(n_right, n), Paren(Sum(diffs))))
    return equation(lhs, (form if share is None else Product((share, form)),), digits)


def known_share(known: float, total: float) -> Frac | None:
    """F = known/total, or None when no value is missing."""
    return None if math.isclose(known, total, rel_tol=0, abs_tol=1e-12) or known >= total else Frac(known, total)
