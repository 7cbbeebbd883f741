"""``dtcli.gain`` covers ``dtree gain``: id3, c45, cart, regression and their options, output for output."""

from __future__ import annotations

import os
import re

import pytest

import dtcli
from helpers import SAMPLES, WEKA

DATA = WEKA / "data"
FLAGS = {"where": "-w", "algorithm": "-a", "min_leaf": "-m", "criterion": "-c"}
BOOLEAN = ("thresholds_all",)

# (path, options): each run both ways, the API's outputs compared with the command's
CASES = [
    (SAMPLES / "weather.csv", {"ignore": "Day"}),
    (SAMPLES / "weather.csv", {"ignore": "Day", "where": ["Outlook=Sunny"], "attribute": ["Humidity", "Wind"]}),
    (SAMPLES / "weather.csv", {"ignore": "Day", "attribute": "Wind"}),  # the chosen attribute not shown
    (SAMPLES / "weather-numeric.csv", {"thresholds_all": True}),
    (SAMPLES / "weather-numeric.csv", {"where": ["Humidity<=80"], "thresholds": "data"}),
    (SAMPLES / "restaurant.csv", {"ignore": "Example", "criterion": "gain-ratio"}),
    (SAMPLES / "restaurant.csv", {"ignore": "Example", "criterion": "gini", "where": ["Patrons=Full"]}),
    (SAMPLES / "weather.csv", {"ignore": "Day", "class_weight": "balanced"}),
    (SAMPLES / "risk.csv", {"ignore": "Point", "nominal": "Age"}),
    (DATA / "contact-lenses.arff", {"algorithm": "id3", "where": ["tear-prod-rate=normal"]}),
    (SAMPLES / "iris.csv", {"algorithm": "c45"}),
    (SAMPLES / "iris.csv", {"algorithm": "c45", "thresholds": "midpoint", "min_leaf": 10}),
    (DATA / "labor.arff", {"algorithm": "c45", "where": ["duration=2"]}),
    (DATA / "vote.arff", {"algorithm": "c45", "min_leaf": 5}),
    (DATA / "breast-cancer.arff", {"algorithm": "c45", "attribute": ["age", "tumor-size"]}),
    (DATA / "weather.numeric.arff", {"algorithm": "c45", "where": ["outlook=sunny"]}),
    (DATA / "glass.arff", {"algorithm": "c45"}),
    (SAMPLES / "iris.csv", {"algorithm": "cart"}),
    (SAMPLES / "iris.csv", {"algorithm": "cart", "thresholds_all": True}),
    (SAMPLES / "weather.csv", {"ignore": "Day", "algorithm": "cart"}),
    (SAMPLES / "weather.csv", {"ignore": "Day", "splits": "binary", "criterion": "cart"}),
    (SAMPLES / "risk.csv", {"ignore": "Point", "algorithm": "cart", "criterion": "entropy"}),
    (DATA / "breast-cancer.arff", {"algorithm": "cart", "where": ["node-caps=yes"], "min_leaf": 5}),
    (DATA / "diabetes.arff", {"algorithm": "cart", "attribute": "age"}),
    (SAMPLES / "weather.csv", {"ignore": "Day", "algorithm": "cart", "splits": "multiway"}),
    (SAMPLES / "weather.csv", {"ignore": "Day", "algorithm": "id3", "splits": "binary"}),
    (DATA / "cpu.arff", {"algorithm": "cart"}),
    (DATA / "cpu.arff", {"algorithm": "cart", "where": ["MMAX>8000"], "min_leaf": 5}),
    (DATA / "cpu.with.vendor.arff", {"algorithm": "cart"}),
    (DATA / "cpu.arff", {"task": "regression"}),
    (DATA / "cpu.arff", {"algorithm": "cart", "task": "classification", "where": ["CACH>100"]}),
]


def gain_args(options: dict) -> list[str]:
    """``dtree gain``'s arguments for the API's options."""
    args = []
    for name, value in options.items():
        flag = FLAGS.get(name, "--" + name.replace("_", "-"))
        if name in BOOLEAN:
            args += [flag] if value else []
            continue
        for item in [value] if isinstance(value, (str, int, float, os.PathLike)) else value:
            args += [flag, str(item)]
    return args


@pytest.mark.parametrize("path, options", CASES, ids=lambda x: x.name if hasattr(x, "name") else None)
def test_gain_gives_the_commands_outputs(run, tmp_path, path, options):
    table = dtcli.gain(path, **options)
    for fmt, made in (("json", table.to_json), ("csv", table.to_csv)):
        result = run("gain", path, "-f", fmt, *gain_args(options))
        assert result.exit_code == 0, result.stderr
        assert made() == result.stdout
    out = tmp_path / "gain.txt"
    assert run("gain", path, "-o", out, *gain_args(options)).exit_code == 0
    assert str(table) == out.read_text()
    frame = table.to_frame()
    assert list(frame.columns) == table.columns() and len(frame) == len(table)
    assert "<table>" in table._repr_html_()


