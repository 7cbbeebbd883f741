"""--weights and --class-weight (train, evaluate, gain) against repeated rows, scikit-learn and the Python API."""

from __future__ import annotations

import json

import numpy as np
import pytest

from helpers import SAMPLES

pytest.importorskip("sklearn")

from sklearn import datasets
from sklearn.tree import DecisionTreeClassifier

import dtcli
from dtcli.sklearn import C45Classifier, CARTClassifier


def weighted_files(tmp_path, header, rows, weights):
    """(a CSV with a column w of ``weights`` before the class, the CSV with each row repeated w times)."""
    weighted, repeated = tmp_path / "weighted.csv", tmp_path / "repeated.csv"
    weighted.write_text(
        ",".join([*header[:-1], "w", header[-1]]) + "\n"
        + "".join(",".join([*r[:-1], str(w), r[-1]]) + "\n" for r, w in zip(rows, weights))
    )  # fmt: skip
    copies = "".join((",".join(r) + "\n") * int(w) for r, w in zip(rows, weights))
    repeated.write_text(",".join(header) + "\n" + copies)
    return weighted, repeated


def read_rows(path):
    lines = path.read_text().splitlines()
    return lines[0].split(","), [line.split(",") for line in lines[1:]]


@pytest.mark.parametrize(
    "sample, algorithm, options",
    [
        ("weather.csv", "id3", ["--ignore", "Day"]),
        ("weather.csv", "c45", ["--ignore", "Day", "--no-prune"]),
        ("iris.csv", "c45", []),
        ("iris.csv", "cart", []),
        ("contact-lenses.csv", "cart", ["--criterion", "entropy"]),
        ("restaurant.csv", "id3", []),
    ],
)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_whole_number_weights_are_repeated_rows(run, tmp_path, sample, algorithm, options, seed):
    header, rows = read_rows(SAMPLES / sample)
    weights = np.random.default_rng(seed).integers(0, 4, len(rows)).tolist()  # 0: the row is left out
    weighted, repeated = weighted_files(tmp_path, header, rows, weights)
    ours = run("train", weighted, "--weights", "w", "-a", algorithm, "-f", "text", *options)
    copies = run("train", repeated, "-a", algorithm, "-f", "text", *options)
    assert ours.exit_code == 0, ours.stderr
    assert ours.stdout == copies.stdout
    if algorithm != "c45":  # (C4.5's average-gain rule counts rows, as J48's does, not weight)
        gained = json.loads(run("gain", weighted, "--weights", "w", "-a", algorithm, "-f", "json", *options).stdout)
        again = json.loads(run("gain", repeated, "-a", algorithm, "-f", "json", *options).stdout)
        assert gained["rows"] == sum(w > 0 for w in weights) and again["rows"] == sum(weights)
        assert {**gained, "rows": 0} == {**again, "rows": 0}


def sklearn_csv(tmp_path, name):
    X, y = getattr(datasets, f"load_{name}")(return_X_y=True)
    names = [f"x{j}" for j in range(X.shape[1])]
    path = tmp_path / f"{name}.csv"
    lines = [",".join([*names, "class"])] + [",".join([*map(repr, X[i].tolist()), f"c{y[i]}"]) for i in range(len(y))]
    path.write_text("\n".join(lines) + "\n")
    return path, X, y


def preorder(tree_dict):
    """(attribute index, threshold) or (-2, -2.0) at a leaf, in preorder, as scikit-learn's tree_ arrays."""
    names = [a["name"] for a in tree_dict["schema"]["attributes"]]
    found, stack = [], [tree_dict["root"]]
    while stack:
        node = stack.pop()
        if node["kind"] == "leaf":
            found.append((-2, -2.0))
            continue
        found.append((names.index(node["test"]["attribute"]), node["test"]["threshold"]))
        stack.extend(branch["node"] for branch in reversed(node["branches"]))
    return found


def sklearn_preorder(tree):
    t = tree.tree_
    return [(int(t.feature[i]), float(t.threshold[i])) for i in range(t.node_count)]


@pytest.mark.parametrize("name, depth", [("breast_cancer", 3), ("wine", 2), ("iris", None)])
def test_class_weight_balanced_is_sklearns(run, tmp_path, name, depth):
    path, X, y = sklearn_csv(tmp_path, name)
    limit = [] if depth is None else ["--max-depth", str(depth)]
    done = run("train", path, "-a", "cart", "--class-weight", "balanced", *limit, "-q", "-o", tmp_path / "m.json")
    assert done.exit_code == 0, done.stderr
    model = json.loads((tmp_path / "m.json").read_text())
    theirs = DecisionTreeClassifier(class_weight="balanced", max_depth=depth, random_state=0).fit(X, y)
    assert preorder(model) == sklearn_preorder(theirs)
    assert model["parameters"]["class_weight"] == "balanced" and "weights" not in model["parameters"]


def test_class_weight_dict_and_weights_are_sklearns(run, tmp_path):
    X, y = datasets.load_wine(return_X_y=True)
    w = np.random.default_rng(4).integers(1, 4, len(y))
    names = [f"x{j}" for j in range(X.shape[1])]
    path = tmp_path / "wine.csv"
    rows = [",".join([*map(repr, X[i].tolist()), str(w[i]), f"c{y[i]}"]) for i in range(len(y))]
    path.write_text(",".join([*names, "w", "class"]) + "\n" + "\n".join(rows) + "\n")
    args = ["--weights", "w", "--class-weight", "c0=2,c2=0.5", "-a", "cart", "--max-depth", "3"]
    done = run("train", path, *args, "-q", "-o", tmp_path / "m.json")
    assert done.exit_code == 0, done.stderr
    model = json.loads((tmp_path / "m.json").read_text())
    theirs = DecisionTreeClassifier(class_weight={0: 2, 1: 1, 2: 0.5}, max_depth=3, random_state=0)
    theirs.fit(X, y, sample_weight=w)
    assert preorder(model) == sklearn_preorder(theirs)
    assert model["parameters"]["weights"] == "w"
    assert model["parameters"]["class_weight"] == {"c0": 2.0, "c2": 0.5}


