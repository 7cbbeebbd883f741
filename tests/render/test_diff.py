"""``dtree diff``'s text (render/diff.py): paths, node and rule versions, escapes."""

from __future__ import annotations

from dtcli.compare.findings import ROOT, Comparison, Difference, Summary
from dtcli.render.diff import condition_text, diff_text, split_text


def test_a_path_and_both_nodes_are_written_with_control_characters_escaped():
    result = Comparison("tree", Summary("nodes", 3, 1, 0, 1, 2, 0))
    node = {"kind": "split", "test": {"kind": "subset", "attribute": "Car\n", "values": ["a", "b"]},
            "counts": {"x": 1.0, "y": 2.5}, "label": "y"}  # fmt: skip
    leaf = {"kind": "leaf", "counts": {"y": 2.5, "x": 1.0}, "label": "y"}
    result.record(Difference(ROOT / "Age <= 30" / "Town = \x1b", ("kind",), node, leaf))
    assert diff_text(result, ("a.json", "b.json")) == (
        "Trees a.json (A) and b.json (B) differ\n"
        "First difference at Age <= 30 -> Town = \\x1b: leaf against split\n"
        "  A: split on Car\\n in {a, b} [x 1, y 2.5]\n"
        "  B: leaf -> y [y 2.5, x 1]\n"
        "Nodes: 0 match, 1 differ, 2 only in A, 0 only in B (A has 3, B has 1)\n"
    )


def test_rules_and_regression_nodes():
    result = Comparison("rules", Summary("rules", 2, 2, 1, 1), notes=["a note"])
    rule = {"conditions": [{"attribute": "a", "in": ["p"]}, {"attribute": "t", "above": 1.5, "at_most": 2.25}],
            "class": "yes", "counts": {"yes": 3.0}}  # fmt: skip
    result.record(Difference(ROOT / "R2", ("only in A",), rule, None))
    assert diff_text(result, ("a", "b")).splitlines()[1:4] == [
        "First difference at rule R2: only in A",
        "  A: IF a = p AND 1.5 < t <= 2.25 THEN yes [yes 3]",
        "  B: (none)",
    ]
    assert diff_text(result, ("a", "b")).endswith("Note: a note\n")
    assert split_text({"kind": "numeric", "attribute": "t", "threshold": 0.1 + 0.2}) == "t <= 0.3"
    assert condition_text({"attribute": "t", "above": 2.0}) == "t > 2"
    assert condition_text({"attribute": "c", "in": ["p", "q"]}) == "c in {p, q}"
