"""``dtree evaluate`` end to end: the three formats, rule sets, regression trees, and the document's keys."""

from __future__ import annotations

import csv
import io
import json

import pytest

from helpers import SAMPLES


@pytest.fixture
def stump(run, tmp_path):
    """The one-level ID3 tree of weather.csv (Outlook): Sunny -> No (3/2), Overcast -> Yes, Rain -> Yes (3/2)."""
    path = tmp_path / "weather.json"
    args = ("train", SAMPLES / "weather.csv", "--ignore", "Day", "-a", "id3", "--max-depth", "1", "-q", "-o", path)
    assert run(*args).exit_code == 0
    return path


def test_json_document_by_hand(run, stump):
    result = run("evaluate", stump, SAMPLES / "weather.csv", "-f", "json")
    assert result.exit_code == 0 and result.stderr == ""
    doc = json.loads(result.stdout)
    assert list(doc) == [
        "format",
        "schema_version",
        "about",
        "task",
        "summary",
        "classes",
        "weighted_average",
        "macro_average",
        "confusion_matrix",
    ]
    assert (doc["format"], doc["schema_version"], doc["task"]) == ("dtree-evaluation", 1, "classification")
    assert doc["about"] == {"model": str(stump), "data": str(SAMPLES / "weather.csv"), "method": "test-set"}
    # Sunny: 3 No 2 Yes -> No; Overcast: 4 Yes; Rain: 3 Yes 2 No -> Yes
    assert doc["confusion_matrix"] == {"actual": ["No", "Yes"], "predicted": ["No", "Yes"], "counts": [[3, 2], [2, 7]]}
    summary = doc["summary"]
    assert (summary["correct"], summary["incorrect"], summary["total"]) == (10, 4, 14)
    # rows 5, 9 and columns 5, 9: chance 106/196, observed 140/196 -> kappa 34/90
    assert summary["kappa"] == pytest.approx(34 / 90)
    # Sunny rows err by 2/5 (their own class) or 3/5; Overcast by 0; Rain like Sunny: 4*(2/5) ... per class
    # mean over the classes of |p - t|: a correct Sunny/Rain row 0.4, a wrong one 0.6, Overcast 0
    assert summary["mean_absolute_error"] == pytest.approx((6 * 0.4 + 4 * 0.6) / 14)
    assert [set(c) for c in doc["classes"]] == [
        {"label", "seen", "support", "predicted", "tp_rate", "fp_rate", "precision", "recall", "f_measure", "roc_area"}
    ] * 2
    no = doc["classes"][0]
    assert (no["support"], no["predicted"], no["precision"], no["recall"]) == (5, 5, 0.6, 0.6)
    assert no["fp_rate"] == pytest.approx(2 / 9)
    # P(No): 0.6 for the 5 Sunny rows, 0 for Overcast, 0.4 for Rain; positives No: 3 Sunny, 2 Rain
    # pairs won against the 9 Yes rows (2 Sunny, 4 Overcast, 3 Rain): 3*(7 + 0.5*2) + 2*(4 + 0.5*3) = 35 of 45
    assert no["roc_area"] == pytest.approx(35 / 45)
    assert (
        set(doc["weighted_average"])
        == set(doc["macro_average"])
        == {
            "tp_rate",
            "fp_rate",
            "precision",
            "recall",
            "f_measure",
            "roc_area",
        }
    )


def test_text_has_wekas_blocks_and_csv_its_rows(run, stump, tmp_path):
    out = tmp_path / "report.txt"
    assert run("evaluate", stump, SAMPLES / "weather.csv", "-o", out).exit_code == 0
    text = out.read_text()
    for title in ("=== Summary ===", "=== Detailed Accuracy By Class ===", "=== Confusion Matrix ==="):
        assert title in text
    assert "Kappa statistic                          0.3778\n" in text
    assert " 3 2 | a = No\n 2 7 | b = Yes\n" in text
    result = run("evaluate", stump, SAMPLES / "weather.csv", "-f", "csv")
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0] == [
        "class",
        "support",
        "predicted",
        "tp_rate",
        "fp_rate",
        "precision",
        "recall",
        "f_measure",
        "roc_area",
    ]
    assert [r[0] for r in rows[1:]] == ["No", "Yes", "weighted avg", "macro avg"]
    assert rows[1][:3] == ["No", "5", "5"] and float(rows[1][5]) == 0.6


def test_a_rule_set_judges_as_its_tree(run, stump, tmp_path):
    rules = tmp_path / "rules.json"
    assert run("rules", stump, "-f", "json", "-o", rules).exit_code == 0
    tree = json.loads(run("evaluate", stump, SAMPLES / "weather.csv", "-f", "json").stdout)
    ruled = json.loads(run("evaluate", rules, SAMPLES / "weather.csv", "-f", "json").stdout)
    assert ruled["confusion_matrix"] == tree["confusion_matrix"]
    assert ruled["summary"] == pytest.approx({**tree["summary"]})


def test_regression_tree(run, tmp_path):
    model = tmp_path / "temp.json"
    data = SAMPLES / "weather-numeric.csv"
    args = ("train", data, "--target", "Temperature", "-a", "cart", "--max-depth", "1", "-q", "-o", model)
    assert run(*args).exit_code == 0
    doc = json.loads(run("evaluate", model, data, "-f", "json").stdout)
    assert doc["task"] == "regression" and "classes" not in doc
    summary = doc["summary"]
    assert set(summary) == {
        "total",
        "unclassified",
        "ignored",
        "correlation",
        "mean_absolute_error",
        "root_mean_squared_error",
        "relative_absolute_error",
        "root_relative_squared_error",
        "r2",
        "parts",
    }
    assert summary["total"] == 14
    # on its training data the baseline (the training mean) is the test mean: RRSE^2 = 1 - R^2
    assert summary["root_relative_squared_error"] ** 2 == pytest.approx(1 - summary["r2"])
    text = run("evaluate", model, data).stdout
    assert "Correlation coefficient" in text and "Confusion Matrix" not in text


def test_unseen_label_gets_its_own_row(run, stump, tmp_path):
    data = tmp_path / "new.csv"
    data.write_text("Outlook,Temperature,Humidity,Wind,PlayTennis\nSunny,Hot,High,Weak,Maybe\nSunny,Hot,High,Weak,\n")
    result = run("evaluate", stump, data)
    assert result.exit_code == 0
    assert " 1 0 | c = Maybe  (never seen in training)" in result.stdout
    assert "Ignored Class Unknown Instances" + " " * 18 + "1\n" in result.stdout  # Weka's spacing


def test_a_class_of_true_and_false_matches_in_any_case(run, tmp_path):
    """A class written TRUE/FALSE (as Excel writes it) judged on pandas' True/False: 0% correct, every
    row a class 'never seen in training'. Classes match them in any case, as attributes do."""
    train = tmp_path / "train.csv"
    train.write_text("Temp,Churn\n20,FALSE\n21,FALSE\n22,TRUE\n23,TRUE\n")
    test = tmp_path / "test.csv"
    test.write_text("Temp,Churn\n20,False\n21,false\n22,True\n23,true\n")
    model = tmp_path / "m.json"
    assert run("train", train, "-a", "cart", "-q", "-o", model).exit_code == 0
    result = run("evaluate", model, test)
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    assert "never seen in training" not in text
    assert "Correctly Classified Instances           4              100      %" in text
