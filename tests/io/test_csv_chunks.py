"""io.csv_chunks: a plain CSV file a chunk of rows at a time, as the whole-file reader reads it, or NotPlain."""

from __future__ import annotations

import gzip
import random

import numpy as np
import pytest

from dtcli.io.columns import NumberColumn
from dtcli.io.csv.chunks import NotPlain, csv_chunks
from dtcli.io.read import read_data
from dtcli.io.source import Limits

HEADER = "colour,size,weight,id,note,label"
N = 45_000  # rows: over a MiB (smaller files are read whole)


def rows(n: int, seed: int = 0) -> list[str]:
    """``n`` data lines: a nominal column, two numeric ones (some missing), an id, free text, a class."""
    rnd = random.Random(seed)
    lines = []
    for i in range(n):
        size = rnd.choice(["?", "", "NA", f"{rnd.uniform(-5, 5):.3f}"])
        lines.append(f"{rnd.choice('rgbxyz')}, {size},{rnd.gauss(0, 1):.6g},{i},w{rnd.randint(0, 9)},k{i % 3}")
    return lines


def write(path, lines, header=HEADER, end="\n"):
    path.write_bytes((end.join([header, *lines]) + end).encode())
    return path


def read_all(path, **kwargs):
    wanted = ["colour", "size", "weight", "label"]
    return list(csv_chunks(str(path), wanted, ["colour", "label"], Limits(), chunk_bytes=1 << 16, **kwargs))


def test_chunks_hold_the_whole_file_reader_columns(tmp_path):
    path = write(tmp_path / "t.csv", rows(N))
    chunks = read_all(path)
    assert len(chunks) > 5
    whole = read_data(str(path), None, ["colour", "label"])
    assert [line for chunk in chunks for line in chunk.lines] == path.read_text().splitlines()[1:]
    assert np.array_equal(np.concatenate([c.raw.lines for c in chunks]), whole.lines)
    for name in ("colour", "size", "weight", "id", "label"):
        parts = [chunk.raw.frame[name] for chunk in chunks]
        assert type(parts[0]) is type(whole.frame[name])
        if isinstance(parts[0], NumberColumn):
            got = np.concatenate([p.values for p in parts])
            assert np.array_equal(got.view(np.int64), whole.frame[name].values.view(np.int64))
        else:
            assert [cell for p in parts for cell in p.tolist()] == whole.frame[name].tolist()
    assert "note" not in chunks[0].raw.frame  # text nobody asked for is not parsed
    assert chunks[0].names == HEADER.split(",") and chunks[0].header == HEADER


def test_a_file_without_a_last_line_end_reads_the_same(tmp_path):
    path = tmp_path / "t.csv"
    path.write_text("\n".join([HEADER, *rows(N)]))
    assert [line for chunk in read_all(path) for line in chunk.lines] == path.read_text().splitlines()[1:]


@pytest.mark.parametrize(
    "mend",
    [
        lambda lines: lines.__setitem__(40_000, lines[40_000].replace("w", '"w"')),  # a quote
        lambda lines: lines.insert(40_000, ""),  # a blank line
        lambda lines: lines.__setitem__(40_000, lines[40_000] + ",x"),  # too wide
        lambda lines: lines.__setitem__(40_000, lines[40_000].rsplit(",", 1)[0]),  # too narrow
        lambda lines: lines.__setitem__(40_000, lines[40_000].replace(",", ",oops,", 2).replace(",oops,", ",", 1)),
        lambda lines: lines.__setitem__(40_000, lines[40_000] + "\r"),  # a CR
        lambda lines: lines.__setitem__(40_000, lines[40_000].replace("w", "\ufeffw")),  # a byte-order mark
    ],
)
def test_anything_unusual_is_left_to_the_whole_file_reader(tmp_path, mend):
    lines = rows(N)
    mend(lines)
    with pytest.raises(NotPlain):
        read_all(write(tmp_path / "t.csv", lines))


def test_stray_text_in_a_numeric_column_after_the_sample_reads_whole(tmp_path):
    lines = rows(N)
    lines[40_000] = lines[40_000].replace(f",{40_000},", ",n/a,")  # the id column, wanted or not
    with pytest.raises(NotPlain):
        read_all(write(tmp_path / "t.csv", lines))


def test_small_compressed_and_piped_inputs_are_read_whole(tmp_path):
    small = write(tmp_path / "s.csv", rows(100))
    packed = tmp_path / "t.csv.gz"
    packed.write_bytes(gzip.compress(write(tmp_path / "t.csv", rows(N)).read_bytes()))
    for path in (small, packed, "-", tmp_path / "missing.csv"):
        with pytest.raises(NotPlain):
            read_all(path)


def test_limits_are_left_to_the_whole_file_reader(tmp_path):
    path = write(tmp_path / "t.csv", rows(N))
    for limits in (Limits(max_rows=N - 1), Limits(max_bytes=1 << 20)):
        with pytest.raises(NotPlain):
            list(csv_chunks(str(path), ["label"], ["label"], limits, chunk_bytes=1 << 16))
    assert sum(len(c.lines) for c in csv_chunks(str(path), ["label"], ["label"], Limits(max_rows=N))) == N
