"""dtree show --importance and train --importance against scikit-learn's feature_importances_ and the estimators."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

from helpers import SAMPLES

pytest.importorskip("sklearn")

from sklearn import datasets
from sklearn.tree import DecisionTreeClassifier

from dtcli.sklearn import C45Classifier, ID3Classifier


@pytest.mark.parametrize("name", ["iris", "wine", "breast_cancer"])
@pytest.mark.parametrize("criterion", ["gini", "entropy"])
def test_cart_importances_are_sklearns(run, tmp_path, name, criterion):
    X, y = getattr(datasets, f"load_{name}")(return_X_y=True)
    names = [f"x{j}" for j in range(X.shape[1])]
    path = tmp_path / "data.csv"
    lines = [",".join([*names, "class"])] + [",".join([*map(repr, X[i].tolist()), f"c{y[i]}"]) for i in range(len(y))]
    path.write_text("\n".join(lines) + "\n")
    assert run("train", path, "-a", "cart", "--criterion", criterion, "-q", "-o", tmp_path / "m.json").exit_code == 0
    done = run("show", tmp_path / "m.json", "--importance", "-f", "json")
    doc = json.loads(done.stdout)
    assert doc["format"] == "dtree-importance" and doc["schema_version"] == 1
    assert doc["measure"] == criterion and doc["algorithm"] == "cart" and doc["target"] == "class"
    found = {row["attribute"]: row["importance"] for row in doc["importances"]}
    theirs = DecisionTreeClassifier(criterion=criterion, random_state=0).fit(X, y).feature_importances_
    assert np.allclose([found[n] for n in names], theirs, rtol=1e-9, atol=1e-12)
    values = [row["importance"] for row in doc["importances"]]
    assert values == sorted(values, reverse=True)
    rows = list(csv.reader(io.StringIO(run("show", tmp_path / "m.json", "--importance", "-f", "csv").stdout)))
    assert rows[0] == ["attribute", "importance"]
    assert [(r[0], float(r[1])) for r in rows[1:]] == [(r["attribute"], r["importance"]) for r in doc["importances"]]


def test_c45_and_id3_importances_are_the_estimators(run, tmp_path):
    pandas = pytest.importorskip("pandas")
    frame = pandas.read_csv(SAMPLES / "weather.csv")
    X, y = frame.drop(columns=["Day", "PlayTennis"]), frame["PlayTennis"]
    for estimator, algorithm in ((ID3Classifier(), "id3"), (C45Classifier(), "c45")):
        run("train", SAMPLES / "weather.csv", "--ignore", "Day", "-a", algorithm, "-q", "-o", tmp_path / "m.json")
        doc = json.loads(run("show", tmp_path / "m.json", "--importance", "-f", "json").stdout)
        found = {row["attribute"]: row["importance"] for row in doc["importances"]}
        fitted = estimator.fit(X, y).feature_importances_
        assert [found[n] for n in X.columns] == fitted.tolist()
        assert doc["measure"] == "entropy"


def test_weather_by_hand(run, tmp_path):
    # ID3 on weather: Outlook at the root (14 rows: 0.940 -> 5/14 * 0.971 * 2), Humidity under Sunny and Wind
    # under Rain (5 rows each, 0.971 -> 0); Temperature never splits
    run("train", SAMPLES / "weather.csv", "--ignore", "Day", "-q", "-o", tmp_path / "m.json")
    h = lambda *p: -sum(x * np.log2(x) for x in p if x)  # noqa: E731
    outlook = 14 * h(9 / 14, 5 / 14) - 10 * h(3 / 5, 2 / 5)
    leaf = 5 * h(3 / 5, 2 / 5)
    total = outlook + 2 * leaf
    text = run("show", tmp_path / "m.json", "--importance").stdout
    assert text.splitlines() == [
        "Attribute    Importance",
        f"Humidity     {leaf / total:10.4f}",
        f"Wind         {leaf / total:10.4f}",
        f"Outlook      {outlook / total:10.4f}",
        f"Temperature  {0:10.4f}",
        "(each attribute's weighted decrease of entropy over its splits; they sum to 1)",
    ]
    trained = run("train", SAMPLES / "weather.csv", "--ignore", "Day", "-f", "text", "--importance")
    assert trained.stdout.endswith("\n\n" + text)
    assert run("train", SAMPLES / "weather.csv", "--ignore", "Day", "--importance", "-q").stdout == text


def test_refusals_and_a_single_leaf(run, tmp_path):
    run("train", SAMPLES / "weather.csv", "--ignore", "Day", "-q", "-o", tmp_path / "m.json")
    for args in (["-f", "svg"], ["--max-depth", "1"]):
        done = run("show", tmp_path / "m.json", "--importance", *args)
        assert done.exit_code == 1 and done.stderr.startswith("Error: ")
    assert run("show", tmp_path / "m.json", "-f", "csv").exit_code == 1
    assert run("train", SAMPLES / "weather.csv", "--importance", "-f", "json").exit_code == 1
    run("train", SAMPLES / "weather.csv", "--ignore", "Day", "--max-depth", "0", "-q", "-o", tmp_path / "leaf.json")
    text = run("show", tmp_path / "leaf.json", "--importance").stdout
    assert text.splitlines()[-1] == "(the tree is a single leaf: no attribute splits it)"