# the root the tree grows is the attribute the table chooses (fit's options: train's, spelt the same)
ROOTS = [
    (SAMPLES / "weather.csv", {"ignore": "Day"}),
    (SAMPLES / "restaurant.csv", {"ignore": "Example", "criterion": "gain-ratio"}),
    (SAMPLES / "weather.csv", {"ignore": "Day", "class_weight": "balanced"}),
    (SAMPLES / "iris.csv", {"algorithm": "c45"}),
    (DATA / "vote.arff", {"algorithm": "c45", "min_leaf": 5}),
    (DATA / "glass.arff", {"algorithm": "c45"}),
    (DATA / "breast-cancer.arff", {"algorithm": "c45"}),
    (DATA / "labor.arff", {"algorithm": "c45"}),
    (SAMPLES / "iris.csv", {"algorithm": "cart"}),
    (SAMPLES / "weather.csv", {"ignore": "Day", "algorithm": "cart"}),
    (SAMPLES / "risk.csv", {"ignore": "Point", "algorithm": "cart", "criterion": "entropy"}),
    (DATA / "diabetes.arff", {"algorithm": "cart", "min_leaf": 20}),
    (DATA / "cpu.arff", {"algorithm": "cart"}),
    (DATA / "cpu.with.vendor.arff", {"algorithm": "cart", "min_leaf": 5}),
]


@pytest.mark.parametrize("path, options", ROOTS, ids=lambda x: x.name if hasattr(x, "name") else None)
def test_chosen_is_the_root_fit_grows(path, options):
    root = dtcli.fit(path, **options).tree.root
    assert root.test is not None
    assert dtcli.gain(path, **options).chosen == root.test.attribute.name


def test_weights_column_as_the_command(run, tmp_path):
    path = tmp_path / "weighted.csv"
    rows = (SAMPLES / "weather.csv").read_text().splitlines()
    path.write_text("\n".join([rows[0] + ",w"] + [f"{row},{1 + k % 3}" for k, row in enumerate(rows[1:])]) + "\n")
    result = run("gain", path, "--ignore", "Day", "--target", "PlayTennis", "--weights", "w", "-f", "json")
    assert result.exit_code == 0
    table = dtcli.gain(path, ignore="Day", target="PlayTennis", weights="w")
    assert table.to_json() == result.stdout
    assert table.chosen == dtcli.fit(path, ignore="Day", target="PlayTennis", weights="w").tree.root.test.attribute.name


def test_costs_file_as_the_command(run, tmp_path):
    costs = tmp_path / "costs.csv"
    costs.write_text("Outlook,10\nHumidity,1\nWind,2\nTemperature,3\n")
    for measure in ("ratio", "tan-schlimmer", "nunez"):
        args = ["--ignore", "Day", "--costs", costs, "--cost-measure", measure, "--nunez-w", "0.5", "-f", "json"]
        result = run("gain", SAMPLES / "weather.csv", *args)
        assert result.exit_code == 0
        table = dtcli.gain(SAMPLES / "weather.csv", ignore="Day", costs=costs, cost_measure=measure, nunez_w=0.5)
        assert table.to_json() == result.stdout
        assert "cost_score" in table.columns()


@pytest.mark.parametrize(
    "path, options",
    [
        (SAMPLES / "iris.csv", {"algorithm": "c45", "splits": "binary"}),
        (SAMPLES / "iris.csv", {"algorithm": "c45", "thresholds_all": True}),
        (SAMPLES / "weather.csv", {"criterion": "cart"}),
        (SAMPLES / "weather.csv", {"algorithm": "cart", "criterion": "gain-ratio"}),
        (SAMPLES / "weather.csv", {"min_leaf": 2}),
        (SAMPLES / "iris.csv", {"algorithm": "cart", "min_leaf": -1}),
        (SAMPLES / "weather.csv", {"ignore": "Day", "attribute": "Outlok"}),
        (SAMPLES / "weather.csv", {"ignore": "Day", "where": "Outlook=Sunny", "attribute": "Outlook"}),
        (SAMPLES / "weather.csv", {"ignore": "Day", "where": "Outlook=Snow"}),
        (SAMPLES / "weather.csv", {"ignore": "Day", "where": ["Outlook=Sunny", "Outlook=Rain"]}),
        (DATA / "cpu.arff", {}),
        (DATA / "cpu.arff", {"algorithm": "c45"}),
        (DATA / "cpu.arff", {"algorithm": "c45", "task": "regression"}),
        (SAMPLES / "weather.csv", {"ignore": "Day", "algorithm": "cart", "criterion": "gini", "costs": "c.csv"}),
        # (the command used to ignore these silently)
        (SAMPLES / "weather.csv", {"algorithm": "cart", "costs": "c.csv"}),
        (DATA / "cpu.arff", {"algorithm": "cart", "attribute": "MMAX"}),
        (DATA / "cpu.arff", {"task": "regression", "costs": "c.csv"}),
        (DATA / "cpu.arff", {"algorithm": "cart", "thresholds_all": True}),
    ],
)
def test_refusals_are_the_commands(run, path, options):
    result = run("gain", path, *gain_args(options))
    assert result.exit_code == 1
    with pytest.raises(dtcli.DtreeError) as error:
        dtcli.gain(path, **options)
    assert result.stderr == f"Error: {error.value}\n"


