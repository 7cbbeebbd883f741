"""The readers and encoders: CSV/ARFF text into the columnar Table.

Every test writes a small file into ``tmp_path`` and reads it through the
real entry points, ``dtcli.io.read.read_data`` and ``dtcli.io.encode``.
"""

from __future__ import annotations

import gzip
import io
import math
import os
import sys

import numpy as np
import pytest

from dtcli.errors import DataError
from dtcli.io.encode import encode_for_schema, infer_table
from dtcli.io.read import read_data
from dtcli.io.write import write_text
from dtcli.model.table import MISSING, NOMINAL, NUMERIC
from helpers import SAMPLES, load

WEATHER_ARFF = """\
% Mitchell's PlayTennis, shortened
@relation weather

@attribute outlook {sunny, overcast, rainy, foggy}
@attribute temperature numeric
@attribute windy {TRUE, FALSE}
@attribute play {yes, no}

@data
rainy, 70, TRUE, no
sunny, 85, FALSE, no
overcast, ?, TRUE, yes
?, 64, FALSE, yes
"""


def write(tmp_path, name, content):
    """Write ``content`` (str as UTF-8, or bytes) to ``tmp_path/name``; return its path as str."""
    path = tmp_path / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return str(path)


def table_of(tmp_path, name, content, target=None, ignore=(), nominal=()):
    return load(write(tmp_path, name, content), target, ignore, nominal)


def attr(table, name):
    for i, attribute in enumerate(table.attributes):
        if attribute.name == name:
            return attribute, table.columns[i]
    raise AssertionError(f"no attribute {name!r} in {[a.name for a in table.attributes]}")


class FakeStdin:
    def __init__(self, data: bytes):
        self.buffer = io.BytesIO(data)


# --- kinds and value order -------------------------------------------------------------------


def test_kinds_inferred_target_defaults_to_last_column(tmp_path):
    table = table_of(tmp_path, "t.csv", "Outlook,Temp,Code,Play\nSunny,85,1,No\nRain,70.5,0,Yes\nSunny,-3,1,Yes\n")
    assert table.schema.target.name == "Play"
    assert [(a.name, a.kind) for a in table.attributes] == [
        ("Outlook", NOMINAL),
        ("Temp", NUMERIC),
        ("Code", NUMERIC),
    ]
    _, temp = attr(table, "Temp")
    assert temp.dtype == np.float64 and temp.tolist() == [85.0, 70.5, -3.0]
    assert table.classes == ("No", "Yes") and table.y.tolist() == [0, 1, 1]


def test_nominal_option_makes_a_01_column_nominal(tmp_path):
    content = "Code,Other,Play\n1,5,No\n0,6,Yes\n1,7,Yes\n"
    path = write(tmp_path, "t.csv", content)
    assert attr(load(path), "Code")[0].kind == NUMERIC
    table = load(path, nominal=("Code",))
    code, column = attr(table, "Code")
    assert code.kind == NOMINAL and code.values == ("1", "0")  # order of first appearance
    assert column.tolist() == [0, 1, 0]
    assert attr(table, "Other")[0].kind == NUMERIC


def test_csv_values_in_order_of_first_appearance(tmp_path):
    table = table_of(tmp_path, "t.csv", "Outlook,Play\nRain,No\nSunny,Yes\nOvercast,Yes\nSunny,No\n")
    outlook, codes = attr(table, "Outlook")
    assert outlook.values == ("Rain", "Sunny", "Overcast")
    assert codes.tolist() == [0, 1, 2, 1]
    assert table.classes == ("No", "Yes")


def test_target_is_nominal_even_when_numeric(tmp_path):
    table = table_of(tmp_path, "t.csv", "x,label\na,1\nb,0\na,1\n")
    assert table.schema.target.kind == NOMINAL
    assert table.classes == ("1", "0")
    assert table.y.tolist() == [0, 1, 0]
    table = table_of(tmp_path, "t.csv", "label,x\n1,a\n0,b\n", target="label")
    assert table.schema.target.kind == NOMINAL and table.classes == ("1", "0")
    assert [a.name for a in table.attributes] == ["x"]


