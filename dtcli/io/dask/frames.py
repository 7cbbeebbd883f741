"""The Dask engine's data (``--engine dask``): read on the workers, its schema found in passes, encoded and kept there.

``read_frame`` is the one function that knows the format: a CSV file or a glob of them (every cell
read as text, a partition a block of ``blocksize`` bytes), or Parquet (a ``.parquet`` file, a
directory of parts as ``parquet.parts`` lists them, or a glob of ``.parquet`` files: a partition a
part, or a run of its row groups up to ``blocksize``), each partition turned by ``cells`` into what
``parquet.table_columns`` reads those rows as (text cells, or float64 numbers); the rest works on
its partitions. A Parquet string or bool column is nominal, as its type declares, with its values in
order of first appearance over the parts in order (``parquet.nominal_values``'s rules); an integer
target or ``--nominal`` column is read as its digits, and a floating one as ``encode`` labels a
number, so the schema is the local reader's. The schema follows ``io/encode.py:
infer_table``: a column is numeric when every non-missing cell of every partition is a number (and
one is), else nominal with its values in order of first appearance over the partitions in order
(the CSV reader's order); the target (the last column unless named) holds the classes. Only these
summaries travel to the client; the encoded partitions stay on the workers (``Encoded``).
"""

from __future__ import annotations

import hashlib
import os
from typing import NamedTuple

import numpy as np

from dtcli.errors import DataError, ParameterError
from dtcli.io.columns import NumberColumn
from dtcli.io.csv.cells import parse_number
from dtcli.io.encode import number_classes
from dtcli.io.names import split_names
from dtcli.io.written import MISSING_ANY, MISSING_NUMERIC
from dtcli.model.colnames import find, missing_text
from dtcli.model.table import NOMINAL, NUMERIC, Attribute, Schema, saturate

NOT_NUMBERS = frozenset(MISSING_ANY) | frozenset(MISSING_NUMERIC)


class Frame(NamedTuple):
    """DATA on the cluster: the dask DataFrame, the files read when Parquet (else None), the columns
    their types declare nominal, and the name for messages."""

    frame: object
    files: list | None
    declared: frozenset
    source: str


def read_frame(path: str, blocksize: str | int = "64MB", sep: str | None = None, decimal: str | None = None) -> Frame:
    """DATA at ``path`` (see the module docstring) as a dask DataFrame; a CSV file's separator is
    ``sep`` (--sep) or the one ``csv_dialect`` detects in the first file's start."""
    import dask.dataframe as dd

    source = path.rstrip("/") or path
    if source.lower().endswith((".arff", ".arff.gz")):
        raise DataError(
            f"{source}: --engine dask reads CSV and Parquet files, not ARFF: leave --engine dask out, or "
            "write the table as CSV or Parquet"
        )
    files = _parquet_files(path, source)
    if files is None:  # (before the try: its DataError is a ValueError too, and says what is wrong itself)
        sep = _separator(path, source, sep, decimal)
    try:
        if files is None:
            frame = dd.read_csv(path, sep=sep, dtype=str, keep_default_na=False, na_filter=False, blocksize=blocksize)
            return Frame(frame, None, frozenset(), source)
        frame = dd.read_parquet(files, dtype_backend="pyarrow", split_row_groups="adaptive", blocksize=blocksize)
    except (OSError, ValueError) as exc:
        raise DataError(f"{source}: cannot be read by dask ({str(exc).splitlines()[0]})") from None
    return Frame(frame, files, _declared(files[0]), source)


def _separator(path: str, source: str, sep: str | None, decimal: str | None) -> str:
    """The CSV separator (``csv_dialect.detect`` on the first file's first bytes); a file read with
    a decimal comma or an Excel sep= line is refused (the workers read the cells as written)."""
    import glob

    from dtcli.io.csv.dialect import SAMPLE_BYTES, detect

    first = sorted(glob.glob(path))[:1] if glob.has_magic(path) else [path]
    try:
        with open(first[0], "rb") as handle:
            head = handle.read(SAMPLE_BYTES + 1)
    except (OSError, IndexError):
        return sep or ","  # (dask names what is wrong with the path)
    if head.startswith(b"\x1f\x8b"):
        return sep or ","  # (compressed: read as the comma file it was before)
    dialect = detect(head, first[0], source, sep, decimal)
    if dialect.decimal == "," or dialect.skip:
        what = "numbers written with a decimal comma" if dialect.decimal == "," else "an Excel sep= first line"
        raise DataError(
            f"{source}: --engine dask does not read {what}: leave --engine dask out, or write the table as "
            "Parquet or as CSV with decimal points"
        )
    return dialect.sep


