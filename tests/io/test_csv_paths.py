"""The two CSV readers agree: small plain files are read in Python (no pandas import), the
rest by pandas' C parser. Every table here is read both ways and must give the same
columns (kinds, numbers bit for bit, text cells and their order, missing cells) and the
same Table; and ``parse_number`` must accept exactly what pandas' ``to_numeric`` accepts.
"""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from dtcli.io.columns import NumberColumn, TextColumn
from dtcli.io.csv import cells as csv_cells
from dtcli.io.csv import lines as csv_lines
from dtcli.io.csv import reader as csv_reader
from dtcli.io.csv.cells import c_number, parse_number
from dtcli.io.csv.pandas_reader import read_columns
from dtcli.io.encode import infer_table
from dtcli.io.read import read_data
from helpers import SAMPLES

NUMBERS = [
    "0",
    "-0",
    "+1",
    "007",
    "1.5",
    ".5",
    "5.",
    "1e3",
    "1E-2",
    "-2.50",
    "inf",
    "-Infinity",
    "1e400",
    "3.141592653589793238",
    "123456789012345678901",
]
MISSING = ["", "?", "NA", "NaN", "nan", "NAN", "N/A"]
WORDS = [
    "a",
    "b",
    "Sunny",
    " x",
    "x ",
    "  y",
    "TRUE",
    "false",
    "1_000",
    "1,5",
    "-nan",
    "١٢",
    "\xa05",
    "5\xa0",
    "\t3",
    "3\t",
    "Köln",
    "None",
    "0x10",
    "e5",
    "1e",
    "--1",
    "?x",
    "na",
    " ",
    "\t",
    " ? ",
    " NA",
]


def cell(kinds: str):
    pools = {"n": NUMBERS, "m": MISSING, "w": WORDS}
    return st.sampled_from([value for k in kinds for value in pools[k]])


@st.composite
def csv_texts(draw):
    """A CSV text with numeric, nearly numeric, text and missing-heavy columns."""
    width = draw(st.integers(1, 5))
    kinds = [draw(st.sampled_from(["n", "nm", "nmw", "w", "wm", "m"])) for _ in range(width)]
    n_rows = draw(st.integers(0, 12))
    rows = [[draw(cell(k)) for k in kinds] for _ in range(n_rows)]
    if rows and draw(st.booleans()):  # a word late in a numeric column: past the sample
        rows[-1][draw(st.integers(0, width - 1))] = draw(st.sampled_from(WORDS))
    sep = draw(st.sampled_from([",", ";", "\t"]))
    header = [f"c{i}" for i in range(width)]
    end = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    rows = [[value.replace(sep, "") for value in row] for row in rows]  # a quote-free file has no separator in a cell
    lines = [sep.join(header)] + [sep.join(row) for row in rows]
    if draw(st.booleans()) and len(lines) > 1:
        lines.insert(draw(st.integers(1, len(lines))), "")  # a blank line
    text = end.join(lines) + (end if draw(st.booleans()) else "")
    return text, sep, header


def same_column(a, b) -> bool:
    if isinstance(a, NumberColumn):
        if not isinstance(b, NumberColumn) or len(a.values) != len(b.values):
            return False
        nan = np.isnan(a.values)
        return (
            (nan == np.isnan(b.values)).all()
            and np.array_equal(a.values[~nan], b.values[~nan])
            and (np.signbit(a.values[~nan]) == np.signbit(b.values[~nan])).all()
        )
    return isinstance(b, TextColumn) and a.codes.tolist() == b.codes.tolist() and list(a.uniques) == list(b.uniques)


@settings(max_examples=200, deadline=None)
@given(csv_texts(), st.integers(1, 6), st.booleans())
def test_plain_reader_reads_as_pandas_does(case, sample_rows, text_target):
    text, sep, header = case
    texts = {header[-1]} if text_target else set()
    saved = csv_cells.SAMPLE_ROWS
    csv_cells.SAMPLE_ROWS = sample_rows  # small samples, so later rows can contradict them
    try:
        plain = csv_reader.plain_columns(text, sep, len(header), texts, header)
        assume(plain is not None)  # a line of white space: pandas reads it (test_unusual_files_go_to_pandas)
        payload = bytearray(text.encode())
        csv_lines.record_lines(payload, sep, len(header), "t.csv")  # as parse_csv does: lone CRs mended for pandas
        reference = read_columns(payload, header, sep, texts, "t.csv")
    finally:
        csv_cells.SAMPLE_ROWS = saved
    assert len(plain) == len(reference)
    for a, b in zip(plain, reference):
        assert same_column(a, b), (a, b)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("0123456789+-.eEinfatyINFATY _,x \t\xa0١")), max_size=12))
@example(" INF")
def test_parse_number_accepts_what_to_numeric_accepts(text):
    # to_numeric refuses white space around inf, which the readers strip before parse_number sees a cell
    # (the C parser's own rule for inf is checked below, in test_c_number_reads_what_the_c_parser_reads)
    if text != text.strip() and text.strip().lower().lstrip("+-") in ("inf", "infinity"):
        return
    expected = pd.to_numeric(pd.Series([text], dtype=object), errors="coerce").to_numpy(dtype=np.float64)[0]
    value = parse_number(text)
    if math.isnan(expected):
        lowered = text.strip().lower().lstrip("+-")
        assert value is None or lowered in ("nan",), text
    else:
        assert value is not None and value == expected, text


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("0123456789+-.eEinfatyINFATY _x\t\xa0")), min_size=1, max_size=10))
@example("inf ")  # the C parser takes white space around digits, but not after inf
@example("-Infinity\t")
@example("\tinf")
@example("5 ")
def test_c_number_reads_what_the_c_parser_reads(text):
    import io

    try:
        frame = pd.read_csv(
            io.StringIO("x,y\n" + text + ",a\n"),
            dtype={"x": np.float64, "y": "category"},
            na_values={"x": csv_cells.NUMERIC_MISSING, "y": csv_cells.MISSING_CELLS},
            keep_default_na=False,
            skipinitialspace=True,
            engine="c",
            index_col=False,
        )
    except ValueError:
        expected = None
    else:
        expected = frame["x"][0]
    if text.lstrip(" ") in csv_cells.NUMERIC_MISSING:
        return
    value = c_number(text.lstrip(" "))
    if expected is None:
        assert value is None, text
    else:
        assert value is not None and value == expected and math.copysign(1, value) == math.copysign(1, expected)