def test_ignore_drops_columns(tmp_path):
    table = table_of(tmp_path, "t.csv", "Day,A,B,Play\nD1,x,y,No\nD2,z,y,Yes\n", ignore=("Day", "B"))
    assert [a.name for a in table.attributes] == ["A"]
    assert len(table.columns) == 1


def test_target_option_picks_a_middle_column(tmp_path):
    table = table_of(tmp_path, "t.csv", "A,Play,B\nx,No,1\ny,Yes,2\n", target="Play")
    assert table.schema.target.name == "Play"
    assert [a.name for a in table.attributes] == ["A", "B"]


def test_arff_declared_order_kept_including_unused_values(tmp_path):
    table = table_of(tmp_path, "w.arff", WEATHER_ARFF)
    outlook, codes = attr(table, "outlook")
    assert outlook.kind == NOMINAL
    assert outlook.values == ("sunny", "overcast", "rainy", "foggy")  # foggy never occurs
    assert codes.tolist() == [2, 0, 1, MISSING]
    windy, codes = attr(table, "windy")
    assert windy.values == ("TRUE", "FALSE") and codes.tolist() == [0, 1, 0, 1]
    temperature, values = attr(table, "temperature")
    assert temperature.kind == NUMERIC
    assert values[[0, 1, 3]].tolist() == [70.0, 85.0, 64.0] and math.isnan(values[2])
    assert table.classes == ("yes", "no")  # declared order, not first appearance
    assert table.y.tolist() == [1, 1, 0, 0]


def test_arff_numeric_attribute_forced_nominal(tmp_path):
    table = table_of(tmp_path, "w.arff", WEATHER_ARFF, nominal=("temperature",))
    temperature, codes = attr(table, "temperature")
    assert temperature.kind == NOMINAL
    assert temperature.values == ("70", "85", "64")
    assert codes.tolist() == [0, 1, MISSING, 2]


def test_sample_arff_and_csv_agree():
    from_csv = load(SAMPLES / "weather.csv", "PlayTennis", ignore=("Day",))
    from_arff = load(SAMPLES / "weather.arff", "PlayTennis")
    assert [a.name for a in from_csv.attributes] == [a.name for a in from_arff.attributes]
    assert from_csv.n_rows == from_arff.n_rows == 14
    assert sorted(from_csv.classes) == sorted(from_arff.classes)


# --- missing values ---------------------------------------------------------------------------


def test_missing_markers_in_numeric_column(tmp_path):
    content = "n,Play\n1.5,a\n,a\n?,b\nNA,b\nNaN,a\n 2 ,b\n"
    table = table_of(tmp_path, "t.csv", content)
    n, values = attr(table, "n")
    assert n.kind == NUMERIC
    assert values[0] == 1.5 and values[5] == 2.0
    assert np.isnan(values[1:5]).all()
    assert table.missing_mask(0).tolist() == [False, True, True, True, True, False]


def test_missing_markers_in_text_column_but_na_is_a_value(tmp_path):
    content = "c,Play\nx,a\n,a\n?,b\nNA,b\n  ?  ,a\nx,b\n"
    table = table_of(tmp_path, "t.csv", content)
    c, codes = attr(table, "c")
    assert c.kind == NOMINAL
    assert c.values == ("x", "NA")  # neither "" nor "?" is a value
    assert codes.tolist() == [0, MISSING, MISSING, 1, MISSING, 0]


def test_missing_target_values(tmp_path):
    table = table_of(tmp_path, "t.csv", "a,Play\nx,yes\ny,?\nz,\nw,no\n")
    assert table.classes == ("yes", "no")
    assert table.y.tolist() == [0, MISSING, MISSING, 1]


# --- text details: whitespace, quoting, separators, encodings ---------------------------------


def test_whitespace_around_names_and_values_is_ignored(tmp_path):
    table = table_of(tmp_path, "t.csv", " Outlook , Temp ,Play\n Sunny , 85 ,No\nRain,  70,Yes \n")
    assert [a.name for a in table.attributes] == ["Outlook", "Temp"]
    assert attr(table, "Outlook")[0].values == ("Sunny", "Rain")
    assert attr(table, "Temp")[1].tolist() == [85.0, 70.0]
    assert table.classes == ("No", "Yes")


