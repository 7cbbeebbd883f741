"""Read a Parquet file, or a directory of them, into the Columns the CSV reader makes (with pyarrow).

Contract: ``read_parquet`` (for DATA that ``read.is_parquet``) returns a ``Parquet``: the
columns (``columns.Columns``), the nominal attributes the file's types declare, the source for
messages and the SHA-256 of the bytes read: the file's, or for a directory its parts' bytes one
after the other in the order read (``cat DIR/part-*.parquet | sha256sum`` for parts named so);
or raises DataError with one line naming the file (and the column). A directory's parts are its
regular files named ``*.parquet`` (any case; not hidden, not starting with ``_`` as a writer's
bookkeeping files do), read in sorted name order (by code point); subdirectories are not read.
The parts must have the same column names, in the same order, of the same kinds (integers,
floats and nulls are all numeric, as a part written from a column with missing values may hold
floats; ``string`` and a dictionary of strings both nominal). ``--max-bytes`` bounds the files'
size on disk and the table's uncompressed size, ``--max-rows`` its rows, both as the footers count
them, before any column is read (``parquet_bounds``). A column of strings is read as a dictionary
(each distinct string once), never as one string per row.

Types: string (and dictionary of strings) columns are nominal, their values in order of first
appearance as the CSV reader gives them (surrounding spaces ignored; empty and ``?`` cells
missing); bool columns nominal with the values ``true`` and ``false``; integer, floating-point
and decimal columns numeric (as float64); a column of nulls alone reads as a CSV column of empty
cells. Nulls and NaN are missing values. Date and timestamp columns read as the ISO 8601 text a CSV
file of the same table holds (``dates_text``), so they are dates as there (or categories with
``--nominal``); time, duration, binary, list, struct and map columns are refused, naming the column.
Integer columns that must be read as text (a classification target, ``--nominal``) keep their
digits (``7``, not ``7.0``).

``parts`` (the files of a path), ``column_kind`` (what an Arrow type reads as), ``nominal_values``,
``table_columns`` (an Arrow table of some of the rows as read here) and ``digest`` (the SHA-256
recorded) are for other readers of the same inputs (the Dask engine, ``dask_frames``).

pyarrow is an optional dependency (the ``scale`` extra): it is imported only here, only when a
Parquet input is read; without it, reading one is a DataError that names the extra.
"""

from __future__ import annotations

import os
import stat
from typing import NamedTuple

import numpy as np

from dtcli.errors import DataError
from dtcli.io.columns import NOT_AN_INSTANT, Columns, NumberColumn, TextColumn
from dtcli.io.csv.cells import MISSING_CELLS
from dtcli.io.parquet.bounds import check_bounds
from dtcli.io.source import format_size
from dtcli.model.colnames import aliases, clash, clash_text
from dtcli.model.table import NOMINAL, Attribute

MAGIC = b"PAR1"  # at both ends of a Parquet file
EXTRA = "pip install 'dtree[scale]'"
HASH_CHUNK = 1 << 20


class Parquet(NamedTuple):
    """A Parquet input as read (see the module's contract)."""

    frame: Columns
    declared: dict
    source: str
    sha256: str


def read_parquet(path: str, text_columns=(), max_bytes: int = 0, max_rows: int = 0, fingerprint=True) -> Parquet:
    """Read ``path`` (see the module's contract); ``text_columns`` keep an integer column's digits as text."""
    source = path.rstrip("/") or path
    files = parts(path, source)
    _check_sizes(files, source, max_bytes)
    pq = _pyarrow(source)
    handles = _open_parts(pq, files)
    check_bounds([handle.metadata for handle in handles], source, max_bytes, max_rows)
    handles = [_as_dictionaries(pq, name, handle) for name, handle in zip(files, handles)]
    frame, declared = _columns(handles, files, set(text_columns))
    return Parquet(frame, declared, source, digest(files) if fingerprint else "")


