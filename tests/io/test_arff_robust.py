"""Malformed ARFF files end in one DataError naming the line, never in liac-arff's own crash.

The cases below are the crashes a fuzzer found in liac-arff 2.4 (an
``IndexError`` on ``{}``, a ``ValueError`` on a bad escape or a bare
``@relation``, an ``OverflowError`` on an infinite integer, a message that
fails to format on a ``%``, rows left unconverted on an integer ``nan``),
lone UTF-16 surrogates from escapes, and line numbers with blank lines and
every kind of line end. Hypothesis then throws random ARFF-like text at the
reader: only DataError may come out.
"""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dtcli.errors import DataError, DtreeError
from dtcli.io.arff.reader import parse_arff
from dtcli.io.encode import infer_table
from dtcli.io.read import read_data

HEAD = "@relation r\n@attribute a {x,y}\n"


def arff(tmp_path, text: str, name: str = "t.arff"):
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    return read_data(str(path))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "@relation r\n@attribute x {}\n@data\n",
            r"line 2: invalid ARFF: a nominal attribute needs at least one value",
        ),
        ("@relation r\n@attribute x { }\n@data\n", r"line 2: invalid ARFF: a nominal attribute needs at least one"),
        ("@relation\n@attribute x numeric\n@data\n", r"line 1: invalid ARFF: expected a name after @relation"),
        ("@relation r\n@attribute\n@data\n", r"line 2: invalid ARFF: expected a name after @relation or @attribute"),
        (HEAD + "@attribute s string\n@data\nx,'a\\89'\n", r"line 5: invalid ARFF: a quoted value holds an escape"),
        (HEAD + "@attribute s string\n@data\nx,'a\\q'\n", r"line 5: invalid ARFF: a quoted value holds an escape"),
        (
            HEAD + "@attribute n integer\n@data\nx,1\ny,inf\n",
            r"line 6: invalid ARFF: a value of an integer attribute is inf",
        ),
        (
            HEAD + "@attribute n integer\n@data\nx,nan\n",
            r"line 5: invalid ARFF: 'nan' is not a number \(attribute 'n'\)",
        ),
        (HEAD + "@data\nx\n'50%'\n", r"line 5: invalid ARFF: Data value 50% not found in nominal declaration$"),
        (HEAD + "@data\nx\n'%d%s'\n", r"line 5: invalid ARFF: Data value %d%s not found in nominal declaration$"),
        (
            HEAD + "@data\nx,y\n",
            r"line 4: invalid ARFF: 2 value\(s\) on the line where the @attribute lines declare 1; give every "
            r"attribute a value \(\? when missing\)$",
        ),
        (HEAD + "@data\n{5 x}\n", r"line 4: invalid ARFF: Bad @DATA instance format"),
        (
            HEAD + "@attribute n numeric\n@data\nx,abc\n",
            r"line 5: invalid ARFF: 'abc' is not a number \(attribute 'n'\); write \? for a missing value",
        ),
        (
            "@relation r\n@attribute a {x}\n@attribute a {y}\n@data\n",
            r"line 3: invalid ARFF: attribute 'a' is declared twice; rename one",
        ),
        ("@attribute a {x}\n@data\n", r"line 1: invalid ARFF: expected @relation"),
        (
            "@relation r\n@attribute a {x}\n",
            r"line 2: invalid ARFF: expected @relation, then @attribute lines, then @data",
        ),
        ("@relation r\n@attribute a relational\n@data\n", r"line 2: invalid ARFF: unsupported attribute type"),
        (
            '@relation r\n@attribute a date "yyyy-QQ"\n@data\n',
            r"line 2: invalid ARFF: date format 'yyyy-QQ': dtree does not read the letter 'Q' \(attribute 'a'\)",
        ),
        (
            "@relation r\n@attribute a date yyyy-MM-dd\n@data\n2024-01-02\n2024-13-01\n",
            r"line 5: invalid ARFF: '2024-13-01' is not a date written yyyy-MM-dd \(attribute 'a'\)",
        ),
    ],
)
def test_malformed_arff_is_one_line_naming_the_line(tmp_path, text, expected):
    with pytest.raises(DataError, match=expected) as info:
        arff(tmp_path, text)
    assert "\n" not in str(info.value) and str(info.value).startswith(str(tmp_path / "t.arff"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            HEAD + "@attribute s string\n@data\nx,'\\ud800'\n",
            r"line 5: a value of 's' holds a lone surrogate \(\\ud800\)",
        ),
        (
            "@relation r\n@attribute a {'\\ud83d',b}\n@data\n",
            r"line 2: a nominal value holds a lone surrogate \(\\ud83d\)",
        ),
    ],
)
def test_lone_surrogates_from_escapes_are_refused(tmp_path, text, expected):
    with pytest.raises(DataError, match=expected):
        arff(tmp_path, text)


