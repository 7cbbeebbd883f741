"""``dtree predict`` end to end."""

from __future__ import annotations

import csv
import io

import pytest

from helpers import SAMPLES, golden


@pytest.fixture
def model(run, tmp_path):
    path = tmp_path / "weather.json"
    assert run("train", SAMPLES / "weather.csv", "--ignore", "Day", "-q", "-o", path).exit_code == 0
    return path


def test_predicts_training_data_perfectly(run, model):
    result = run("predict", model, SAMPLES / "weather.csv")
    assert result.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert len(rows) == 14
    assert all(r["prediction"] == r["PlayTennis"] for r in rows)
    assert list(rows[0]) == ["Day", "Outlook", "Temperature", "Humidity", "Wind", "PlayTennis", "prediction"]
    assert result.stderr.startswith("Accuracy: 14/14 = 1.000 (0 errors)\n")
    golden("predict-weather.stderr.txt", result.stderr)


def test_proba_columns_and_output_file(run, model, tmp_path):
    out = tmp_path / "pred.csv"
    result = run("predict", model, SAMPLES / "weather.arff", "--proba", "-o", out, "-q")
    assert result.exit_code == 0 and result.stdout == "" and result.stderr == ""
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert list(rows[0])[-3:] == ["prediction", "proba_No", "proba_Yes"]
    assert rows[0]["proba_No"] == "1" and rows[0]["proba_Yes"] == "0"


def test_unseen_values_warn_and_predict(run, model, tmp_path):
    data = tmp_path / "new.csv"
    data.write_text("Outlook,Temperature,Humidity,Wind\nFoggy,Hot,High,Weak\nSunny,Hot,Normal,Weak\n")
    result = run("predict", model, data, "--proba")
    assert result.exit_code == 0
    assert "column 'Outlook': 1 value(s) never seen in training, treated as missing" in result.stderr
    assert "Accuracy" not in result.stderr
    assert result.stdout.splitlines()[1:] == [
        "Foggy,Hot,High,Weak,Yes,0.357143,0.642857",
        "Sunny,Hot,Normal,Weak,Yes,0,1",
    ]


def test_errors_and_unseen_labels_in_confusion_matrix(run, model, tmp_path):
    data = tmp_path / "new.csv"
    data.write_text(
        "Outlook,Temperature,Humidity,Wind,PlayTennis\nSunny,Hot,High,Weak,Yes\n"
        "Rain,Mild,High,Weak,Maybe\nOvercast,Hot,High,Weak,\n"
    )
    result = run("predict", model, data)
    assert result.stderr.splitlines() == [
        "Accuracy: 0/2 = 0.000 (2 errors)",
        "(1 row(s) without a class value not counted)",
        "Confusion matrix (rows: actual, columns: predicted):",
        "         No Yes",
        "  No      0   0",
        "  Yes     1   0",
        "  Maybe   0   1   (never seen in training)",
    ]


def test_a_cell_with_a_lone_carriage_return_is_quoted_in_the_output(run, tmp_path):
    (tmp_path / "cr.csv").write_bytes(b'a,y\n"x\ry",p\nz,q\n"x\ry",p\nw,q\n')
    assert run("train", tmp_path / "cr.csv", "-q", "-o", tmp_path / "cr.json").exit_code == 0
    result = run("predict", tmp_path / "cr.json", tmp_path / "cr.csv", "-q")
    assert result.stdout == 'a,y,prediction\n"x\ry",p,p\nz,q,q\n"x\ry",p,p\nw,q,q\n'
