"""Parquet inputs dtree refuses, each with one line naming the file (and column) and what to do."""

from __future__ import annotations

import sys

import pytest

from dtcli.errors import DataError
from dtcli.io.read import is_parquet, read_data
from dtcli.io.source import Limits

# The smallest shape that passes the PAR1 checks at both ends (12 bytes): pyarrow is needed beyond them.
LOOKS_PARQUET = b"PAR1" + b"\0" * 8 + b"PAR1"


def test_without_pyarrow_a_parquet_input_names_the_extra(tmp_path, monkeypatch):
    path = tmp_path / "t.parquet"
    path.write_bytes(LOOKS_PARQUET)
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # `import pyarrow...` now raises ImportError
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    with pytest.raises(DataError) as error:
        read_data(str(path))
    assert str(error.value) == (
        f"{path}: reading Parquet needs pyarrow, which is not installed; pip install 'dtree[scale]'"
    )


def test_without_pyarrow_the_cli_gives_one_line(run, tmp_path, monkeypatch):
    path = tmp_path / "data"  # found by its PAR1 mark, not its name
    path.write_bytes(LOOKS_PARQUET)
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    result = run("train", path, "-o", tmp_path / "m.json")
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == f"Error: {path}: reading Parquet needs pyarrow, which is not installed; " + (
        "pip install 'dtree[scale]'\n"
    )
    assert not (tmp_path / "m.json").exists()


def test_what_is_parquet(tmp_path):
    (tmp_path / "a.csv").write_text("PAR,x\n1,2\n")
    (tmp_path / "b").write_bytes(LOOKS_PARQUET)
    (tmp_path / "c.PARQUET").write_text("")
    (tmp_path / "d").mkdir()
    assert [is_parquet(str(tmp_path / n)) for n in ("a.csv", "b", "c.PARQUET", "d", "absent", "-")] == [
        False,
        True,
        True,
        True,
        False,
        False,
    ]


@pytest.mark.parametrize(
    "content, why",
    [
        (b"x,y\n1,a\n2,b\n3,c\n", "no PAR1 mark at its start"),  # a CSV file named .parquet
        (b"PAR1" + b"\x15\x04" * 20, "no PAR1 mark at its end"),  # the start of one, cut short
        (b"PAR1PAR1", "only 8 bytes"),
    ],
)
def test_not_parquet_inside(tmp_path, content, why):
    path = tmp_path / "t.parquet"
    path.write_bytes(content)
    with pytest.raises(DataError) as error:
        read_data(str(path))
    assert (
        str(error.value)
        == f"{path}: not a readable Parquet file ({why}: truncated or not Parquet); get an undamaged copy"
    )


def test_a_directory_without_parts(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "data.csv").write_text("x,y\n1,a\n")
    (tmp_path / "d" / "_metadata.parquet").write_bytes(LOOKS_PARQUET)
    with pytest.raises(DataError) as error:
        read_data(str(tmp_path / "d") + "/")
    assert str(error.value) == (
        f"{tmp_path / 'd'}: is a directory with no .parquet files; give a .csv, .arff or .parquet file, "
        "or a directory of .parquet files"
    )


def test_parquet_from_standard_input_is_refused():
    with pytest.raises(DataError, match=r"^<stdin>: Parquet cannot be read from standard input; "):
        read_data("-", "parquet")