def test_attribute_names_keep_escapes_as_written(tmp_path):
    raw = arff(tmp_path, "@relation r\n@attribute '\\udfff' {a}\n@data\na\n")
    assert list(raw.frame.columns) == ["\\udfff"]


def test_an_escaped_surrogate_pair_is_the_character(tmp_path):
    raw = arff(tmp_path, "@relation r\n@attribute c {'\\ud83d\\ude00',b}\n@data\n'\\ud83d\\ude00'\nb\n")
    assert raw.declared["c"].values == ("\U0001f600", "b")
    assert raw.frame["c"].tolist() == ["\U0001f600", "b"]
    assert infer_table(raw, None).classes == ("\U0001f600", "b")


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
def test_line_numbers_count_blank_lines_and_every_line_end(tmp_path, end):
    lines = ["", "% c", "", "@relation r", "@attribute a {x,y}", "  ", "@data", "", "x", "%", "\t", "y", "", "z"]
    said = r"t\.arff, line 14: invalid ARFF: 'z' is not a value attribute 'a' declares \(\{x, y\}\)"
    with pytest.raises(DataError, match=said):
        arff(tmp_path, end.join(lines) + end)
    raw = arff(tmp_path, end.join(lines[:-1]) + end)
    assert raw.lines.tolist() == [9, 12]


def test_many_blank_lines_are_skipped_at_once(tmp_path):
    text = "@relation r\n@attribute a {x,y}\n@data\n" + "\n" * 200_000 + "x\n" + "\r\n" * 100_000 + "y\n"
    raw = arff(tmp_path, text)
    assert raw.lines.tolist() == [200_004, 300_005]


# --- fuzzing ---------------------------------------------------------------------------------

TOKENS = [
    "@relation r",
    "@attribute",
    "@data",
    "%",
    " ",
    ",",
    "{",
    "}",
    "'",
    '"',
    "\\",
    "\\u",
    "\\ud800",
    "\\8",
    "\\%",
    "%d",
    "\n",
    "\r",
    "\r\n",
    "é",
    "?",
    "1",
    "1e400",
    "inf",
    "nan",
    "numeric",
    "integer",
    "string",
    "real",
    "date",
    "{a,b}",
    "{}",
    "{0 a}",
    "{9 b}",
    "a",
    "b",
    "x",
]
TYPES = ["numeric", "integer", "real", "string", "{a,b}", "{'x y',z}", "{}", "{'\\ud800'}", "date"]
VALUES = ["a", "b", "?", "1", "-2.5", "nan", "inf", "1e400", "'x y'", "z", "'\\ud800'", "'\\q'", "", "{0 a}", "50%"]


@st.composite
def arff_texts(draw):
    """ARFF-like text: a plausible header and rows, then random tokens spliced in."""
    types = draw(st.lists(st.sampled_from(TYPES), min_size=1, max_size=4))
    lines = ["@relation r", *(f"@attribute c{i} {t}" for i, t in enumerate(types)), "@data"]
    lines += [
        ",".join(draw(st.lists(st.sampled_from(VALUES), min_size=1, max_size=5)))
        for _ in range(draw(st.integers(0, 4)))
    ]
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        at = draw(st.integers(0, len(lines[i])))
        lines[i] = lines[i][:at] + draw(st.sampled_from(TOKENS)) + lines[i][at:]
    return draw(st.sampled_from(["\n", "\r\n", "\r"])).join(lines)


@settings(max_examples=600, deadline=None)
@given(arff_texts())
def test_only_data_errors_come_out_of_the_arff_reader(text):
    try:
        frame, declared, lines = parse_arff(text, "f.arff")
    except DtreeError as exc:
        assert "\n" not in str(exc)
        str(exc).encode("utf-8")  # printable: no lone surrogate in the message
        return
    for name, column in frame.data.items():
        cells = [cell for cell in column.tolist() if isinstance(cell, str)]
        for cell in cells + list(declared.get(name).values if name in declared else ()):
            cell.encode("utf-8")  # no lone surrogate reaches a writer


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=40).map("".join))
def test_random_token_soup_gives_only_data_errors(text):
    with contextlib.suppress(DtreeError):
        parse_arff(text, "f.arff")