def parts(path: str, source: str | None = None) -> list[str]:
    """The files to read: ``path`` itself, or a directory's ``*.parquet`` files in sorted name order
    (``source``: the name for messages, ``path`` without a trailing ``/`` by default)."""
    source = source or path.rstrip("/") or path
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        raise DataError(f"{source}: no such file; check the path") from None
    except OSError as exc:
        raise DataError(f"{source}: cannot read: {exc.strerror}") from None
    if stat.S_ISREG(mode):
        return [path]
    if not stat.S_ISDIR(mode):
        raise DataError(f"{source}: not a regular file; give a .parquet file or a directory of them")
    try:
        names = sorted(n for n in os.listdir(path) if n.lower().endswith(".parquet") and not n.startswith((".", "_")))
    except OSError as exc:
        raise DataError(f"{source}: cannot read the directory: {exc.strerror}") from None
    files = [os.path.join(source, name) for name in names]
    files = [name for name in files if os.path.isfile(name)]
    if not files:
        raise DataError(
            f"{source}: is a directory with no .parquet files; give a .csv, .arff or .parquet file, or a directory "
            "of .parquet files"
        )
    return files


def _check_sizes(files: list[str], source: str, max_bytes: int) -> None:
    """Each file must look like Parquet (``PAR1`` at both ends) and all of them fit in ``max_bytes`` on disk
    (their footers, read next, are no larger)."""
    total = 0
    for name in files:
        try:
            with open(name, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                head = handle.read(len(MAGIC))
                handle.seek(max(size - len(MAGIC), 0))
                tail = handle.read(len(MAGIC))
        except OSError as exc:
            raise DataError(f"{name}: cannot read: {exc.strerror}") from None
        if size < 3 * len(MAGIC) or head != MAGIC or tail != MAGIC:
            where = (
                f"only {size} bytes"
                if head == tail == MAGIC
                else f"no PAR1 mark at its {'start' if head != MAGIC else 'end'}"
            )
            raise DataError(
                f"{name}: not a readable Parquet file ({where}: truncated or not Parquet); get an undamaged copy"
            )
        total += size
    if max_bytes and total > max_bytes:
        raise DataError(
            f"{source}: {total:,} bytes on disk, more than {format_size(max_bytes)} (--max-bytes); "
            "raise --max-bytes or split it"
        )


def _pyarrow(source: str):
    """pyarrow.parquet, or a DataError naming the extra that installs it."""
    try:
        import pyarrow.parquet as pq  # here: only a Parquet input loads pyarrow (start-up counts)
    except ImportError:
        raise DataError(f"{source}: reading Parquet needs pyarrow, which is not installed; {EXTRA}") from None
    return pq


def _open_parts(pq, files: list[str]) -> list:
    """A pyarrow ParquetFile for each file (nothing read but its footer), checked to have the first file's columns."""
    handles, first = [], None
    for name in files:
        handle = _damaged(name, lambda name=name: pq.ParquetFile(name))
        schema = handle.schema_arrow
        kinds = [(field.name, _broad(column_kind(field.type, name, field.name))) for field in schema]
        if first is None:
            first = kinds
            _check_names([column for column, _ in kinds], name)
        elif kinds != first:
            raise DataError(f"{name}: {_difference(kinds, first)} {files[0]}; the parts must have the same schema")
        handles.append(handle)
    return handles


def _as_dictionaries(pq, name: str, handle):
    """The file of ``handle`` (its footer as read) opened again to read its string columns as
    dictionaries: each distinct string once and a 4-byte index a row, however long the strings."""
    fields = handle.schema_arrow
    texts = [field.name for field in fields if column_kind(field.type, name, field.name) == "nominal"]
    if not texts:
        return handle
    return _damaged(name, lambda: pq.ParquetFile(name, metadata=handle.metadata, read_dictionary=texts))


def _damaged(name: str, work):
    """``work()``, with pyarrow's errors (ArrowInvalid, OSError, ...) for a damaged file as one line."""
    try:
        return work()
    except Exception as exc:
        reason = str(exc).strip().splitlines()[0].rstrip(" :.") if str(exc).strip() else type(exc).__name__
        raise DataError(f"{name}: not a readable Parquet file ({reason}); get an undamaged copy") from None


def _difference(kinds: list, first: list) -> str:
    """How a part's (name, kind) columns differ from the first part's, for a message."""
    for i, (a, b) in enumerate(zip(kinds, first)):
        if a[0] != b[0]:
            return f"column {i + 1} is {a[0]!r}, not {b[0]!r} as in"
        if a[1] != b[1]:
            return f"column {a[0]!r} is {a[1]}, not {b[1]} as in"
    return f"has {len(kinds)} columns, not {len(first)} as"


def column_kind(kind, name: str, column: str) -> str:
    """What a column of the Arrow type ``kind`` reads as: nominal, bool, integer, numeric, date or null;
    a DataError naming the file ``name`` and the ``column`` for a type dtree cannot read."""
    import pyarrow.types as t

    if t.is_dictionary(kind):
        kind = kind.value_type
    if t.is_string(kind) or t.is_large_string(kind) or getattr(t, "is_string_view", lambda _: False)(kind):
        return "nominal"
    if t.is_boolean(kind):
        return "bool"
    if t.is_integer(kind):
        return "integer"
    if t.is_floating(kind) or t.is_decimal(kind):
        return "numeric"
    if t.is_null(kind):
        return "null"
    if t.is_timestamp(kind) or t.is_date(kind):
        return "date"
    advice = "a number (such as seconds) or a string" if t.is_temporal(kind) else "numbers or strings"
    raise DataError(
        f"{name}: column {column!r} is of Parquet type {kind}, which dtree cannot read; convert it to {advice}"
    )


def _broad(kind: str) -> str:
    """The kind parts must agree on: integers, floats and nulls are all numeric (a part whose
    integer column has missing values is often written as floats, and one with none but nulls as nulls)."""
    return "numeric" if kind in ("integer", "null") else kind


def _columns(handles: list, files: list[str], texts: set) -> tuple[Columns, dict]:
    """The Columns of the parts one after the other, and the nominal attributes their types declare.
    A column at a time is read (from every part), so the Arrow data of one column is held at once."""
    names = handles[0].schema_arrow.names
    texts = aliases(texts, names)  # (a name the file writes in another normal form is the same name)
    data, declared = {}, {}
    for name in names:
        kinds = {column_kind(handle.schema_arrow.field(name).type, files[0], name) for handle in handles}
        pieces = [_read_column(file, handle, name) for file, handle in zip(files, handles)]
        data[name], attribute = column_of(pieces, kinds, name, texts)
        if attribute is not None:
            declared[name] = attribute
        del pieces
    return Columns(data, sum(handle.metadata.num_rows for handle in handles)), declared


def column_of(pieces: list, kinds: set, name: str, texts) -> tuple:
    """One column (its pieces, Arrow arrays of the ``kinds`` of ``column_kind``) as read: a TextColumn and
    the nominal Attribute its type declares (None for integers read as text), or a NumberColumn and None."""
    if kinds == {"date"}:
        return dates_text(pieces), None
    if kinds & {"nominal", "bool"} or (kinds == {"integer"} and name in texts):
        text = _text(pieces)
        return text, None if kinds == {"integer"} else Attribute(name, NOMINAL, nominal_values(text.uniques))
    return NumberColumn(_numbers(pieces)), None


def table_columns(table, source: str, texts=()) -> tuple[Columns, dict]:
    """An Arrow table (a part, or a piece of one, read elsewhere: a Dask partition) as ``read_parquet``
    reads a file of those rows: the Columns and the nominal attributes the types declare."""
    data, declared = {}, {}
    for name, column in zip(table.column_names, table.columns):
        data[name], attribute = column_of([column], {column_kind(column.type, source, name)}, name, set(texts))
        if attribute is not None:
            declared[name] = attribute
    return Columns(data, table.num_rows), declared


def _read_column(file: str, handle, name: str):
    """The column ``name`` of one part, as a pyarrow ChunkedArray."""
    return _damaged(file, lambda: handle.read([name], use_threads=False).column(0))


def _check_names(names: list[str], first: str) -> None:
    seen: dict[str, int] = {}
    for position, name in enumerate(names, start=1):
        if name in seen:
            raise DataError(
                f"{first}: column name {name!r} appears twice (columns {seen[name]} and {position}); rename one of them"
            )
        seen[name] = position
    same = clash(names)
    if same is not None:
        one, two = (names[i] for i in same)
        raise DataError(f"{first}: columns {same[0] + 1} and {same[1] + 1}: {clash_text(one, two)}; rename one of them")


def _text(parts: list) -> TextColumn:
    """A string, bool or integer column (its parts) as text: codes (-1 for null) in order of first appearance.
    Each chunk is a dictionary (made here when it is not one), so no string is made once per row."""
    import pyarrow as pa

    values, indices = [], []  # each chunk's dictionary as text, and its rows' indices into it
    for column in parts:
        if not pa.types.is_dictionary(column.type):
            column = column.dictionary_encode()
        for chunk in column.chunks:
            values.append(chunk.dictionary.cast(pa.large_string()))  # bool: "true"/"false"; integers: digits
            rows = chunk.indices if chunk.indices.type == pa.int32() else chunk.indices.cast(pa.int32())
            indices.append(rows.fill_null(-1).to_numpy(zero_copy_only=False))
    if not values:
        return TextColumn(np.zeros(0, dtype=np.int32), [])
    strings = pa.concat_arrays(values).dictionary_encode()  # each dictionary entry's distinct string
    entry = strings.indices.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int32)
    codes, start, offset = np.full(sum(len(chunk) for chunk in indices), -1, dtype=np.int32), 0, 0
    for dictionary, chunk in zip(values, indices):
        if len(dictionary):
            codes[start : start + len(chunk)] = np.where(chunk >= 0, entry[np.maximum(chunk, 0) + offset], -1)
        start, offset = start + len(chunk), offset + len(dictionary)
    first = pa.array(codes, mask=codes < 0).dictionary_encode()  # the strings in order of first appearance
    ordered = first.indices.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int32)
    return TextColumn(ordered, strings.dictionary.take(first.dictionary).to_pylist())


