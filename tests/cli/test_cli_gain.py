"""``dtree gain`` end to end: the seeds' numbers in every format."""

from __future__ import annotations

import csv
import io
import json
import math

import pytest

from helpers import SAMPLES, golden

WEATHER = ("gain", SAMPLES / "weather.csv", "--target", "PlayTennis", "--ignore", "Day")


def test_json_gains_to_three_decimals(run):
    result = run(*WEATHER, "--format", "json")
    assert result.exit_code == 0 and result.stderr == ""
    doc = json.loads(result.stdout)
    gains = {a["name"]: round(a["gain"], 3) for a in doc["attributes"]}
    assert gains == {"Outlook": 0.247, "Humidity": 0.152, "Wind": 0.048, "Temperature": 0.029}
    assert [a["name"] for a in doc["attributes"]] == ["Outlook", "Humidity", "Wind", "Temperature"]
    assert round(doc["entropy"], 3) == 0.940
    assert doc["class_counts"] == [5.0, 9.0] and doc["classes"] == ["No", "Yes"]
    assert doc["chosen"] == "Outlook" and doc["format"] == "dtree-gain" and doc["schema_version"] == 1
    outlook = doc["attributes"][0]
    assert outlook["branches"] == [
        {"value": "Sunny", "counts": [3.0, 2.0]},
        {"value": "Overcast", "counts": [0.0, 4.0]},
        {"value": "Rain", "counts": [2.0, 3.0]},
    ]
    assert round(outlook["split_info"], 3) == 1.577 and round(outlook["gain_ratio"], 3) == 0.156
    golden("gain-weather.json", result.stdout)


def test_where_reproduces_the_sunny_subtree(run):
    result = run(*WEATHER, "--where", "Outlook=Sunny", "-f", "json")
    doc = json.loads(result.stdout)
    assert doc["rows"] == 5 and doc["where"] == ["Outlook=Sunny"]
    gains = {a["name"]: round(a["gain"], 3) for a in doc["attributes"]}
    assert gains == {"Humidity": 0.971, "Temperature": 0.571, "Wind": 0.020}
    assert round(doc["entropy"], 3) == 0.971


def test_where_conjunction(run):
    result = run(*WEATHER, "--where", "Outlook=Rain", "-w", "Wind=Weak", "-f", "json")
    doc = json.loads(result.stdout)
    assert doc["rows"] == 3 and doc["chosen"] is None


def test_table(run):
    result = run(*WEATHER)
    assert result.stdout.startswith("PlayTennis: 14 rows [9+, 5-], entropy 0.940, Gini 0.459\n")
    assert "* chosen by information gain: Outlook" in result.stdout
    golden("gain-weather.txt", result.stdout)
    sunny = run(*WEATHER, "--where", "Outlook=Sunny")
    golden("gain-weather-sunny.txt", sunny.stdout)


def test_csv(run):
    result = run(*WEATHER, "-f", "csv")
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["attribute"] for r in rows] == ["Outlook", "Humidity", "Wind", "Temperature"]
    assert rows[0]["branches"] == "Sunny:3/2|Overcast:0/4|Rain:2/3" and rows[0]["chosen"] == "yes"
    assert round(float(rows[1]["gain"]), 3) == 0.152


def test_criterion_sorts_and_marks(run):
    result = run(*WEATHER, "--criterion", "gini", "-f", "json")
    doc = json.loads(result.stdout)
    scores = [a["gini_gain"] for a in doc["attributes"]]
    assert scores == sorted(scores, reverse=True) and doc["criterion"] == "gini"


def test_ties_are_pointed_out(run):
    result = run("gain", SAMPLES / "restaurant.csv", "--ignore", "Example", "--where", "Patrons=Full")
    assert "tie with Type to 12 decimals" in result.stdout


