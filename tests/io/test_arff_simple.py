"""The ARFF reader's whole-section path for plainly written data (``io/arff/simple.py``) against
liac-arff's row-by-row path: the same columns, value codes, missing cells and row lines, or, for a
file either refuses, the same error.

The files are drawn to cross the edge of "plainly written": plain and single-quoted values, quoted
values with blanks, commas and braces inside, ``?`` and empty values quoted and not, blanks after
and before commas and at either end of a row, blank and comment lines between rows, a comment after
a row, CRLF and lone CR line ends, double quotes and escapes, rows too short or too long, sparse
rows, undeclared nominal values, numbers liac-arff refuses or that an integer attribute truncates
(``2.7``, ``-0.5``, ``1e300``), ``nan`` and ``inf`` in numeric and integer attributes, string and
date attributes, ``max_rows``, and rows converted a few at a time. Weka's example files are
compared in the same way.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dtcli.errors import DtreeError
from dtcli.io.arff import reader, simple

WEKA = Path(__file__).resolve().parents[1] / "fixtures" / "weka" / "data"

HEADER = """@relation r
@attribute n numeric
@attribute i integer
@attribute c {a, 'b c', d}
@attribute s string
@attribute t date "yyyy-MM-dd"
@attribute k {yes, no}
@data
"""
ATTRIBUTES = [
    ("n", "NUMERIC"),
    ("i", "INTEGER"),
    ("c", ["a", "b c", "d"]),
    ("s", "STRING"),
    ("t", "STRING"),
    ("k", ["yes", "no"]),
]  # HEADER's attributes as liac-arff reads them (a date attribute reaches it as a string)
# each cell is drawn from the first list (plainly written values) mostly, from the second now and then
NUMBERS = (["1", "2.5", "-0.5", "2.7", "1e300", "?", "", "nan", "0"], ["inf", "-inf", "x", "1_0", "'3'", "'?'", "''"])
NOMINALS = (["a", "'b c'", "d", "?", "", "'a'"], ["b c", "e", "'?'", '"a"', "'b\\'c'"])
STRINGS = (["hello", "'two words'", "'a,b'", "'{x}'", "?", "", "'%'"], ["'?'", "'it''s'", "x%y", "'tab\tin'"])
DATES = (["2020-01-02", "'2021-12-31'", "?"], ["2020-13-40", "''"])
CLASSES = (["yes", "no", "'yes'", "?"], ["maybe", "'no '"])
SEPARATORS = ([",", ", ", ",  "], [" ,", ",\t"])
LINE_ENDS = ["\n", "\n", "\n", "\r\n", "\r"]
EXTRA = ["", "%a comment", "   ", "  % indented comment", "{0 1, 2 3}", "1,2", "1,2,a,s,?,yes,7"]


def parsed(text: str, simple: bool, max_rows: int = 0):
    """(columns, declared, lines) or the error's message, with or without the whole-section path."""
    original = reader.simple_columns
    if not simple:
        reader.simple_columns = lambda *args, **kwargs: None
    try:
        return reader.parse_arff(text, "f.arff", max_rows)
    except DtreeError as exc:
        return str(exc)
    finally:
        reader.simple_columns = original


def assert_same(text: str, max_rows: int = 0):
    got, expected = parsed(text, True, max_rows), parsed(text, False, max_rows)
    if isinstance(expected, str) or isinstance(got, str):
        assert got == expected
        return
    (columns, declared, lines), (columns_, declared_, lines_) = got, expected
    assert declared == declared_
    assert lines.tolist() == lines_.tolist()
    assert columns.columns == columns_.columns and columns.n_rows == columns_.n_rows
    for name in columns.columns:
        a, b = columns[name], columns_[name]
        assert type(a) is type(b)
        if hasattr(a, "values"):
            assert a.values.tobytes() == b.values.tobytes()
        else:
            assert a.codes.tolist() == b.codes.tolist() and a.uniques == b.uniques


@st.composite
def data_sections(draw):
    def one(choices):
        usual, unusual = choices
        return draw(st.sampled_from(unusual if draw(st.integers(0, 39)) == 0 else usual))

    rows = []
    for _ in range(draw(st.integers(0, 12))):
        if draw(st.integers(0, 14)) == 0:
            rows.append(draw(st.sampled_from(EXTRA)))
            continue
        cells = [one(NUMBERS), one(NUMBERS), one(NOMINALS), one(STRINGS), one(DATES), one(CLASSES)]
        row = cells[0]
        for cell in cells[1:]:
            row += one(SEPARATORS) + cell
        if draw(st.integers(0, 29)) == 0:
            row = draw(st.sampled_from([" ", "\t"])) + row + draw(st.sampled_from(["", " ", " % note"]))
        rows.append(row)
    end = draw(st.sampled_from(LINE_ENDS))
    return end.join(rows) + draw(st.sampled_from(["", end]))


@settings(max_examples=400, deadline=None)
@given(section=data_sections(), max_rows=st.sampled_from([0, 0, 3]), batch=st.sampled_from([4096, 1, 2, 5]))
def test_drawn_files_read_alike_both_ways(section, max_rows, batch):
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(simple, "BATCH", batch)  # rows converted a few at a time, too
        assert_same(HEADER + section, max_rows)


def test_plain_rows_take_the_whole_section_path(monkeypatch):
    """The rows Weka's files hold (quoted values, blanks after commas, comment lines) are read whole."""
    calls = []
    original = reader.simple_columns

    def counted(*args, **kwargs):
        found = original(*args, **kwargs)
        calls.append(found is not None)
        return found

    monkeypatch.setattr(reader, "simple_columns", counted)
    text = HEADER + "1, 2,'b c',hello,2020-01-02,yes\n%\n\n?,?,?,?,?,?\r\n-3,2.7,a,'x y',?,no\n%"
    columns, _, lines = reader.parse_arff(text, "f.arff")
    assert calls == [True]
    assert lines.tolist() == [9, 12, 13]
    assert np.isnan(columns["n"].values[1]) and columns["i"].values.tolist()[::2] == [2.0, 2.0]
    assert columns["c"].uniques == ["b c", "a"] and columns["c"].codes.tolist() == [0, -1, 1]


@pytest.mark.parametrize("path", sorted(WEKA.glob("*.arff")), ids=lambda p: p.name)
def test_weka_files_read_alike_both_ways(path):
    assert_same(path.read_text(encoding="utf-8", errors="replace"))


def test_a_value_longer_than_the_csv_modules_limit_is_left_to_liac_arff():
    """csv refuses a field over its limit (128 KiB unless a run raised it, as dtree's CSV reader
    does); liac-arff reads it, so the file takes its path."""
    text = HEADER + "1,2,a,'" + "x" * 200_000 + "',2020-01-02,yes\n"
    before = csv.field_size_limit(131_072)
    try:
        assert reader.simple_columns(text[len(HEADER) :], 9, ATTRIBUTES, [n for n, _ in ATTRIBUTES]) is None
        columns, _, lines = reader.parse_arff(text, "f.arff")
    finally:
        csv.field_size_limit(before)
    assert columns["s"].uniques == ["x" * 200_000] and lines.tolist() == [9]
    assert_same(text)  # with the limit raised, the whole-section path reads it alike