def test_gain_of_a_frame_is_the_gain_of_its_file():
    pandas = pytest.importorskip("pandas")
    frame = pandas.read_csv(SAMPLES / "risk.csv")
    assert (dtcli.gain(frame, ignore="Point", algorithm="cart").to_json()
            == dtcli.gain(SAMPLES / "risk.csv", ignore="Point", algorithm="cart").to_json())  # fmt: skip


@pytest.mark.parametrize(
    "path, options",
    [
        (SAMPLES / "weather.csv", {"ignore": "Day", "where": ["Outlook=Rain"]}),
        (DATA / "labor.arff", {"algorithm": "c45"}),
        (SAMPLES / "risk.csv", {"ignore": "Point", "algorithm": "cart"}),
        (DATA / "cpu.arff", {"algorithm": "cart", "min_leaf": 5}),
    ],
)
def test_gain_is_the_commands_in_a_process_of_its_own(path, options):
    import subprocess
    import sys

    command = [sys.executable, "-m", "dtcli", "gain", str(path), "-f", "json", *gain_args(options)]
    found = subprocess.run(command, capture_output=True, text=True, check=True, env={**os.environ, "COLUMNS": "100"})
    assert dtcli.gain(path, **options).to_json() == found.stdout


@pytest.mark.parametrize(
    "path, options",
    [
        (SAMPLES / "weather.csv", {"ignore": "Day", "attribute": "Wind"}),
        (SAMPLES / "weather.csv", {"ignore": "Day", "where": "Outlook=Sunny", "criterion": "gini"}),
        (SAMPLES / "weather-numeric.csv", {"attribute": ["Temperature"]}),
        (SAMPLES / "risk.csv", {"ignore": "Point", "algorithm": "cart"}),
        (SAMPLES / "weather.csv", {"ignore": "Day", "algorithm": "cart", "where": "Outlook!=Overcast"}),
    ],
)
def test_explain_is_the_commands_derivation(run, path, options):
    table = dtcli.gain(path, **options)
    for fmt, digits in (("text", 3), ("markdown", 5), ("latex", 0)):
        args = ["--explain", "--explain-format", fmt, "--digits", str(digits)]
        result = run("gain", path, *gain_args(options), *args)
        assert result.exit_code == 0, result.stderr
        assert table.explain(fmt, digits) == result.stdout


def test_explain_with_costs_and_refusals(run, tmp_path):
    costs = tmp_path / "costs.csv"
    costs.write_text("Outlook,10\nHumidity,1\nWind,2\nTemperature,3\n")
    result = run("gain", SAMPLES / "weather.csv", "--ignore", "Day", "--costs", costs, "--explain")
    assert dtcli.gain(SAMPLES / "weather.csv", ignore="Day", costs=costs).explain() == result.stdout
    with pytest.raises(dtcli.ParameterError, match="not -a c45"):
        dtcli.gain(SAMPLES / "iris.csv", algorithm="c45").explain()
    with pytest.raises(dtcli.ParameterError, match="not a numeric target"):
        dtcli.gain(DATA / "cpu.arff", algorithm="cart").explain()
    with pytest.raises(dtcli.ParameterError, match="--digits 13"):
        dtcli.gain(SAMPLES / "weather.csv", ignore="Day").explain(digits=13)
    with pytest.raises(dtcli.ParameterError, match="choose from text, markdown, latex"):
        dtcli.gain(SAMPLES / "weather.csv", ignore="Day").explain("html")


@pytest.mark.parametrize(
    "options, message",
    [
        ({"where": 123}, "--where: give a string or a list of strings, got 123"),
        ({"attribute": 5}, "--attribute: give a string or a list of strings, got 5"),
        ({"task": "banana"}, "--task 'banana': choose from auto, classification, regression"),
        ({"splits": "ternary"}, "--splits 'ternary': choose from multiway, binary"),
        ({"thresholds_all": "yes"}, "--thresholds-all is a flag"),
        ({"algorithm": "c45", "min_leaf": "2"}, "--min-leaf must be a number"),
    ],
)
def test_wrong_values_are_parameter_errors(options, message):
    with pytest.raises(dtcli.ParameterError, match=re.escape(message)):
        dtcli.gain(SAMPLES / "weather.csv", ignore="Day", **options)


def test_fit_refuses_an_unknown_task_too():
    with pytest.raises(dtcli.ParameterError, match="--task 'banana': choose from auto"):
        dtcli.fit(SAMPLES / "weather.csv", ignore="Day", task="banana")