def test_numeric_attributes_get_their_best_threshold(run):
    result = run("gain", SAMPLES / "weather-numeric.csv", "-f", "json")
    doc = json.loads(result.stdout)
    humidity = next(a for a in doc["attributes"] if a["name"] == "Humidity")
    assert humidity["kind"] == "numeric" and humidity["threshold"] == 82.5
    assert [b["value"] for b in humidity["branches"]] == ["<= 82.5", "> 82.5"]
    assert doc["skipped"] == [] and doc["chosen"] == "Outlook"
    data = run("gain", SAMPLES / "weather-numeric.csv", "-f", "json", "--thresholds", "data")
    humidity = next(a for a in json.loads(data.stdout)["attributes"] if a["name"] == "Humidity")
    assert humidity["threshold"] == 80.0


def test_thresholds_all_lists_every_cut(run):
    result = run("gain", SAMPLES / "temperature.csv", "--thresholds-all", "-f", "json")
    cuts = json.loads(result.stdout)["attributes"][0]["cuts"]
    assert [c["threshold"] for c in cuts] == [44.0, 54.0, 66.0, 76.0, 85.0]
    assert [c["boundary"] for c in cuts] == [False, True, False, False, True]
    assert cuts[1]["counts"] == [[2.0, 0.0], [1.0, 3.0]]
    table = run("gain", SAMPLES / "temperature.csv", "--thresholds-all")
    assert "Temperature: every cut (* where the class changes)" in table.stdout
    assert "* <= 54" in table.stdout and "* <= 85" in table.stdout


def test_costs_columns_and_choice(run, tmp_path):
    costs = tmp_path / "costs.csv"
    costs.write_text("attribute,cost\nOutlook,4\n")
    result = run(*WEATHER, "--costs", costs, "-f", "json")
    doc = json.loads(result.stdout)
    assert doc["chosen"] == "Humidity"
    outlook = next(a for a in doc["attributes"] if a["name"] == "Outlook")
    assert outlook["cost"] == 4.0 and outlook["cost_score"] == pytest.approx(outlook["gain"] / 4)
    bad = tmp_path / "bad.csv"
    bad.write_text("Nope,3\n")
    error = run(*WEATHER, "--costs", bad)
    assert error.exit_code == 1 and "no attribute 'Nope'" in error.stderr


def test_entropy_criterion_is_information_gain(run):
    """--criterion entropy is CART's name for information gain; gain accepts it as such."""
    entropy = run(*WEATHER, "--criterion", "entropy", "-f", "json")
    gain = run(*WEATHER, "--criterion", "gain", "-f", "json")
    assert entropy.exit_code == 0 and entropy.stdout == gain.stdout
    assert json.loads(entropy.stdout)["chosen"] == "Outlook"
    cart = run(*WEATHER, "--criterion", "cart")  # Zaki's measure scores binary splits only
    assert cart.exit_code == 1 and "add -a cart or --splits binary" in cart.stderr


def H(*counts):
    n = sum(counts)
    return -sum(c / n * math.log2(c / n) for c in counts if c)


def test_explain_writes_mitchells_arithmetic(run):
    result = run(*WEATHER, "--explain")
    assert result.exit_code == 0 and result.stderr == ""
    lines = [line.strip() for line in result.stdout.splitlines()]
    assert "Entropy(S) = -(9/14) log2(9/14) - (5/14) log2(5/14) = 0.940" in lines
    assert "Gain(S, Wind) = 0.940 - (8/14)(0.811) - (6/14)(1.000) = 0.048" in lines
    assert any("give 0.151" in line for line in lines)  # Mitchell's Humidity, rounded first
    sunny = run(*WEATHER, "--explain", "-w", "Outlook=Sunny", "--attribute", "Wind", "--digits", "4")
    wind = H(2, 3) - 3 / 5 * H(1, 2) - 2 / 5 * H(1, 1)
    assert f"Gain(S_Sunny, Wind) = 0.9710 - (3/5)(0.9183) - (2/5)(1.0000) = {wind:.4f}" in sunny.stdout
    assert "Gain(S_Sunny, Humidity)" not in sunny.stdout  # --attribute: only Wind written out, and the
    assert "Chosen: Humidity, by information gain among all the attributes" in sunny.stdout  # tree's choice named