@pytest.mark.parametrize(
    "name",
    ["weather.csv", "weather-numeric.csv", "risk.csv", "restaurant.csv", "temperature.csv", "contact-lenses.csv"],
)
def test_sample_tables_are_the_same_both_ways(name, monkeypatch):
    path = str(SAMPLES / name)
    plain = infer_table(read_data(path), None)
    monkeypatch.setattr(csv_reader, "PLAIN_MAX", -1)
    reference = infer_table(read_data(path), None)
    assert plain.schema == reference.schema
    for a, b in zip(plain.columns, reference.columns):
        assert np.array_equal(a, b, equal_nan=a.dtype.kind == "f")
    assert np.array_equal(plain.y, reference.y) and plain.lines.tolist() == reference.lines.tolist()


def test_unusual_files_go_to_pandas():
    header = ["a", "b"]
    for text in ['a,b\n"x",1\n', "a,b\n   \n1,2\n", "a,b\n1\n"]:
        assert csv_reader.plain_columns(text, ",", 2, set(), header) is None, text


@pytest.mark.parametrize(("columns", "rows", "parser"), [(40, 3, "plain"), (3, 40, "pandas")])
def test_wide_files_are_read_in_python(tmp_path, monkeypatch, columns, rows, parser):
    """pandas spends about a millisecond a column: a file with more columns than rows is read in Python
    whatever its size (100,000 columns took 80 s through pandas)."""
    import dtcli.io.csv.pandas_reader

    used = []
    monkeypatch.setattr(csv_reader, "PLAIN_MAX", 10)
    monkeypatch.setattr(dtcli.io.csv.pandas_reader, "read_columns", lambda *args: used.append(1) or read_columns(*args))
    path = tmp_path / "w.csv"
    text = ",".join(f"c{i}" for i in range(columns)) + "\n"
    path.write_text(text + "".join(",".join(str((i * r) % 7) for i in range(columns)) + "\n" for r in range(rows)))
    raw = read_data(str(path))
    assert raw.frame.n_rows == rows and len(raw.frame.columns) == columns
    assert bool(used) == (parser == "pandas")


def test_small_files_do_not_import_pandas(tmp_path):
    """Start-up: the commands on the sample data (CSV and ARFF) never import pandas."""
    code = (
        "import sys; from dtcli.cli import cli\n"  # main() ends the process with os._exit: the group itself
        "try:\n    cli.main(sys.argv[1:], prog_name='dtree')\nexcept SystemExit:\n    pass\n"
        "print('pandas' in sys.modules, file=sys.stderr)"
    )
    weather, model = str(SAMPLES / "weather.csv"), str(tmp_path / "m.json")
    commands = [
        ["gain", weather, "--target", "PlayTennis", "--ignore", "Day"],
        ["train", weather, "--target", "PlayTennis", "--ignore", "Day", "-o", model],
        ["train", str(SAMPLES / "weather.arff"), "-a", "c45"],
        ["predict", model, weather, "--proba"],
    ]
    for command in commands:
        done = subprocess.run([sys.executable, "-c", code, *command], capture_output=True, text=True)
        assert done.stderr.strip().splitlines()[-1] == "False", (command, done.stderr)


def _one_by_one(cells: list[str]) -> list | None:
    values = [math.nan if cell in csv_cells.NUMERIC_MISSING else c_number(cell) for cell in cells]
    return None if any(value is None for value in values) else values


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(csv_cells.NUMERIC_MISSING + ["-0", "1e5", ".5", "5.", "+7", "1e", "inf", "1 ", "0x1"]),
            st.text(alphabet=st.sampled_from(list("0123456789+-.eE \n")), max_size=6),
            st.floats(allow_nan=False).map(repr),
        ),
        max_size=30,
    )
)
@example(["1", "2\n3"])  # a line end inside a cell: not two numbers
@example(["1.5", "", "?", "NA", "-0"])
def test_a_column_reads_as_its_cells_one_by_one(cells):
    """``c_numbers`` (one match for a plain column) gives ``c_number`` of each cell, bit for bit,
    NaN for the missing markers, and None where any cell is no number."""
    got, expected = csv_cells.c_numbers(cells), _one_by_one(cells)
    if expected is None:
        assert got is None
        return
    assert got is not None and len(got) == len(expected)
    for a, b in zip(got, expected):
        assert (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(list("0123456789+-.eEin \t?NA")), max_size=5), max_size=12))
def test_looks_numeric_as_cell_by_cell(cells):
    values = {cell.strip() for cell in cells}.difference(csv_cells.NUMERIC_MISSING)
    expected = len(values) > 0 and all(parse_number(value) is not None for value in values)
    assert csv_cells.looks_numeric(cells) == expected
