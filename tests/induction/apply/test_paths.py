"""Explained predictions: the paths of Mitchell's PlayTennis tree, C4.5's weights for missing values, rules, depth."""

from __future__ import annotations

import csv

import numpy as np
import pytest
from trees import chain, fit

from dtcli.explain.why import row_paths
from dtcli.induction.predict.apply import predict_proba
from dtcli.induction.rules import extract
from dtcli.io.encode import encode_for_schema
from dtcli.io.read import read_data
from dtcli.model.table import Table
from dtcli.render.why import path_text
from helpers import SAMPLES, load


def mitchell_path(row: dict) -> str:
    """The path of a PlayTennis day through Mitchell's tree (Figure 3.1), written out by hand."""
    outlook = row["Outlook"]
    if outlook == "Overcast":
        return "Outlook = Overcast -> Yes"
    if outlook == "Sunny":
        humidity = row["Humidity"]
        return f"Outlook = Sunny -> Humidity = {humidity} -> {'No' if humidity == 'High' else 'Yes'}"
    wind = row["Wind"]
    return f"Outlook = Rain -> Wind = {wind} -> {'No' if wind == 'Strong' else 'Yes'}"


def encode(tmp_path, schema, text: str) -> Table:
    path = tmp_path / "new.csv"
    path.write_text(text)
    return encode_for_schema(read_data(str(path)), schema).table


def test_every_playtennis_day_takes_the_path_of_mitchells_tree(weather):
    tree = fit(weather)[0]
    why = row_paths(tree, weather)
    with open(SAMPLES / "weather.csv", newline="") as handle:
        days = list(csv.DictReader(handle))
    for i, day in enumerate(days):
        (path,) = why.paths(i)
        assert path.weight == 1.0
        assert path_text(path, tree.classes) == mitchell_path(day)
        assert tree.classes[path.label] == day["PlayTennis"]
        assert [s.value for s in path.steps] == [day[s.attribute] for s in path.steps]
    assert np.array_equal(why.proba, predict_proba(tree, weather))


@pytest.fixture
def c45_missing(tmp_path):
    """C4.5 on weather-numeric with two rows holding a '?': the model and its training rows."""
    text = (SAMPLES / "weather-numeric.csv").read_text() + "?,72,90,true,no\nsunny,70,?,false,yes\n"
    (tmp_path / "train.csv").write_text(text)
    table = load(tmp_path / "train.csv", "Play")
    tree = fit(table, "c45")[0]
    rows = list(csv.DictReader(text.splitlines()))
    return tree, rows


def test_a_missing_value_sends_the_row_down_every_branch_by_the_training_shares(tmp_path, c45_missing):
    tree, rows = c45_missing
    assert tree.root.test.attribute.name == "Outlook"
    table = encode(tmp_path, tree.schema, "Outlook,Temperature,Humidity,Windy\n?,70,90,true\n")
    why = row_paths(tree, table)
    paths = why.paths(0)
    known = [r["Outlook"] for r in rows if r["Outlook"] != "?"]
    shares = {v: known.count(v) / len(known) for v in ("sunny", "overcast", "rainy")}  # 6/15, 4/15, 5/15
    assert [p.steps[0].branch for p in paths] == ["Outlook = sunny", "Outlook = overcast", "Outlook = rainy"]
    for path, value in zip(paths, ("sunny", "overcast", "rainy")):
        assert path.steps[0].value is None
        assert path.weight == pytest.approx(shares[value])
        assert path.steps[0].share == pytest.approx(shares[value])
    assert [tree.classes[p.label] for p in paths] == ["no", "yes", "no"]  # Humidity 90 > 75; Windy = true
    assert paths[0].steps[1].value == 90.0 and paths[0].steps[1].branch == "Humidity > 75"
    combined = sum(p.weight * p.counts / p.counts.sum() for p in paths)
    assert why.proba[0] == pytest.approx(combined)
    assert why.proba[0] == pytest.approx(predict_proba(tree, table)[0])


