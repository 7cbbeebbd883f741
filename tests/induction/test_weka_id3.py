"""Differential test: dtree's ID3 reproduces Weka 3.6.14's Id3 branch for branch.

The expected trees were printed by ``weka.classifiers.trees.Id3`` (see
tests/fixtures/weka/README.md) on every nominal ARFF file without missing
values: Weka's weather.nominal and contact-lenses, and synthetic files with
empty branches, inconsistent rows, zero-gain nodes and tied attributes.
Weka prints an empty branch as ``null``; dtree labels it with the parent's
majority class (Mitchell's rule), so the rendering below prints dtree's
empty leaves as ``null`` too and everything else must match exactly.
"""

from __future__ import annotations

import json

import pytest
from trees import fit

from helpers import WEKA, load

MANIFEST = json.loads((WEKA / "manifest.json").read_text())
CASES = [m for m in MANIFEST if m["classifier"].endswith(".Id3") and m["ok"]]


def weka_id3_text(node, classes, depth=0):
    """Render a dtree tree in Weka Id3's layout (``|  `` per level)."""
    lines = []
    for value, child in zip(node.test.attribute.values, node.children):
        head = "|  " * depth + f"{node.test.attribute.name} = {value}"
        if child.is_leaf:
            label = "null" if child.weight == 0 else classes[child.label]
            lines.append(f"{head}: {label}")
        else:
            lines.append(head)
            lines.extend(weka_id3_text(child, classes, depth + 1))
    return lines


def test_cases_were_recorded():
    names = {m["dataset"] for m in CASES}
    assert {"weather.nominal", "contact-lenses"} <= names
    assert len(CASES) >= 8


@pytest.mark.parametrize("case", CASES, ids=[m["dataset"] for m in CASES])
def test_id3_matches_weka(case):
    table = load(WEKA / case["file"])
    tree, _ = fit(table, "id3")
    expected = (WEKA / case["expected"]).read_text().strip().splitlines()
    assert weka_id3_text(tree.root, tree.classes) == expected