def _parquet_files(path: str, source: str) -> list | None:
    """The Parquet files ``path`` names (a file, a directory of parts, a glob of ``.parquet`` names), else None."""
    import glob

    from dtcli.io.parquet.reader import parts
    from dtcli.io.read import is_parquet

    if glob.has_magic(path):
        if not path.rstrip("/").lower().endswith(".parquet"):
            return None
        files = sorted(glob.glob(path))
        if not files:
            raise DataError(f"{source}: no file matches; check the pattern")
        return files
    return parts(path, source) if is_parquet(path) else None


def _declared(first: str) -> frozenset:
    """The columns whose Parquet type (in the first part: the parts agree) is nominal."""
    from dtcli.io.parquet.reader import column_kind

    try:
        import pyarrow.parquet as pq

        schema = pq.read_schema(first)
    except (OSError, ValueError) as exc:
        raise DataError(f"{first}: not a readable Parquet file ({str(exc).splitlines()[0]})") from None
    return frozenset(f.name for f in schema if column_kind(f.type, first, f.name) in ("nominal", "bool"))


def cells(part, source: str, texts=()):
    """A Parquet partition (pyarrow-backed pandas) as the cells the rest reads (runs on a worker): text
    columns as str ("" missing), numbers as float64 (NaN missing); ``texts`` (target, --nominal) as
    text, numbers written as ``encode`` labels them."""
    import pyarrow as pa

    from dtcli.io.pandas_import import pandas
    from dtcli.io.parquet.reader import table_columns

    columns, _ = table_columns(pa.Table.from_pandas(part, preserve_index=False), source, texts)
    frame = {}
    for name in columns.columns:
        column = columns[name]
        if isinstance(column, NumberColumn) and name in texts:
            frame[name] = np.array([f"{v:.15g}" if v == v else "" for v in column.values.tolist()], dtype=object)
        elif isinstance(column, NumberColumn):
            frame[name] = column.values
        else:
            frame[name] = np.array(list(column.uniques) + [""], dtype=object)[column.codes]
    return pandas().DataFrame(frame, columns=columns.columns)


def partitions(read: Frame, texts=()) -> list:
    """The partitions (dask Delayed) as cells: CSV's as read, Parquet's through ``cells``."""
    from dask import delayed

    parts = read.frame.to_delayed()
    if read.files is None:
        return parts
    return [delayed(cells)(p, read.source, tuple(texts)) for p in parts]


class Layout(NamedTuple):
    """Which columns become what: attribute names in file order, the target, forced nominal names."""

    attributes: tuple
    target: str
    nominal: frozenset
    declared: frozenset = frozenset()


def layout(columns: list, target: str | None, ignore, nominal, source: str, declared=frozenset()) -> Layout:
    """The attributes and target from the header and --target, --ignore, --nominal (``declared``:
    the columns the file's types make nominal)."""
    ignore, nominal = split_names(ignore, columns), split_names(nominal, columns)  # as the one-machine reader
    found = {}
    for name, option in [
        *(() if target is None else [(target, "--target")]),
        *((n, "--ignore") for n in ignore),
        *((n, "--nominal") for n in nominal),
    ]:
        found[name] = find(name, columns)
        if found[name] is None:
            raise DataError(f"{source}: no column {name!r} (from {option}); {missing_text(name, columns)}")
    target = columns[-1] if target is None else found[target]
    ignore, nominal = [found[n] for n in ignore], [found[n] for n in nominal]
    if target in ignore:
        raise DataError(f"{source}: the target column {target!r} cannot be ignored")
    names = tuple(c for c in columns if c not in ignore and c != target)
    return Layout(names, target, frozenset(nominal) | {target}, declared)


def kinds_of(part, names) -> dict:
    """Per column of a partition: (every non-missing cell a number, some cell a number)."""
    found = {}
    for name in names:
        if _is_float(part[name]):
            found[name] = (True, bool(part[name].notna().any()))
            continue
        texts = [str(c).strip() for c in part[name].unique()]
        numbers = [c for c in texts if c not in NOT_NUMBERS]
        found[name] = (all(parse_number(c) is not None for c in numbers), bool(numbers))
    return found