def test_a_missing_number_below_a_known_value(tmp_path, c45_missing):
    tree, rows = c45_missing
    threshold = tree.root.children[0].test.threshold
    table = encode(tmp_path, tree.schema, "Outlook,Temperature,Humidity,Windy\nsunny,70,?,false\n")
    low, high = row_paths(tree, table).paths(0)
    # The training cases at Outlook = sunny with a known humidity: the sunny rows, plus the row
    # without an outlook, which C4.5 sent there with the weight of the sunny share (6 of 15 known).
    sunny = [float(r["Humidity"]) for r in rows if r["Outlook"] == "sunny" and r["Humidity"] != "?"]
    moved, weight = 90.0, 6 / 15
    below = sum(h <= threshold for h in sunny) + weight * (moved <= threshold)
    total = len(sunny) + weight
    assert low.steps[0].branch == "Outlook = sunny" and low.steps[0].value == "sunny"
    assert low.steps[1].branch == f"Humidity <= {threshold:g}" and low.steps[1].value is None
    assert low.weight == pytest.approx(below / total)
    assert high.weight == pytest.approx(1 - below / total)
    assert low.steps[1].fraction[0] / low.steps[1].fraction[1] == pytest.approx(below / total)


def test_rule_sets_name_the_rule_that_fired_or_the_default(tmp_path, weather):
    rules = extract(fit(weather)[0])
    table = encode(tmp_path, rules.schema, "Outlook,Temperature,Humidity,Wind\nRain,Hot,High,Strong\n?,Hot,High,Weak\n")
    why = row_paths(rules, table)
    (fired,) = why.paths(0)
    texts = [r.conditions for r in rules.rules]
    assert fired.rule == 1 + [[c.text() for c in conds] for conds in texts].index(["Outlook = Rain", "Wind = Strong"])
    assert path_text(fired, rules.classes) == f"R{fired.rule}: Outlook = Rain and Wind = Strong -> No"
    (default,) = why.paths(1)
    assert default.rule == 0 and path_text(default, rules.classes) == "default -> Yes"  # the root's majority


def test_a_regression_path_ends_with_the_leaf_mean(tmp_path):
    (tmp_path / "r.csv").write_text("x,y\n1,10\n2,12\n3,30\n4,34\n")
    tree = fit(load(tmp_path / "r.csv", "y", task="regression"), "cart", min_leaf=2, min_split=2)[0]
    table = encode(tmp_path, tree.schema, "x\n1.5\n3.5\n")
    low, high = row_paths(tree, table).paths(0)[0], row_paths(tree, table).paths(1)[0]
    assert path_text(low, ()) == "x = 1.5 <= 2.5 -> 11" and low.value == 11.0
    assert path_text(high, ()) == "x = 3.5 > 2.5 -> 32"


def test_a_10000_level_chain_is_explained_without_recursion():
    tree = chain(10_000)
    x = tree.schema.attributes[0]
    table = Table(tree.schema, [np.array([10_000.0, 0.0])], np.zeros(2, dtype=np.int64), np.ones(2))
    why = row_paths(tree, table)
    (deep,) = why.paths(0)
    assert len(deep.steps) == 10_000 and deep.weight == 1.0
    assert all(s.branch == f"{x.name} > {d + 0.5:g}" for d, s in enumerate(deep.steps))
    assert path_text(deep, tree.classes).endswith("x = 10000 > 9999.5 -> b")
    (shallow,) = why.paths(1)
    assert path_text(shallow, tree.classes) == "x = 0 <= 0.5 -> a"


def test_a_missing_value_down_a_chain_halves_at_every_level():
    tree = chain(1000)  # every split: one case each side, so a missing x goes half and half
    table = Table(tree.schema, [np.array([np.nan])], np.zeros(1, dtype=np.int64), np.ones(1))
    paths = row_paths(tree, table).paths(0)
    assert len(paths) == 1001
    assert [p.weight for p in paths[:-1]] == [0.5 ** (d + 1) for d in range(1000)]
    assert paths[-1].weight == 0.5**1000 and sum(p.weight for p in paths) == pytest.approx(1.0)
