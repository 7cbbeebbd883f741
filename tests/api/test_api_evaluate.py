"""``Model.evaluate`` and ``dtcli.cross_validate`` give what ``dtree evaluate`` prints, in each format."""

from __future__ import annotations

import json
import warnings

import pytest

import dtcli
from helpers import SAMPLES, WEKA

DATA = WEKA / "data"

# (training file, fit's options, test file): the saved model judged by the API and by the command
JUDGED = [
    (SAMPLES / "weather.csv", {"ignore": "Day"}, SAMPLES / "weather.csv"),
    (SAMPLES / "weather.csv", {"ignore": "Day", "max_depth": 1}, SAMPLES / "weather.arff"),
    (SAMPLES / "iris.csv", {"algorithm": "c45"}, DATA / "iris.arff"),
    (DATA / "labor.arff", {"algorithm": "c45"}, DATA / "labor.arff"),
    (DATA / "breast-cancer.arff", {"algorithm": "cart", "max_depth": 3}, DATA / "breast-cancer.arff"),
    (DATA / "cpu.arff", {"algorithm": "cart", "min_leaf": 10.0}, DATA / "cpu.arff"),
    (DATA / "cpu.with.vendor.arff", {"algorithm": "cart", "max_depth": 2}, DATA / "cpu.with.vendor.arff"),
]


def odd_weather(tmp_path):
    """weather.csv with a class never seen in training, an unseen Outlook and a row without a class."""
    rows = (SAMPLES / "weather.csv").read_text().splitlines()
    rows[2] = rows[2].replace(",No", ",Maybe")
    rows[3] = rows[3].replace("Overcast", "Foggy")
    rows[4] = rows[4].rsplit(",", 1)[0] + ","
    path = tmp_path / "odd.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


@pytest.mark.parametrize("train, options, test", JUDGED, ids=lambda x: x.name if hasattr(x, "name") else None)
def test_evaluate_is_dtree_evaluate_model_data(run, tmp_path, train, options, test):
    model_path = str(tmp_path / "model.json")
    dtcli.fit(train, **options).save(model_path)
    judged = dtcli.load_model(model_path).evaluate(test)
    for fmt, made in (("json", judged.to_json), ("text", judged.__str__), ("csv", judged.to_csv)):
        result = run("evaluate", model_path, test, "-f", fmt)
        assert result.exit_code == 0, result.stderr
        assert made() == result.stdout
    document = json.loads(judged.to_json())
    summary = document["summary"]
    if document["task"] == "regression":
        assert (judged.rmse, judged.mae, judged.r2, judged.n) == (
            summary["root_mean_squared_error"], summary["mean_absolute_error"], summary["r2"], summary["total"]
        )  # fmt: skip
        assert judged.correlation == summary["correlation"] and judged.matrix is None
        assert judged.to_frame().iloc[0]["r2"] == summary["r2"]
    else:
        assert (judged.accuracy, judged.kappa, judged.correct, judged.total) == (
            summary["accuracy"], summary["kappa"], summary["correct"], summary["total"]
        )  # fmt: skip
        assert judged.matrix.tolist() == document["confusion_matrix"]["counts"]
        assert judged.labels == tuple(document["confusion_matrix"]["actual"])
        assert judged.matrix_frame().to_numpy().tolist() == judged.matrix.tolist()
        assert list(judged.to_frame()["label"]) == list(judged.labels)
    assert "<table>" in judged._repr_html_()


def test_unseen_labels_values_and_missing_classes_as_the_command(run, tmp_path):
    model = dtcli.fit(SAMPLES / "weather.csv", ignore="Day")
    model_path = str(tmp_path / "model.json")
    model.save(model_path)  # (the model is named by the file it was saved to)
    odd = str(odd_weather(tmp_path))
    result = run("evaluate", model_path, odd, "-f", "json")
    with pytest.warns(dtcli.DtreeWarning, match="1 value\\(s\\) never seen in training") as caught:
        judged = model.evaluate(odd)
    assert judged.to_json() == result.stdout
    assert result.stderr == "".join(f"Warning: {w.message}\n" for w in caught)
    assert judged.labels == ("No", "Yes", "Maybe") and judged.ignored == judged.unlabelled == 1
    assert judged.total == 13 and judged.matrix.shape == (3, 2)


def test_a_frame_is_judged_as_its_file(tmp_path):
    pandas = pytest.importorskip("pandas")
    odd = odd_weather(tmp_path)
    model = dtcli.fit(SAMPLES / "weather.csv", ignore="Day")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dtcli.DtreeWarning)
        from_file = json.loads(model.evaluate(odd).to_json())
    from_frame = json.loads(model.evaluate(pandas.read_csv(odd)).to_json())
    assert from_frame.pop("about") == {"data": "<DataFrame>", "method": "test-set"}
    assert from_file.pop("about") == {"data": str(odd), "method": "test-set"}
    assert from_frame == from_file
    cpu = dtcli.fit(DATA / "cpu.arff", algorithm="cart", max_depth=2)
    frame = pandas.DataFrame({a.name: [1.0, 2.0] for a in cpu.tree.schema.attributes} | {"class": [10.0, None]})
    judged = cpu.evaluate(frame)
    assert judged.task == "regression" and judged.n == 1 and judged.ignored == 1
    assert judged.accuracy is None


def test_evaluate_needs_the_target(tmp_path):
    model = dtcli.fit(SAMPLES / "weather.csv", ignore="Day")
    unlabelled = tmp_path / "unlabelled.csv"
    lines = (SAMPLES / "weather.csv").read_text().splitlines()
    unlabelled.write_text("".join(line.rsplit(",", 1)[0] + "\n" for line in lines))
    with pytest.raises(dtcli.DataError, match="has no column 'PlayTennis' \\(the model's target\\) to judge"):
        model.evaluate(unlabelled)
    with pytest.raises(dtcli.ParameterError, match="unknown option 'max_depth'"):
        model.evaluate(unlabelled, max_depth=2)
    with pytest.raises(dtcli.DataError, match="no column 'PlayTennis'"):
        model.evaluate({"Outlook": ["Sunny"], "Temperature": ["Hot"], "Humidity": ["High"], "Wind": ["Weak"]})


@pytest.mark.parametrize(
    "path, algorithm, folds, options, args",
    [
        (SAMPLES / "weather.csv", "c45", 14, {"ignore": "Day"}, ["--ignore", "Day"]),
        (DATA / "cpu.arff", "cart", 5, {"seed": 3}, ["--seed", "3"]),
        (DATA / "vote.arff", "id3", 3, {"missing": "fractional"}, ["--missing", "fractional"]),
    ],
)
def test_cross_validate_text_and_csv_are_the_commands(run, path, algorithm, folds, options, args):
    judged = dtcli.cross_validate(str(path), algorithm=algorithm, folds=folds, **options)
    for fmt, made in (("json", judged.to_json), ("text", judged.__str__), ("csv", judged.to_csv)):
        result = run("evaluate", path, "-a", algorithm, "--cv", folds, "-f", fmt, "--jobs", "1", *args)
        assert result.exit_code == 0, result.stderr
        assert made() == result.stdout
    assert isinstance(judged, dtcli.Report)  # (the first version's name)
