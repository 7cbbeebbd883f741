"""Smaller command-line points: quoted names in suggestions, aliases, did-you-mean, swapped arguments, titles."""

from __future__ import annotations

import json
import shlex

import pytest

from helpers import SAMPLES

WEATHER = SAMPLES / "weather.csv"


@pytest.fixture
def model(run, tmp_path):
    path = tmp_path / "m.json"
    assert run("train", WEATHER, "--ignore", "Day", "-q", "-o", path).exit_code == 0
    return path


def test_a_suggested_option_quotes_the_column_name(run, tmp_path):
    (tmp_path / "t.csv").write_text("sepal length (cm),it's,class\n1.5,a,x\n2.5,b,y\n")
    result = run("train", tmp_path / "t.csv", "--ignore", "it's")
    assert result.exit_code == 1
    assert "--nominal 'sepal length (cm)'" in result.stderr
    suggested = result.stderr.split("--ignore ", 1)[1].strip()
    assert shlex.split(suggested) == ["sepal length (cm)"]  # pasted into a shell, one word


@pytest.mark.parametrize("name", ["j48", "J48", "C4.5", "c4.5", "C45"])
def test_algorithm_aliases(run, tmp_path, name):
    out = tmp_path / "a.json"
    result = run("train", SAMPLES / "iris.csv", "-a", name, "-q", "-o", out)
    assert result.exit_code == 0, result.stderr
    assert json.loads(out.read_text())["algorithm"] == "c45"


@pytest.mark.parametrize("spelling", [("-aJ48",), ("--algorithm=C4.5",), ("--algorithm", "c4.5")])
def test_algorithm_alias_spellings(run, tmp_path, spelling):
    out = tmp_path / "a.json"
    assert run("train", SAMPLES / "iris.csv", *spelling, "-q", "-o", out).exit_code == 0
    assert json.loads(out.read_text())["algorithm"] == "c45"


def test_algorithm_in_any_case_in_gain(run):
    upper, lower = (
        run("gain", WEATHER, "--ignore", "Day", "-a", "CART"),
        run("gain", WEATHER, "--ignore", "Day", "-a", "cart"),
    )
    assert upper.exit_code == 0 and upper.stdout == lower.stdout


def test_algorithm_alias_in_evaluate(run):
    result = run("evaluate", SAMPLES / "iris.csv", "-a", "J48", "--split", "0.66")
    assert result.exit_code == 0, result.stderr
    assert "Algorithm:          c45" in result.stdout


def test_a_misspelt_command_suggests_the_closest(run):
    result = run("trian", WEATHER)
    assert result.exit_code == 2
    assert "Error: No such command 'trian'. Did you mean 'train'?" in result.stderr


def test_an_unknown_command_far_from_any_says_so(run):
    result = run("xyzzy")
    assert result.exit_code == 2 and "No such command 'xyzzy'." in result.stderr and "Did you mean" not in result.stderr


@pytest.mark.parametrize("command", ["predict", "evaluate"])
def test_swapped_model_and_data_suggest_the_order(run, model, command):
    result = run(command, WEATHER, model)
    assert result.exit_code == 1
    assert result.stderr == (
        f"Error: {WEATHER}: is DATA, and {model} the model: MODEL comes first; did you mean "
        f"dtree {command} {shlex.quote(str(model))} {shlex.quote(str(WEATHER))}\n"
    )


def test_explain_format_implies_explain(run):
    alone = run("gain", WEATHER, "--ignore", "Day", "--explain-format", "markdown")
    both = run("gain", WEATHER, "--ignore", "Day", "--explain", "--explain-format", "markdown")
    assert alone.exit_code == 0 and alone.stdout == both.stdout
    assert alone.stdout.startswith("## PlayTennis")


def test_proba_on_a_regression_tree_is_refused(run, tmp_path):
    (tmp_path / "r.csv").write_text("x,y\n1,1.5\n2,2.5\n3,7\n4,8\n")
    assert run("train", tmp_path / "r.csv", "-a", "cart", "-q", "-o", tmp_path / "r.json").exit_code == 0
    result = run("predict", tmp_path / "r.json", tmp_path / "r.csv", "--proba")
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: --proba: ") and "regression tree" in result.stderr
    assert result.stdout == ""


def test_plot_without_matplotlib_fails_before_the_work(run, tmp_path, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    model = tmp_path / "m.json"
    assert run("train", WEATHER, "--ignore", "Day", "-q", "-o", model).exit_code == 0
    result = run("prune", model, "--method", "reduced-error", "--validation", "missing.csv", "--curve",
                 "--plot", tmp_path / "c.svg")  # fmt: skip
    assert result.exit_code == 1
    assert result.stderr == "Error: --plot needs matplotlib: pip install 'dtree[plot]' (or pip install matplotlib)\n"


def test_one_tree_has_a_size_not_a_mean(run):
    result = run("evaluate", SAMPLES / "iris.csv", "-a", "c45", "--split", "0.66")
    lines = result.stdout.splitlines()
    size = next(line for line in lines if line.startswith("Tree size:"))
    assert "mean" not in size and size.split()[-1].isdigit()


def test_regression_cross_validation_is_not_called_stratified(run, tmp_path):
    rows = "\n".join(f"{i},{i % 7},{(i * 3) % 11 + 0.5}" for i in range(60))
    (tmp_path / "r.csv").write_text("a,b,y\n" + rows + "\n")
    result = run("evaluate", tmp_path / "r.csv", "-a", "cart", "--cv", "3")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("=== Cross-validation ===\n")
    classified = run("evaluate", SAMPLES / "iris.csv", "-a", "c45", "--cv", "3")
    assert classified.stdout.startswith("=== Stratified cross-validation ===\n")
    assert "Tree size:          mean " in classified.stdout


def test_predict_json_carries_its_warnings(run, model, tmp_path):
    (tmp_path / "new.csv").write_text("Outlook,Temperature,Humidity,Wind\nFoggy,Hot,High,Weak\n")
    result = run("predict", model, tmp_path / "new.csv", "-f", "json")
    expected = f"{tmp_path / 'new.csv'}: column 'Outlook': 1 value(s) never seen in training, treated as missing"
    assert json.loads(result.stdout)["warnings"] == [expected]
    assert f"Warning: {expected}\n" in result.stderr
    clean = run("predict", model, WEATHER, "-f", "json", "-q")
    assert json.loads(clean.stdout)["warnings"] == []
