"""Read CSV and ARFF files into a :class:`RawData`: text cells plus declared types.

A RawData keeps every cell as the text the file had (so ``predict`` can
echo input rows unchanged) and, for ARFF, the declared attribute types.
``dtcli.io.encode`` turns it into the columnar Table. This is one of the two
modules that import pandas, and the only one that imports liac-arff.
"""

from __future__ import annotations

import codecs
import csv
import gzip
import hashlib
import io
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from dtcli.errors import DataError
from dtcli.model.table import NOMINAL, NUMERIC, Attribute

FORMATS = ("csv", "arff")
ARFF_MISSING = "?"


@dataclass
class RawData:
    """A table as text: ``frame`` holds str cells; ``declared`` ARFF types by column."""

    frame: pd.DataFrame
    source: str
    sha256: str
    declared: dict[str, Attribute] = field(default_factory=dict)


def read_data(path: str, format_in: str | None = None) -> RawData:
    """Read ``path`` (``-`` for stdin) as CSV or ARFF, by extension unless forced."""
    source = "<stdin>" if path == "-" else path
    data = _read_bytes(path, source)
    if path.endswith(".gz"):
        try:
            data = gzip.decompress(data)
        except OSError as exc:
            raise DataError(f"{source}: not a readable gzip file; check that it is gzip-compressed") from None
    kind = format_in or _guess_format(path, data)
    digest = hashlib.sha256(data).hexdigest()
    text = _decode(data, source)
    if kind == "arff":
        frame, declared = _parse_arff(text, source)
    else:
        frame, declared = _parse_csv(text, source, path), {}
    if len(frame.columns) == 0:
        raise DataError(f"{source}: no columns found; the first line must name the columns")
    return RawData(frame=frame, source=source, sha256=digest, declared=declared)


def _read_bytes(path: str, source: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    p = Path(path)
    if p.is_dir():
        raise DataError(f"{source}: is a directory; give a .csv or .arff file")
    try:
        return p.read_bytes()
    except FileNotFoundError:
        raise DataError(f"{source}: no such file; check the path") from None
    except OSError as exc:
        raise DataError(f"{source}: cannot read: {exc.strerror}") from None


def _guess_format(path: str, data: bytes) -> str:
    name = path[:-3] if path.endswith(".gz") else path
    if name.lower().endswith(".arff"):
        return "arff"
    if path == "-":
        head = data.removeprefix(codecs.BOM_UTF8).lstrip()[:200].lower()
        if head.startswith(b"%") or head.startswith(b"@relation"):
            return "arff"
    return "csv"


def _decode(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise DataError(
            f"{source}, line {line}: not UTF-8 text (byte 0x{data[exc.start]:02x}); "
            "save the file as UTF-8"
        ) from None


def _sniff_separator(header: str, path: str) -> str:
    if path.lower().removesuffix(".gz").endswith(".tsv"):
        return "\t"
    if "," in header:
        return ","
    for sep in ("\t", ";", "|"):
        if sep in header:
            return sep
    return ","


def _parse_csv(text: str, source: str, path: str) -> pd.DataFrame:
    first = text.lstrip("\r\n").split("\n", 1)[0].rstrip("\r")
    if not first.strip():
        raise DataError(f"{source}: file is empty; a CSV file needs a header line naming the columns")
    sep = _sniff_separator(first, path)
    header = [name.strip() for name in next(csv.reader([first], delimiter=sep))]
    _check_widths(text, sep, len(header), source)
    try:
        frame = pd.read_csv(
            io.StringIO(text), sep=sep, dtype=str, na_filter=False, index_col=False,
            skipinitialspace=True, engine="c",
        )
    except pd.errors.ParserError as exc:
        raise DataError(f"{source}: cannot parse CSV ({_parser_message(str(exc))}); check the quoting") from None
    except pd.errors.EmptyDataError:
        raise DataError(f"{source}: file is empty; a CSV file needs a header line naming the columns") from None
    return _check_header(frame, header, source)


def _check_widths(text: str, sep: str, width: int, source: str) -> None:
    """Every record must have as many fields as the header: name the first line that has not."""
    reader = csv.reader(io.StringIO(text), delimiter=sep)
    next(reader, None)
    for record in reader:
        if record and len(record) != width and any(field.strip() for field in record):
            if len(record) < width:
                advice = "add the missing values (an empty field or ? for a missing value)"
            else:
                advice = "quote values that contain the separator, or remove the extra fields"
            raise DataError(
                f"{source}, line {reader.line_num}: {len(record)} fields where the header has {width}; {advice}"
            )


def _parser_message(message: str) -> str:
    if "EOF inside string" in message:
        return "a quoted value is never closed"
    return message.strip().splitlines()[-1].replace("Error tokenizing data. C error: ", "")


def _check_header(frame: pd.DataFrame, header: list[str], source: str) -> pd.DataFrame:
    seen: dict[str, int] = {}
    for position, name in enumerate(header, start=1):
        if name in seen:
            raise DataError(
                f"{source}: column name {name!r} appears twice (columns {seen[name]} and {position}); "
                "rename one of them"
            )
        seen[name] = position
    frame.columns = header[: len(frame.columns)]
    unnamed = [i for i, name in enumerate(header) if name == ""]
    for i in reversed(unnamed):
        column = frame.iloc[:, i]
        if (column.fillna("").str.strip() != "").any():
            raise DataError(f"{source}: column {i + 1} has no name in the header line; name it")
        frame = frame.drop(columns=frame.columns[i])
    return frame


def _parse_arff(text: str, source: str) -> tuple[pd.DataFrame, dict[str, Attribute]]:
    import arff  # liac-arff: imported here so CSV users do not pay for it

    try:
        parsed = arff.loads(text)
    except arff.ArffException as exc:
        line = getattr(exc, "line", None)
        where = f", line {line}" if line and line > 0 else ""
        message = re.sub(r",? (at|in) line \d+\.?", "", str(exc)).rstrip(".")
        raise DataError(f"{source}{where}: invalid ARFF: {message}") from None
    declared: dict[str, Attribute] = {}
    names = []
    for name, kind in parsed["attributes"]:
        if name in declared:
            raise DataError(f"{source}: attribute {name!r} is declared twice; rename one")
        if isinstance(kind, list):
            declared[name] = Attribute(name, NOMINAL, tuple(str(v) for v in kind))
        elif kind.upper() in ("NUMERIC", "REAL", "INTEGER"):
            declared[name] = Attribute(name, NUMERIC)
        names.append(name)
    rows = parsed["data"]
    columns = {}
    for j, name in enumerate(names):
        numeric = name in declared and declared[name].kind == NUMERIC
        columns[name] = [_arff_cell(row[j], numeric) for row in rows]
    frame = pd.DataFrame(columns, columns=names, dtype=object)
    return frame, declared


def _arff_cell(value, numeric: bool) -> str:
    if value is None:
        return ARFF_MISSING
    if numeric:
        return f"{value:.15g}"
    return str(value)
