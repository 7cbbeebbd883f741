"""Read CSV and ARFF files into a :class:`RawData`: text cells plus declared types.

A RawData keeps every cell as the text the file had (so ``predict`` can
echo input rows unchanged) and, for ARFF, the declared attribute types.
``dtcli.io.encode`` turns it into the columnar Table. The format-specific
parsers are ``csv_reader`` (plain Python for small files, pandas' C parser
for the rest) and ``arff_reader`` (liac-arff).
"""

from __future__ import annotations

import codecs
import gzip
import hashlib
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from dtcli.errors import DataError
from dtcli.io.arff_reader import parse_arff
from dtcli.io.columns import Columns
from dtcli.io.csv_reader import parse_csv
from dtcli.model.table import Attribute

FORMATS = ("csv", "arff")


@dataclass
class RawData:
    """A table as read: ``frame`` holds number columns (float64, NaN missing) and text
    columns (the cells as written, code -1 missing); ``declared`` the ARFF types by
    column; ``lines`` the file line of each row, for messages (None if unknown); for CSV,
    ``text`` and ``sep`` so that rows can be echoed exactly as they were written."""

    frame: Columns
    source: str
    sha256: str
    declared: dict[str, Attribute] = field(default_factory=dict)
    lines: np.ndarray | None = None
    text: str | None = None
    sep: str = ","

    def echo_lines(self) -> list[str] | None:
        """The header and data lines as written (CSV without quotes or blank lines), else None."""
        if self.text is None or '"' in self.text:
            return None
        if "\r" not in self.text:  # the common case, without a pass per line in Python
            lines = self.text.split("\n")
            if lines and lines[-1] == "":
                lines.pop()
            if len(lines) == len(self.frame) + 1 and "" not in lines:
                return lines  # every line a record (pandas skips blank ones, which would change the count)
        lines = [line.rstrip("\r") for line in self.text.split("\n")]
        lines = [line for line in lines if line.strip()]
        return lines if len(lines) == len(self.frame) + 1 else None


def read_data(path: str, format_in: str | None = None, text_columns=()) -> RawData:
    """Read ``path`` (``-`` for stdin) as CSV or ARFF, by extension unless forced.

    ``text_columns`` are read as text even when they hold numbers (class
    labels, ``--nominal`` codes).
    """
    source = "<stdin>" if path == "-" else path
    data = _read_bytes(path, source)
    if path.endswith(".gz"):
        try:
            data = gzip.decompress(data)
        except OSError:
            raise DataError(f"{source}: not a readable gzip file; check that it is gzip-compressed") from None
    kind = format_in or _guess_format(path, data)
    digest = hashlib.sha256(data).hexdigest()
    text = _decode(data, source)
    sep, csv_text = ",", None
    if kind == "arff":
        frame, declared, lines = parse_arff(text, source)
    else:
        frame, lines, sep = parse_csv(text, source, path, set(text_columns))
        declared, csv_text = {}, text
    if len(frame.columns) == 0:
        raise DataError(f"{source}: no columns found; the first line must name the columns")
    if lines is not None and len(lines) != len(frame):
        lines = None
    return RawData(frame=frame, source=source, sha256=digest, declared=declared, lines=lines, text=csv_text, sep=sep)


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
        if head.startswith((b"%", b"@relation")):
            return "arff"
    return "csv"


def _decode(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise DataError(
            f"{source}, line {line}: not UTF-8 text (byte 0x{data[exc.start]:02x}); save the file as UTF-8"
        ) from None
