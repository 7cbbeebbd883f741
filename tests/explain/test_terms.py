"""Terms of a derivation: exact evaluation and evaluation with the figures as printed."""

from __future__ import annotations

import math

from dtcli.explain.terms import Frac, Log2, Paren, Product, Sum, Value, equation, evaluate


def test_fractions_stay_exact_and_values_round_when_plugged():
    entropy = Sum(((-1, Product((Frac(9, 14), Log2(Frac(9, 14))))), (-1, Product((Frac(5, 14), Log2(Frac(5, 14)))))))
    exact = -(9 / 14) * math.log2(9 / 14) - (5 / 14) * math.log2(5 / 14)
    assert math.isclose(evaluate(entropy), exact) and math.isclose(evaluate(entropy, 3), exact)
    gain = Sum(((1, Value(exact)), (-1, Product((Frac(8, 14), Value(0.8112781244591328))))))
    assert math.isclose(evaluate(gain, 3), 0.940 - 8 / 14 * 0.811)


def test_fractional_weights_round_as_printed():
    assert evaluate(Frac(1.5, 3.5), 3) == 0.429 and math.isclose(evaluate(Frac(1.5, 3.5)), 1.5 / 3.5)


def test_equation_notes_a_figure_that_rounding_first_changes():
    h = 0.9709505944546686  # H(2, 3)
    form = Sum(((1, Value(0.9402859586706311)), (-1, Product((Frac(10, 14), Value(h))))))
    eq = equation(None, (form,), 3)
    assert f"{eq.value:.3f}" == "0.247" and f"{eq.plugged:.3f}" == "0.246"
    same = equation(None, (Product((Frac(4, 5), Paren(Value(0.5)))),), 3)
    assert same.plugged is None and same.value == 0.4
