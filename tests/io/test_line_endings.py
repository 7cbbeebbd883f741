"""Line ends: LF, CRLF, CR and mixtures of them read as Python's csv module reads them (the reference).

The reference is ``csv.reader(io.StringIO(text, newline=''), skipinitialspace=True)``
(the stdlib's own reading, with dtree's rule that leading spaces of a cell do
not count): its records are the rows, ``line_num`` gives the line where each
record starts, and each line end (LF, CRLF, lone CR) counts once. Every table
is read by both parsers (the plain one for small files, pandas' C parser forced
with ``PLAIN_MAX = -1``), with and without quoted values holding line ends,
with and without blank lines.
"""

from __future__ import annotations

import csv
import io
import random

import pytest

from dtcli.errors import DataError
from dtcli.io.csv import reader as csv_reader
from dtcli.io.read import read_data

ENDINGS = {"lf": ["\n"], "crlf": ["\r\n"], "cr": ["\r"], "mixed": ["\n", "\r\n", "\r"]}
PLAIN = ["a", "b7", "Köln", "x y", "?", "", "12", "-3.5", "NA", "z "]
QUOTED = ['"p\nq"', '"r\rs"', '"t\r\nu"', '"v,w"', '"say ""hi"""', '" lead"', '""']


def reference(text: str):
    """The header, the rows (cells, '' and '?' missing) and the line where each row starts, by the csv module."""
    reader = csv.reader(io.StringIO(text, newline=""), skipinitialspace=True)
    records, previous = [], 0
    for record in reader:
        if record:
            records.append((previous + 1, record))
        previous = reader.line_num
    header = [name.strip() for name in records[0][1]]
    rows = [[None if cell in ("", "?") else cell for cell in record] for _, record in records[1:]]
    return header, rows, [line for line, _ in records[1:]]


def table_text(endings: str, quoted: bool, blank: bool, seed: int) -> str:
    """A table of 3 text columns and 12 rows; line ends drawn from ``ENDINGS[endings]``."""
    rng = random.Random(seed)
    pool = PLAIN + (QUOTED if quoted else [])
    lines = ["name,city,label"] + [",".join(rng.choice(pool) for _ in range(3)) for _ in range(12)]
    if blank:
        for _ in range(3):
            lines.insert(rng.randint(1, len(lines)), "")
    ends = ENDINGS[endings]
    return "".join(line + (ends[i % len(ends)] if len(ends) > 1 else ends[0]) for i, line in enumerate(lines))


def cells(raw) -> list[list]:
    columns = [raw.frame[name].tolist() for name in raw.frame.columns]
    return [list(row) for row in zip(*columns)]


@pytest.mark.parametrize("blank", [False, True], ids=["dense", "blank-lines"])
@pytest.mark.parametrize("quoted", [False, True], ids=["plain-cells", "quoted-newlines"])
@pytest.mark.parametrize("path", ["plain", "pandas"])
@pytest.mark.parametrize("endings", sorted(ENDINGS))
def test_line_ends_read_as_the_csv_module_reads_them(tmp_path, monkeypatch, endings, path, quoted, blank):
    if path == "pandas":
        monkeypatch.setattr(csv_reader, "PLAIN_MAX", -1)
    for seed in range(4):
        text = table_text(endings, quoted, blank, seed)
        file = tmp_path / f"t{seed}.csv"
        file.write_bytes(text.encode())
        header, rows, lines = reference(text)
        raw = read_data(str(file), text_columns=header)
        assert list(raw.frame.columns) == header
        assert cells(raw) == rows, repr(text)
        assert raw.lines.tolist() == lines, repr(text)


@pytest.mark.parametrize("endings", sorted(ENDINGS))
def test_rows_echo_as_written_whatever_the_line_ends(tmp_path, endings):
    text = table_text(endings, quoted=False, blank=True, seed=1)
    file = tmp_path / "t.csv"
    file.write_bytes(text.encode())
    expected = [line for line in io.StringIO(text, newline="").read().splitlines() if line.strip()]
    assert read_data(str(file)).echo_lines() == expected


