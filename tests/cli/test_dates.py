"""Dates read as time (issue 39): ISO 8601 cells in CSV and ARFF date attributes become numeric, their
thresholds print as dates that keep <= and > exact, and the model keeps the format for predict."""

from __future__ import annotations

import json
import random
import re
from datetime import date, datetime, timedelta, timezone

import pytest

from helpers import WEKA

DATES = WEKA / "dates"


def table(tmp_path, rows=80, seed=3):
    """A CSV with a date column that decides the class (with noise), a date-time column and a nominal one;
    also the rows as (date, date-time, class), parsed here with the standard library."""
    rng = random.Random(seed)
    parsed, lines = [], ["day,stamp,g,class"]
    for _ in range(rows):
        d = date(2024, 1, 1) + timedelta(days=rng.randrange(150))
        t = datetime(2024, 3, 1, 8, 0) + timedelta(minutes=rng.randrange(900))
        c = "late" if (d >= date(2024, 3, 10)) != (rng.random() < 0.05) else "early"
        parsed.append((d, t, c))
        lines.append(f"{d.isoformat()},{t:%Y-%m-%dT%H:%M},{rng.choice('xyz')},{c}")
    path = tmp_path / "dates.csv"
    path.write_text("\n".join(lines) + "\n")
    return path, parsed


def root_cut(stdout: str, name: str) -> str:
    return re.search(rf"{name} <= (\d{{4}}-\d{{2}}-\d{{2}}(?:T\d{{2}}:\d{{2}})?)", stdout).group(1)


@pytest.mark.parametrize("algorithm", ["c45", "cart"])
def test_the_root_splits_on_the_date_at_a_date_and_the_split_is_exact(run, tmp_path, algorithm):
    path, parsed = table(tmp_path)
    result = run("train", path, "-a", algorithm, "--max-depth", "1", "-f", "text")
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    cut = root_cut(first, "day")
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", cut)
    # brute force: the counts printed on each side are the rows whose date is <= / > the printed date
    at_most = [c for d, _, c in parsed if d <= date.fromisoformat(cut)]
    above = [c for d, _, c in parsed if d > date.fromisoformat(cut)]
    best = max(len(at_most), len(above))
    assert at_most and above and best < len(parsed)
    for side, rows in (("<=", at_most), (">", above)):
        line = next(x for x in result.stdout.splitlines() if f"day {side} {cut}" in x)
        assert f"({len(rows)}.0" in line
    # and it is the cut between two dates of the data with the fewest errors a one-split tree can make
    errors = min(at_most.count("early"), at_most.count("late")) + min(above.count("early"), above.count("late"))
    assert errors <= 8


def test_date_times_split_on_a_whole_minute_and_predict_agrees(run, tmp_path):
    path, parsed = table(tmp_path, rows=40, seed=5)
    model = tmp_path / "m.json"
    assert run("train", path, "-a", "cart", "--ignore", "day", "-q", "-o", model).exit_code == 0
    shown = run("show", model, "-f", "text").stdout
    cut = root_cut(shown, "stamp")
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}", cut)
    threshold = json.loads(model.read_text())["root"]["test"]["threshold"]
    printed = datetime.fromisoformat(cut).replace(tzinfo=timezone.utc).timestamp()
    # every whole minute is on the same side of the stored threshold as of the printed one
    assert printed <= threshold < printed + 60


def test_gain_rules_and_pictures_show_dates(run, tmp_path):
    path, _ = table(tmp_path)
    gain = run("gain", path, "-q")
    assert re.search(r"day\s+│ <= 2024-\d{2}-\d{2} \[", gain.stdout), gain.stdout
    assert re.search(r"stamp\s+│ <= 2024-03-\d{2}T\d{2}:\d{2} \[", gain.stdout)
    model = tmp_path / "m.json"
    assert run("train", path, "-a", "c45", "-q", "-o", model).exit_code == 0
    rules = run("rules", model)
    assert re.search(r"IF day <= 2024-\d{2}-\d{2} ", rules.stdout), rules.stdout
    for fmt in ("svg", "dot", "mermaid"):
        picture = run("show", model, "-f", fmt).stdout
        assert re.search(r"(&lt;|<|#60;)= 2024-\d{2}-\d{2}\b", picture), fmt
        assert "17" not in re.findall(r"= (\d+)", picture)  # no seconds since the epoch


