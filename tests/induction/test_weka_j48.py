"""Differential test: ``--algorithm c45`` reproduces Weka 3.6.14's ``J48 -U`` without pruning
and ``J48`` (error-based pruning, CF 0.25, subtree raising) with its default pruning.

The expected trees were printed by ``weka.classifiers.trees.J48 -U`` on
Weka's example files (nominal, numeric, mixed, with and without missing
values, two to nineteen classes) and on synthetic nominal files; see
tests/fixtures/weka/README.md. The comparison is on the printed text:
same tests, thresholds, leaf classes and weighted counts (2 decimals).
"""

from __future__ import annotations

import json

import pytest
from trees import fit

from dtcli.render.tree import text_tree
from helpers import WEKA, load

MANIFEST = json.loads((WEKA / "manifest.json").read_text())
CASES = [m for m in MANIFEST if m["ok"] and m["options"].strip() == "-U" and m["expected"]]
PRUNED = [
    m for m in MANIFEST if m["ok"] and m["options"].strip() == "" and m["expected"] and m["classifier"].endswith("J48")
]


def expected_tree(case) -> str:
    return (WEKA / case["expected"]).read_text().split("\n\nNumber of Leaves")[0].strip() + "\n"


def test_all_recorded_files_are_compared():
    assert len(CASES) >= 20 and len(PRUNED) == len(CASES)
    assert {"weather.numeric", "iris", "labor", "vote", "soybean", "credit-g"} <= {m["dataset"] for m in CASES}


@pytest.mark.parametrize("case", CASES, ids=[m["dataset"] for m in CASES])
def test_c45_unpruned_matches_j48(case):
    tree, _ = fit(load(WEKA / case["file"]), "c45", prune="none")
    assert text_tree(tree) == expected_tree(case)


@pytest.mark.parametrize("case", PRUNED, ids=[m["dataset"] for m in PRUNED])
def test_c45_default_pruning_matches_j48(case):
    tree, _ = fit(load(WEKA / case["file"]), "c45")
    assert text_tree(tree) == expected_tree(case)
    assert tree.parameters["pruning"]["method"] == "pessimistic"
