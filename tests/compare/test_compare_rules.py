"""Rule sets compared rule by rule (compare/rules.py): order matters, conditions are sets."""

from __future__ import annotations

import copy

from trees import fit

from dtcli.compare.findings import Tolerance
from dtcli.compare.rules import compare_rule_sets
from dtcli.induction.rules import extract
from dtcli.model.rules import rules_from_dict, rules_to_dict
from helpers import SAMPLES, load


def golf_rules() -> dict:
    """R1 Outlook = sunny AND Humidity <= 75: yes; R2 ... > 75: no; R3 overcast: yes; R4, R5 rainy."""
    return rules_to_dict(extract(fit(load(SAMPLES / "weather-numeric.csv"), "c45", prune="none")[0]))


def compared(a: dict, b: dict, **tolerance):
    return compare_rule_sets(rules_from_dict(a, "a"), rules_from_dict(b, "b"), Tolerance(**tolerance))


def test_a_rule_set_is_equivalent_to_itself():
    a = golf_rules()
    result = compared(a, a)
    assert result.equivalent and result.summary.matching == len(a["rules"]) + 1  # and the default


def test_conditions_are_a_set_and_values_too():
    a = golf_rules()
    b = copy.deepcopy(a)
    for rule in b["rules"]:
        rule["conditions"].reverse()
    assert b["rules"][0]["conditions"] != a["rules"][0]["conditions"]
    b["training_data"]["source"] = "shuffled.csv"
    assert compared(a, b).equivalent


def test_a_changed_bound_is_found_and_forgiven_within_the_tolerance():
    a = golf_rules()
    b = copy.deepcopy(a)
    bound = next(c for c in b["rules"][0]["conditions"] if c["attribute"] == "Humidity")
    bound["at_most"] = 77.0
    result = compared(a, b)
    assert not result.equivalent and result.differences[0].path.steps() == ["R1"]
    assert result.differences[0].aspects == ("conditions",)
    assert compared(a, b, threshold=2.0).equivalent


def test_the_same_rules_in_another_order_differ_with_a_note():
    a = golf_rules()
    b = copy.deepcopy(a)
    b["rules"].reverse()
    result = compared(a, b)
    assert not result.equivalent
    assert result.notes[-1].startswith("the same rules in another order")


def test_a_missing_rule_and_another_default_are_named():
    a = golf_rules()
    b = copy.deepcopy(a)
    del b["rules"][-1]
    b["default"]["class"] = "no" if a["default"]["class"] == "yes" else "yes"
    result = compared(a, b)
    s = result.summary
    assert (s.count_a, s.count_b, s.only_a, s.matching) == (6, 5, 1, 4)
    assert [(d.path.steps(), d.aspects) for d in result.differences] == [
        ([f"R{len(a['rules'])}"], ("only in A",)),
        (["default"], ("class",)),
    ]
    assert not any(n.startswith("the same rules") for n in result.notes)


def test_class_order_alone_does_not_matter():
    a = golf_rules()
    b = copy.deepcopy(a)
    b["schema"]["target"]["classes"].reverse()
    for rule in [*b["rules"], b["default"]]:
        rule["counts"].reverse()
    assert compared(a, b).equivalent