@pytest.mark.parametrize("fmt, mark", [("markdown", "### Outlook"), ("latex", r"\begin{align*}")])
def test_explain_formats(run, fmt, mark):
    result = run(*WEATHER, "--explain", "--explain-format", fmt)
    assert result.exit_code == 0 and mark in result.stdout


RISK = ("gain", SAMPLES / "risk.csv", "--target", "Risk", "--ignore", "Point")


def test_cart_candidates_on_the_risk_table(run):
    doc = json.loads(run(*RISK, "-a", "cart", "-c", "cart", "--thresholds-all", "-f", "json").stdout)
    assert doc["splits"] == "binary" and doc["chosen_split"] == "Car in {Sports}" and doc["criterion"] == "cart"
    found = {c["split"]: c for c in doc["candidates"]}
    assert list(found) == ["Age <= 22.5", "Age <= 35", "Car in {Sports}", "Car in {Vintage}", "Car in {SUV}"]
    assert found["Car in {Sports}"]["gain"] == pytest.approx(H(4, 2) - 3 / 6 * H(2, 1))  # 0.459, not Zaki's 0.721
    assert found["Car in {Sports}"]["cart"] == pytest.approx(2 * 3 / 6 * 3 / 6 * (abs(2 / 3 - 0) + abs(1 / 3 - 1)))
    assert found["Age <= 22.5"]["counts"] == [[0.0, 2.0], [2.0, 2.0]]
    table = run(*RISK, "--splits", "binary")
    assert "* chosen by Gini gain: Car in {Sports}" in table.stdout
    rows = list(csv.DictReader(io.StringIO(run(*RISK, "-a", "cart", "-f", "csv", "--thresholds-all").stdout)))
    assert rows[2]["split"] == "Car in {Sports}" and rows[2]["chosen"] == "yes"
    # by default each attribute's best candidate (the tree's attribute: the tree's split)
    best = json.loads(run(*RISK, "-a", "cart", "-c", "cart", "-f", "json").stdout)
    assert [c["split"] for c in best["candidates"]] == ["Age <= 22.5", "Car in {Sports}"]
    assert best["candidates"][1] == found["Car in {Sports}"] and best["chosen_split"] == "Car in {Sports}"
    explained = run(*RISK, "-a", "cart", "-c", "cart", "--explain", "--attribute", "Car").stdout
    assert "CART(S_L, S_R) = 2 (3/6)(3/6)(|2/3 - 0/3| + |1/3 - 3/3|) = 0.667" in explained
    assert "Chosen: Car in {Sports}, the highest CART measure (0.667)." in explained


@pytest.mark.parametrize(
    "args, message",
    [
        (("--explain", "--digits", "13"), "--digits 13: give a number of decimals from 0 to 12"),
        (("--attribute", "Nope"), "--attribute Nope:"),
        (("--explain", "-f", "json"), "--explain writes a derivation, not json"),
        (("-a", "cart", "-c", "gain-ratio"), "--criterion gain-ratio scores multiway splits"),
    ],
)
def test_explain_option_errors(run, args, message):
    result = run(*WEATHER, *args)
    assert result.exit_code == 1 and message in result.stderr and result.stdout == ""


@pytest.mark.parametrize(
    "options", [("-a", "c45"), ("-a", "id3", "--thresholds", "midpoint"), ("--thresholds", "midpoint")]
)
def test_a_node_of_one_class_says_so_rather_than_blame_the_values(run, tmp_path, options):
    """50 rows of one class: not 'fewer than two distinct values' nor 'no cut with 2 cases each side'."""
    data = tmp_path / "pure.csv"
    data.write_text("a,b,cls\n" + "".join(f"{i},{i % 7},x\n" for i in range(50)))
    result = run("gain", data, *options)
    assert result.exit_code == 0, result.stderr
    assert "skipped a: the node holds one class: no split separates it" in result.stdout
    assert "distinct" not in result.stdout and "cases each side" not in result.stdout