def merge_kinds(parts: list[dict]) -> dict:
    """Kinds over partitions: a column is numbers when it is in every partition and has one somewhere."""
    return {n: (all(p[n][0] for p in parts), any(p[n][1] for p in parts)) for n in parts[0]}


def labels_of(part, drops: dict) -> dict:
    """Per nominal column: its values in order of first appearance, without the missing markers ``drops``."""
    found = {}
    for name, drop in drops.items():
        if _is_float(part[name]):
            found[name] = []  # (numbers only where no cell is a number: every cell missing)
            continue
        texts = (str(c).strip() for c in part[name].unique())  # (pandas' unique: first appearance)
        found[name] = list(dict.fromkeys(c for c in texts if c not in drop))
    return found


def schema_of(lay: Layout, kinds: dict, labels: dict) -> Schema:
    attributes = []
    for name in (*lay.attributes, lay.target):
        numeric = kinds[name][0] and kinds[name][1] and name not in lay.nominal and name not in lay.declared
        values = tuple(dict.fromkeys(v for part in labels for v in part.get(name, ())))
        attributes.append(Attribute(name, NUMERIC) if numeric else Attribute(name, NOMINAL, values))
    return Schema(tuple(attributes[:-1]), attributes[-1])


def drops_of(lay: Layout, kinds: dict) -> dict:
    """Per nominal column, its missing markers (numbers used as codes: NA and NaN too, as ``infer_table``)."""
    drops = {}
    for name in (*lay.attributes, lay.target):
        numbers, some = kinds[name]
        if name in lay.declared:
            drops[name] = frozenset(MISSING_ANY)  # (a string column's NA is a value, as locally)
        elif name in lay.nominal or not (numbers and some):
            drops[name] = NOT_NUMBERS if name in lay.nominal and numbers and some else frozenset(MISSING_ANY)
    return drops


class Encoded(NamedTuple):
    """One partition encoded: nominal codes (attributes by row, -1 missing), numeric values
    (NaN missing, infinities saturated), class codes (-1 unlabelled)."""

    nominal: np.ndarray
    numeric: np.ndarray
    y: np.ndarray


def encode(part, schema: Schema) -> Encoded:
    """A partition as arrays for the schema (runs on a worker)."""
    nominal = [a for a in schema.attributes if a.is_nominal]
    numeric = [a for a in schema.attributes if not a.is_nominal]
    n = len(part)
    codes = np.full((len(nominal), n), -1, dtype=np.int32)
    for j, a in enumerate(nominal):
        codes[j] = _codes(part[a.name], a)
    values = np.full((len(numeric), n), np.nan)
    for j, a in enumerate(numeric):
        values[j] = saturate(_numbers(part[a.name]))
    return Encoded(codes, values, _codes(part[schema.target.name], schema.target, numbers=True))


def _codes(series, attribute: Attribute, numbers: bool = False) -> np.ndarray:
    """Codes into ``attribute``'s values; with ``numbers`` (the target) a cell not among them that is a
    number one of them is (1.0 and the class 1, ``_number_classes``) takes that one's code."""
    index = {v: i for i, v in enumerate(attribute.values)}
    codes, uniques = series.factorize()
    texts = [str(u).strip() for u in uniques]
    if numbers and any(t not in index for t in texts) and attribute.values:
        values = [parse_number(v) for v in attribute.values]
        if all(v is not None for v in values):
            by_number = {v: i for i, v in reversed(list(enumerate(values)))}
            index = {**{t: by_number.get(parse_number(t), -1) for t in texts}, **index}
    lookup = np.array([index.get(t, -1) for t in texts] + [-1], dtype=np.int32)
    return lookup[codes]


def _number_classes(schema: Schema) -> Schema:
    """The schema with the target's spellings of one number as one class (``encode.number_classes``)."""
    merged = number_classes(schema.target.values)
    if merged is None:
        return schema
    return Schema(schema.attributes, Attribute(schema.target.name, NOMINAL, merged[0]))


def _is_float(series) -> bool:
    """Whether a partition's column holds numbers (a Parquet partition's), not text cells."""
    return series.dtype.kind == "f"


def _numbers(series) -> np.ndarray:
    if _is_float(series):
        return series.to_numpy(dtype=np.float64)
    codes, uniques = series.factorize()
    lookup = [parse_number(str(u)) if str(u).strip() not in NOT_NUMBERS else None for u in uniques]
    return np.array([np.nan if v is None else v for v in lookup] + [np.nan])[codes]


