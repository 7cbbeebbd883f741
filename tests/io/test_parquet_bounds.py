"""--max-rows and --max-bytes on Parquet: counted from the footers (rows, uncompressed size), refused before loading."""

from __future__ import annotations

import numpy as np
import pytest

from dtcli.errors import DataError
from dtcli.io.read import read_data
from dtcli.io.source import DEFAULT_MAX_BYTES, Limits

pa = pytest.importorskip("pyarrow", reason="Parquet input needs pyarrow (pip install 'dtree[scale]')")
pq = pytest.importorskip("pyarrow.parquet", reason="Parquet input needs pyarrow (pip install 'dtree[scale]')")


def constant(rows: int, value=0.0) -> pa.Array:
    """``rows`` copies of ``value`` as a dictionary array (one byte a row here; a few bytes on disk)."""
    return pa.DictionaryArray.from_arrays(pa.array(np.zeros(rows, dtype=np.int8)), pa.array([value]))


def table(rows: int) -> pa.Table:
    """x numeric, c nominal, y the class: a table every command trains, predicts and prunes on."""
    return pa.table(
        {"x": np.arange(rows, dtype=np.float64) % 7, "c": ["u", "v"] * (rows // 2), "y": ["a", "b"] * (rows // 2)}
    )


@pytest.fixture
def forbid_reading(monkeypatch):
    """Reading any column is a test failure: a refused input must be refused from its footers."""

    def refuse(*args, **kwargs):
        raise AssertionError("a column was read")

    monkeypatch.setattr(pq.ParquetFile, "read", refuse)
    monkeypatch.setattr(pq.ParquetFile, "read_row_group", refuse)
    monkeypatch.setattr(pq.ParquetFile, "iter_batches", refuse)


def test_the_issue_a_tiny_file_of_ten_million_rows_is_refused_from_its_footer(run, tmp_path, forbid_reading):
    path = tmp_path / "big.parquet"
    pq.write_table(pa.table({"x": constant(10_000_000)}), path, compression="zstd")
    assert path.stat().st_size < 200_000  # tiny on disk ...
    result = run("gain", path, "--max-bytes", "10M")  # ... 80,000,000 bytes once decoded: 8 a value
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == (
        f"Error: {path}: 80,000,000 bytes uncompressed (10,000,000 rows of 1 column), more than 10 MiB "
        "(--max-bytes); raise --max-bytes or split it\n"
    )


def test_numbers_count_eight_bytes_a_value_exactly_at_the_limit(tmp_path):
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"x": constant(5_000), "y": constant(5_000, 1.0), "z": constant(5_000, 2.5)}), path)
    limit = 8 * 5_000 * 3  # rows x columns x 8
    assert len(read_data(str(path), limits=Limits(max_bytes=limit, max_rows=0)).frame) == 5_000
    with pytest.raises(DataError) as error:
        read_data(str(path), limits=Limits(max_bytes=limit - 1, max_rows=0))
    assert str(error.value) == (
        f"{path}: 120,000 bytes uncompressed (5,000 rows of 3 columns), more than 119,999 bytes (--max-bytes); "
        "raise --max-bytes or split it"
    )


def test_strings_count_their_text_as_the_pages_hold_it_uncompressed(tmp_path):
    """Plain-encoded strings: each page holds every string with a 4-byte length, so the text of all
    the rows (here 5,000 distinct strings of 20 characters) counts, as it would in a CSV file."""
    path = tmp_path / "t.parquet"
    words = [f"{i:020d}" for i in range(5_000)]
    pq.write_table(pa.table({"s": words}), path, use_dictionary=False, compression="zstd")
    size = 8 * 5_000 + sum(
        pq.ParquetFile(path).metadata.row_group(g).column(0).total_uncompressed_size
        for g in range(pq.ParquetFile(path).metadata.num_row_groups)
    )
    assert size >= 8 * 5_000 + 24 * 5_000  # the text and its lengths are all in it
    assert len(read_data(str(path), limits=Limits(max_bytes=size, max_rows=0)).frame) == 5_000
    with pytest.raises(DataError, match=rf": {size:,} bytes uncompressed \(5,000 rows of 1 column\), more than"):
        read_data(str(path), limits=Limits(max_bytes=size - 1, max_rows=0))


def test_a_long_repeated_string_is_read_once_not_once_a_row(tmp_path):
    """A dictionary-encoded column of one 1,000-character string in 200,000 rows counts (and is held
    as) a 4-byte index a row and the string once, not 200 MB of copies."""
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"s": constant(200_000, "w" * 1000), "y": constant(200_000, "a")}), path)
    got = read_data(str(path), limits=Limits(max_bytes=4 << 20, max_rows=0))
    column = got.frame["s"]
    assert column.uniques == ["w" * 1000] and column.codes.dtype == np.int32 and not column.codes.any()