@pytest.mark.parametrize("algorithm", ["id3", "c45", "cart"])
def test_model_file_is_the_apis_and_the_estimators(run, tmp_path, algorithm):
    pandas = pytest.importorskip("pandas")
    header, rows = read_rows(SAMPLES / "weather.csv")
    weights = [0.5, 2, 1, 1.5, 3, 1, 0.25, 2, 1, 1, 2, 1, 0.5, 1]  # relative: scaled to sum to the rows
    weighted, _ = weighted_files(tmp_path, header, rows, weights)
    options = ["--ignore", "Day", "--weights", "w", "--class-weight", "Yes=2"]
    done = run("train", weighted, "-a", algorithm, *options, "-q", "-o", tmp_path / "m.json")
    assert done.exit_code == 0, done.stderr
    text = (tmp_path / "m.json").read_text()
    fitted = dtcli.fit(weighted, algorithm=algorithm, ignore="Day", weights="w", class_weight={"Yes": 2})
    assert fitted.to_json() == text
    frame = pandas.read_csv(weighted)
    X, y = frame.drop(columns=["Day", "w", "PlayTennis"]), frame["PlayTennis"]
    make = {"id3": dtcli.sklearn.ID3Classifier, "c45": C45Classifier, "cart": CARTClassifier}[algorithm]
    estimator = make(class_weight={"Yes": 2}).fit(X, y, sample_weight=frame["w"])
    ours, theirs = json.loads(text), json.loads(estimator.model_.to_json())
    assert ours["root"] == theirs["root"]
    mine = ("weights", "class_weight", "thresholds")  # (ID3Classifier cuts numbers by default; no number here)
    assert {k: v for k, v in ours["parameters"].items() if k not in mine} == {
        k: v for k, v in theirs["parameters"].items() if k not in mine
    }
    assert ours["parameters"]["class_weight"] == theirs["parameters"]["class_weight"] == {"Yes": 2.0}


def test_evaluate_and_rows_left_out(run, tmp_path):
    header, rows = read_rows(SAMPLES / "weather.csv")
    weights = [1, 0, 2, 1, 1, 0, 1, 1, 3, 1, 1, 1, 1, 1]
    weighted, _ = weighted_files(tmp_path, header, rows, weights)
    done = run("evaluate", weighted, "--ignore", "Day", "--weights", "w", "--cv", "3", "-f", "json")
    assert done.exit_code == 0, done.stderr
    assert json.loads(done.stdout)["summary"]["total"] == 12  # the two rows of weight 0 are left out
    trained = run("train", weighted, "--ignore", "Day", "--weights", "w", "-f", "text")
    assert "Training set: 12 of 12 correct" in trained.stderr


def test_prune_weighs_the_data_as_the_model_was_trained(run, tmp_path):
    header, rows = read_rows(SAMPLES / "iris.csv")
    weights = np.random.default_rng(7).choice([0, 1, 1, 2, 3, 0.5], len(rows)).tolist()
    weighted, _ = weighted_files(tmp_path, header, rows, weights)
    common = ["--weights", "w", "--class-weight", "balanced", "-a", "c45", "-m", "1", "--cf", "0.05", "-q"]
    run("train", weighted, *common, "-o", tmp_path / "pruned.json")
    run("train", weighted, *common, "--no-prune", "-o", tmp_path / "grown.json")
    done = run("prune", tmp_path / "grown.json", "--method", "pessimistic", "--cf", "0.05", "--data", weighted,
               "-o", tmp_path / "again.json")  # fmt: skip
    assert done.exit_code == 0, done.stderr
    pruned, again = (json.loads((tmp_path / f"{n}.json").read_text()) for n in ("pruned", "again"))
    assert pruned["root"] == again["root"]


def test_api_weights_of_a_dataframe_and_refusals(tmp_path):
    pandas = pytest.importorskip("pandas")
    header, rows = read_rows(SAMPLES / "weather.csv")
    weights = [1, 0, 2, 1, 3, 0, 1, 1, 2, 1, 1, 1, 1, 2]
    weighted, repeated = weighted_files(tmp_path, header, rows, weights)
    frame = pandas.read_csv(weighted)
    for algorithm in ("id3", "c45", "cart"):
        ours = dtcli.fit(frame, algorithm=algorithm, ignore="Day", weights="w", class_weight={"Yes": 1})
        copies = dtcli.fit(repeated, algorithm=algorithm, ignore="Day")
        assert ours.to_text() == copies.to_text()
        assert ours.tree.parameters["class_weight"] == {"Yes": 1.0} and ours.tree.parameters["weights"] == "w"
    frame.loc[3, "w"] = -1
    with pytest.raises(dtcli.DataError, match="row 4: the weight -1 in column 'w'"):
        dtcli.fit(frame, ignore="Day", weights="w")
    with pytest.raises(dtcli.ParameterError, match="class_weight must be 'balanced' or a dict"):
        dtcli.fit(repeated, ignore="Day", class_weight="even")
    with pytest.raises(dtcli.ParameterError, match="no such class"):
        dtcli.fit(repeated, ignore="Day", class_weight={"Maybe": 2})
