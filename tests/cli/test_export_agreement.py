"""Exported Python and SQL against ``dtree predict``, row for row, on every sample and Weka table.

Each table is written as CSV (missing cells empty or ``?``), a tree is trained on it, and
the rules' Python is run on the rows as ``csv`` reads them, their SQL in SQLite over a
table with typed columns (missing: NULL) and over an all-TEXT one as ``sqlite3 .import``
makes (missing: '' or '?'). Every row must get what ``dtree predict`` gives it, but the
rows the one-line warning of ``dtree rules --data`` counts: exactly that many differ.
"""

from __future__ import annotations

import csv
import json
import math
import re
import sqlite3

import numpy as np
import pytest

from dtcli.io.columns import NumberColumn
from dtcli.io.read import read_data
from helpers import SAMPLES, WEKA

TABLES = sorted(SAMPLES.glob("*.csv")) + sorted(SAMPLES.glob("*.arff")) + sorted((WEKA / "data").glob("*.arff"))
RUNS = (("-a", "c45"), ("-a", "cart"), ("-a", "id3", "--missing", "majority"))
FILLED = (("-a", "c45", "--missing", "class-majority"),)  # also, on tables with missing values
COUNT = re.compile(r"the rules (?:classify|predict) (\d+) of (\d+) rows otherwise than the tree")


def cells_of(path) -> tuple[list[str], list[list[str | None]]]:
    """The header and rows of a table as text cells (None: missing); numbers written exactly."""
    frame = read_data(str(path)).frame
    names = list(frame.columns)
    columns = []
    for name in names:
        column = frame[name]
        if isinstance(column, NumberColumn):
            columns.append([None if v != v else repr(float(v)) for v in column.values.tolist()])
        else:
            columns.append(column.tolist())
    return names, [list(row) for row in zip(*columns)]