def test_the_model_keeps_the_format_and_predict_reads_new_dates(run, tmp_path):
    path, _ = table(tmp_path)
    model = tmp_path / "m.json"
    assert run("train", path, "-a", "c45", "--max-depth", "1", "-q", "-o", model).exit_code == 0
    doc = json.loads(model.read_text())
    day = next(a for a in doc["schema"]["attributes"] if a["name"] == "day")
    assert day["kind"] == "numeric"
    assert day["date"] == {"format": "yyyy-MM-dd", "unit": "seconds since 1970-01-01T00:00:00Z"}
    cut = date.fromisoformat(root_cut(run("show", model, "-f", "text").stdout, "day"))
    expected = {
        side: re.search(rf"day {side} {cut}: (\w+)", run("show", model, "-f", "text").stdout).group(1)
        for side in ("<=", ">")
    }
    new = tmp_path / "new.csv"
    days = [cut, cut + timedelta(days=1), cut - timedelta(days=30)]
    new.write_text("day,stamp,g\n" + "".join(f"{d},2024-03-01T09:00,x\n" for d in days))
    predicted = [line.split(",")[-1] for line in run("predict", model, new).stdout.splitlines()[1:]]
    assert predicted == [expected["<="], expected[">"], expected["<="]]
    bad = tmp_path / "bad.csv"
    bad.write_text("day,stamp,g\n2024-02-30,2024-03-01T09:00,x\n")
    refused = run("predict", model, bad)
    assert refused.exit_code == 1
    assert "column 'day' must be dates written yyyy-MM-dd for this model, but line 2 holds '2024-02-30'" in (
        refused.output
    )


def test_old_models_without_dates_load_unchanged(run, tmp_path):
    path = tmp_path / "n.csv"
    path.write_text("x,c\n1,a\n2,a\n3,b\n4,b\n")
    model = tmp_path / "m.json"
    assert run("train", path, "-a", "cart", "-q", "-o", model).exit_code == 0
    assert "date" not in model.read_text()
    assert run("show", model, "-f", "text").stdout.startswith("x <= 2.5")


def test_nominal_keeps_a_date_column_nominal_and_a_mix_of_forms_is_dates(run, tmp_path):
    path, _ = table(tmp_path, rows=30)
    model = tmp_path / "m.json"
    assert run("train", path, "-a", "c45", "--nominal", "day", "-q", "-o", model).exit_code == 0
    day = next(a for a in json.loads(model.read_text())["schema"]["attributes"] if a["name"] == "day")
    assert day["kind"] == "nominal" and "2024" in day["values"][0]
    mixed = tmp_path / "mixed.csv"
    rows = [f"2024-01-{d:02d},{'a' if d < 10 else 'b'}" for d in range(1, 21)]
    rows[3] = "2024-01-04T10:00,a"  # a date-time among dates: another form, read in the finer one
    mixed.write_text("day,class\n" + "\n".join(rows) + "\n")
    assert run("train", mixed, "-a", "c45", "-q", "-o", model).exit_code == 0
    day = json.loads(model.read_text())["schema"]["attributes"][0]
    assert day["kind"] == "numeric" and day["date"]["format"] == "yyyy-MM-dd'T'HH:mm"
    assert run("show", model, "-f", "text").stdout.startswith("day <= 2024-01-09T00:00: a")
    rows[5] = "2024-01-06T10:00Z,a"  # zoned and zone-less date-times: which instant is meant is not known
    mixed.write_text("day,class\n" + "\n".join(rows) + "\n")
    assert run("train", mixed, "-a", "c45", "-q", "-o", model).exit_code == 0
    day = json.loads(model.read_text())["schema"]["attributes"][0]
    assert day["kind"] == "nominal" and "date" not in day


def test_a_cell_that_is_no_date_among_iso_dates_is_named_and_strict_refuses_it(run, tmp_path):
    path = tmp_path / "typo.csv"
    rows = [f"2023-02-{d:02d},{'a' if d < 15 else 'b'}" for d in range(1, 29)] * 2
    rows[40] = "2023-02-29,b"
    rows[7] = "NA,a"  # a missing date, as a number column's NA is
    path.write_text("day,class\n" + "\n".join(rows) + "\n")
    warned = run("train", path, "-a", "c45", "-q")
    said = "column 'day' holds ISO 8601 dates but line 42 has '2023-02-29'; it is read as nominal"
    assert said in warned.stderr, warned.stderr
    refused = run("train", path, "-a", "c45", "--strict", "-q")
    assert refused.exit_code == 1 and "line 42 has '2023-02-29'; refused by --strict" in refused.output
    rows[40] = "?,b"
    path.write_text("day,class\n" + "\n".join(rows) + "\n")
    mended = run("train", path, "-a", "c45", "-f", "text", "--strict")
    assert mended.exit_code == 0 and mended.stdout.startswith("day <= 2023-02-14: a"), mended.output


