"""Rules: extraction (Zaki), post-pruning (Mitchell), application, and safe exports."""

from __future__ import annotations

import json
import sqlite3

import numpy as np
import pytest
from hypothesis import given, settings
from trees import case_table, fit, nominal_tables

from dtcli.induction.predict.apply import predict
from dtcli.induction.rules import extract, predict_rules, prune_rules
from dtcli.model.format.model import loads_model
from dtcli.model.rules import dumps_rules
from dtcli.model.table import NOMINAL, NUMERIC, Attribute, Schema, Table
from dtcli.render.rules import python, sql
from helpers import SAMPLES, WEKA, load


def test_zakis_three_rules():
    table = load(SAMPLES / "risk.csv", ignore=("Point",))
    tree, _ = fit(table, "cart", criterion="entropy")
    rules = extract(tree)
    texts = [(" AND ".join(c.text() for c in r.conditions), tree.classes[r.label]) for r in rules.rules]
    assert texts == [  # CART sends a missing value down the heavier branch (the first of equals): 'or missing'
        ("(Car = Sports or missing) AND Age <= 22.5", "H"),
        ("(Car = Sports or missing) AND (Age > 22.5 or missing)", "L"),
        ("Car in {Vintage, SUV}", "H"),
    ]


def test_numeric_conditions_merge_into_intervals():
    table = load(WEKA / "data" / "iris.arff")
    tree, _ = fit(table, "c45")
    conditions = [c.text() for r in extract(tree).rules for c in r.conditions]
    assert "0.6 < petalwidth <= 1.7" in conditions
    assert all(
        sum(c.attribute == a for c in r.conditions) <= 1
        for r in extract(tree).rules
        for a in ("petalwidth", "petallength")
    )


@pytest.mark.parametrize(
    "name, algorithm",
    [("contact-lenses", "id3"), ("iris", "c45"), ("glass", "cart"), ("weather.numeric", "c45"), ("unbalanced", "cart")],
)
def test_unpruned_rules_predict_what_the_tree_predicts(name, algorithm):
    table = load(WEKA / "data" / f"{name}.arff")
    tree, _ = fit(table, algorithm, prune="none")
    rules = extract(tree)
    labels, _ = predict_rules(rules, table)
    assert (labels == predict(tree, table)).all()
    fired = np.stack([r.matches(table) for r in rules.rules])
    assert (fired.sum(axis=0) == 1).all()  # every training row is covered exactly once


@settings(max_examples=60, deadline=None)
@given(nominal_tables())
def test_rules_cover_each_row_once_and_agree(case):
    _, _, labels, _ = case
    if len(set(labels)) < 2:
        return
    table = case_table(case)
    tree, _ = fit(table)
    rules = extract(tree)
    fired = np.stack([r.matches(table) for r in rules.rules])
    assert (fired.sum(axis=0) == 1).all()
    assert (predict_rules(rules, table)[0] == predict(tree, table)).all()


def test_mitchells_rule_keeps_its_preconditions(weather):
    tree, _ = fit(weather)
    pruned, drops = prune_rules(extract(tree), weather)
    sunny_high = [r for r in pruned.rules if [c.text() for c in r.conditions] == ["Outlook = Sunny", "Humidity = High"]]
    assert len(sunny_high) == 1  # dropping either precondition makes the estimate worse
    assert round(sunny_high[0].estimate, 3) == round(1 - (1 - 0.25 ** (1 / 3)), 3)  # 3 cases, no error
    assert [(d.rule, d.condition) for d in drops] == [(2, "Outlook = Sunny")]
    assert all(d.after >= d.before for d in drops)


@pytest.mark.parametrize("name", ["credit-g", "vote", "breast-cancer"])
def test_pruned_rules_never_estimate_worse(name):
    table = load(WEKA / "data" / f"{name}.arff")
    tree, _ = fit(table, "c45")
    original = extract(tree)
    pruned, _ = prune_rules(original, table)
    from dtcli.induction.rules import _estimate

    before = {i: _estimate(r.conditions, r.label, table, 0.25, "j48")[0] for i, r in enumerate(original.rules)}
    assert len(pruned.rules) <= len(original.rules)
    estimates = [r.estimate for r in pruned.rules]
    assert estimates == sorted(estimates, reverse=True)
    assert min(estimates) >= min(before.values()) - 1e-12
    assert pruned.parameters["pruned"] is True