def write_csv(path, names, rows) -> list[dict]:
    """The table as CSV, a missing cell empty or (every third row) ``?``; the rows as ``csv`` reads them."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(names)
        for i, row in enumerate(rows):
            writer.writerow(["?" if c is None and i % 3 == 0 else "" if c is None else c for c in row])
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def predicted(run, model, data) -> list:
    result = run("predict", model, data, "-f", "json", "-q")
    assert result.exit_code == 0, result.stderr
    return [record["prediction"] for record in json.loads(result.stdout)["predictions"]]


def exported(run, model, data, fmt) -> tuple[str, int | None]:
    """The rules in ``fmt`` and the number of rows the warning says differ (None: no warning)."""
    result = run("rules", model, "--data", data, "-f", fmt)
    assert result.exit_code == 0, result.stderr
    found = COUNT.search(result.stderr)
    assert result.stderr.count("\n") <= 1 and (found is not None) == bool(result.stderr), result.stderr
    return result.stdout, None if found is None else int(found.group(1))


def python_predictions(code: str, rows: list[dict]) -> list:
    namespace: dict = {}
    exec(compile(code, "<rules>", "exec"), namespace)  # the generated code only compares and returns
    return [namespace["predict"](row) for row in rows]


def quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def sql_predictions(expression: str, schema: dict, rows: list[dict], typed: bool) -> list:
    """The CASE expression over ``rows`` in SQLite: ``typed``, REAL columns for numeric attributes
    and NULL for a missing cell; else all-TEXT columns holding the cells as written."""
    names = list(rows[0]) if rows else [a["name"] for a in schema["attributes"]]
    numeric = {a["name"] for a in schema["attributes"] if a["kind"] == "numeric"}
    types = [("REAL" if typed and name in numeric else "TEXT") for name in names]
    db = sqlite3.connect(":memory:")
    db.execute(f"CREATE TABLE t ({', '.join(f'{quoted(n)} {k}' for n, k in zip(names, types))})")

    def cell(name, value):
        if not typed:
            return value
        if value.strip() in ("", "?"):
            return None
        return float(value) if name in numeric else value

    db.executemany(
        f"INSERT INTO t VALUES ({', '.join('?' * len(names))})", [[cell(n, r[n]) for n in names] for r in rows]
    )
    out = [r[0] for r in db.execute(f"SELECT {expression} FROM t ORDER BY rowid")]
    db.close()
    return out


def check(run, tmp_path, data, rows, train_args) -> str | None:
    """Train, export, compare; returns why the run does not apply (training refused), else None."""
    model = tmp_path / "model.json"
    trained = run("train", data, *train_args, "-q", "-o", model)
    if trained.exit_code == 1:  # refused with one line, e.g. ID3 and a numeric column
        return trained.stderr
    assert trained.exit_code == 0, trained.stderr
    schema = json.loads(model.read_text())["schema"]
    expected = predicted(run, model, data)
    code, python_count = exported(run, model, data, "python")
    sql, sql_count = exported(run, model, data, "sql")
    rules_json, json_count = exported(run, model, data, "json")
    assert python_count == sql_count == json_count
    said = python_count or 0
    rules = tmp_path / "rules.json"
    rules.write_text(rules_json)
    outputs = {
        "json rules": predicted(run, rules, data),
        "python": python_predictions(code, rows),
        "sql typed": sql_predictions(sql, schema, rows, typed=True),
        "sql text": sql_predictions(sql, schema, rows, typed=False),
    }
    for what, got in outputs.items():
        differ = [i for i, (a, b) in enumerate(zip(expected, got)) if a != b]
        assert len(got) == len(expected)
        assert len(differ) == said, (what, train_args, differ[:5], [(expected[i], got[i]) for i in differ[:5]])
    return None


@pytest.mark.parametrize("path", TABLES, ids=lambda p: p.name)
def test_exports_agree_with_predict_on_every_table(run, tmp_path, path):
    names, rows = cells_of(path)
    data = tmp_path / "data.csv"
    dicts = write_csv(data, names, rows)
    runs = RUNS + (FILLED if any(None in row for row in rows) else ())
    refused = [check(run, tmp_path, data, dicts, args) for args in runs]
    assert refused.count(None) >= 1, refused  # at least one algorithm applies to every table


def generated(seed: int, n: int = 300, regression: bool = False) -> tuple[list[str], list[list[str | None]]]:
    """A table with numeric and nominal columns, about a sixth of the cells missing, numbers of 17
    digits (exact only if read exactly), values with spaces, and a class or number to predict."""
    rng = np.random.default_rng(seed)
    x = rng.normal(0, 1, n) * 10.0 ** rng.integers(-3, 4)
    z = rng.uniform(-1, 1, n)
    colour = rng.choice(["red", "dark green", "blue", "it's"], n)
    size = rng.choice(["S", "M", "L"], n)
    if regression:
        target = [repr(float(v)) for v in (x > 0) * 2.5 + (colour == "red") * z + rng.normal(0, 0.1, n)]
    else:
        target = np.where((x > 0) ^ (colour == "red"), "yes", np.where(z > 0.3, "maybe", "no")).tolist()
    columns = [[repr(float(v)) for v in x], [repr(float(v)) for v in z], colour.tolist(), size.tolist()]
    for column in columns:
        for i in np.flatnonzero(rng.random(n) < 0.17).tolist():
            column[i] = None
    names = ["x value", "z", "colour", "size", "target"]
    return names, [list(row) for row in zip(*columns, target)]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("regression", [False, True], ids=["classes", "numbers"])
def test_exports_agree_on_generated_tables_with_missing_values(run, tmp_path, seed, regression):
    names, rows = generated(seed, regression=regression)
    data = tmp_path / "data.csv"
    dicts = write_csv(data, names, rows)
    runs = [("-a", "cart")] + ([] if regression else [("-a", "c45"), ("-a", "c45", "--missing", "majority")])
    runs += [("-a", "cart", "--missing", "fractional")]
    for args in runs:
        assert check(run, tmp_path, data, dicts, args) is None


def test_unseen_values_go_where_predict_sends_them(run, tmp_path):
    """A nominal value never seen in training is missing to predict: the exports agree on it too."""
    names, rows = generated(4)
    train = tmp_path / "train.csv"
    write_csv(train, names, rows)
    for row in rows[:40]:
        row[2] = "purple"  # never seen
        row[3] = " M " if row[3] else row[3]  # spaces around a value are not part of it
    data = tmp_path / "data.csv"
    dicts = write_csv(data, names, rows[:80])
    for args in (("-a", "cart"), ("-a", "c45", "--missing", "majority"), ("-a", "c45")):
        model = tmp_path / "model.json"
        assert run("train", train, *args, "-q", "-o", model).exit_code == 0
        expected = predicted(run, model, data)
        code, count = exported(run, model, data, "python")
        sql, _ = exported(run, model, data, "sql")
        schema = json.loads(model.read_text())["schema"]
        for got in (
            python_predictions(code, dicts),
            sql_predictions(sql, schema, dicts, typed=True),
            sql_predictions(sql, schema, dicts, typed=False),
        ):
            assert sum(a != b for a, b in zip(expected, got)) == (count or 0)


def test_sql_compares_text_columns_as_numbers(run, tmp_path):
    """The issue's case: as TEXT, '9.5' > '10.5'; the exported SQL compares the numbers."""
    data = tmp_path / "t.csv"
    data.write_text("x,c\n" + "".join(f"{v},{'a' if v < 10 else 'b'}\n" for v in (2, 5, 9.5, 10.5, 20, 100)))
    model = tmp_path / "m.json"
    run("train", data, "-a", "cart", "-q", "-o", model)
    sql = run("rules", model, "-f", "sql").stdout
    cells = ("9.5", "10.5", "100", "", "?", " 2 ", "inf", "-Infinity", "+INF", "1e400")
    (tmp_path / "new.csv").write_text("x\n" + "".join(f'"{v}"\n' for v in cells))
    assert predicted(run, model, tmp_path / "new.csv") == ["a", "b", "b", "a", "a", "a", "b", "a", "b", "b"]
    rows = [{"x": v} for v in cells]
    schema = {"attributes": [{"name": "x", "kind": "numeric"}]}
    got = sql_predictions(sql, schema, rows, typed=False)  # missing: the heavier branch (3 rows each: the first)
    assert got == ["a", "b", "b", "a", "a", "a", "b", "a", "b", "b"]  # SQLite's CAST reads 'inf' as 0
    assert sql_predictions(sql, schema, rows, typed=True) == got  # REAL columns, infinities as such
    assert math.isfinite(float(re.search(r"<= ([0-9.]+)", sql).group(1)))