@pytest.mark.parametrize(
    ("declared", "cells", "cut"),
    [
        ('"yyyy-MM-dd"', ["2024-01-01", "2024-01-05", "2024-01-09", "2024-01-20"], "2024-01-05"),
        ("", ["2024-01-01T10:00:00", "2024-01-05T10:00:00", "2024-01-09T10:00:00", "2024-01-20T10:00:00"],
         "2024-01-05T10:00:00"),
        ("'dd.MM.yyyy HH:mm'", ["01.01.2024 10:00", "05.01.2024 10:00", "09.01.2024 10:00", "20.01.2024 10:00"],
         "05.01.2024 10:00"),
    ],
)  # fmt: skip
def test_arff_date_attributes(run, tmp_path, declared, cells, cut):
    path = tmp_path / "d.arff"
    rows = [f"'{cell}',{label}" for cell, label in zip(cells * 2, ["a", "a", "b", "b"] * 2)]
    path.write_text(f"@relation r\n@attribute d date {declared}\n@attribute c {{a,b}}\n@data\n" + "\n".join(rows))
    result = run("train", path, "-a", "c45", "-f", "text")
    assert result.stdout.splitlines() == [f"d <= {cut}: a (4.0)", f"d > {cut}: b (4.0)"]


@pytest.mark.parametrize("name", ["visits", "orders"])
@pytest.mark.parametrize("pruned", [True, False])
def test_j48_on_date_attributes_as_weka_builds_it(run, name, pruned):
    """Weka holds a date as milliseconds since the epoch and prints its thresholds so; written as dates
    of the attribute's format (converted here with the standard library), its trees are dtree's."""
    path = DATES / f"{name}.arff"
    fmt = re.search(r"@attribute \w+ date(?: \"(.*)\")?", path.read_text()).group(1)
    strftime = {"yyyy-MM-dd HH:mm": "%Y-%m-%d %H:%M", None: "%Y-%m-%dT%H:%M:%S"}[fmt]
    weka = (DATES / f"{name}.j48-{'pruned' if pruned else 'unpruned'}.txt").read_text()
    weka = weka.split("\n\n", 1)[1].split("\n\nNumber of Leaves")[0].strip()
    weka = re.sub(
        r"([<>]=? )(\d{12,})",
        lambda m: m.group(1) + datetime.fromtimestamp(int(m.group(2)) / 1000, timezone.utc).strftime(strftime),
        weka,
    )
    options = [] if pruned else ["--no-prune"]
    result = run("train", path, "-a", "c45", *options, "-f", "text")
    assert result.stdout.strip() == weka.replace("------------------\n\n", "").strip()


def test_cart_says_when_single_precision_merges_times(run, tmp_path):
    path = tmp_path / "minutes.csv"
    path.write_text("t,c\n2024-03-01T10:00,a\n2024-03-01T10:01,a\n2024-03-01T10:02,b\n2024-03-01T10:03,b\n")
    merged = run("train", path, "-a", "cart", "-f", "text")
    (line,) = [x for x in merged.stderr.splitlines() if x.startswith("Warning:")]
    # float32 holds 2024's seconds to 128: 10:01 and 10:02 become one number (checked with numpy here)
    import numpy as np

    seconds = [datetime(2024, 3, 1, 10, m, tzinfo=timezone.utc).timestamp() for m in range(4)]
    assert len(set(np.float32(seconds).tolist())) == 3
    assert "column 't' has 4 different times but 3 in single precision" in line and "--ties column" in line
    full = run("train", path, "-a", "cart", "--ties", "column", "-f", "text")
    assert "Warning" not in full.stderr
    assert full.stdout.splitlines()[:2] == ["t <= 2024-03-01T10:01: a (2.0)", "t > 2024-03-01T10:01: b (2.0)"]
    days, _ = table(tmp_path, rows=30)
    assert "single precision" not in run("train", days, "-a", "cart", "--ignore", "stamp").stderr


def test_python_and_sql_exports_compare_dates_as_predict_does(run, tmp_path):
    import sqlite3

    path, parsed = table(tmp_path, rows=60, seed=9)
    model = tmp_path / "m.json"
    assert run("train", path, "-a", "cart", "--ties", "column", "-q", "-o", model).exit_code == 0
    rows = [line.split(",") for line in path.read_text().splitlines()[1:]]
    rng = random.Random(4)  # and new rows: days and minutes around every date of the data
    for day, stamp, g, _ in list(rows):
        shifted = date.fromisoformat(day) + timedelta(days=rng.choice([-1, 1]))
        minute = datetime.fromisoformat(stamp) + timedelta(minutes=rng.choice([-1, 1]))
        rows.append([shifted.isoformat(), f"{minute:%Y-%m-%dT%H:%M}", g, ""])
    new = tmp_path / "new.csv"
    new.write_text("day,stamp,g\n" + "".join(f"{r[0]},{r[1]},{r[2]}\n" for r in rows))
    predicted = [line.rsplit(",", 1)[1] for line in run("predict", model, new).stdout.splitlines()[1:]]
    namespace: dict = {}
    exec(run("rules", model, "-f", "python").stdout, namespace)
    by_python = [namespace["predict"]({"day": r[0], "stamp": r[1], "g": r[2]}) for r in rows]
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE t (n INTEGER, day TEXT, stamp TEXT, g TEXT)")
    db.executemany("INSERT INTO t VALUES (?, ?, ?, ?)", [(k, *r[:3]) for k, r in enumerate(rows)])
    case = run("rules", model, "-f", "sql").stdout
    by_sql = [label for _, label in db.execute(f"SELECT n, {case} FROM t ORDER BY n")]
    assert by_python == predicted and by_sql == predicted


