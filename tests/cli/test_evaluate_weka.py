"""``dtree train -a c45`` then ``dtree evaluate`` print what Weka 3.6.14's J48 prints for the same test file.

The expected texts are J48's evaluations (``-t TRAIN -T TEST -i -o -v``, pruned and
``-U``) recorded by tests/fixtures/weka/evaluate/record.py: segment-challenge
against segment-test, and halves of Weka's example files cut by
helpers.arff_halves (and iris's with the class of every fifth test row missing:
Weka ignores those rows, except in the ROC area, where they count as negatives).
Compared: the confusion matrix and the counts exactly;
kappa, the mean absolute, root mean squared, relative absolute and root
relative squared errors to Weka's four decimals; per class and weighted
TP rate, FP rate, precision, recall, F-measure and ROC area to its three
(Weka prints 0 where a precision or recall has no rows to count, dtree '?');
and the summary and matrix blocks of the text line by line.
"""

from __future__ import annotations

import json
import re

import pytest

from helpers import WEKA, arff_halves, unknown_classes

HERE = WEKA / "evaluate"
CASES = sorted(p.name.rsplit(".", 2)[0] for p in (HERE / "expected").glob("*.pruned.txt"))
VARIANTS = {"pruned": [], "unpruned": ["--no-prune"]}
SUMMARY = {
    "Kappa statistic": "kappa",
    "Mean absolute error": "mean_absolute_error",
    "Root mean squared error": "root_mean_squared_error",
}
RELATIVE = {
    "Relative absolute error": "relative_absolute_error",
    "Root relative squared error": "root_relative_squared_error",
}
COLUMNS = ("tp_rate", "fp_rate", "precision", "recall", "f_measure", "roc_area")


def weka_report(text: str) -> dict:
    """The numbers of a J48 evaluation printout."""
    found = {"classes": [], "matrix": []}
    for line in text.splitlines():
        if m := re.match(r"(Correctly|Incorrectly) Classified Instances\s+(\S+)\s+(\S+)\s+%", line):
            found[m.group(1).lower()] = float(m.group(2))
        elif m := re.match(r"(Kappa statistic|Mean absolute error|Root mean squared error)\s+(\S+)$", line.rstrip()):
            found[SUMMARY[m.group(1)]] = float(m.group(2))
        elif m := re.match(r"(Relative absolute error|Root relative squared error)\s+(\S+)\s+%", line):
            found[RELATIVE[m.group(1)]] = float(m.group(2)) / 100
        elif m := re.match(r"Total Number of Instances\s+(\S+)", line):
            found["total"] = float(m.group(1))
        elif m := re.match(r"Ignored Class Unknown Instances\s+(\S+)", line):
            found["ignored"] = float(m.group(1))
        elif m := re.match(r"( {15}|Weighted Avg\.  )" + r"\s+(\S+)" * 6 + r"\s*(.*)$", line):
            values = [None if v == "?" else float(v) for v in m.groups()[1:7]]
            if m.group(1).startswith("Weighted"):
                found["weighted"] = values
            else:
                found["classes"].append((m.group(8), values))
        elif m := re.match(r"((?:\s+\d+)+) \|\s+\w+ = (.*)$", line):
            found["matrix"].append([int(x) for x in m.group(1).split()])
    return found


def block(text: str, first: str) -> list[str]:
    """The lines from the one starting with ``first`` to the next blank line (trailing spaces dropped)."""
    lines = [line.rstrip() for line in text.splitlines()]
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith(first))
    end = next((i for i in range(start, len(lines)) if not lines[i]), len(lines))
    return lines[start:end]


def evaluate(run, tmp_path, case: str, variant: str, fmt: str) -> str:
    if case == "segment":
        train, test = WEKA / "data" / "segment-challenge.arff", HERE / "segment-test.arff"
    else:
        halves = arff_halves((WEKA / "data" / f"{case.removesuffix('-unknown')}.arff").read_text())
        train, test = tmp_path / "train.arff", tmp_path / "test.arff"
        train.write_text(halves[0])
        test.write_text(unknown_classes(halves[1]) if case.endswith("-unknown") else halves[1])
    model = tmp_path / f"{variant}.json"
    if not model.exists():
        assert run("train", train, "-a", "c45", *VARIANTS[variant], "-q", "-o", model).exit_code == 0
    result = run("evaluate", model, test, "-f", fmt)
    assert result.exit_code == 0, result.stderr
    return result.stdout


def close(ours, weka, decimals: int) -> bool:
    """``ours`` shows as ``weka`` when rounded to ``decimals`` (half up, as Weka), 0 for undefined."""
    return abs((ours or 0.0) - weka) <= 0.5 * 10**-decimals + 1e-9


def test_cases_cover_the_asked_data_sets():
    assert {"segment", "iris", "diabetes", "credit-g", "vote", "breast-cancer", "soybean", "glass", "labor"} <= set(
        CASES
    )


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("case", CASES)
def test_numbers_equal_j48s(run, tmp_path, case, variant):
    weka = weka_report((HERE / "expected" / f"{case}.{variant}.txt").read_text())
    doc = json.loads(evaluate(run, tmp_path, case, variant, "json"))
    summary = doc["summary"]
    assert doc["format"] == "dtree-evaluation" and doc["schema_version"] == 1
    assert (summary["correct"], summary["incorrect"], summary["total"], summary["ignored"]) == (
        weka["correctly"],
        weka["incorrectly"],
        weka["total"],
        weka.get("ignored", 0),
    )
    for key in (*SUMMARY.values(), "mean_absolute_error"):
        assert close(summary[key], weka[key], 4), key
    for key in RELATIVE.values():
        assert close(summary[key], weka[key], 6), key  # Weka prints percent to 4 decimals
    assert doc["confusion_matrix"]["counts"] == weka["matrix"]
    assert [c["label"] for c in doc["classes"]] == [name for name, _ in weka["classes"]]
    for ours, (label, values) in zip(doc["classes"], weka["classes"]):
        for key, value in zip(COLUMNS, values):
            if value is None:
                assert ours[key] is None, (label, key)
            else:
                assert close(ours[key], value, 3), (label, key, ours[key], value)
    for key, value in zip(COLUMNS, weka["weighted"]):
        assert close(doc["weighted_average"][key], value, 3), key


@pytest.mark.parametrize("case", ["segment", "glass", "vote", "soybean", "iris-unknown"])
def test_text_blocks_read_as_j48s(run, tmp_path, case):
    weka = (HERE / "expected" / f"{case}.pruned.txt").read_text()
    ours = evaluate(run, tmp_path, case, "pruned", "text")
    assert block(ours, "Correctly") == block(weka, "Correctly")
    assert block(ours, "a ") == block(weka, "a ")