def test_json_round_trip_into_predict(weather):
    tree, _ = fit(weather)
    ruleset, _ = prune_rules(extract(tree), weather)
    again = loads_model(dumps_rules(ruleset), "r.json")
    assert dumps_rules(again) == dumps_rules(ruleset)
    assert (predict_rules(again, weather)[0] == predict_rules(ruleset, weather)[0]).all()


def rows_of(table: Table) -> list[dict]:
    out = []
    for i in range(table.n_rows):
        row = {}
        for a, column in zip(table.attributes, table.columns):
            value = column[i]
            row[a.name] = (
                (a.values[value] if value >= 0 else None)
                if a.is_nominal
                else (None if np.isnan(value) else float(value))
            )
        out.append(row)
    return out


def run_python(code: str, rows: list[dict]) -> list[str]:
    namespace: dict = {}
    exec(compile(code, "<rules>", "exec"), namespace)  # the generated code only compares and returns
    return [namespace["predict"](row) for row in rows]


def run_sql(expression: str, table: Table, rows: list[dict]) -> list[str]:
    db = sqlite3.connect(":memory:")
    names = [a.name for a in table.attributes]
    quoted = ['"' + n.replace('"', '""') + '"' for n in names]
    db.execute(f"CREATE TABLE t ({', '.join(quoted)})")
    db.executemany(f"INSERT INTO t VALUES ({', '.join('?' * len(names))})", [[r[n] for n in names] for r in rows])
    result = [r[0] for r in db.execute(f"SELECT {expression} FROM t ORDER BY rowid")]
    db.close()
    return result


@pytest.mark.parametrize(
    "name, algorithm", [("weather.nominal", "id3"), ("iris", "c45"), ("risk", "cart"), ("labor", "c45")]
)
def test_python_and_sql_reproduce_predictions(name, algorithm):
    path = SAMPLES / "risk.csv" if name == "risk" else WEKA / "data" / f"{name}.arff"
    table = load(path, ignore=("Point",)) if name == "risk" else load(path)
    tree, _ = fit(table, algorithm, criterion="entropy" if algorithm == "cart" else None)
    ruleset, _ = prune_rules(extract(tree), table)
    expected = [table.classes[c] for c in predict_rules(ruleset, table)[0]]
    rows = rows_of(table)
    assert run_python(python(ruleset), rows) == expected
    assert run_sql(sql(ruleset), table, rows) == expected


HOSTILE = [
    'a"b',
    "x'); DROP TABLE t;--",
    "__import__('os').system('echo pwned')",
    "line\nbreak",
    "back\\slash",
    "naïve ünïcödé",
    "select",
    '"""',
    "}{",
    "' OR '1'='1",
]


@pytest.mark.parametrize("algorithm", ["c45", "cart"])  # cart: conditions marked missing, NOT IN the other values
def test_exports_survive_hostile_names_and_values(tmp_path, algorithm):
    rng = np.random.default_rng(0)
    n = 60
    values = tuple(HOSTILE[:4])
    classes = (HOSTILE[4], HOSTILE[5], HOSTILE[9])
    attributes = (
        Attribute(HOSTILE[0], NOMINAL, values),
        Attribute(HOSTILE[1], NUMERIC),
        Attribute(HOSTILE[2], NOMINAL, tuple(HOSTILE[6:9])),
        Attribute(HOSTILE[3], NUMERIC),
    )
    columns = [
        rng.integers(0, 4, n).astype(np.int32),
        rng.normal(0, 1, n),
        rng.integers(0, 3, n).astype(np.int32),
        rng.normal(5, 2, n),
    ]
    y = ((columns[0] % 2) + (columns[1] > 0)).astype(np.int32)
    table = Table(Schema(attributes, Attribute("class'\"\n", NOMINAL, classes)), columns, y)
    tree, _ = fit(table, "c45", min_leaf=1, prune="none") if algorithm == "c45" else fit(table, "cart")
    ruleset = extract(tree)
    assert len(ruleset.rules) > 2
    assert any(c.missing for r in ruleset.rules for c in r.conditions) == (algorithm == "cart")
    expected = [classes[c] for c in predict_rules(ruleset, table)[0]]
    rows = rows_of(table)
    code = python(ruleset)
    assert "pwned" not in code.replace(repr(HOSTILE[2]), "")  # the name only appears as a literal
    assert run_python(code, rows) == expected
    assert run_sql(sql(ruleset), table, rows) == expected
    doc = json.loads(dumps_rules(ruleset))
    assert doc["schema"]["attributes"][0]["name"] == HOSTILE[0]