def test_quoted_values_with_commas(tmp_path):
    content = 'City,"Size, m2",Play\n"Paris, France",10,No\n"Rome, Italy",20,Yes\n"Paris, France",30,Yes\n'
    table = table_of(tmp_path, "t.csv", content)
    city, codes = attr(table, "City")
    assert city.values == ("Paris, France", "Rome, Italy") and codes.tolist() == [0, 1, 0]
    assert attr(table, "Size, m2")[0].kind == NUMERIC


@pytest.mark.parametrize(
    ("name", "sep"),
    [("t.csv", ";"), ("t.csv", "\t"), ("t.tsv", "\t"), ("t.txt", ";")],
    ids=["semicolon", "tab-in-csv", "tsv", "semicolon-txt"],
)
def test_other_separators(tmp_path, name, sep):
    rows = [["Outlook", "Temp", "Play"], ["Sunny", "85", "No"], ["Rain", "70", "Yes"]]
    table = table_of(tmp_path, name, "".join(sep.join(r) + "\n" for r in rows))
    assert [(a.name, a.kind) for a in table.attributes] == [("Outlook", NOMINAL), ("Temp", NUMERIC)]
    assert table.classes == ("No", "Yes")


def test_tsv_keeps_commas_inside_values(tmp_path):
    table = table_of(tmp_path, "t.tsv", "Name, full\tPlay\nSmith, J\tNo\nDoe, A\tYes\n")
    name, _ = attr(table, "Name, full")
    assert name.values == ("Smith, J", "Doe, A")


def test_utf8_bom_and_non_ascii(tmp_path):
    content = "Ort,Größe,Spiel\nKöln,1,nein\nZürich,2,ja\nKöln,3,ja\n"
    raw = read_data(write(tmp_path, "t.csv", b"\xef\xbb\xbf" + content.encode("utf-8")))
    assert list(raw.frame.columns) == ["Ort", "Größe", "Spiel"]  # no BOM glued to the first name
    table = infer_table(raw, None)
    assert attr(table, "Ort")[0].values == ("Köln", "Zürich")
    assert table.classes == ("nein", "ja")


def test_crlf_line_endings(tmp_path):
    table = table_of(tmp_path, "t.csv", "A,Play\r\nx,No\r\ny,Yes\r\n")
    assert attr(table, "A")[0].values == ("x", "y")
    assert table.classes == ("No", "Yes")


def test_gzip_csv(tmp_path):
    content = "A,N,Play\nx,1,No\ny,2,Yes\n"
    plain = read_data(write(tmp_path, "t.csv", content))
    zipped = read_data(write(tmp_path, "t.csv.gz", gzip.compress(content.encode())))
    assert zipped.frame.to_pandas().equals(plain.frame.to_pandas())
    assert zipped.sha256 == plain.sha256  # the fingerprint is of the data, not of its compression
    table = infer_table(zipped, None)
    assert attr(table, "N")[0].kind == NUMERIC


def test_gzip_arff(tmp_path):
    table = load(write(tmp_path, "w.arff.gz", gzip.compress(WEATHER_ARFF.encode())))
    assert attr(table, "outlook")[0].values == ("sunny", "overcast", "rainy", "foggy")


def test_raw_rows_can_be_echoed_as_written(tmp_path):
    raw = read_data(write(tmp_path, "t.csv", "A,N,Play\nx,007,No\n?,1.50,Yes\n"))
    assert raw.frame["N"].tolist() == [7.0, 1.5]  # parsed as numbers
    assert raw.frame["A"].tolist() == ["x", None]  # ? is missing
    assert raw.echo_lines() == ["A,N,Play", "x,007,No", "?,1.50,Yes"]  # but rows echo verbatim
    assert raw.source.endswith("t.csv") and raw.declared == {}
    text = read_data(write(tmp_path, "t.csv", "A,N,Play\nx,007,No\n?,1.50,Yes\n"), text_columns=["N"])
    assert text.frame["N"].tolist() == ["007", "1.50"]  # codes stay as written when asked
    quoted = read_data(write(tmp_path, "q.csv", '"A","N"\n"x,y",007\n'))
    assert quoted.echo_lines() == ['"A","N"', '"x,y",007']  # quotes kept: each record is one line
    spread = read_data(write(tmp_path, "s.csv", 'A,N\n"x\n\ny",1\nz,2\n'))  # a quoted line end
    assert spread.frame["A"].tolist() == ["x\n\ny", "z"] and spread.echo_lines() is None
    assert spread.echo_blocks(10) is None


