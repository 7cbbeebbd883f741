"""A Dask partition as the local reader reads those rows, and one output file a partition, written atomically.

Contract: ``raw_of(part, parquet, source, texts)`` is the ``RawData`` that ``read.read_data`` gives
for a file of the partition's rows: a CSV partition (cells as text, ``dask_frames.read_frame``) is
written back as CSV (minimal quoting, LF) and read by ``csv_reader.parse_csv``, so a file of plain
lines echoes them as written; a Parquet partition goes through ``parquet.table_columns``.
``write_part(path, pieces)`` and ``write_parquet_part(path, part, columns)`` write to a hidden
temporary name beside ``path`` and rename it into place (``os.replace``: atomic on one file system),
so a part that exists is whole; an error removes the temporary file.
"""

from __future__ import annotations

import os
from contextlib import contextmanager

import numpy as np

from dtcli.io.read import RawData


def raw_of(part, parquet: bool, source: str, texts=()) -> RawData:
    """The partition's rows as ``read_data`` reads a file of them (no digest)."""
    if parquet:
        import pyarrow as pa

        from dtcli.io.parquet.reader import table_columns

        frame, declared = table_columns(pa.Table.from_pandas(part, preserve_index=False), source, texts)
        return RawData(frame, source, "", declared=declared)
    from dtcli.io.csv.reader import parse_csv

    data = bytearray(part.to_csv(index=False, lineterminator="\n").encode("utf-8"))
    frame, lines, sep, raw, _ = parse_csv(data, source, source, set(texts))
    return RawData(frame, source, "", lines=lines, raw=raw, sep=sep)


@contextmanager
def _replacing(path: str):
    """A temporary name beside ``path`` to write; renamed to ``path`` when the block ends without an error."""
    folder, name = os.path.split(path)
    temporary = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
    try:
        yield temporary
        os.replace(temporary, path)
    finally:
        if os.path.lexists(temporary):
            os.unlink(temporary)


def write_part(path: str, pieces) -> None:
    """Text (a str, or pieces of it) into the file ``path``, UTF-8, atomically."""
    with _replacing(path) as temporary, open(temporary, "w", encoding="utf-8", newline="") as handle:
        for piece in [pieces] if isinstance(pieces, str) else pieces:
            handle.write(piece)


def write_parquet_part(path: str, part, columns: dict) -> None:
    """The partition's columns as read, then ``columns`` (float arrays as double, the rest as
    string; one of the same name replaced), as a Parquet file ``path``, atomically."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from dtcli.model.colnames import find

    table = pa.Table.from_pandas(part, preserve_index=False)
    for name, values in columns.items():
        if (same := find(name, table.column_names)) is not None:  # (one name written two ways is one name)
            table = table.remove_column(table.column_names.index(same))
        array = np.asarray(values)
        typed = pa.array(array, pa.float64()) if array.dtype.kind == "f" else pa.array(list(values), pa.string())
        table = table.append_column(name, typed)
    with _replacing(path) as temporary:
        pq.write_table(table, temporary)
