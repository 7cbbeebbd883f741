"""Numeric targets (ID3/C4.5 refuse them, --task classification, CART's note) and one-class tables as a leaf.

References: Weka 3.6.14's J48 and Id3 (tests/fixtures/weka/single: "Cannot handle numeric class!", the
one-leaf tree ": yes (9.0)", kappa 1, the cross-validation of a table whose folds train on one class),
scikit-learn's DecisionTreeClassifier (one leaf on one class) and Mitchell's ID3 (all examples
positive: the single-node tree).
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from helpers import WEKA

CPU = WEKA / "data" / "cpu.arff"
SINGLE = WEKA / "single"


def weka(name: str) -> str:
    return (SINGLE / name).read_text()


def model(run, tmp_path, *args) -> dict:
    """The model ``dtree train ARGS`` writes, without the training data's name and digest."""
    path = tmp_path / "model.json"
    done = run("train", *args, "-q", "-o", path)
    assert done.exit_code == 0, done.stderr
    doc = json.loads(path.read_text())
    del doc["training_data"]
    return doc


@pytest.fixture(scope="module")
def diabetes(tmp_path_factory):
    """scikit-learn's diabetes table (442 rows, a continuous integer target of 214 values) as CSV and Parquet."""
    from sklearn.datasets import load_diabetes

    bunch = load_diabetes(as_frame=True, scaled=False)
    frame = bunch.frame
    folder = tmp_path_factory.mktemp("diabetes")
    frame.to_csv(folder / "diabetes.csv", index=False)
    frame.to_parquet(folder / "diabetes.parquet")
    return folder


@pytest.fixture(scope="module")
def digits(tmp_path_factory):
    """scikit-learn's digits (the first 400 rows, 16 pixels) with the 0-9 label last, as numbers and as text."""
    from sklearn.datasets import load_digits

    bunch = load_digits()
    rows, folder = range(400), tmp_path_factory.mktemp("digits")
    header = ",".join(f"p{i}" for i in range(16)) + ",digit\n"
    for name, label in (("digits.csv", "{}"), ("digits-text.csv", "d{}")):
        lines = [",".join(f"{v:g}" for v in bunch.data[r, 20:36]) + "," + label.format(bunch.target[r]) for r in rows]
        (folder / name).write_text(header + "\n".join(lines) + "\n")
    return folder


# ---- ID3 and C4.5 refuse a numeric class, as Weka's J48 does


def test_weka_refuses_a_numeric_class():
    assert "Cannot handle numeric class!" in weka("cpu.j48-pruned.txt")


@pytest.mark.parametrize("algorithm", ["id3", "c45"])
def test_numeric_class_refused_in_one_line(run, diabetes, algorithm):
    title = {"id3": "ID3", "c45": "C4.5"}[algorithm]
    for path, target in (
        (CPU, "class"),
        (diabetes / "diabetes.csv", "target"),
        (diabetes / "diabetes.parquet", "target"),
    ):
        done = run("train", path, "-a", algorithm)
        assert done.exit_code == 1 and done.stdout == ""
        line = done.stderr.strip()
        assert "\n" not in line and line.startswith(f"Error: {path}: the target '{target}' is numeric, and {title}")
        assert "--algorithm cart" in line and "--task classification" in line
    done = run("evaluate", CPU, "-a", algorithm, "--cv", "3")
    assert done.exit_code == 1 and "--task classification" in done.stderr


@pytest.mark.parametrize("algorithm", [None, "id3", "c45"])
def test_gain_reads_the_target_as_train_does(run, diabetes, tmp_path, algorithm):
    """gain refuses a numeric class where train does (the plain CSV path and the full path alike), and
    with --task classification stars the root of the tree train grows with the same option."""
    small = tmp_path / "small.csv"  # small enough for gain's numpy-free path
    small.write_text("colour,size,label\nred,s,0\nblue,m,1\nred,l,0\nblue,s,1\ngreen,m,0\n")
    chosen = {"id3": "information gain", "c45": "gain ratio"}
    for path in (CPU, diabetes / "diabetes.csv", small):
        flags = ["-a", algorithm] if algorithm else []
        done = run("gain", path, *flags)
        assert done.exit_code == 1 and done.stdout == "" and "--task classification" in done.stderr
        assert done.stderr.count("\n") == 1 and done.stderr == run("train", path, *flags).stderr
    done = run("gain", small, *flags, "--task", "classification")
    assert done.exit_code == 0 and f"* chosen by {chosen[algorithm or 'id3']}" in done.stdout
    tree = run("train", small, *flags, "--task", "classification").stdout
    footer = next(line for line in done.stdout.splitlines() if line.startswith("* chosen by"))
    root = footer.rsplit(": ", 1)[1]
    assert f"split on {root} (" in tree.splitlines()[0]


def test_default_algorithm_refuses_too_and_cart_regresses(run):
    assert "ID3" in run("train", CPU).stderr
    done = run("train", CPU, "-a", "cart")
    assert done.exit_code == 0 and "mean" in done.stdout and "Note:" not in done.stderr


def test_task_classification_is_the_nominal_class(run, tmp_path):
    """cpu.arff with --task classification grows the tree of the same ARFF whose class is declared
    nominal with the numbers as labels (in order of first appearance, written as in the file)."""
    text = CPU.read_text()
    head, data = text.split("@data")
    rows = [r for r in data.strip().splitlines() if r.strip() and not r.startswith("%")]
    labels = list(dict.fromkeys(r.rsplit(",", 1)[1].strip() for r in rows))
    nominal = tmp_path / "cpu-nominal.arff"
    head = re.sub(r"@attribute class numeric", "@attribute class {" + ",".join(labels) + "}", head, flags=re.I)
    nominal.write_text(head + "@data" + data)
    for algorithm in ("c45", "cart"):
        numbers = model(run, tmp_path, CPU, "-a", algorithm, "--task", "classification")
        named = model(run, tmp_path, nominal, "-a", algorithm)
        assert numbers == named
        assert numbers["schema"]["target"]["classes"] == labels and "198" in labels  # not 198.0