@pytest.mark.parametrize("path", ["plain", "pandas"])
@pytest.mark.parametrize(
    ("text", "header", "rows"),
    [
        ('a,"b\nc"\n1,x\n2,y\n', ["a", "b\nc"], [["1", "x"], ["2", "y"]]),
        ('"a\r\nb",c\r\n1,x\r\n', ["a\r\nb", "c"], [["1", "x"]]),
        ('"a\rb","c,d"\r1,x\r', ["a\rb", "c,d"], [["1", "x"]]),
        ('\n\n"h\n1",h2\n1,2\n', ["h\n1", "h2"], [["1", "2"]]),
    ],
    ids=["lf", "crlf", "cr-and-separator", "after-blank-lines"],
)
def test_a_quoted_header_cell_may_hold_a_line_end(tmp_path, monkeypatch, path, text, header, rows):
    if path == "pandas":
        monkeypatch.setattr(csv_reader, "PLAIN_MAX", -1)
    file = tmp_path / "h.csv"
    file.write_bytes(text.encode())
    raw = read_data(str(file), text_columns=header)
    assert list(raw.frame.columns) == header
    assert cells(raw) == rows


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("a,b\r1,x\r2\r3,z\r", 3),  # CR only, ragged
        ("a,b\r\n1,x\r2,y\n3\r", 4),  # mixed
        ("a,b\r\r\r1,x\r2,y,z\r", 5),  # blank CR lines count
        ('a,b\r"x\ry",1\r1,2,3\r', 4),  # a quoted CR is inside its line's record
        ('a,b\r\n"x\r\ny",1\r\n"p\nq",2\r\n1,2,3\r\n', 6),
        ("a,b\n1,x\ry\n", 3),  # a lone CR ends a line in an LF file too
        ("a,b\n1,x\n,,,\n", 3),  # wider than the header, even with nothing in it
        ('a,"b"\n1,x\n , ,\n', 3),
    ],
)
def test_line_numbers_count_every_line_end_once(tmp_path, text, line):
    file = tmp_path / "r.csv"
    file.write_bytes(text.encode())
    with pytest.raises(DataError, match=rf"r\.csv, line {line}: "):
        read_data(str(file))


def test_pandas_misreading_after_a_blank_cr_line_is_mended(tmp_path, monkeypatch):
    """pandas' C parser reads 'a,b\\r\\r,1' as ('1', missing): the blank line's CR becomes an LF first."""
    monkeypatch.setattr(csv_reader, "PLAIN_MAX", -1)
    for text in ["a,b\r\r,1\r2,3\r", 'a,"b"\r\r,1\r"x\r\ry",3\r']:
        file = tmp_path / "m.csv"
        file.write_bytes(text.encode())
        header, rows, _ = reference(text)
        assert cells(read_data(str(file), text_columns=header)) == rows


@pytest.mark.parametrize("quoted", [False, True])
def test_many_blank_lines_cost_nothing_and_keep_their_numbers(tmp_path, quoted):
    head = 'a,"b"' if quoted else "a,b"
    text = head + "\n" + "\n" * 100_000 + "1,x\r\n" + "\r\n" * 50_000 + "2,y\n"
    file = tmp_path / "blank.csv"
    file.write_bytes(text.encode())
    raw = read_data(str(file), text_columns=["a", "b"])
    assert raw.lines.tolist() == [100_002, 150_003]
    assert cells(raw) == [["1", "x"], ["2", "y"]]
    assert len(raw.raw) < 100  # the value parsers got the file without its blank lines


@pytest.mark.parametrize("step", [1, 2, 5, 1000])
@pytest.mark.parametrize("blank", [False, True])
@pytest.mark.parametrize("endings", sorted(ENDINGS))
def test_rows_echo_in_blocks_as_whole(tmp_path, endings, blank, step):
    for seed, tail in ((1, ""), (2, "\n"), (3, "\n\n")):
        text = table_text(endings, quoted=False, blank=blank, seed=seed).rstrip("\r\n") + tail
        file = tmp_path / "t.csv"
        file.write_bytes(text.encode())
        raw = read_data(str(file))
        lines = raw.echo_lines()
        echo = raw.echo_blocks(step)
        if lines is None:
            assert echo is None
            continue
        header, blocks = echo
        blocks = list(blocks)
        assert [header] + [line for block in blocks for line in block] == lines, repr(text)
        assert all(len(block) == step for block in blocks[:-1])
