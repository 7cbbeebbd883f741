"""The Dask engine's data (``--engine dask``): read on the workers, its schema found in passes, encoded and kept there.

``read_frame`` is the one function that knows the format (CSV today: a path or a glob of CSV files,
every cell read as text); the rest works on its partitions. The schema follows ``io/encode.py:
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

from dtcli.errors import DataError
from dtcli.io.columns import parse_number
from dtcli.io.encode import MISSING_ANY, MISSING_NUMERIC
from dtcli.model.table import NOMINAL, NUMERIC, Attribute, Schema, saturate

NOT_NUMBERS = frozenset(MISSING_ANY) | frozenset(MISSING_NUMERIC)


def read_frame(path: str, blocksize: str | int = "64MB"):
    """The dask DataFrame of ``path`` (a CSV file or a glob of them), every cell as text."""
    import dask.dataframe as dd

    try:
        return dd.read_csv(path, dtype=str, keep_default_na=False, na_filter=False, blocksize=blocksize)
    except (OSError, ValueError) as exc:
        raise DataError(f"{path}: cannot be read by dask ({str(exc).splitlines()[0]})") from None


class Layout(NamedTuple):
    """Which columns become what: attribute names in file order, the target, forced nominal names."""

    attributes: tuple
    target: str
    nominal: frozenset


def layout(columns: list, target: str | None, ignore, nominal, source: str) -> Layout:
    """The attributes and target from the header and --target, --ignore, --nominal."""
    target = columns[-1] if target is None else target
    for name, option in [
        (target, "--target"),
        *((n, "--ignore") for n in ignore),
        *((n, "--nominal") for n in nominal),
    ]:
        if name not in columns:
            raise DataError(f"{source}: no column {name!r} (from {option}); columns are: {', '.join(columns)}")
    if target in ignore:
        raise DataError(f"{source}: the target column {target!r} cannot be ignored")
    names = tuple(c for c in columns if c not in ignore and c != target)
    return Layout(names, target, frozenset(nominal) | {target})


def kinds_of(part, names) -> dict:
    """Per column of a partition: (every non-missing cell a number, some cell a number)."""
    found = {}
    for name in names:
        cells = [str(c).strip() for c in part[name].unique()]
        numbers = [c for c in cells if c not in NOT_NUMBERS]
        found[name] = (all(parse_number(c) is not None for c in numbers), bool(numbers))
    return found


def merge_kinds(parts: list[dict]) -> dict:
    """Kinds over partitions: a column is numbers when it is in every partition and has one somewhere."""
    return {n: (all(p[n][0] for p in parts), any(p[n][1] for p in parts)) for n in parts[0]}


def labels_of(part, drops: dict) -> dict:
    """Per nominal column: its values in order of first appearance, without the missing markers ``drops``."""
    found = {}
    for name, drop in drops.items():
        cells = (str(c).strip() for c in part[name].unique())  # (pandas' unique: first appearance)
        found[name] = list(dict.fromkeys(c for c in cells if c not in drop))
    return found


def schema_of(lay: Layout, kinds: dict, labels: dict) -> Schema:
    attributes = []
    for name in (*lay.attributes, lay.target):
        numeric = kinds[name][0] and kinds[name][1] and name not in lay.nominal
        values = tuple(dict.fromkeys(v for part in labels for v in part.get(name, ())))
        attributes.append(Attribute(name, NUMERIC) if numeric else Attribute(name, NOMINAL, values))
    return Schema(tuple(attributes[:-1]), attributes[-1])


def drops_of(lay: Layout, kinds: dict) -> dict:
    """Per nominal column, its missing markers (numbers used as codes: NA and NaN too, as ``infer_table``)."""
    drops = {}
    for name in (*lay.attributes, lay.target):
        numbers, some = kinds[name]
        if name in lay.nominal or not (numbers and some):
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
    return Encoded(codes, values, _codes(part[schema.target.name], schema.target))


def _codes(series, attribute: Attribute) -> np.ndarray:
    index = {v: i for i, v in enumerate(attribute.values)}
    codes, uniques = series.factorize()
    lookup = np.array([index.get(str(u).strip(), -1) for u in uniques] + [-1], dtype=np.int32)
    return lookup[codes]


def _numbers(series) -> np.ndarray:
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


def load(client, data: str, columns: tuple, summed, blocksize="64MB") -> Loaded:
    """Read ``data`` on the cluster (``columns``: --target, --ignore, --nominal; ``summed``: how
    partial results are added up on the cluster): three passes (kinds, values, encoding)."""
    from dask import delayed

    frame = read_frame(data, blocksize)
    source = os.path.basename(data)
    lay = layout(list(frame.columns), *columns, source)
    parts = frame.to_delayed()
    names = (*lay.attributes, lay.target)
    kinds = merge_kinds(client.gather(client.compute([delayed(kinds_of)(p, names) for p in parts])))
    drops = drops_of(lay, kinds)
    labels = client.gather(client.compute([delayed(labels_of)(p, drops) for p in parts]))
    schema = schema_of(lay, kinds, labels)
    encoded = client.compute([delayed(encode)(p, schema) for p in parts])
    n_rows, by_class = summed(client, client.map(_sizes, encoded, n_classes=len(schema.classes)))
    sha = _digest(data) if os.path.isfile(data) else ""  # (a glob: several files, no one digest)
    return Loaded(schema, encoded, source, sha, int(n_rows[0]), by_class)
