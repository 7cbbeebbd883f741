"""``dtree train`` end to end: Mitchell's tree in every format, files, stdin."""

from __future__ import annotations

import json
import subprocess
import sys

from helpers import SAMPLES, WEKA, golden

MITCHELL_TEXT = """\
Outlook = Sunny
|   Humidity = High: No (3.0)
|   Humidity = Normal: Yes (2.0)
Outlook = Overcast: Yes (4.0)
Outlook = Rain
|   Wind = Weak: Yes (3.0)
|   Wind = Strong: No (2.0)
"""


def test_plain_text_is_mitchells_tree(run):
    result = run("train", SAMPLES / "weather.csv", "--target", "PlayTennis", "--ignore", "Day", "--format", "text")
    assert result.exit_code == 0
    assert result.stdout == MITCHELL_TEXT
    # ID3 stops only at pure nodes, and Mitchell's 14 days hold no contradiction: every day is right
    assert result.stderr == "Training set: 14 of 14 correct (100.0%)\nID3 tree: 5 leaves, 8 nodes, depth 2\n"


def test_arff_and_default_target(run):
    result = run("train", SAMPLES / "weather.arff", "-f", "text")
    assert result.stdout == MITCHELL_TEXT


def test_rich_tree_shows_counts_and_gains(run):
    result = run("train", SAMPLES / "weather.csv", "--ignore", "Day")
    assert result.exit_code == 0
    assert "PlayTennis [9+, 5-] · split on Outlook (gain 0.247)" in result.stdout
    assert "Humidity = High [0+, 3-] → No" in result.stdout
    golden("train-weather.txt", result.stdout)


def test_general_class_counts(run):
    result = run("train", SAMPLES / "contact-lenses.csv")
    assert result.stdout.startswith("contact-lenses [none 15, soft 5, hard 4] · split on tear-prod-rate")
    golden("train-contact-lenses.txt", result.stdout)


def test_model_file_and_json_format(run, tmp_path):
    model = tmp_path / "m.json"
    result = run("train", SAMPLES / "weather.csv", "--ignore", "Day", "-o", model, "-f", "json")
    assert result.exit_code == 0
    assert model.read_text() == result.stdout
    doc = json.loads(result.stdout)
    assert doc["format"] == "dtree-model" and doc["root"]["test"]["attribute"] == "Outlook"
    assert f"model written to {model}" in result.stderr
    assert list(tmp_path.iterdir()) == [model]  # no temporary files left behind


def test_output_is_deterministic(run, tmp_path):
    first = run("train", SAMPLES / "weather.csv", "--ignore", "Day", "-o", tmp_path / "a.json")
    second = run("train", SAMPLES / "weather.csv", "--ignore", "Day", "-o", tmp_path / "b.json")
    assert first.stdout == second.stdout
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()


def test_quiet_and_options_are_recorded(run, tmp_path):
    model = tmp_path / "m.json"
    result = run(
        "train",
        SAMPLES / "weather.csv",
        "--ignore",
        "Day",
        "-q",
        "-o",
        model,
        "--criterion",
        "gain-ratio",
        "--max-depth",
        "1",
    )
    assert result.stdout == ""
    params = json.loads(model.read_text())["parameters"]
    assert params["criterion"] == "gain-ratio" and params["max_depth"] == 1


def test_comma_separated_ignore(run):
    result = run("train", SAMPLES / "weather.csv", "--ignore", "Day,Temperature", "-f", "text")
    assert result.stdout == MITCHELL_TEXT


def test_nominal_option_lets_id3_use_numeric_codes(run):
    result = run("train", SAMPLES / "temperature.csv", "--nominal", "Temperature", "-f", "text")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "Temperature = 40: No (1.0)"


