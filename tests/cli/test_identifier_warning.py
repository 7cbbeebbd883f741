"""The warning for identifier-like columns (issue 16): one stderr line naming the column and the fix;
standard output unchanged; -q silences it."""

from __future__ import annotations

import numpy as np
import pytest

from helpers import SAMPLES, load

WEATHER = SAMPLES / "weather.csv"


def warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("Warning:")]


@pytest.mark.parametrize("command", ["gain", "train"])
def test_day_is_named_with_the_fix(run, command):
    result = run(command, WEATHER, "--target", "PlayTennis")
    assert result.exit_code == 0
    (line,) = warnings(result.stderr)
    assert "column Day" in line and "14 different values in 14 rows" in line
    assert line.endswith("leave it out with --ignore Day") and "Date" in line and "3.7.3" in line
    assert "Warning" not in result.stdout


def test_stdout_is_unchanged_and_quiet_silences_it(run):
    loud = run("gain", WEATHER, "--target", "PlayTennis", "-f", "csv")
    quiet = run("gain", WEATHER, "--target", "PlayTennis", "-f", "csv", "-q")
    assert loud.stdout == quiet.stdout and quiet.stderr == "" and warnings(loud.stderr)
    trained = run("train", WEATHER, "--target", "PlayTennis", "-q")
    assert trained.exit_code == 0 and not warnings(trained.stderr) and trained.stdout == ""


def test_no_warning_once_ignored(run):
    for command in ("gain", "train"):
        result = run(command, WEATHER, "--target", "PlayTennis", "--ignore", "Day")
        assert not warnings(result.stderr)


def write(path, header, rows):
    path.write_text(header + "\n" + "\n".join(rows) + "\n")
    return path


def test_nearly_every_row_counts_and_numbers_do_not(run, tmp_path):
    # 20 rows: Code repeats once (19 distinct of 20 = 95%), Group has 2 values, Serial is numeric (and
    # numbers the rows, 0 to 19: the row-number warning, not the identifier one)
    rows = [f"c{min(i, 18)},g{i % 2},{i},{'yes' if i % 3 else 'no'}" for i in range(20)]
    path = write(tmp_path / "t.csv", "Code,Group,Serial,Class", rows)
    result = run("gain", path)
    line, serial = warnings(result.stderr)
    assert "column Code has 19 different values in 20 rows" in line and "--ignore Code" in line
    assert "column Serial holds a different whole number on every row, 0 to 19, as a row number does" in serial


def test_half_distinct_and_tiny_tables_are_quiet(run, tmp_path):
    half = write(tmp_path / "half.csv", "Code,Class", [f"c{i // 2},{'yes' if i % 3 else 'no'}" for i in range(20)])
    tiny = write(tmp_path / "tiny.csv", "Code,Class", ["a,yes", "b,no", "c,yes", "d,no", "e,yes"])
    for path in (half, tiny):
        assert not warnings(run("gain", path).stderr)


def test_missing_values_are_not_rows_with_a_value(tmp_path):
    from dtcli.model.table import identifier_columns

    # 10 distinct values in 10 known rows, 10 more rows missing: still every known row differs
    rows = [f"v{i},yes" if i < 10 else "?,no" for i in range(20)]
    table = load(write(tmp_path / "m.csv", "Code,Class", rows))
    assert identifier_columns(table) == [("Code", 10, 10)]
    codes = table.columns[0]
    assert np.count_nonzero(codes >= 0) == 10


def test_a_name_with_spaces_gets_a_quoted_fix(run, tmp_path):
    rows = [f"id {i},{'yes' if i % 2 else 'no'}" for i in range(8)]
    path = write(tmp_path / "s.csv", "Row id,Class", rows)
    (line,) = warnings(run("gain", path).stderr)
    assert line.endswith("leave it out with --ignore 'Row id'")


def test_a_near_identifier_warns_with_its_share_and_the_way_out(run, tmp_path):
    # 1,000 rows, 638 distinct day/month/year dates (not ISO, so nominal): more than half the rows
    days = [f"{1 + i % 28:02d}/{1 + i // 28 % 12:02d}/20{20 + i // 336}" for i in range(638)]
    cells = days + days[:362]
    rows = [f"{d},{'yes' if i % 3 else 'no'}" for i, d in enumerate(cells)]
    path = write(tmp_path / "near.csv", "When,Class", rows)
    for command in ("gain", "train"):
        (line,) = warnings(run(command, path).stderr)
        assert "column When has 638 different values in 1,000 rows (64%)" in line
        assert "leave it out with --ignore When" in line and "ISO 8601" in line


def test_near_identifier_needs_half_the_rows_and_twenty_values(run, tmp_path):
    # 40 rows, 20 values: exactly half; 30 rows, 19 values: fewer than twenty
    half = write(tmp_path / "half.csv", "Code,Class", [f"c{i % 20},{'yes' if i % 3 else 'no'}" for i in range(40)])
    few = write(tmp_path / "few.csv", "Code,Class", [f"c{i % 19},{'yes' if i % 3 else 'no'}" for i in range(30)])
    for path in (half, few):
        assert not warnings(run("gain", path).stderr)
    more = write(tmp_path / "more.csv", "Code,Class", [f"c{i % 21},{'yes' if i % 3 else 'no'}" for i in range(40)])
    (line,) = warnings(run("gain", more).stderr)
    assert "21 different values in 40 rows (52%)" in line and "ISO 8601" not in line


def test_sample_and_weka_tables_warn_only_of_their_identifiers(run):
    from helpers import WEKA

    warned = {}
    for path in sorted(SAMPLES.glob("*.csv")) + sorted((WEKA / "data").glob("*.arff")):
        lines = warnings(run("gain", path).stderr)
        if lines:
            warned[path.name] = len(lines)
    assert warned == {"restaurant.csv": 1, "risk.csv": 1, "weather.csv": 1}


def test_a_column_that_numbers_the_rows_is_warned_of(run, tmp_path):
    """iris with an ID of 1 to 150 (rows in class order): C4.5 cut on ID <= 100 without a word."""
    rows = [f"{i + 1},{(i * 7) % 10 / 10 + i // 50},{'abc'[i // 50]}" for i in range(150)]
    data = tmp_path / "ids.csv"
    data.write_text("ID,x,y\n" + "\n".join(rows) + "\n")
    said = (
        "ids.csv: column ID holds a different whole number on every row, 1 to 150, as a row number does: a tree "
        "may cut on it though the rows' order means nothing; if it only numbers the rows, leave it out with --ignore ID"
    )
    for args in (("train", data, "-a", "c45"), ("gain", data), ("gain", data, "-a", "cart")):
        result = run(*args)
        assert result.exit_code == 0 and result.stderr.count(said) == 1, (args, result.stderr)
    assert said not in run("train", data, "-a", "c45", "-q", "-o", tmp_path / "m.json").stderr
    few = tmp_path / "few.csv"  # (a small teaching table: 14 rows numbered 1 to 14 stay quiet)
    few.write_text("n,y\n" + "\n".join(f"{i + 1},{'ab'[i % 2]}" for i in range(14)) + "\n")
    gaps = tmp_path / "gaps.csv"  # (not consecutive: a measurement, not a row number)
    gaps.write_text("n,y\n" + "\n".join(f"{3 * i},{'ab'[i % 2]}" for i in range(40)) + "\n")
    for quiet in (few, gaps):
        assert "as a row number does" not in run("train", quiet, "-a", "c45").stderr