def test_the_warning_without_data(run, tmp_path):
    """One line for a C4.5 tree (fractional cases); none for CART (its rules reproduce the tree) nor
    for ID3's reject (its training rows have no missing values)."""
    for args, warned in ((("-a", "c45"), True), (("-a", "cart"), False), (("--ignore", "Day"), False)):
        model = tmp_path / "m.json"
        assert run("train", SAMPLES / "weather.csv", *args, "-q", "-o", model).exit_code == 0
        result = run("rules", model, "-f", "sql")
        assert result.exit_code == 0
        if warned:
            assert result.stderr.startswith("Warning: the rules may classify a row with a missing value otherwise")
            assert result.stderr.count("\n") == 1
        else:
            assert result.stderr == ""


def test_true_and_false_match_in_any_case_in_predict_and_the_exports(run, tmp_path):
    """A Parquet boolean reads true/false, pandas writes True/False: the same column, for predict and
    for the rules' Python and SQL."""
    train = tmp_path / "train.csv"
    rows = [("True" if i % 3 else "False", str(i % 7), "yes" if i % 3 else "no") for i in range(60)]
    train.write_text("flag,n,class\n" + "".join(",".join(r) + "\n" for r in rows))
    new = tmp_path / "new.csv"
    cells = ["true", "FALSE", "True", "false", "tRuE", "maybe", ""]
    new.write_text("flag,n,class\n" + "".join(f"{c},{i},yes\n" for i, c in enumerate(cells)))
    model = tmp_path / "m.json"
    for algorithm in ("c45", "cart"):
        assert run("train", train, "-a", algorithm, "-q", "-o", model).exit_code == 0
        expected = predicted(run, model, new)
        assert expected[:5] == ["yes", "no", "yes", "no", "yes"], (algorithm, expected)
        schema = json.loads(model.read_text())["schema"]
        dicts = list(csv.DictReader(new.read_text().splitlines()))
        code, _ = exported(run, model, new, "python")
        sql, _ = exported(run, model, new, "sql")
        assert python_predictions(code, dicts) == expected
        assert sql_predictions(sql, schema, dicts, typed=True) == expected
        assert sql_predictions(sql, schema, dicts, typed=False) == expected


