"""CSV as spreadsheets write it: separators, decimal commas and Excel's sep= line, detected or given.

The reference for every dialect is the same table written as plain comma CSV: both files must read
into the same columns (numbers bit for bit, text cells in the same order). Real exports come from
pandas' ``to_csv(sep=';', decimal=',')`` of scikit-learn's bundled data sets.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dtcli.errors import DataError
from dtcli.io.columns import NumberColumn
from dtcli.io.csv.decimal_comma import decimal_points
from dtcli.io.csv.dialect import SAMPLE_BYTES, detect
from dtcli.io.read import read_data
from dtcli.io.source import Limits


def same_columns(a, b) -> None:
    assert list(a.frame.columns) == list(b.frame.columns)
    for name in a.frame.columns:
        left, right = a.frame[name], b.frame[name]
        assert type(left) is type(right), name
        if isinstance(left, NumberColumn):
            np.testing.assert_array_equal(left.values, right.values)
        else:
            assert left.tolist() == right.tolist(), name


def written(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return str(path)


def sklearn_frame(loader) -> pd.DataFrame:
    bunch = loader(as_frame=True)
    frame = bunch.frame.copy()
    frame["target"] = [str(bunch.target_names[t]) for t in bunch.target]
    return frame


@pytest.mark.parametrize("loader", ["load_iris", "load_wine", "load_breast_cancer"])
@pytest.mark.parametrize(("sep", "suffix"), [(";", "csv"), ("\t", "csv"), ("\t", "tsv"), ("|", "csv")])
def test_spreadsheet_exports_read_as_the_comma_file(tmp_path, loader, sep, suffix):
    from sklearn import datasets

    frame = sklearn_frame(getattr(datasets, loader))
    plain = tmp_path / "plain.csv"
    europe = tmp_path / f"europe.{suffix}"
    frame.to_csv(plain, index=False)
    frame.to_csv(europe, index=False, sep=sep, decimal=",")
    assert "," in europe.read_text().splitlines()[1]  # the export has decimal commas
    reference = read_data(str(plain), text_columns=["target"])
    got = read_data(str(europe), text_columns=["target"])
    same_columns(got, reference)
    assert got.sep == sep
    assert all(isinstance(got.frame[c], NumberColumn) for c in frame.columns[:-1])


def test_large_decimal_comma_file_goes_through_pandas(tmp_path):
    """Past the plain reader's size (1 MiB) the C parser reads the same numbers."""
    rng = np.random.default_rng(3)
    rows = 100_000
    frame = pd.DataFrame(
        {"x": rng.normal(size=rows).round(6), "y": rng.integers(0, 9, rows), "c": ["a", "b"] * (rows // 2)}
    )
    frame.loc[::7, "x"] = np.nan
    frame.to_csv(tmp_path / "plain.csv", index=False)
    frame.to_csv(tmp_path / "europe.csv", index=False, sep=";", decimal=",")
    assert (tmp_path / "europe.csv").stat().st_size > 1 << 20
    same_columns(read_data(str(tmp_path / "europe.csv")), read_data(str(tmp_path / "plain.csv")))


def test_echo_keeps_the_lines_as_written(tmp_path):
    path = written(tmp_path, "e.csv", "a;b;c\n5,1;x;yes\n-0,25;y;no\n")
    raw = read_data(path)
    assert raw.echo_lines() == ["a;b;c", "5,1;x;yes", "-0,25;y;no"]
    assert raw.frame["a"].values.tolist() == [5.1, -0.25]


def test_quoted_header_with_commas_in_a_semicolon_file(tmp_path):
    path = written(tmp_path, "q.csv", '"Income (k, net)";"Age";"Buys"\n12,5;30;yes\n40;45;no\n')
    raw = read_data(path)
    assert list(raw.frame.columns) == ["Income (k, net)", "Age", "Buys"]
    assert raw.frame["Income (k, net)"].values.tolist() == [12.5, 40.0]


@pytest.mark.parametrize("end", ["\n", "\r\n"])
@pytest.mark.parametrize("line", ["sep=;", '"sep=;"', "SEP=;"])
def test_excel_sep_line_sets_the_separator_and_is_skipped(tmp_path, end, line):
    text = end.join([line, "a,x;b;c", "1,5;u;yes", "2;v;no", ""])
    raw = read_data(written(tmp_path, "x.csv", text))
    assert list(raw.frame.columns) == ["a,x", "b", "c"]
    assert raw.frame["a,x"].values.tolist() == [1.5, 2.0]
    assert raw.lines.tolist() == [3, 4]  # file lines: the sep= line still counts


def test_excel_sep_line_keeps_line_numbers_in_errors(tmp_path):
    path = written(tmp_path, "x.csv", "sep=;\na;b\n1;2\n1;2;3\n")
    with pytest.raises(DataError, match=r"x\.csv, line 4: 3 fields where the header has 2"):
        read_data(path)


def test_tab_separated_with_decimal_commas(tmp_path):
    raw = read_data(written(tmp_path, "t.txt", "a\tb\n1,5\tx\n2,25\ty\n"))
    assert raw.sep == "\t" and raw.frame["a"].values.tolist() == [1.5, 2.25]


def test_comma_file_is_never_read_with_a_decimal_comma(tmp_path):
    """A quoted "1,234" in a comma file may be a thousands separator: it stays text."""
    raw = read_data(written(tmp_path, "us.csv", 'a,b\n"1,234",x\n"2,5",y\n'))
    assert raw.frame["a"].tolist() == ["1,234", "2,5"]


def test_ambiguous_separator_is_noted(tmp_path):
    dialect = detect(b"a,b;c\n1,2;x\n3,4;y\n", "amb.csv", "amb.csv")
    assert dialect.sep == ","
    assert dialect.note == (
        "amb.csv: read as separated by ',', but ';' also splits every line into as many fields; "
        "give --sep ';' if that is the separator"
    )


@pytest.mark.parametrize(
    "text",
    [
        b"a,b,c\n1.5,x,yes\n2,y;z,no\n",  # a stray ; in a cell
        b"a;b\n1;2\n",
        b"a\tb\n1\t2\n",
        b"a|b\n1|2\n",
        b"a,b\n1,2\n",
        b"a\n1\n2\n",
        b'"x, y",z\n1,2\n',
    ],
)
def test_clear_files_have_no_note(text):
    dialect = detect(text, "f.csv", "f.csv")
    assert dialect.note is None and dialect.decimal == "." and not dialect.skip


def test_numbers_written_both_ways_are_noted_and_kept_as_before(tmp_path):
    path = written(tmp_path, "mix.csv", "a;b;c\n1,5;2.5;yes\n3;4;no\n")
    dialect = detect(Path(path).read_bytes(), path, "mix.csv")
    assert dialect.decimal == "."
    assert "some numbers have a decimal comma (1,5), others a decimal point (2.5)" in dialect.note
    assert read_data(path).frame["a"].tolist() == ["1,5", "3"]


@pytest.mark.parametrize("cell", ["1.234,5", "2.5", "-1.234.567,25", "1.5e3"])
def test_point_in_a_decimal_comma_file_is_refused(tmp_path, cell):
    rows = ["a;b"] + [f"{i},5;x" for i in range(3000)] + [f"{cell};y"]  # past the detection sample
    path = written(tmp_path, "th.csv", "\n".join(rows) + "\n")
    assert detect(Path(path).read_bytes(), path, "th.csv").decimal == ","
    with pytest.raises(DataError, match=rf"th\.csv, line 3002: '{cell}' is written with a point, but this file's"):
        read_data(path)


def test_given_decimal_comma_refuses_a_point(tmp_path):
    path = written(tmp_path, "m.csv", "a;b\n1,5;x\n2.5;y\n")
    with pytest.raises(DataError, match=r"m\.csv, line 3: '2\.5' is written with a point"):
        read_data(path, limits=Limits(decimal=","))


def test_given_decimal_point_reads_commas_as_text(tmp_path):
    path = written(tmp_path, "e.csv", "a;b\n1,5;x\n2,5;y\n")
    assert read_data(path, limits=Limits(decimal=".")).frame["a"].tolist() == ["1,5", "2,5"]


def test_given_separator_wins(tmp_path):
    path = written(tmp_path, "p.csv", "a,b;c\n1,2;x\n3,4;y\n")
    raw = read_data(path, limits=Limits(sep=";"))
    assert list(raw.frame.columns) == ["a,b", "c"]
    assert raw.frame["a,b"].values.tolist() == [1.2, 3.4]  # not separated by commas: decimal commas
    raw = read_data(path, limits=Limits(sep=";", decimal="."))
    assert raw.frame["a,b"].tolist() == ["1,2", "3,4"]


def test_given_separator_that_does_not_split_the_header(tmp_path):
    path = written(tmp_path, "c.csv", "a,b,c\n1,2,x\n")
    with pytest.raises(DataError, match=r"c\.csv: --sep ';' does not split the header line into columns; the file "
                       r"seems separated by ',': give --sep ',', or leave --sep out"):  # fmt: skip
        read_data(path, limits=Limits(sep=";"))


def test_detection_reads_only_the_start():
    """A cell past the sample does not change the separator or the decimal mark."""
    head = b"a;b\n" + b"1,5;x\n" * (SAMPLE_BYTES // 6 + 10)
    dialect = detect(head + b"2.5;y\n" + b"1,2;3,4;5\n" * 10, "s.csv", "s.csv")
    assert dialect.sep == ";" and dialect.decimal == "," and dialect.note is None


def test_decimal_points_converts_whole_cells_only():
    data = bytearray(b'a;b;c\n5,1;x,1;1,5\n"2,5"; 3,0 ;-,5\n')
    got = decimal_points(data, ";", "d.csv", 5)
    assert got == b'a;b;c\n5.1;x,1;1.5\n"2.5"; 3.0 ;-.5\n'
    assert data == b'a;b;c\n5,1;x,1;1,5\n"2,5"; 3,0 ;-,5\n'  # the bytes as written are kept


def test_dask_reader_takes_the_detected_separator_and_refuses_decimal_commas(tmp_path):
    pytest.importorskip("dask.dataframe")
    from dtcli.io.dask.frames import read_frame

    semi = written(tmp_path, "semi.csv", '"Income (k, net)";Age;Buys\n12;30;yes\n40;45;no\n')
    assert list(read_frame(semi).frame.columns) == ["Income (k, net)", "Age", "Buys"]
    europe = written(tmp_path, "europe.csv", "a;b\n1,5;x\n2,5;y\n")
    with pytest.raises(DataError, match=r"europe\.csv: --engine dask does not read numbers written with a decimal"):
        read_frame(europe)


def test_an_excel_sep_line_that_does_not_split_the_header_is_refused(tmp_path):
    path = tmp_path / "wrong.csv"
    path.write_text("sep=,\na;b;cls\n1;2;x\n3;4;y\n")
    with pytest.raises(DataError) as error:
        read_data(str(path))
    assert str(error.value) == (
        f"{path}: its first line, 'sep=,', does not split the header line into columns; "
        "the file seems separated by ';': give --sep ';'"
    )


@pytest.mark.parametrize("sep", [" ", ":", "  "])
def test_a_file_that_reads_as_one_column_run_together_is_refused_when_training(run, tmp_path, sep):
    path = tmp_path / "iris.txt"
    rows = ["sepal_length sepal_width species", "5.1 3.5 setosa", "7.0 3.2 versicolor", "6.3 3.3 virginica"]
    path.write_text("\n".join(row.replace(" ", sep) for row in rows) + "\n")
    for command in (["train", path, "-a", "c45"], ["gain", path], ["evaluate", path, "--cv", "2"]):
        result = run(*command)
        assert result.exit_code == 1, command
        assert f"the file reads as one column, 'sepal_length{sep}sepal_width{sep}species'" in result.output
        assert "give it with --sep (such as --sep ' ')" in result.output
    lone = tmp_path / "lone.csv"  # one column of one word: the base case of ID3, a leaf
    lone.write_text("PlayTennis\nyes\nno\nyes\n")
    assert run("train", lone, "-f", "text").stdout == ": yes (3.0/1.0)\n"


def test_excel_trailing_empty_columns_are_dropped_however_many(tmp_path):
    path = tmp_path / "excel.csv"
    path.write_text("a;b;cls;;;\n1,5;x;yes;;;\n2,5;y;no;;;\n;;;;;\n3,5;x;yes;;;\n")
    frame = read_data(str(path)).frame
    assert list(frame.columns) == ["a", "b", "cls"]
    assert np.array_equal(frame["a"].values, [1.5, 2.5, np.nan, 3.5], equal_nan=True)  # ;;;;; a row of nothing
    path.write_text("a;b;cls;;;\n1,5;x;yes;;3;\n2,5;y;no;;;\n")
    with pytest.raises(DataError, match="column 5 has no name in the header line; name it"):
        read_data(str(path))


def test_commas_that_look_like_thousands_separators_are_noted(tmp_path):
    path = tmp_path / "amounts.csv"
    path.write_text("amount;region;cls\n2,752;N;big\n693;S;small\n3,334;N;big\n1,250;S;big\n")
    dialect = detect(path.read_bytes(), str(path), "amounts.csv")
    assert dialect.decimal == ","
    assert dialect.note == (
        "amounts.csv: read with ',' as the decimal mark, but every number written with a comma has three digits "
        "after it (1,250), as a thousands separator writes them; if the comma groups thousands, write the "
        "numbers without it (a decimal comma reads 2,752 as 2.752)"
    )
    path.write_text("amount;region;cls\n2,752;N;big\n0,693;S;small\n3,334;N;big\n1,250;S;big\n")  # 0,693: a decimal
    assert detect(path.read_bytes(), str(path), "amounts.csv").note is None
    path.write_text("amount;region;cls\n2,75;N;big\n1,693;S;small\n3,334;N;big\n1,250;S;big\n")
    assert detect(path.read_bytes(), str(path), "amounts.csv").note is None


def test_points_that_look_like_thousands_separators_are_noted(tmp_path):
    """A German export of whole numbers: 850 beside 1.200, which a decimal point reads as 1.2 (the tree
    said small towns are big, without a word)."""
    path = tmp_path / "de.csv"
    path.write_text("Stadt;Einwohner;Klasse\nA;850;klein\nB;920;klein\nD;1.200;gross\nE;2.500;gross\nF;3.100;gross\n")
    dialect = detect(path.read_bytes(), str(path), "de.csv")
    assert dialect.decimal == "." and dialect.note == (
        "de.csv: read with '.' as the decimal mark, but every number written with a point has three digits "
        "after it (1.200), as a thousands separator writes them; if the point groups thousands, write the "
        "numbers without it (a decimal point reads 1.200 as 1.2)"
    )
    quiet = (
        "a;b;c\nA;850;x\nB;1.200;y\nC;0.125;x\nD;2.500;y\n",  # 0.125: a decimal
        "a;b;c\nA;850;x\nB;1.20;y\nC;2.500;x\nD;3.100;y\n",  # 1.20: a decimal
        "a;b;c\nA;9999;x\nB;1.125;y\nC;2.250;x\nD;3.375;y\n",  # three decimals alone: measurements as likely
        "a,b,c\nA,850,x\nB,1.200,y\nC,2.500,x\nD,3.100,y\n",  # separated by commas: points are decimal
    )
    for text in quiet:
        path.write_text(text)
        assert detect(path.read_bytes(), str(path), "de.csv").note is None, text


def test_a_header_with_a_comma_in_a_semicolon_file_is_read_by_the_semicolon(tmp_path):
    """ "Einkommen (Tsd., netto);Alter;Klasse" with one decimal comma a row: both ',' and ';' split every line
    alike; ',' (first in order) made two junk columns. The separator of more fields wins, and the note says
    the other splits into fewer."""
    path = tmp_path / "hdr.csv"
    path.write_text("Einkommen (Tsd., netto);Alter;Klasse\n1,5;30;a\n2,5;40;b\n3,5;50;a\n")
    dialect = detect(path.read_bytes(), str(path), "hdr.csv")
    assert dialect.sep == ";" and dialect.decimal == ","
    assert dialect.note == (
        "hdr.csv: read as separated by ';', but ',' also splits every line alike, into fewer fields than the 3 "
        "read; give --sep ',' if that is the separator"
    )
    frame = read_data(str(path)).frame
    assert list(frame.columns) == ["Einkommen (Tsd., netto)", "Alter", "Klasse"]
    assert frame["Einkommen (Tsd., netto)"].values.tolist() == [1.5, 2.5, 3.5]
