"""CART's binary candidates on Zaki & Meira's risk table, against a brute force written here."""

from __future__ import annotations

import itertools
import math

import pytest

from dtcli.explain.binary import binary_report
from helpers import SAMPLES, load

ROWS = [
    (25, "Sports", "L"),
    (20, "Vintage", "H"),
    (25, "Sports", "L"),
    (45, "SUV", "H"),
    (20, "Sports", "H"),
    (25, "SUV", "H"),
]  # Zaki & Meira, Table 16.1


def H(labels):
    n = len(labels)
    return -sum(labels.count(c) / n * math.log2(labels.count(c) / n) for c in set(labels))


def G(labels):
    n = len(labels)
    return 1 - sum((labels.count(c) / n) ** 2 for c in set(labels))


def measures(left, right):
    """(information gain, Gini gain, CART measure eq. 16.8) of a split of the labels."""
    both, n = left + right, len(left) + len(right)
    gain = H(both) - len(left) / n * H(left) - len(right) / n * H(right)
    gini = G(both) - len(left) / n * G(left) - len(right) / n * G(right)
    cart = (
        2
        * len(left)
        / n
        * len(right)
        / n
        * sum(abs(left.count(c) / len(left) - right.count(c) / len(right)) for c in ("H", "L"))
    )
    return gain, gini, cart


def brute_force():
    found = {}
    for age in sorted({a for a, _, _ in ROWS})[:-1]:
        upper = min(a for a, _, _ in ROWS if a > age)
        left = [r for a, _, r in ROWS if a <= age]
        found[f"Age <= {(age + upper) / 2:g}"] = measures(left, [r for a, _, r in ROWS if a > age])
    cars = ["Sports", "Vintage", "SUV"]
    for k in (1, 2):
        for subset in itertools.combinations(cars, k):
            inside = [r for _, c, r in ROWS if c in subset]
            outside = [r for _, c, r in ROWS if c not in subset]
            key = frozenset(subset if k == 1 else set(cars) - set(subset))
            found.setdefault(key, measures(inside, outside))
    return found


def test_risk_candidates_match_the_brute_force():
    report = binary_report(load(SAMPLES / "risk.csv", "Risk", ignore=("Point",)), "cart")
    expected = brute_force()
    got = {}
    for c in report.candidates:
        key = frozenset(c.values) if c.values else c.label()
        got[key] = (c.gain, c.gini_gain, c.cart)
    assert set(got) == set(expected)  # each subset once (with its complement): {S}, {V}, {U}; Age 22.5, 35
    for key, values in expected.items():
        assert got[key] == pytest.approx(values)
    sports = got[frozenset({"Sports"})]
    assert round(sports[0], 3) == 0.459  # Zaki prints 0.721 (0.915 - 0.194): a slip; 3/6 H(2/3, 1/3) = 0.459
    assert [c.label() for c in report.candidates] == [
        "Age <= 22.5",
        "Age <= 35",
        "Car in {Sports}",
        "Car in {Vintage}",
        "Car in {SUV}",
    ]
    assert report.candidates[report.chosen].label() == "Car in {Sports}"


@pytest.mark.parametrize("criterion", ["gain", "gini", "cart"])
def test_every_criterion_picks_sports(criterion):
    report = binary_report(load(SAMPLES / "risk.csv", "Risk", ignore=("Point",)), criterion)
    assert report.candidates[report.chosen].label() == "Car in {Sports}"


def test_missing_values_scale_by_the_known_share(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text("A,C\n1,y\n2,n\n?,y\n4,n\n")
    report = binary_report(load(path), "gain")
    first = report.candidates[0]
    assert first.label() == "A <= 1.5" and first.missing == 1
    assert first.gain == pytest.approx(3 / 4 * measures(["y"], ["n", "n"])[0])
