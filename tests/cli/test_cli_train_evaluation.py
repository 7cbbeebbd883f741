"""train's training-set line, and train --cv/--split/--test: the evaluate report after the tree, as J48 prints it."""

from __future__ import annotations

import json

from helpers import SAMPLES, WEKA

IRIS = SAMPLES / "iris.csv"


def ok(result):
    assert result.exit_code == 0, result.stderr
    return result


def test_the_training_set_line_is_j48s_training_accuracy(run):
    # Weka 3.6.14, J48 -t iris.arff: "=== Error on training data ===  Correctly Classified Instances 147  98 %"
    result = ok(run("train", WEKA / "data" / "iris.arff", "-a", "c45", "-q"))
    assert result.stderr.splitlines()[-2] == "Training set: 147 of 150 correct (98.0%)"


def test_a_regression_tree_reports_its_training_errors(run, tmp_path):
    (tmp_path / "r.csv").write_text("x,y\n1,1\n2,1\n3,5\n4,5\n")
    result = ok(run("train", tmp_path / "r.csv", "-a", "cart", "-q"))
    assert result.stderr.splitlines()[-2] == "Training set: RMSE 0, MAE 0 on 4 rows"  # two pure leaves


def test_cv_prints_evaluates_report_after_the_tree(run):
    options = ("-a", "c45", "--cv", "5", "--seed", "3")
    trained = ok(run("train", IRIS, *options, "-f", "text"))
    tree = ok(run("train", IRIS, "-a", "c45", "-f", "text")).stdout
    report = ok(run("evaluate", IRIS, *options)).stdout
    assert trained.stdout == tree + "\n" + report
    assert ok(run("train", IRIS, *options, "-q")).stdout == report


def test_with_the_model_on_stdout_the_report_goes_to_stderr(run):
    result = ok(run("train", IRIS, "-a", "c45", "--cv", "3", "-f", "json"))
    assert json.loads(result.stdout)["format"] == "dtree-model"
    assert "=== Stratified cross-validation ===" in result.stderr


def test_test_file_and_split_report_as_evaluate_does(run):
    for scheme in (("--test", WEKA / "data" / "iris.arff"), ("--split", "0.5")):
        trained = ok(run("train", IRIS, "-a", "cart", *scheme, "-q"))
        assert trained.stdout == ok(run("evaluate", IRIS, "-a", "cart", *scheme)).stdout


def test_cv_and_cv_folds_are_different_options(run):
    result = ok(run("train", IRIS, "-a", "cart", "--cv-folds", "5", "--cv", "4", "-q"))
    assert "Cost-complexity pruning, 5-fold cross-validation" in result.stderr
    assert "Folds:              4" in result.stdout