class Loaded(NamedTuple):
    """A table on the cluster: its schema, encoded partitions (futures), where it came from,
    its row count and labelled rows by class."""

    schema: Schema
    parts: list
    source: str
    sha256: str
    n_rows: int
    by_class: np.ndarray


def _digest(path: str) -> str:
    """The SHA-256 of a file's bytes, as the local reader records it."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _sizes(enc: Encoded, n_classes: int):
    """Rows, and labelled rows by class, of one encoded partition."""
    labelled = enc.y >= 0
    return np.array([len(enc.y)]), np.bincount(enc.y[labelled], minlength=n_classes)


def load(
    client, data: str, columns: tuple, summed, blocksize="64MB", task: str = "classification", dialect=(None, None)
) -> Loaded:
    """Read ``data`` on the cluster (``columns``: --target, --ignore, --nominal; ``summed``: how
    partial results are added up on the cluster): three passes (kinds, values, encoding). The target
    is read as classes; ``task`` (``auto``: regression for a numeric target, as the local reader
    takes it for CART; ``regression``) that would make a regression tree is refused. ``dialect``:
    --sep and --decimal."""
    from dask import delayed

    read = read_frame(data, blocksize, *dialect)
    source = os.path.basename(read.source)
    lay = layout(list(read.frame.columns), *columns, source, read.declared)
    parts = client.persist(partitions(read, lay.nominal))  # read once for the three passes (then let go)
    names = (*lay.attributes, lay.target)
    kinds = merge_kinds(client.gather(client.compute([delayed(kinds_of)(p, names) for p in parts])))
    header = list(read.frame.columns)
    given = [find(name, header) for name in split_names(columns[2], header)]  # (--nominal, as the file has them)
    _classes_only(lay, kinds, task, given)
    drops = drops_of(lay, kinds)
    labels = client.gather(client.compute([delayed(labels_of)(p, drops) for p in parts]))
    schema = schema_of(lay, kinds, labels)
    _no_dates(schema, lay, source)
    if lay.target not in given and lay.target not in lay.declared:  # 1 and 1.0: one class, as locally
        schema = _number_classes(schema)
    encoded = client.compute([delayed(encode)(p, schema) for p in parts])
    n_rows, by_class = summed(client, client.map(_sizes, encoded, n_classes=len(schema.classes)))
    return Loaded(schema, encoded, source, _fingerprint(data, read), int(n_rows[0]), by_class)


def _no_dates(schema: Schema, lay: Layout, source: str) -> None:
    """Refuse a column of ISO 8601 dates, which the local engines read as time and this one does not:
    the same file would give another tree (``--nominal`` reads it as categories on both)."""
    from dtcli.model.dates import iso_format

    for attribute in schema.attributes:
        if attribute.is_nominal and attribute.name not in lay.nominal and attribute.name not in lay.declared:
            if attribute.values and attribute.values[0][:1].isdigit() and iso_format(attribute.values):
                raise DataError(
                    f"{source}: column {attribute.name!r} holds ISO 8601 dates, which --engine dask does not read "
                    f"as time (the other engines do): leave out --engine dask, or give --nominal {attribute.name} "
                    "to read the dates as categories"
                )


def _classes_only(lay: Layout, kinds: dict, task: str, nominal) -> None:
    """Refuse a task that makes the target a number to regress (the Dask engine grows classification
    trees); ``nominal``: the columns --nominal names."""
    numbers, some = kinds[lay.target]
    numeric = numbers and some and lay.target not in nominal and lay.target not in lay.declared
    if task == "regression" or (task == "auto" and numeric):
        raise ParameterError(
            f"--engine dask grows classification trees, and the target {lay.target!r} is numeric: give --task "
            "classification to take its values as classes, or leave --engine dask out (CART regresses it)"
        )


def _fingerprint(data: str, read: Frame) -> str:
    """The SHA-256 the local reader records: a file's bytes, a Parquet directory's parts' one after
    the other; a glob "" (several files, no one digest; the local readers take no glob)."""
    from dtcli.io.parquet.reader import digest

    if read.files is not None and not glob_of(data):
        return digest(read.files)
    return _digest(data) if os.path.isfile(data) else ""


def glob_of(path: str) -> bool:
    import glob

    return glob.has_magic(path)
