"""Hypothesis against the CSV reader: random bytes give a table or a DataError, nothing else; a table
written by Python's csv module reads back to the same cells, through both parsers.

The reference for what a written table holds is the table itself (quoted as
the csv module quotes it), and for any text the csv module's own reading with
``newline=''`` and ``skipinitialspace=True``. Cells are read as text
(``text_columns``), so the comparison is of the cells as written; ``""`` and
``?`` are missing.
"""

from __future__ import annotations

import csv
import io

from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from dtcli.errors import DtreeError
from dtcli.io.csv import reader as csv_reader
from dtcli.io.encode import infer_table
from dtcli.io.read import read_data

PIECES = [
    b"a",
    b"b",
    b"1",
    b"2.5",
    b",",
    b";",
    b'"',
    b"\r",
    b"\n",
    b"\r\n",
    b" ",
    b"\t",
    b"?",
    b"\x00",
    b"\xef\xbb\xbf",
]
PIECES += [b"\xc3\xa9", b"\xff", b"\xc3", b"NA", b"-", b"e", b"inf", b"\xe2\x80\xa8", b"@relation r", b"@data", b"%"]
CELL_CHARS = ["a", "b", "Z", "1", "0", ".", "-", "e", "?", ",", '"', "\n", "\r", " ", "é", "中", "\u2028", "\x85"]
CELL_CHARS += ["\x0c", "'", "%"]


def through_both_parsers(monkeypatch, read):
    """``read()`` with the plain reader allowed, then with pandas' C parser forced; both results."""
    first = read()
    monkeypatch.setattr(csv_reader, "PLAIN_MAX", -1)
    try:
        return first, read()
    finally:
        monkeypatch.undo()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(PIECES), max_size=30).map(b"".join), st.sampled_from(["t.csv", "t.arff", "t.tsv"]))
def test_random_bytes_give_a_table_or_a_data_error(tmp_path, monkeypatch, data, name):
    path = tmp_path / name
    path.write_bytes(data)
    for path_kind in ("plain", "pandas"):
        if path_kind == "pandas":
            monkeypatch.setattr(csv_reader, "PLAIN_MAX", -1)
        try:
            raw = read_data(str(path))
            infer_table(raw, None)
        except DtreeError as exc:
            assert "\n" not in str(exc) and "\r" not in str(exc)
    monkeypatch.undo()


names = st.text(alphabet=st.sampled_from(["a", "b", "x", "é", ",", '"', "\n", "\r", " ", "1"]), min_size=1, max_size=5)
cells = st.text(alphabet=st.sampled_from(CELL_CHARS), max_size=6).filter(lambda c: not c.startswith(" "))


@st.composite
def tables(draw):
    """A header of distinct names (no surrounding spaces) and rows of cells (none starts with a space)."""
    header = draw(st.lists(names.map(str.strip).filter(bool), min_size=1, max_size=4, unique=True))
    rows = draw(st.lists(st.lists(cells, min_size=len(header), max_size=len(header)), max_size=8))
    return header, rows


def written(header, rows, terminator: str) -> bytes:
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator=terminator)
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue().encode("utf-8")


def as_read(raw) -> list[list]:
    columns = [raw.frame[name].tolist() for name in raw.frame.columns]
    return [list(row) for row in zip(*columns)]


def expected(rows) -> list[list]:
    return [[None if cell in ("", "?") else cell for cell in row] for row in rows]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tables())
def test_a_table_written_by_the_csv_module_reads_back(tmp_path, monkeypatch, table):
    header, rows = table
    path = tmp_path / "w.csv"
    path.write_bytes(written(header, rows, "\r\n"))  # the csv module's default: it quotes CR and LF
    for raw in through_both_parsers(monkeypatch, lambda: read_data(str(path), text_columns=header)):
        assert list(raw.frame.columns) == header
        assert as_read(raw) == expected(rows)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tables(), st.sampled_from(["\n", "\r", "\r\n"]))
@example(table=(["1", "11"], [["", "\n "]]), terminator="\r")  # "1,11\r,\n \r": a line of one space
# '1,",",11,111\r,,,\n \r,,,0\r': pandas skipped the line of one space ended by a lone CR and misread the next
@example(table=(["1", ",", "11", "111"], [["", "", "", "\n "], ["", "", "", "0"]]), terminator="\r")
def test_any_written_text_reads_as_the_csv_module_reads_it(tmp_path, monkeypatch, table, terminator):
    """With LF or CR as terminator the csv module leaves the other line end in a cell unquoted,
    so the text may not hold the table any more: whatever it holds, dtree reads what csv reads."""
    header, rows = table
    data = written(header, rows, terminator)
    path = tmp_path / "w.csv"
    path.write_bytes(data)
    records = [r for r in csv.reader(io.StringIO(data.decode(), newline=""), skipinitialspace=True) if r]
    width = len(records[0])
    # A one-column line of spaces (left by a CR the csv module did not quote) is a blank line to dtree
    # and a row with an empty cell to csv: ambiguous, not compared.
    assume(width > 1 or all(r[0] for r in records[1:]))
    try:
        results = through_both_parsers(monkeypatch, lambda: read_data(str(path), text_columns=records[0]))
    except DtreeError:
        wrong = [r for r in records[1:] if len(r) > width or len(r) < width and any(c.strip(" \t") for c in r)]
        assert wrong, "refused a regular table"
        return
    # A short record of blank cells (a line end the csv module left unquoted) is a row of missing values,
    # but a line of nothing but spaces and tabs (one cell to csv) is a blank line to dtree, as at width 1.
    blank_line = [r for r in records[1:] if len(r) == 1 and not r[0].strip(" \t")]
    kept = [r if len(r) == width else [""] * width for r in records[1:] if len(r) <= width and r not in blank_line]
    reference = expected(kept)
    for raw in results:
        assert as_read(raw) == reference