def test_a_decimal_comma_file_is_read_by_the_exports_as_by_predict(run, tmp_path):
    """A ; file with decimal commas, as sqlite3 .import keeps it (TEXT cells '22,2'): SQLite's CAST read
    22 (another class than predict's 22.2), the Python export raised ValueError."""
    data = tmp_path / "t.csv"
    data.write_bytes(b"Temp;Play\r\n20,5;No\r\n21,0;No\r\n21,5;No\r\n22,5;Yes\r\n23,0;Yes\r\n23,5;Yes\r\n")
    model = tmp_path / "m.json"
    assert run("train", data, "-a", "cart", "-q", "-o", model).exit_code == 0
    cells = ("22,2", "21,9", "22,0", "23", "20,25", "?", "")
    new = tmp_path / "new.csv"
    new.write_bytes(b"Temp;Play\r\n" + b"".join(f"{v};x\r\n".encode() for v in cells))
    expected = predicted(run, model, new)
    assert expected[:4] == ["Yes", "No", "No", "Yes"]  # (the threshold: 22, between 21,5 and 22,5)
    rows = [{"Temp": v} for v in cells]
    schema = json.loads(model.read_text())["schema"]
    sql = run("rules", model, "-f", "sql").stdout
    assert sql_predictions(sql, schema, rows, typed=False) == expected
    assert python_predictions(run("rules", model, "-f", "python").stdout, rows) == expected


def test_a_decimal_comma_files_categories_keep_their_commas(run, tmp_path):
    """--nominal Note in a ; file of grades 1,0 .. 5,0: the tree printed 4.0, a value the file does not
    hold, and the exports compared the file's '4,0' with '4.0', so no rule fired (every row the default)."""
    data = tmp_path / "noten.csv"
    data.write_bytes(b"Note;Ergebnis\r\n1,0;gut\r\n1,3;gut\r\n4,0;nicht\r\n5,0;nicht\r\n1,0;gut\r\n4,0;nicht\r\n")
    model = tmp_path / "m.json"
    shown = run("train", data, "--nominal", "Note", "-a", "id3", "-o", model)
    assert shown.exit_code == 0 and "Note = 4,0 [gut 0, nicht 2] → nicht" in shown.stdout, shown.stdout
    assert json.loads(model.read_text())["schema"]["attributes"][0]["values"] == ["1,0", "1,3", "4,0", "5,0"]
    expected = predicted(run, model, data)
    assert expected == ["gut", "gut", "nicht", "nicht", "gut", "nicht"]
    rows = [{"Note": cells.split(";")[0]} for cells in data.read_text().splitlines()[1:]]
    schema = json.loads(model.read_text())["schema"]
    assert sql_predictions(run("rules", model, "-f", "sql").stdout, schema, rows, typed=False) == expected
    assert python_predictions(run("rules", model, "-f", "python").stdout, rows) == expected


def test_dates_in_another_iso_form_go_where_predict_sends_them(run, tmp_path):
    """A model of dates (written as dates) and cells written as date-times, with a space or a T, Z or an
    offset, as predict reads them: the exports compared the text, so '2024-03-10T00:00:00' was after
    '2024-03-10' and '2024-03-10 12:00:00' before '2024-03-10T11:00:00'."""
    from datetime import date, timedelta

    start = date(2024, 3, 1)
    rows = [f"{start + timedelta(days=i)},{'early' if i < 9 else 'late'}" for i in range(20)]
    data = tmp_path / "d.csv"
    data.write_text("when,cls\n" + "\n".join(rows) + "\n")
    model = tmp_path / "m.json"
    assert run("train", data, "-a", "cart", "-q", "-o", model).exit_code == 0
    cells = [
        "2024-03-09",
        "2024-03-09T00:00:00",
        "2024-03-09 00:00:00",
        "2024-03-09T12:00:00",
        "2024-03-10 12:00:00",
        "2024-03-09T23:59:59Z",
        "2024-03-10T00:30:00+01:00",
        "2024-03-10T00:30:00+00:00",
        "2024-03-10",
    ]
    new = tmp_path / "new.csv"
    new.write_text("when\n" + "\n".join(cells) + "\n")
    expected = predicted(run, model, new)
    assert len(set(expected)) == 2, expected  # (both sides of the threshold are probed)
    rows = [{"when": cell} for cell in cells]
    schema = json.loads(model.read_text())["schema"]
    assert python_predictions(run("rules", model, "-f", "python").stdout, rows) == expected
    assert sql_predictions(run("rules", model, "-f", "sql").stdout, schema, rows, typed=False) == expected
