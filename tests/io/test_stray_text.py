"""A CSV column of numbers with a few stray text cells: read as nominal with a warning naming the
file, column, first offending line and cell, or refused with --strict; the same from both readers.
Genuinely nominal columns (codes such as 001, mixtures such as A12) are not reported."""

from __future__ import annotations

import numpy as np
import pytest

from dtcli.errors import DataError
from dtcli.io.csv import pandas_reader as csv_pandas
from dtcli.io.csv import reader as csv_reader
from dtcli.io.encode import infer_table
from dtcli.io.read import read_data
from dtcli.io.written import stray_text
from dtcli.model.table import NOMINAL, NUMERIC


def write(path, rows: int, stray_row: int | None, cell: str = "n/a", pad: int = 0):
    """A file of ``rows`` rows: income (numbers, ``cell`` at data row ``stray_row``), age, y; ``pad``
    characters of a padding column make it large enough for pandas."""
    rng = np.random.default_rng(1)
    lines = ["income,age,note,y"]
    for i in range(rows):
        income = cell if i == stray_row else str(int(rng.integers(1000, 90000)))
        lines.append(f"{income},{int(rng.integers(18, 90))},{'p' * pad},{'ab'[i % 2]}")
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.fixture(params=["plain", "pandas"])
def reader(request, monkeypatch):
    """Which CSV reader the file must go through: the file sizes make the choice, checked by a spy."""
    used = []
    original = csv_pandas.read_columns
    monkeypatch.setattr(csv_pandas, "read_columns", lambda *args: used.append(1) or original(*args))
    yield request.param, used
    assert bool(used) == (request.param == "pandas")


def sized(tmp_path, reader, stray_row, cell="n/a"):
    """3,000 rows (a small file: the Python reader) or 3,000 rows padded past csv_reader.PLAIN_MAX (pandas)."""
    pad = 0 if reader[0] == "plain" else csv_reader.PLAIN_MAX // 3000 + 10
    return write(tmp_path / "data.csv", 3000, stray_row, cell, pad)


EXPECTED = (
    "data.csv: column 'income' is numeric but line {line} has {cell!r}; it is read as nominal (fix the cell or "
    "write ? for a missing value; --nominal income reads it as nominal without this warning; --strict refuses it)"
)
REFUSED = (
    "data.csv: column 'income' is numeric but line {line} has {cell!r}; refused by --strict (fix the cell or write "
    "? for a missing value, or use --nominal income to read the column as nominal)"
)


@pytest.mark.parametrize("stray_row", [2500, 1, 2999])  # after the readers' sample of 2,000 rows, and within it
def test_stray_cell_is_reported_with_its_line(tmp_path, monkeypatch, reader, stray_row):
    monkeypatch.chdir(tmp_path)
    sized(tmp_path, reader, stray_row)
    notes = []
    table = infer_table(read_data("data.csv"), "y", strict=False, notes=notes)
    line = stray_row + 2  # the header is line 1
    assert notes == [EXPECTED.format(line=line, cell="n/a")]
    income = table.schema.attributes[0]
    assert income.name == "income" and income.kind == NOMINAL  # read as before: nominal, not changed silently
    assert table.schema.attributes[1].kind == NUMERIC  # the other columns keep their kinds
    with pytest.raises(DataError) as refused:
        infer_table(read_data("data.csv"), "y", strict=True)
    assert str(refused.value) == REFUSED.format(line=line, cell="n/a")


def test_clean_file_has_no_note(tmp_path, monkeypatch, reader):
    monkeypatch.chdir(tmp_path)
    sized(tmp_path, reader, None)
    notes = []
    table = infer_table(read_data("data.csv"), "y", strict=True, notes=notes)
    assert notes == [] and table.schema.attributes[0].kind == NUMERIC


def test_missing_markers_are_not_stray_text(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "data.csv").write_text("x,y\n" + "".join(f"{c},a\n" for c in ["1", "NA", "2", "?", "", "NaN", "3"]))
    notes = []
    assert infer_table(read_data("data.csv"), "y", notes=notes, strict=True).schema.attributes[0].kind == NUMERIC
    assert notes == []


def column(cells):
    from dtcli.io.columns import TextColumn

    return TextColumn.of(cells)


@pytest.mark.parametrize(
    "cells, found",
    [
        (["1", "2", "3", "4", "5", "6", "7", "8", "9", "x"], (9, "x")),  # 90% numbers: stray text
        (["1", "2", "3", "4", "5", "6", "7", "8", "y", "x"], None),  # 80%: a nominal column
        (["1", "?", "?", "?", "2", "3", "4", "5", "6", "7", "8", "9", " oops "], (12, "oops")),  # missing not counted
        (["001", "002", "003", "004", "005", "006", "007", "008", "009", "A12"], None),  # codes: leading zeros
        (["A12", "B07", "C33", "12", "14"], None),  # a mixture of codes
        (["red", "green", "blue"], None),  # no numbers at all
        (["1.5", "2", "-3e2", "inf"], None),  # numbers only (a numeric column)
        (["0", "0.5", "1", "2", "3", "4", "5", "6", "7", "n/a"], (9, "n/a")),  # 0 and 0.5 are no codes
    ],
)
def test_which_columns_are_numbers_with_stray_text(cells, found):
    assert stray_text(column(cells)) == found


def test_a_long_cell_is_cut_in_the_message(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "data.csv", 30, 5, cell="x" * 100)
    notes = []
    infer_table(read_data("data.csv"), "y", notes=notes)
    assert f"line 7 has '{'x' * 37}...';" in notes[0]


def test_named_nominal_ignored_and_target_columns(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "data.csv", 30, 5)
    for options in ({"nominal": ["income"]}, {"ignore": ["income"]}):
        notes = []
        infer_table(read_data("data.csv"), "y", strict=True, notes=notes, **options)
        assert notes == []
    notes = []  # the class column of a classification is nominal whatever it holds: no note
    infer_table(read_data("data.csv"), "income", ignore=["y"], notes=notes)
    assert notes == []
    notes = []  # with --task auto a numeric target would make a regression: reported
    table = infer_table(read_data("data.csv"), "income", ignore=["y"], task="auto", notes=notes)
    assert len(notes) == 1 and "line 7 has 'n/a'" in notes[0] and not table.is_regression


def test_arff_declares_its_types(tmp_path):
    """ARFF is not affected: a numeric attribute's cell that is no number is already an error naming the line."""
    path = tmp_path / "bad.arff"
    path.write_text("@relation r\n@attribute income numeric\n@attribute y {a,b}\n@data\n1,a\n2,b\nn/a,a\n")
    with pytest.raises(DataError) as bad:
        read_data(str(path))
    assert str(bad.value).endswith(
        "bad.arff, line 7: invalid ARFF: 'n/a' is not a number (attribute 'income'); write ? for a missing value"
    )
    quoted = tmp_path / "quoted.arff"  # a row the reader does not take apart itself: the general message
    quoted.write_text("@relation r\n@attribute s string\n@attribute income numeric\n@data\n'a,b',1\n'c',x\n")
    with pytest.raises(DataError, match=r"quoted\.arff, line 6: invalid ARFF: a value of a numeric attribute is not"):
        read_data(str(quoted))