def test_a_date_format_that_does_not_sort_as_text_is_not_exported(run, tmp_path):
    path = tmp_path / "d.arff"
    rows = [f"'{d:02d}.01.2024',{'a' if d < 10 else 'b'}" for d in range(1, 21)]
    path.write_text("@relation r\n@attribute d date 'dd.MM.yyyy'\n@attribute c {a,b}\n@data\n" + "\n".join(rows))
    model = tmp_path / "m.json"
    assert run("train", path, "-a", "c45", "-q", "-o", model).exit_code == 0
    assert "d <= 09.01.2024" in run("rules", model).stdout
    for fmt in ("python", "sql"):
        refused = run("rules", model, "-f", fmt)
        assert refused.exit_code == 1 and "column 'd' holds dates written dd.MM.yyyy" in refused.output


def test_diff_prints_dates_and_tells_dates_from_numbers(run, tmp_path):
    path, _ = table(tmp_path)
    c45, cart = tmp_path / "c45.json", tmp_path / "cart.json"
    assert run("train", path, "-a", "c45", "-q", "-o", c45).exit_code == 0
    assert run("train", path, "-a", "cart", "-q", "-o", cart).exit_code == 0
    differ = run("diff", c45, cart)
    assert re.search(r"A: split on day <= 2024-\d{2}-\d{2} \[", differ.stdout), differ.stdout
    plain = json.loads(c45.read_text())
    for attribute in plain["schema"]["attributes"]:
        attribute.pop("date", None)  # as a model of the same numbers without dates
    numbers = tmp_path / "numbers.json"
    numbers.write_text(json.dumps(plain))
    result = run("diff", c45, numbers)
    assert result.exit_code == 1
    assert "Schema: attribute 'day' holds dates written yyyy-MM-dd in A and numbers in B" in result.stdout


def test_a_column_with_a_day_the_calendar_lacks_stays_nominal(run, tmp_path):
    path = tmp_path / "t.csv"
    rows = [f"2024-02-{d:02d},{'a' if d < 15 else 'b'}" for d in range(1, 29)] + ["2024-02-30,b"]
    path.write_text("day,class\n" + "\n".join(rows) + "\n")
    model = tmp_path / "m.json"
    assert run("train", path, "-a", "c45", "-q", "-o", model).exit_code == 0
    assert json.loads(model.read_text())["schema"]["attributes"][0]["kind"] == "nominal"


def test_the_dask_engine_refuses_dates_rather_than_read_them_as_categories(run, tmp_path):
    pytest.importorskip("dask")
    path, _ = table(tmp_path, rows=20)
    refused = run("train", path, "-a", "c45", "--engine", "dask", "-q", "-o", tmp_path / "m.json")
    assert refused.exit_code == 1
    assert "column 'day' holds ISO 8601 dates, which --engine dask does not read as time" in refused.output


def test_where_compares_a_column_of_dates_with_a_date(run, tmp_path):
    """gain --where Date>1954-06-01 was refused ("compare it with a number"), and a path note printed
    the tree's cut on dates in seconds since 1970."""
    from datetime import date, timedelta

    start = date(1950, 1, 1)
    rows = [f"{start + timedelta(days=30 * i)},{i % 7},{'no' if i < 40 else 'yes'}" for i in range(80)]
    data = tmp_path / "air.csv"
    data.write_text("Date,x,busy\n" + "\n".join(rows) + "\n")
    later = run("gain", data, "-a", "c45", "--where", "Date>1952-06-01", "-f", "json")
    assert later.exit_code == 0, later.stderr
    assert json.loads(later.stdout)["rows"] == sum(start + timedelta(days=30 * i) > date(1952, 6, 1) for i in range(80))
    note = json.loads(later.stdout)["path_note"]
    assert note is not None and "Date <= 1953" in note and "-" in note.split("Date <= ")[1][:10]  # a date, not seconds
    wrong = run("gain", data, "--where", "Date>June")
    assert wrong.exit_code == 1 and "'Date' holds dates; compare it with a date" in wrong.stderr