def dates_text(parts: list) -> TextColumn:
    """A date or timestamp column (its parts) as the ISO 8601 text a CSV file of it holds
    (``TextColumn.of_instants``: the instants in microseconds since 1970, UTC for a zoned column)."""
    import pyarrow as pa

    micros, zoned = [], False
    for column in parts:
        kind = column.type
        zoned = zoned or (pa.types.is_timestamp(kind) and kind.tz is not None)
        if pa.types.is_date(kind):
            column = column.cast(pa.timestamp("s"))
        column = column.cast(pa.timestamp("us", tz=getattr(column.type, "tz", None)), safe=False)
        for chunk in column.chunks:
            micros.append(chunk.cast(pa.int64()).fill_null(NOT_AN_INSTANT).to_numpy(zero_copy_only=False))
    return TextColumn.of_instants(np.concatenate(micros) if micros else np.zeros(0, dtype=np.int64), zoned)


def _numbers(parts: list) -> np.ndarray:
    """A numeric (or null) column (its parts) as float64, NaN for null (-0.0 kept, as the CSV reader keeps ``-0``)."""
    import pyarrow as pa

    chunks = []
    for column in parts:  # integers beyond 2**53 round, as they do in a CSV file
        chunks.extend(column.cast(pa.float64(), safe=False).fill_null(float("nan")).chunks)
    values = np.zeros(sum(len(chunk) for chunk in chunks), dtype=np.float64)
    start = 0
    for chunk in chunks:
        values[start : start + len(chunk)] = chunk.to_numpy(zero_copy_only=False)
        start += len(chunk)
    return values


def nominal_values(uniques) -> tuple[str, ...]:
    """The values of a nominal column whose distinct cells are ``uniques`` (in order of first appearance):
    spaces stripped, missing cells left out, each once; as ``encode`` makes them for a CSV column."""
    labels = (str(cell).strip() for cell in uniques)
    return tuple(dict.fromkeys(label for label in labels if label not in MISSING_CELLS))


def digest(files: list[str]) -> str:
    """The SHA-256 of the files' bytes, one after the other."""
    import hashlib

    hashed = hashlib.sha256()
    for name in files:
        try:
            with open(name, "rb") as handle:
                while chunk := handle.read(HASH_CHUNK):
                    hashed.update(chunk)
        except OSError as exc:
            raise DataError(f"{name}: cannot read: {exc.strerror}") from None
    return hashed.hexdigest()