@pytest.mark.parametrize(
    "content",
    ["A,Play\nx,No\n\ny,Yes\n", "A,Play\r\nx,No\r\ny,Yes", "\nA,Play\nx,No\n  \ny,Yes\n\n", "A,Play\nx,No\ny,Yes"],
)
def test_echoed_rows_leave_out_blank_lines(tmp_path, content):
    raw = read_data(write(tmp_path, "t.csv", content))
    assert raw.echo_lines() == ["A,Play", "x,No", "y,Yes"]


# --- stdin and fingerprints -------------------------------------------------------------------


def test_stdin_csv(monkeypatch):
    monkeypatch.setattr(sys, "stdin", FakeStdin(b"A,N,Play\nx,1,No\ny,2,Yes\n"))
    raw = read_data("-")
    assert raw.source == "<stdin>"
    table = infer_table(raw, None)
    assert [(a.name, a.kind) for a in table.attributes] == [("A", NOMINAL), ("N", NUMERIC)]
    assert table.source == "<stdin>"


@pytest.mark.parametrize(
    "text",
    [WEATHER_ARFF, "\n\n" + WEATHER_ARFF, WEATHER_ARFF.split("\n", 1)[1].replace("@relation", "@RELATION")],
    ids=["comment-first", "blank-lines-first", "relation-upper-case"],
)
def test_stdin_arff_detected_by_content(monkeypatch, text):
    monkeypatch.setattr(sys, "stdin", FakeStdin(text.encode()))
    raw = read_data("-")
    assert set(raw.declared) == {"outlook", "temperature", "windy", "play"}
    assert infer_table(raw, None).classes == ("yes", "no")


def test_stdin_forced_format(monkeypatch):
    body = WEATHER_ARFF.split("\n", 1)[1]  # without the leading % comment: still ARFF
    monkeypatch.setattr(sys, "stdin", FakeStdin(body.encode()))
    assert read_data("-", "arff").declared["outlook"].values[-1] == "foggy"


def test_stdin_arff_with_bom(monkeypatch):
    monkeypatch.setattr(sys, "stdin", FakeStdin(b"\xef\xbb\xbf" + WEATHER_ARFF.encode()))
    raw = read_data("-")
    assert "outlook" in raw.declared


def test_sha256_changes_with_content(tmp_path):
    a = read_data(write(tmp_path, "a.csv", "A,Play\nx,No\ny,Yes\n"))
    same = read_data(write(tmp_path, "same.csv", "A,Play\nx,No\ny,Yes\n"))
    b = read_data(write(tmp_path, "b.csv", "A,Play\nx,No\ny,No\n"))
    assert len(a.sha256) == 64 and int(a.sha256, 16) >= 0
    assert a.sha256 == same.sha256 != b.sha256
    assert infer_table(a, None).sha256 == a.sha256


# --- reader errors (unit level; the CLI messages are in tests/cli/test_errors.py) -------------


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"", "empty"),
        (b"a,b\n1,2\n1,2,3\n", "line 3"),
        (b"a,b,a\n1,2,3\n", "'a' appears twice"),
        (b"a,b\nx,y\n\xe9,z\n", "line 3"),
    ],
    ids=["empty", "too-many-fields", "duplicate-name", "latin-1"],
)
def test_unreadable_csv_raises_data_error(tmp_path, content, expected):
    with pytest.raises(DataError, match=expected) as info:
        read_data(write(tmp_path, "bad.csv", content))
    assert "bad.csv" in str(info.value)


def test_too_few_fields_raises_data_error(tmp_path):
    with pytest.raises(DataError, match="line 3"):
        read_data(write(tmp_path, "bad.csv", "a,b,c\n1,2,3\n1,2\n4,5,6\n"))


def test_extra_field_in_first_row_raises_data_error(tmp_path):
    with pytest.raises(DataError, match="line 2"):
        read_data(write(tmp_path, "bad.csv", "a,b,c\n1,2,3,4\n4,5,6,7\n"))


def test_line_number_counts_physical_lines(tmp_path):
    # the quoted value spans lines 2-3, so the row with 4 fields is on line 4
    with pytest.raises(DataError, match="line 4"):
        read_data(write(tmp_path, "bad.csv", 'a,b,c\n"x\ny",2,3\n1,2,3,4\n'))


