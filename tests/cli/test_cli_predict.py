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
    foggy, sunny = result.stdout.splitlines()[1:]
    assert sunny == "Sunny,Hot,Normal,Weak,Yes,0,1"
    assert foggy.startswith("Foggy,Hot,High,Weak,Yes,")
    no, yes = foggy.split(",")[-2:]  # No: Sunny and High (5 of 14 cases); full precision, shortest form
    assert (float(no), float(yes)) == (pytest.approx(5 / 14, rel=1e-15), pytest.approx(9 / 14, rel=1e-15))
    assert (no, yes) == (repr(float(no)), repr(float(yes)))


def test_errors_and_unseen_labels_in_confusion_matrix(run, model, tmp_path):
    data = tmp_path / "new.csv"
    data.write_text(
        "Outlook,Temperature,Humidity,Wind,PlayTennis\nSunny,Hot,High,Weak,Yes\n"
        "Rain,Mild,High,Weak,Maybe\nOvercast,Hot,High,Weak,\n"
    )
    result = run("predict", model, data)
    assert result.stderr.splitlines() == [
        "Accuracy: 0/2 = 0.000 (2 errors)",
        "Kappa statistic: -0.3333",  # po 0, chance (0*1 + 1*1 + 1*0) / 4: (0 - 1/4) / (3/4)
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


def test_csv_without_explain_is_the_input_with_the_prediction_appended(run, model):
    plain = run("predict", model, SAMPLES / "weather.csv", "-q")
    assert run("predict", model, SAMPLES / "weather.csv", "-q", "-f", "csv").stdout == plain.stdout
    lines = (SAMPLES / "weather.csv").read_text().splitlines()
    expected = [lines[0] + ",prediction"] + [line + "," + line.rsplit(",", 1)[1] for line in lines[1:]]
    assert plain.stdout == "\n".join(expected) + "\n"  # the tree classifies its training days correctly


@pytest.fixture
def c45(run, tmp_path):
    """C4.5 on weather-numeric (Outlook; sunny: Humidity <= 75; rainy: Windy) and four new days."""
    path = tmp_path / "c45.json"
    assert run("train", SAMPLES / "weather-numeric.csv", "-a", "c45", "-q", "-o", path).exit_code == 0
    data = tmp_path / "new.csv"
    data.write_text("Outlook,Temperature,Humidity,Windy\n?,70,90,true\nsunny,70,70,true\nrainy,65,80,false\n")
    return path, data


def test_explain_adds_a_quoted_path_column_and_keeps_the_rows_as_read(run, c45):
    model, data = c45
    result = run("predict", model, data, "--explain")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "Outlook,Temperature,Humidity,Windy,prediction,path"
    assert lines[2] == "sunny,70,70,true,yes,Outlook = sunny -> Humidity = 70 <= 75 -> yes"
    assert lines[3] == "rainy,65,80,false,yes,Outlook = rainy -> Windy = false -> yes"
    row = next(csv.reader(io.StringIO(lines[1])))
    assert row[:5] == ["?", "70", "90", "true", "no"]
    # Outlook missing: sunny 5, overcast 4, rainy 5 of the 14 training days
    assert row[5] == (
        "0.357143: Outlook = ? (sunny, 5/14) -> Humidity = 90 > 75 -> no"
        " | 0.285714: Outlook = ? (overcast, 4/14) -> yes"
        " | 0.357143: Outlook = ? (rainy, 5/14) -> Windy = true -> no"
    )


def test_json_document_with_paths_and_probabilities(run, c45):
    import json

    model, data = c45
    result = run("predict", model, data, "-f", "json", "--explain", "--proba", "-q")
    doc = json.loads(result.stdout)
    assert doc["format"] == "dtree-predictions" and doc["schema_version"] == 1
    assert doc["model"]["format"] == "dtree-model" and doc["model"]["algorithm"] == "c45"
    assert doc["model"]["training_data"]["rows"] == 14
    assert doc["classes"] == ["no", "yes"] and doc["target"] == "Play" and doc["task"] == "classification"
    first, second, _ = doc["predictions"]
    assert [first["row"], first["prediction"]] == [1, "no"]
    assert [p["weight"] for p in first["paths"]] == pytest.approx([5 / 14, 4 / 14, 5 / 14])
    assert first["paths"][0]["steps"] == [
        {"attribute": "Outlook", "test": "nominal", "branch": "Outlook = sunny", "value": None, "share": 5 / 14},
        {"attribute": "Humidity", "test": "numeric", "branch": "Humidity > 75", "value": 90, "share": 1},
    ]
    assert [p["leaf"] for p in first["paths"]] == ["no", "yes", "no"]
    assert [p["counts"] for p in first["paths"]] == [[3, 0], [0, 4], [2, 0]]
    combined = [sum(p["weight"] * p["counts"][j] / sum(p["counts"]) for p in first["paths"]) for j in range(2)]
    assert first["probabilities"] == pytest.approx(combined)
    assert combined == pytest.approx([10 / 14, 4 / 14])
    assert second["paths"] == [
        {
            "steps": [
                {"attribute": "Outlook", "test": "nominal", "branch": "Outlook = sunny", "value": "sunny", "share": 1},
                {"attribute": "Humidity", "test": "numeric", "branch": "Humidity <= 75", "value": 70, "share": 1},
            ],
            "leaf": "yes",
            "weight": 1,
            "counts": [0, 2],
        }
    ]
    plain = json.loads(run("predict", model, data, "-f", "json", "-q").stdout)
    assert plain["predictions"] == [
        {"row": 1, "prediction": "no"},
        {"row": 2, "prediction": "yes"},
        {"row": 3, "prediction": "yes"},
    ]


def test_text_explains_each_row_and_the_weighted_sum(run, c45):
    model, data = c45
    result = run("predict", model, data, "-f", "text", "-q")
    assert result.stdout.splitlines() == [
        "Row 1: no (0.714)",
        "  0.357  Outlook = ? (sunny, 5/14) -> Humidity = 90 > 75 -> no [0+, 3-]",
        "  0.286  Outlook = ? (overcast, 4/14) -> yes [4+, 0-]",
        "  0.357  Outlook = ? (rainy, 5/14) -> Windy = true -> no [0+, 2-]",
        "  no  = 0.357 x 3/3 + 0.286 x 0/4 + 0.357 x 2/2 = 0.714",
        "  yes = 0.357 x 0/3 + 0.286 x 4/4 + 0.357 x 0/2 = 0.286",
        "Row 2: yes",
        "  Outlook = sunny -> Humidity = 70 <= 75 -> yes [2+, 0-]",
        "Row 3: yes",
        "  Outlook = rainy -> Windy = false -> yes [3+, 0-]",
    ]


def test_a_rule_set_explains_the_rule_that_fired(run, model, tmp_path):
    rules = tmp_path / "rules.json"
    assert run("rules", model, "-f", "json", "-o", rules).exit_code == 0
    data = tmp_path / "new.csv"
    data.write_text("Outlook,Temperature,Humidity,Wind\nSunny,Hot,High,Weak\n?,Hot,High,Weak\n")
    result = run("predict", rules, data, "--explain")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert rows[0]["path"] == "R1: Outlook = Sunny and Humidity = High -> No"  # the first leaf of the tree
    assert rows[1]["path"] == "default -> Yes"


def test_explain_a_10000_level_chain(run, tmp_path):
    import json

    from trees import chain

    from dtcli.model.format.model import dumps_model

    (tmp_path / "chain.json").write_text(dumps_model(chain(10_000)))
    (tmp_path / "x.csv").write_text("x\n10000\n")
    result = run("predict", tmp_path / "chain.json", tmp_path / "x.csv", "-f", "json", "--explain")
    (path,) = json.loads(result.stdout)["predictions"][0]["paths"]
    assert len(path["steps"]) == 10_000 and path["leaf"] == "b"
    assert path["steps"][-1] == {
        "attribute": "x",
        "test": "numeric",
        "branch": "x > 9999.5",
        "value": 10000,
        "share": 1,
    }


@pytest.mark.parametrize("options", [(), ("--proba",), ("--explain",), ("--proba", "--explain")])
def test_rows_written_in_pieces_are_the_rows_written_whole(run, c45, monkeypatch, tmp_path, options):
    from dtcli.pipeline import predict_table

    model, data = c45
    data.write_text(data.read_text() + "".join(f"sunny,{60 + i},{65 + i},false\n" for i in range(20)))
    whole = run("predict", model, data, *options, "-o", tmp_path / "whole.csv")
    monkeypatch.setattr(predict_table, "ECHO_ROWS", 3)
    pieces = run("predict", model, data, *options, "-o", tmp_path / "pieces.csv")
    to_stdout = run("predict", model, data, *options)
    assert whole.exit_code == pieces.exit_code == to_stdout.exit_code == 0
    text = (tmp_path / "whole.csv").read_text()
    assert (tmp_path / "pieces.csv").read_text() == text == to_stdout.stdout
    assert text.count("\n") == 24 and text.startswith("Outlook,Temperature,Humidity,Windy,prediction")
    assert "sunny,61,66,false,yes" in text


def test_proba_columns_are_full_precision(run, model, tmp_path):
    """Foggy was never seen: the row goes down all three Outlook branches, weighted 5, 4 and 5 of 14; with
    high humidity and a strong wind Sunny and Rain say No: P(No) = 10/14 = 5/7, written to read back exactly."""
    (tmp_path / "new.csv").write_text("Day,Outlook,Temperature,Humidity,Wind\nD17,Foggy,Mild,High,Strong\n")
    result = run("predict", model, tmp_path / "new.csv", "--proba", "-q")
    row = next(csv.DictReader(io.StringIO(result.stdout)))
    assert float(row["proba_No"]) == pytest.approx(5 / 7, rel=1e-15)
    assert float(row["proba_Yes"]) == pytest.approx(2 / 7, rel=1e-15)
    assert row["proba_No"] == repr(float(row["proba_No"])) and len(row["proba_No"]) > 8


def test_a_file_with_quotes_is_echoed_as_written(run, tmp_path):
    """One quoted header once made predict write every row anew: 007 as 7.0, ; as , and 20,5 as 20.5."""
    plain = tmp_path / "plain.csv"
    plain.write_text("ID,Temp,Play\n007,20,No\n008,21,No\n009,22,Yes\n010,23,Yes\n")
    model = tmp_path / "m.json"
    assert run("train", plain, "--ignore", "ID", "-a", "cart", "-q", "-o", model).exit_code == 0
    quoted = tmp_path / "q.csv"
    quoted.write_text('"ID","Temp","Play"\n"007",20,No\n008,"21",No\n009,22,"Yes"\n010,23,Yes\n')
    result = run("predict", model, quoted, "-q")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        '"ID","Temp","Play",prediction',
        '"007",20,No,No',
        '008,"21",No,No',
        '009,22,"Yes",Yes',
        "010,23,Yes,Yes",
    ]
    semi = tmp_path / "semi.csv"
    semi.write_bytes(b'ID;Temp;Play\r\n"007";"20,5";No\r\n008;23;Yes\r\n')
    result = run("predict", model, semi, "-q")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == ["ID;Temp;Play;prediction", '"007";"20,5";No;No', "008;23;Yes;Yes"]