def test_task_classification_on_digits_is_the_text_labels_tree(run, tmp_path, digits):
    """0-9 read as classes grow the tree of the same labels written d0-d9, for every algorithm."""
    for algorithm in ("c45", "cart"):
        numbers = model(run, tmp_path, digits / "digits.csv", "-a", algorithm, "--task", "classification")
        text = model(run, tmp_path, digits / "digits-text.csv", "-a", algorithm)
        assert numbers == json.loads(re.sub(r'"d(\d)"', r'"\1"', json.dumps(text)))


def test_task_classification_on_cart_matches_scikit_learn(run, digits):
    from sklearn.tree import DecisionTreeClassifier

    data = np.loadtxt(digits / "digits.csv", delimiter=",", skiprows=1)
    fitted = DecisionTreeClassifier(random_state=0).fit(data[:, :-1], data[:, -1].astype(int))
    done = run("train", digits / "digits.csv", "-a", "cart", "--task", "classification")
    assert done.exit_code == 0
    summary = done.stderr.strip().splitlines()[-1]
    assert f"{fitted.get_n_leaves()} leaves" in summary and f"depth {fitted.get_depth()}" in summary


def test_one_number_written_two_ways_is_one_class(run, tmp_path):
    rows = ["x,1,1", "y,2,1.0", "x,3,2", "y,4,2.00", "x,5,1", "y,6,2"]
    mixed, plain = tmp_path / "mixed.csv", tmp_path / "plain.csv"
    mixed.write_text("a,b,y\n" + "\n".join(rows) + "\n")
    plain.write_text("a,b,y\n" + "\n".join(r.rsplit(",", 1)[0] + "," + r.rsplit(",", 1)[1][0] for r in rows) + "\n")
    assert model(run, tmp_path, mixed, "-a", "c45", "--task", "classification") == model(
        run, tmp_path, plain, "-a", "c45", "--task", "classification"
    )
    codes = tmp_path / "codes.csv"  # codes with a leading zero stay apart, as --nominal keeps them
    codes.write_text("a,y\nx,007\ny,7\nx,7\ny,007\n")
    assert model(run, tmp_path, codes, "-a", "c45", "--task", "classification")["schema"]["target"]["classes"] == [
        "007",
        "7",
    ]


def test_new_data_writes_a_number_class_another_way(run, tmp_path):
    """predict and evaluate read a class as training did: 1.0 is the model's class 1, while a code
    with a leading zero (01) and a number the model never saw (7) stay labels of their own."""
    train, test = tmp_path / "train.csv", tmp_path / "test.csv"
    train.write_text("a,y\nx,1\ny,0\nx,1\ny,0\nx,1\n")
    test.write_text("a,y\nx,1.0\ny,0.00\nx,01\ny,7\n")
    saved = tmp_path / "m.json"
    assert run("train", train, "--task", "classification", "-q", "-o", saved).exit_code == 0
    result = run("predict", saved, test, "-q", "-o", tmp_path / "out.csv", "--metrics-json", "-")
    metrics = json.loads(result.stdout)
    assert metrics["summary"]["correct"] == 2 and metrics["summary"]["total"] == 4
    seen = {entry["label"]: entry["seen"] for entry in metrics["classes"]}
    assert seen == {"1": True, "0": True, "01": False, "7": False}


# ---- CART's note on a numeric target that looks like classes


def test_cart_notes_a_digit_label_but_not_a_continuous_target(run, digits, diabetes):
    done = run("train", digits / "digits.csv", "-a", "cart")
    notes = [line for line in done.stderr.splitlines() if line.startswith("Note: ")]
    assert done.exit_code == 0 and len(notes) == 1
    assert "'digit' holds 10 distinct whole numbers" in notes[0] and "--task classification" in notes[0]
    assert "regression tree" in notes[0]
    assert "Note:" not in run("train", digits / "digits.csv", "-a", "cart", "-q").stderr
    assert "Note:" not in run("train", digits / "digits.csv", "-a", "cart", "--task", "regression").stderr
    assert "Note:" in run("evaluate", digits / "digits.csv", "-a", "cart", "--cv", "2").stderr
    for path in (diabetes / "diabetes.csv", diabetes / "diabetes.parquet", CPU):
        done = run("train", path, "-a", "cart")
        assert done.exit_code == 0 and "Note:" not in done.stderr


@pytest.mark.parametrize(
    ("values", "noted"),
    [
        (list(range(30)) * 2, 30),  # at most 30 whole numbers, two rows a value
        (list(range(31)) * 2, 0),  # 31 values
        (list(range(10)) + list(range(9)), 0),  # fewer than two rows a value
        ([0, 1] * 5 + [0.5], 0),  # a fraction
        ([3.0, 7.0] * 4, 2),
    ],
)
def test_class_like_rule(values, noted):
    from dtcli.model.table import NUMERIC, Attribute, Schema, Table
    from dtcli.model.targets import class_like

    y = np.array(values, dtype=np.float64)
    table = Table(Schema((Attribute("x", NUMERIC),), Attribute("y", NUMERIC)), [np.zeros(len(y))], y)
    assert class_like(table) == noted