def test_broken_arff_names_the_line(tmp_path):
    broken = WEATHER_ARFF.replace("overcast, ?, TRUE, yes", "cloudy, 70, TRUE, yes")
    with pytest.raises(DataError, match=r"w\.arff, line 12: invalid ARFF"):
        read_data(write(tmp_path, "w.arff", broken))


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(DataError, match="no such file"):
        read_data(str(tmp_path / "nope.csv"))
    with pytest.raises(DataError, match="is a directory"):
        read_data(str(tmp_path))


def test_unknown_names_list_the_columns(tmp_path):
    raw = read_data(write(tmp_path, "t.csv", "A,B,Play\nx,y,No\n"))
    for option, kwargs in [
        ("--target", {"target": "Nope"}),
        ("--ignore", {"target": None, "ignore": ["Nope"]}),
        ("--nominal", {"target": None, "nominal": ["Nope"]}),
    ]:
        with pytest.raises(DataError, match=f"'Nope' \\(from {option}\\); columns are: A, B, Play"):
            infer_table(raw, **kwargs)
    with pytest.raises(DataError, match="cannot be ignored"):
        infer_table(raw, "Play", ignore=["Play"])


# --- encode_for_schema ------------------------------------------------------------------------

TRAIN = "Outlook,Temp,Play\nSunny,85,No\nRain,70,Yes\nOvercast,60,Yes\n"


@pytest.fixture
def schema(tmp_path):
    return load(write(tmp_path, "train.csv", TRAIN)).schema


def test_encode_uses_the_model_codes(tmp_path, schema):
    raw = read_data(write(tmp_path, "new.csv", "Temp,Outlook,Play,Extra\n61,Overcast,Yes,1\n,Sunny,No,2\n"))
    encoded = encode_for_schema(raw, schema)
    assert encoded.has_target and encoded.unseen == {}
    assert encoded.table.columns[0].tolist() == [2, 0]  # the model's codes, not first appearance
    assert encoded.table.columns[1][0] == 61.0 and math.isnan(encoded.table.columns[1][1])
    assert encoded.actual.tolist() == [1, 0] and encoded.table.y.tolist() == [1, 0]
    assert encoded.labels == ("No", "Yes")


def test_encode_unseen_values_become_missing_and_are_counted(tmp_path, schema):
    raw = read_data(write(tmp_path, "new.csv", "Outlook,Temp,Play\nSnow,1,No\n?,2,Yes\nFog,3,No\nSunny,4,No\n"))
    encoded = encode_for_schema(raw, schema)
    assert encoded.table.columns[0].tolist() == [MISSING, MISSING, MISSING, 0]
    assert encoded.unseen == {"Outlook": 2}  # "?" is missing, not unseen


def test_encode_unseen_target_labels(tmp_path, schema):
    content = "Outlook,Temp,Play\nSunny,1,Maybe\nRain,2,Yes\nSunny,3,\nRain,4,Later\n"
    raw = read_data(write(tmp_path, "new.csv", content))
    encoded = encode_for_schema(raw, schema)
    assert encoded.labels == ("No", "Yes", "Maybe", "Later")
    assert encoded.actual.tolist() == [2, 1, MISSING, 3]
    assert encoded.table.y.tolist() == [MISSING, 1, MISSING, MISSING]


def test_encode_without_target_column(tmp_path, schema):
    raw = read_data(write(tmp_path, "new.csv", "Outlook,Temp\nSunny,1\nRain,2\n"))
    encoded = encode_for_schema(raw, schema)
    assert not encoded.has_target
    assert encoded.actual.tolist() == [MISSING, MISSING]


def test_encode_missing_model_columns_are_named(tmp_path, schema):
    raw = read_data(write(tmp_path, "new.csv", "Wind,Play\nWeak,No\n"))
    with pytest.raises(DataError) as info:
        encode_for_schema(raw, schema)
    message = str(info.value)
    assert "new.csv" in message and "'Outlook'" in message and "'Temp'" in message
    assert "columns are: Wind, Play" in message


