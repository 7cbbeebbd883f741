"""``dtcli.fit`` and ``Model``: the very model file ``dtree train -o`` writes, labels back as the user's values."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import dtcli
from helpers import SAMPLES, WEKA

CASES = [
    (SAMPLES / "weather.csv", {"ignore": "Day"}, []),
    (SAMPLES / "iris.csv", {}, []),
    (SAMPLES / "weather-numeric.csv", {"ignore": ["Day"]}, []),
    (WEKA / "data" / "labor.arff", {}, []),
    (WEKA / "data" / "vote.arff", {"missing": "fractional"}, ["--missing", "fractional"]),
    (WEKA / "data" / "cpu.arff", {}, []),
]
ALGORITHMS = ["id3", "c45", "cart"]


def cli_args(options: dict) -> list[str]:
    args = []
    for name, value in options.items():
        for item in [value] if isinstance(value, str) else value:
            args += ["--" + name.replace("_", "-"), item]
    return args


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("path, options, extra", CASES, ids=lambda c: getattr(c, "name", None))
def test_saved_model_is_the_file_train_writes(run, tmp_path, path, options, extra, algorithm):
    command = tmp_path / "command.json"
    result = run("train", path, "-a", algorithm, "-q", "-o", command, *cli_args(options))
    if result.exit_code:  # (id3 refuses numeric attributes, c45 a numeric target): the same refusal here
        message = result.stderr.strip().removeprefix("Error: ")
        with pytest.raises(dtcli.DtreeError) as caught:
            dtcli.fit(path, algorithm=algorithm, **options)
        assert str(caught.value) == message
        return
    python = tmp_path / "python.json"
    dtcli.fit(path, algorithm=algorithm, **options).save(python)
    assert python.read_bytes() == command.read_bytes()


def test_options_reach_the_tree_as_on_the_command_line(run, tmp_path):
    command = tmp_path / "command.json"
    args = ["--min-leaf", "5", "--criterion", "entropy", "--max-depth", "3", "--ccp-alpha", "0.01"]
    assert run("train", SAMPLES / "iris.csv", "-a", "cart", "-q", "-o", command, *args).exit_code == 0
    model = dtcli.fit(SAMPLES / "iris.csv", algorithm="CART", min_leaf=5, criterion="entropy", max_depth=3,
                      ccp_alpha=0.01)  # fmt: skip
    assert model.to_json() == command.read_text()


def test_predict_gives_what_dtree_predict_gives(run, tmp_path):
    model_file = tmp_path / "m.json"
    dtcli.fit(WEKA / "data" / "labor.arff", algorithm="c45").save(model_file)
    result = run("predict", model_file, WEKA / "data" / "labor.arff", "-f", "csv", "--proba")
    lines = result.stdout.strip().splitlines()
    model = dtcli.load_model(model_file)
    proba = model.predict_proba(WEKA / "data" / "labor.arff")
    assert len(lines) == len(proba) + 1
    header = lines[0].split(",")
    columns = [header.index(f"proba_{c}") for c in model.classes]
    got = np.array([[float(line.split(",")[j]) for j in columns] for line in lines[1:]])
    assert np.allclose(got, proba, rtol=0, atol=1e-15)
    labels = [line.split(",")[header.index("prediction")] for line in lines[1:]]
    assert labels == list(model.predict(WEKA / "data" / "labor.arff"))


def test_dataframe_labels_come_back_as_the_users_values():
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame(
        {
            "colour": ["red", "red", "blue", "blue", None, "green"],
            "big": [True, False, True, False, True, False],
            "size": [1.0, 2.0, np.nan, 4.0, 5.0, 6.0],
            "label": [1, 1, 0, 0, 1, 0],
        }
    )
    model = dtcli.fit(frame, algorithm="c45", task="classification", min_leaf=1)
    assert model.classes == (1, 0)  # as first seen, as a CSV file's classes
    predicted = model.predict(frame)
    assert all(isinstance(p, int) for p in predicted)
    attributes = {a.name: a.kind for a in model.tree.schema.attributes}
    assert attributes == {"colour": "nominal", "big": "nominal", "size": "numeric"}


def test_dataframe_trains_the_tree_of_its_csv_file():
    pandas = pytest.importorskip("pandas")
    for name, options in (("weather.csv", {"ignore": "Day"}), ("iris.csv", {})):
        frame = pandas.read_csv(SAMPLES / name)
        for algorithm in ("c45", "cart"):
            a = dtcli.fit(frame, algorithm=algorithm, **options)
            b = dtcli.fit(SAMPLES / name, algorithm=algorithm, **options)
            assert a.to_text() == b.to_text()
            assert np.array_equal(a.predict_proba(frame), b.predict_proba(SAMPLES / name))


def test_array_with_names_and_explain():
    rows = np.array([["Sunny", "High", "No"], ["Sunny", "Normal", "Yes"], ["Rain", "High", "Yes"]], dtype=object)
    model = dtcli.fit(rows, names=["Outlook", "Humidity", "Play"], algorithm="id3")
    explanation = model.explain({"Outlook": "Sunny", "Humidity": "Normal"})
    assert explanation.steps[-1][0] in ("Humidity = Normal", "Outlook = Sunny")
    assert explanation.prediction == "Yes"
    assert model.nodes[0].parent is None and model.nodes[0].counts == {"No": 1.0, "Yes": 2.0}


def test_errors_are_one_family_with_the_commands_messages():
    with pytest.raises(dtcli.ParameterError, match="unknown option 'min_leafs'"):
        dtcli.fit(SAMPLES / "weather.csv", min_leafs=2)
    with pytest.raises(dtcli.ParameterError, match="--min-leaf must be 0 or more"):
        dtcli.fit(SAMPLES / "weather.csv", ignore="Day", min_leaf=-1)
    with pytest.raises(dtcli.ParameterError, match="--max-depth must be a whole number"):
        dtcli.fit(SAMPLES / "weather.csv", ignore="Day", max_depth="3")
    with pytest.raises(dtcli.DataError, match="no column 'Nope'"):
        dtcli.fit(SAMPLES / "weather.csv", target="Nope")
    with pytest.raises(dtcli.ModelFormatError):
        dtcli.load_model(SAMPLES / "weather.csv")
    assert issubclass(dtcli.DataError, dtcli.DtreeError) and issubclass(dtcli.DataError, ValueError)


def test_import_dtcli_stays_light():
    code = "import dtcli, sys; print(sorted({'numba', 'pandas', 'sklearn', 'numpy'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_explain_takes_a_dataframe_row():
    pandas = pytest.importorskip("pandas")
    frame = pandas.read_csv(SAMPLES / "weather.csv")
    model = dtcli.fit(frame, ignore="Day")
    explanation = model.explain(frame.iloc[0])
    assert [step[0] for step in explanation.steps] == ["Outlook = Sunny", "Humidity = High"]
    assert explanation.prediction == "No" == model.predict(frame.iloc[0])[0]


IRIS = SAMPLES / "iris.csv"


@pytest.mark.parametrize(
    "method, options, args",
    [
        ("pessimistic", {"data": IRIS, "cf": 0.1}, ["--data", IRIS, "--cf", "0.1"]),
        ("reduced-error", {"data": IRIS}, ["--validation", IRIS]),
        ("cost-complexity", {"ccp_alpha": 0.01}, ["--ccp-alpha", "0.01"]),
        ("cost-complexity", {"cv_folds": 5, "data": IRIS}, ["--cv-folds", 5, "--data", IRIS]),
    ],
)
def test_prune_is_the_model_dtree_prune_writes(run, tmp_path, method, options, args):
    model = dtcli.fit(SAMPLES / "iris.csv", algorithm="cart")
    model.save(tmp_path / "m.json")
    assert run("prune", tmp_path / "m.json", "--method", method, *args, "-q", "-o", tmp_path / "p.json").exit_code == 0
    assert model.prune(method, **options).to_json() == (tmp_path / "p.json").read_text()
    if "data" in options:  # the same rows from a DataFrame
        pandas = pytest.importorskip("pandas")
        frame = pandas.read_csv(options["data"])
        assert model.prune(method, **{**options, "data": frame}).to_json() == (tmp_path / "p.json").read_text()


def test_dataframe_dates_train_the_tree_of_their_csv_file(tmp_path):
    pandas = pytest.importorskip("pandas")
    start = pandas.Timestamp("2023-01-01")
    stamps = [start + pandas.Timedelta(days=5 * i, hours=(7 * i) % 24) for i in range(50)]
    frame = pandas.DataFrame(
        {
            "day": pandas.to_datetime([s.normalize() for s in stamps]),
            "stamp": pandas.to_datetime(stamps).tz_localize("Asia/Tokyo"),
            "text_day": [s.strftime("%Y-%m-%d") for s in stamps],
            "class": ["late" if s.month >= 5 and i % 13 else "early" for i, s in enumerate(stamps)],
        }
    )
    frame.loc[3, "day"] = pandas.NaT
    path = tmp_path / "dates.csv"
    frame.to_csv(path, index=False)
    for algorithm in ("c45", "cart"):
        for column in ("day", "stamp", "text_day"):
            others = [c for c in ("day", "stamp", "text_day") if c != column]
            a = dtcli.fit(frame, algorithm=algorithm, ignore=others, ties="column")
            b = dtcli.fit(path, algorithm=algorithm, ignore=others, ties="column")
            assert a.tree.schema.attributes[0].time, column  # read as dates, not categories
            assert a.to_text() == b.to_text()
            assert np.array_equal(a.predict_proba(frame), b.predict_proba(path))
            assert list(a.predict(path)) == list(b.predict(frame))
    with pytest.raises(dtcli.DataError, match=r"column 'day' must be dates written yyyy-MM-dd .* row 2 holds 'soon'"):
        dtcli.fit(frame, ignore=["stamp", "text_day"], algorithm="c45").predict({"day": ["2023-02-01", "soon"]})
    with pytest.raises(dtcli.DataError, match="column 'wait' holds durations: convert it to numbers"):
        dtcli.fit(frame.assign(wait=pandas.to_timedelta(range(50), unit="s")), algorithm="c45")
