"""dtree evaluate DATA --cv/--split/--test: train's options, reproducible folds, the same report for any --jobs."""

from __future__ import annotations

import json

import click
import numpy as np
import pytest

from dtcli.cli import cli
from dtcli.cli.training import training_options
from helpers import SAMPLES, WEKA

IRIS = SAMPLES / "iris.csv"


def report(run, *args):
    result = run("evaluate", *args, "-f", "json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def options_of(name: str) -> dict:
    command = cli.get_command(click.Context(cli), name)
    return {p.name: (tuple(p.opts), p.help, p.default) for p in command.params if isinstance(p, click.Option)}


def test_evaluate_takes_exactly_trains_learning_options():
    learning = {p.name for p in training_options(lambda **kw: None).__click_params__}
    train, evaluate = options_of("train"), options_of("evaluate")
    assert learning and learning <= set(train) and learning <= set(evaluate)
    assert {name: train[name] for name in learning} == {name: evaluate[name] for name in learning}


def test_ten_fold_cross_validation_by_default_pools_every_row(run):
    doc = report(run, IRIS, "-a", "c45")
    about = doc["about"]
    assert (about["method"], about["folds"], about["seed"], about["algorithm"]) == ("cross-validation", 10, 0, "c45")
    assert doc["summary"]["total"] == 150 and doc["summary"]["parts"] == 10
    assert np.sum(doc["confusion_matrix"]["counts"], axis=1).tolist() == [50, 50, 50]
    folds = about["fold_accuracy"]["values"]
    assert len(folds) == 10 and about["fold_accuracy"]["mean"] == pytest.approx(np.mean(folds))
    assert about["fold_accuracy"]["sd"] == pytest.approx(np.std(folds, ddof=1))
    nodes = about["tree_size"]["values"]
    assert about["tree_size"]["mean"] == pytest.approx(np.mean(nodes))


def test_the_seed_draws_the_folds(run):
    a, b, c = (report(run, IRIS, "-a", "c45", "--cv", "5", "--seed", s)["about"] for s in (4, 4, 5))
    assert a == b
    assert a["fold_accuracy"]["values"] != c["fold_accuracy"]["values"]


def test_the_report_is_byte_identical_for_any_number_of_processes(run):
    data = WEKA / "data" / "diabetes.arff"
    outputs = set()
    for jobs in ("1", "2", "3"):
        result = run("evaluate", data, "-a", "c45", "--cv", "5", "--jobs", jobs)
        assert result.exit_code == 0, result.stderr
        outputs.add(result.stdout)
    assert len(outputs) == 1


def test_a_test_file_is_judged_by_the_tree_train_grows(run, tmp_path):
    trained = run("train", IRIS, "-a", "cart", "--max-depth", "2", "-qo", tmp_path / "m.json")
    assert trained.exit_code == 0
    doc = report(run, IRIS, "-a", "cart", "--max-depth", "2", "--test", IRIS)
    judged = report(run, tmp_path / "m.json", IRIS)
    assert doc["about"]["tree_size"]["values"] == [5]
    assert doc["summary"] == judged["summary"] and doc["confusion_matrix"] == judged["confusion_matrix"]


def test_a_percentage_split_tests_the_rest(run):
    doc = report(run, IRIS, "-a", "c45", "--split", "0.66")
    assert doc["about"]["method"] == "split" and doc["summary"]["total"] == 150 - 99


def test_rows_without_a_class_are_left_out_with_a_warning(run, tmp_path):
    text = IRIS.read_text().splitlines()
    text[5] = text[5].rsplit(",", 1)[0] + ",?"
    (tmp_path / "d.csv").write_text("\n".join(text) + "\n")
    result = run("evaluate", tmp_path / "d.csv", "-a", "c45", "-f", "json")
    assert json.loads(result.stdout)["summary"]["total"] == 149
    assert "1 row(s) without a class value were left out" in result.stderr