def test_encode_text_in_numeric_column_names_the_row(tmp_path, schema):
    raw = read_data(write(tmp_path, "new.csv", "Outlook,Temp,Play\nSunny,1,No\nRain,NA,No\nRain,hot,Yes\n"))
    with pytest.raises(DataError, match=r"column 'Temp' must be numeric.*line 4 holds 'hot'"):
        encode_for_schema(raw, schema)


def test_encode_arff_against_csv_model(tmp_path):
    model = load(write(tmp_path, "train.csv", "outlook,temperature,play\nsunny,85,no\nrainy,70,yes\n")).schema
    encoded = encode_for_schema(read_data(write(tmp_path, "w.arff", WEATHER_ARFF)), model)
    assert encoded.table.columns[0].tolist() == [1, 0, MISSING, MISSING]
    assert encoded.unseen == {"outlook": 1}  # overcast
    assert encoded.table.columns[1][0] == 70.0


# --- write_text -------------------------------------------------------------------------------


def test_write_text_writes_and_leaves_no_temp_file(tmp_path):
    target = tmp_path / "out.json"
    write_text(str(target), "new ✓\n")
    assert target.read_bytes() == "new ✓\n".encode()
    write_text(str(target), "again\n")
    assert target.read_text() == "again\n"
    assert os.listdir(tmp_path) == ["out.json"]


def test_write_text_dash_is_stdout(capsys):
    from dtcli.render.console import console

    write_text("-", "hello\n", console.stdout)  # the stream that "-" names comes from the console
    assert capsys.readouterr().out == "hello\n"


def test_write_text_missing_directory(tmp_path):
    target = tmp_path / "no" / "such" / "out.json"
    with pytest.raises(DataError, match="does not exist"):
        write_text(str(target), "x")
    assert os.listdir(tmp_path) == []


def test_write_text_to_a_directory(tmp_path):
    (tmp_path / "d").mkdir()
    with pytest.raises(DataError, match="is a directory"):
        write_text(str(tmp_path / "d"), "x")
    assert os.listdir(tmp_path / "d") == []


def test_write_text_failure_while_writing_keeps_existing_file(tmp_path):
    target = tmp_path / "out.json"
    target.write_bytes(b"old\n")
    with pytest.raises(UnicodeEncodeError):
        write_text(str(target), "half written \udcff")  # a lone surrogate cannot be encoded
    assert target.read_bytes() == b"old\n"
    assert os.listdir(tmp_path) == ["out.json"]


def test_write_text_failure_on_rename_keeps_existing_file(tmp_path, monkeypatch):
    target = tmp_path / "out.json"
    target.write_bytes(b"old\n")

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(DataError, match="out.json: cannot write: Permission denied"):
        write_text(str(target), "new\n")
    assert target.read_bytes() == b"old\n"
    assert os.listdir(tmp_path) == ["out.json"]


def test_nominal_codes_keep_na_as_missing(tmp_path):
    path = tmp_path / "codes.csv"
    path.write_text("code,label,y\n1,NA,a\nNA,x,b\n0,x,a\n")
    table = load(path, nominal=("code",))
    assert table.attributes[0].values == ("1", "0")
    assert table.columns[0].tolist() == [0, -1, 1]
    assert table.attributes[1].values == ("NA", "x")  # a text column: NA is a value


def test_rows_know_their_file_lines(tmp_path):
    path = tmp_path / "lines.csv"
    path.write_text('a,y\nx,p\n\n"two\nlines",q\nz,p\n')
    table = load(path)
    assert table.lines.tolist() == [2, 4, 6]
    assert table.where(2) == "line 6"


def test_written_files_get_the_usual_mode_or_keep_theirs(tmp_path):
    import os
    import stat

    from dtcli.io.write import write_text

    old = os.umask(0o022)
    try:
        write_text(str(tmp_path / "new.csv"), "a\n")
        assert stat.S_IMODE((tmp_path / "new.csv").stat().st_mode) == 0o644  # not mkstemp's 0600
        (tmp_path / "kept.csv").write_text("old\n")
        os.chmod(tmp_path / "kept.csv", 0o640)
        write_text(str(tmp_path / "kept.csv"), "new\n")
        assert stat.S_IMODE((tmp_path / "kept.csv").stat().st_mode) == 0o640
        assert (tmp_path / "kept.csv").read_text() == "new\n"
    finally:
        os.umask(old)
