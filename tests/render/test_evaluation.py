"""Rendering an evaluation: Weka's number layout, the header from ``about``, JSON and CSV of undefined values."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

from dtcli.evaluate.predictions import Predictions
from dtcli.render.evaluation import evaluation_output, short_id, weka_number

CLASSES = ("a", "b")


def part(prior=(1.0, 1.0)) -> Predictions:
    proba = np.array([[1.0, 0.0], [1.0, 0.0], [0.2, 0.8]])
    return Predictions(np.array([0, 0, 1]), proba.argmax(axis=1), proba, CLASSES, CLASSES, np.array(prior))


@pytest.mark.parametrize(
    ("value", "width", "decimals", "shown"),
    [
        (96.0, 12, 4, "     96     "),  # as Weka's 'Correctly Classified Instances' count
        (92.16589861751152, 12, 4, "     92.1659"),
        (0.31300001, 12, 4, "      0.313 "),
        (0.0, 7, 3, "  0    "),
        (1.0, 7, 3, "  1    "),
        (0.9605, 7, 3, "  0.961"),  # half up
        (-0.33333, 12, 4, "     -0.3333"),
        (None, 7, 3, "  ?    "),
        (217.0, 12, 4, "    217     "),
    ],
)
def test_weka_number(value, width, decimals, shown):
    assert weka_number(value, width, decimals) == shown


def test_letters_as_weka_names_classes():
    assert [short_id(i, 2) for i in (0, 25, 26, 27)] == [" a", " z", "aa", "ab"]


def test_cross_validation_header_and_about_in_json():
    about = {
        "model": "c45",
        "data": "iris.arff",
        "method": "cross-validation",
        "folds": np.int64(2),
        "fold_accuracy": {"mean": np.float64(0.5), "sd": float("nan"), "values": [0.5, 0.5]},
    }
    text = evaluation_output([part(), part((3.0, 1.0))], "text", about)
    assert text.startswith("=== Stratified cross-validation ===\n\nModel:              c45\n")
    assert "Folds:              2\n" in text and "Fold accuracy:      mean 0.5 (sd ?)\n" in text
    doc = json.loads(evaluation_output([part(), part((3.0, 1.0))], "json", about))
    assert doc["about"]["folds"] == 2 and doc["about"]["fold_accuracy"] == {
        "mean": 0.5,
        "sd": None,
        "values": [0.5, 0.5],
    }
    assert doc["summary"]["parts"] == 2 and doc["summary"]["total"] == 6


def test_undefined_values_are_question_marks_nulls_and_empty_cells():
    proba = np.array([[1.0, 0.0], [1.0, 0.0]])
    only_a = Predictions(np.array([0, 0]), np.array([0, 0]), proba, CLASSES, CLASSES, np.array([1.0, 1.0]))
    text = evaluation_output([only_a], "text", {"method": "test-set"})
    b_line = next(line for line in text.splitlines() if line.endswith("  b"))
    assert b_line.split()[:6] == ["?", "0", "?", "?", "?", "?"]
    doc = json.loads(evaluation_output([only_a], "json", {}))
    assert doc["classes"][1]["precision"] is None and doc["classes"][1]["roc_area"] is None
    rows = list(csv.reader(io.StringIO(evaluation_output([only_a], "csv", {}))))
    assert rows[2] == ["b", "0", "0", "", "0.0", "", "", "", ""]