def test_rules_command_formats(run, tmp_path):
    model = tmp_path / "w.json"
    run("train", SAMPLES / "weather.csv", "--ignore", "Day", "-q", "-o", model)
    text = run("rules", model)
    assert text.stdout.startswith("R1: IF Outlook = Sunny AND Humidity = High THEN PlayTennis = No\n")
    assert "R6: ELSE PlayTennis = Yes  (default)" in text.stdout
    pruned = run("rules", model, "--prune", "--data", SAMPLES / "weather.csv", "--trace")
    assert "R2: dropped Outlook = Sunny" in pruned.stderr
    assert "| rule | conditions |" in run("rules", model, "-f", "markdown").stdout
    assert run("rules", model, "-f", "csv").stdout.startswith("rule,conditions,class,cases,accuracy,estimate\n")
    rules_file = tmp_path / "r.json"
    run("rules", model, "--prune", "--data", SAMPLES / "weather.csv", "-f", "json", "-o", rules_file)
    applied = run("predict", rules_file, SAMPLES / "weather.csv")
    assert applied.exit_code == 0 and applied.stderr.startswith("Accuracy: 13/14")
    missing = run("rules", model, "--prune")
    assert missing.exit_code == 1 and "--data" in missing.stderr


def test_regression_rules_in_every_format(run, tmp_path):
    """Leaves {1, 2, 3} -> t 0, 0, 1 and {10, 11, 12} -> 5, 5, 6: means 1/3 and 16/3, the root's 17/6,
    each written with the digits that read back as that double."""
    data = tmp_path / "third.csv"
    data.write_text("x,t\n1,0\n2,0\n3,1\n10,5\n11,5\n12,6\n")
    model = tmp_path / "third.json"
    assert run("train", data, "-t", "t", "-a", "cart", "--max-depth", "1", "-q", "-o", model).exit_code == 0
    assert run("rules", model).stdout == (
        f"R1: IF (x <= 6.5 or missing) THEN t = {1 / 3!r}\n    3 cases\n"
        f"R2: IF x > 6.5 THEN t = {16 / 3!r}\n    3 cases\n"
        f"R3: ELSE t = {17 / 6!r}  (default)\n"
    )
    assert run("rules", model, "-f", "csv").stdout.splitlines()[:2] == [
        "rule,conditions,value,cases,accuracy,estimate",
        f"R1,(x <= 6.5 or missing),{1 / 3!r},3,-,",
    ]
    assert f"\\textbf{{THEN}} t $=$ {16 / 3!r}" in run("rules", model, "-f", "latex").stdout
    assert f"| R3 | (default) | {17 / 6!r} | 6 |" in run("rules", model, "-f", "markdown").stdout
    doc = json.loads(run("rules", model, "-f", "json").stdout)
    assert [r["value"] for r in doc["rules"]] == [1 / 3, 16 / 3] and doc["default"]["value"] == 17 / 6
    assert doc["rules"][0]["conditions"] == [{"attribute": "x", "at_most": 6.5, "missing": True}]
    assert doc["rules"][0]["counts"] == [3.0] and "class" not in doc["rules"][0]
    namespace: dict = {}
    exec(compile(run("rules", model, "-f", "python").stdout, "<rules>", "exec"), namespace)
    got = [namespace["predict"]({"x": x}) for x in ("2", "", None, "11", " 7 ")]
    assert got == [1 / 3, 1 / 3, 1 / 3, 16 / 3, 16 / 3]
    db = sqlite3.connect(":memory:")
    db.execute('CREATE TABLE t ("x" TEXT)')
    db.executemany("INSERT INTO t VALUES (?)", [("2",), ("",), (None,), ("11",), ("?",)])
    sql = run("rules", model, "-f", "sql").stdout
    assert [r[0] for r in db.execute(f"SELECT {sql} FROM t ORDER BY rowid")] == [1 / 3, 1 / 3, 1 / 3, 16 / 3, 1 / 3]
    pruned = run("rules", model, "--prune", "--data", data)
    assert pruned.exit_code == 1 and "rule post-pruning needs classes" in pruned.stderr