def test_stdin_and_python_dash_m():
    data = (SAMPLES / "weather.csv").read_text()
    out = subprocess.run(
        [sys.executable, "-m", "dtcli", "train", "-", "--ignore", "Day", "-f", "text"],
        input=data,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout == MITCHELL_TEXT


def test_single_leaf_tree(run, tmp_path):
    path = tmp_path / "xor.csv"
    path.write_text("X,Y,Class\nt,t,no\nt,f,yes\nf,t,yes\nf,f,no\n")
    result = run("train", path, "-f", "text")
    assert result.stdout == ": no (4.0/2.0)\n"


def test_c45_reproduces_quinlans_golf_tree(run):
    result = run("train", SAMPLES / "weather-numeric.csv", "-a", "c45", "--no-prune", "-f", "text")
    assert result.exit_code == 0
    assert result.stdout == (
        "Outlook = sunny\n"
        "|   Humidity <= 75: yes (2.0)\n"
        "|   Humidity > 75: no (3.0)\n"
        "Outlook = overcast: yes (4.0)\n"
        "Outlook = rainy\n"
        "|   Windy = false: yes (3.0)\n"
        "|   Windy = true: no (2.0)\n"
    )
    # Quinlan's golf tree (C4.5, Figure 1-3) classifies all 14 training cases correctly
    assert result.stderr == "Training set: 14 of 14 correct (100.0%)\nC4.5 tree: 5 leaves, 8 nodes, depth 2\n"


def test_c45_prunes_by_default_and_traces(run, tmp_path):
    labor = WEKA / "data" / "labor.arff"
    result = run("train", labor, "-a", "c45", "-f", "text", "--trace")
    assert result.stdout == (
        "wage-increase-first-year <= 2.5: bad (15.27/2.27)\n"
        "wage-increase-first-year > 2.5\n"
        "|   statutory-holidays <= 10: bad (10.77/4.77)\n"
        "|   statutory-holidays > 10: good (30.96/1.0)\n"
    )
    assert "raise longterm-disability-assistance = yes" in result.stderr
    unpruned = run("train", labor, "-a", "c45", "--no-prune", "-q")
    assert "13 leaves" in unpruned.stderr
    no_raise = run("train", labor, "-a", "c45", "--no-raise", "-f", "text")
    assert no_raise.stdout != result.stdout
    model = tmp_path / "m.json"
    run("train", labor, "-a", "c45", "-q", "-o", model, "--cf", "0.1", "--error-bound", "c45r8")
    assert json.loads(model.read_text())["parameters"]["pruning"] == {
        "method": "pessimistic",
        "cf": 0.1,
        "raising": True,
        "error_bound": "c45r8",
        "original_leaves": 13,
    }


def test_mitchell_temperature_thresholds_in_midpoint_mode(run):
    result = run("train", SAMPLES / "temperature.csv", "--thresholds", "midpoint", "-f", "text")
    assert result.stdout == (
        "Temperature <= 54: No (2.0)\n"
        "Temperature > 54\n"
        "|   Temperature <= 85: Yes (3.0)\n"
        "|   Temperature > 85: No (1.0)\n"
    )


def test_numeric_model_round_trips_through_predict(run, tmp_path):
    model = tmp_path / "golf.json"
    assert run("train", SAMPLES / "weather-numeric.csv", "-a", "c45", "-q", "-o", model).exit_code == 0
    doc = json.loads(model.read_text())
    sunny = doc["root"]["branches"][0]["node"]
    assert sunny["test"] == {"kind": "numeric", "attribute": "Humidity", "threshold": 75.0}
    assert [b["value"] for b in sunny["branches"]] == ["<=", ">"]
    assert doc["parameters"]["missing"] == "fractional" and doc["parameters"]["thresholds"] == "data"
    result = run("predict", model, SAMPLES / "weather-numeric.csv")
    assert result.stderr.startswith("Accuracy: 14/14 = 1.000")


def test_entropy_criterion_is_information_gain_for_every_algorithm(run):
    weather = ("train", SAMPLES / "weather-numeric.csv", "-f", "json")
    for algorithm in ("id3", "c45"):
        options = ("--algorithm", algorithm, "--thresholds", "midpoint")
        entropy = json.loads(run(*weather, *options, "--criterion", "entropy").stdout)
        gain = json.loads(run(*weather, *options, "--criterion", "gain").stdout)
        assert entropy["root"] == gain["root"] and entropy["parameters"]["criterion"] == "gain"
    ratio = json.loads(run(*weather, "--algorithm", "c45", "--criterion", "gain-ratio").stdout)
    assert ratio["root"]["score"] != gain["root"]["score"]