class TestWithPyarrow:
    """Errors only pyarrow can find."""

    @pytest.fixture(autouse=True)
    def arrow(self):
        self.pa = pytest.importorskip("pyarrow", reason="Parquet input needs pyarrow (pip install 'dtree[scale]')")
        self.pq = pytest.importorskip("pyarrow.parquet", reason="needs pyarrow (pip install 'dtree[scale]')")

    def write(self, path, **columns):
        self.pq.write_table(self.pa.table(columns), path)
        return path

    def test_a_damaged_footer(self, tmp_path):
        path = self.write(tmp_path / "t.parquet", x=[1, 2], y=["a", "b"])
        data = bytearray(path.read_bytes())
        data[-8:-4] = b"\xff\xff\xff\x7f"  # the footer's length: far more than the file holds
        path.write_bytes(bytes(data))
        with pytest.raises(DataError) as error:
            read_data(str(path))
        message = str(error.value)
        assert message.startswith(f"{path}: not a readable Parquet file (") and "\n" not in message
        assert message.endswith("); get an undamaged copy")

    def test_damaged_data_pages(self, tmp_path):
        path = tmp_path / "t.parquet"
        self.pq.write_table(self.pa.table({"x": list(range(1000)), "y": ["a", "b"] * 500}), path, compression="snappy")
        data = bytearray(path.read_bytes())
        for i in range(8, 200):  # the first column's pages; the footer and its PAR1 mark are intact
            data[i] ^= 0x5A
        path.write_bytes(bytes(data))
        with pytest.raises(DataError) as error:
            read_data(str(path))
        message = str(error.value)
        assert message.startswith(f"{path}: not a readable Parquet file (") and "\n" not in message
        assert message.endswith("); get an undamaged copy") and ":)" not in message

    @pytest.mark.parametrize(
        "kind, advice",
        [
            ("time", "a number (such as seconds) or a string"),
            ("duration", "a number (such as seconds) or a string"),
            ("list", "numbers or strings"),
            ("struct", "numbers or strings"),
            ("binary", "numbers or strings"),
        ],
    )
    def test_columns_of_types_dtree_cannot_read(self, tmp_path, kind, advice):
        import datetime

        pa = self.pa
        values = {
            "time": pa.array([datetime.time(10, 30)] * 2),
            "duration": pa.array([datetime.timedelta(seconds=5)] * 2),
            "list": pa.array([[1], [2, 3]]),
            "struct": pa.array([{"a": 1}, {"a": 2}]),
            "binary": pa.array([b"a", b"b"]),
        }[kind]
        path = self.write(tmp_path / "t.parquet", x=[1, 2], odd=values, y=["a", "b"])
        with pytest.raises(DataError) as error:
            read_data(str(path))
        assert str(error.value).startswith(f"{path}: column 'odd' is of Parquet type ")
        assert str(error.value).endswith(f", which dtree cannot read; convert it to {advice}")

    def test_decimals_are_numbers(self, tmp_path):
        import decimal

        pa = self.pa
        price = pa.array([decimal.Decimal("1.25"), None, decimal.Decimal("-3.50")], pa.decimal128(5, 2))
        raw = read_data(str(self.write(tmp_path / "t.parquet", price=price, y=["a", "b", "a"])))
        values = raw.frame["price"].values.tolist()
        assert values[0] == 1.25 and values[1] != values[1] and values[2] == -3.5

    def test_parts_with_other_columns(self, tmp_path):
        parts = tmp_path / "parts"
        parts.mkdir()
        self.write(parts / "a.parquet", x=[1, 2], y=["a", "b"])
        self.write(parts / "b.parquet", x=[1.5, None], y=["a", "b"])  # integers and floats: both numeric
        self.write(parts / "c.parquet", z=[1, 2], y=["a", "b"])
        with pytest.raises(DataError) as error:
            read_data(str(parts))
        assert str(error.value) == (
            f"{parts / 'c.parquet'}: column 1 is 'z', not 'x' as in {parts / 'a.parquet'}; "
            "the parts must have the same schema"
        )
        self.write(parts / "c.parquet", x=["1", "2"], y=["a", "b"])
        with pytest.raises(DataError, match=r"column 'x' is nominal, not numeric as in .*a\.parquet; the parts"):
            read_data(str(parts))
        self.write(parts / "c.parquet", x=[1, 2], y=["a", "b"], w=[0, 0])
        with pytest.raises(DataError, match=r"c\.parquet: has 3 columns, not 2 as .*a\.parquet; the parts must"):
            read_data(str(parts))

    def test_a_column_name_twice(self, tmp_path):
        pa = self.pa
        path = tmp_path / "t.parquet"
        self.pq.write_table(
            pa.Table.from_arrays([pa.array([1]), pa.array([2]), pa.array(["a"])], ["x", "x", "y"]), path
        )
        with pytest.raises(DataError) as error:
            read_data(str(path))
        assert str(error.value) == f"{path}: column name 'x' appears twice (columns 1 and 2); rename one of them"

    def test_limits_on_rows_and_bytes(self, tmp_path):
        path = self.write(tmp_path / "t.parquet", x=list(range(10)), y=["a", "b"] * 5)
        with pytest.raises(DataError, match=r"t\.parquet: 10 rows, more than 9 \(--max-rows\)"):
            read_data(str(path), limits=Limits(max_bytes=0, max_rows=9))
        assert len(read_data(str(path), limits=Limits(max_bytes=0, max_rows=10)).frame) == 10
        with pytest.raises(DataError, match=r"t\.parquet: [\d,]+ bytes on disk, more than 100 bytes \(--max-bytes\)"):
            read_data(str(path), limits=Limits(max_bytes=100, max_rows=0))

    def test_an_empty_table(self, run, tmp_path):
        pa = self.pa
        path = self.write(tmp_path / "t.parquet", x=pa.array([], pa.int64()), y=pa.array([], pa.string()))
        result = run("train", path)
        assert result.exit_code == 1
        assert result.stderr == f"Error: {path}: no data rows; the file has a header but no examples\n"