def test_the_parts_of_a_directory_count_together(tmp_path, forbid_reading):
    parts = tmp_path / "parts"
    parts.mkdir()
    for name in ("a", "b", "c"):
        pq.write_table(pa.table({"x": constant(400), "y": constant(400, 1.0)}), parts / f"part-{name}.parquet")
    with pytest.raises(DataError) as error:
        read_data(str(parts), limits=Limits(max_bytes=0, max_rows=1_000))  # 400 each, 1,200 together
    assert str(error.value) == f"{parts}: 1,200 rows, more than 1,000 (--max-rows); raise --max-rows or split it"
    with pytest.raises(DataError) as error:
        read_data(str(parts), limits=Limits(max_bytes=10_000, max_rows=0))  # 6,400 bytes each
    assert str(error.value) == (
        f"{parts}: 19,200 bytes uncompressed (1,200 rows of 2 columns), more than 10,000 bytes (--max-bytes); "
        "raise --max-bytes or split it"
    )


def test_no_flag_means_the_default_bound_of_one_gib(tmp_path, forbid_reading):
    """Missing values count too: a column of them is read as float64 NaN, 8 bytes a row."""
    path = tmp_path / "t.parquet"
    rows = DEFAULT_MAX_BYTES // 8 // 8 + 1  # 8 columns of 8 bytes a value: just past 1 GiB
    column = pa.nulls(rows, pa.float64())  # quick to write, small on disk
    pq.write_table(pa.table({f"x{j}": column for j in range(8)}), path)
    with pytest.raises(DataError) as error:
        read_data(str(path))
    assert str(error.value) == (
        f"{path}: 1,073,741,888 bytes uncompressed (16,777,217 rows of 8 columns), more than 1 GiB (--max-bytes); "
        "raise --max-bytes or split it"
    )


@pytest.mark.parametrize(
    "command",
    [
        ["train", "{big}", "-a", "c45", "-q", "-o", "m2.json"],
        ["gain", "{big}"],
        ["predict", "m.json", "{big}"],
        ["evaluate", "m.json", "{big}"],
        ["evaluate", "{small}", "-a", "c45", "--test", "{big}"],
        ["train", "{small}", "-a", "c45", "-q", "-o", "m2.json", "--test", "{big}"],
        ["prune", "m.json", "--method", "reduced-error", "--validation", "{big}", "-o", "m2.json"],
        ["prune", "m.json", "--method", "pessimistic", "--data", "{big}", "-o", "m2.json"],
        ["rules", "m.json", "--prune", "--data", "{big}"],
        ["diff", "m.json", "m.json", "--data", "{big}"],
    ],
    ids=lambda args: " ".join(args),
)
def test_every_command_that_reads_data_bounds_parquet(run, tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    pq.write_table(table(100), "small.parquet")
    pq.write_table(table(5_000), "big.parquet")
    assert run("train", "small.parquet", "-a", "c45", "-q", "-o", "m.json").exit_code == 0
    args = [arg.format(big="big.parquet", small="small.parquet") for arg in command]
    result = run(*args, "--max-rows", "1000")
    assert result.exit_code in (1, 2) and result.stdout == "", result.output
    assert (
        result.stderr == "Error: big.parquet: 5,000 rows, more than 1,000 (--max-rows); raise --max-rows or split it\n"
    )
    result = run(*args, "--max-bytes", "100K")
    assert result.stderr.startswith("Error: big.parquet: ") and "more than 100 KiB (--max-bytes)" in result.stderr
    assert not (tmp_path / "m2.json").exists()


def test_gain_reads_a_parquet_file_known_by_its_mark_alone(run, tmp_path):
    """Named without .parquet, a small Parquet file is still Parquet to gain's quick path for small files
    (it was refused there as text with a NUL byte): the same report as the file named .parquet, and the bounds."""
    named = tmp_path / "t.parquet"
    pq.write_table(table(100), named)
    bare = tmp_path / "data"
    bare.write_bytes(named.read_bytes())
    expected = run("gain", named)
    assert expected.exit_code == 0 and expected.stdout.startswith("y: 100 rows [a 50, b 50]")
    got = run("gain", bare)
    assert got.exit_code == 0 and got.stdout == expected.stdout.replace(str(named), str(bare))
    refused = run("gain", bare, "--max-rows", "10")
    assert refused.stderr == f"Error: {bare}: 100 rows, more than 10 (--max-rows); raise --max-rows or split it\n"
