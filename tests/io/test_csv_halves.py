"""csv_halves: a large plain CSV file parsed as two halves at once gives the whole-file reader's columns.

Every file here is small; the tests lower ``SPLIT_BYTES`` (and the chunk to a few rows, so that
codes are merged across many chunks and both halves) and force pandas' C parser.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dtcli.errors import DtreeError
from dtcli.io.columns import NumberColumn, code_type
from dtcli.io.csv import halves as csv_halves
from dtcli.io.csv import reader as csv_reader
from dtcli.io.read import read_data


@pytest.fixture
def halves_on(monkeypatch) -> list:
    """Files of any size read as halves by pandas, a few rows a chunk; the list of what
    ``read_halves`` answered (None: read whole)."""
    answers: list = []
    read = csv_halves.read_halves

    def spy(*args):
        answers.append(read(*args))
        return answers[-1]

    monkeypatch.setattr(csv_reader, "PLAIN_MAX", -1)
    monkeypatch.setattr(csv_halves, "SPLIT_BYTES", 0)
    monkeypatch.setattr(csv_halves, "SPLIT_CHUNK", 3)
    monkeypatch.setattr(csv_halves, "_cores", lambda: 2)
    monkeypatch.setattr("dtcli.io.csv.pandas_reader.read_halves", spy)
    return answers


def columns_of(path, monkeypatch, halves: bool, text_columns=("label",)):
    """Each column of the file as (its kind, cells, and the dtype of its numbers or codes), or the error."""
    monkeypatch.setattr(csv_halves, "SPLIT_BYTES", 0 if halves else 10**12)
    try:
        raw = read_data(str(path), text_columns=list(text_columns))
    except DtreeError as exc:
        return str(exc)
    frame = raw.frame
    made = {}
    for name in frame.columns:
        column = frame[name]
        if isinstance(column, NumberColumn):
            made[name] = ("number", column.values.tobytes(), column.values.dtype)
        else:
            made[name] = ("text", column.codes.tolist(), column.uniques, column.codes.dtype)
    return made


def table(n: int, seed: int, line_end: str = "\n") -> str:
    rng = np.random.default_rng(seed)
    words = ["red", "green", " blue", "?", "", "NA", "teal", "x y", "zz"]
    lines = ["a,b,x,y,label"]
    for _ in range(n):
        x = "" if rng.random() < 0.1 else f"{rng.normal(50, 20):.2f}"
        y = rng.choice(["?", "NaN", "", "-0", "1e-5", "3", " 7.25", "inf"])
        cells = [rng.choice(words), rng.choice(words[:4]), x, y, f"k{rng.integers(0, 3)}"]
        lines.append(",".join(cells))
    return line_end.join(lines) + line_end


@pytest.mark.parametrize("line_end", ["\n", "\r\n"])
@pytest.mark.parametrize("seed", range(3))
def test_two_halves_read_the_whole_files_columns(tmp_path, monkeypatch, halves_on, seed, line_end):
    path = tmp_path / "t.csv"
    path.write_text(table(200 + seed, seed, line_end), encoding="utf-8", newline="")
    whole = columns_of(path, monkeypatch, halves=False)
    assert halves_on == [None]  # (not asked to)
    assert columns_of(path, monkeypatch, halves=True) == whole
    assert halves_on[-1] is not None


def test_a_last_line_without_its_line_end(tmp_path, monkeypatch, halves_on):
    path = tmp_path / "t.csv"
    path.write_text(table(50, 4).rstrip("\n"), encoding="utf-8")
    assert columns_of(path, monkeypatch, halves=True) == columns_of(path, monkeypatch, halves=False)
    assert halves_on[0] is not None


@pytest.mark.parametrize(
    "change",
    [
        lambda text: text.replace("\n", "\n\n", 3),  # blank lines (pandas skips them)
        lambda text: text.replace("red", '"red"'),  # quotes
        lambda text: text[: len(text) * 3 // 4] + "k0,k1,oops,1,k2\n" + text[len(text) * 3 // 4 :],  # late text
        lambda text: text.replace(",k1\n", ",True\n").replace(",k0\n", ",False\n").replace(",k2\n", ",True\n"),
        lambda text: "\n".join(line.rsplit(",", 1)[0] + "," + str(i % 3) for i, line in enumerate(text.splitlines())),
    ],
    ids=["blank-lines", "quotes", "text-in-numbers", "booleans", "numeric-classes"],
)
def test_files_pandas_reads_otherwise_in_parts_are_read_whole(tmp_path, monkeypatch, halves_on, change):
    path = tmp_path / "t.csv"
    text = table(120, 5)
    body = text.index("\n") + 1  # the header stays as it is
    path.write_text(text[:body] + change(text[body:]), encoding="utf-8")
    assert columns_of(path, monkeypatch, halves=True) == columns_of(path, monkeypatch, halves=False)
    assert all(answer is None for answer in halves_on)


def test_one_core_reads_whole(tmp_path, monkeypatch, halves_on):
    monkeypatch.setattr(csv_halves, "_cores", lambda: 1)
    path = tmp_path / "t.csv"
    path.write_text(table(60, 6), encoding="utf-8")
    columns_of(path, monkeypatch, halves=True)
    assert halves_on == [None]


CELLS = st.sampled_from(
    ["", "?", "NA", "NaN", "1", "-0", "2.5", " 3", "1e308", "1e999", "a", "b c", "TRUE", "007", "é"]
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(CELLS, min_size=3, max_size=3), min_size=1, max_size=40), st.booleans())
def test_any_table_reads_as_the_whole_file_reads_it(tmp_path, monkeypatch, halves_on, rows, crlf):
    end = "\r\n" if crlf else "\n"
    path = tmp_path / "t.csv"
    path.write_text(end.join(["p,q,label"] + [",".join(row) for row in rows]) + end, encoding="utf-8", newline="")
    assert columns_of(path, monkeypatch, halves=True) == columns_of(path, monkeypatch, halves=False)


def test_codes_take_the_narrowest_type_that_holds_them(tmp_path, monkeypatch):
    assert [code_type(n) for n in (0, 127, 128, 32_767, 32_768)] == [np.int8, np.int8, np.int16, np.int16, np.int32]
    monkeypatch.setattr(csv_reader, "PLAIN_MAX", -1)
    path = tmp_path / "t.csv"
    path.write_text("a,b,label\n" + "".join(f"v{i},w{i % 3},k{i % 2}\n" for i in range(300)), encoding="utf-8")
    for halves in (False, True):
        made = columns_of(path, monkeypatch, halves)
        assert [made[name][-1] for name in ("a", "b", "label")] == [np.int16, np.int8, np.int8]
        assert made["a"][2] == [f"v{i}" for i in range(300)] and made["a"][1] == list(range(300))
