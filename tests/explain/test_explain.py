"""``explain_gain``: the derivation's figures against Mitchell's arithmetic, computed here from the counts."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dtcli.explain.report import gain_report
from dtcli.explain.terms import Call, Equation, Name, SetName, evaluate
from dtcli.explain.worked import Counts, Sorted, explain_gain
from dtcli.induction.criteria.costs import AttributeCosts
from dtcli.model.where import parse_condition, select
from helpers import SAMPLES, load


def H(*counts):
    """Entropy from counts, written out with math.log2 as Mitchell does."""
    n = sum(counts)
    return -sum(c / n * math.log2(c / n) for c in counts if c)


def r3(x):
    return float(f"{x:.3f}")


def derive(table, where=(), digits=3, costs=None, criterion="gain"):
    conditions = [parse_condition(w) for w in where]
    rows = select(table, conditions)
    fixed = tuple(c.name for c in conditions if c.op == "=")
    report = gain_report(table, criterion, rows, exclude=fixed, all_cuts=True, costs=costs)
    subscript = tuple(c.value for c in conditions if c.op == "=")
    return explain_gain(table, rows, report, digits, tuple(where), subscript, (1, 0), costs)


def equations(derivation):
    return {_key(item.lhs): item for s in derivation.sections for _, item in s.lines if isinstance(item, Equation)}


def _key(lhs):
    parts = []
    for arg in lhs.args:
        if isinstance(arg, SetName):
            parts.append("S" + ("_" + ",".join(arg.parts) if arg.parts else ""))
        else:
            parts.append(arg.text if isinstance(arg, Name) else str(arg))
    return f"{lhs.function}({', '.join(parts)})"


def test_playtennis_root_matches_mitchell(weather):
    eq = equations(derive(weather))
    assert eq["Entropy(S)"].value == pytest.approx(H(9, 5)) and r3(eq["Entropy(S)"].value) == 0.940
    assert eq["Entropy(S_Weak)"].value == pytest.approx(H(6, 2)) and r3(H(6, 2)) == 0.811
    wind = H(9, 5) - 8 / 14 * H(6, 2) - 6 / 14 * H(3, 3)
    assert eq["Gain(S, Wind)"].value == pytest.approx(wind) and r3(wind) == 0.048
    assert eq["Gain(S, Wind)"].plugged is None  # 0.940 - (8/14)(0.811) - (6/14)(1.000) also gives 0.048
    outlook = H(9, 5) - 5 / 14 * H(2, 3) - 4 / 14 * H(4, 0) - 5 / 14 * H(3, 2)
    assert r3(eq["Gain(S, Outlook)"].value) == r3(outlook) == 0.247
    # Mitchell rounds the entropies first and prints 0.246 and 0.151: the derivation says so
    mitchell = r3(H(9, 5)) - 5 / 14 * r3(H(2, 3)) - 5 / 14 * r3(H(3, 2))
    assert r3(mitchell) == 0.246 and r3(eq["Gain(S, Outlook)"].plugged) == 0.246
    humidity = r3(H(9, 5)) - 7 / 14 * r3(H(3, 4)) - 7 / 14 * r3(H(6, 1))
    assert r3(humidity) == 0.151 and r3(eq["Gain(S, Humidity)"].plugged) == 0.151
    assert r3(eq["Gain(S, Humidity)"].value) == 0.152
    split = -sum(k / 14 * math.log2(k / 14) for k in (5, 4, 5))
    assert eq["SplitInfo(S, Outlook)"].value == pytest.approx(split)
    assert eq["GainRatio(S, Outlook)"].value == pytest.approx(outlook / split)
    gini = 1 - (9 / 14) ** 2 - (5 / 14) ** 2
    assert eq["Gini(S)"].value == pytest.approx(gini)
    g = lambda a, b: 1 - (a / (a + b)) ** 2 - (b / (a + b)) ** 2  # noqa: E731
    assert eq["GiniGain(S, Wind)"].value == pytest.approx(gini - 8 / 14 * g(6, 2) - 6 / 14 * g(3, 3))


def test_sunny_node_matches_mitchell(weather):
    derivation = derive(weather, ["Outlook=Sunny"])
    eq = equations(derivation)
    assert r3(eq["Entropy(S_Sunny)"].value) == r3(H(2, 3)) == 0.971
    assert eq["Gain(S_Sunny, Humidity)"].value == pytest.approx(H(2, 3))
    temperature = H(2, 3) - 2 / 5 * 0 - 2 / 5 * H(1, 1) - 1 / 5 * 0
    assert eq["Gain(S_Sunny, Temperature)"].value == pytest.approx(temperature) and r3(temperature) == 0.571
    wind = H(2, 3) - 3 / 5 * H(1, 2) - 2 / 5 * H(1, 1)
    assert eq["Gain(S_Sunny, Wind)"].value == pytest.approx(wind) and r3(wind) == 0.020
    assert "Outlook" not in {s.heading for s in derivation.sections}
    assert derivation.choice.startswith("Chosen: Humidity, the highest information gain (0.971)")


def test_the_branch_counts_come_with_their_entropy(weather):
    lines = [item for s in derive(weather).sections if s.heading == "Wind" for _, item in s.lines]
    weak = next(item for item in lines if isinstance(item, Counts) and item.name.parts == ("Weak",))
    assert list(weak.counts) == [2.0, 6.0]  # classes No, Yes: [6+, 2-]


def test_temperature_thresholds_54_and_85():
    table = load(SAMPLES / "temperature.csv")
    derivation = derive(table)
    section = derivation.sections[1]
    values = next(item for _, item in section.lines if isinstance(item, Sorted))
    assert [float(v) for v in values.values] == [40, 48, 60, 72, 80, 90]
    cuts = {_key(item.lhs): item for _, item in section.lines if isinstance(item, Equation)}
    boundary = sorted(k for k, e in cuts.items() if e.remark == "boundary")
    assert boundary == ["Gain(S, Temperature <= 54)", "Gain(S, Temperature <= 85)"]
    assert cuts["Gain(S, Temperature <= 54)"].value == pytest.approx(H(3, 3) - 4 / 6 * H(3, 1))
    assert cuts["Gain(S, Temperature <= 85)"].value == pytest.approx(H(3, 3) - 5 / 6 * H(3, 2))
    assert cuts["Gain(S, Temperature <= 66)"].value == pytest.approx(H(3, 3) - H(1, 2))
    assert derivation.choice.startswith("Chosen: Temperature")


def test_missing_values_scale_by_the_known_share(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text("B,C\nx,y\nx,n\nz,y\n?,n\nz,y\n")
    eq = equations(derive(load(path)))
    # known: x [1y, 1n], z [2y]; F = 4/5; split info has a branch for the missing one
    gain = 4 / 5 * (H(3, 1) - 2 / 4 * H(1, 1) - 2 / 4 * H(2, 0))
    assert eq["Gain(S, B)"].value == pytest.approx(gain)
    split = -sum(k / 5 * math.log2(k / 5) for k in (2, 2, 1))
    assert eq["SplitInfo(S, B)"].value == pytest.approx(split)
    assert eq["Entropy(S_known)"].value == pytest.approx(H(3, 1))


@pytest.mark.parametrize(
    "measure, formula",
    [
        ("ratio", lambda g, c: g / c),
        ("tan-schlimmer", lambda g, c: g * g / c),
        ("nunez", lambda g, c: (2**g - 1) / (c + 1)),
    ],
)
def test_cost_measures_written_out(weather, measure, formula):
    costs = AttributeCosts({"Outlook": 4.0}, measure)
    derivation = derive(weather, costs=costs)
    outlook = H(9, 5) - 5 / 14 * H(2, 3) - 5 / 14 * H(3, 2)
    score = next(
        item
        for s in derivation.sections
        for _, item in s.lines
        if isinstance(item, Equation)
        and item.lhs.function not in ("Entropy", "Gini", "Gain", "SplitInfo", "GainRatio", "GiniGain")
        and item.lhs.args[1] == Name("Outlook")
    )
    assert score.value == pytest.approx(formula(outlook, 4.0))
    assert "cost score" in derivation.choice


def test_gain_ratio_choice_names_the_average_gain_rule(weather):
    derivation = derive(weather, criterion="gain-ratio")
    gains = [0.2467, 0.0292, 0.1518, 0.0481]
    assert f"average gain {np.mean(gains):.3f}" in derivation.choice
    assert derivation.choice.startswith("Chosen: Outlook, the highest gain ratio")


def test_digits_change_only_the_rounding(weather):
    six = equations(derive(weather, digits=6))["Gain(S, Outlook)"]
    three = equations(derive(weather, digits=3))["Gain(S, Outlook)"]
    assert six.value == three.value and evaluate(six.forms[-1]) == pytest.approx(six.value)
    assert isinstance(six.lhs, Call)
